// One engine step of a continuous-batching server (include/llmplan/serving.h):
//
//   step = max(bytes / bandwidth, FLOPs / matmul rate) + per-step + per-layer time + per-MoE-layer time
//          (the fused-MoE kernel's launches, by the experts' weight format) + all-reduces
//
// bytes: the weights once (MoE: the experts the step's tokens touch, at the share of the bandwidth the
//        engine's MoE kernel for their weight format reaches, src/serve/moe_kernels.cpp), each decoding
//        sequence's KV cache at its depth, the KV the prefill chunk attends to;
// FLOPs: 2 x active parameters x tokens, plus attention: 2 x heads x (K width + V width) per pair of a
//        query token and a cached token;
// all-reduce: two a layer (after attention, after the MLP; Megatron-style tensor parallel as vLLM and
//        TensorRT-LLM shard) of the step's tokens' hidden states, ring algorithm over the GPU's link,
//        plus a fixed latency each.
// The efficiencies are rows per engine x memory class (serving_efficiency, below).
#include "llmplan/weights.h"
#include "serve/moe_kernels.h"
#include "serve/step_table.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace llmplan {
namespace detail {
namespace {

struct efficiency_row {
    serving_engine engine;
    memory_class memory;
    step_efficiency eff;
};

// Fitted per engine on ../shared/serving_truth (dev split), that engine's rows only: bench/serving_fit.py
// prints the log-least-squares factors that centre TPOT and TTFT and the all-reduce time left per
// tensor-parallel degree (bench/accuracy_serving.md gives the rows, the fit and the errors).
//   vllm:   serving_aiconfigurator_silicon.json, backend vllm (0.10-0.19; H100/H200/B200 SXM; Llama-3.1
//           8B/70B, Qwen3-32B, Qwen3-235B-A22B FP8, gpt-oss-120b, Kimi-K2.5), 639 rows.
//   sglang: the same file, backend sglang (0.4-0.5), 299 rows.
//   trtllm: the same file's trtllm rows (766), serving_nvidia_dli_nim_genaiperf.json (787, NIM on
//           TensorRT-LLM) and serving_nvidia_dli_trtllm090_static.json (2414, TensorRT-LLM 0.9.0
//           static batches).
// vllm/sglang: bandwidth 0.79 (the batch-1 share of src/plan/speed.cpp is 0.80), per step 2.0 ms plus
// 25 us for each decoding sequence, matmul 0.45; all-reduce 10 us + 1.5 us for each GPU past the first (vLLM's custom
// all-reduce over NVLink, csrc/custom_all_reduce.cuh: its one-stage kernel for small tensors reads every peer's
// buffer). The vLLM rows at concurrency <= 16 leave, per all-reduce, -12 us (TP1), -7.5 (TP2), -2.2
// (TP4), +11.4 us (TP8) with 0.71 and a flat 10 us; -3 to +2 us with these (bench/serving_fit.py on a
// run of the vLLM rows alone, --engine-map sglang=none --engine-map trtllm=none).
// Per decoding sequence, 25 us a step (the last column): the engine's work for each request every step,
// which tensor parallel does not split (vLLM: Scheduler.update_from_output and OutputProcessor.
// process_outputs loop over the step's requests, detokenizing each new token and queueing it for the
// stream, vllm/v1/core/sched/scheduler.py and vllm/v1/engine/output_processor.py, vllm-project/vllm
// 0015f3f6 as stored in the public index; the sampler's passes over each request's full-vocabulary
// logits). The TPOT left over after the model with a flat per-step time,
// fitted as a + b x concurrency on the dense, bandwidth-bound rows with >= 200 output tokens, gives b =
// 36, 35, 41, 46 us at TP 1, 2, 4, 8 on the vLLM rows of serving_aiconfigurator_silicon.json, and the
// same order on every other file and engine (SGLang 24-36 us, TensorRT-LLM 22-58 us, NIM 30-42 us,
// TensorRT-LLM 0.9.0 static 47-81 us): not split by the GPUs, so host- or sampler-bound. With a share of
// it the per-step time falls: 2.0 ms + 25 us was the best pair of a grid (per step 1.5-2.3 ms x 0-40 us)
// on the vLLM dense rows (TPOT median 6.6% -> 5.5%), and reads the NIM rows at 100-250 users (20-30% too
// fast a token) 4-10 points closer (bench/accuracy_serving.md).
// Routed experts (the expert_matmul_share column, a share of the matmul share): a prompt's MoE layers run grouped GEMMs
// of T x k / E rows an expert, with the tokens gathered and scattered by expert (vLLM's fused_moe,
// TensorRT-LLM's MoE plugin), and reach less of the tensor peak than the dense GEMMs. Fitted on prompts
// computed alone, where the time is the prefill's FLOPs, as the MoE rows' predicted / measured TTFT over
// the dense rows' on the same GPUs, solved for the experts' part of the active FLOPs:
//   0.7: serving_nvidia_dli_trtllm090_static.json, batch 1, 2048-token prompts: Mixtral-8x7B (experts
//     88% of the active FLOPs) over Llama-2-70B, both FP16 (no FP8 rate to confound), read 0.74 on A100
//     SXM4 and on GH200.
//   The vLLM rows (serving_aiconfigurator_silicon.json, backend vllm, concurrency 4, 8192-token prompts,
//     one prompt a step under the 8192-token budget) read gpt-oss-120b (experts 70% of the active FLOPs)
//     over Llama-3.1-70B 0.65-1.09 on B200 and 0.38-0.55 on H200, Kimi-K2.5 (66%) 0.52 (TP8): solved
//     0.42-1.0. Their share alone (0.45) made the MoE rows at concurrency 16-64, whose lockstep waves
//     already read long, longer still (dev TTFT median 40.3% -> 41.0%); the whole dev split with 0.7 for
//     every engine: serving median 24.7% -> 22.3%, TTFT 40.3% -> 38.9%, optimistic 23.8% -> 20.8% (with the
//     PCIe all-reduce below). SGLang and llama.cpp have no MoE rows of their own: 0.7 too.
// GDDR, Apple, LPDDR and CPU rows have no serving data: they keep the batch-1 decode shares of
// src/plan/speed.cpp (decode_bandwidth_efficiency) and the dense-engine prefill share 0.5; their
// per-step time is the one of the engine on HBM.
constexpr std::array efficiency_rows = {
    efficiency_row{serving_engine::vllm,     memory_class::hbm, {0.79, 0.45, 2.0e-3, 0, 10e-6, 1.5e-6, 0, 0.7, 25e-6}},
    efficiency_row{serving_engine::sglang,   memory_class::hbm, {0.79, 0.45, 2.0e-3, 0, 10e-6, 1.5e-6, 0, 0.7, 25e-6}},
    efficiency_row{serving_engine::trtllm,   memory_class::hbm, {0.85, 0.65, 0.8e-3, 0, 8e-6, 0, 0, 0.7}             },
    efficiency_row{serving_engine::llamacpp, memory_class::hbm, {0.565, 0.38, 0.5e-3, 30e-6, 30e-6, 0, 0, 0.7}       },
};

engine_kind batch1_engine(serving_engine e) {
    return e == serving_engine::llamacpp ? engine_kind::llama_cpp : engine_kind::vllm;
}

bool contains(const std::string& s, std::string_view w) {
    return s.find(w) != std::string::npos;
}

} // namespace

step_efficiency serving_efficiency(serving_engine e, memory_class m) {
    for (const auto& r : efficiency_rows)
        if (r.engine == e && r.memory == m) return r.eff;
    // No serving row for this memory: the engine's HBM row with the batch-1 bandwidth share of the memory.
    step_efficiency eff = efficiency_rows[0].eff;
    for (const auto& r : efficiency_rows)
        if (r.engine == e && r.memory == memory_class::hbm) eff = r.eff;
    eff.bandwidth_share = decode_bandwidth_efficiency(batch1_engine(e), m);
    eff.matmul_share    = 0.5; // prefill_share_dense_engines of speed.cpp
    return eff;
}

bool allreduce_crosses_pcie(const device_spec& d, std::uint32_t tensor_parallel) {
    const std::string n = d.name + " " + d.gpu_link + " " + d.gpu_model;
    const bool nvlink   = contains(n, "SXM") || contains(n, "HGX") || contains(n, "DGX") || contains(n, "NVL") ||
                        contains(n, "GB200") || contains(n, "GB300") || contains(n, "GH200");
    const bool nvlink_arch = contains(d.architecture, "Blackwell") || contains(d.architecture, "Hopper") ||
                             contains(d.architecture, "Ampere");
    // The H100 NVL's NVLink bridge joins two cards only (see allreduce_link_bytes_per_s).
    const bool pairs_only = contains(n, "H100 NVL");
    return !(nvlink && nvlink_arch) || (pairs_only && tensor_parallel > 2);
}

double allreduce_link_bytes_per_s(const device_spec& d, std::uint32_t tensor_parallel) {
    // NVLink per direction (half the bidirectional figure the datasheets print), x 0.8 reached by NCCL's
    // ring (nccl-tests all_reduce_perf "busbw" on DGX A100 ~230 GB/s of 300, DGX H100 ~360-480 of 450).
    // NVIDIA datasheets: A100 SXM4 NVLink 3 600 GB/s; H100/H200 SXM NVLink 4 900 GB/s; H100 NVL bridge
    // 600 GB/s; B200/GB200 NVLink 5 1.8 TB/s. PCIe: Gen4 x16 32 GB/s, Gen5 x16 64 GB/s a direction.
    // The H100 NVL's NVLink bridge joins two cards (data/hardware/gpus.csv interconnect "PCIe Gen5 + NVLink
    // bridge (pairs)"; NVIDIA's H100 page: NVLink 600 GB/s between the two cards of a pair): a ring over
    // more than two of them crosses PCIe, and runs at its slowest link. vLLM says as much: its custom all-reduce is off
    // for more than two GPUs that are not all joined by NVLink ("not supported on more than two PCIe-only GPUs",
    // vllm/distributed/device_communicators/custom_all_reduce.py), leaving NCCL over PCIe.
    constexpr double reached = 0.8;
    const std::string n      = d.name + " " + d.gpu_link + " " + d.gpu_model;
    const std::string& arch  = d.architecture;
    if (!allreduce_crosses_pcie(d, tensor_parallel)) {
        if (contains(arch, "Blackwell")) return 900e9 * reached;
        if (contains(arch, "Hopper")) return (contains(n, "NVL") && !contains(n, "NVL72") ? 300e9 : 450e9) * reached;
        if (contains(arch, "Ampere")) return 300e9 * reached;
    }
    // A ring of more than two GPUs over PCIe reaches about half of that: the 2048-token prompts of
    // serving_nvidia_dli_trtllm090_static.json (Llama-2-70B, batch 1: one prefill, 160 all-reduces of
    // 2048 x 8192 x 2 bytes) leave per all-reduce what a ring at 0.50-0.54 (L40, L40S, 8 GPUs), 0.63-0.66
    // (4 GPUs) and 0.40-0.44 (H100 NVL past its pair, 4 and 8) of the PCIe link moves, where NVLink rows of
    // the same prompts at the same tensor parallel (H100 SXM, H200 SXM, GH200) leave nothing (-5 to +8 ms of
    // 100-250): 0.45, the ring's hops crossing the host bridge and the CPU sockets rather than one x16 link.
    const double pcie = tensor_parallel > 2 ? 0.45 : reached;
    if (contains(arch, "Hopper") || contains(arch, "Blackwell")) return 64e9 * pcie;
    return 32e9 * pcie;
}

} // namespace detail

std::string_view name(serving_engine e) {
    switch (e) {
    case serving_engine::vllm:
        return "vllm";
    case serving_engine::sglang:
        return "sglang";
    case serving_engine::trtllm:
        return "tensorrt-llm";
    case serving_engine::llamacpp:
        return "llama.cpp";
    }
    return "vllm";
}

namespace {

/// Whether the matrices multiply in FP8 (FP8 weights, W8A8 as vLLM and TensorRT-LLM run them on Hopper+).
bool fp8_matmul(const model_desc& m, const inference_params& p) {
    const auto f = resolve_weight_choice(m, p.weights).format;
    if (f == weight_format::fp8) return true;
    if (f != weight_format::native) return false;
    return (m.quant.is_float && m.quant.bits == 8) || m.quant.algo == "FP8" || m.quant.algo == "MXFP8";
}

} // namespace

instance_shape make_instance_shape(const model_desc& m, const inference_estimate& e, const inference_params& p,
                                   const device_spec& d, serving_engine engine, std::uint32_t tensor_parallel,
                                   std::uint32_t pipeline_parallel) {
    instance_shape s;
    s.tensor_parallel   = std::max(1u, tensor_parallel);
    s.pipeline_parallel = std::max(1u, pipeline_parallel);
    s.n_layer           = m.n_layer;
    const auto where    = p.device == device_kind::cpu ? device_kind::cpu : device_kind::cuda;
    s.eff               = detail::serving_efficiency(engine, memory_class_of(d, where));

    // Weights: the routed experts apart (a step reads the experts its tokens pick).
    double expert = 0;
    for (const auto b : e.weights.layer_expert_bytes)
        expert += static_cast<double>(b);
    std::uint32_t moe_layers = 0;
    for (const auto& l : m.layers)
        if (l.is_moe) ++moe_layers;
    if (m.is_moe() && moe_layers > 0 && expert > 0 && m.moe.n_expert > 0) {
        s.moe_layers             = moe_layers;
        s.n_expert               = m.moe.n_expert;
        s.n_expert_used          = std::max(1u, m.moe.n_expert_used);
        s.expert_bytes_per_layer = expert / moe_layers;
        // The experts' kernel for their weight format (src/serve/moe_kernels.cpp).
        const auto experts       = detail::moe_weights_of(m, p);
        const auto moe           = detail::moe_kernel_cost_of(engine, experts);
        s.moe_layer_s            = moe.per_moe_layer_s;
        s.expert_bandwidth_share = moe.expert_bandwidth_share;
        // ...and the share of the experts' matmul rate it reaches on a prompt (src/serve/moe_kernels.cpp).
        s.eff.expert_matmul_share *= detail::moe_prefill_matmul_share(engine, experts, d.architecture);
    } else {
        expert = 0;
    }
    s.dense_weight_bytes = std::max(0.0, static_cast<double>(e.weights.bytes) - expert);

    // KV: the heads split over the tensor-parallel ranks, replicated when fewer than the ranks.
    std::uint32_t min_kv_heads = 0;
    double pair_flops          = 0;
    for (const auto& l : m.layers) {
        if (l.attn == attn_kind::none || l.n_head == 0) continue;
        if (l.n_head_kv > 0) min_kv_heads = min_kv_heads ? std::min(min_kv_heads, l.n_head_kv) : l.n_head_kv;
        // QK^T and PV: 2 FLOPs a multiply-add, per query head, over K and V widths. Sliding-window
        // layers attend to at most their window: counted as full layers' share is small and erring slow.
        if (l.n_swa == 0) pair_flops += 2.0 * l.n_head * static_cast<double>(l.head_dim_k + l.head_dim_v);
    }
    const double replicate = min_kv_heads > 0 && min_kv_heads < s.tensor_parallel
                                 ? static_cast<double>(s.tensor_parallel) / min_kv_heads
                                 : 1.0;
    s.kv_bytes_per_token   = static_cast<double>(e.kv_bytes_per_token) * replicate;
    s.attn_flops_per_pair  = pair_flops;
    const auto params      = count_params(m);
    s.flops_per_token      = 2.0 * static_cast<double>(params.active ? params.active : params.total);
    // The routed experts a token uses: the parameters left unused (E - k experts a MoE layer) give one
    // expert's size, so the k used are (total - active) x k / (E - k).
    if (s.moe_layers > 0 && s.n_expert > s.n_expert_used && params.total > params.active && params.active > 0)
        s.expert_flops_per_token = std::min(s.flops_per_token, 2.0 * static_cast<double>(params.total - params.active) *
                                                                   s.n_expert_used / (s.n_expert - s.n_expert_used));
    s.allreduce_bytes_per_token = static_cast<double>(m.n_embd) * 2.0; // 16-bit activations
    s.link_bytes_per_s = s.tensor_parallel > 1 ? detail::allreduce_link_bytes_per_s(d, s.tensor_parallel) : 0.0;
    // All-reduces that cross PCIe run on NCCL's PCIe path, with no NVLink custom all-reduce (vLLM turns
    // its own off there: "not supported on more than two PCIe-only GPUs",
    // vllm/distributed/device_communicators/custom_all_reduce.py). What each one costs past the engine's
    // NVLink latency was fitted on serving_nvidia_dli_trtllm090_static.json, Llama-2-70B, 128-token
    // prompts, batch <= 64: the TPOT left per all-reduce (160 a step) on the PCIe groups (L40 and L40S at
    // TP2/4/8, H100 NVL at TP4/8: 95, 103, 81, 95, 58, 83, 43, 114 us; median 88 us) against the same
    // rows on NVLink (H100 SXM, H200 SXM, A100 SXM4, GH200: 1-49 us, most 9-24 us): 88 us less the
    // 9-24 us every tensor-parallel row leaves there, 80 us.
    constexpr double pcie_allreduce_extra_s = 80e-6;
    if (s.tensor_parallel > 1 && detail::allreduce_crosses_pcie(d, s.tensor_parallel))
        s.allreduce_extra_s = pcie_allreduce_extra_s;

    // Rates: one pipeline stage works at a time (a step passes the stages in turn), so the instance
    // reads and multiplies at tensor_parallel GPUs' rates.
    const chip_rates chip =
        chip_of(d, engine == serving_engine::llamacpp ? engine_kind::llama_cpp : engine_kind::vllm, where);
    const double tp = s.tensor_parallel;
    s.bandwidth     = chip.bandwidth_bytes_per_s * s.eff.bandwidth_share * tp;
    double peak     = chip.matmul_flops; // FP16/BF16 tensor peak, held to the board power
    if (fp8_matmul(m, p) && d.fp8_flops && d.fp16_flops && *d.fp16_flops > 0)
        peak *= *d.fp8_flops / *d.fp16_flops; // FP8 tensor cores: twice the rate on Hopper and Blackwell
    s.matmul_rate = peak * s.eff.matmul_share * tp;
    return s;
}

namespace {

/// Bytes of routed experts a step of `tokens` tokens reads: in each MoE layer the distinct experts its
/// tokens pick, E x (1 - (1 - k/E)^T) with uniform routing; counted as the bytes the engine's dense
/// reads would move in the time its MoE kernel takes for them (over expert_bandwidth_share).
double step_expert_bytes(const instance_shape& s, double tokens) {
    if (s.moe_layers == 0) return 0;
    const double E       = s.n_expert;
    const double k       = std::min<double>(s.n_expert_used, E);
    const double touched = E * (1.0 - std::pow(1.0 - k / E, tokens));
    const double share   = s.expert_bandwidth_share > 0 ? s.expert_bandwidth_share : 1.0;
    return s.moe_layers * s.expert_bytes_per_layer * touched / E / share;
}

/// Per-step, per-sequence, per-layer and per-MoE-layer time plus the tensor-parallel all-reduces of a step of `tokens`
/// tokens, `seqs` of them decoding.
double step_fixed_seconds(const instance_shape& s, double tokens, double seqs) {
    double fixed =
        s.eff.per_step_s + s.eff.per_seq_s * seqs + s.eff.per_layer_s * s.n_layer + s.moe_layer_s * s.moe_layers;
    if (s.tensor_parallel > 1) {
        const double n      = s.tensor_parallel;
        const double per_ar = s.allreduce_bytes_per_token * tokens * 2.0 * (n - 1) / n;
        const double link   = s.link_bytes_per_s > 0 ? per_ar / s.link_bytes_per_s : 0.0;
        fixed += 2.0 * s.n_layer * (s.eff.tp_sync_s + s.eff.tp_peer_s * (n - 1) + s.allreduce_extra_s + link);
    }
    return fixed;
}

/// The routed experts' FLOPs of a step of `tokens` tokens, scaled to what dense matmuls would take as long for.
double step_expert_flops_as_dense(const instance_shape& s, double tokens) {
    if (s.expert_flops_per_token <= 0) return 0;
    const double share = s.eff.expert_matmul_share > 0 ? s.eff.expert_matmul_share : 1.0;
    return s.expert_flops_per_token * tokens / share;
}

/// The matmul rate a step of `tokens` tokens reaches (few rows fill few tensor-core tiles).
double step_matmul_rate(const instance_shape& s, double tokens) {
    const double fill = s.eff.matmul_half_tokens > 0 ? tokens / (tokens + s.eff.matmul_half_tokens) : 1.0;
    return s.matmul_rate * fill;
}

} // namespace

step_time step_seconds(const instance_shape& s, const step_load& l) {
    step_time t;
    const double tokens = l.decode_seqs + l.prefill_tokens;
    if (tokens <= 0) return t;
    const double bytes = s.dense_weight_bytes + step_expert_bytes(s, tokens) +
                         s.kv_bytes_per_token * (l.decode_context + l.decode_seqs) +
                         s.kv_bytes_per_token * l.prefill_tokens; // the chunk's own K/V written
    const double flops = (s.flops_per_token - s.expert_flops_per_token) * tokens +
                         s.attn_flops_per_pair * (l.decode_context + l.prefill_pairs);
    t.memory_s        = s.bandwidth > 0 ? bytes / s.bandwidth : 0.0;
    const double rate = step_matmul_rate(s, tokens);
    t.compute_s       = rate > 0 ? (flops + step_expert_flops_as_dense(s, tokens)) / rate : 0.0;
    t.fixed_s         = step_fixed_seconds(s, tokens, l.decode_seqs);
    t.seconds         = std::max(t.memory_s, t.compute_s) + t.fixed_s;
    return t;
}

namespace detail {

decode_line decode_step_line(const instance_shape& s, double decode_seqs) {
    decode_line d;
    if (decode_seqs <= 0) return d;
    if (s.bandwidth > 0) {
        d.mem_a = (s.dense_weight_bytes + step_expert_bytes(s, decode_seqs) + s.kv_bytes_per_token * decode_seqs) /
                  s.bandwidth;
        d.mem_b = s.kv_bytes_per_token / s.bandwidth;
    }
    const double rate = step_matmul_rate(s, decode_seqs);
    if (rate > 0) {
        d.cmp_a = ((s.flops_per_token - s.expert_flops_per_token) * decode_seqs +
                   step_expert_flops_as_dense(s, decode_seqs)) /
                  rate;
        d.cmp_b = s.attn_flops_per_pair / rate;
    }
    d.fixed_s = step_fixed_seconds(s, decode_seqs, decode_seqs);
    return d;
}

} // namespace detail

} // namespace llmplan
