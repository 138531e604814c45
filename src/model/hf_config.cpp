// config.json (Hugging Face) -> model_desc. Field names through one alias table, family facts
// through the architecture table, per-layer facts (sliding window, dense vs MoE, DeciLM blocks)
// into model_desc::layers. Tensors are then generated from the description (arch_tensors.cpp).
#include "llmplan/hf_config.h"

#include "detail/checked_number.h"
#include "llmplan/quant.h"
#include "model/arch_table.h"
#include "model/arch_tensors.h"
#include "model/gemma_ple.h"
#include "model/latent_moe.h"
#include "model/mtp.h"
#include "model/quant_config.h"
#include "model/recurrent.h"
#include "model/state_space.h"
#include "model/t5.h"
#include "model/unknown_arch.h"
#include "model/vision.h"

#include <array>
#include <cmath>
#include <fmt/format.h>
#include <initializer_list>
#include <nlohmann/json.hpp>

namespace llmplan {
namespace {

using json = nlohmann::json;

enum class field : std::uint8_t {
    n_layer,
    n_embd,
    n_head,
    n_head_kv,
    head_dim,
    n_ff,
    n_vocab,
    n_ctx_train,
    n_expert,
    n_expert_used,
    n_ff_expert,
    n_swa,
    count
};

struct field_keys {
    field f;
    std::string_view canonical;
    std::array<std::string_view, 5> keys; ///< HF spellings, first match wins
};

// One alias table for every family (convert_hf_to_gguf.py's find_hparam lists the same spellings).
// model_max_length: Baichuan's remote code (configuration_baichuan.py) names its context so, and the
// Baichuan2-13B config.json spells it no other way. d_kv, d_ff: T5Config's (configuration_t5.py).
// clang-format off
constexpr std::array<field_keys, static_cast<std::size_t>(field::count)> hf_keys{{
    {field::n_layer,       "n_layer",       {"num_hidden_layers", "n_layer", "num_layers", "n_layers", ""}},
    {field::n_embd,        "n_embd",        {"hidden_size", "n_embd", "d_model", "dim", ""}},
    {field::n_head,        "n_head",        {"num_attention_heads", "n_head", "num_heads", "n_heads", ""}},
    {field::n_head_kv,     "n_head_kv",     {"num_key_value_heads", "num_kv_heads", "n_head_kv", "multi_query_group_num", ""}},
    {field::head_dim,      "head_dim",      {"head_dim", "kv_channels", "attention_head_dim", "d_kv", ""}},
    {field::n_ff,          "n_ff",          {"intermediate_size", "n_inner", "ffn_dim", "ffn_hidden_size", "d_ff"}},
    {field::n_vocab,       "n_vocab",       {"vocab_size", "padded_vocab_size", "n_vocab", "", ""}},
    {field::n_ctx_train,   "n_ctx_train",   {"max_position_embeddings", "n_positions", "seq_length", "max_sequence_length", "model_max_length"}},
    {field::n_expert,      "n_expert",      {"num_local_experts", "num_experts", "n_routed_experts", "", ""}},
    {field::n_expert_used, "n_expert_used", {"num_experts_per_tok", "experts_per_token", "num_experts_per_token", "moe_topk", ""}},
    {field::n_ff_expert,   "n_ff_expert",   {"moe_intermediate_size", "expert_intermediate_size", "", "", ""}},
    {field::n_swa,         "n_swa",         {"sliding_window", "attention_window", "", "", ""}},
}};
// clang-format on

class reader {
  public:
    reader(const json& j, std::string_view path, std::string pointer) : j_(j), path_(path), ptr_(std::move(pointer)) {}

    /// The first alias present with a non-null value.
    [[nodiscard]] const json* find(field f) const {
        for (auto k : hf_keys[static_cast<std::size_t>(f)].keys) {
            if (k.empty()) continue;
            auto it = j_.find(std::string(k));
            if (it != j_.end() && !it->is_null()) return &*it;
        }
        return nullptr;
    }

    result<std::uint64_t> get(field f, std::optional<std::uint64_t> fallback = std::nullopt) const {
        const json* v   = find(f);
        const auto& row = hf_keys[static_cast<std::size_t>(f)];
        if (v == nullptr) {
            if (fallback) return *fallback;
            return make_error(error_code::missing_field,
                              fmt::format("no {} (expected one of: {})", row.canonical, key_list(row)), where(""));
        }
        if (!v->is_number_integer() || v->get<std::int64_t>() < 0 || v->get<std::int64_t>() > (1ll << 40))
            return make_error(error_code::bad_value,
                              fmt::format("{} is {}; expected a non-negative integer", row.canonical, v->dump()),
                              where(key_of(f)));
        return v->get<std::uint64_t>();
    }

    [[nodiscard]] bool flag(std::string_view key, bool fallback) const {
        auto it = j_.find(std::string(key));
        if (it == j_.end() || !it->is_boolean()) return fallback;
        return it->get<bool>();
    }
    [[nodiscard]] double number(std::string_view key, double fallback) const {
        auto it = j_.find(std::string(key));
        if (it == j_.end() || !it->is_number()) return fallback;
        return it->get<double>();
    }
    [[nodiscard]] std::uint64_t uint(std::string_view key, std::uint64_t fallback) const {
        auto it = j_.find(std::string(key));
        if (it == j_.end() || !it->is_number_integer() || it->get<std::int64_t>() < 0) return fallback;
        return it->get<std::uint64_t>();
    }
    [[nodiscard]] std::string where(std::string_view key) const {
        return fmt::format("{}:{}{}{}", path_, ptr_.empty() ? "/" : ptr_, ptr_.empty() ? "" : "/", key);
    }
    [[nodiscard]] const json& raw() const { return j_; }

  private:
    [[nodiscard]] std::string key_of(field f) const {
        for (auto k : hf_keys[static_cast<std::size_t>(f)].keys)
            if (!k.empty() && j_.contains(std::string(k))) return std::string(k);
        return {};
    }
    static std::string key_list(const field_keys& row) {
        std::string s;
        for (auto k : row.keys)
            if (!k.empty()) s += (s.empty() ? "" : ", ") + std::string(k);
        return s;
    }
    const json& j_;
    std::string_view path_;
    std::string ptr_;
};

dtype parse_torch_dtype(const json& j) {
    for (const char* key : {"torch_dtype", "dtype"}) {
        auto it = j.find(key);
        if (it != j.end() && it->is_string()) {
            if (auto d = dtype_from_name(it->get<std::string>())) return *d;
        }
    }
    // Qwen-1 configs say bf16/fp16/fp32 flags; all false means "auto", and the checkpoint is bf16.
    if (j.value("fp16", false)) return dtype::f16;
    if (j.value("fp32", false)) return dtype::f32;
    return dtype::bf16;
}

/// DeciLM's FFN width from ffn_mult (modeling_decilm.py _ffn_mult_to_intermediate_size):
/// int(2 * mult * n_embd / 3) rounded up to a multiple of 256.
std::uint64_t decilm_ffn(double mult, std::uint64_t n_embd) {
    if (!(mult > 0 && mult < 1000)) return 0; // a width multiplier outside any real config
    const auto n = detail::to_integer<std::uint64_t>(2.0 * mult * static_cast<double>(n_embd) / 3.0,
                                                     detail::rounding::toward_zero);
    if (!n || *n > (std::uint64_t{1} << 40)) return 0; // wider than any real FFN: not a width
    return (*n + 255) / 256 * 256;
}

status fill_deci_layers(model_desc& m, const reader& r) {
    const auto& blocks = r.raw().at("block_configs");
    if (!blocks.is_array() || blocks.size() != m.n_layer)
        return make_error(error_code::inconsistent_dims,
                          fmt::format("block_configs has {} entries; expected num_hidden_layers = {}",
                                      blocks.is_array() ? blocks.size() : 0, m.n_layer),
                          r.where("block_configs"));
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        auto& l         = m.layers[i];
        const auto& att = blocks[i].value("attention", json::object());
        const auto& ffn = blocks[i].value("ffn", json::object());
        if (att.value("no_op", false) || att.value("replace_with_linear", false)) {
            l.attn        = attn_kind::none;
            l.attn_linear = att.value("replace_with_linear", false);
        } else {
            const auto group = att.value("n_heads_in_group", 1u);
            if (group == 0 || l.n_head % group != 0)
                return make_error(error_code::inconsistent_dims, "n_heads_in_group does not divide num_attention_heads",
                                  r.where(fmt::format("block_configs/{}/attention", i)));
            l.n_head_kv = l.n_head / group;
            l.attn      = l.n_head_kv == l.n_head ? attn_kind::mha : attn_kind::gqa;
        }
        if (ffn.value("no_op", false) || ffn.value("replace_with_linear", false)) {
            l.n_ff       = 0;
            l.ffn_linear = ffn.value("replace_with_linear", false);
        } else {
            l.n_ff = decilm_ffn(ffn.value("ffn_mult", 0.0), m.n_embd);
        }
    }
    return ok();
}

/// Which layers are sliding-window, per the family's pattern.
void apply_swa(model_desc& m, const reader& r, detail::layer_pattern pattern, std::uint64_t n_swa) {
    if (n_swa == 0 || pattern == detail::layer_pattern::none) return;
    const json* types = r.raw().contains("layer_types") ? &r.raw()["layer_types"] : nullptr;
    const auto nth    = r.uint("sliding_window_pattern", 6); // Gemma3TextConfig default: 5 local : 1 global
    for (std::uint32_t i = 0; i < m.n_layer; ++i) {
        bool sliding = false;
        if (types && types->is_array() && i < types->size() && (*types)[i].is_string())
            sliding = (*types)[i].get<std::string>() == "sliding_attention";
        else if (pattern == detail::layer_pattern::every_other)
            sliding = i % 2 == 0; // Gemma2DecoderLayer: is_sliding = not bool(layer_idx % 2)
        else if (pattern == detail::layer_pattern::every_nth)
            sliding = nth > 0 && (i + 1) % nth != 0;
        if (sliding) m.layers[i].n_swa = static_cast<std::uint32_t>(n_swa);
    }
}

/// Python's json.dumps writes float("inf") / float("nan") as bare Infinity / -Infinity / NaN, which
/// JSON does not allow; Mamba2-style configs carry them ("time_step_limit": [0.0, Infinity]). Outside
/// strings they become null (no estimate reads those fields); everything else is left as it is.
std::string without_nonfinite(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            out += c;
            if (c == '\\' && i + 1 < text.size())
                out += text[++i];
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        std::size_t skip = 0;
        for (std::string_view word : {"-Infinity", "Infinity", "NaN"})
            if (text.substr(i, word.size()) == word) {
                skip = word.size();
                break;
            }
        if (skip) {
            out += "null";
            i += skip - 1;
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

result<model_desc> parse_hf_config(std::string_view text, std::string_view path) {
    json root;
    try {
        root = json::parse(without_nonfinite(text));
    } catch (const json::parse_error& e) {
        return make_error(error_code::bad_json, fmt::format("not valid JSON: {}", e.what()),
                          fmt::format("{}:offset {}", path, e.byte));
    } catch (const json::exception& e) { // e.g. out_of_range 406: a number too large for a double
        return make_error(error_code::bad_json, fmt::format("not valid JSON: {}", e.what()), std::string(path));
    }
    if (!root.is_object())
        return make_error(error_code::bad_json,
                          fmt::format("top level is a JSON {}; expected an object", root.type_name()),
                          std::string(path));
    try {
        return model_from_hf_json(root, path);
    } catch (const json::exception& e) { // a value of the wrong JSON type deep inside
        return make_error(error_code::bad_value, fmt::format("unexpected value: {}", e.what()), std::string(path));
    }
}

result<model_desc> model_from_hf_json(const nlohmann::json& root, std::string_view path) {
    model_desc m;
    // Multimodal wrappers (Gemma-3, Qwen3-VL) keep the language model under text_config.
    const bool nested            = root.contains("text_config") && root["text_config"].is_object();
    const json& cfg              = nested ? root["text_config"] : root;
    const std::string outer_type = root.value("model_type", std::string{});
    std::string type             = cfg.value("model_type", outer_type);
    if (type.empty())
        return make_error(error_code::missing_field, "no model_type; expected the family name (e.g. \"llama\")",
                          fmt::format("{}:/model_type", path));
    auto row = detail::find_arch(type);
    // A family the table does not know: a standard decoder from the standard keys, marked low
    // confidence (unknown_arch.cpp); the weights become exact when its tensors are read.
    const bool unknown_type = !row;
    if (unknown_type) row = detail::unknown_arch_row(cfg, type, m);
    if (nested)
        m.notes.push_back(fmt::format("{} wrapper: the language model (text_config) in the weights; the vision "
                                      "tower (vision_config) in the projector part",
                                      outer_type));
    reader r(cfg, path, nested ? "/text_config" : "");
    const bool gemma3 = row->quirks.gemma3_defaults;
    m.arch            = type;
    m.gguf_arch       = std::string(row->gguf_arch);
    if (root.contains("architectures") && root["architectures"].is_array() && !root["architectures"].empty() &&
        root["architectures"][0].is_string())
        m.hf_class = root["architectures"][0].get<std::string>();

    // Gemma3TextConfig defaults (transformers configuration_gemma3.py) for keys the Hub configs omit.
    auto g3      = [&](std::uint64_t v) { return gemma3 ? std::optional<std::uint64_t>(v) : std::nullopt; };
    auto n_layer = r.get(field::n_layer, detail::layer_count_from_types(cfg, row->model_type));
    if (!n_layer) return n_layer.error();
    auto n_embd = r.get(field::n_embd);
    if (!n_embd) return n_embd.error();
    // State-space models (Mamba) have no attention heads; their layers are laid out below.
    const bool ssm_family = detail::is_state_space_family(row->model_type);
    auto n_head           = r.get(field::n_head, ssm_family ? std::optional<std::uint64_t>(1) : g3(8));
    if (!n_head) return n_head.error();
    if (*n_layer == 0 || *n_embd == 0 || *n_head == 0)
        return make_error(error_code::bad_value, "n_layer, n_embd and n_head must be positive", std::string(path));
    const bool mqa = cfg.value("multi_query", false); // GPT-BigCode, Falcon-7B: one KV head
    auto n_head_kv = r.get(field::n_head_kv, mqa ? 1 : (gemma3 ? 4 : *n_head));
    if (!n_head_kv) return n_head_kv.error();
    if (*n_head_kv == 0 || *n_head % *n_head_kv != 0)
        return make_error(error_code::inconsistent_dims,
                          fmt::format("{} query heads cannot be grouped over {} KV heads", *n_head, *n_head_kv),
                          r.where("num_key_value_heads"));
    // head_dim as stated; derived from n_embd / n_head only when the config does not say.
    auto head_dim = r.get(field::head_dim, gemma3 ? 256 : *n_embd / *n_head);
    if (!head_dim) return head_dim.error();
    if (*head_dim == 0)
        return make_error(error_code::bad_value, "head_dim is 0; expected a positive width", r.where("head_dim"));
    const bool plain_ffn_4x = row->ffn == ffn_kind::plain;
    // Gemma 3n may list one width per layer (model/gemma_ple.cpp reads the list).
    const std::uint64_t ff_list = row->quirks.gemma3n_blocks ? detail::gemma_first_ff(cfg) : 0;
    auto n_ff                   = ff_list ? result<std::uint64_t>(ff_list)
                                          : r.get(field::n_ff, plain_ffn_4x ? std::optional<std::uint64_t>(4 * *n_embd) : g3(9216));
    // Qwen3.5-MoE has no intermediate_size (Qwen3_5MoeTextConfig deletes it): every layer is sparse,
    // sized by moe_intermediate_size; a layer left dense is checked after the MoE layout below.
    const bool experts_only = row->ffn == ffn_kind::moe && cfg.contains("moe_intermediate_size");
    // the tensors can still size it; a family whose every layer holds experts (DeepSeek-V4) needs no
    // dense width (checked per layer below)
    if (!n_ff && unknown_type && !experts_only) m.formula_needs = "intermediate_size";
    if (!n_ff && !row->quirks.block_configs && !ssm_family && !experts_only && !unknown_type) return n_ff.error();
    auto n_vocab = r.get(field::n_vocab, g3(262208));
    if (!n_vocab) return n_vocab.error();
    auto n_ctx    = r.get(field::n_ctx_train, g3(131072));
    m.n_layer     = static_cast<std::uint32_t>(*n_layer);
    m.n_embd      = *n_embd;
    m.n_vocab     = *n_vocab;
    m.n_ctx_train = n_ctx ? *n_ctx : 0;

    m.ffn            = row->ffn;
    m.norm           = row->norm;
    m.pos            = row->pos;
    m.norm_bias      = row->norm_bias;
    m.qk_norm        = row->qk_norm || cfg.value("use_qk_norm", false);
    m.qk_norm_full   = row->quirks.qk_norm_full;
    m.fused_qkv      = row->fused_qkv;
    m.fused_gate_up  = row->fused_gate_up;
    m.output_bias    = row->output_bias;
    m.post_norms     = row->post_norms;
    m.parallel_block = row->parallel;
    m.legacy_cache   = row->legacy_cache;
    m.is_encoder     = row->quirks.encoder;
    m.pooler         = m.is_encoder;
    m.embd_norm      = row->quirks.embd_norm;
    m.tied_embd      = r.flag("tie_word_embeddings", root.value("tie_word_embeddings", row->tied_default));
    // Bias switches. Families that hard-code their biases (Qwen-1/2: q, k, v always biased, o never;
    // GLM-4: o never) ignore the keys; llama-style families follow attention_bias for q, k, v and o
    // (LlamaAttention); StarCoder2's use_bias and Falcon's bias switch every linear layer.
    m.attn_qkv_bias       = row->qkv_bias;
    m.attn_out_bias       = row->out_bias;
    m.ffn_bias            = row->ffn_bias;
    const bool fixed_bias = row->quirks.fixed_qkv_bias;
    if (!fixed_bias && cfg.contains("attention_bias") && cfg["attention_bias"].is_boolean()) {
        m.attn_qkv_bias = cfg["attention_bias"].get<bool>();
        m.attn_out_bias = row->quirks.out_never_biased ? false : m.attn_qkv_bias;
    }
    for (const char* key : {"use_bias", "bias"})
        if (cfg.contains(key) && cfg[key].is_boolean())
            m.attn_qkv_bias = m.attn_out_bias = m.ffn_bias = cfg[key].get<bool>();
    if (cfg.contains("mlp_bias") && cfg["mlp_bias"].is_boolean()) m.ffn_bias = cfg["mlp_bias"].get<bool>();
    m.n_norm_per_layer = row->post_norms ? 4 : (row->parallel ? 1 : 2);
    if (row->quirks.new_decoder_norms && cfg.value("new_decoder_architecture", false)) m.n_norm_per_layer = 2;
    m.torch_dtype = parse_torch_dtype(root);
    m.quant       = detail::parse_quant(root);
    if (m.pos == pos_kind::learned) {
        // OPTLearnedPositionalEmbedding keeps 2 extra rows (offset 2); BERT/GPT-2 use the table as is.
        m.n_pos_embd = static_cast<std::uint32_t>(m.n_ctx_train + (row->quirks.pos_offset_2 ? 2 : 0));
    }
    if (m.is_encoder) m.n_token_types = static_cast<std::uint32_t>(r.uint("type_vocab_size", 2));
    // The share of each head that RoPE rotates (GPT-NeoX rotary_pct, Phi partial_rotary_factor): a fraction.
    const double partial = r.number("partial_rotary_factor", r.number("rotary_pct", 1.0));
    if (!(partial >= 0 && partial <= 1))
        return make_error(error_code::bad_value,
                          fmt::format("partial_rotary_factor is {}; expected a fraction from 0 to 1", partial),
                          r.where(r.raw().contains("partial_rotary_factor") ? "partial_rotary_factor" : "rotary_pct"));
    const auto rotated = *detail::to_integer<std::uint64_t>(partial * static_cast<double>(*head_dim)); // <= head_dim
    const std::uint64_t rope_dim = r.uint("rotary_dim", rotated);
    if (rope_dim > *head_dim)
        return make_error(error_code::bad_value,
                          fmt::format("rotary_dim is {}; expected at most the head size {}", rope_dim, *head_dim),
                          r.where("rotary_dim"));
    m.rope_dim = static_cast<std::uint32_t>(rope_dim); // <= head_dim, itself bounded by the reader
    // Baichuan 2's 13B remote code (modeling_baichuan.py of baichuan-inc/Baichuan2-13B-Chat) adds ALiBi
    // biases to the scores where the 7B's rotates q and k, under the same model_type; llama.cpp tells them
    // apart by the layer count (src/llama-model.cpp, LLM_ARCH_BAICHUAN: 40 layers = 13B, f_max_alibi_bias 8).
    if (m.arch == "baichuan" && m.n_layer == 40) m.pos = pos_kind::alibi;

    layer_desc base;
    base.n_head     = static_cast<std::uint32_t>(*n_head);
    base.n_head_kv  = static_cast<std::uint32_t>(*n_head_kv);
    base.head_dim_k = base.head_dim_v = static_cast<std::uint32_t>(*head_dim);
    base.attn = base.n_head_kv == base.n_head ? attn_kind::mha : base.n_head_kv == 1 ? attn_kind::mqa : attn_kind::gqa;
    base.n_ff = n_ff ? *n_ff : 0;
    // Qwen-1 stores intermediate_size as the sum of w1 and w2 (modeling_qwen.py: ff_dim_in = intermediate_size // 2).
    if (row->quirks.ff_is_sum) base.n_ff /= 2;
    m.layers.assign(m.n_layer, base);

    if (row->quirks.block_configs) {
        if (auto s = fill_deci_layers(m, r); !s) return s.error();
    }
    if (row->quirks.t5_stacks) {
        if (auto s = detail::read_t5_stacks(m, r.raw(), path); !s) return s.error();
    }
    if (auto moe = fill_moe(m, r.raw(), *row, path); !moe) return moe.error();
    if (!n_ff && experts_only)
        for (const auto& l : m.layers)
            if (!l.is_moe) return n_ff.error(); // a dense layer (mlp_only_layers) needs intermediate_size
    if (!unknown_type)
        if (auto s = detail::read_compressed_attention(m, r.raw(), path); !s) return s.error();
    if (auto s = detail::read_dsa_indexer(m, r.raw(), path); !s) return s.error();
    if (auto s = detail::read_hybrid_attention(m, r.raw(), path); !s) return s.error();
    if (auto s = detail::read_recurrent(m, r.raw(), path); !s) return s.error();
    if (auto s = detail::read_state_space(m, r.raw(), row->model_type, path); !s) return s.error();
    if (auto n_swa = r.get(field::n_swa, 0); n_swa && *n_swa > 0 && !(cfg.value("use_sliding_window", true) == false))
        apply_swa(m, r, row->swa, *n_swa);
    const auto gemma_gen = row->quirks.gemma3n_blocks  ? detail::gemma_generation::gemma3n
                           : row->quirks.gemma4_blocks ? detail::gemma_generation::gemma4
                                                       : detail::gemma_generation::none;
    std::string at       = r.where(""); // "file:/text_config/" or "file:/": keys are appended after a slash
    at.pop_back();
    if (auto s = detail::read_gemma_layers(m, cfg, gemma_gen, at); !s) return s.error();

    if (unknown_type) detail::finish_unknown_arch(m, cfg);

    m.source = weights_source::formula;
    generate_tensors(m);
    if (auto s = detail::apply_latent_moe(m, r.raw(), path); !s) return s.error();
    detail::read_mtp(m, r.raw());
    apply_checkpoint_quant(m);
    if (!unknown_type) detail::apply_dsv4_checkpoint(m, r.raw());
    detail::read_vision(m, root);
    return m;
}

} // namespace llmplan
