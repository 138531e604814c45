// Will it run at all (issue 14, item 9): what a chip supports against what the plan's engine, dtype
// and kernels need. Two tables, no branches on a model's or engine's name: the chip features by
// CUDA compute capability, and the platforms each engine (and bitsandbytes) builds for.
#include "detail/enum_names.h"
#include "detail/strings.h"
#include "estimate/engine_traits.h"
#include "llmplan/weights.h"
#include "plan/detail.h"

#include <array>
#include <fmt/format.h>

namespace llmplan::detail {
namespace {

/// Where a row's accelerator runs code: from its vendor (gpus.csv), or the CPU.
enum class platform : std::uint8_t { cuda, rocm, metal, xpu, gaudi, tpu, cpu, count };

/// Features a plan may need, the compute capability each needs on NVIDIA, and the nearest that
/// works without it. Sources: NVIDIA's Ampere (sm_80) whitepaper for bf16 tensor cores; the
/// flash-attn README (FlashAttention-2: Ampere, Ada, Hopper); NVIDIA's Ada whitepaper for FP8 tensor
/// cores (sm_89) and vLLM's FP8 docs (weight-only FP8 through Marlin on Ampere); vLLM's gpt-oss
/// recipe for the MXFP4 kernels (Hopper and Blackwell; Ampere through the slower Marlin path); NVFP4
/// tensor cores are Blackwell's (sm_100/sm_120; vLLM's marlin_utils_fp4 runs FP4 weight-only from 8.0).
enum class feature : std::uint8_t { bf16, flash_attention_2, fp8, mxfp4, nvfp4 };
/// vLLM's weight-only FP8 (Marlin) needs Ampere, compute capability 8.0 (vLLM docs, "FP8 W8A8":
/// "Ampere GPUs are supported for W8A16 (weight-only FP8) utilizing Marlin kernels").
constexpr double fp8_weight_only_min_cc = 8.0;
struct feature_row {
    feature f;
    double min_cc;
    std::string_view name;
    std::string_view instead;
};
constexpr std::array<feature_row, 5> feature_rows = {
    {
     {feature::bf16, 8.0, "bf16", "fp16 (same memory; watch for overflow in models trained in bf16)"},
     {feature::flash_attention_2, 8.0, "FlashAttention-2", "PyTorch SDPA attention (more activation memory)"},
     {feature::fp8, 8.9, "FP8 tensor cores", "weight-only FP8 (vLLM Marlin, compute capability 8.0+) or 16-bit"},
     {feature::mxfp4, 9.0, "MXFP4 kernels", "vLLM's Marlin MXFP4 path on 8.0+ (slower), or llama.cpp"},
     {feature::nvfp4, 10.0, "NVFP4 tensor cores", "vLLM's FP4 Marlin path (weight-only, 8.0+; slower)"},
     }
};

/// What each engine builds for (its install docs): the lowest CUDA compute capability (0 = no
/// CUDA), and the other platforms. llama.cpp: CUDA 5.0+ (ggml-cuda's default architectures), HIP,
/// Metal, SYCL/Vulkan, CPU. vLLM: CUDA 7.0+ ("GPU: compute capability 7.0 or higher"), ROCm, Intel
/// XPU, Gaudi (vllm-gaudi), TPU, CPU; no Metal (macOS runs it on the CPU). transformers: PyTorch's
/// CUDA wheels (5.0+), ROCm, MPS, XPU, Gaudi (optimum-habana), TPU (torch_xla), CPU. bitsandbytes
/// (int8/nf4 weights): CUDA 5.0+, ROCm, XPU, CPU; no Metal.
struct runtime_row {
    double min_cc;
    std::array<bool, static_cast<std::size_t>(platform::count)> runs; // indexed by platform
};
struct engine_runtime {
    engine_kind engine;
    runtime_row runtime;
};
// clang-format off
constexpr std::array<engine_runtime, 5> engine_runtimes = {{
    //                            cuda  rocm  metal  xpu   gaudi  tpu    cpu
    {engine_kind::llama_cpp,    {5.0, {true, true, true,  true, false, false, true}}},
    {engine_kind::vllm,         {7.0, {true, true, false, true, true,  true,  true}}},
    {engine_kind::transformers, {5.0, {true, true, true,  true, true,  true,  true}}},
    // SGLang: CUDA (its CUDA kernels, sgl-kernel, build for sm75+: taken as vLLM's 7.0 floor, not read),
    // ROCm (aiter), Intel XPU (intel_xpu backend) and CPU (intel_amx) in server_args.py's backends.
    {engine_kind::sglang,       {7.0, {true, true, false, true, false, false, true}}},
    // mlx-lm: Apple silicon's Metal GPU only (MLX's CUDA backend is not what mlx-lm's docs install).
    {engine_kind::mlx,          {0.0, {false, false, true, false, false, false, false}}},
}};
constexpr runtime_row bitsandbytes_row = {5.0, {true, true, false, true, false, false, true}};
// clang-format on
static_assert(rows_in_enum_order(engine_runtimes, &engine_runtime::engine), "runtime rows must follow the enum order");

/// The CUDA toolkit and driver an architecture needs (NVIDIA CUDA toolkit release notes, minimum
/// Linux driver per toolkit: 11.0 450.36, 11.8 520.61, 12.0 525.60, 12.8 570.26).
struct cuda_floor {
    double min_cc;
    std::string_view text;
};
constexpr std::array<cuda_floor, 4> cuda_floors = {
    {
     {10.0, "CUDA 12.8+ and NVIDIA driver 570+ (Blackwell)"},
     {9.0, "CUDA 12.0+ and NVIDIA driver 525+ (Hopper)"},
     {8.9, "CUDA 11.8+ and NVIDIA driver 520+ (Ada)"},
     {0.0, "CUDA 11.0+ and NVIDIA driver 450+"},
     }
};

platform platform_of(const device_spec& d, device_kind runs_on) {
    if (runs_on == device_kind::cpu) return platform::cpu;
    if (runs_on == device_kind::metal) return platform::metal;
    if (d.compute_capability) return platform::cuda;
    // A cloud row's vendor column is its provider ("GCP"), so the accelerator's architecture (copied
    // from the linked gpus.csv row) decides first; then the vendor of a gpus.csv row.
    struct by_name {
        std::string_view word;
        platform p;
    };
    constexpr std::array<by_name, 5> architectures = {
        {{"tpu", platform::tpu},
         {"gaudi", platform::gaudi},
         {"cdna", platform::rocm},
         {"rdna", platform::rocm},
         {"xe", platform::xpu}}
    };
    const auto arch = detail::lower(d.architecture);
    for (const auto& a : architectures)
        if (arch.rfind(a.word, 0) == 0) return a.p;
    constexpr std::array<by_name, 4> vendors = {
        {{"nvidia", platform::cuda}, {"amd", platform::rocm}, {"google", platform::tpu}, {"intel", platform::xpu}}
    };
    const auto v = detail::lower(d.vendor.empty() ? d.gpu_link : d.vendor);
    for (const auto& r : vendors)
        if (v.find(r.word) != std::string::npos) return r.p;
    return platform::cuda; // a cloud GPU row of unknown architecture: NVIDIA is what clouds rent most
}

constexpr std::string_view platform_name(platform p) {
    constexpr std::array<std::string_view, 7> names = {"CUDA", "ROCm", "Metal", "Intel XPU", "Gaudi", "TPU", "CPU"};
    return names[static_cast<std::size_t>(p)];
}

const feature_row& row_of(feature f) {
    return feature_rows[static_cast<std::size_t>(f)]; // rows are in enum order
}

} // namespace

bool has_bf16(const device_spec& d) {
    // NVIDIA: from the row's compute capability (every gpus.csv NVIDIA row has one; cloud rows take
    // their GPU's). Other vendors' accelerators compute in bf16 (CDNA 2+/RDNA 3, Apple GPUs under
    // macOS 14's MPS, TPU, Gaudi, Xe); a row of unknown capability is not refused.
    return !d.compute_capability || *d.compute_capability >= row_of(feature::bf16).min_cc;
}

feature_check check_features(const model_desc& m, const inference_params& p, const device_spec& d) {
    feature_check out;
    const platform pf = platform_of(d, p.device);
    const auto cc     = d.compute_capability;
    auto needs        = [&](const runtime_row& r, std::string_view name) {
        if (!r.runs[static_cast<std::size_t>(pf)]) {
            // The nearest that runs: the first engine (in the table's order) that builds for it.
            std::string_view other;
            for (const auto& e : engine_runtimes)
                if (&e.runtime != &r && e.runtime.runs[static_cast<std::size_t>(pf)]) {
                    other = traits_of(e.engine).display;
                    break;
                }
            out.unsupported.push_back(fmt::format("{} does not build for {}: {} does", name, platform_name(pf),
                                                  other.empty() ? std::string_view{"no engine here"} : other));
            out.engine_runs = false;
        } else if (pf == platform::cuda && cc && *cc < r.min_cc) {
            out.unsupported.push_back(fmt::format("{} needs compute capability {:.1f}+; {} has {:.1f}: llama.cpp "
                                                                "(5.0+) runs it",
                                                         name, r.min_cc, d.gpu_link.empty() ? d.name : d.gpu_link, *cc));
            out.engine_runs = false;
        }
    };
    const auto& engine = traits_of(p.engine);
    needs(engine_runtimes[static_cast<std::size_t>(p.engine)].runtime, engine.display);
    const auto w = resolve_weight_choice(m, p.weights);
    // The torch engines load int8/nf4 weights through bitsandbytes; ggml has its own kernels.
    const bool torch = !engine.ggml_kernels;
    if (torch && (w.format == weight_format::int8 || w.format == weight_format::nf4))
        needs(bitsandbytes_row, "bitsandbytes");
    if (pf != platform::cuda || !cc) return out;

    // Chip features the plan uses on NVIDIA, each with the nearest that works.
    const bool native16   = w.format == weight_format::native || w.format == weight_format::bf16;
    const bool wants_bf16 = torch && (w.format == weight_format::bf16 || (native16 && m.torch_dtype == dtype::bf16));
    const bool wants_fa2  = torch && p.flash_attn; // llama.cpp's -fa has its own kernels
    const bool wants_fp8  = torch && w.format == weight_format::fp8;
    const auto wtype      = detail::lower(m.weights_type_name());
    const bool wants_mx   = torch && (wtype.find("mxfp4") != std::string::npos || w.format == weight_format::mxfp4);
    const bool wants_nv   = torch && (wtype.find("nvfp4") != std::string::npos || w.format == weight_format::nvfp4);
    for (const auto& f : feature_rows) {
        const bool wanted = (f.f == feature::bf16 && wants_bf16) || (f.f == feature::flash_attention_2 && wants_fa2) ||
                            (f.f == feature::fp8 && wants_fp8) || (f.f == feature::mxfp4 && wants_mx) ||
                            (f.f == feature::nvfp4 && wants_nv);
        if (wanted && *cc < f.min_cc)
            out.unsupported.push_back(fmt::format("{} needs compute capability {:.1f}+; this GPU has {:.1f}: {}",
                                                  f.name, f.min_cc, *cc, f.instead));
    }
    // FP8 weights below 8.0 (Volta, Turing): no FP8 tensor cores and no weight-only Marlin path either
    // (vLLM's FP8 docs: Marlin on Ampere 8.0+), so nothing runs them as planned.
    if (wants_fp8 && *cc < fp8_weight_only_min_cc) {
        out.weights_run = false;
        out.unsupported.push_back(fmt::format(
            "FP8 weights need compute capability {:.1f}+ even weight-only; this GPU has {:.1f}: 16-bit or int8 weights",
            fp8_weight_only_min_cc, *cc));
    }
    for (const auto& fl : cuda_floors)
        if (*cc >= fl.min_cc) {
            out.versions.emplace_back(fl.text);
            break;
        }
    return out;
}

std::vector<std::string> training_unsupported(const model_desc& m, const training_params& p, const device_spec& d) {
    std::vector<std::string> out;
    const platform pf = platform_of(d, device_kind::cuda);
    if (bitsandbytes_row.runs[static_cast<std::size_t>(pf)]) return out;
    // What a training run takes from bitsandbytes: the 4/8-bit frozen base (QLoRA's NF4 by default,
    // or --weights nf4/int8 under LoRA; a GPTQ or other pre-quantized checkpoint uses its own kernels)
    // and 8-bit AdamW (bnb.optim.AdamW8bit, what the trainers' adamw_8bit/paged options load).
    const auto& w        = p.weights.format;
    const bool own_quant = m.quant.method != quant_method::none && w == weight_format::native;
    const bool bnb_base  = p.method != train_method::full && !own_quant &&
                          (w == weight_format::nf4 || w == weight_format::int8 ||
                           (p.method == train_method::qlora && w == weight_format::native));
    if (bnb_base)
        out.push_back(fmt::format("bitsandbytes (the {}-bit base) does not build for {}: LoRA on the 16-bit base runs",
                                  w == weight_format::int8 ? 8 : 4, platform_name(pf)));
    if (p.optimizer == optimizer_kind::adamw_8bit)
        out.push_back(
            fmt::format("bitsandbytes (8-bit AdamW) does not build for {}: torch AdamW runs", platform_name(pf)));
    return out;
}

} // namespace llmplan::detail
