// The fused-MoE kernel each engine runs for the routed experts' weight format (vLLM 0.10-0.19 and SGLang
// 0.5, late 2025 to 2026), and what a decode step pays for it beyond the experts' bytes at the engine's
// bandwidth share.
//
// What runs, from vLLM's own code (vllm-project/vllm as stored in the public index):
//   FP8, 128 x 128 block scales (DeepSeek-V3/R1, Qwen3-*-FP8): Fp8MoEMethod picks DeepGEMM when it is
//     installed and on (VLLM_USE_DEEP_GEMM and VLLM_MOE_USE_DEEP_GEMM default "1", vllm/envs.py), else
//     CUTLASS's block-scaled grouped GEMM on SM100, else Triton (get_fp8_moe_backend,
//     vllm/model_executor/layers/quantization/fp8.py, the 0.11-0.12 form); later releases choose in
//     vllm/model_executor/layers/fused_moe/oracle/fp8.py ("On Hopper for Block Fp8, prefer Triton for TP",
//     FlashInfer's TensorRT-LLM kernel first on Blackwell). DeepGEMM takes a step only when it holds at
//     least 128 token rows and N > 512 (_valid_deep_gemm, fused_moe/deep_gemm_moe.py: "M should >= 128 ...
//     we will fall back to triton"), so a decode step of up to 64 sequences runs Triton's fused_moe with
//     w8a8 block scales: top-k, moe_align_block_size, the activations quantized per 128-column group,
//     GEMM 1, SiLU-and-multiply with its re-quantization, GEMM 2, the weighted sum over the k experts, one
//     launch each, in every MoE layer of every step.
//   INT4 W4A16 (compressed-tensors pack-quantized, Kimi-K2/K2.5; GPTQ and AWQ the same way): the Marlin
//     MoE kernel (CompressedTensorsWNA16MarlinMoEMethod, quantization/compressed_tensors/
//     compressed_tensors_moe.py; vLLM's log on Kimi-K2.5: "Using Marlin backend for WNA16 MoE
//     (group_size=32, num_bits=4)"): weights dequantized to BF16 in registers over an SM80-style mma
//     pipeline, so its reads reach about the same bytes a second on Hopper and Blackwell.
//   MXFP4 (gpt-oss): FlashInfer's TensorRT-LLM MXFP4 x BF16 MoE on SM100, OpenAI's triton_kernels
//     (matmul_ogs: routing, gather and the grouped GEMM fused) on SM90, Marlin elsewhere
//     (get_mxfp4_backend, vllm/model_executor/layers/quantization/mxfp4.py): few launches a layer.
//
// Fitted on serving_aiconfigurator_silicon.json (../shared/serving_truth), the MoE rows at tensor
// parallel with no expert parallel, by the TPOT left after the step model without this file, per MoE
// layer of a step, against the bytes of the experts the step touches (bench/accuracy_serving.md):
//   FP8 block: SGLang 0.5.6-0.5.9 DeepSeek-R1/V3 at TP8 on H200 and B200 (c4-c64: 35-45 us a MoE layer,
//     flat in the experts' bytes) and Qwen3-235B-A22B-FP8 at TP2/TP4 on H200 (45-80 us); a grid over
//     (per layer 0-80 us) x (bandwidth share 0.35-1.0) on those 131 TPOT rows and the TensorRT-LLM
//     DeepSeek rows puts the least median error at 40-50 us and 0.9-1.0: 50 us and 0.9. SGLang runs its
//     own Triton fused_moe for block FP8 (python/sglang/srt/layers/moe/fused_moe_triton), the same chain.
//     vLLM 0.12.0's Qwen3-235B-A22B-FP8 rows on H200 (TP2/TP4) leave 250-330 us a MoE layer whatever the
//     batch, 6x the others: not the kernel chain (the same chain runs in SGLang at 45-80 us); left as
//     they are, 24-35% too fast with this row.
//   INT4 (Marlin): vLLM 0.15.1 on B200 and 0.16.0 on H200, Kimi-K2.5 TP8, c4-c64 (90 rows): a layer
//     leaves 46-65 us at the smallest step plus the touched experts' bytes at 0.4 (B200) to 0.6 (H200)
//     of the bandwidth share: 50 us and 0.5 (TPOT median error 41% -> 7%).
//   MXFP4: gpt-oss-120b on vLLM 0.11-0.18, H100/H200/B200, TP1-8 (210 rows) leaves nothing a layer
//     (-20 to +36 us, most within +-10): no extra cost.
// BF16/FP16 and per-channel FP8 experts have no vLLM or SGLang rows at load here (Mixtral-8x7B's are
// TensorRT-LLM 0.9's own MoE plugin, and read slow already): no extra cost, as before. TensorRT-LLM and
// llama.cpp run their own MoE kernels: no rows here.
//
// Prefill (moe_prefill_matmul_share): a prompt's experts' GEMMs hold many rows an expert, so their time is
// FLOPs over the matmul rate, and the rate the kernel reaches depends on the instructions it is built on:
//   INT4 (Marlin): the MoE Marlin kernel multiplies with the SM80 warp-level instruction
//     mma.sync.aligned.m16n8k16 (csrc/moe/marlin_moe_wna16/marlin_template.h, vllm-project/vllm 055265e0 as
//     stored in the public index), with no Hopper (wgmma) or Blackwell (tcgen05) path: on those GPUs it
//     runs below the BF16 tensor peak the step model scales by, and on Blackwell, whose peak rose over
//     Hopper's through tcgen05, far below it. Ampere and older: mma.sync is their own path (1.0).
//   FP8 with 128 x 128 block scales on Hopper (vLLM prefers Triton there for tensor parallel, SGLang runs
//     its Triton fused_moe): each K step of 128 rescales its own dot product before adding it,
//     "accumulator += tl.dot(a, b) * a_scale[:, None] * b_scale[None, :]", with BLOCK_SIZE_K cut to the
//     block size, where the per-tensor FP8 path accumulates inside the dot ("acc used to enable
//     fp8_fast_accum") (fused_moe_kernel, vllm/model_executor/layers/fused_moe/fused_moe.py,
//     vllm-project/vllm 000d1458 as stored): it does not reach the doubled FP8 rate. Blackwell runs
//     DeepGEMM's or FlashInfer's SM100 kernels (see above): no evidence in the code, 1.0.
//   MXFP4 (gpt-oss): triton_kernels' matmul_ogs on Hopper multiplies in BF16 (already the rate the step
//     model uses), FlashInfer's SM100 kernel on Blackwell: 1.0. Its low-concurrency TTFT error runs with
//     the tensor parallel (B200 +75% at TP1 to -48% at TP8, H200 +9% to -27%), not with the format.
// Fitted on serving_aiconfigurator_silicon.json, TTFT at concurrency 4-16 with 8192-token prompts (one
// prompt's prefill dominates), a grid of shares against each group's median error:
//   INT4 Hopper: vLLM 0.16.0 Kimi-K2.5 TP8 on H200 (9 rows): -16% with 1.0, -7% with 0.8, +1% with 0.7.
//   INT4 Blackwell: vLLM 0.15.1 Kimi-K2.5 TP8 on B200 (9 rows): -55% with 1.0, -34% with 0.5, -7% with 0.3;
//   0.3 of B200's rate and 0.7 of H200's would be about the same FLOPs a second (0.3 x 2250 vs 0.7 x 989
//   dense BF16 TFLOPS: 675 vs 692), as an instruction no faster on Blackwell would give. Not taken: the
//   same model's 1024-token prompts on B200 at concurrency 8-64, which read -23% to +14% with 1.0, read
//   +63% to +144% with 0.3 (their TTFT is the simulated waves of prompts and decodes, not one prompt's
//   FLOPs), and the serving floors' sample (tests/unit/scorer_floors_serving.inc) loses a case within 25%;
//   on the whole dev split 0.3 gave median 20.5%, optimistic 16.2% against 20.6% and 16.3% with 1.0. Held
//   at 1.0 until the short-prompt waves on B200 are understood.
//   FP8 block Hopper: vLLM 0.12.0 Qwen3-235B-A22B-FP8 TP2/TP4 on H200 (12 rows): -25%/-24% with 1.0,
//   -8%/-10% with 0.7, +1%/-2% with 0.6; SGLang 0.5.x DeepSeek-R1/V3 TP8 on H200 (9 rows, the same
//   kernel chain): -21% -> -4%. 0.6 of the doubled FP8 rate is 1.2x the BF16 rate.
#include "serve/moe_kernels.h"

#include "llmplan/weights.h"

#include <array>
#include <string>

namespace llmplan::detail {
namespace {

struct moe_kernel_row {
    serving_engine engine;
    moe_weights weights;
    moe_kernel_cost cost;
};

// SGLang has no Kimi-K2.5 rows: its compressed-tensors W4A16 MoE runs the same Marlin kernel
// (CompressedTensorsWNA16MoEMethod, logged "Using CompressedTensorsWNA16MarlinMoEMethod", weights
// repacked by gptq_marlin_moe_repack; python/sglang/srt/layers/quantization/compressed_tensors/
// compressed_tensors_moe.py, sgl-project/sglang 014a324b as stored in the public index).
constexpr std::array moe_kernel_rows = {
    moe_kernel_row{serving_engine::vllm,   moe_weights::fp8_block, {50e-6, 0.9}},
    moe_kernel_row{serving_engine::sglang, moe_weights::fp8_block, {50e-6, 0.9}},
    moe_kernel_row{serving_engine::vllm,   moe_weights::int4,      {50e-6, 0.5}},
    moe_kernel_row{serving_engine::sglang, moe_weights::int4,      {50e-6, 0.5}},
};

// The share of the step model's experts' prefill rate each kernel reaches (see "Prefill" above).
struct moe_prefill_row {
    serving_engine engine;
    moe_weights weights;
    double hopper;    // share on Hopper (SM90) and Grace Hopper
    double blackwell; // share on Blackwell (SM100) and Grace Blackwell
};

constexpr std::array moe_prefill_rows = {
    moe_prefill_row{serving_engine::vllm,   moe_weights::int4,      0.7, 1.0},
    moe_prefill_row{serving_engine::sglang, moe_weights::int4,      0.7, 1.0},
    moe_prefill_row{serving_engine::vllm,   moe_weights::fp8_block, 0.6, 1.0},
    moe_prefill_row{serving_engine::sglang, moe_weights::fp8_block, 0.6, 1.0},
};

bool block_scaled_fp8(const model_desc& m) {
    const bool fp8_checkpoint =
        m.quant.method == quant_method::fp8 ||
        (m.quant.method == quant_method::compressed_tensors && m.quant.is_float && m.quant.bits == 8);
    return fp8_checkpoint && m.quant.block_out > 0 && m.quant.block_in > 0;
}

} // namespace

moe_weights moe_weights_of(const model_desc& m, const inference_params& p) {
    const auto f = resolve_weight_choice(m, p.weights).format;
    switch (f) {
    case weight_format::native:
        if (m.quant.method == quant_method::mxfp4) return moe_weights::mxfp4;
        return m.quant.method == quant_method::none ? moe_weights::sixteen_bit : moe_weights::other;
    case weight_format::f16:
    case weight_format::bf16:
    case weight_format::f32:
        return moe_weights::sixteen_bit;
    case weight_format::fp8:
        // --weights fp8 on a block-scaled FP8 checkpoint loads the checkpoint's own blocks; on a 16-bit
        // one, vLLM quantizes per tensor (Fp8MoEMethod, no weight_block_size).
        return block_scaled_fp8(m) ? moe_weights::fp8_block : moe_weights::fp8_channel;
    case weight_format::int4:
    case weight_format::gptq_int4:
    case weight_format::awq:
        return moe_weights::int4;
    case weight_format::mxfp4:
        return moe_weights::mxfp4;
    default:
        return moe_weights::other;
    }
}

moe_kernel_cost moe_kernel_cost_of(serving_engine e, moe_weights w) {
    for (const auto& r : moe_kernel_rows)
        if (r.engine == e && r.weights == w) return r.cost;
    return {};
}

double moe_prefill_matmul_share(serving_engine e, moe_weights w, const std::string& architecture) {
    const bool blackwell = architecture.find("Blackwell") != std::string::npos;
    const bool hopper    = architecture.find("Hopper") != std::string::npos;
    if (!blackwell && !hopper) return 1.0; // Ampere and older: mma.sync is these GPUs' own tensor-core path
    for (const auto& r : moe_prefill_rows)
        if (r.engine == e && r.weights == w) return blackwell ? r.blackwell : r.hopper;
    return 1.0;
}

} // namespace llmplan::detail
