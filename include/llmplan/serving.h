// Serving at load (../shared/cli-contract.md, "Serving at load"): many users on a continuous-batching
// engine (vLLM, SGLang; llama.cpp's server with --parallel slots). Three parts, one file each in
// src/serve:
//   step_model.cpp  how long one engine step of B sequences (and a chunk of prefill) takes;
//   simulate.cpp    the engine's scheduler stepped over time: a closed loop (N requests in flight) or an
//                   open loop (Poisson arrivals), giving TTFT/TPOT percentiles and throughput;
//   planner.cpp     the deployment: GPU kind x tensor parallel x instances x max-num-seqs, the fewest GPUs
//                   (then the lowest cost) that carry the load within the targets.
// bench/accuracy_serving.md gives the model, its fitted constants and what it leaves out.
#pragma once

#include "llmplan/hardware.h"
#include "llmplan/inference.h"
#include "llmplan/plan.h"
#include "llmplan/serving_request.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llmplan {

/// The step model's efficiencies for one engine on one memory class (table in step_model.cpp, each
/// row with the data it was fitted on; src/serve/step_table.h looks a row up).
struct step_efficiency {
    double bandwidth_share = 0.6; ///< share of peak memory bandwidth a step's reads reach
    double matmul_share    = 0.5; ///< share of the dense tensor peak the step's matmuls reach
    double per_step_s      = 0;   ///< fixed time of a step (launch, sampling, scheduling)
    double per_layer_s     = 0;   ///< fixed time per decoder layer of a step (kernel launches not in a graph)
    double tp_sync_s       = 0;   ///< fixed latency of one tensor-parallel all-reduce
    double tp_peer_s       = 0;   ///< ...and what each GPU of the group past the first adds to it
    /// Tokens a step at which its matmuls reach half of matmul_share: a GEMM of few rows fills few tiles
    /// of the tensor cores, so the rate grows as T / (T + this) with the step's T tokens (0: flat).
    double matmul_half_tokens = 0;
    /// Share of matmul_share the routed experts' matmuls reach (grouped GEMMs of few rows per expert,
    /// tokens gathered and scattered by expert): 1 = as the dense matmuls.
    double expert_matmul_share = 1.0;
    /// Fixed time each decoding sequence adds to a step (the engine's per-request work every step:
    /// scheduling, sampling, detokenizing and streaming its token), not split by tensor parallel.
    double per_seq_s = 0;
};

/// One instance (tensor_parallel x pipeline_parallel GPUs of one kind) as the step model sees it.
struct instance_shape {
    std::uint32_t tensor_parallel    = 1;
    std::uint32_t pipeline_parallel  = 1;
    std::uint32_t n_layer            = 0;
    double dense_weight_bytes        = 0; ///< weights every step reads (all but the routed experts), whole model
    double expert_bytes_per_layer    = 0; ///< one MoE layer's routed experts, all of them
    std::uint32_t moe_layers         = 0;
    std::uint32_t n_expert           = 0;
    std::uint32_t n_expert_used      = 0;
    double kv_bytes_per_token        = 0; ///< every layer, one token, the whole instance (replicated heads counted)
    double flops_per_token           = 0; ///< 2 x active parameters
    double expert_flops_per_token    = 0; ///< the routed experts' part of flops_per_token
    double attn_flops_per_pair       = 0; ///< attention FLOPs of one query token against one cached token, all layers
    double allreduce_bytes_per_token = 0; ///< hidden state bytes one all-reduce moves per token
    double bandwidth                 = 0; ///< bytes/s the instance reads at (peak x share x GPUs); 0 = unknown
    double matmul_rate               = 0; ///< FLOP/s the instance multiplies at (peak x share x GPUs); 0 = unknown
    double link_bytes_per_s          = 0; ///< one GPU's all-reduce bandwidth (NVLink / PCIe); 0 with one GPU
    double allreduce_extra_s         = 0; ///< latency an all-reduce adds to the engine's, over PCIe
    /// The experts' fused-MoE kernel (src/serve/moe_kernels.cpp): fixed time each MoE layer adds to a
    /// step, and the share of `bandwidth` its reads of the experts' weights reach.
    double moe_layer_s            = 0;
    double expert_bandwidth_share = 1.0;
    step_efficiency eff;
};

/// What one step holds.
struct step_load {
    double decode_seqs    = 0; ///< sequences producing one token
    double decode_context = 0; ///< sum of their cached tokens
    double prefill_tokens = 0; ///< prompt tokens computed in this step (chunks)
    double prefill_pairs  = 0; ///< sum over those tokens of the tokens they attend to
};

struct step_time {
    double seconds   = 0;
    double memory_s  = 0; ///< bytes over bandwidth
    double compute_s = 0; ///< FLOPs over the matmul rate
    double fixed_s   = 0; ///< per-step and per-layer overhead and tensor-parallel communication
};
step_time step_seconds(const instance_shape& s, const step_load& l);

/// Build an instance's shape: model bytes and FLOPs from the model and its vLLM estimate, rates from the device.
instance_shape make_instance_shape(const model_desc& m, const inference_estimate& e, const inference_params& p,
                                   const device_spec& d, serving_engine engine, std::uint32_t tensor_parallel,
                                   std::uint32_t pipeline_parallel);

/// The scheduler's limits and the load, for one instance.
struct sim_config {
    std::uint64_t max_num_seqs           = 256;
    std::uint64_t max_num_batched_tokens = 8192;
    std::uint64_t kv_capacity_tokens     = 0; ///< 0 = unbounded
    std::uint64_t input_len              = 1000;
    std::uint64_t output_len             = 256;
    double concurrency                   = 0;    ///< > 0: closed loop
    double request_rate                  = 0;    ///< > 0: open loop (Poisson); infinity: all at once
    std::uint32_t requests               = 1000; ///< open loop: requests simulated
    /// closed loop: requests run = this x the concurrency, every one counted (InferenceMAX's
    /// `--num-prompts $(( $CONC * 10 ))`; simulate.cpp gives the source)
    std::uint32_t closed_loop_rounds = 10;
    /// SGLang's policy: a step that can start or continue a prompt runs prompts only and the decoders
    /// wait (python/sglang/srt/managers/scheduler.py, get_next_batch_to_run: "Run prefill first if
    /// possible"; mixing them is --enable-mixed-chunk, off by default). false: vLLM's (decodes first,
    /// prompts in the same step's leftover budget).
    bool prefill_first = false;
    /// 0: every request has the means above, so a closed loop's requests stay in step (a fixed-length
    /// benchmark). > 0: each request's prompt and output lengths are drawn uniformly within +-spread of the
    /// means (seeded), so requests finish at different steps and drift out of step, as real traffic does.
    double length_spread  = 0;
    std::uint64_t seed    = 42;
    double slo_percentile = 99;
};

struct latency_stats {
    double mean = 0, p50 = 0, p99 = 0, at_slo = 0; ///< at_slo: at sim_config::slo_percentile
};

struct sim_result {
    bool saturated = false; ///< open loop: the queue grows without bound (offered rate above capacity)
    latency_stats ttft_s, tpot_s;
    double output_tokens_per_s = 0;
    double total_tokens_per_s  = 0;
    double requests_per_s      = 0;
    double mean_running        = 0; ///< sequences in a step, averaged over steps
    double kv_limited_share    = 0; ///< share of steps where the KV pool held back a waiting request
    double seqs_limited_share  = 0; ///< share of steps where max-num-seqs held back a waiting request
    double compute_share       = 0; ///< share of step time where FLOPs, not bytes, set the pace
    std::uint64_t completed    = 0;
};
/// Step the scheduler (vLLM V1's policy: running requests first, one token each or their next prefill
/// chunk, then waiting requests in arrival order while the token budget, max-num-seqs and the KV pool allow;
/// the newest running request is preempted when the pool runs out).
sim_result simulate(const instance_shape& s, const sim_config& c);

/// The serving object of one candidate (the contract's `serving`), for the whole deployment.
struct serving_figures {
    std::uint32_t instances = 1, tensor_parallel = 1, pipeline_parallel = 1, gpus = 1;
    std::uint64_t max_num_seqs = 0, max_num_batched_tokens = 0, kv_capacity_tokens = 0;
    double concurrency = 0, request_rate = 0;
    std::optional<double> output_tokens_per_s, total_tokens_per_s;
    std::optional<latency_stats> ttft_ms, tpot_ms;
    /// A closed loop's time to first token when request lengths vary by +-varied_length_spread around the
    /// means (requests drift out of step): ttft_ms is the fixed-length figure, with the requests in step.
    std::optional<latency_stats> ttft_ms_varied;
    double varied_length_spread = 0;
    bool meets_targets          = false;
    std::string binding;
    std::optional<double> cost_per_hour_usd;
    std::optional<double> cost_per_month_usd;
    std::optional<double> cost_per_million_output_tokens_usd;
    std::optional<double> cost_per_million_input_tokens_usd;
    double users_carried = 0; ///< requests in flight the deployment holds within the targets (closed-loop view)
    std::uint32_t candidates_searched = 0;
    std::string engine;                                      ///< the engine whose row priced it ("vllm")
    std::vector<std::string> reasons;                        ///< plain sentences: why this deployment, what binds
    std::vector<std::pair<std::string, std::string>> launch; ///< engine -> command lines
};

/// What the serving question needs beyond the request: the engine's defaults for the device.
struct serving_context {
    const model_desc* model = nullptr;
    inference_params infer; ///< the estimate's resolved parameters (engine vLLM)
    serving_request request;
    bool gpus_given           = false; ///< --gpus fixes the deployment
    bool max_num_seqs_given   = false;
    bool batched_tokens_given = false;
    bool ctx_given            = false;
    plan_options plan;
};

/// The serving answer for one hardware row: a fixed deployment (--gpus) or the search. Empty when the
/// row cannot run it at all (no bandwidth figure, the model does not fit any tensor parallel size); then
/// `why_none`, when given, says why in a person's words.
std::optional<serving_figures> plan_serving(const serving_context& c, const device_spec& d,
                                            std::string* why_none = nullptr);

/// Option errors that depend on several options (exit 2, naming the option).
status validate(const serving_request& r, const inference_params& p, bool ctx_given);

} // namespace llmplan
