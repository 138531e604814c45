// KV cache rows per layer, by attention kind and engine.
//   MHA/GQA/MQA: K row = n_head_kv * head_dim_k, V row = n_head_kv * head_dim_v elements per token.
//   MLA: engines that cache the latent store kv_lora_rank + qk_rope_head_dim per token (vLLM's MLA
//     backend, one row; llama.cpp's deepseek2 with MLA keeps K = latent + rope and V = latent);
//     transformers' DeepSeek code caches the decompressed K and V of every head.
//   Layers without attention hold no KV.
#include "llmplan/inference.h"

namespace llmplan {

std::uint64_t kv_layer_bytes(const model_desc& m, const layer_desc& l, engine_kind e, dtype k, dtype v,
                             std::uint64_t cells) {
    if (!l.has_kv() || cells == 0) return 0;
    std::uint64_t k_row = 0, v_row = 0;
    if (l.attn == attn_kind::mla && e != engine_kind::transformers) {
        const std::uint64_t latent = m.mla.kv_lora_rank;
        k_row                      = latent + m.mla.qk_rope_head_dim;
        v_row                      = e == engine_kind::llama_cpp ? latent : 0;
    } else {
        k_row = std::uint64_t{l.n_head_kv} * l.head_dim_k;
        v_row = std::uint64_t{l.n_head_kv} * l.head_dim_v;
    }
    // Quantized KV (q8_0, q4_0) is stored in blocks along each row: rows are whole blocks in llama.cpp.
    return cells * (tensor_bytes_ceil(k, k_row) + (v_row ? tensor_bytes_ceil(v, v_row) : 0));
}

} // namespace llmplan
