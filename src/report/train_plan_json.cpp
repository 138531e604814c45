// The training plan document: the contract's plan document (plan_to_json, ../shared/cli-contract.md)
// with the training figures of each candidate added. decode/prefill are 0 for training, and
// cost_per_million_tokens_usd is per million *training* tokens.
#include "llmplan/report.h"
#include "llmplan/train_plan.h"

namespace llmplan {
namespace {

nlohmann::json or_null(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

} // namespace

nlohmann::json train_plan_to_json(nlohmann::json estimate, const plan_result& p, std::uint64_t train_tokens) {
    nlohmann::json j = plan_to_json(std::move(estimate), p);
    auto& cands      = j["candidates"];
    for (std::size_t i = 0; i < p.candidates.size() && i < cands.size(); ++i) {
        const auto& t = p.candidates[i].training;
        if (!t) continue;
        auto& c                 = cands[i];
        const bool timed        = t->train_tokens_per_s > 0;
        c["train_tokens_per_s"] = t->train_tokens_per_s;
        c["step_seconds"]       = timed ? nlohmann::json(t->step_seconds) : nlohmann::json(nullptr);
        c["tokens_per_step"]    = t->tokens_per_step;
        c["run_hours"]          = timed ? nlohmann::json(t->run_hours) : nlohmann::json(nullptr);
        c["run_cost_usd"]       = or_null(t->run_cost_usd);
        if (t->purchase_usd) { // owned rows: a one-off run pays the purchase and its power
            c["purchase_usd"] = *t->purchase_usd;
            c["power_usd"]    = or_null(t->power_usd);
        }
        c["nodes"]              = t->nodes;
        c["gpus_per_node"]      = t->gpus_per_node;
        c["zero_stage"]         = t->zero_stage;
        c["offload_optimizer"]  = t->offload_optimizer;
        c["grad_checkpointing"] = t->grad_checkpointing;
        c["comm_bound"]         = t->comm_bound;
        c["host_memory_bytes"]  = t->host_bytes;
    }
    if (p.recommendation && !p.candidates.empty() && p.candidates.front().training) {
        const auto& t                     = *p.candidates.front().training;
        j["recommendation"]["nodes"]      = t.nodes;
        j["recommendation"]["zero_stage"] = t.zero_stage;
    }
    j["train_tokens"] = train_tokens;
    j["constants"]    = {
           {"train_mfu_of_dense_peak",          train_mfu_of_dense_peak         },
           {"mamf_share_of_dense_peak",         mamf_share_of_dense_peak        },
           {"train_share_of_mamf",              train_share_of_mamf             },
           {"host_share_without_recompute",     host_share_without_recompute    },
           {"dequant_bytes_per_param_per_pass", dequant_bytes_per_param_per_pass},
           {"gpus_per_node",                    gpus_per_node                   },
           {"inter_node_bytes_per_s_per_gpu",   inter_node_bytes_per_s_per_gpu  },
           {"inter_node_link_efficiency",       inter_node_link_efficiency      },
           {"cpu_core_clock_hz",                cpu_core_clock_hz               },
           {"cpu_core_flops_per_cycle",         cpu_core_flops_per_cycle        }
    };
    return j;
}

} // namespace llmplan
