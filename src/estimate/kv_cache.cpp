// KV cache rows per layer, by attention kind and engine.
//   MHA/GQA/MQA: K row = n_head_kv * head_dim_k, V row = n_head_kv * head_dim_v elements per token.
//   MLA: engines that cache the latent store kv_lora_rank + qk_rope_head_dim per token (vLLM's MLA
//     backend, one row; llama.cpp's deepseek2 with MLA keeps K = latent + rope and V = latent);
//     transformers' DeepSeek code caches the decompressed K and V of every head.
//   DeepSeek Sparse Attention (DeepSeek-V3.2, GLM-5): a layer with a lightning indexer also caches one
//     index key of index_head_dim per token (indexer_row_bytes); in vLLM an fp8 MLA cache takes
//     DeepSeek's fp8_ds_mla layout (sparse_mla_fp8_row_bytes).
//   Layers without attention hold no KV; linear-attention / state-space layers hold a constant state
//   per sequence instead (state_layer_bytes), whatever the context.
#include "estimate/engine_traits.h"
#include "llmplan/inference.h"

namespace llmplan {

namespace {

/// The lightning indexer's key for one token, as each engine caches it:
///   vLLM (vllm/model_executor/models/deepseek_v2.py Indexer): DeepseekV32IndexerCache(head_dim =
///     index_head_dim + index_head_dim // quant_block_size * 4, dtype uint8), quant_block_size 128:
///     "fp8 naive cache, where we store value in fp8 and scale in fp32 per quant_block_size element",
///     whatever --kv-cache-dtype says (128 + 4 = 132 bytes for DeepSeek-V3.2 and GLM-5).
///   llama.cpp (src/llama-kv-cache-dsa.cpp, PR 21149): a second llama_kv_cache for the indexer keys
///     built from the model's hparams with n_head_kv 1 and n_embd_head_k = indexer_head_size, in
///     type_k; still an MLA model, so no V tensor (llama-kv-cache.cpp: has_v = !is_mla).
///   transformers (modeling_glm_moe_dsa.py GlmMoeDsaIndexer): "manages its own key cache
///     (_cached_keys)", the keys concatenated along the sequence in the activation dtype.
std::uint64_t indexer_row_bytes(const model_desc& m, engine_kind e, dtype k) {
    const std::uint64_t d = m.mla.index_head_dim;
    if (e == engine_kind::vllm) return d + d / 128 * 4;
    return tensor_bytes_ceil(k, d);
}

/// vLLM's MLA row for a sparse-attention model with an fp8 KV cache: vllm/model_executor/models/config.py
/// DeepseekV32ForCausalLM.verify_and_update_config turns any fp8 cache dtype into "fp8_ds_mla", the
/// FlashMLA sparse layout of 656 bytes for DeepSeek-V3.2: the kv_lora_rank latent in fp8 (512), one
/// fp32 scale per 128 of it (16), the rope part left in bf16 (2 x 64 = 128).
std::uint64_t sparse_mla_fp8_row_bytes(const model_desc& m) {
    const std::uint64_t latent = m.mla.kv_lora_rank;
    return latent + latent / 128 * 4 + 2 * std::uint64_t{m.mla.qk_rope_head_dim};
}

bool is_fp8(dtype d) {
    return d == dtype::f8_e4m3 || d == dtype::f8_e5m2;
}

/// DeepSeek-V4's compressed attention (layer_desc::compressed; model/arch/compressed_attention.cpp):
/// one row per cached token (window) or per `ratio` tokens (compressed), as each engine stores it.
///   vLLM (vllm/v1/attention/backends/mla/sparse_swa.py DeepseekSparseSWABackend.get_kv_cache_shape,
///     layers/deepseek_v4_attention.py head_bytes): DeepseekV4 only takes an fp8 cache, turned into
///     "fp8_ds_mla": 584 bytes a row for head_dim 512 = 448 fp8 NoPE + 64 bf16 RoPE (128) + 7 scale
///     bytes + 1 pad, for the window (DeepseekV4SWACache) and the compressed rows alike (MLAAttentionSpec
///     with compress_ratio, the compressor writing the same layout); the indexer's keys (ratio-4 layers,
///     DeepseekV4IndexerCache) are 128 fp8 + one fp32 scale a 128 = 132 bytes, every 4 tokens.
///   SGLang runs the model too (its test suite launches deepseek-ai/DeepSeek-V4-Flash); its pool was not
///     read here: taken as vLLM's layout.
///   llama.cpp (src/models/deepseek4.cpp) and the others: not read; rows of head_dim in the cache type.
std::uint64_t dsv4_row_bytes(const layer_desc& l, engine_kind e, dtype k) {
    const std::uint64_t head = l.head_dim_k, rope = l.compressed.rope_dim;
    if (e == engine_kind::vllm || e == engine_kind::sglang) return (head - rope) + 2 * rope + (head - rope) / 64 + 1;
    return tensor_bytes_ceil(k, head);
}
std::uint64_t dsv4_index_row_bytes(const layer_desc& l, engine_kind e, dtype k) {
    const std::uint64_t d = l.compressed.index_dim;
    if (d == 0) return 0;
    if (e == engine_kind::vllm || e == engine_kind::sglang) return d + d / 128 * 4;
    return tensor_bytes_ceil(k, d);
}

/// The part that grows with the context: one row (and index key) every `ratio` tokens. For one token
/// (cells = 1) this is a fraction of a row, rounded up: 584 / 128 counts 5 bytes, not 4.56.
std::uint64_t dsv4_context_bytes(const layer_desc& l, engine_kind e, dtype k, std::uint64_t cells) {
    const std::uint64_t ratio = l.compressed.ratio;
    if (ratio <= 1) return 0; // the window only: a constant per sequence (dsv4_sequence_bytes)
    const std::uint64_t row = dsv4_row_bytes(l, e, k) + dsv4_index_row_bytes(l, e, k);
    return (cells * row + ratio - 1) / ratio;
}

/// The part fixed per sequence: the window's rows, and the compressors' fp32 states.
///   vLLM layers/deepseek_compressor.py CompressorStateCache: a SlidingWindowMLASpec of coff x ratio
///   tokens, each 2 x coff x head_dim fp32 (kv_state + score_state; coff = 2 at ratio 4, else 1), for
///   the attention's compressor (head_dim 512) and the indexer's (index_head_dim 128).
std::uint64_t dsv4_sequence_bytes(const layer_desc& l, engine_kind e, dtype k) {
    const std::uint64_t window = std::uint64_t{l.compressed.window} * dsv4_row_bytes(l, e, k);
    const std::uint64_t ratio  = l.compressed.ratio;
    if (ratio <= 1) return window;
    const std::uint64_t coff  = ratio == 4 ? 2 : 1;
    const auto state          = [&](std::uint64_t width) { return coff * ratio * 2 * coff * width * 4; };
    const std::uint64_t index = l.compressed.index_dim ? state(l.compressed.index_dim) : 0;
    return window + state(l.head_dim_k) + index;
}

} // namespace

std::uint64_t kv_layer_bytes(const model_desc& m, const layer_desc& l, engine_kind e, dtype k, dtype v,
                             std::uint64_t cells) {
    // A layer sharing an earlier layer's K and V (Gemma 3n / 4) caches none: llama.cpp allocates cells
    // only for il < n_layer_kv_from_start (llama_hparams::has_kv; gemma4.cpp sets it to n_layer -
    // shared_kv_layers, gemma3n hard-codes 20 = 30 - 10 = 35 - 15 for E2B / E4B), vLLM gives such a
    // layer kv_sharing_target_layer_name (models/gemma4.py, gemma3n.py), transformers skips its
    // cache update (modeling_gemma4.py is_kv_shared_layer).
    if (!l.has_kv() || l.kv_shared || cells == 0) return 0;
    if (l.compressed.ratio) return dsv4_context_bytes(l, e, k, cells);
    using mla           = detail::engine_traits::mla_kind;
    const mla cache     = detail::traits_of(e).mla;
    std::uint64_t k_row = 0, v_row = 0;
    if (l.attn == attn_kind::mla && cache != mla::per_head) {
        const std::uint64_t latent = m.mla.kv_lora_rank;
        k_row                      = latent + m.mla.qk_rope_head_dim;
        v_row                      = cache == mla::latent_k_and_v ? latent : 0;
    } else {
        k_row = std::uint64_t{l.n_head_kv} * l.head_dim_k;
        v_row = std::uint64_t{l.n_head_kv} * l.head_dim_v;
    }
    const std::uint64_t index = l.indexer ? indexer_row_bytes(m, e, k) : 0;
    if (l.indexer && l.attn == attn_kind::mla && e == engine_kind::vllm && is_fp8(k))
        return cells * (sparse_mla_fp8_row_bytes(m) + index);
    // Quantized KV (q8_0, q4_0) is stored in blocks along each row: rows are whole blocks in llama.cpp.
    return cells * (tensor_bytes_ceil(k, k_row) + (v_row ? tensor_bytes_ceil(v, v_row) : 0) + index);
}

// The per-sequence state of a linear-attention / state-space layer, as each engine stores it:
//   llama.cpp: llama_memory_recurrent holds r (conv, n_embd_r = (d_conv - 1) x channels, channels =
//     d_inner + 2 n_group d_state for Mamba2, d_inner for Mamba) and s (the SSM / recurrent state,
//     n_embd_s = d_state x d_inner for Mamba) per sequence slot in f32 (llama-hparams.cpp n_embd_r /
//     n_embd_s; llama_model::create_memory passes GGML_TYPE_F32 for both), one slot per --parallel sequence.
//   vLLM: MambaStateShapeCalculator (model_executor/layers/mamba/mamba_utils.py): conv (conv_dim / tp,
//     kernel - 1) and temporal (v_heads / tp, head dims) for Gated DeltaNet; Mamba1 (d_inner / tp,
//     kernel - 1) and (d_inner / tp, d_state); Mamba2 (conv_dim / tp, kernel - 1) with n_groups raised
//     to tp when it does not divide it (extra_groups_for_head_shards: B and C replicated with their
//     heads) and (n_heads / tp, head_dim, d_state). Both in the model dtype (MambaStateDtypeCalculator,
//     mamba_cache_dtype / mamba_ssm_cache_dtype "auto"), except NemotronH's SSM state, which vLLM's
//     config hook sets to float32. One slot per running sequence.
//   transformers: the whole kernel of past inputs. Qwen3NextDynamicCache keeps conv_states (batch,
//     conv_dim, kernel) in the activation dtype and recurrent_states in f32 (chunk_gated_delta_rule
//     returns its final state in float32); MambaCache / Mamba2Cache / HybridMambaAttentionDynamicCache
//     (Jamba, Bamba, GraniteMoeHybrid, NemotronH) allocate conv (batch, channels, d_conv) and ssm
//     states in the model dtype they are built with.
std::uint64_t state_layer_bytes(const layer_desc& l, engine_kind e, dtype act, std::uint32_t shards) {
    // DeepSeek-V4's window and compressor states: fixed per sequence like a recurrent state; fp8 rows in
    // vLLM whatever the activations (the cache type of the other engines is taken as act here).
    if (l.compressed.ratio) return dsv4_sequence_bytes(l, e, act);
    if (!l.has_state()) return 0;
    using mixer               = layer_desc::recurrent_state::mixer;
    const auto& r             = l.recurrent;
    const std::uint64_t split = shards ? shards : 1;
    const auto& engine        = detail::traits_of(e);
    const std::uint64_t past  = engine.conv_state_whole_kernel ? r.conv_kernel : r.conv_kernel ? r.conv_kernel - 1 : 0;
    std::uint64_t channels    = r.conv_channels;
    // Tensor parallel replicates B and C with their heads when n_groups does not divide (vLLM's
    // extra_groups_for_head_shards).
    if (engine.tensor_parallel && r.kind == mixer::mamba2 && r.n_groups % split != 0)
        channels = r.value_width + 2 * (r.n_groups + split - r.n_groups) * std::uint64_t{r.d_state};
    const std::uint64_t conv  = channels * past / split;
    const std::uint64_t state = r.state_elems / split;
    // The one per-engine formula left: which dtype each part of the state is stored in.
    switch (e) {
    case engine_kind::llama_cpp:
        return (conv + state) * 4;
    case engine_kind::vllm:
    case engine_kind::sglang: // not read in SGLang's mamba pool here: taken as vLLM's dtypes
        return tensor_bytes_ceil(act, conv) + (r.vllm_ssm_f32 ? state * 4 : tensor_bytes_ceil(act, state));
    case engine_kind::transformers:
    case engine_kind::mlx: // mlx-lm's ArraysCache: conv and SSM states in the activations' dtype (not read
                           // for gated-delta layers: taken as transformers' f32 recurrent state)
        return tensor_bytes_ceil(act, conv) +
               (r.kind == mixer::gated_delta ? state * 4 : tensor_bytes_ceil(act, state));
    }
    return 0;
}

} // namespace llmplan
