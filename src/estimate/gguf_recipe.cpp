// llama.cpp's quantization mixtures, restated from src/llama-quant.cpp of 2025 (the copy vendored by
// node-llama-cpp 3.x / ollama): functions llama_tensor_get_type (the per-tensor rules and the
// fallback for rows that are not whole blocks) and llama_model_quantize_impl (which tensors are
// quantized at all, the default type of each file type, and the counters the rules read).
//
// Differences in later llama.cpp (2026, tensor_type_fallback / llama_tensor_get_type_impl): Q2_K and
// Q3_K fall back to Q4_0 instead of IQ4_NL, and attn_qkv / attn_kv_b follow the attn_v rules.
#include "estimate/gguf_recipe.h"

#include "detail/strings.h"
#include "estimate/llama_ftype.h"
#include "model/gguf_keys.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <vector>

namespace llmplan {
namespace {

namespace ft = detail::ft;

// The broad kinds llama_tensor_get_type tells apart (by substrings of the GGUF name).
// clang-format off
enum class kind { output, token_embd, attn_v, attn_k, attn_q, attn_qkv, attn_kv_b, attn_output,
                  ffn_down, ffn_gate, ffn_up, other };
// clang-format on

using detail::has;

kind kind_of(const tensor_desc& t) {
    if (t.is_bias) return kind::other; // "attn_v.bias" is neither "attn_v.weight" nor quantized
    using r = tensor_role;
    // clang-format off
    switch (t.role) {
    case r::output:      return kind::output;
    case r::token_embd:  return kind::token_embd;
    case r::attn_v:      return kind::attn_v;
    case r::attn_k:      return kind::attn_k;
    case r::attn_q:      return kind::attn_q;
    case r::attn_qkv:    return kind::attn_qkv;
    case r::attn_kv_b:   return kind::attn_kv_b;
    case r::attn_output: return kind::attn_output;
    // every name holding "ffn_down" / "ffn_gate" / "ffn_up": experts and shared experts too
    case r::ffn_down: case r::ffn_down_exps: case r::ffn_down_shexp: return kind::ffn_down;
    case r::ffn_gate: case r::ffn_gate_exps: case r::ffn_gate_up_exps: case r::ffn_gate_shexp:
    case r::ffn_gate_inp_shexp: return kind::ffn_gate;
    case r::ffn_up: case r::ffn_up_exps: case r::ffn_up_shexp: return kind::ffn_up;
    case r::per_layer_token_embd: return kind::token_embd; // as its name does below
    case r::other: break;
    default: return kind::other;
    }
    // clang-format on
    // unknown role: the substring tests of llama_tensor_get_type, in its order
    const std::string_view n = t.name;
    if (n == "output.weight") return kind::output;
    if (n == "token_embd.weight" || n == "per_layer_token_embd.weight") return kind::token_embd;
    if (has(n, "attn_v.weight")) return kind::attn_v;
    if (has(n, "attn_k.weight")) return kind::attn_k;
    if (has(n, "attn_q.weight")) return kind::attn_q;
    if (has(n, "ffn_down")) return kind::ffn_down;
    if (has(n, "attn_output.weight")) return kind::attn_output;
    if (has(n, "attn_qkv.weight")) return kind::attn_qkv;
    if (has(n, "attn_kv_b.weight")) return kind::attn_kv_b;
    if (has(n, "ffn_gate")) return kind::ffn_gate;
    if (has(n, "ffn_up")) return kind::ffn_up;
    return kind::other;
}

// ggml_n_dims: dims up to the last one above 1 (ggml order is innermost first; shape is outermost
// first), so a [1, n] matrix counts as 1-D.
std::size_t ggml_n_dims(const tensor_desc& t) {
    for (std::size_t i = 0; i < t.shape.size(); ++i)
        if (t.shape[i] > 1) return t.shape.size() - i;
    return 1;
}

// convert_hf_to_gguf.py (prepare_tensors) keeps these in F32: 1-D tensors, norms, biases, the MoE
// router and the tensors llama.cpp never quantizes (position / token-type tables, ssm_conv1d ...).
bool stored_f32(const tensor_desc& t) {
    if (t.shape.size() <= 1 || t.is_bias) return true;
    switch (t.role) {
    case tensor_role::pos_embd:
    case tensor_role::token_types:
    case tensor_role::ffn_gate_inp:
    case tensor_role::token_embd_norm:
    case tensor_role::output_norm:
    case tensor_role::attn_norm:
    case tensor_role::attn_q_norm:
    case tensor_role::attn_k_norm:
    case tensor_role::attn_q_a_norm:
    case tensor_role::attn_kv_a_norm:
    case tensor_role::attn_post_norm:
    case tensor_role::ffn_norm:
    case tensor_role::ffn_post_norm:
    case tensor_role::attn_sinks:
    case tensor_role::ssm_a: // llama.cpp names these "blk.N.ssm_a" / "blk.N.ssm_d", without ".weight":
    case tensor_role::ssm_d: // Mamba1's 2-D A [d_inner, d_state] is never quantized
        return true;
    default:
        break;
    }
    const std::string_view n = t.name;
    return has(n, "_norm.weight") || has(n, "ssm_conv1d") || has(n, "time_mix_") ||
           (!n.empty() && !n.ends_with("weight"));
}

// The quantize flag of llama_model_quantize_impl: only 2-D/3-D ".weight" tensors that are not norms,
// routers, position / token-type tables or the small RWKV / Mamba / Gemma-3n tensors.
bool quantizable(const tensor_desc& t) {
    if (ggml_n_dims(t) < 2 || stored_f32(t)) return false;
    const std::string_view n = t.name;
    for (std::string_view sub :
         {"altup", "laurel", "per_layer_model_proj", "shortconv.conv.weight", "attn_rel_b.weight", ".position_embd."})
        if (has(n, sub)) return false;
    return true;
}

std::uint64_t row_size(const tensor_desc& t) {
    return t.shape.empty() ? 1 : t.shape.back(); // ggml ne[0], the input dim
}

// Order of llama_model_loader::weights_map (weight_name_comparer): by block, then by name.
bool comes_before(const tensor_desc& u, const tensor_desc& t) {
    return u.layer != t.layer ? u.layer < t.layer : u.name < t.name;
}

// How many tensors of kind k llama-quantize quantizes before t (its i_attention_wv / i_ffn_* counters).
// Without a tensor list: one per layer below t's that has such a tensor.
int count_before(const model_desc& m, const tensor_desc& t, kind k) {
    int n = 0;
    if (!m.tensors.empty()) {
        // The order test first: it is integer and string compares, kind_of is substring searches
        // (a plan asks this for every tensor of every candidate's recipe).
        for (const auto& u : m.tensors)
            if (comes_before(u, t) && kind_of(u) == k && quantizable(u)) ++n;
        return n;
    }
    const int end = std::min<int>(t.layer, static_cast<int>(m.layers.size()));
    for (int i = 0; i < end; ++i) {
        const auto& l = m.layers[static_cast<std::size_t>(i)];
        if (k == kind::attn_v)
            n += l.has_kv() && l.attn != attn_kind::mla && !m.fused_qkv;
        else if (l.is_moe)
            n += 1 + (m.moe.n_ff_shexp > 0);
        else
            n += l.n_ff > 0 && (k != kind::ffn_gate || m.ffn != ffn_kind::plain);
    }
    return n;
}

// llama.cpp's n_attention_wv: tensors named attn_v, attn_qkv or attn_kv_b.
int count_attention_wv(const model_desc& m) {
    int n = 0;
    if (!m.tensors.empty()) {
        for (const auto& u : m.tensors) {
            const kind k = kind_of(u);
            n += k == kind::attn_v || k == kind::attn_qkv || k == kind::attn_kv_b;
        }
        return n;
    }
    for (const auto& l : m.layers)
        n += l.has_kv();
    return n;
}

// use_more_bits in llama_tensor_get_type: the first and last eighth of the layers, and every third
// layer in between.
bool use_more_bits(int i, int n) {
    return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2;
}

struct model_facts {
    int n_layer        = 0; ///< hparams.n_layer (n_ffn_down = n_ffn_gate = n_ffn_up)
    int n_expert       = 0;
    int n_gqa          = 0; ///< hparams.n_gqa(): n_head / n_head_kv of layer 0 (0 when no KV heads)
    bool falcon        = false;
    bool is_70b        = false; ///< llama_model::type == LLM_TYPE_70B
    bool tied          = false; ///< no output.weight: token_embd takes the output rules
    int n_attention_wv = 0;     ///< count_attention_wv
};

model_facts facts_of(const model_desc& m) {
    model_facts f;
    f.n_layer  = static_cast<int>(m.n_layer > 0 ? m.n_layer : m.layers.size());
    f.n_expert = static_cast<int>(m.moe.n_expert);
    if (!m.layers.empty() && m.layers[0].n_head_kv > 0)
        f.n_gqa = static_cast<int>(m.layers[0].n_head / m.layers[0].n_head_kv);
    // The architecture as llama.cpp names it (an HF family's converter name; mistral is LLAMA).
    const auto& arch = detail::arch_facts(m.gguf_arch);
    f.falcon         = arch.falcon_quant_rules;
    const bool gqa   = !m.layers.empty() && m.layers[0].n_head != m.layers[0].n_head_kv;
    switch (arch.type_70b) {
    case detail::type_70b_rule::never:
        f.is_70b = false;
        break;
    case detail::type_70b_rule::at_80_layers:
        f.is_70b = f.n_layer == 80;
        break;
    case detail::type_70b_rule::at_80_layers_gqa_dense:
        f.is_70b = f.n_layer == 80 && gqa && f.n_expert == 0;
        break;
    }
    f.tied           = m.tensors.empty() ? m.tied_embd
                                         : std::none_of(m.tensors.begin(), m.tensors.end(),
                                                        [](const tensor_desc& u) { return u.role == tensor_role::output; });
    f.n_attention_wv = count_attention_wv(m);
    return f;
}

// The fallback of llama_tensor_get_type when ne[0] is not a whole number of blocks: a 32-block type
// of about the same size, else F16. llama-quantize stops with "Unsupported tensor size" for types
// without a fallback (Q4_0, Q8_0 ... on a row not divisible by 32); F16 is the nearest it could do.
dtype fallback(dtype t, std::uint64_t ncols) {
    if (ncols % info(t).block_size == 0) return t;
    dtype r = dtype::f16;
    switch (t) {
    case dtype::tq1_0:
    case dtype::tq2_0:
        r = dtype::q4_0;
        break;
    case dtype::iq2_xxs:
    case dtype::iq2_xs:
    case dtype::iq2_s:
    case dtype::iq3_xxs:
    case dtype::iq3_s:
    case dtype::iq1_s:
    case dtype::iq1_m:
    case dtype::q2_k:
    case dtype::q3_k:
    case dtype::iq4_xs:
    case dtype::iq2_k: // ik_llama.cpp: its sub-5-bit types fall back to IQ4_NL like mainline's
    case dtype::iq3_k:
    case dtype::iq4_k:
        r = dtype::iq4_nl;
        break;
    case dtype::q4_k:
    case dtype::iq5_k:
        r = dtype::q5_0;
        break;
    case dtype::q5_k:
        r = dtype::q5_1;
        break;
    case dtype::q6_k:
    case dtype::iq6_k:
        r = dtype::q8_0;
        break;
    default:
        break;
    }
    return ncols % info(r).block_size == 0 ? r : dtype::f16;
}

bool is_iq2_family(int f) { // the IQ1 / IQ2 mixtures share one rule block
    return f == ft::iq2_xxs || f == ft::iq2_xs || f == ft::iq1_s || f == ft::iq2_s || f == ft::iq2_m || f == ft::iq1_m;
}

// The per-tensor rules of llama_tensor_get_type, before the block-size fallback.
// before: count_before(m, t, kind_of(t)), the only counter the rules read (t's own kind).
dtype pick(const tensor_desc& t, const model_facts& mf, int before, int f, dtype type, bool imatrix) {
    const kind k         = kind_of(t);
    const bool iq2s_or_m = f == ft::iq2_s || f == ft::iq2_m;
    // The FFN rules read (layer, n_layer): the tensor's block for MoE models (experts are stored per
    // layer in any order), else the running count of such tensors.
    auto ffn_layer = [&] { return mf.n_expert > 1 && t.layer >= 0 ? t.layer : before; };
    const int n    = mf.n_layer;

    if (k == kind::output || (mf.tied && k == kind::token_embd)) {
        if (f == ft::mxfp4_moe || mf.falcon || row_size(t) % info(type).block_size != 0) return dtype::q8_0;
        if (f == ft::iq2_xxs || f == ft::iq2_xs || f == ft::iq3_xxs || f == ft::iq1_s || iq2s_or_m || f == ft::iq1_m)
            return dtype::q5_k;
        return type == dtype::q8_0 ? type : dtype::q6_k;
    }
    if (f == ft::mxfp4_moe) // expert tensors (3-D) in MXFP4, every other matrix in Q8_0
        return t.shape.size() >= 3 && t.shape[0] > 1 ? dtype::mxfp4 : dtype::q8_0;
    if (k == kind::token_embd) {
        if (f == ft::iq2_xxs || f == ft::iq2_xs || f == ft::iq1_s || f == ft::iq1_m) return dtype::q2_k;
        if (iq2s_or_m || f == ft::iq3_xxs) return dtype::iq3_s;
        if (f == ft::tq1_0 || f == ft::tq2_0) return dtype::q4_k;
        return type;
    }
    if (is_iq2_family(f)) {
        if (k == kind::attn_v)
            return mf.n_gqa >= 4 || mf.n_expert >= 4 ? dtype::q4_k : iq2s_or_m ? dtype::iq3_s : dtype::q2_k;
        if (k == kind::attn_k && mf.n_expert == 8) return dtype::q4_k;
        if (k == kind::ffn_down) // raw running count here, even for MoE
            return before < n / 8 ? (iq2s_or_m ? dtype::iq3_s : dtype::q2_k) : type;
        if (k == kind::attn_output) {
            if (mf.n_expert == 8) return dtype::q5_k;
            if (f == ft::iq1_s || f == ft::iq1_m) return dtype::iq2_xxs;
            if (iq2s_or_m) return dtype::iq3_s;
        }
        return type;
    }
    switch (k) {
    case kind::attn_v: {
        const int i    = before;
        const int n_wv = mf.n_attention_wv;
        if (f == ft::q2_k)
            type = mf.n_gqa >= 4 ? dtype::q4_k : dtype::q3_k;
        else if (f == ft::q2_k_s && mf.n_gqa >= 4)
            type = dtype::q4_k;
        else if (f == ft::iq3_xxs)
            type = mf.n_gqa >= 4 ? dtype::q4_k : imatrix ? dtype::iq3_xxs : dtype::iq3_s;
        else if ((f == ft::iq3_xs || f == ft::iq3_s) && mf.n_gqa >= 4)
            type = dtype::q4_k;
        else if (f == ft::iq3_m)
            type = dtype::q4_k;
        else if (f == ft::q3_k_m)
            type = i < 2 ? dtype::q5_k : dtype::q4_k;
        else if (f == ft::q3_k_l)
            type = dtype::q5_k;
        else if ((f == ft::iq4_nl || f == ft::iq4_xs) && mf.n_gqa >= 4)
            type = dtype::q5_k;
        else if ((f == ft::q4_k_m || f == ft::q5_k_m) && use_more_bits(i, n_wv))
            type = dtype::q6_k;
        else if (f == ft::q4_k_s && i < 4)
            type = dtype::q5_k;
        // 70B: attn_v is 8x smaller than attn_q (8 heads share it), so more bits cost little
        if (mf.is_70b && (type == dtype::q3_k || type == dtype::q4_k)) type = dtype::q5_k;
        if (mf.n_expert == 8) type = dtype::q8_0; // Mixtral-style 8-expert models
        return type;
    }
    case kind::attn_k:
        if (mf.n_expert == 8) return dtype::q8_0;
        if (f == ft::iq3_xs) return dtype::iq3_xxs;
        if (f == ft::iq3_xxs) return dtype::iq2_s;
        return type;
    case kind::attn_q:
        if (f == ft::iq3_xs) return dtype::iq3_xxs;
        if (f == ft::iq3_xxs) return dtype::iq2_s;
        return type;
    case kind::ffn_down: {
        const int i    = ffn_layer();
        const bool umb = use_more_bits(i, n);
        if (f == ft::q2_k) return dtype::q3_k;
        if (f == ft::q2_k_s) return i < n / 8 ? dtype::q4_k : type;
        if (f == ft::iq3_xxs && !imatrix) return i < n / 8 ? dtype::q4_k : dtype::q3_k;
        if (f == ft::q3_k_m) return i < n / 16 ? dtype::q5_k : (!mf.falcon || umb) ? dtype::q4_k : dtype::q3_k;
        if (f == ft::iq3_m && (i < n / 8 || (mf.n_expert == 8 && umb))) return dtype::q4_k;
        if (f == ft::q3_k_l) return mf.falcon ? dtype::q4_k : dtype::q5_k;
        if (f == ft::q4_k_m) {
            if (mf.falcon) return i < n / 16 ? dtype::q6_k : umb ? dtype::q5_k : dtype::q4_k;
            return umb ? dtype::q6_k : type;
        }
        if (i < n / 8 && (f == ft::iq4_nl || f == ft::iq4_xs) && !imatrix) return dtype::q5_k;
        if (f == ft::q5_k_m && umb) return dtype::q6_k;
        if (f == ft::q4_k_s && !mf.falcon && i < n / 8) return dtype::q5_k;
        if ((f == ft::q4_0 || f == ft::q5_0) && imatrix && i < n / 8) // guard the first ffn_down layers
            return f == ft::q4_0 ? dtype::q4_1 : dtype::q5_1;
        return type;
    }
    case kind::attn_output:
        if (mf.falcon) return f == ft::q3_k_l ? dtype::q4_k : type;
        if (mf.n_expert == 8) {
            for (int g : {ft::q2_k, ft::iq3_xs, ft::iq3_xxs, ft::q3_k_s, ft::q3_k_m, ft::iq4_nl, ft::q4_k_s, ft::q4_k_m,
                          ft::iq3_s, ft::iq3_m, ft::iq4_xs})
                if (f == g) return dtype::q5_k;
            return type;
        }
        if (f == ft::q2_k) return dtype::q3_k;
        if (f == ft::iq3_xxs) return dtype::iq3_s;
        if (f == ft::q3_k_m || f == ft::iq3_m) return dtype::q4_k;
        if (f == ft::q3_k_l) return dtype::q5_k;
        return type;
    case kind::attn_qkv:
        if (f == ft::q3_k_m || f == ft::q3_k_l || f == ft::iq3_m) return dtype::q4_k;
        if (f == ft::q4_k_m) return dtype::q5_k;
        if (f == ft::q5_k_m) return dtype::q6_k;
        return type;
    case kind::ffn_gate:
    case kind::ffn_up: {
        const int i = ffn_layer();
        return f == ft::iq3_xs && i >= n / 8 && i < 7 * n / 8 ? dtype::iq3_xxs : type;
    }
    default:
        return type;
    }
}

// The counters only matter for these kinds (attn_v, and the FFN rules of dense models).
bool counted(kind k) {
    return k == kind::attn_v || k == kind::ffn_down || k == kind::ffn_gate || k == kind::ffn_up;
}

// q: quantizable(t), when the caller has it.
dtype recipe_type(const tensor_desc& t, const model_facts& mf, int before, const gguf_ftype_info& f, bool imatrix,
                  bool q) {
    // convert_hf_to_gguf.py (GptOssModel) writes an MXFP4 checkpoint's experts as MXFP4 blocks as they
    // are, whatever --outtype, and the published quantizations keep them (unsloth/gpt-oss-20b-GGUF:
    // Q4_K_M 11.6 GB, F16 13.8 GB, against ggml-org's MXFP4 file of 12.1 GB).
    if (t.type == dtype::mxfp4) return dtype::mxfp4;
    if (!q)
        return stored_f32(t) || f.base == dtype::f32 ? dtype::f32 : f.base == dtype::bf16 ? dtype::bf16 : dtype::f16;
    // F32 / F16 / BF16 files: every quantizable matrix in that type, no mixture (ggml_is_quantized false)
    if (!info(f.base).is_quantized) return f.base;
    return fallback(pick(t, mf, before, f.llama_ftype, f.base, imatrix), row_size(t));
}

} // namespace

dtype gguf_recipe_type(const model_desc& m, const tensor_desc& t, const gguf_ftype_info& f, bool with_imatrix) {
    const kind k = kind_of(t);
    return recipe_type(t, facts_of(m), counted(k) ? count_before(m, t, k) : 0, f, with_imatrix, quantizable(t));
}

std::vector<dtype> gguf_recipe_types(const model_desc& m, const gguf_ftype_info& f, bool with_imatrix) {
    // The model's facts once, and the counters in one walk per counted kind over its tensors in
    // llama-quantize's order (comes_before), instead of a walk over every tensor per tensor: the
    // same answers as gguf_recipe_type, O(n log n) rather than O(n^2) (a plan asks for a recipe per
    // candidate split). Only attn_v / ffn_down / ffn_gate / ffn_up read a counter, so only they are sorted.
    const model_facts mf = facts_of(m);
    const std::size_t n  = m.tensors.size();
    std::vector<std::uint8_t> quant(n);
    std::vector<int> before(n, 0);
    std::array<std::vector<std::size_t>, static_cast<std::size_t>(kind::other) + 1> by_kind;
    for (std::size_t i = 0; i < n; ++i) {
        quant[i]     = quantizable(m.tensors[i]);
        const kind k = kind_of(m.tensors[i]);
        if (counted(k)) by_kind[static_cast<std::size_t>(k)].push_back(i);
    }
    for (auto& order : by_kind) {
        std::sort(order.begin(), order.end(),
                  [&](std::size_t a, std::size_t b) { return comes_before(m.tensors[a], m.tensors[b]); });
        int running = 0;
        for (std::size_t g = 0; g < order.size();) { // a group of equal keys: none comes before another
            std::size_t e = g + 1;
            while (e < order.size() && !comes_before(m.tensors[order[g]], m.tensors[order[e]]))
                ++e;
            for (std::size_t j = g; j < e; ++j)
                before[order[j]] = running;
            for (std::size_t j = g; j < e; ++j)
                running += quant[order[j]];
            g = e;
        }
    }
    std::vector<dtype> types(n);
    for (std::size_t i = 0; i < n; ++i)
        types[i] = recipe_type(m.tensors[i], mf, before[i], f, with_imatrix, quant[i] != 0);
    return types;
}

std::uint64_t gguf_apply_recipe(model_desc& m, const gguf_ftype_info& f, bool with_imatrix) {
    const std::vector<dtype> types = gguf_recipe_types(m, f, with_imatrix); // all first: the counters read the list
    std::uint64_t total            = 0;
    for (std::size_t i = 0; i < m.tensors.size(); ++i) {
        m.tensors[i].type  = types[i];
        m.tensors[i].bytes = tensor_bytes_ceil(types[i], m.tensors[i].n_elements());
        total += m.tensors[i].bytes;
    }
    return total;
}

} // namespace llmplan
