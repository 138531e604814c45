// GGUF header -> model_desc, through the key table in gguf_keys.cpp.
#include "estimate/gguf_recipe.h"
#include "llmplan/gguf.h"
#include "model/gguf_keys.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <map>

namespace llmplan {
namespace {

using detail::gguf_field;

// Sanity bound on block_count before allocating per-layer data: released models have at most a
// few hundred blocks (Llama-3.1-405B: 126), so 65536 only rejects corrupt values.
constexpr std::uint64_t max_layers = 65536;
constexpr std::uint64_t max_u32    = 0xffffffffu;

struct mapper {
    const gguf_file& f;
    std::string arch;
    std::string path;

    [[nodiscard]] const gguf_kv* kv(gguf_field fld) const { return detail::find_field(f, fld, arch); }
    [[nodiscard]] std::optional<std::uint64_t> get(gguf_field fld) const {
        const gguf_kv* k = kv(fld);
        return k ? k->as_uint() : std::nullopt;
    }
    [[nodiscard]] unexpected fail(error_code c, std::string msg) const { return make_error(c, std::move(msg), path); }

    // A field that is a scalar or an array with one entry per layer; `fallback` when absent.
    result<std::vector<std::uint64_t>> per_layer(gguf_field fld, std::uint32_t n_layer,
                                                 const std::vector<std::uint64_t>& fallback) const {
        const gguf_kv* k = kv(fld);
        if (!k) return fallback;
        const std::string key = detail::gguf_key(fld, arch);
        if (const auto* a = k->array()) {
            if (a->count != n_layer || !a->complete())
                return fail(error_code::inconsistent_dims,
                            fmt::format("{} has {} entries; expected one per block ({})", key, a->count, n_layer));
            std::vector<std::uint64_t> out;
            for (std::size_t i = 0; i < a->values.size(); ++i) {
                const auto v = a->uint_at(i);
                if (!v) return fail(error_code::bad_value, fmt::format("{}[{}] is not an unsigned integer", key, i));
                out.push_back(*v);
            }
            return out;
        }
        const auto v = k->as_uint();
        if (!v) return fail(error_code::bad_value, fmt::format("{} is not an unsigned integer", key));
        return std::vector<std::uint64_t>(n_layer, *v);
    }

    // Which layers use a sliding window: sliding_window_pattern (bool per layer, or a period), else the
    // architecture's period from arch_facts, else every layer.
    [[nodiscard]] std::vector<bool> swa_layers(std::uint32_t n_layer) const {
        std::vector<bool> out(n_layer, true);
        std::uint64_t period = detail::arch_facts(arch).swa_period;
        if (const gguf_kv* k = kv(gguf_field::swa_pattern)) {
            if (const auto* a = k->array(); a && a->complete() && a->count == n_layer) {
                for (std::uint32_t il = 0; il < n_layer; ++il)
                    out[il] = a->uint_at(il).value_or(0) != 0;
                return out;
            }
            period = k->as_uint().value_or(period);
        }
        for (std::uint32_t il = 0; il < n_layer && period > 0; ++il)
            out[il] = il % period < period - 1; // llama_hparams::set_swa_pattern
        return out;
    }
};

std::string file_name(std::string_view path) {
    return std::filesystem::path(std::string(path)).filename().string();
}

// The dominant matrix type: the dtype holding the most bytes among linear (2-D+) weights.
dtype main_matrix_dtype(const gguf_file& f, const std::vector<tensor_desc>& tensors) {
    std::map<dtype, std::uint64_t> bytes;
    for (const auto& t : tensors)
        if (is_linear(t.role) && t.shape.size() >= 2 && !t.is_bias) bytes[t.type] += t.bytes;
    if (!bytes.empty())
        return std::max_element(bytes.begin(), bytes.end(), [](auto& a, auto& b) { return a.second < b.second; })
            ->first;
    // No matrices (vocab-only files): general.file_type's default tensor type (gguf_recipe.h table).
    if (f.file_type && *f.file_type <= 0x7fffffffu)
        if (auto ft = gguf_ftype_from_id(static_cast<int>(*f.file_type))) return ft->base;
    return dtype::f16;
}

bool has_role(const model_desc& m, tensor_role r, bool bias) {
    return std::any_of(m.tensors.begin(), m.tensors.end(),
                       [&](const tensor_desc& t) { return t.role == r && t.is_bias == bias; });
}
const tensor_desc* first_with_role(const model_desc& m, tensor_role r) {
    for (const auto& t : m.tensors)
        if (t.role == r && !t.is_bias && !t.shape.empty()) return &t;
    return nullptr;
}

/// Recurrent layers (Mamba, Mamba2, Gated DeltaNet): the blocks that hold an ssm_conv1d tensor, sized
/// from the %s.ssm.* keys as llama.cpp sizes their cells (llama-hparams.cpp: n_embd_r = (conv_kernel
/// - 1) x (inner_size + 2 x group_count x state_size), n_embd_s = state_size x inner_size). The mixer
/// is told by its tensors: ssm_ba (Gated DeltaNet), ssm_x (Mamba1), else Mamba2.
status read_recurrent_layers(model_desc& m, const mapper& mp) {
    if (!has_role(m, tensor_role::ssm_conv1d, false)) return ok();
    // A file with state-space blocks must say their sizes: without them the state would count as 0
    // bytes, an under-estimate. 2^24 bounds each size far above any released model (Jamba's
    // inner_size is 8192) and keeps conv_channels x state products within 64 bits.
    constexpr std::uint64_t limit = 1u << 24;
    std::uint64_t v[5]            = {};
    const gguf_field fields[5] = {gguf_field::ssm_conv_kernel, gguf_field::ssm_inner_size, gguf_field::ssm_state_size,
                                  gguf_field::ssm_group_count, gguf_field::ssm_time_step_rank};
    for (int i = 0; i < 5; ++i) {
        v[i]                = mp.get(fields[i]).value_or(0);
        const bool required = i < 3; // group count and time-step rank may be 0 (Mamba1 has no groups)
        if ((required && v[i] == 0) || v[i] > limit)
            return mp.fail(error_code::bad_value,
                           fmt::format("{} is {}; expected 1..{} for the file's ssm_conv1d (state-space) blocks",
                                       detail::gguf_key(fields[i], mp.arch), v[i], limit));
    }
    const auto [kernel, inner, state, groups, rank] = v;
    using mixer                                     = layer_desc::recurrent_state::mixer;
    const mixer kind                                = has_role(m, tensor_role::ssm_ba, false)  ? mixer::gated_delta
                                                      : has_role(m, tensor_role::ssm_x, false) ? mixer::mamba1
                                                                                               : mixer::mamba2;
    for (const auto& t : m.tensors) {
        if (t.role != tensor_role::ssm_conv1d || t.is_bias || t.layer < 0 ||
            static_cast<std::size_t>(t.layer) >= m.layers.size())
            continue;
        auto& r         = m.layers[static_cast<std::size_t>(t.layer)].recurrent;
        r.kind          = kind;
        r.conv_kernel   = static_cast<std::uint32_t>(kernel);
        r.conv_channels = inner + 2 * groups * state;
        r.state_elems   = state * inner;
        r.value_width   = inner;
        r.d_state       = static_cast<std::uint32_t>(state);
        r.n_groups      = static_cast<std::uint32_t>(groups);
        r.v_heads       = kind == mixer::mamba1 ? 0 : static_cast<std::uint32_t>(rank);
        r.dt_rank       = kind == mixer::mamba1 ? static_cast<std::uint32_t>(rank) : 0;
    }
    return ok();
}

// Flags the tensor list states directly (only called when the file has tensors).
void flags_from_tensors(model_desc& m) {
    using r           = tensor_role;
    m.tied_embd       = !has_role(m, r::output, false);
    m.attn_qkv_bias   = has_role(m, r::attn_q, true) || has_role(m, r::attn_qkv, true);
    m.attn_out_bias   = has_role(m, r::attn_output, true);
    m.ffn_bias        = has_role(m, r::ffn_up, true) || has_role(m, r::ffn_down, true);
    m.norm_bias       = has_role(m, r::attn_norm, true);
    m.qk_norm         = has_role(m, r::attn_q_norm, false);
    m.fused_qkv       = has_role(m, r::attn_qkv, false);
    m.post_norms      = has_role(m, r::attn_post_norm, false) || has_role(m, r::ffn_post_norm, false);
    m.attn_sinks      = has_role(m, r::attn_sinks, false);
    m.has_output_norm = has_role(m, r::output_norm, false);
    m.embd_norm       = has_role(m, r::token_embd_norm, false);
    // One input norm for attention and FFN: attn_norm present, ffn_norm absent (GPT-J, Phi-2, Falcon-7B).
    m.parallel_block = has_role(m, r::attn_norm, false) && !has_role(m, r::ffn_norm, false);
    if (m.norm_bias) m.norm = norm_kind::layer;
    if (const auto* p = first_with_role(m, r::pos_embd)) {
        m.pos        = pos_kind::learned;
        m.n_pos_embd = static_cast<std::uint32_t>(std::min<std::uint64_t>(p->shape.front(), max_u32));
    }
    if (const auto* t = first_with_role(m, r::token_types))
        m.n_token_types = static_cast<std::uint32_t>(std::min<std::uint64_t>(t->shape.front(), max_u32));
    if (m.ffn != ffn_kind::moe)
        m.ffn = has_role(m, r::ffn_gate, false) ? ffn_kind::gated
                : has_role(m, r::ffn_up, false) ? ffn_kind::plain
                                                : m.ffn;
}

status fill_tensors(model_desc& m, const gguf_file& f) {
    m.tensors.reserve(f.tensors.size());
    for (const auto& ti : f.tensors) {
        tensor_desc t   = ti.desc;
        const auto name = detail::parse_tensor_name(t.name);
        t.role          = name.role;
        t.layer         = name.layer;
        t.is_bias       = name.is_bias;
        if (t.layer >= static_cast<int>(m.n_layer))
            return make_error(
                error_code::inconsistent_dims,
                fmt::format("tensor '{}' is in block {}; block_count is {}", t.name, t.layer, m.n_layer),
                fmt::format("{}:offset {}", f.parts.empty() ? f.path : f.parts[ti.part].path, ti.info_offset));
        m.tensors.push_back(std::move(t));
    }
    return ok();
}

} // namespace

result<model_desc> model_from_gguf(const gguf_file& f, std::string_view path) {
    mapper mp{f, f.architecture(), std::string(path)};
    if (mp.arch.empty()) return mp.fail(error_code::missing_field, "general.architecture is missing");
    model_desc m;
    m.arch               = mp.arch;
    m.gguf_arch          = mp.arch;
    const gguf_kv* gname = f.find("general.name");
    m.id = gname && gname->as_string() && !gname->as_string()->empty() ? *gname->as_string() : file_name(path);

    const auto n_layer = mp.get(gguf_field::n_layer);
    if (!n_layer)
        return mp.fail(error_code::unsupported_arch,
                       fmt::format("architecture '{}' has no {}; cannot describe its blocks", mp.arch,
                                   detail::gguf_key(gguf_field::n_layer, mp.arch)));
    if (*n_layer == 0 || *n_layer > max_layers)
        return mp.fail(error_code::inconsistent_dims,
                       fmt::format("{} = {}; expected 1..{}", detail::gguf_key(gguf_field::n_layer, mp.arch), *n_layer,
                                   max_layers));
    m.n_layer = static_cast<std::uint32_t>(*n_layer);
    m.n_embd  = mp.get(gguf_field::n_embd).value_or(0);
    if (m.n_embd == 0)
        return mp.fail(error_code::missing_field,
                       fmt::format("{} is missing or 0", detail::gguf_key(gguf_field::n_embd, mp.arch)));
    m.n_ctx_train = mp.get(gguf_field::n_ctx_train).value_or(0);

    const std::vector<std::uint64_t> zeros(m.n_layer, 0);
    auto n_head = mp.per_layer(gguf_field::n_head, m.n_layer, zeros);
    if (!n_head) return unexpected{n_head.error()};
    auto n_head_kv = mp.per_layer(gguf_field::n_head_kv, m.n_layer, *n_head); // spec: defaults to head_count
    if (!n_head_kv) return unexpected{n_head_kv.error()};
    auto n_ff = mp.per_layer(gguf_field::n_ff, m.n_layer, zeros);
    if (!n_ff) return unexpected{n_ff.error()};

    // MoE and MLA.
    m.moe.n_expert      = static_cast<std::uint32_t>(std::min(mp.get(gguf_field::n_expert).value_or(0), max_u32));
    m.moe.n_expert_used = static_cast<std::uint32_t>(std::min(mp.get(gguf_field::n_expert_used).value_or(0), max_u32));
    m.moe.n_expert_shared =
        static_cast<std::uint32_t>(std::min(mp.get(gguf_field::n_expert_shared).value_or(0), max_u32));
    // Mixtral-style files state only feed_forward_length, which is then the expert width.
    m.moe.n_ff_expert = mp.get(gguf_field::n_ff_expert).value_or(m.moe.n_expert > 0 ? n_ff->front() : 0);
    m.moe.n_ff_shexp =
        mp.get(gguf_field::n_ff_shexp).value_or(std::uint64_t{m.moe.n_expert_shared} * m.moe.n_ff_expert);
    const std::uint64_t dense_lead = mp.get(gguf_field::n_layer_dense_lead).value_or(0);
    m.mla.kv_lora_rank = static_cast<std::uint32_t>(std::min(mp.get(gguf_field::kv_lora_rank).value_or(0), max_u32));
    m.mla.q_lora_rank  = static_cast<std::uint32_t>(std::min(mp.get(gguf_field::q_lora_rank).value_or(0), max_u32));
    const std::uint64_t rope_dim = mp.get(gguf_field::rope_dim).value_or(0);

    // Tensors first: they say which layers hold experts, and several flags.
    const auto& facts = detail::arch_facts(mp.arch);
    m.pos             = mp.kv(gguf_field::alibi_bias_max) ? pos_kind::alibi : facts.pos;
    m.ffn             = m.moe.n_expert > 0 ? ffn_kind::moe : facts.ffn;
    if (facts.ffn == ffn_kind::moe && m.moe.n_expert == 0) m.ffn = ffn_kind::gated;
    m.norm = mp.kv(gguf_field::norm_eps) && !mp.kv(gguf_field::norm_rms_eps) ? norm_kind::layer : norm_kind::rms;
    if (const gguf_kv* c = mp.kv(gguf_field::causal)) m.is_encoder = c->as_uint() == 0u;
    if (auto s = fill_tensors(m, f); !s) return unexpected{s.error()};
    if (!m.tensors.empty()) flags_from_tensors(m);
    if (m.pos == pos_kind::learned && m.n_pos_embd == 0)
        m.n_pos_embd = static_cast<std::uint32_t>(std::min(m.n_ctx_train, max_u32));
    if (m.n_token_types == 0)
        if (const gguf_kv* tt = f.find("tokenizer.ggml.token_type_count"))
            m.n_token_types = static_cast<std::uint32_t>(std::min(tt->as_uint().value_or(0), max_u32));
    std::vector<bool> expert_layer(m.n_layer, false);
    for (const auto& t : m.tensors)
        if (is_expert(t.role) && t.layer >= 0) expert_layer[static_cast<std::size_t>(t.layer)] = true;

    // Per-layer attention and FFN.
    const auto head_k         = mp.get(gguf_field::head_dim_k);
    const auto head_v         = mp.get(gguf_field::head_dim_v);
    const auto head_k_mla     = mp.get(gguf_field::head_dim_k_mla);
    const auto head_v_mla     = mp.get(gguf_field::head_dim_v_mla);
    const std::uint64_t n_swa = mp.get(gguf_field::n_swa).value_or(0);
    const auto swa            = mp.swa_layers(m.n_layer);
    m.layers.resize(m.n_layer);
    for (std::uint32_t il = 0; il < m.n_layer; ++il) {
        layer_desc& l          = m.layers[il];
        const std::uint64_t h  = (*n_head)[il];
        const std::uint64_t hk = (*n_head_kv)[il];
        if (h > max_u32 || hk > h)
            return mp.fail(error_code::inconsistent_dims,
                           fmt::format("block {}: head_count {}, head_count_kv {}; expected head_count_kv <= "
                                       "head_count",
                                       il, h, hk));
        l.n_head    = static_cast<std::uint32_t>(h);
        l.n_head_kv = static_cast<std::uint32_t>(hk);
        // head_dim: key_length/value_length when stated; n_embd / n_head is the documented fallback
        // (llama.cpp llama_model::load_hparams does the same).
        const std::uint64_t fallback = h > 0 ? m.n_embd / h : 0;
        l.head_dim_k                 = static_cast<std::uint32_t>(std::min(head_k.value_or(fallback), max_u32));
        l.head_dim_v                 = static_cast<std::uint32_t>(std::min(head_v.value_or(fallback), max_u32));
        if (h == 0 || hk == 0)
            l.attn = attn_kind::none;
        else if (m.mla.kv_lora_rank > 0)
            l.attn = attn_kind::mla;
        else
            l.attn = hk == h ? attn_kind::mha : hk == 1 ? attn_kind::mqa : attn_kind::gqa;
        if (l.attn == attn_kind::mla) {
            if (head_k_mla) l.head_dim_k = static_cast<std::uint32_t>(std::min(*head_k_mla, max_u32));
            if (head_v_mla) l.head_dim_v = static_cast<std::uint32_t>(std::min(*head_v_mla, max_u32));
        }
        l.n_swa  = l.has_kv() && swa[il] ? static_cast<std::uint32_t>(std::min(n_swa, max_u32)) : 0;
        l.is_moe = m.moe.n_expert > 0 && (m.tensors.empty() ? il >= dense_lead : expert_layer[il]);
        l.n_ff   = l.is_moe ? 0 : (*n_ff)[il];
    }
    if (auto st = read_recurrent_layers(m, mp); !st) return unexpected{st.error()};
    // Gemma 3n / 4: layers from n_layer_kv_from_start on reuse an earlier layer's K and V and get no
    // cells. llama.cpp src/models/gemma4.cpp sets it to n_layer - %s.attention.shared_kv_layers;
    // gemma3n hard-codes 20 and ignores the key (which its converter writes as a float).
    std::uint64_t kv_from = m.n_layer;
    if (m.gguf_arch == "gemma3n") {
        kv_from = 20;
    } else if (m.gguf_arch == "gemma4") {
        const gguf_kv* shared = f.find(m.gguf_arch + ".attention.shared_kv_layers");
        const auto n          = shared ? shared->as_uint() : std::nullopt;
        if (n && *n < m.n_layer) kv_from = m.n_layer - *n;
    }
    for (std::uint64_t il = kv_from; il < m.n_layer; ++il)
        m.layers[il].kv_shared = m.layers[il].has_kv();
    if (m.mla.kv_lora_rank > 0) {
        const auto& l          = m.typical_layer();
        m.mla.qk_rope_head_dim = static_cast<std::uint32_t>(std::min(rope_dim, max_u32));
        m.mla.qk_nope_head_dim = l.head_dim_k > rope_dim ? l.head_dim_k - m.mla.qk_rope_head_dim : 0;
        m.mla.v_head_dim       = l.head_dim_v;
    }
    // rope_dim: 0 means all of head_dim rotates; keep only a partial rotary width.
    m.rope_dim = rope_dim < m.typical_layer().head_dim_k ? static_cast<std::uint32_t>(rope_dim) : 0;

    // Vocabulary: %s.vocab_size, else the token list, else the embedding rows.
    if (auto v = mp.get(gguf_field::n_vocab)) {
        m.n_vocab = *v;
    } else if (const gguf_kv* tok = f.find("tokenizer.ggml.tokens"); tok && tok->array()) {
        m.n_vocab = tok->array()->count;
    } else if (const auto* e = first_with_role(m, tensor_role::token_embd)) {
        m.n_vocab = e->shape.front();
    }
    // BPE merges (llama.cpp keeps them in a map: part of the tokenizer's resident memory).
    if (const gguf_kv* merges = f.find("tokenizer.ggml.merges"); merges && merges->array())
        m.n_merges = merges->array()->count;

    m.torch_dtype     = dtype::f16;
    m.source          = m.tensors.empty() ? weights_source::formula : weights_source::tensors;
    m.file_bytes      = f.total_file_bytes() > 0 ? f.total_file_bytes() : f.file_size_bytes;
    m.from_gguf       = true;
    m.gguf_ftype_main = main_matrix_dtype(f, m.tensors);
    // general.file_type names the llama-quantize mixture (Q4_K_M holds q4_k, q6_k and f32 tensors);
    // without it, the dominant matrix type. A vocab-only file has no weights of its own.
    if (m.source == weights_source::tensors) {
        std::optional<gguf_ftype_info> ft;
        if (f.file_type && *f.file_type <= 0x7fffffffu) ft = gguf_ftype_from_id(static_cast<int>(*f.file_type));
        m.weights_type = ft ? std::string(ft->name) : std::string(name(m.gguf_ftype_main));
    }
    return m;
}

} // namespace llmplan
