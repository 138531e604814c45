// What a row is as a purchase (machine, card, CPU, instance, server part), what a part needs around
// it, and which figures a row must have before the planner ranks it (`llmplan hardware --check`).
#include "detail/strings.h"
#include "llmplan/hardware.h"

#include <cmath>
#include <fmt/format.h>

namespace llmplan {

namespace {

bool starts(std::string_view s, std::string_view p) {
    return detail::lower(s).rfind(p, 0) == 0;
}

/// The rest of a PC around a card under load: NVIDIA asks an 850 W supply for the 450 W RTX 4090 and
/// 1000 W for the 575 W RTX 5090 (their product pages), 400-425 W over the card; 400 W is used.
constexpr double pc_besides_card_w = 400.0;

} // namespace

purchase_kind purchase_of(const device_spec& d) {
    switch (d.kind) {
    case hardware_kind::laptop:
    case hardware_kind::local:
        return purchase_kind::machine;
    case hardware_kind::cloud:
        return purchase_kind::instance;
    case hardware_kind::apple:
        return purchase_kind::chip;
    case hardware_kind::gpu:
        if (starts(d.form, "datacenter") || starts(d.form, "cloud")) return purchase_kind::server;
        if (starts(d.form, "laptop")) return purchase_kind::chip; // sold inside a laptop
        return purchase_kind::card;
    case hardware_kind::cpu:
        if (starts(d.form, "desktop")) return purchase_kind::cpu_part;
        if (starts(d.form, "server")) return purchase_kind::server;
        return purchase_kind::chip; // laptop CPUs and Apple cross-references come inside a machine
    }
    return purchase_kind::chip;
}

std::string_view to_string(purchase_kind k) {
    switch (k) {
    case purchase_kind::machine:
        return "machine";
    case purchase_kind::card:
        return "card";
    case purchase_kind::cpu_part:
        return "cpu";
    case purchase_kind::instance:
        return "instance";
    case purchase_kind::server:
        return "server part";
    case purchase_kind::chip:
        return "chip";
    }
    return "?";
}

std::string host_needs(const device_spec& d, unsigned cards) {
    switch (purchase_of(d)) {
    case purchase_kind::card: {
        // Every card draws its load power at once (a layer or tensor split keeps all of them busy), so the
        // supply is the cards' sum plus the rest of the PC, rounded up to the 50 W steps supplies come in.
        const unsigned n        = cards > 0 ? cards : 1;
        const double psu        = d.tdp_w ? std::ceil((*d.tdp_w * n + pc_besides_card_w) / 50.0) * 50.0 : 0;
        const std::string slots = n == 1 ? "a PCIe x16 slot" : fmt::format("{} PCIe x16 slots", n);
        return psu > 0 ? fmt::format("a PC with {} and a {:.0f} W power supply", slots, psu)
                       : fmt::format("a PC with {} and a power supply for the card{}", slots, n == 1 ? "" : "s");
    }
    case purchase_kind::cpu_part:
        return "a motherboard, RAM, a power supply and a case";
    case purchase_kind::server:
        return "a server built for it (rent it as a cloud instance instead)";
    case purchase_kind::chip:
        return "the machine it comes in (see the machines of the catalog)";
    default:
        return {};
    }
}

std::vector<std::string> missing_figures(const device_spec& d) {
    std::vector<std::string> out;
    const auto pk       = purchase_of(d);
    const bool gpu_side = d.has_accelerator();
    if (!gpu_side && !d.host_memory_bytes && !d.memory_bytes) out.emplace_back("memory");
    if (!(gpu_side ? d.memory_bandwidth_bytes_per_s
                   : (d.host_memory_bandwidth_bytes_per_s ? d.host_memory_bandwidth_bytes_per_s
                                                          : d.memory_bandwidth_bytes_per_s)))
        out.emplace_back("memory bandwidth");
    const bool compute =
        gpu_side ? (d.fp16_flops || d.bf16_flops || d.fp32_flops) : (d.fp32_flops || d.cores || d.threads);
    if (!compute) out.emplace_back("compute");
    if (pk == purchase_kind::instance) {
        if (!d.price_usd_per_hour) out.emplace_back("price per hour");
    } else if (pk != purchase_kind::machine || d.kind != hardware_kind::local) {
        if (!d.price_usd)
            out.emplace_back("price");
        else if (d.price_date.empty())
            out.emplace_back("price date");
        if (!d.tdp_w) out.emplace_back("load power");
        if (!d.idle_w && pk != purchase_kind::cpu_part) out.emplace_back("idle power");
    }
    if (d.sources.empty()) out.emplace_back("source");
    return out;
}

std::string hardware_id(std::string_view name) {
    std::string out;
    for (char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u))
            out.push_back(detail::lower_char(c));
        else if (!out.empty() && out.back() != '-')
            out.push_back('-');
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out;
}

} // namespace llmplan
