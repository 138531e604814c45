// llmplan fit [HARDWARE] [--ctx N] [--batch N] [--gpus N] [--model ID] [--json]: what runs on a machine
// (this one by default): each catalog model at each precision, the largest that fit, and for a
// chosen model the longest context and the most concurrent sequences.
#include "commands.h"
#include "llmplan/fit_hardware.h"
#include "llmplan/load.h"
#include "llmplan/report.h"

#include <cstdio>
#include <memory>

namespace llmplan::cli {
namespace {

struct fit_options {
    std::string hardware, model, hardware_file;
    std::uint64_t ctx = 4096, batch = 1;
    std::uint32_t gpus = 0;
    std::size_t top    = 5;
    bool json          = false;
};

double gib(std::uint64_t b) {
    return static_cast<double>(b) / (1024.0 * 1024.0 * 1024.0);
}

void print_text(const fit_hardware_result& r) {
    std::printf("%s (%s): %s on %s, %u device(s), %.1f GiB each, budget %.1f GiB, ctx %llu, batch %llu\n",
                r.hardware.c_str(), r.kind.c_str(), r.engine.c_str(), r.device.c_str(), r.gpus, gib(r.memory_bytes),
                gib(r.budget_bytes), static_cast<unsigned long long>(r.ctx), static_cast<unsigned long long>(r.batch));
    for (const auto& n : r.notes)
        std::printf("  note: %s\n", n.c_str());
    std::printf("\nlargest models that fit:\n");
    for (const auto& s : r.largest) {
        std::printf("  %-7s", s.weights.c_str());
        if (s.largest.empty()) std::printf(" none");
        for (std::size_t i = 0; i < s.largest.size(); ++i)
            std::printf("%s %s", i ? "," : "", s.largest[i].c_str());
        std::printf("\n");
    }
    if (!r.chosen_model.empty()) {
        std::printf("\n%s:\n  %-7s %-5s %10s %10s\n", r.chosen_model.c_str(), "weights", "fits", "max ctx", "max seqs");
        for (const auto& a : r.chosen) {
            if (!a.error.empty()) {
                std::printf("  %-7s %s\n", a.weights.c_str(), a.error.c_str());
                continue;
            }
            std::printf("  %-7s %-5s %10llu %10llu\n", a.weights.c_str(), a.answer.fits_as_asked ? "yes" : "no",
                        static_cast<unsigned long long>(a.answer.max_ctx),
                        static_cast<unsigned long long>(a.answer.max_batch));
        }
    }
}

} // namespace

void add_fit_command(CLI::App& app) {
    auto o    = std::make_shared<fit_options>();
    auto* cmd = app.add_subcommand("fit", "What runs on a machine: largest models per precision, longest context");
    cmd->add_option("hardware", o->hardware, "Catalog name (see `llmplan hardware list`); default: this machine");
    cmd->add_option("--model", o->model, "A model to answer for: longest context and most sequences that fit");
    cmd->add_option("--ctx", o->ctx, "Tokens per sequence (default 4096)")->check(CLI::PositiveNumber);
    cmd->add_option("--batch", o->batch, "Concurrent sequences (default 1)")->check(CLI::PositiveNumber);
    cmd->add_option("--gpus", o->gpus, "GPUs to spread a model over (default: the machine's count)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--top", o->top, "Largest fitting models listed per precision (default 5)");
    cmd->add_option("--hardware-file", o->hardware_file, "CSV of your own machines (same format as the catalog)");
    cmd->add_flag("--json", o->json, "Print JSON");
    cmd->callback([o] {
        fit_hardware_options fo;
        fo.ctx   = o->ctx;
        fo.batch = o->batch;
        fo.gpus  = o->gpus;
        fo.top   = o->top;
        if (!o->model.empty()) {
            auto m = load_model(o->model, hub_options());
            if (!m) fail(m.error());
            fo.chosen = std::move(*m);
        }
        std::vector<model_desc> models;
        for (const auto& e : catalog())
            if (auto m = load_catalog_model(e)) models.push_back(std::move(*m));

        result<fit_hardware_result> r = make_error(error_code::invalid_params, "unset");
        if (o->hardware.empty()) {
            const auto local = to_device_spec(detect_local_hardware());
            r                = fit_hardware(local, models, fo);
        } else if (o->hardware_file.empty()) {
            r = fit_named_hardware(o->hardware, builtin_hardware(), models, fo);
        } else {
            auto c = catalog_with_file(o->hardware_file);
            if (!c) fail(c.error());
            r = fit_named_hardware(o->hardware, *c, models, fo);
        }
        if (!r) fail(r.error());
        if (o->json)
            print_json(fit_hardware_to_json(*r));
        else
            print_text(*r);
    });
}

} // namespace llmplan::cli
