#include "model/arch_table.h"

#include <array>

namespace llmplan::detail {
namespace {

using fk = ffn_kind;
using nk = norm_kind;
using pk = pos_kind;
using lp = layer_pattern;
using ms = moe_style;

// Sources: each family's modeling_*.py in huggingface/transformers (module lists of the decoder
// layer), checked by the parameter counts of tests/unit/param_count_test.cpp against the Hub totals.
// clang-format off
constexpr std::array arch_rows{
//  model_type     ffn        norm       pos         qkvb   outb   ffnb   normb  qknorm paral  postn  fqkv   fgu    tied   outb   swa             moe          legacy gguf_arch quirks
arch_row{"llama",       fk::gated, nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::none, false, "llama", {}},
arch_row{"mistral",     fk::gated, nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::none, false, "llama", {}},
arch_row{"mixtral",     fk::moe,   nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::mixtral, false, "llama", {}},
arch_row{"qwen2",       fk::gated, nk::rms,   pk::rope,    true,  false, false, false, false, false, false, false, false, false, false, lp::none,        ms::none, false, "qwen2", {.fixed_qkv_bias = true}},
arch_row{"qwen2_moe",   fk::moe,   nk::rms,   pk::rope,    true,  false, false, false, false, false, false, false, false, false, false, lp::none,        ms::qwen2_moe, false, "qwen2moe", {.fixed_qkv_bias = true}},
arch_row{"qwen3",       fk::gated, nk::rms,   pk::rope,    false, false, false, false, true,  false, false, false, false, false, false, lp::none,        ms::none, false, "qwen3", {}},
arch_row{"qwen3_moe",   fk::moe,   nk::rms,   pk::rope,    false, false, false, false, true,  false, false, false, false, false, false, lp::none,        ms::qwen3_moe, false, "qwen3moe", {}},
arch_row{"gemma",       fk::gated, nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, true,  false, lp::none,        ms::none, false, "gemma", {}},
arch_row{"gemma2",      fk::gated, nk::rms,   pk::rope,    false, false, false, false, false, false, true,  false, false, true,  false, lp::every_other, ms::none, false, "gemma2", {}},
arch_row{"gemma3",      fk::gated, nk::rms,   pk::rope,    false, false, false, false, true,  false, true,  false, false, true,  false, lp::every_nth,   ms::none, false, "gemma3", {.gemma3_defaults = true}},
// Gemma 3n (modeling_gemma3n.py) and Gemma 4 (modeling_gemma4.py): Gemma 3 blocks (q/k norms of one
// head, sandwich norms, tied embeddings, sliding/full per layer_types) plus what model/gemma_ple.cpp
// adds: per-layer embeddings, KV sharing, AltUp and Laurel (3n), global heads, K=V and MoE (4).
arch_row{"gemma3n_text",fk::gated, nk::rms,   pk::rope,    false, false, false, false, true,  false, true,  false, false, true,  false, lp::from_config, ms::none, false, "gemma3n", {.gemma3n_blocks = true}},
arch_row{"gemma4_text", fk::gated, nk::rms,   pk::rope,    false, false, false, false, true,  false, true,  false, false, true,  false, lp::from_config, ms::none, false, "gemma4", {.gemma4_blocks = true}},
arch_row{"phi",         fk::plain, nk::layer, pk::rope,    true,  true,  true,  true,  false, true,  false, false, false, false, true,  lp::none,        ms::none, false, "phi2", {}},
arch_row{"phi3",        fk::gated, nk::rms,   pk::rope,    false, false, false, false, false, false, false, true,  true,  false, false, lp::none,        ms::none, false, "phi3", {}},
arch_row{"gpt2",        fk::plain, nk::layer, pk::learned, true,  true,  true,  true,  false, false, false, true,  false, true,  false, lp::none,        ms::none, false, "gpt2", {}},
arch_row{"gpt_bigcode", fk::plain, nk::layer, pk::learned, true,  true,  true,  true,  false, false, false, true,  false, true,  false, lp::none,        ms::none, false, "starcoder", {}},
arch_row{"gpt_neox",    fk::plain, nk::layer, pk::rope,    true,  true,  true,  true,  false, false, false, true,  false, false, false, lp::none,        ms::none, false, "gptneox", {}},
arch_row{"gptj",        fk::plain, nk::layer, pk::rope,    false, false, true,  true,  false, true,  false, false, false, false, true,  lp::none,        ms::none, false, "gptj", {}},
arch_row{"opt",         fk::plain, nk::layer, pk::learned, true,  true,  true,  true,  false, false, false, false, false, true,  false, lp::none,        ms::none, false, "", {.pos_offset_2 = true}},
arch_row{"bloom",       fk::plain, nk::layer, pk::alibi,   true,  true,  true,  true,  false, false, false, true,  false, true,  false, lp::none,        ms::none, false, "bloom", {.embd_norm = true}},
arch_row{"falcon",      fk::plain, nk::layer, pk::rope,    false, false, false, true,  false, true,  false, true,  false, true,  false, lp::none,        ms::none, false, "falcon", {.new_decoder_norms = true}},
arch_row{"starcoder2",  fk::plain, nk::layer, pk::rope,    true,  true,  true,  true,  false, false, false, false, false, true,  false, lp::none,        ms::none, false, "starcoder2", {}},
arch_row{"deepseek_v2", fk::moe,   nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::deepseek, false, "deepseek2", {}},
arch_row{"deepseek_v3", fk::moe,   nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::deepseek, false, "deepseek2", {}},
// DeepSeek-V3.2 (DeepseekV32ForCausalLM): DeepSeek-V3's blocks plus a lightning indexer per layer
// (model/arch/dsa_indexer.cpp); llama.cpp names it deepseek32 (llama-arch.cpp LLM_ARCH_NAMES).
arch_row{"deepseek_v32",fk::moe,   nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::deepseek, false, "deepseek32", {}},
// DeepSeek-V4-Flash / -Pro (DeepseekV4ForCausalLM; vLLM models/deepseek_v4.py): DeepSeek-V3's experts
// (n_shared_experts, noaux_tc router bias, no dense layers) beside an attention of its own, laid out by
// model/arch/compressed_attention.cpp. llama.cpp: LLM_ARCH_DEEPSEEK4 "deepseek4" (src/llama-arch.cpp,
// src/models/deepseek4.cpp @ 7b2b731ee2f1).
arch_row{"deepseek_v4", fk::moe,   nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::glm4_moe, false, "deepseek4", {}},
arch_row{"gpt_oss",     fk::moe,   nk::rms,   pk::rope,    true,  true,  false, false, false, false, false, false, false, false, false, lp::from_config, ms::gpt_oss, false, "gpt-oss", {}},
arch_row{"glm4",        fk::gated, nk::rms,   pk::rope,    true,  false, false, false, false, false, true,  false, true,  false, false, lp::none,        ms::none, false, "glm4", {.out_never_biased = true}},
arch_row{"cohere",      fk::gated, nk::layer, pk::rope,    false, false, false, false, false, true,  false, false, false, true,  false, lp::none,        ms::none, false, "command-r", {}},
arch_row{"bert",        fk::plain, nk::layer, pk::learned, true,  true,  true,  true,  false, false, false, false, false, true,  false, lp::none,        ms::none, false, "bert", {.encoder = true, .embd_norm = true}},
arch_row{"qwen",        fk::gated, nk::rms,   pk::rope,    true,  false, false, false, false, false, false, true,  false, false, false, lp::none,        ms::none, true , "qwen", {.fixed_qkv_bias = true, .ff_is_sum = true}},
arch_row{"internlm2",   fk::gated, nk::rms,   pk::rope,    false, false, false, false, false, false, false, true,  false, false, false, lp::none,        ms::none, false, "internlm2", {}},
arch_row{"olmo2",       fk::gated, nk::rms,   pk::rope,    false, false, false, false, true,  false, false, false, false, false, false, lp::none,        ms::none, false, "olmo2", {.qk_norm_full = true}},
// SmolLM3: Llama blocks (modeling_smollm3.py; no_rope_layers only skips RoPE, no weights) with tied
// embeddings by default (configuration_smollm3.py: tie_word_embeddings=True).
arch_row{"smollm3",     fk::gated, nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, true,  false, lp::none,        ms::none, false, "smollm3", {}},
// Llama 4 (modeling_llama4.py): Llama attention (its qk norm is a weightless L2 norm), Llama4TextMoe
// in the layers of moe_layers / interleave_moe_layer_step, Llama4TextMLP(intermediate_size_mlp) in the others.
arch_row{"llama4_text", fk::moe,   nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::llama4, false, "llama4", {}},
arch_row{"nemotron-nas",fk::gated, nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::none, false, "deci", {.block_configs = true}},
// ChatGLM2/3 and GLM-4-9B (THUDM remote code modeling_chatglm.py): one fused query_key_value with
// bias (add_qkv_bias) sized by multi_query_group_num x kv_channels, dense without bias
// (add_bias_linear false), fused dense_h_to_4h (SwiGLU), RMSNorm, untied output_layer.
arch_row{"chatglm",     fk::gated, nk::rms,   pk::rope,    true,  false, false, false, false, false, false, true,  true,  false, false, lp::none,        ms::none, true , "chatglm", {}},
// Baichuan 2 (baichuan-inc remote code modeling_baichuan.py): Llama blocks with a fused W_pack
// q/k/v, no biases, RMSNorm, untied lm_head (NormHead normalises it at run time, no extra weight).
// The 13B uses ALiBi instead of RoPE; neither has position weights.
arch_row{"baichuan",    fk::gated, nk::rms,   pk::rope,    false, false, false, false, false, false, false, true,  false, false, false, lp::none,        ms::none, true , "baichuan", {}},
// EXAONE 4 (modeling_exaone4.py): the same block shape as OLMo 2 (q_norm/k_norm, post-attention
// and post-feedforward norms, no pre-norms), sliding/full per layer_types.
arch_row{"exaone4",     fk::gated, nk::rms,   pk::rope,    false, false, false, false, true,  false, false, false, false, false, false, lp::from_config, ms::none, false, "exaone4", {}},
// Qwen3-Next (modeling_qwen3_next.py): Qwen3-MoE blocks with a gated shared expert (Qwen2-MoE style),
// q/k norms, attention whose q_proj also yields an output gate, and Gated DeltaNet layers in
// between (model/recurrent.cpp, from layer_types / full_attention_interval).
arch_row{"qwen3_next",  fk::moe,   nk::rms,   pk::rope,    false, false, false, false, true,  false, false, false, false, false, false, lp::none,        ms::qwen2_moe, false, "qwen3next", {}},
// Qwen3.5 / Qwen3.6 (modular_qwen3_5.py, modular_qwen3_5_moe.py): Qwen3-Next's attention (gated q_proj,
// q/k norms) and Gated DeltaNet layers (in_proj_qkv + in_proj_z + in_proj_b + in_proj_a, the same sizes
// as Qwen3-Next's fused in_proj_qkvz + in_proj_ba), with a dense SwiGLU MLP (qwen3_5_text) or Qwen3-Next's
// MoE in every layer (qwen3_5_moe_text: no intermediate_size). llama.cpp: LLM_ARCH_QWEN35 "qwen35",
// LLM_ARCH_QWEN35MOE "qwen35moe" (llama-arch.cpp). Multi-token prediction: model/mtp.cpp.
arch_row{"qwen3_5_text",     fk::gated, nk::rms, pk::rope, false, false, false, false, true,  false, false, false, false, false, false, lp::none, ms::none,      false, "qwen35",    {}},
arch_row{"qwen3_5_moe_text", fk::moe,   nk::rms, pk::rope, false, false, false, false, true,  false, false, false, false, false, false, lp::none, ms::qwen2_moe, false, "qwen35moe", {}},
// State-space models and hybrids (model/state_space.cpp lays out their mixers, attention, MLPs and
// experts; the row gives the MLP kind, norms and biases). Mamba / Mamba2 (modeling_mamba.py,
// modeling_mamba2.py): mixers only, one RMSNorm a layer; MambaConfig ties the head by default
// (PretrainedConfig), Mamba2Config does not. Jamba (modeling_jamba.py): no position encoding, SwiGLU
// MLPs / experts. Granite 4.0 H (modeling_granitemoehybrid.py): position_embedding_type "nope" by
// default, SwiGLU experts and shared MLP. Nemotron-H (modeling_nemotron_h.py): attention without
// RoPE, relu2 MLPs (up, down). Falcon-H1 (modeling_falcon_h1.py): RoPE attention beside the mixer.
arch_row{"mamba",       fk::gated, nk::rms,   pk::none,    false, false, false, false, false, false, false, false, false, true,  false, lp::none,        ms::none, false, "mamba", {}},
arch_row{"mamba2",      fk::gated, nk::rms,   pk::none,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::none, false, "mamba2", {}},
arch_row{"jamba",       fk::gated, nk::rms,   pk::none,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::none, false, "jamba", {}},
arch_row{"granitemoehybrid", fk::gated, nk::rms, pk::none, false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::none, false, "granitehybrid", {}},
arch_row{"nemotron_h",  fk::plain, nk::rms,   pk::none,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::none, false, "nemotron_h", {}},
arch_row{"falcon_h1",   fk::gated, nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::none, false, "falcon-h1", {}},
// Granite 3.x (modeling_granite.py): Llama blocks; its embedding/attention/residual multipliers and
// logits_scaling scale activations and add no weights; GraniteConfig ties nothing by default
// (tie_word_embeddings=False), the released checkpoints set it true in their config.json.
arch_row{"granite",     fk::gated, nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::none, false, "granite", {}},
// GLM-4.5 / GLM-4.5-Air (modeling_glm4_moe.py): Glm4Attention (q, k, v biased when attention_bias,
// o never; q/k RMSNorms of one head when use_qk_norm; partial rotary, no weights) and DeepseekV3MoE
// experts: n_shared_experts, dense MLPs below first_k_dense_replace, a router whose
// e_score_correction_bias is always there (DeepseekV3TopkRouter). The multi-token-prediction layer
// (num_nextn_predict_layers) is not loaded by default and not counted, as for DeepSeek-V3.
arch_row{"glm4_moe",    fk::moe,   nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::glm4_moe, false, "glm4moe", {.out_never_biased = true}},
// GLM-5 / GLM-5.1 / GLM-5.2 (GlmMoeDsaForCausalLM, transformers modeling_glm_moe_dsa.py): DeepSeek-V3.2's
// layout (MLA with q/kv latents, the lightning indexer, DeepseekV3MoE experts with n_shared_experts,
// first_k_dense_replace dense layers and the noaux_tc router bias), GLM's sizes; llama.cpp: glm-dsa.
arch_row{"glm_moe_dsa", fk::moe,   nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::deepseek, false, "glm-dsa", {}},
// T5 / mT5 (modeling_t5.py, modeling_mt5.py): bias-free q, k, v, o and FFN; T5LayerNorm is an RMS
// norm without bias; positions are a relative attention bias table [buckets, n_head] in the first
// layer of each stack; the decoder adds cross-attention to every layer; one shared embedding for
// both stacks. The FFN is plain (wi, wo) for feed_forward_proj "relu" (T5 v1.0) and gated (wi_0,
// wi_1, wo) for "gated-gelu" (T5 v1.1, mT5, T0, Flan-T5): the reader sets it from the config.
// T5Config ties the head by default (tie_word_embeddings=True), MT5Config does not.
arch_row{"t5",          fk::plain, nk::rms,   pk::none,    false, false, false, false, false, false, false, false, false, true,  false, lp::none,        ms::none, false, "t5", {.t5_stacks = true}},
arch_row{"mt5",         fk::plain, nk::rms,   pk::none,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::none, false, "t5", {.t5_stacks = true}},
// 2026 families (tests/unit/families_2026_test.cpp checks each against its Hub total).
// MiniMax-M2 / M2.x (modeling_minimax_m2.py): Llama attention without biases, q_norm / k_norm over
// all heads (qk_norm_type "per_layer": RMSNorm(n_head x head_dim), RMSNorm(n_head_kv x head_dim)),
// partial rotary (rotary_dim); a MiniMaxM2SparseMoeBlock in every layer: a bias-free router, SwiGLU
// experts (w1, w3, w2) of intermediate_size, e_score_correction_bias when use_routing_bias, no
// shared expert. The MTP modules (use_mtp) are not in the released weights (the Hub total equals the
// count without them) and not counted.
arch_row{"minimax_m2",  fk::moe,   nk::rms,   pk::rope,    false, false, false, false, true,  false, false, false, false, false, false, lp::none,        ms::mixtral, false, "minimax-m2", {.qk_norm_full = true}},
// GLM-4.7-Flash (modeling_glm4_moe_lite.py): DeepSeek-V3's blocks (MLA with q_lora_rank, shared and
// routed SwiGLU experts, first_k_dense_replace dense layers) with a router that always keeps
// e_score_correction_bias. llama.cpp converts it as deepseek2 (convert_hf_to_gguf.py
// Glm4MoeLiteModel(DeepseekV2Model)); vLLM runs it as DeepseekV2 (MLA cache).
arch_row{"glm4_moe_lite", fk::moe, nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::deepseek, false, "deepseek2", {.score_bias_always = true}},
// OLMo 3 (modeling_olmo3.py): OLMo 2's blocks (q/k norms over all heads, post-attention and
// post-feedforward norms only) with sliding-window attention per layer_types (3 of 4 layers,
// Olmo3Config). llama.cpp converts it with its OLMo 2 code (arch olmo2, sliding window pattern).
arch_row{"olmo3",       fk::gated, nk::rms,   pk::rope,    false, false, false, false, true,  false, false, false, false, false, false, lp::from_config, ms::none, false, "olmo2", {.qk_norm_full = true}},
// MiMo-V2-Flash (vLLM models/mimo_v2_flash.py, transformers modeling_mimo_v2_flash.py): Llama-style
// attention without biases in two shapes (sliding layers with more KV heads and sinks, full layers; K
// 192 wide, V 128: model/arch/hybrid_attention.cpp), DeepSeek-V3's routed experts with a router score
// bias and no shared expert (MiMoV2FlashSparseMoeBlock), a dense first layer (moe_layer_freq list).
// llama.cpp: LLM_ARCH_MIMO2 "mimo2".
arch_row{"mimo_v2_flash", fk::moe, nk::rms,   pk::rope,    false, false, false, false, false, false, false, false, false, false, false, lp::none,        ms::glm4_moe, false, "mimo2", {}},
};
// clang-format on

struct alias {
    std::string_view from, to;
};
// model_type spellings that share a row (multimodal wrappers' text configs, renamed families).
constexpr std::array aliases{
    alias{"gemma3_text",       "gemma3"      },
    alias{"gemma3n",           "gemma3n_text"},
    alias{"gemma4",            "gemma4_text" },
    alias{"qwen3_vl_text",     "qwen3"       },
    alias{"qwen3_vl",          "qwen3"       },
    alias{"deci",              "nemotron-nas"},
    alias{"RefinedWebModel",   "falcon"      },
    alias{"RefinedWeb",        "falcon"      },
    alias{"qwen2_5_vl_text",   "qwen2"       },
 // Qwen3-VL MoE's language model is Qwen3-MoE (transformers modeling_qwen3_vl_moe.py reuses its blocks).
    alias{"qwen3_vl_moe_text", "qwen3_moe"   },
 // Kimi K2 ships DeepseekV3ForCausalLM weights (its config's "architectures"); only model_type differs.
    alias{"kimi_k2",           "deepseek_v3" },
 // Qwen3.5 / Qwen3.6 wrappers (Qwen3_5ForConditionalGeneration): the language model is text_config.
  // clang-format off
    alias{"qwen3_5",           "qwen3_5_text"},
    alias{"qwen3_5_moe",       "qwen3_5_moe_text"},
  // clang-format on
  // Ministral 3 / Devstral 2 (transformers modeling_ministral3.py): Mistral's blocks (Llama attention
  // and SwiGLU, no biases); its YaRN / llama_4_scaling_beta rope parameters add no weights. The
  // mistral3 wrapper keeps it under text_config with a Pixtral vision tower.
    alias{"ministral3",        "mistral"     },
};

} // namespace

std::optional<arch_row> find_arch(std::string_view model_type) {
    for (const auto& a : aliases)
        if (a.from == model_type) model_type = a.to;
    for (const auto& r : arch_rows)
        if (r.model_type == model_type) return r;
    return std::nullopt;
}

std::string_view supported_arch_list() {
    // Every row's model_type, then the spellings that share a row, in table order: written once from
    // the tables above, so that a new row is listed without a second edit.
    static const std::string list = [] {
        std::string out;
        for (const auto& r : arch_rows)
            out += (out.empty() ? "" : ", ") + std::string(r.model_type);
        for (const auto& a : aliases)
            out += ", " + std::string(a.from);
        return out;
    }();
    return list;
}

} // namespace llmplan::detail
