#include "llmplan/report.h"

namespace llmplan {
namespace {

std::string_view device_name(device_kind d) {
    switch (d) {
    case device_kind::cpu:
        return "cpu";
    case device_kind::cuda:
        return "cuda";
    case device_kind::metal:
        return "metal";
    }
    return "?";
}

std::string_view on_off(bool b) {
    return b ? "on" : "off";
}

nlohmann::json devices_json(const std::vector<device_breakdown>& ds) {
    auto a = nlohmann::json::array();
    for (const auto& d : ds)
        a.push_back(device_to_json(d));
    return a;
}

} // namespace

nlohmann::json device_to_json(const device_breakdown& d) {
    const auto& p = d.parts;
    return {
        {"device",      d.device   },
        {"total_bytes", p.total()  },
        {"parts",
         {{"weights", p.weights},
          {"kv_cache", p.kv_cache},
          {"compute", p.compute},
          {"activations", p.activations},
          {"gradients", p.gradients},
          {"optimizer", p.optimizer},
          {"master_weights", p.master_weights},
          {"adapters", p.adapters},
          {"draft", p.draft},
          {"projector", p.projector},
          {"reserved", p.reserved},
          {"overhead", p.overhead}}},
        {"notes",       d.notes    }
    };
}

nlohmann::json inference_to_json(const model_desc& m, const inference_params& p, const inference_estimate& e) {
    nlohmann::json w = {
        {"task",                   "infer"                                                                   },
        {"engine",                 engine_name(p.engine)                                                     },
        {"device",                 device_name(p.device)                                                     },
        {"gpus",                   p.gpus                                                                    },
        {"weights",                to_string(p.weights)                                                      },
        {"ctx",                    p.ctx                                                                     },
        {"prompt",                 p.prompt ? p.prompt : p.ctx                                               },
        {"batch",                  p.batch                                                                   },
        {"kv_type",                name(e.kv_type)                                                           },
        {"n_batch",                p.n_batch                                                                 },
        {"ubatch",                 p.n_ubatch                                                                },
        {"flash_attn",             on_off(p.flash_attn)                                                      },
        {"gpu_layers",             p.gpu_layers < 0 ? static_cast<std::int64_t>(m.n_layer) : p.gpu_layers    },
        {"mmap",                   on_off(p.mmap)                                                            },
        {"gpu_memory_utilization", p.gpu_memory_utilization                                                  },
        {"max_num_seqs",           p.max_num_seqs                                                            },
        {"device_memory",          p.device_memory_bytes                                                     },
        {"pipeline_parallel",      p.pipeline_parallel                                                       },
        {"draft",                  p.draft ? nlohmann::json(p.draft->id) : nlohmann::json(nullptr)           },
        {"mmproj_bytes",           p.mmproj_bytes ? nlohmann::json(*p.mmproj_bytes) : nlohmann::json(nullptr)},
        {"image_size",             p.image_size                                                              },
        {"reserve",                p.reserve_bytes                                                           },
    };
    nlohmann::json j = {
        {"model",              model_to_json(m)       },
        {"workload",           w                      },
        {"devices",            devices_json(e.devices)},
        {"disk_bytes",         e.disk_bytes           },
        {"weights_detail",
         {{"bytes", e.weights.bytes},
          {"quantized_bytes", e.weights.quantized_bytes},
          {"unquantized_bytes", e.weights.unquantized_bytes},
          {"exact_from_file", e.weights.exact_from_file},
          {"how", e.weights.how}}                     },
        {"kv_bytes_per_token", e.kv_bytes_per_token   },
        {"notes",              e.notes                }
    };
    if (p.engine == engine_kind::vllm)
        j["vllm"] = {
            {"kv_capacity_tokens", e.vllm_kv_capacity_tokens},
            {"max_model_len",      e.vllm_max_model_len     }
        };
    return j;
}

nlohmann::json training_to_json(const model_desc& m, const training_params& p, const training_estimate& e) {
    static constexpr const char* methods[]    = {"full", "lora", "qlora"};
    static constexpr const char* optimizers[] = {"adamw", "adamw-8bit", "sgd", "adafactor"};
    static constexpr const char* precisions[] = {"fp32", "bf16-mixed", "fp16-mixed", "bf16"};
    std::string targets;
    for (const auto& t : p.lora_targets)
        targets += (targets.empty() ? "" : ",") + t;
    nlohmann::json w = {
        {"task",               "train"                                  },
        {"method",             methods[static_cast<int>(p.method)]      },
        {"optimizer",          optimizers[static_cast<int>(p.optimizer)]},
        {"precision",          precisions[static_cast<int>(p.precision)]},
        {"seq",                p.seq                                    },
        {"micro_batch",        p.micro_batch                            },
        {"grad_checkpointing", on_off(p.grad_checkpointing)             },
        {"lora_rank",          p.lora_rank                              },
        {"lora_targets",       targets                                  },
        {"gpus",               p.gpus                                   },
        {"zero",               p.zero_stage                             },
        {"offload_optimizer",  on_off(p.offload_optimizer)              },
    };
    std::uint64_t disk = m.file_bytes;
    if (disk == 0) disk = weights_bytes(m);
    return {
        {"model",            model_to_json(m)       },
        {"workload",         w                      },
        {"devices",          devices_json(e.devices)},
        {"disk_bytes",       disk                   },
        {"trainable_params", e.trainable_params     },
        {"lora_params",      e.lora_params          },
        {"flops_per_token",  e.flops_per_token      },
        {"launch_config",    e.launch_config_json   },
        {"assumptions",      e.assumptions          }
    };
}

} // namespace llmplan

namespace llmplan {
nlohmann::json fit_to_json(const fit_answer& a) {
    return {
        {"budget_bytes", a.budget_bytes                                                                   },
        {"fits",         a.fits_as_asked                                                                  },
        {"max_ctx",      a.max_ctx                                                                        },
        {"max_batch",    a.max_batch                                                                      },
        {"best_weights", a.best_weights.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.best_weights)}
    };
}
} // namespace llmplan
