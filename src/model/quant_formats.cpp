// The 2026 checkpoint formats at their stored bytes: NVIDIA ModelOpt (NVFP4, W4A16_NVFP4, FP8, MXFP8,
// MIXED_PRECISION; from config.json's quantization_config or a separate hf_quant_config.json) and MLX
// (`quantization` blocks of mlx-community checkpoints). Layouts, each from the code that loads them:
//   ModelOpt NVFP4 (vLLM model_executor/layers/quantization/modelopt.py, ModelOptNvFp4LinearMethod):
//     weight uint8 [out, in / 2] (two e2m1 values a byte) + weight_scale float8_e4m3fn [out, in / 16]
//     + weight_scale_2 f32 (one per matrix) + input_scale f32 (one per matrix; W4A16_NVFP4 stores none).
//     Checked against nvidia/DeepSeek-V3.1-NVFP4's Hub count (tests/unit/quant_formats_2026_test.cpp).
//   ModelOpt FP8 (ModelOptFp8LinearMethod, "per-tensor weight + static activation scale"): float8_e4m3fn
//     [out, in] + weight_scale f32 + input_scale f32.
//   MXFP8 (OCP MX): e4m3 values + one e8m0 byte per 32 along the input dimension.
//   MLX (ml-explore mlx, mlx.core.quantize "Quantization modes" table): affine packs `bits`-bit codes in
//     uint32 words [out, in * bits / 32] with a scale and a bias per group in the weights' own dtype;
//     mxfp4 (group 32, e8m0 scale), nvfp4 (group 16, e4m3 scale) and mxfp8 (group 32, e8m0) store one
//     uint8 scale per group and no bias. mlx.nn.quantize quantizes every Linear and Embedding layer
//     (lm_head, the MoE router and the token embeddings included) whose input width the group divides.
#include "detail/checked_number.h"
#include "llmplan/quant.h"
#include "model/quant_config.h"
#include "model/quant_modules.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmplan::detail {
namespace {

using json = nlohmann::json;

using detail::ceil_div;

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return s;
}

std::uint32_t positive(const json& j, const char* key, std::uint32_t fallback) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) return fallback;
    const auto v = it->get<std::int64_t>();
    return v > 0 && v < (1 << 24) ? static_cast<std::uint32_t>(v) : fallback;
}

void strings_into(const json& j, const char* key, std::vector<std::string>& out) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_array()) return;
    for (const auto& s : *it)
        if (s.is_string()) out.push_back(s.get<std::string>());
}

// ModelOpt's NVFP4 block: 16 values share one e4m3 scale (vLLM asserts group_size 16 for NVFP4).
constexpr std::uint32_t nvfp4_group = 16;
// OCP Microscaling (MX) formats: 32 values share one e8m0 scale.
constexpr std::uint32_t mx_group = 32;

} // namespace

void read_modelopt(const json& cfg, quant_desc& q) {
    // hf_quant_config.json: {"producer": ..., "quantization": {"quant_algo", "group_size",
    // "exclude_modules", "quantized_layers"}}; config.json: {"quant_method": "modelopt",
    // "quant_algo", "group_size", "ignore", "quantized_layers"} (modelopt.py from_config).
    const bool legacy = cfg.contains("quantization") && cfg["quantization"].is_object();
    const json& qc    = legacy ? cfg["quantization"] : cfg;
    q.method          = quant_method::modelopt;
    q.algo =
        qc.contains("quant_algo") && qc["quant_algo"].is_string() ? upper(qc["quant_algo"].get<std::string>()) : "";
    q.group_size = positive(qc, "group_size", q.algo.find("NVFP4") != std::string::npos ? nvfp4_group : 0);
    q.bits       = q.algo.find("FP4") != std::string::npos ? 4 : 8;
    q.is_float   = true;
    strings_into(qc, legacy ? "exclude_modules" : "ignore", q.modules_not_converted);
    if (auto it = qc.find("quantized_layers"); it != qc.end() && it->is_object())
        for (const auto& [module, layer] : it->items()) {
            if (!layer.is_object() || !layer.contains("quant_algo") || !layer["quant_algo"].is_string()) continue;
            quant_override o;
            o.module     = module;
            o.algo       = upper(layer["quant_algo"].get<std::string>());
            o.group_size = positive(layer, "group_size", o.algo.find("NVFP4") != std::string::npos ? nvfp4_group : 0);
            o.bits       = o.algo.find("FP4") != std::string::npos ? 4 : 8;
            q.overrides.push_back(std::move(o));
        }
}

void read_mlx(const json& block, quant_desc& q) {
    q.method     = quant_method::mlx;
    q.algo       = block.value("mode", std::string{"affine"});
    const bool a = q.algo == "affine";
    // mlx.core.quantize defaults per mode: affine 64 x 4-bit, mxfp4 32 x 4, nvfp4 16 x 4, mxfp8 32 x 8.
    q.group_size = positive(block, "group_size", a ? 64 : q.algo == "nvfp4" ? nvfp4_group : mx_group);
    q.bits       = positive(block, "bits", q.algo == "mxfp8" ? 8 : 4);
    q.is_float   = !a;
    // Per-module entries (mlx-lm writes them for mixed recipes): {"group_size", "bits"} or false.
    for (const auto& [key, v] : block.items()) {
        if (v.is_boolean() && !v.get<bool>()) q.overrides.push_back({key, q.algo, 0, 0, true});
        if (!v.is_object()) continue;
        quant_override o;
        o.module     = key;
        o.algo       = v.value("mode", q.algo);
        o.group_size = positive(v, "group_size", q.group_size);
        o.bits       = positive(v, "bits", q.bits);
        q.overrides.push_back(std::move(o));
    }
}

std::uint64_t modelopt_matrix_bytes(const quant_desc& q, std::uint64_t out, std::uint64_t in) {
    const std::uint64_t w = out * in;
    if (q.algo == "NVFP4" || q.algo == "W4A16_NVFP4") {
        const std::uint64_t scalars = q.algo == "NVFP4" ? 2 : 1; // weight_scale_2 (+ input_scale)
        return out * ceil_div(in, 2) + out * ceil_div(in, q.group_size ? q.group_size : nvfp4_group) + scalars * 4;
    }
    if (q.algo == "MXFP8") return w + out * ceil_div(in, mx_group);
    return w + 2 * 4; // FP8: e4m3 weight, weight_scale and input_scale
}

std::uint64_t mlx_matrix_bytes(const quant_desc& q, std::uint64_t out, std::uint64_t in) {
    const std::uint64_t groups = out * ceil_div(in, q.group_size ? q.group_size : 64);
    const std::uint64_t codes  = ceil_div(in * (q.bits ? q.bits : 4), 32) * 4 * out; // uint32 words per row
    if (q.algo == "affine") return codes + 2 * groups * info(q.scale_type).bytes_per_block;
    return codes + groups; // one uint8 scale per group, no bias
}

/// Whether the format knows how to store a matrix this wide (vLLM / MLX refuse the others).
bool mlx_fits(const quant_desc& q, std::uint64_t in) {
    return q.group_size && in % q.group_size == 0;
}

std::optional<quant_desc> tensor_layout(const model_desc& m, const tensor_desc& t) {
    const quant_desc& q = m.quant;
    if (t.is_bias || t.shape.size() < 2) return std::nullopt;
    const bool embedding = t.role == tensor_role::token_embd;
    if (!is_linear(t.role) && !(q.method == quant_method::mlx && embedding)) return std::nullopt;
    quant_desc out = q;
    if (q.method == quant_method::mlx) {
        if (const auto* o = override_for(q, t)) {
            if (o->keep) return std::nullopt;
            out.algo       = o->algo;
            out.bits       = o->bits;
            out.group_size = o->group_size;
        }
        return mlx_fits(out, t.shape.back()) ? std::optional(out) : std::nullopt;
    }
    // ModelOpt: MIXED_PRECISION names each quantized module; the others quantize every Linear but
    // the excluded ones. DeepSeek's router (MoEGate) is no nn.Linear; Qwen's mlp.gate is one, but
    // NVIDIA's configs exclude it (nvidia/Qwen3-235B-A22B-NVFP4 lists every layer's mlp.gate).
    if (t.role == tensor_role::ffn_gate_inp) return std::nullopt;
    if (module_listed(q.modules_not_converted, t, module_rule::modelopt)) return std::nullopt;
    if (q.algo == "MIXED_PRECISION") {
        const auto* o = override_for(q, t);
        if (!o) return std::nullopt;
        out.algo       = o->algo;
        out.bits       = o->bits;
        out.group_size = o->group_size;
    }
    if (out.algo != "NVFP4" && out.algo != "W4A16_NVFP4" && out.algo != "FP8" && out.algo != "MXFP8")
        return std::nullopt; // a quant_algo whose layout is not known here: sized at torch_dtype
    return out;
}

status apply_hf_quant_config(model_desc& m, std::string_view text, std::string_view path) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        return make_error(error_code::bad_json, fmt::format("not valid JSON: {}", e.what()), std::string(path));
    }
    if (!j.is_object() || !j.contains("quantization") || !j["quantization"].is_object())
        return make_error(error_code::missing_field,
                          "no \"quantization\" object; expected ModelOpt's {\"quantization\": {\"quant_algo\": ...}}",
                          std::string(path) + ":/quantization");
    if (m.quant.method != quant_method::none) return ok(); // config.json's own quantization_config wins
    try {
        read_modelopt(j, m.quant);
    } catch (const json::exception& e) {
        return make_error(error_code::bad_value, fmt::format("unexpected value: {}", e.what()), std::string(path));
    }
    apply_checkpoint_quant(m);
    m.notes.push_back(fmt::format("quantization from {} (ModelOpt {})", path, m.quant.algo));
    return ok();
}

std::string modelopt_type_name(const quant_desc& q) {
    if (q.algo == "MIXED_PRECISION") {
        std::vector<std::string> algos;
        for (const auto& o : q.overrides)
            if (std::find(algos.begin(), algos.end(), o.algo) == algos.end()) algos.push_back(o.algo);
        std::string s;
        for (const auto& a : algos)
            s += (s.empty() ? "" : "+") + a;
        std::transform(s.begin(), s.end(), s.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return s.empty() ? "mixed" : s;
    }
    std::string s = q.algo;
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

} // namespace llmplan::detail
