// Pre-quantized checkpoints: quantization_config -> quant_desc, and the bytes each method stores.
// Layouts, each from the code that writes or loads the checkpoint:
//   GPTQ (AutoGPTQ / gptqmodel QuantLinear): qweight int32 [in * bits / 32, out], qzeros int32
//     [groups, out * bits / 32], scales f16 [groups, out], g_idx int32 [in]; group_size -1 = one group.
//   AWQ (AutoAWQ WQLinear_GEMM): qweight int32 [in, out / 8], qzeros int32 [groups, out / 8], scales f16 [groups, out].
//   bitsandbytes: Linear8bitLt int8 [out, in] + SCB f32 [out]; Linear4bit 4-bit pairs in uint8 + one absmax
//     per 64 weights (f32, or 1 byte with double quantization + one f32 per 256 absmax).
//   FP8 with weight_block_size (DeepSeek-V3, Qwen3-FP8; transformers' FineGrainedFP8): e4m3 [out, in] +
//     weight_scale_inv f32 [ceil(out / b0), ceil(in / b1)]; without it (AutoFP8): one f32 scale per matrix.
//   compressed-tensors (llm-compressor): pack-quantized int4 = weight_packed int32 [out, in / 8] +
//     weight_scale [out, groups] in torch_dtype (+ weight_zero_point, packed, when asymmetric) +
//     weight_shape int64 [2]; int-/float-quantized 8-bit = int8/e4m3 [out, in] + weight_scale per
//     channel, group, block or tensor.
//   MXFP4 (gpt-oss, OCP MX): *_blocks uint8 [.., in / 32, 16] + *_scales uint8 [.., in / 32]: 17 bytes per 32.
// ModelOpt (NVFP4, FP8, MIXED_PRECISION) and MLX checkpoints: src/model/quant_formats.cpp.
#include "detail/checked_number.h"
#include "llmplan/quant.h"
#include "model/quant_config.h"
#include "model/quant_modules.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace llmplan {
namespace {

using json = nlohmann::json;

using detail::ceil_div;

std::uint32_t uint_at(const json& j, const char* key, std::uint32_t fallback) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) return fallback;
    const auto v = it->get<std::int64_t>();
    return v > 0 && v < (1 << 24) ? static_cast<std::uint32_t>(v) : fallback;
}

void read_block(const json& j, quant_desc& q) {
    if (!j.is_array() || j.size() != 2 || !j[0].is_number_integer() || !j[1].is_number_integer()) return;
    const auto a = j[0].get<std::int64_t>(), b = j[1].get<std::int64_t>();
    if (a <= 0 || b <= 0 || a >= (1 << 24) || b >= (1 << 24)) return;
    q.block_out = static_cast<std::uint32_t>(a);
    q.block_in  = static_cast<std::uint32_t>(b);
}

/// compressed-tensors: the weights scheme of the first config group (llm-compressor writes one).
void read_compressed_tensors(const json& qc, quant_desc& q) {
    auto groups = qc.find("config_groups");
    if (groups == qc.end() || !groups->is_object()) return;
    for (const auto& [name, g] : groups->items()) {
        if (!g.is_object() || !g.contains("weights") || !g["weights"].is_object()) continue;
        const json& w = g["weights"];
        q.bits        = uint_at(w, "num_bits", 8);
        q.group_size  = uint_at(w, "group_size", 0);
        q.is_float    = w.value("type", std::string{"int"}) == "float";
        q.symmetric   = !w.contains("symmetric") || !w["symmetric"].is_boolean() || w["symmetric"].get<bool>();
        const std::string strategy = w.value("strategy", std::string{});
        q.per_tensor               = strategy == "tensor";
        // tensor_group: NVFP4's groups of 16 under one per-tensor global scale (compressed-tensors presets)
        if (strategy != "group" && strategy != "tensor_group") q.group_size = 0;
        if (strategy == "block" && w.contains("block_structure")) read_block(w["block_structure"], q);
        return;
    }
}

} // namespace

namespace detail {

/// The quantization_config of `root`, else of its text_config (Kimi-K2.5 keeps its int4 config
/// there); nullptr when neither has one.
static const json* find_quantization_config(const json& root) {
    for (const json* j : {&root, root.contains("text_config") ? &root["text_config"] : nullptr}) {
        if (!j || !j->is_object()) continue;
        auto it = j->find("quantization_config");
        if (it != j->end() && it->is_object()) return &*it;
    }
    return nullptr;
}

/// MLX (mlx-lm save_config): "quantization": {"group_size", "bits"[, "mode"]}, at the root or under
/// text_config; mlx-lm also copies it to quantization_config, which then has no quant_method.
static const json* find_mlx_block(const json& root) {
    for (const json* j : {&root, root.contains("text_config") ? &root["text_config"] : nullptr}) {
        if (!j || !j->is_object()) continue;
        auto it = j->find("quantization");
        if (it != j->end() && it->is_object() && it->contains("bits")) return &*it;
    }
    return nullptr;
}

static dtype config_dtype(const json& root) {
    for (const char* key : {"torch_dtype", "dtype"})
        if (auto it = root.find(key); it != root.end() && it->is_string())
            if (auto d = dtype_from_name(it->get<std::string>())) return *d;
    return dtype::bf16;
}

quant_desc parse_quant(const json& root) {
    quant_desc q;
    const json* found = find_quantization_config(root);
    const json* mlx   = find_mlx_block(root);
    if (mlx && (!found || !found->contains("quant_method"))) {
        read_mlx(*mlx, q);
        q.scale_type = config_dtype(root);
        return q;
    }
    if (!found) return q;
    const json& qc      = *found;
    const std::string m = qc.value("quant_method", std::string{});
    if (m.starts_with("modelopt")) { // "modelopt", and vLLM's older "modelopt_fp4" spelling
        read_modelopt(qc, q);
        return q;
    }
    struct row {
        const char* name;
        quant_method method;
    };
    static constexpr row methods[] = {
        {"gptq",               quant_method::gptq              },
        {"awq",                quant_method::awq               },
        {"bitsandbytes",       quant_method::bitsandbytes      },
        {"fp8",                quant_method::fp8               },
        {"compressed-tensors", quant_method::compressed_tensors},
        {"mxfp4",              quant_method::mxfp4             },
    };
    q.method = quant_method::other;
    for (const auto& r : methods)
        if (m == r.name) q.method = r.method;
    q.bits = uint_at(qc, "bits", uint_at(qc, "w_bit", 0));
    // group_size -1 (GPTQ) is one group per column: stored as 0 (per channel).
    q.group_size = uint_at(qc, "group_size", uint_at(qc, "q_group_size", 0));
    switch (q.method) {
    case quant_method::bitsandbytes:
        q.bits         = qc.value("load_in_4bit", false) ? 4 : 8;
        q.nf4          = qc.value("bnb_4bit_quant_type", std::string{"fp4"}) == "nf4";
        q.double_quant = qc.value("bnb_4bit_use_double_quant", false);
        break;
    case quant_method::fp8:
        q.bits     = 8;
        q.is_float = true;
        if (qc.contains("weight_block_size")) read_block(qc["weight_block_size"], q);
        q.per_tensor = q.block_out == 0; // AutoFP8 checkpoints: one weight_scale per matrix
        break;
    case quant_method::mxfp4:
        q.bits     = 4;
        q.is_float = true;
        break;
    case quant_method::compressed_tensors:
        read_compressed_tensors(qc, q);
        break;
    case quant_method::gptq:
    case quant_method::awq:
        if (q.bits == 0) q.bits = 4;
        break;
    default:
        break;
    }
    for (const char* k : {"modules_to_not_convert", "ignore", "llm_int8_skip_modules"})
        if (qc.contains(k) && qc[k].is_array())
            for (const auto& s : qc[k])
                if (s.is_string()) q.modules_not_converted.push_back(s.get<std::string>());
    return q;
}

} // namespace detail

bool is_prequantized(const model_desc& m) {
    return !m.from_gguf && m.quant.method != quant_method::none && m.quant.method != quant_method::other;
}

bool checkpoint_quantizes(const model_desc& m, const tensor_desc& t) {
    if (!is_prequantized(m)) return false;
    // ModelOpt / MLX: apply_checkpoint_quant gave each quantized matrix its packed type (u8, e4m3,
    // u32), never a torch_dtype; the others stay at torch_dtype. (The module lists are matched once.)
    if (m.quant.method == quant_method::modelopt || m.quant.method == quant_method::mlx)
        return !t.is_bias && t.shape.size() >= 2 && t.type != m.torch_dtype;
    if (t.is_bias || t.shape.size() < 2 || !is_linear(t.role)) return false;
    if (t.role == tensor_role::output || t.role == tensor_role::ffn_gate_inp) return false;
    if (m.quant.method == quant_method::mxfp4) return is_expert(t.role);
    // Module names left out by the config, matched by what they name (HF module paths vs GGUF roles).
    const std::string_view role = role_name(t.role);
    const bool attn_role        = role.substr(0, 5) == "attn_";
    const bool shexp_role       = role.size() > 6 && role.substr(role.size() - 6) == "_shexp";
    for (const auto& s : m.quant.modules_not_converted) {
        const bool attn  = s.find("self_attn") != std::string::npos || s.find("attention") != std::string::npos;
        const bool shexp = s.find("shared_expert") != std::string::npos;
        if ((attn && attn_role) || (shexp && shexp_role)) return false;
    }
    // The same lists by the module paths they name (dense MLPs, single layers, "re:" patterns).
    const auto rule = m.quant.method == quant_method::compressed_tensors ? detail::module_rule::compressed_tensors
                                                                         : detail::module_rule::transformers;
    return !detail::module_listed(m.quant.modules_not_converted, t, rule, m.arch);
}

std::uint64_t checkpoint_matrix_bytes(const quant_desc& q, std::uint64_t out, std::uint64_t in, std::uint64_t n_mat) {
    const std::uint64_t w      = out * in;
    const std::uint64_t bits   = q.bits ? q.bits : 4;
    const std::uint64_t groups = q.group_size ? ceil_div(in, q.group_size) : 1;
    const std::uint64_t blocks = q.block_out ? ceil_div(out, q.block_out) * ceil_div(in, q.block_in) : 0;
    std::uint64_t b            = 0;
    switch (q.method) {
    case quant_method::gptq:
        b = w * bits / 8 + groups * out * bits / 8 + groups * out * 2 + in * 4;
        break;
    case quant_method::awq:
        b = w * bits / 8 + groups * out * bits / 8 + groups * out * 2;
        break;
    case quant_method::bitsandbytes:
        if (q.bits == 8) {
            b = w + out * 4;
        } else {
            const std::uint64_t absmax = ceil_div(w, 64);
            b                          = w / 2 + (q.double_quant ? absmax + ceil_div(absmax, 256) * 4 : absmax * 4);
        }
        break;
    case quant_method::fp8:
        b = w + (blocks ? blocks * 4 : 4);
        break;
    case quant_method::compressed_tensors: {
        const std::uint64_t scales = q.per_tensor ? 1 : blocks ? blocks : groups * out;
        // nvfp4-pack-quantized (compressed-tensors NVFP4): e2m1 pairs, an e4m3 scale per group, and
        // weight_global_scale + input_global_scale f32 (vLLM compressed_tensors_w4a4_nvfp4.py).
        if (q.is_float && bits == 4) {
            b = w / 2 + scales + 2 * 4;
            break;
        }
        b = w * bits / 8 + scales * 2 + (q.symmetric ? 0 : scales * bits / 8) + (bits < 8 ? 16 : 0);
        break;
    }
    case quant_method::mxfp4:
        b = ceil_div(w, 32) * 17;
        break;
    case quant_method::modelopt:
        b = detail::modelopt_matrix_bytes(q, out, in);
        break;
    case quant_method::mlx:
        b = detail::mlx_matrix_bytes(q, out, in);
        break;
    default:
        b = w * 2;
        break;
    }
    return n_mat * b;
}

dtype checkpoint_storage_type(const quant_desc& q) {
    switch (q.method) {
    case quant_method::mxfp4:
        return dtype::mxfp4;
    case quant_method::fp8:
        return dtype::f8_e4m3;
    case quant_method::compressed_tensors:
        return q.is_float ? (q.bits == 4 ? dtype::u8 : dtype::f8_e4m3) : q.bits < 8 ? dtype::i32 : dtype::i8;
    case quant_method::bitsandbytes:
        return q.bits == 8 ? dtype::i8 : dtype::u8;
    case quant_method::modelopt: // NVFP4 packs two e2m1 values a byte (uint8); FP8 / MXFP8 are e4m3
        return q.bits == 4 ? dtype::u8 : dtype::f8_e4m3;
    case quant_method::mlx: // every MLX mode packs its codes in uint32 words
        return dtype::u32;
    default:
        return dtype::i32; // GPTQ / AWQ pack their integers in int32 words
    }
}

void apply_checkpoint_quant(model_desc& m) {
    if (!is_prequantized(m)) return;
    // How a user names these weights (inspect's dtype; the plan's chip features read it).
    if (m.weights_type.empty() && m.quant.method == quant_method::modelopt)
        m.weights_type = detail::modelopt_type_name(m.quant);
    if (m.weights_type.empty() && m.quant.method == quant_method::mlx)
        m.weights_type =
            m.quant.algo == "affine" ? fmt::format("mlx-{}bit", m.quant.bits) : fmt::format("mlx-{}", m.quant.algo);
    const bool per_module = m.quant.method == quant_method::modelopt || m.quant.method == quant_method::mlx;
    for (auto& t : m.tensors) {
        // ModelOpt MIXED_PRECISION and MLX overrides give a module its own format.
        const auto layout = per_module ? detail::tensor_layout(m, t) : std::optional<quant_desc>();
        if (per_module ? !layout : !checkpoint_quantizes(m, t)) continue;
        const quant_desc& q       = layout ? *layout : m.quant;
        const std::uint64_t out   = t.shape[t.shape.size() - 2];
        const std::uint64_t in    = t.shape.back();
        const std::uint64_t n_mat = out && in ? t.n_elements() / (out * in) : 0;
        t.type                    = checkpoint_storage_type(q);
        t.bytes                   = checkpoint_matrix_bytes(q, out, in, n_mat);
    }
}

} // namespace llmplan
