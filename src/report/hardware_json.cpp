// `llmplan hardware --json`: a catalog row, and this machine as detected (moved from the CLI).
#include "llmplan/report.h"

namespace llmplan {
namespace {

using nlohmann::json;

template <class T> json opt(const std::optional<T>& v) {
    return v ? json(*v) : json(nullptr);
}

} // namespace

json device_spec_to_json(const device_spec& d) {
    json j = {
        {"name",                              d.name                                  },
        {"kind",                              to_string(d.kind)                       },
        {"vendor",                            d.vendor                                },
        {"form",                              d.form                                  },
        {"architecture",                      d.architecture                          },
        {"gpu_count",                         d.gpu_count                             },
        {"gpu_model",                         d.gpu_model                             },
        {"gpu_link",                          d.gpu_link                              },
        {"memory_bytes",                      opt(d.memory_bytes)                     },
        {"unified_memory",                    d.unified_memory                        },
        {"unified_memory_bytes",              opt(d.unified_memory_bytes)             },
        {"memory_bandwidth_bytes_per_s",      opt(d.memory_bandwidth_bytes_per_s)     },
        {"fp32_flops",                        opt(d.fp32_flops)                       },
        {"fp16_flops",                        opt(d.fp16_flops)                       },
        {"bf16_flops",                        opt(d.bf16_flops)                       },
        {"fp8_flops",                         opt(d.fp8_flops)                        },
        {"int8_ops",                          opt(d.int8_ops)                         },
        {"tdp_w",                             opt(d.tdp_w)                            },
        {"price_usd",                         opt(d.price_usd)                        },
        {"host_memory_bytes",                 opt(d.host_memory_bytes)                },
        {"host_memory_bandwidth_bytes_per_s", opt(d.host_memory_bandwidth_bytes_per_s)},
        {"cpu_model",                         d.cpu_model                             },
        {"cores",                             opt(d.cores)                            },
        {"threads",                           opt(d.threads)                          },
        {"avx2",                              opt(d.avx2)                             },
        {"avx512",                            opt(d.avx512)                           },
        {"amx",                               opt(d.amx)                              },
        {"sources",                           d.sources                               },
        {"origin",                            d.origin                                },
    };
    j["id"]                 = d.id;
    j["purchase"]           = to_string(purchase_of(d));
    j["needs"]              = host_needs(d);
    j["compute_capability"] = opt(d.compute_capability);
    j["idle_w"]             = opt(d.idle_w);
    j["idle_basis"]         = d.idle_basis;
    j["price_basis"]        = d.price_basis;
    j["price_date"]         = d.price_date;
    if (d.kind == hardware_kind::cloud) {
        j["provider"]           = d.provider;
        j["instance_type"]      = d.instance_type;
        j["price_usd_per_hour"] = opt(d.price_usd_per_hour);
        j["price_region"]       = d.price_region;
    }
    return j;
}

json local_machine_to_json(const local_machine& m, const device_spec& as_row) {
    json gpus = json::array();
    for (const auto& g : m.gpus)
        gpus.push_back({
            {"name",               g.name                  },
            {"memory_total_bytes", g.memory_total_bytes    },
            {"memory_used_bytes",  opt(g.memory_used_bytes)},
            {"via",                g.via                   }
        });
    return {
        {"machine",        device_spec_to_json(as_row)                    },
        {"os",             m.os                                           },
        {"cpu",
         {{"model", m.cpu.model},
          {"sockets", m.cpu.sockets},
          {"cores", m.cpu.cores},
          {"threads", m.cpu.threads},
          {"avx2", m.cpu.flags_known ? json(m.cpu.avx2) : json(nullptr)},
          {"avx512f", m.cpu.flags_known ? json(m.cpu.avx512f) : json(nullptr)},
          {"amx", m.cpu.flags_known ? json(m.cpu.amx) : json(nullptr)}}   },
        {"ram",
         {{"total_bytes", opt(m.ram.total_bytes)},
          {"available_bytes", opt(m.ram.available_bytes)},
          {"measured_read_bytes_per_s", opt(m.measured_read_bytes_per_s)}}},
        {"gpus",           gpus                                           },
        {"unified_memory", m.unified_memory                               },
        {"missing",        m.missing                                      },
    };
}

} // namespace llmplan
