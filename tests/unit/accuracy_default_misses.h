// The dev cases that miss on the default path (accuracy_default_test.cpp), each with a ceiling on its
// |error| (a fraction: today's |error| rounded up to 0.1 point, plus 0.1 point for last-bit rounding;
// for a "fits" case, how far past the capacity on the wrong side), or `unanswered` where the CLI gives
// no figure. Measured on 2026-12-05 (171 of 1619 cases, the same as ../shared/bench/score.py on the same
// binary). A case that starts passing fails the test: remove it here and raise its source's floor.
// Raised on 2026-12-05 (the note the rule asks for): the default vLLM release moved from 0.14 to 0.30
// (estimate/engine_versions.cpp: CUDA-graph memory inside the budget since 0.21, 16384 batched tokens
// on 70 GiB+ GPUs since 0.28). These cases were measured on vLLM 0.6-0.16 and name no release, so
// they are answered by 0.30's rules: ten vLLM ceilings rose (kv_pool of vllm_llmd_h100_profiles#1
// 13.6% -> 24.4%, vllm_a100_benchmark_logs#1,2,3,5, vllm_issue_logs_2#1,5; activations of
// vllm_issue_logs#0,1 and vllm_issue_logs_2#1). No case left or entered its tolerance (1448 of 1619).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace llmplan::test {

inline constexpr double unanswered = -1.0;

inline const std::vector<std::pair<std::string, double>>& dev_known_misses() {
    // clang-format off
    static const std::vector<std::pair<std::string, double>> list = {
        // hf_bnb_4bit_blog: training on the default trainer (score.py passes no --trainer;
        // training_accuracy_test runs each source's own).
        {"hf_bnb_4bit_blog#1", 0.211}, {"hf_bnb_4bit_blog#12", 0.132},
        // hf_transformers_llm_optimization_doc: octocoder 4-bit through bitsandbytes FP4 in pipeline(): 17%
        // under (accuracy_infer_test's list).
        {"hf_transformers_llm_optimization_doc#2", 0.168},
        // litgpt_config_hub_finetune (bench/accuracy_train.md, "what the misses are now" and "fifth pass"): #3
        // accumulates 4 micro-steps under FSDP no_sync, which the case does not say; #15 an OOM at 4 x A10G
        // (#18, #28, #39, #44, #51 pass since frozen linears keep no input, and LitGPT's fused q/k/v buffer, its
        // NF4 without double quantization and its bf16 chunked cross-entropy are counted).
        {"litgpt_config_hub_finetune#3", 0.484},
        {"litgpt_config_hub_finetune#15", 0.088},
        // llamacpp_cpu_measured: eval-depth and all-logits runs: the CLI cannot express the tokens evaluated
        // (accuracy_infer_test's list).
        {"llamacpp_cpu_measured#190:rss", 0.120}, {"llamacpp_cpu_measured#191:rss", 0.181},
        {"llamacpp_cpu_measured#203:rss", 0.520}, {"llamacpp_cpu_measured#204:rss", 0.515},
        {"llamacpp_cpu_measured#205:rss", 0.487}, {"llamacpp_cpu_measured#206:rss", 0.053},
        // llamacpp_issue_logs: ik_llama.cpp logs (a fork: its own buffers and quant mixes), ollama's size
        // line and TheBloke's older Mixtral recipe (accuracy_infer_test's list; #12 and #13 pass at
        // --engine-version llama.cpp@b3300).
        {"llamacpp_issue_logs#7:weights", 0.049}, {"llamacpp_issue_logs#7:compute", 0.709},
        {"llamacpp_issue_logs#9:weights", 0.117}, {"llamacpp_issue_logs#12:weights", 0.921},
        {"llamacpp_issue_logs#13:weights", 0.937}, {"llamacpp_issue_logs#14:weights", 0.066},
        {"llamacpp_issue_logs#15:weights", 0.117}, {"llamacpp_issue_logs#32:weights", 0.965},
        {"llamacpp_issue_logs#36", 0.077}, {"llamacpp_issue_logs#37", 0.108}, {"llamacpp_issue_logs#38", 0.109},
        // llamacpp_mainline_logs: default path miss, not analysed here.
        {"llamacpp_mainline_logs#1:weights", 0.184},
        // ms_swift_benchmark: ms-swift runs on the default trainer; training_accuracy_test lists the reasons
        // with --trainer ms-swift.
        // 2026-12-06: the variable-length reserve is 1.9x the transient (was 1.5x; training_runtime.cpp):
        // #3, #7, #78, #79, #111 in; Qwen-1's 1000-sample rows at 4096-8192 (truncation_left) out, over.
        {"ms_swift_benchmark#12", 0.219},
        // Yi-6B at 2048 with the fp32 logits blocks of record-length steps counted (training_runtime.cpp); the row
        // ran cut to max_length (few records): over-estimate.
        {"ms_swift_benchmark#39", 0.213},
        {"ms_swift_benchmark#16", 0.271}, {"ms_swift_benchmark#21", 0.226}, {"ms_swift_benchmark#26", 0.195},
        {"ms_swift_benchmark#65", 0.163},
        {"ms_swift_benchmark#64", 0.247}, {"ms_swift_benchmark#66", 0.472}, {"ms_swift_benchmark#80", 0.336},
        {"ms_swift_benchmark#112", 0.145}, {"ms_swift_benchmark#116", 0.221},
        // peft_docs_deepspeed_fsdp: default trainer.
        // qwen1_readme_profiling: Qwen-1 runs: 2023 transformers and Qwen's finetune.py (fixed lengths), not
        // the defaults.
        {"qwen1_readme_profiling#82", 0.113},
        {"qwen1_readme_profiling#83", 0.134}, {"qwen1_readme_profiling#86", 0.082},
        {"qwen1_readme_profiling#103", 0.238}, {"qwen1_readme_profiling#109", 0.008},
        // qwen2_speed_benchmark: transformers 4.38.2 computed every prompt position's logits; the default
        // release does not, so the default path is under by up to 93% (accuracy_infer_test runs them at
        // transformers@4.38.2).
        {"qwen2_speed_benchmark#0", 0.194}, {"qwen2_speed_benchmark#1", 0.262}, {"qwen2_speed_benchmark#2", 0.324},
        {"qwen2_speed_benchmark#4", 0.811}, {"qwen2_speed_benchmark#5", 0.853}, {"qwen2_speed_benchmark#6", 0.877},
        {"qwen2_speed_benchmark#7", 0.875}, {"qwen2_speed_benchmark#8", 0.881}, {"qwen2_speed_benchmark#9", 0.902},
        {"qwen2_speed_benchmark#10", 0.914}, {"qwen2_speed_benchmark#11", 0.914}, {"qwen2_speed_benchmark#12", 0.914},
        {"qwen2_speed_benchmark#13", 0.924}, {"qwen2_speed_benchmark#14", 0.930}, {"qwen2_speed_benchmark#15", 0.930},
        {"qwen2_speed_benchmark#16", 0.149}, {"qwen2_speed_benchmark#17", 0.236}, {"qwen2_speed_benchmark#18", 0.311},
        {"qwen2_speed_benchmark#19", 0.085}, {"qwen2_speed_benchmark#20", 0.606}, {"qwen2_speed_benchmark#21", 0.699},
        {"qwen2_speed_benchmark#22", 0.760}, {"qwen2_speed_benchmark#23", 0.759}, {"qwen2_speed_benchmark#24", 0.735},
        {"qwen2_speed_benchmark#25", 0.794}, {"qwen2_speed_benchmark#26", 0.828}, {"qwen2_speed_benchmark#27", 0.828},
        {"qwen2_speed_benchmark#28", 0.810}, {"qwen2_speed_benchmark#29", 0.843}, {"qwen2_speed_benchmark#30", 0.861},
        {"qwen2_speed_benchmark#31", 0.861}, {"qwen2_speed_benchmark#34", 0.105}, {"qwen2_speed_benchmark#35", 0.108},
        {"qwen2_speed_benchmark#36", 0.240}, {"qwen2_speed_benchmark#37", 0.329}, {"qwen2_speed_benchmark#38", 0.426},
        {"qwen2_speed_benchmark#39", 0.420}, {"qwen2_speed_benchmark#40", 0.385}, {"qwen2_speed_benchmark#41", 0.484},
        {"qwen2_speed_benchmark#42", 0.567}, {"qwen2_speed_benchmark#43", 0.563}, {"qwen2_speed_benchmark#44", 0.524},
        {"qwen2_speed_benchmark#45", 0.604}, {"qwen2_speed_benchmark#46", 0.661}, {"qwen2_speed_benchmark#47", 0.660},
        {"qwen2_speed_benchmark#51", 0.138}, {"qwen2_speed_benchmark#52", 0.126}, {"qwen2_speed_benchmark#53", 0.248},
        {"qwen2_speed_benchmark#54", 0.280}, {"qwen2_speed_benchmark#55", 0.382}, {"qwen2_speed_benchmark#62", 0.113},
        {"qwen2_speed_benchmark#63", 0.104}, {"qwen2_speed_benchmark#64", 0.113}, {"qwen2_speed_benchmark#65", 0.115},
        {"qwen2_speed_benchmark#66", 0.185}, {"qwen2_speed_benchmark#67", 0.178}, {"qwen2_speed_benchmark#68", 0.194},
        {"qwen2_speed_benchmark#69", 0.213}, {"qwen2_speed_benchmark#70", 0.400}, {"qwen2_speed_benchmark#71", 0.269},
        // torchtune_readme_memory: Llama-3.1-405B QLoRA on 8 GPUs: the FSDP prefetch of a layer counted
        // whole (training_accuracy_test's list); 2026-12-06: +14.4% -> +15.0% with grouped k/v repeated (the
        // recomputed layer's), bench/accuracy_train.md "Round ttune".
        {"torchtune_readme_memory#7", 0.151},
        // transformers_optimum_quant_benchmarks: default path miss, not analysed here.
        {"transformers_optimum_quant_benchmarks#4:decode_peak", 0.158},
        // unsloth_readme_context_benchmarks: Unsloth's longest contexts on the default trainer: wrong side
        // of the GPU's capacity.
        {"unsloth_readme_context_benchmarks#3:fits_at_max", 0.160},
        {"unsloth_readme_context_benchmarks#5:fits_at_max", 0.065},
        {"unsloth_readme_context_benchmarks#9:oom_above_max", 0.001},
        {"unsloth_readme_context_benchmarks#11:oom_above_max", 0.001},
        {"unsloth_readme_context_benchmarks#13:oom_above_max", 0.001},
        // vllm_a100_benchmark_logs: logs of older vLLM releases; the default is the current V1 profile.
        {"vllm_a100_benchmark_logs#0:kv_pool", 1.001}, {"vllm_a100_benchmark_logs#1:kv_pool", 0.224},
        {"vllm_a100_benchmark_logs#2:kv_pool", 0.489}, {"vllm_a100_benchmark_logs#3:kv_pool", 0.186},
        {"vllm_a100_benchmark_logs#5:weights", 0.119}, {"vllm_a100_benchmark_logs#5:kv_pool", 0.123},
        // vllm_issue_logs: V0 and 2023-2024 releases' logs against the current V1 default
        // (accuracy_infer_test runs them at their dated releases).
        {"vllm_issue_logs#0:activations", 3.073}, {"vllm_issue_logs#0:overhead", 0.928},
        {"vllm_issue_logs#1:activations", 3.073}, {"vllm_issue_logs#1:overhead", 0.849},
        {"vllm_issue_logs#2:kv_pool", 0.298}, {"vllm_issue_logs#2:overhead", 0.625},
        {"vllm_issue_logs#3:kv_pool", 0.711}, {"vllm_issue_logs#3:overhead", 0.625},
        {"vllm_issue_logs#3:peak_torch", 0.103}, {"vllm_issue_logs#6:kv_pool", 0.499},
        {"vllm_issue_logs#7:kv_pool", 0.319}, {"vllm_issue_logs#9:kv_pool", 0.199},
        // vllm_issue_logs_2: logs of older vLLM releases against the current V1 default.
        {"vllm_issue_logs_2#0:overhead", 3.396}, {"vllm_issue_logs_2#1:kv_pool", 0.196},
        {"vllm_issue_logs_2#1:activations", 8.340}, {"vllm_issue_logs_2#1:overhead", 1.189},
        {"vllm_issue_logs_2#2:kv_pool", 3.003}, {"vllm_issue_logs_2#3:weights", 0.058},
        {"vllm_issue_logs_2#4:weights", 0.080}, {"vllm_issue_logs_2#5:weights", 0.067},
        {"vllm_issue_logs_2#5:kv_pool", 0.161},
        // vllm_llmd_h100_profiles: default path miss, not analysed here.
        {"vllm_llmd_h100_profiles#0:weights", 0.050}, {"vllm_llmd_h100_profiles#1:weights", 0.058},
        {"vllm_llmd_h100_profiles#1:kv_pool", 0.244},
    };
    // clang-format on
    return list;
}

} // namespace llmplan::test
