// KV cache rows per layer, by attention kind and engine.
//   MHA/GQA/MQA: K row = n_head_kv * head_dim_k, V row = n_head_kv * head_dim_v elements per token.
//   MLA: engines that cache the latent store kv_lora_rank + qk_rope_head_dim per token (vLLM's MLA
//     backend, one row; llama.cpp's deepseek2 with MLA keeps K = latent + rope and V = latent);
//     transformers' DeepSeek code caches the decompressed K and V of every head.
//   Layers without attention hold no KV; linear-attention / state-space layers hold a constant state
//   per sequence instead (state_layer_bytes), whatever the context.
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

// The per-sequence state of a linear-attention (Gated DeltaNet) layer, as each engine stores it:
//   llama.cpp: llama_memory_recurrent holds r (conv, n_embd_r = (d_conv - 1) x channels) and s (the
//     recurrent state, n_embd_s) per sequence slot in f32 (llama_model::create_memory passes
//     GGML_TYPE_F32 for both; llama-hparams.cpp n_embd_r/n_embd_s), one slot per --parallel sequence.
//   vLLM: MambaStateShapeCalculator.gated_delta_net_state_shape: conv (conv_dim / tp, kernel - 1) and
//     temporal (v_heads / tp, k_dim, v_dim), both in the model dtype (MambaStateDtypeCalculator with
//     mamba_cache_dtype / mamba_ssm_cache_dtype "auto"), one slot per running sequence.
//   transformers: Qwen3NextDynamicCache keeps conv_states (batch, conv_dim, kernel) in the activation
//     dtype (the F.pad of the last kernel inputs) and recurrent_states (batch, v_heads, k_dim, v_dim) in
//     f32 (chunk_gated_delta_rule returns its final state in float32).
std::uint64_t state_layer_bytes(const layer_desc& l, engine_kind e, dtype act, std::uint32_t shards) {
    if (!l.has_state()) return 0;
    const auto& r             = l.recurrent;
    const std::uint64_t split = shards ? shards : 1;
    const std::uint64_t past  = e == engine_kind::transformers ? r.conv_kernel : r.conv_kernel ? r.conv_kernel - 1 : 0;
    const std::uint64_t conv  = r.conv_channels * past / split;
    const std::uint64_t state = r.state_elems / split;
    switch (e) {
    case engine_kind::llama_cpp:
        return (conv + state) * 4;
    case engine_kind::vllm:
        return tensor_bytes_ceil(act, conv) + tensor_bytes_ceil(act, state);
    case engine_kind::transformers:
        return tensor_bytes_ceil(act, conv) + state * 4;
    }
    return 0;
}

} // namespace llmplan
