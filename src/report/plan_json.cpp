// The plan document: ../shared/cli-contract.md, "llmplan plan".
#include "llmplan/report.h"

namespace llmplan {
namespace {

nlohmann::json or_null(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

} // namespace

nlohmann::json plan_to_json(nlohmann::json estimate, const plan_result& p) {
    nlohmann::json j;
    j["estimate"] = std::move(estimate);
    auto& cands = j["candidates"] = nlohmann::json::array();
    for (const auto& c : p.candidates) {
        nlohmann::json launch = nlohmann::json::object();
        for (const auto& [engine, line] : c.launch)
            launch[engine] = line;
        cands.push_back({
            {"hardware",                    c.hardware                            },
            {"kind",                        c.kind                                },
            {"count",                       c.count                               },
            {"fits",                        c.fits                                },
            {"headroom_bytes",              c.headroom_bytes                      },
            {"decode_tokens_per_s",         c.decode_tokens_per_s                 },
            {"prefill_tokens_per_s",        c.prefill_tokens_per_s                },
            {"cost_per_hour_usd",           or_null(c.cost_per_hour_usd)          },
            {"cost_per_million_tokens_usd", or_null(c.cost_per_million_tokens_usd)},
            {"reasons",                     c.reasons                             },
            {"launch",                      launch                                }
        });
    }
    if (p.recommendation)
        j["recommendation"] = {
            {"hardware", p.recommendation->hardware},
            {"count",    p.recommendation->count   },
            {"why",      p.recommendation->why     }
        };
    else
        j["recommendation"] = nullptr;
    return j;
}

} // namespace llmplan
