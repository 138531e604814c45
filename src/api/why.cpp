// why: each part of an estimate with the formula and source its estimator follows, and the rule of
// thumb (parameters x bytes per parameter) beside the total, so a reader sees what the rule misses.
#include "detail/checked_number.h"
#include "estimate/gguf_recipe.h"
#include "llmplan/dtype.h"
#include "llmplan/sweep.h"

#include <array>
#include <cmath>
#include <nlohmann/json.hpp>

namespace llmplan {
namespace {

using nlohmann::json;

struct part_text {
    std::string_view part, formula, source;
};

// What each contract part counts (../shared/cli-contract.md) and where the mechanism is from. The
// estimate's own notes (per device) say which of these applied and with what numbers.
// clang-format off
constexpr std::array<part_text, 9> part_texts{{
    {"weights", "sum over tensors of elements x bits per element / 8, at each tensor's stored type",
     "GGUF / safetensors headers when read; else the architecture's tensor shapes (config.json)"},
    {"kv_cache", "2 (K and V) x KV layers x KV heads x head dim x bytes per element x context x sequences",
     "llama.cpp llama_kv_cache, vLLM KV block pool (whole pool: gpu-memory-utilization), transformers "
     "DynamicCache"},
    {"compute", "the engine's scratch buffers for one batch of tokens (the graph of one ubatch)",
     "llama.cpp ggml_backend_sched compute buffer; vLLM profile run"},
    {"activations", "tensors alive at the peak of a forward (and backward) pass: hidden states, attention, "
                    "MLP and fp32 logits over the vocabulary",
     "PyTorch autograd saved tensors; transformers forward"},
    {"gradients", "one gradient per trainable parameter, in its training dtype", "PyTorch autograd"},
    {"optimizer", "optimizer state per trainable parameter: AdamW 2 x fp32, 8-bit AdamW 2 x 1 byte, SGD none",
     "torch.optim.AdamW, bitsandbytes AdamW8bit"},
    {"master_weights", "fp32 copy of the trainable parameters under mixed precision",
     "mixed-precision training (DeepSpeed / transformers Trainer)"},
    {"adapters", "LoRA A and B: rank x (in + out) per target matrix, in fp32", "PEFT LoraLayer"},
    {"overhead", "the runtime's own memory outside the allocator: CUDA context, kernels, libraries",
     "measured runs of the engines: total minus allocated"},
}};
// clang-format on

// Bits per parameter the rule of thumb uses for a --weights name: the type's own bits ("q4_k_m" 4.5+,
// "bf16" 16); GPTQ / AWQ / NF4 store 4 (or 8) bits per weight before scales.
double rule_bits(std::string_view weights, std::string_view model_dtype) {
    if (weights.empty() || weights == "native") weights = model_dtype;
    if (weights.starts_with("gptq-")) weights.remove_prefix(5);
    if (weights == "awq" || weights == "nf4") return 4;
    if (const auto t = dtype_from_name(weights)) return bits_per_element(*t);
    // A llama-quantize file type ("q4_k_m") at its main tensor type's bits (q4_k: 4.5): the rule knows
    // GGUF quants (issue 25, finding 10: it read q4_k_m as 16 bits and "missed -9.43 GiB").
    if (const auto f = gguf_ftype_from_name(weights)) return bits_per_element(f->base);
    return 16; // unknown name: the 2 bytes per parameter of the usual rule
}

} // namespace

api_response why(const api_options& options, const load_options& sources) {
    const auto est = answer("estimate", options, sources);
    if (est.status != 200) return est;
    const json e = json::parse(est.body);

    json devices       = json::array();
    std::int64_t total = 0;
    for (const auto& d : e["devices"]) {
        total += d["total_bytes"].get<std::int64_t>();
        json ps = json::array();
        for (const auto& p : part_texts) {
            const auto b = d["parts"].value(std::string(p.part), std::int64_t{0});
            if (b == 0) continue;
            json row;
            row["part"]    = p.part;
            row["bytes"]   = b;
            row["formula"] = p.formula;
            row["source"]  = p.source;
            ps.push_back(row);
        }
        json dev;
        dev["device"]      = d["device"];
        dev["total_bytes"] = d["total_bytes"];
        dev["parts"]       = ps;
        dev["notes"]       = d.value("notes", json::array());
        devices.push_back(dev);
    }
    const auto& w         = e.contains("workload") ? e["workload"] : json::object();
    const auto n_params   = e["model"].value("n_params", std::uint64_t{0});
    const double bits     = rule_bits(w.value("weights", std::string()), e["model"].value("dtype", std::string()));
    const auto rule_bytes = detail::saturate<std::uint64_t>(static_cast<double>(n_params) * bits / 8);
    json assumptions      = e.value("assumptions", json::array());
    for (const auto& n : e.value("notes", json::array()))
        assumptions.push_back(n);
    if (e.contains("weights_detail")) assumptions.push_back("weights: " + e["weights_detail"].value("how", ""));
    json rule;
    rule["n_params"]       = n_params;
    rule["bits_per_param"] = bits;
    rule["bytes"]          = rule_bytes;
    rule["formula"]        = "parameters x bits per parameter / 8 (weights only)";
    json out;
    out["devices"]           = devices;
    out["rule_of_thumb"]     = rule;
    out["total_bytes"]       = total;
    out["rule_misses_bytes"] = total - static_cast<std::int64_t>(rule_bytes);
    out["assumptions"]       = assumptions;
    return {200, out.dump(-1, ' ', false, json::error_handler_t::replace)};
}

} // namespace llmplan
