// Weight bytes per storage format. Each format's layout is from its own code:
//   GPTQ (AutoGPTQ QuantLinear): qweight int32 [in * bits / 32, out], qzeros int32 [in / g, out * bits / 32],
//     scales f16 [in / g, out], g_idx int32 [in]; bias f16 [out].
//   AWQ (AutoAWQ WQLinear_GEMM): qweight int32 [in, out * 4 / 32], qzeros int32 [in / g, out / 8], scales f16 [in / g,
//   out]. bitsandbytes Linear8bitLt: int8 [out, in] + SCB f32 [out]; Linear4bit (NF4/FP4): 4-bit packed in uint8
//     + one absmax per 64 weights (f32, or with double quantization 1 byte + one f32 per 256 absmax).
//   FP8 (vLLM / compressed-tensors, per-channel): e4m3 [out, in] + f32 scale [out].
// Only linear layers inside the blocks are quantized; embeddings, norms and lm_head stay in 16-bit
// (transformers' get_keys_to_not_convert keeps the output head; GPTQ/AWQ checkpoints keep lm_head f16).
#include "llmplan/weights.h"

#include "detail/bnb_layout.h"
#include "detail/enum_names.h"
#include "detail/strings.h"
#include "estimate/gguf_recipe.h"
#include "llmplan/quant.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace llmplan {
namespace {

constexpr std::uint64_t gptq_group  = 128; // Qwen's and TheBloke's GPTQ checkpoints: group_size 128
constexpr std::uint64_t nvfp4_group = 16;  // NVFP4: one e4m3 scale per 16 values (vLLM modelopt.py)
constexpr std::uint64_t mx_group    = 32;  // OCP MX formats: one e8m0 scale per 32 values

/// Bytes of one [.., out, in] linear matrix in a quantized format.
std::uint64_t quantized_linear_bytes(weight_format f, std::uint64_t out, std::uint64_t in, std::uint64_t n_mat,
                                     std::uint32_t bits, std::uint64_t group) {
    const std::uint64_t w      = out * in;
    const std::uint64_t groups = (in + group - 1) / group;
    switch (f) {
    case weight_format::gptq_int8:
    case weight_format::gptq_int4:
        return n_mat * (w * bits / 8 + groups * out * bits / 8 + groups * out * 2 + in * 4);
    case weight_format::awq:
        return n_mat * (w / 2 + groups * out / 2 + groups * out * 2);
    case weight_format::int4:
        return n_mat * (w / 2 + groups * out * 2);
    case weight_format::int8:
        return n_mat * (w + out * 4);
    case weight_format::nf4: // with double quantization, transformers' and PEFT's default (detail/bnb_layout.h)
        return n_mat * detail::bnb4_matrix_bytes(w, true);
    case weight_format::fp8:
        return n_mat * (w + out * 4);
    case weight_format::nvfp4: // ModelOpt (quant_formats.cpp): e2m1 pairs, e4m3 per 16, weight_scale_2 + input_scale
        return n_mat * (out * ((in + 1) / 2) + out * ((in + nvfp4_group - 1) / nvfp4_group) + 2 * 4);
    case weight_format::mxfp4: // OCP MX: 16 bytes of e2m1 pairs + one e8m0 scale per 32
        return n_mat * ((w + mx_group - 1) / mx_group * 17);
    default:
        return 0;
    }
}

using detail::lower;

// The --weights names of each format, its canonical name first (to_string prints that one); fp32 and
// fp16 are accepted spellings of f32 and f16. GGUF types are named by their file type instead.
constexpr detail::enum_name_row<weight_format> format_names[] = {
    {weight_format::native,    "native"   },
    {weight_format::f32,       "f32"      },
    {weight_format::f32,       "fp32"     },
    {weight_format::f16,       "f16"      },
    {weight_format::f16,       "fp16"     },
    {weight_format::bf16,      "bf16"     },
    {weight_format::fp8,       "fp8"      },
    {weight_format::int8,      "int8"     },
    {weight_format::int4,      "int4"     },
    {weight_format::nf4,       "nf4"      },
    {weight_format::gptq_int8, "gptq-int8"},
    {weight_format::gptq_int4, "gptq-int4"},
    {weight_format::awq,       "awq"      },
    {weight_format::nvfp4,     "nvfp4"    },
    {weight_format::mxfp4,     "mxfp4"    },
};

} // namespace

bool is_quantizable_matrix(const tensor_desc& t) {
    return is_linear(t.role) && !t.is_bias && t.shape.size() >= 2 && t.role != tensor_role::output &&
           t.role != tensor_role::ffn_gate_inp;
}

bool is_quantized(weight_format f) {
    return f != weight_format::native && f != weight_format::f32 && f != weight_format::f16 && f != weight_format::bf16;
}

weight_choice resolve_weight_choice(const model_desc& m, const weight_choice& asked) {
    if (asked.format != weight_format::native) return asked;
    switch (m.quant.method) {
    case quant_method::gptq:
        return {m.quant.bits == 8 ? weight_format::gptq_int8 : weight_format::gptq_int4, {}};
    case quant_method::awq:
        return {weight_format::awq, {}};
    case quant_method::bitsandbytes:
        return {m.quant.bits == 8 ? weight_format::int8 : weight_format::nf4, {}};
    case quant_method::fp8:
    case quant_method::mxfp4:
        return {m.quant.method == quant_method::fp8 ? weight_format::fp8 : weight_format::native, {}};
    case quant_method::compressed_tensors:
        return {m.quant.is_float   ? (m.quant.bits == 4 ? weight_format::nvfp4 : weight_format::fp8)
                : m.quant.bits < 8 ? weight_format::int4
                                   : weight_format::int8,
                {}};
    case quant_method::modelopt: // NVFP4 (or a MIXED_PRECISION recipe with NVFP4 modules), else FP8
        return {m.weights_type.find("nvfp4") != std::string::npos ? weight_format::nvfp4 : weight_format::fp8, {}};
    default:
        return asked;
    }
}

result<weight_choice> parse_weight_choice(std::string_view s) {
    const std::string v = lower(s);
    for (const auto& r : format_names)
        if (v == r.name) return weight_choice{r.value, {}};
    if (gguf_ftype_from_name(v)) return weight_choice{weight_format::gguf, v};
    return make_error(error_code::bad_value,
                      fmt::format("unknown weights type \"{}\"; expected f32 f16 bf16 fp8 int8 int4 nf4 mxfp4 nvfp4 "
                                  "gptq-int8 gptq-int4 awq or a GGUF type (q4_0, q4_k_m, q8_0, iq2_xxs ...)",
                                  s),
                      "--weights");
}

weight_choice weights_for_engine(const weight_choice& c, bool runs_gguf) {
    // llama.cpp's MXFP4 is its MXFP4_MOE file type (llama-quantize QUANT_OPTIONS; "mxfp4" is its alias).
    if (runs_gguf && c.format == weight_format::mxfp4) return weight_choice{weight_format::gguf, "mxfp4_moe"};
    return c;
}

std::string to_string(const weight_choice& c) {
    return c.format == weight_format::gguf ? c.gguf_ftype : std::string(detail::name_in(format_names, c.format));
}

result<weights_estimate> estimate_weights(const model_desc& m, const weight_choice& asked) {
    weights_estimate r;
    const weight_choice c = resolve_weight_choice(m, asked);

    // Exact: the file's own tensors, when the user asks for what the file is (GGUF: below, per tensor).
    if (c.format == weight_format::native && m.source == weights_source::tensors && !m.from_gguf) {
        r.bytes = r.unquantized_bytes = weights_bytes(m);
        r.exact_from_file             = true;
        r.compute_dtype               = m.from_gguf ? dtype::f16 : m.torch_dtype;
        r.how                         = "sum of the file's tensor sizes";
        return r;
    }
    if (m.from_gguf && c.format != weight_format::gguf && c.format != weight_format::f16 &&
        c.format != weight_format::f32 && c.format != weight_format::bf16 && c.format != weight_format::native)
        return make_error(
            error_code::invalid_params,
            fmt::format("{} weights cannot be made from a GGUF file; ask for a GGUF type instead", to_string(c)),
            "--weights");

    // Element type of the unquantized tensors.
    dtype base = m.torch_dtype;
    if (c.format == weight_format::f32) base = dtype::f32;
    if (c.format == weight_format::f16) base = dtype::f16;
    if (c.format == weight_format::bf16) base = dtype::bf16;
    const bool quantized_format = is_quantized(c.format);
    // Quantized kernels take 16-bit activations: an f32 checkpoint quantized keeps its other tensors in bf16.
    if (base == dtype::f32 && quantized_format) base = dtype::bf16;
    // GPTQ/AWQ kernels run in f16 (their checkpoints store f16 scales and non-quantized tensors).
    if (c.format == weight_format::gptq_int4 || c.format == weight_format::gptq_int8 || c.format == weight_format::awq)
        base = dtype::f16;
    r.compute_dtype = base;

    std::optional<gguf_ftype_info> ftype;
    if (c.format == weight_format::gguf) ftype = gguf_ftype_from_name(c.gguf_ftype);
    const std::uint32_t bits = c.format == weight_format::gptq_int8 ? 8 : 4;
    // A checkpoint's own quantization_config group size when it has one.
    const std::uint64_t group = m.quant.group_size ? m.quant.group_size : gptq_group;

    // Asked for the checkpoint as it is: its tensors already carry their quantized bytes.
    const bool prequantized = asked.format == weight_format::native && is_prequantized(m);
    r.layer_bytes.assign(m.n_layer, 0);
    r.layer_expert_bytes.assign(m.n_layer, 0);
    auto account = [&](const tensor_desc& t, std::uint64_t before) {
        const std::uint64_t added = r.quantized_bytes + r.unquantized_bytes - before;
        if (t.layer >= 0 && static_cast<std::uint32_t>(t.layer) < m.n_layer) {
            r.layer_bytes[t.layer] += added;
            if (is_expert(t.role)) r.layer_expert_bytes[t.layer] += added;
        }
        if (t.role == tensor_role::token_embd) r.token_embd_bytes += added;
        if (t.role == tensor_role::per_layer_token_embd) r.per_layer_embd_bytes += added;
    };
    // The whole recipe at once: its counters are one walk over the tensors, not one per tensor.
    const std::vector<dtype> recipe = ftype ? gguf_recipe_types(m, *ftype) : std::vector<dtype>{};
    for (std::size_t ti = 0; ti < m.tensors.size(); ++ti) {
        const tensor_desc& t       = m.tensors[ti];
        const std::uint64_t n      = t.n_elements();
        const std::uint64_t before = r.quantized_bytes + r.unquantized_bytes;
        if (ftype || (m.from_gguf && c.format == weight_format::native)) {
            const dtype d = ftype ? recipe[ti] : t.type;
            const auto b  = ftype ? tensor_bytes_ceil(d, n) : t.bytes;
            (info(d).is_quantized ? r.quantized_bytes : r.unquantized_bytes) += b;
            // ggml-cpu repacks these types into interleaved blocks (CPU_REPACK buffer, measured in
            // tests/data/truth/llamacpp_cpu_notes.md for Q4_0); token embeddings are only gathered, never repacked.
            if ((d == dtype::q4_0 || d == dtype::iq4_nl) && t.layer >= 0) r.repackable_bytes += b;
            account(t, before);
            continue;
        }
        if (prequantized) { // the checkpoint's own layout (quant.h), as inspect reports it
            (checkpoint_quantizes(m, t) ? r.quantized_bytes : r.unquantized_bytes) += t.bytes;
        } else if (quantized_format && is_quantizable_matrix(t)) {
            const std::uint64_t out   = t.shape[t.shape.size() - 2];
            const std::uint64_t in    = t.shape.back();
            const std::uint64_t n_mat = out != 0 && in != 0 ? n / (out * in) : 0;
            r.quantized_bytes += quantized_linear_bytes(c.format, out, in, n_mat, bits, group);
        } else {
            r.unquantized_bytes += tensor_bytes_ceil(base, n);
        }
        account(t, before);
    }
    r.bytes = r.quantized_bytes + r.unquantized_bytes;
    if (m.from_gguf && c.format == weight_format::native) {
        r.exact_from_file = m.source == weights_source::tensors;
        r.compute_dtype   = dtype::f16;
        r.how             = "sum of the GGUF's tensor sizes";
        return r;
    }
    if (prequantized) {
        r.how = "the checkpoint's quantization_config layout (scales and zeros included); other tensors " +
                std::string(name(m.torch_dtype));
        return r;
    }
    r.how = ftype ? fmt::format("llama-quantize's per-tensor recipe for {}", ftype->name)
                  : fmt::format("{} layout of each linear layer; other tensors {}", to_string(c), name(base));
    return r;
}

} // namespace llmplan
