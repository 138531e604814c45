// Pieces of the plan shared between its files (not public API).
#pragma once

#include "llmplan/plan.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llmplan::detail {

/// Accelerators built to come 8 to a node and be clustered (NVLink boards, InfiniBand/EFA): gpus.csv
/// rows whose form is "datacenter..." or "cloud-only". Consumer and workstation cards are not.
bool is_server_gpu(const device_spec& d);

/// What the chip lacks for this plan (each with the nearest that works) and the CUDA/driver floor
/// its launch lines assume (plan/features.cpp). engine_runs: false when the engine cannot run there.
struct feature_check {
    std::vector<std::string> unsupported;
    std::vector<std::string> versions;
    bool engine_runs = true;
};
feature_check check_features(const model_desc& m, const inference_params& p, const device_spec& d);

/// The row's id, purchase kind, what a part needs, provider and instances, on the candidate.
void describe_purchase(plan_candidate& c, const device_spec& d);

/// Physical cores of a CPU row; cloud rows give vCPUs, which are hyper-threads (2 a core).
double cpu_cores(const device_spec& d);
/// A CPU row's FP32 peak: its fp32 figure, else cpu_cores x cpu_core_clock_hz x
/// cpu_core_flops_per_cycle (plan.h); 0 when the cores are unknown.
double cpu_peak_flops(const device_spec& d);

/// Ready command lines for the engines that run the plan: llama-server (+ rpc-server across nodes)
/// and Ollama for llama.cpp; vllm serve (+ Ray across nodes) for vLLM.
std::vector<std::pair<std::string, std::string>> launch_lines(const model_desc& m, const inference_params& p,
                                                              unsigned count, unsigned nodes);

/// The article's question, answered from the sorted candidates (cpu_or_gpu_answer in plan.h).
std::optional<cpu_or_gpu_answer> cpu_or_gpu(const std::vector<plan_candidate>& cands, const plan_options& o);

} // namespace llmplan::detail
