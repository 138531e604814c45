// Module paths of our tensors in Hugging Face checkpoints, and the matching rules of the module
// lists that checkpoints' quantization configs carry (quant_modules.h).
#include "model/quant_modules.h"

#include <array>
#include <fmt/format.h>
#include <mutex>
#include <regex>
#include <unordered_map>

namespace llmplan::detail {
namespace {

using enum tensor_role;

struct module_row {
    tensor_role role;
    std::array<std::string_view, 3> names; ///< inside a block, after "<prefix>.layers.N."
};

// clang-format off
// Module names from the transformers modeling files: LlamaAttention / Qwen2 / Qwen3 (q_proj ... o_proj,
// mlp.gate_proj ...), DeepseekV3Attention (q_a_proj, q_b_proj, kv_a_proj_with_mqa, kv_b_proj),
// DeepseekV3MoE (mlp.gate, mlp.experts.N, mlp.shared_experts), Qwen2MoE / Qwen3-Next (mlp.shared_expert,
// mlp.shared_expert_gate), Mixtral / MiniMax (block_sparse_moe.gate, experts.N.w1 / w2 / w3), gpt-oss
// (mlp.router, experts.gate_up_proj), Mamba / Nemotron-H (mixer.in_proj, mixer.out_proj), Qwen3-Next
// Gated DeltaNet (linear_attn.in_proj_qkvz, in_proj_ba, out_proj). Expert 0 stands for every expert.
constexpr module_row layer_modules[] = {
    {attn_q,             {"self_attn.q_proj", "mixer.q_proj", ""}},
    {attn_k,             {"self_attn.k_proj", "mixer.k_proj", ""}},
    {attn_v,             {"self_attn.v_proj", "mixer.v_proj", ""}},
    {attn_output,        {"self_attn.o_proj", "mixer.o_proj", ""}},
    {attn_qkv,           {"self_attn.qkv_proj", "", ""}},
    {attn_q_a,           {"self_attn.q_a_proj", "", ""}},
    {attn_q_b,           {"self_attn.q_b_proj", "", ""}},
    {attn_kv_a,          {"self_attn.kv_a_proj_with_mqa", "", ""}},
    {attn_kv_b,          {"self_attn.kv_b_proj", "", ""}},
    {ffn_gate,           {"mlp.gate_proj", "", ""}},
    {ffn_up,             {"mlp.up_proj", "", ""}},
    {ffn_down,           {"mlp.down_proj", "", ""}},
    {ffn_gate_inp,       {"mlp.gate", "block_sparse_moe.gate", "mlp.router"}},
    {ffn_gate_exps,      {"mlp.experts.0.gate_proj", "block_sparse_moe.experts.0.w1", ""}},
    {ffn_up_exps,        {"mlp.experts.0.up_proj", "block_sparse_moe.experts.0.w3", "mixer.experts.0.up_proj"}},
    {ffn_down_exps,      {"mlp.experts.0.down_proj", "block_sparse_moe.experts.0.w2", "mixer.experts.0.down_proj"}},
    {ffn_gate_up_exps,   {"mlp.experts.gate_up_proj", "", ""}},
    {ffn_gate_shexp,     {"mlp.shared_experts.gate_proj", "mlp.shared_expert.gate_proj", ""}},
    {ffn_up_shexp,       {"mlp.shared_experts.up_proj", "mlp.shared_expert.up_proj", "mixer.shared_experts.up_proj"}},
    {ffn_down_shexp,     {"mlp.shared_experts.down_proj", "mlp.shared_expert.down_proj", "mixer.shared_experts.down_proj"}},
    {ffn_gate_inp_shexp, {"mlp.shared_expert_gate", "", ""}},
    {ssm_in,             {"mixer.in_proj", "linear_attn.in_proj_qkvz", ""}},
    {ssm_ba,             {"linear_attn.in_proj_ba", "", ""}},
    {ssm_out,            {"mixer.out_proj", "linear_attn.out_proj", ""}},
};
// Where the blocks sit: plain causal LMs, Nemotron-H (backbone.layers), and the two multimodal
// wrappers' spellings (Qwen3-VL / Qwen3.5 "model.language_model", Kimi-K2.5 / Llava "language_model.model").
constexpr std::string_view block_prefixes[] = {
    "model.layers.", "backbone.layers.", "model.language_model.layers.", "language_model.model.layers."};
// clang-format on

void add_global(std::vector<std::string>& out, tensor_role r) {
    if (r == output)
        for (std::string_view s : {"lm_head", "language_model.lm_head"})
            out.emplace_back(s);
    if (r == token_embd)
        for (std::string_view s : {"model.embed_tokens", "backbone.embeddings", "model.language_model.embed_tokens",
                                   "language_model.model.embed_tokens"})
            out.emplace_back(s);
}

/// Python's re.match: the pattern anchored at the start of the path. Patterns are compiled once.
bool regex_match_start(std::string_view pattern, const std::string& text) {
    static std::mutex mu;
    static std::unordered_map<std::string, std::optional<std::regex>> cache;
    const std::regex* re = nullptr;
    {
        std::lock_guard lock(mu);
        auto [it, fresh] = cache.try_emplace(std::string(pattern));
        if (fresh) {
            try {
                it->second.emplace("^(?:" + std::string(pattern) + ")");
            } catch (const std::regex_error&) { // a pattern std::regex cannot read names nothing
                it->second.reset();
            }
        }
        re = it->second ? &*it->second : nullptr;
    }
    return re && std::regex_search(text, *re);
}

} // namespace

bool glob_match(std::string_view text, std::string_view pattern) {
    std::size_t t = 0, p = 0, star = std::string_view::npos, mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
            ++t, ++p;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

std::vector<std::string> hf_module_paths(const tensor_desc& t) {
    std::vector<std::string> out;
    if (t.layer < 0) {
        add_global(out, t.role);
        return out;
    }
    for (const auto& row : layer_modules) {
        if (row.role != t.role) continue;
        for (auto prefix : block_prefixes)
            for (auto name : row.names)
                if (!name.empty()) out.push_back(fmt::format("{}{}.{}", prefix, t.layer, name));
    }
    return out;
}

namespace {

bool listed(std::string_view entry, const std::vector<std::string>& paths, module_rule rule) {
    if (entry.empty()) return false;
    const bool re = rule == module_rule::compressed_tensors && entry.starts_with("re:");
    for (const auto& path : paths) {
        switch (rule) {
        case module_rule::modelopt:
            if (path.find(entry) != std::string::npos || glob_match(path, entry)) return true;
            break;
        case module_rule::compressed_tensors:
            if (re ? regex_match_start(entry.substr(3), path) : path == entry) return true;
            break;
        case module_rule::transformers:
            if (path.find(entry) != std::string::npos || glob_match(path, entry) ||
                glob_match(path, std::string(entry) + ".*"))
                return true;
            break;
        }
    }
    return false;
}

/// Whether any entry names one of `paths` (a tensor's module paths, made once for every entry).
bool any_listed(const std::vector<std::string>& entries, const std::vector<std::string>& paths, module_rule rule) {
    for (const auto& e : entries)
        if (listed(e, paths, rule)) return true;
    return false;
}

} // namespace

bool module_listed(std::string_view entry, const tensor_desc& t, module_rule rule) {
    return listed(entry, hf_module_paths(t), rule);
}

bool module_listed(const std::vector<std::string>& entries, const tensor_desc& t, module_rule rule) {
    return !entries.empty() && any_listed(entries, hf_module_paths(t), rule);
}

// Families whose checkpoints keep the MoE block as block_sparse_moe (router "gate", experts.N.w1 / w3 /
// w2): transformers modeling_mixtral.py, modeling_phimoe.py, modeling_minimax.py and MiniMax-M2's
// modeling_minimax_m2.py (its FP8 config lists "gate" for block_sparse_moe.gate; nvidia's NVFP4 copy
// ignores model.layers.N.block_sparse_moe.gate). Every other family spells it mlp.*.
bool module_listed(const std::vector<std::string>& entries, const tensor_desc& t, module_rule rule,
                   std::string_view arch) {
    if (entries.empty()) return false;
    const bool sparse_moe_block = arch == "mixtral" || arch == "phimoe" || arch == "minimax" || arch == "minimax_m2";
    auto paths                  = hf_module_paths(t);
    std::erase_if(paths, [&](const std::string& p) {
        const bool bsm = p.find(".block_sparse_moe.") != std::string::npos;
        const bool mlp_moe =
            p.find(".mlp.experts.") != std::string::npos || p.ends_with(".mlp.gate") || p.ends_with(".mlp.router");
        return sparse_moe_block ? mlp_moe : bsm;
    });
    return any_listed(entries, paths, rule);
}

const quant_override* override_for(const quant_desc& q, const tensor_desc& t) {
    if (q.overrides.empty()) return nullptr;
    const auto paths = hf_module_paths(t);
    for (const auto& o : q.overrides)
        for (const auto& p : paths)
            if (p == o.module || (p.starts_with(o.module) && p.size() > o.module.size() && p[o.module.size()] == '.'))
                return &o;
    return nullptr;
}

} // namespace llmplan::detail
