// check's reports: the engine's figures beside llmplan's, part by part (text and JSON).
#include "estimate/engine_traits.h"
#include "llmplan/check.h"
#include "llmplan/report.h"
#include "report/text_report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmplan {

std::string check_to_text(const model_desc& m, const check_report& r) {
    const auto& f = r.facts;
    std::string s = fmt::format("{} log: {} (as logged: \"{}\"), ctx {}, weights {}\n\n", engine_name(f.engine), m.id,
                                f.model_name, r.params.ctx, to_string(r.params.weights));
    s += fmt::format("{:<12} {:<8} {:>12} {:>12} {:>9}\n", "part", "device", "engine", "llmplan", "diff");
    for (const auto& row : r.rows) {
        const auto d = row.difference();
        s += fmt::format("{:<12} {:<8} {:>12} {:>12} {:>9}\n", row.part, row.device,
                         row.engine_bytes ? human_bytes(static_cast<std::int64_t>(*row.engine_bytes)) : "-",
                         human_bytes(row.llmplan_bytes), d ? fmt::format("{:+.1f}%", *d * 100) : "-");
    }
    if (f.model_size)
        s += fmt::format("\nfile's tensor data (model size) {}; llmplan's weights {}\n",
                         human_bytes(static_cast<std::int64_t>(*f.model_size)),
                         human_bytes(static_cast<std::int64_t>(r.estimate.weights.bytes)));
    for (const auto& n : r.notes)
        s += fmt::format("note: {}\n", n);
    return s;
}

nlohmann::json check_to_json(const model_desc& m, const check_report& r) {
    const auto& f = r.facts;
    nlohmann::json log{
        {"model_name", f.model_name}
    };
    auto opt = [&](const char* k, const auto& v) {
        if (v) log[k] = *v;
    };
    if (!f.file_type.empty()) log["file_type"] = f.file_type;
    opt("gguf_type", f.gguf_ftype);
    opt("model_size_bytes", f.model_size);
    opt("n_ctx", f.n_ctx);
    opt("n_batch", f.n_batch);
    opt("n_ubatch", f.n_ubatch);
    opt("flash_attn", f.flash_attn);
    opt("gpu_layers", f.gpu_layers);
    if (f.type_k) log["type_k"] = name(*f.type_k);
    if (f.type_v) log["type_v"] = name(*f.type_v);
    opt("max_model_len", f.max_model_len);
    opt("gpu_memory_utilization", f.gpu_memory_utilization);
    opt("tensor_parallel_size", f.tensor_parallel);
    opt("total_gpu_memory_bytes", f.total_gpu_memory);
    opt("kv_cache_tokens", f.kv_tokens);
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : r.rows) {
        nlohmann::json j{
            {"part",          row.part         },
            {"device",        row.device       },
            {"llmplan_bytes", row.llmplan_bytes}
        };
        j["engine_bytes"] = row.engine_bytes ? nlohmann::json(*row.engine_bytes) : nlohmann::json(nullptr);
        const auto d      = row.difference();
        j["difference"]   = d ? nlohmann::json(*d) : nlohmann::json(nullptr);
        j["line"]         = nullptr;
        for (const auto& fig : f.figures)
            if (fig.part == row.part && fig.device == row.device) j["line"] = fig.line;
        rows.push_back(std::move(j));
    }
    nlohmann::json out{
        {"engine",         engine_name(f.engine)},
        {"log",            std::move(log)       },
        {"estimate",       inference_to_json(m,   r.params, r.estimate)},
        {"rows",     std::move(rows)                         },
        {"notes",r.notes}
    };
    if (detail::traits_of(f.engine).kv_pool && f.kv_tokens)
        out["kv_cache_tokens"] = {
            {"engine",  *f.kv_tokens                      },
            {"llmplan", r.estimate.vllm_kv_capacity_tokens}
        };
    return out;
}

} // namespace llmplan
