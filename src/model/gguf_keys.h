// The GGUF key table: canonical model fields -> GGUF key templates ("%s" = general.architecture),
// tensor names -> roles, and the few per-architecture facts a GGUF header does not state.
#pragma once

#include "llmplan/gguf.h"
#include "llmplan/model_desc.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace llmplan::detail {

/// Canonical hyperparameters read from GGUF keys (llama.cpp's LLM_KV_* subset that we use).
enum class gguf_field : std::uint8_t {
    n_layer,
    n_embd,
    n_ff,
    n_head,
    n_head_kv,
    head_dim_k,
    head_dim_v,
    head_dim_k_mla,
    head_dim_v_mla,
    n_ctx_train,
    n_swa,
    swa_pattern,
    n_expert,
    n_expert_used,
    n_expert_shared,
    n_ff_expert,
    n_ff_shexp,
    n_layer_dense_lead,
    kv_lora_rank,
    q_lora_rank,
    rope_dim,
    n_vocab,
    causal,
    alibi_bias_max,
    norm_eps,
    norm_rms_eps,
    ssm_conv_kernel, ///< recurrent layers (llama.cpp LLM_KV_SSM_*): Mamba, Mamba2, Gated DeltaNet
    ssm_inner_size,
    ssm_state_size,
    ssm_time_step_rank,
    ssm_group_count,
    count
};

/// The template of a field, e.g. "%s.attention.head_count_kv".
std::string_view gguf_key_template(gguf_field f);
/// The key of a field for an architecture, e.g. "llama.attention.head_count_kv".
std::string gguf_key(gguf_field f, std::string_view arch);
/// The KV of a field, nullptr when absent.
const gguf_kv* find_field(const gguf_file& file, gguf_field f, std::string_view arch);

/// A GGUF tensor name split into role, block index and bias flag: "blk.3.attn_q.bias" ->
/// {attn_q, 3, true}. Unknown base names get tensor_role::other.
struct gguf_tensor_name {
    tensor_role role = tensor_role::other;
    int layer        = -1;
    bool is_bias     = false;
};
gguf_tensor_name parse_tensor_name(std::string_view name);

/// What the header of a vocab-only file (no tensors) cannot say; tensors override pos and ffn.
/// When llama.cpp's load_hparams calls an architecture's 80-layer models LLM_TYPE_70B (which
/// llama_tensor_get_type's quantization rules test).
enum class type_70b_rule : std::uint8_t {
    never,
    at_80_layers,           ///< QWEN2, DECI: 80 layers is 70B
    at_80_layers_gqa_dense, ///< LLAMA: 80 layers with grouped KV heads and no experts (MHA is 65B)
};

struct gguf_arch_facts {
    std::string_view arch;
    pos_kind pos;
    ffn_kind ffn;
    std::uint32_t swa_period;        ///< llama.cpp set_swa_pattern(n): layer il is SWA when il % n < n - 1; 0 = all
    bool falcon_quant_rules = false; ///< llama_tensor_get_type's LLM_ARCH_FALCON branches
    type_70b_rule type_70b  = type_70b_rule::never;
};
const gguf_arch_facts& arch_facts(std::string_view arch);

} // namespace llmplan::detail
