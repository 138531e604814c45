// DeepSeek Sparse Attention (DSA): MLA attention plus a "lightning indexer" per layer that picks the
// index_topk past tokens each query attends to. Families: DeepSeek-V3.2 (model_type deepseek_v32)
// and GLM-5 / GLM-5.1 / GLM-5.2 (glm_moe_dsa).
//
// The indexer's weights (vllm-project/vllm vllm/model_executor/models/deepseek_v2.py class Indexer;
// the same module list in sgl-project/sglang python/sglang/srt/models/deepseek_v2.py and in
// llama.cpp's LLM_TENSOR_INDEXER_* "blk.%d.indexer.{attn_q_b,attn_k,k_norm,proj}"):
//   wq_b         [index_n_heads x index_head_dim, q_lora_rank]  (reads MLA's q latent)
//   wk           [index_head_dim, n_embd]
//   k_norm       LayerNorm(index_head_dim): weight and bias
//   weights_proj [index_n_heads, n_embd], kept in bf16 by the FP8 checkpoints ("weights_proj is
//                not quantized")
// DeepSeek-V3.2 by hand: 64 x 128 x 1536 + 128 x 7168 + 2 x 128 + 64 x 7168 = 13,959,424 a layer.
// The Hub total of deepseek-ai/DeepSeek-V3.2 (685,396,921,376) is DeepSeek-V3-0324's
// (684,531,386,000) plus 62 layers (61 + the MTP layer) x (13,959,424 + 824 FP8 block scales of
// wq_b and wk): the arithmetic closes exactly (tests/unit/sparse_attention_families_test.cpp).
//
// Its cache: one key of index_head_dim per token and layer, beside MLA's latent (vLLM
// DeepseekV32IndexerCache; llama.cpp llama_kv_cache_dsa's indexer cache). Sizes per engine live in
// estimate/kv_cache.cpp.
//
// GLM-5.2's indexer_types marks each layer "full" (its own indexer) or "shared" (no indexer: it
// reuses the token choice of the last full layer; transformers GlmMoeDsaAttention sets
// self.indexer = None when indexer_types[layer_idx] == "shared", as the mlx-lm port does).
#include "model/arch_tensors.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmplan::detail {
namespace {

using nlohmann::json;

/// A size key: absent -> 0; present, it must be a whole number from 1 to 2^20.
result<std::uint32_t> size_key(const json& cfg, const char* key, std::string_view path) {
    auto it = cfg.find(key);
    if (it == cfg.end() || it->is_null()) return std::uint32_t{0};
    if (!it->is_number_integer() || it->get<std::int64_t>() < 1 || it->get<std::int64_t>() > (1 << 20))
        return make_error(error_code::bad_value, fmt::format("{}; expected a size from 1 to 1048576", it->dump()),
                          fmt::format("{}:/{}", path, key));
    return static_cast<std::uint32_t>(it->get<std::int64_t>());
}

} // namespace

status read_dsa_indexer(model_desc& m, const json& cfg, std::string_view path) {
    auto heads = size_key(cfg, "index_n_heads", path);
    if (!heads) return heads.error();
    auto dim = size_key(cfg, "index_head_dim", path);
    if (!dim) return dim.error();
    auto topk = size_key(cfg, "index_topk", path);
    if (!topk) return topk.error();
    if (*heads == 0 && *dim == 0) return ok(); // dense MLA (DeepSeek-V3, Kimi K2)
    if (*heads == 0 || *dim == 0)
        return make_error(error_code::missing_field,
                          "a sparse-attention indexer needs index_n_heads and index_head_dim",
                          fmt::format("{}:/{}", path, *heads == 0 ? "index_n_heads" : "index_head_dim"));
    // A family no row knows (DeepSeek-V4's compressed attention names index keys too): its indexer's
    // place is unknown, so the reader says so instead of refusing the config (model/unknown_arch.cpp).
    if (m.mla.q_lora_rank == 0 && !m.guessed_weights.empty()) {
        m.guessed_cache.push_back(fmt::format("index_n_heads {} and index_head_dim {}: a sparse-attention indexer "
                                              "whose layout is not known; its weights and key cache are not counted",
                                              *heads, *dim));
        return ok();
    }
    if (m.mla.q_lora_rank == 0)
        return make_error(error_code::missing_field,
                          "the sparse-attention indexer reads the query latent; expected q_lora_rank > 0",
                          fmt::format("{}:/q_lora_rank", path));
    m.mla.index_n_heads  = *heads;
    m.mla.index_head_dim = *dim;
    m.mla.index_topk     = *topk;

    const json* types =
        cfg.contains("indexer_types") && cfg["indexer_types"].is_array() ? &cfg["indexer_types"] : nullptr;
    if (types && types->size() != m.n_layer)
        return make_error(error_code::inconsistent_dims,
                          fmt::format("{} entries for {} layers", types->size(), m.n_layer),
                          fmt::format("{}:/indexer_types", path));
    for (std::uint32_t i = 0; i < m.n_layer; ++i) {
        auto& l = m.layers[i];
        if (l.attn != attn_kind::mla) continue;
        bool own = true;
        if (types) {
            // Compared as std::string: json == const char* trips GCC 12's -Warray-bounds (see recurrent.cpp).
            const json& t          = (*types)[i];
            const std::string kind = t.is_string() ? t.get<std::string>() : std::string();
            if (kind != "full" && kind != "shared")
                return make_error(error_code::bad_value, fmt::format("{}; expected \"full\" or \"shared\"", t.dump()),
                                  fmt::format("{}:/indexer_types/{}", path, i));
            own = kind == "full";
        }
        l.indexer = own;
    }
    return ok();
}

} // namespace llmplan::detail
