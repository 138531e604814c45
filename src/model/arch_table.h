// THE architecture table: one row per Hugging Face model_type, the facts of the family that
// config.json does not state (they live in the family's modeling_*.py in transformers).
#pragma once

#include "llmplan/model_desc.h"

#include <optional>
#include <string_view>

namespace llmplan::detail {

enum class layer_pattern : std::uint8_t {
    none,        ///< every layer full attention (a uniform sliding_window is not applied)
    from_config, ///< config's layer_types list ("sliding_attention"/"full_attention")
    every_other, ///< Gemma-2: layer i is sliding when i is even (Gemma2DecoderLayer)
    every_nth,   ///< Gemma-3: sliding unless (i + 1) % sliding_window_pattern == 0
};

enum class moe_style : std::uint8_t {
    none,
    mixtral,   ///< routed experts only, router without bias
    qwen2_moe, ///< routed + one shared expert with a sigmoid gate
    qwen3_moe, ///< routed experts only, mlp_only_layers dense
    deepseek,  ///< routed + n_shared_experts, first_k_dense_replace dense layers, MLA attention
    gpt_oss,   ///< fused gate_up experts with biases, router with bias
    llama4,    ///< fused gate_up experts + one shared expert; dense layers use intermediate_size_mlp
    glm4_moe,  ///< DeepSeek-V3's experts (shared, first_k_dense_replace, score bias) with GQA attention
};

/// What a family's modeling code does that no config key says, beyond the columns of arch_row. Each
/// flag names its source where the row sets it.
struct family_quirks {
    bool gemma3_defaults   = false; ///< Gemma3TextConfig defaults for keys the Hub configs omit
    bool qk_norm_full      = false; ///< q/k norms span n_head x head_dim (Olmo2Attention), not one head
    bool encoder           = false; ///< bidirectional encoder with pooler and token types (BERT)
    bool embd_norm         = false; ///< a LayerNorm right after the token embedding (BLOOM, BERT)
    bool fixed_qkv_bias    = false; ///< q, k, v always biased, o never: attention_bias is ignored (Qwen-1/2)
    bool out_never_biased  = false; ///< attention_bias switches q, k, v but never o (GLM-4)
    bool new_decoder_norms = false; ///< new_decoder_architecture: two norms per parallel block (Falcon-40B/180B)
    bool pos_offset_2      = false; ///< learned positions keep 2 extra rows (OPTLearnedPositionalEmbedding)
    bool ff_is_sum         = false; ///< intermediate_size is w1 + w2 together (Qwen-1: ff_dim_in = size // 2)
    bool block_configs     = false; ///< per-layer block_configs replace n_ff and heads (Nemotron-NAS / DeciLM)
    /// Encoder-decoder with T5's config keys (d_kv, d_ff, num_decoder_layers, feed_forward_proj,
    /// relative_attention_num_buckets): an encoder stack, then a decoder stack with cross-attention.
    bool t5_stacks = false;
    /// The MoE router always holds e_score_correction_bias, whatever topk_method says (GLM-4.7-Flash:
    /// Glm4MoeLiteTopkRouter registers it unconditionally).
    bool score_bias_always = false;
    /// Gemma 3n / Gemma 4 decoders (model/gemma_ple.cpp): per-layer embeddings, KV shared across the
    /// last layers, and Gemma 3n's AltUp / Laurel blocks or Gemma 4's global heads and MoE block.
    bool gemma3n_blocks = false;
    bool gemma4_blocks  = false;
};

struct arch_row {
    std::string_view model_type;
    ffn_kind ffn;
    norm_kind norm;
    pos_kind pos;
    bool qkv_bias; ///< default when the config has no attention_bias / use_bias key
    bool out_bias;
    bool ffn_bias;
    bool norm_bias;
    bool qk_norm;
    bool parallel;   ///< attention and FFN read one normed input (one norm per layer)
    bool post_norms; ///< Gemma-2/3 sandwich norms: 4 norms per layer
    bool fused_qkv;  ///< the checkpoint stores q, k, v as one tensor
    bool fused_gate_up;
    bool tied_default; ///< tie_word_embeddings when the config does not say
    bool output_bias;  ///< lm_head carries a bias (Phi-2, GPT-J)
    layer_pattern swa;
    moe_style moe;
    /// Remote-code modeling (trust_remote_code) that predates transformers' DynamicCache and
    /// logits_to_keep: a tuple cache rebuilt every step, logits for every prompt position.
    bool legacy_cache;
    /// llama.cpp's architecture name for this family (convert_hf_to_gguf.py's model_arch, the
    /// general.architecture it writes); empty when llama.cpp has no converter for it.
    std::string_view gguf_arch;
    family_quirks quirks;
};

/// The row for a model_type (aliases such as gemma3_text -> gemma3 resolved), or nullopt.
std::optional<arch_row> find_arch(std::string_view model_type);
/// Every supported model_type, for error messages.
std::string_view supported_arch_list();

} // namespace llmplan::detail
