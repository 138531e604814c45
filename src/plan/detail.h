// Pieces of the plan shared between its files (not public API).
#pragma once

#include "llmplan/plan.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llmplan::detail {

/// Ready command lines for the engines that run the plan: llama-server (+ rpc-server across nodes)
/// and Ollama for llama.cpp; vllm serve (+ Ray across nodes) for vLLM.
std::vector<std::pair<std::string, std::string>> launch_lines(const model_desc& m, const inference_params& p,
                                                              unsigned count, unsigned nodes);

/// The article's question, answered from the sorted candidates (cpu_or_gpu_answer in plan.h).
std::optional<cpu_or_gpu_answer> cpu_or_gpu(const std::vector<plan_candidate>& cands, const plan_options& o);

} // namespace llmplan::detail
