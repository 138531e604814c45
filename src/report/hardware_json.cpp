// `llmplan hardware --json`: a catalog row, and this machine as detected (moved from the CLI).
#include "llmplan/report.h"
#include "report/json_members.h"

namespace llmplan {

using nlohmann::json;

json device_spec_to_json(const device_spec& d) {
    json j;
    LLMPLAN_JSON_MEMBERS(j, d, name, vendor, form, architecture, gpu_count, gpu_model, gpu_link, memory_bytes,
                         unified_memory, unified_memory_bytes, memory_bandwidth_bytes_per_s, fp32_flops, fp16_flops,
                         bf16_flops, fp8_flops, int8_ops, tdp_w, price_usd, host_memory_bytes,
                         host_memory_bandwidth_bytes_per_s, cpu_model, cores, threads, avx2, avx512, amx, sources,
                         origin, id, compute_capability, idle_w, idle_basis, price_basis, price_date);
    j["kind"]     = to_string(d.kind);
    j["purchase"] = to_string(purchase_of(d));
    j["needs"]    = host_needs(d);
    if (d.kind == hardware_kind::cloud)
        LLMPLAN_JSON_MEMBERS(j, d, provider, instance_type, price_usd_per_hour, price_region);
    return j;
}

json local_machine_to_json(const local_machine& m, const device_spec& as_row) {
    json gpus = json::array();
    for (const auto& g : m.gpus)
        gpus.push_back({
            {"name",               g.name              },
            {"memory_total_bytes", g.memory_total_bytes},
            {"memory_used_bytes",  g.memory_used_bytes },
            {"via",                g.via               }
        });
    json j = {
        {"machine",        device_spec_to_json(as_row)                 },
        {"os",             m.os                                        },
        {"cpu",
         {{"avx2", m.cpu.flags_known ? json(m.cpu.avx2) : json(nullptr)},
          {"avx512f", m.cpu.flags_known ? json(m.cpu.avx512f) : json(nullptr)},
          {"amx", m.cpu.flags_known ? json(m.cpu.amx) : json(nullptr)}}},
        {"ram",
         {{"total_bytes", m.ram.total_bytes},
          {"available_bytes", m.ram.available_bytes},
          {"measured_read_bytes_per_s", m.measured_read_bytes_per_s}}  },
        {"gpus",           gpus                                        },
        {"unified_memory", m.unified_memory                            },
        {"missing",        m.missing                                   },
    };
    LLMPLAN_JSON_MEMBERS(j["cpu"], m.cpu, model, sockets, cores, threads);
    return j;
}

} // namespace llmplan
