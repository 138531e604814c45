// GGUF key templates (llama.cpp's LLM_KV_NAMES analogue), tensor names, per-architecture facts.
#include "model/gguf_keys.h"

#include "detail/enum_names.h"

#include <array>
#include <charconv>

namespace llmplan::detail {
namespace {

struct key_row {
    gguf_field field;
    std::string_view key; ///< "%s" is replaced by general.architecture
};

// clang-format off
// Key spellings: the GGUF spec (docs/gguf.md, "LLM" section) and llama.cpp's llama-arch.cpp LLM_KV_NAMES.
constexpr std::array<key_row, static_cast<std::size_t>(gguf_field::count)> gguf_key_rows{{
    {gguf_field::n_layer,            "%s.block_count"},
    {gguf_field::n_embd,             "%s.embedding_length"},
    {gguf_field::n_ff,               "%s.feed_forward_length"},        // may be a per-layer array
    {gguf_field::n_head,             "%s.attention.head_count"},       // may be a per-layer array
    {gguf_field::n_head_kv,          "%s.attention.head_count_kv"},    // may be a per-layer array
    {gguf_field::head_dim_k,         "%s.attention.key_length"},
    {gguf_field::head_dim_v,         "%s.attention.value_length"},
    {gguf_field::head_dim_k_mla,     "%s.attention.key_length_mla"},
    {gguf_field::head_dim_v_mla,     "%s.attention.value_length_mla"},
    {gguf_field::n_ctx_train,        "%s.context_length"},
    {gguf_field::n_swa,              "%s.attention.sliding_window"},
    {gguf_field::swa_pattern,        "%s.attention.sliding_window_pattern"}, // period, or bool per layer
    {gguf_field::n_expert,           "%s.expert_count"},
    {gguf_field::n_expert_used,      "%s.expert_used_count"},
    {gguf_field::n_expert_shared,    "%s.expert_shared_count"},
    {gguf_field::n_ff_expert,        "%s.expert_feed_forward_length"},
    {gguf_field::n_ff_shexp,         "%s.expert_shared_feed_forward_length"},
    {gguf_field::n_layer_dense_lead, "%s.leading_dense_block_count"},
    {gguf_field::kv_lora_rank,       "%s.attention.kv_lora_rank"},
    {gguf_field::q_lora_rank,        "%s.attention.q_lora_rank"},
    {gguf_field::rope_dim,           "%s.rope.dimension_count"},
    {gguf_field::n_vocab,            "%s.vocab_size"},
    {gguf_field::causal,             "%s.attention.causal"},
    {gguf_field::alibi_bias_max,     "%s.attention.max_alibi_bias"},
    {gguf_field::norm_eps,           "%s.attention.layer_norm_epsilon"},
    {gguf_field::norm_rms_eps,       "%s.attention.layer_norm_rms_epsilon"},
    {gguf_field::ssm_conv_kernel,    "%s.ssm.conv_kernel"},
    {gguf_field::ssm_inner_size,     "%s.ssm.inner_size"},
    {gguf_field::ssm_state_size,     "%s.ssm.state_size"},
    {gguf_field::ssm_time_step_rank, "%s.ssm.time_step_rank"},
    {gguf_field::ssm_group_count,    "%s.ssm.group_count"},
}};

// Facts the header omits, from each architecture's graph in llama.cpp (llama-model.cpp build_*):
// learned position tables (gpt2, starcoder, bert), ALiBi (bloom, mpt), non-gated FFNs, and the
// sliding-window period (llama_hparams::set_swa_pattern: gemma2 2, gemma3 6, cohere2 4, gpt-oss 2);
// the quantization rules that name an architecture (llama-quant.cpp: LLM_ARCH_FALCON) and which
// architectures call 80 layers LLM_TYPE_70B (llama-model.cpp load_hparams: LLAMA, QWEN2, DECI).
constexpr std::array<gguf_arch_facts, 19> facts{{
    {"gpt2",       pos_kind::learned, ffn_kind::plain, 0},
    {"starcoder",  pos_kind::learned, ffn_kind::plain, 0},
    {"bert",       pos_kind::learned, ffn_kind::plain, 0},
    {"bloom",      pos_kind::alibi,   ffn_kind::plain, 0},
    {"mpt",        pos_kind::alibi,   ffn_kind::plain, 0},
    {"gptneox",    pos_kind::rope,    ffn_kind::plain, 0},
    {"falcon",     pos_kind::rope,    ffn_kind::plain, 0, true},
    {"starcoder2", pos_kind::rope,    ffn_kind::plain, 0},
    {"phi2",       pos_kind::rope,    ffn_kind::plain, 0},
    {"gptj",       pos_kind::rope,    ffn_kind::plain, 0},
    {"stablelm",   pos_kind::rope,    ffn_kind::gated, 0},
    {"gemma2",     pos_kind::rope,    ffn_kind::gated, 2},
    {"gemma3",     pos_kind::rope,    ffn_kind::gated, 6},
    {"cohere2",    pos_kind::rope,    ffn_kind::gated, 4},
    {"gpt-oss",    pos_kind::rope,    ffn_kind::moe,   2},
    {"llama",      pos_kind::rope,    ffn_kind::gated, 0, false, type_70b_rule::at_80_layers_gqa_dense},
    {"qwen2",      pos_kind::rope,    ffn_kind::gated, 0, false, type_70b_rule::at_80_layers},
    {"deci",       pos_kind::rope,    ffn_kind::gated, 0, false, type_70b_rule::at_80_layers},
    {"",           pos_kind::rope,    ffn_kind::gated, 0}, // default: a Llama-like decoder
}};
// clang-format on

static_assert(detail::rows_in_enum_order(gguf_key_rows, &key_row::field),
              "key table rows must follow the gguf_field order");

} // namespace

std::string_view gguf_key_template(gguf_field f) {
    return gguf_key_rows[static_cast<std::size_t>(f)].key;
}

std::string gguf_key(gguf_field f, std::string_view arch) {
    const std::string_view t = gguf_key_template(f);
    const auto at            = t.find("%s");
    std::string out(t.substr(0, at));
    out += arch;
    out += t.substr(at + 2);
    return out;
}

const gguf_kv* find_field(const gguf_file& file, gguf_field f, std::string_view arch) {
    return file.find(gguf_key(f, arch));
}

gguf_tensor_name parse_tensor_name(std::string_view name) {
    gguf_tensor_name out;
    constexpr std::string_view blk = "blk.";
    if (name.starts_with(blk)) {
        const char* first    = name.data() + blk.size();
        const char* last     = name.data() + name.size();
        int layer            = -1;
        const auto [ptr, ec] = std::from_chars(first, last, layer);
        if (ec != std::errc{} || ptr == first || ptr == last || *ptr != '.' || layer < 0) return out;
        out.layer = layer;
        name      = name.substr(static_cast<std::size_t>(ptr - name.data()) + 1);
    }
    if (name.ends_with(".weight")) {
        name.remove_suffix(7);
    } else if (name.ends_with(".bias")) {
        name.remove_suffix(5);
        out.is_bias = true;
    } else {
        return out; // scales, rope factors and other side tensors keep role other
    }
    for (std::size_t r = 0; r < static_cast<std::size_t>(tensor_role::other); ++r) {
        const auto role = static_cast<tensor_role>(r);
        if (role_name(role) == name) {
            out.role = role;
            break;
        }
    }
    return out;
}

const gguf_arch_facts& arch_facts(std::string_view arch) {
    for (const auto& f : facts)
        if (f.arch == arch) return f;
    return facts.back();
}

} // namespace llmplan::detail
