#include "estimate/counters.h"
#include "estimate/engine_traits.h"
#include "llmplan/report.h"
#include "report/json_members.h"

#include <fmt/format.h>

namespace llmplan {
namespace {

std::string_view on_off(bool b) {
    return b ? "on" : "off";
}

/// The devices with the contract's counters on each GPU of a PyTorch run (estimate/counters.h).
template <class Params, class Counters>
nlohmann::json devices_json(const std::vector<device_breakdown>& ds, const Params& p, Counters counters_of) {
    auto a = nlohmann::json::array();
    for (const auto& d : ds) {
        auto j = device_to_json(d);
        if (const auto c = counters_of(d, p))
            LLMPLAN_JSON_MEMBERS(j["counters"], *c, torch_allocated, torch_reserved, device_used);
        a.push_back(std::move(j));
    }
    return a;
}

} // namespace

nlohmann::json device_to_json(const device_breakdown& d) {
    nlohmann::json j;
    LLMPLAN_JSON_MEMBERS(j, d, device, notes);
    j["total_bytes"] = d.parts.total();
    LLMPLAN_JSON_MEMBERS(j["parts"], d.parts, weights, kv_cache, compute, activations, gradients, optimizer,
                         master_weights, adapters, draft, projector, reserved, overhead);
    return j;
}

nlohmann::json inference_to_json(const model_desc& m, const inference_params& p, const inference_estimate& e) {
    nlohmann::json w = {
        {"task",                   "infer"                                                                   },
        {"engine",                 engine_name(p.engine)                                                     },
        {"engine_version",         e.engine_release                                                          },
        {"device",                 to_string(p.device)                                                       },
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
        {"gpu_memory_utilization", gpu_memory_utilization(p)                                                 },
        {"max_num_seqs",           e.vllm_max_num_seqs ? e.vllm_max_num_seqs : p.max_num_seqs                },
        {"max_num_batched_tokens", e.vllm_max_num_batched_tokens                                             },
        {"device_memory",          p.device_memory_bytes                                                     },
        {"pipeline_parallel",      p.pipeline_parallel                                                       },
        {"draft",                  p.draft ? nlohmann::json(p.draft->id) : nlohmann::json(nullptr)           },
        {"mmproj_bytes",           p.mmproj_bytes ? nlohmann::json(*p.mmproj_bytes) : nlohmann::json(nullptr)},
        {"image_size",             p.image_size                                                              },
        {"reserve",                p.reserve_bytes                                                           },
    };
    nlohmann::json j = {
        {"model",                      model_to_json(m)      },
        {"workload",                   w                     },
        {"devices",                    devices_json(e.devices, p, detail::inference_counters)},
        {"disk_bytes", e.disk_bytes                      },
        {"kv_bytes_per_token",                e.kv_bytes_per_token               },
        {"state_bytes_per_sequence",e.state_bytes_per_sequence},
        {"notes",          e.notes                                }
    };
    LLMPLAN_JSON_MEMBERS(j["weights_detail"], e.weights, bytes, quantized_bytes, unquantized_bytes, exact_from_file,
                         how);
    // Error bars: how this kind of estimate compared with measured runs (data/accuracy).
    nlohmann::json acc = {
        {"kind",               fmt::format("{}/{}/{}", engine_name(p.engine), to_string(p.device), e.weight_class)},
        {"weight_class", e.weight_class       },
        {"cases",       e.accuracy ? e.accuracy->cases : 0              },
    };
    if (e.accuracy) {
        acc["within_tolerance"]  = e.accuracy->within_tolerance;
        acc["median_abs_error"]  = e.accuracy->median_abs_error;
        acc["p90_abs_error"]     = e.accuracy->p90_abs_error;
        acc["under_10pct_share"] = e.accuracy->under_10pct_share;
    }
    j["accuracy"] = acc;
    if (p.engine == engine_kind::sglang) // SGLang's names for the same figures
        j["sglang"] = {
            {"mem_fraction_static",  e.sglang_mem_fraction_static },
            {"max_total_num_tokens", e.vllm_kv_capacity_tokens    },
            {"max_running_requests", e.vllm_max_num_seqs          },
            {"chunked_prefill_size", e.vllm_max_num_batched_tokens},
            {"engine_range",         e.engine_range               }
        };
    else if (detail::traits_of(p.engine).kv_pool) // the pool's figures
        j["vllm"] = {
            {"kv_capacity_tokens",   e.vllm_kv_capacity_tokens  },
            {"max_model_len",        e.vllm_max_model_len       },
            {"outside_budget_bytes", e.vllm_outside_budget_bytes},
            {"engine_range",         e.engine_range             }
        };
    return j;
}

static nlohmann::json band_to_json(const memory_band& b) {
    nlohmann::json j;
    LLMPLAN_JSON_MEMBERS(j, b, kind, low, high, cases, text, p10, p90);
    return j;
}

nlohmann::json training_to_json(const model_desc& m, const training_params& p, const training_estimate& e) {
    std::string targets;
    for (const auto& t : p.lora_targets)
        targets += (targets.empty() ? "" : ",") + t;
    nlohmann::json w = {
        {"task",                "train"                     },
        {"method",              to_string(p.method)         },
        {"optimizer",           to_string(p.optimizer)      },
        {"precision",           to_string(p.precision)      },
        {"seq",                 p.seq                       },
        {"micro_batch",         p.micro_batch               },
        {"grad_checkpointing",  on_off(p.grad_checkpointing)},
        {"lora_rank",           p.lora_rank                 },
        {"lora_targets",        targets                     },
        {"gpus",                p.gpus                      },
        {"zero",                p.zero_stage                },
        {"offload_optimizer",   on_off(p.offload_optimizer) },
        {"grad_accum",          p.grad_accum                },
        {"trainer",             e.trainer.name              },
        {"device_memory_bytes", p.device_memory_bytes       },
    };
    std::uint64_t disk = m.file_bytes;
    if (disk == 0) disk = weights_bytes(m);
    nlohmann::json trainer;
    LLMPLAN_JSON_MEMBERS(trainer, e.trainer, name, what, lora_dropout, optimizer_in_backward, foreach_step_temps,
                         kbit_upcast, no_sync_accumulation);
    trainer["loss"]          = std::string(to_string(e.trainer.loss));
    trainer["batch_lengths"] = std::string(to_string(e.trainer.lengths));
    trainer["fsdp_units"]    = e.trainer.fsdp_mixed_units ? "mixed" : "separate";
    trainer["release"]       = e.trainer.release; // "" for the current release
    nlohmann::json band      = nullptr;
    if (e.band) band = band_to_json(*e.band);
    return {
        {"model",                     model_to_json(m)      },
        {"workload",                  w                     },
        {"devices",                   devices_json(e.devices, p, detail::training_counters)},
        {"disk_bytes", disk                      },
        {"trainable_params",                       e.trainable_params                      },
        {"lora_params",e.lora_params},
        {"flops_per_token",                            e.flops_per_token                                                               },
        {"launch_config",e.launch_config_json},
        {"assumptions",                         e.assumptions                                                                                                         },
        {"trainer",trainer},
        {"band",                               band                                                                                                                                                  },
        {"reclaimable_bytes",e.reclaimable_bytes}
    };
}

} // namespace llmplan

namespace llmplan {
/// The answer's budget and whether the request fits as asked; `best`: its best setting, null when none.
template <class Answer> nlohmann::json fit_answer_json(const Answer& a, const char* best_key, const std::string& best) {
    nlohmann::json j;
    LLMPLAN_JSON_MEMBERS(j, a, budget_bytes);
    j["fits"]   = a.fits_as_asked;
    j[best_key] = best.empty() ? nlohmann::json(nullptr) : nlohmann::json(best);
    return j;
}

nlohmann::json training_fit_to_json(const training_fit_answer& a) {
    auto j = fit_answer_json(a, "best_setup", a.best_setup);
    LLMPLAN_JSON_MEMBERS(j, a, max_seq, max_micro_batch);
    j["best_setup_args"] = a.best_setup.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.best_args);
    j["fit_with_args"]   = a.fix_args ? nlohmann::json(*a.fix_args) : nlohmann::json(nullptr);
    return j;
}

nlohmann::json fit_to_json(const fit_answer& a) {
    auto j = fit_answer_json(a, "best_weights", a.best_weights);
    LLMPLAN_JSON_MEMBERS(j, a, max_ctx, max_batch);
    return j;
}
} // namespace llmplan
