// Pieces of the plan shared between its files (not public API).
#pragma once

#include "llmplan/fit.h"
#include "llmplan/plan.h"

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace llmplan::detail {

/// Estimates already made in this plan. Within one make_plan only where and how the model is split
/// changes (device, engine, GPUs, pipeline stages, -ngl); the weights, context and batch do not, so
/// the many candidates that share a split (every 1-GPU row) share one estimate (the GGUF recipe's
/// per-tensor walk is most of an estimate's time).
class estimate_memo {
  public:
    const result<inference_estimate>& get(const model_desc& m, const inference_params& p) {
        const key k{p.engine,
                    p.device,
                    p.gpus,
                    p.pipeline_parallel,
                    p.gpu_layers,
                    p.device_memory_bytes,
                    p.cpu_moe_layers,
                    p.ctx,
                    p.kv_type ? static_cast<int>(*p.kv_type) : -1,
                    p.flash_attn,
                    to_string(p.weights)};
        auto it = done_.find(k);
        if (it == done_.end()) it = done_.emplace(k, estimate_inference(m, p)).first;
        return it->second;
    }

  private:
    using key = std::tuple<engine_kind, device_kind, std::uint32_t, std::uint32_t, std::int64_t, std::uint64_t,
                           std::uint32_t, std::uint64_t, int, bool, std::string>;
    std::map<key, result<inference_estimate>> done_;
};

/// One candidate of make_plan: fit, offload, speed, cost and launch lines on row `d`.
plan_candidate evaluate(const model_desc& m, const inference_params& base, const device_spec& d, const plan_options& o,
                        estimate_memo& memo);
/// Ways to make the model fit row `d` that `c` (its candidate) does not fit: the request changed in
/// one respect and re-evaluated (fit_ways.cpp), closest first.
std::vector<fit_option> ways_to_fit(const model_desc& m, const inference_params& base, const device_spec& d,
                                    const plan_candidate& c, const plan_options& o, estimate_memo& memo);
/// Faster ways to run the model on row `d`, which `c` fits: the same row with llama.cpp at a GGUF
/// quant (better_ways.cpp), each at least 1.2x the decode speed of `c`, fastest first.
std::vector<fit_option> ways_to_do_better(const model_desc& m, const inference_params& base, const device_spec& d,
                                          const plan_candidate& c, const plan_options& o, estimate_memo& memo);
/// The best row of each kind (answers.cpp).
std::vector<kind_answer> kind_answers(const std::vector<plan_candidate>& cands, const plan_options& o);

/// Accelerators built to come 8 to a node and be clustered (NVLink boards, InfiniBand/EFA): gpus.csv
/// rows whose form is "datacenter..." or "cloud-only". Consumer and workstation cards are not.
bool is_server_gpu(const device_spec& d);

/// What the chip lacks for this plan (each with the nearest that works) and the CUDA/driver floor
/// its launch lines assume (plan/features.cpp). engine_runs: false when the engine cannot run there.
struct feature_check {
    std::vector<std::string> unsupported;
    std::vector<std::string> versions;
    bool engine_runs = true;
    /// false: the weights cannot run on this chip at all (FP8 below compute capability 8.0, where not
    /// even vLLM's weight-only Marlin path exists): the row does not count as fitting.
    bool weights_run = true;
};
feature_check check_features(const model_desc& m, const inference_params& p, const device_spec& d);
/// What a training run needs that the row's platform lacks (bitsandbytes for a 4/8-bit base or 8-bit
/// AdamW: CUDA, ROCm, XPU and CPU builds only), each with the nearest that runs; empty when it runs.
std::vector<std::string> training_unsupported(const model_desc& m, const training_params& p, const device_spec& d);

/// The row's id, purchase kind, what a part needs, provider and instances, on the candidate.
void describe_purchase(plan_candidate& c, const device_spec& d);

/// Whether the row's GPU computes in bf16 (plan/features.cpp): NVIDIA from compute capability 8.0
/// (Ampere; CUDA programming guide, "Compute Capabilities"), read from the row's compute_capability
/// column; Volta (7.0), Turing (7.5) and Pascal (6.x) have fp16 only. Other vendors' accelerators,
/// and rows of unknown capability, count as having it.
bool has_bf16(const device_spec& d);

/// Physical cores of a CPU row; cloud rows give vCPUs, which are hyper-threads (2 a core).
double cpu_cores(const device_spec& d);
/// A CPU row's FP32 peak: its fp32 figure, else cpu_cores x cpu_core_clock_hz x
/// cpu_core_flops_per_cycle (plan.h); 0 when the cores are unknown.
double cpu_peak_flops(const device_spec& d);

/// Ready command lines for the engines that run the plan: llama-server (+ rpc-server across nodes)
/// and Ollama for llama.cpp; vllm serve (+ Ray across nodes) for vLLM.
/// bf16_ok: false on a chip without bf16 (has_bf16), where vllm serve gets --dtype float16 (vLLM
/// refuses a bf16 model there: "Bfloat16 is only supported on GPUs with compute capability of at
/// least 8.0").
std::vector<std::pair<std::string, std::string>> launch_lines(const model_desc& m, const inference_params& p,
                                                              unsigned count, unsigned nodes, bool bf16_ok = true);

/// The article's question, answered from the sorted candidates (cpu_or_gpu_answer in plan.h).
std::optional<cpu_or_gpu_answer> cpu_or_gpu(const std::vector<plan_candidate>& cands, const plan_options& o);

} // namespace llmplan::detail
