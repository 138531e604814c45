// The option table (options.h). Defaults shown here are the ones the request types hold
// (request.h); each default's reason sits beside the field it fills (inference.h, estimate.h,
// plan.h, train_plan.h, fit_hardware.h).
#include "llmplan/options.h"

#include <array>

namespace llmplan {
// A named namespace, not an anonymous one: its one-letter aliases must not reach other files of a
// unity batch (CMakeLists.txt, LLMPLAN_UNITY_BUILD).
namespace option_rows {

constexpr std::uint8_t I = command_bit(command_kind::inspect);
constexpr std::uint8_t M = command_bit(command_kind::models);
constexpr std::uint8_t E = command_bit(command_kind::estimate);
constexpr std::uint8_t P = command_bit(command_kind::plan);
constexpr std::uint8_t F = command_bit(command_kind::fit);
constexpr std::uint8_t H = command_bit(command_kind::hardware);
constexpr std::uint8_t C = command_bit(command_kind::check);

using id = option_id;
using k  = value_kind;
using t  = task_scope;
using e  = engine_scope;

constexpr std::string_view dtypes_weights = "f32 f16 bf16 fp8 int8 int4 nf4 gptq-int8 gptq-int4 awq q4_0 q4_k_m q5_k_m "
                                            "q6_k q8_0 iq2_xxs (every GGUF type)";

// clang-format off
constexpr std::array rows = {
    option_spec{id::model, "model", k::text, "", "", "catalog id, config.json, model folder, .gguf file, hf:ORG/NAME", I | E | P | F, I | E | P},
    option_spec{id::model, "model", k::text, "", "the catalog model the log names", "the model, when the log does not name one llmplan knows", C, 0},
    option_spec{id::log, "log", k::text, "", "", "the engine's log: a file, or - for standard input (the API: the log's text)", C, C},
    option_spec{id::log_name, "log-name", k::text, "", "the file's name, or stdin", "the log's name in messages", C, 0},
    option_spec{id::filter, "filter", k::text, "", "", "only ids containing this text (case-insensitive)", M, M},
    option_spec{id::filter, "filter", k::text, "", "", "words every listed name must contain (e.g. h100, aws, apple); implies list", H, 0},
    option_spec{id::name, "name", k::text, "", "this machine", "catalog hardware name (see `llmplan hardware list`)", F, F},
    option_spec{id::name, "name", k::text, "", "", "one catalog row by name, e.g. 'H100 SXM 80GB', rtx-4090, g5.xlarge", H, 0},
    option_spec{id::list, "list", k::flag, "", "", "list the catalog (GPUs, CPUs, machines, cloud instances)", H, 0},
    option_spec{id::check, "check", k::flag, "", "", "list the rows missing a figure the planner needs to rank them (price, power, bandwidth, ...)", H, 0},
    option_spec{id::probe, "probe", k::flag, "", "", "measure this machine's RAM bandwidth again and cache it", H, 0},

    option_spec{id::task, "task", k::choice, "infer train", "infer", "run the model or train it", E | P, 0},
    option_spec{id::engine, "engine", k::choice, "llama.cpp vllm sglang tensorrt-llm transformers mlx", "llama.cpp for GGUF, else transformers", "inference engine", E | P, 0, t::infer},
    option_spec{id::engine_version, "engine-version", k::text, "", "the current release", "the engine's release, e.g. vllm@0.14, transformers@4.38.2, llama.cpp@b6000 or llama.cpp@v0.3.0", E | P, 0, t::infer},
    option_spec{id::device, "device", k::choice, "cpu cuda metal", "cuda (metal for mlx)", "where the model runs", E | P, 0, t::infer},
    option_spec{id::gpus, "gpus", k::positive, "", "1", "number of GPUs", E | P, 0},
    option_spec{id::gpus, "gpus", k::positive, "", "the machine's count", "GPUs to spread a model over", F, 0},
    option_spec{id::weights, "weights", k::text, dtypes_weights, "the model's own", "weight precision (training: the frozen base of LoRA/QLoRA)", E | P, 0},
    option_spec{id::weights, "weights", k::text, dtypes_weights, "the log's file type", "the weights type, when the log's file type is not a standard one", C, 0},
    option_spec{id::ctx, "ctx", k::positive, "", "4096", "tokens per sequence, prompt plus generated", E | P | F, 0, t::infer},
    option_spec{id::prompt, "prompt", k::uint, "", "= ctx", "tokens in one prefill pass", E | P, 0, t::infer},
    option_spec{id::batch, "batch", k::positive, "", "1", "sequences held at once (concurrent requests)", E | P | F, 0, t::infer},
    option_spec{id::kv_type, "kv-type", k::text, "f32 f16 bf16 fp8 q8_0 q4_0", "f16, or the weights' compute dtype", "K and V cache element type", E | P, 0, t::infer},
    option_spec{id::n_batch, "n-batch", k::positive, "", "2048", "llama.cpp logical batch", E | P, 0, t::infer, e::llama_cpp},
    option_spec{id::ubatch, "ubatch", k::positive, "", "512", "llama.cpp physical batch", E | P, 0, t::infer, e::llama_cpp},
    option_spec{id::flash_attn, "flash-attn", k::choice, "on off", "by release: on (-fa auto) from b6327, off before", "llama.cpp flash attention", E | P, 0, t::infer, e::llama_cpp},
    option_spec{id::gpu_layers, "gpu-layers", k::sint, "", "all, on a GPU", "llama.cpp layers on the GPU", E | P, 0, t::infer, e::llama_cpp},
    option_spec{id::n_cpu_moe, "n-cpu-moe", k::uint, "", "0; a plan picks the fewest that fit", "llama.cpp: keep the routed experts of the first N layers in RAM (MoE)", E | P, 0, t::infer, e::llama_cpp},
    option_spec{id::cpu_moe, "cpu-moe", k::flag, "", "", "llama.cpp: keep every layer's routed experts in RAM (-ot exps=CPU)", E | P, 0, t::infer, e::llama_cpp},
    option_spec{id::mmap, "mmap", k::choice, "on off", "on", "llama.cpp maps the file", E | P, 0, t::infer, e::llama_cpp},
    option_spec{id::gpu_memory_utilization, "gpu-memory-utilization", k::number, "", "by release: 0.92 from 0.21, 0.9 before", "vLLM fraction of GPU memory, in (0, 1]", E | P, 0, t::infer, e::vllm},
    option_spec{id::max_num_seqs, "max-num-seqs", k::positive, "", "by release and GPU: 1024 on GPUs of 70 GiB+, else 256", "vLLM sequences per step", E | P, 0, t::infer, e::vllm},
    option_spec{id::max_num_batched_tokens, "max-num-batched-tokens", k::positive, "", "by release and GPU: 16384 on GPUs of 70 GiB+ from 0.28 (8192 before), else 2048", "vLLM tokens per step: what its start-up profile runs", E | P, 0, t::infer, e::vllm},
    option_spec{id::pipeline_parallel, "pipeline-parallel", k::positive, "", "1", "vLLM pipeline stages; --gpus = tensor parallel x stages (multi-node)", E | P, 0, t::infer, e::vllm},
    option_spec{id::device_memory, "device-memory", k::size, "", "the device's own when known", "each GPU's memory, e.g. 80GiB", E | P, 0},
    option_spec{id::draft, "draft", k::text, "", "", "a draft model for speculative decoding, on the same device (MODEL): part \"draft\"", E | P, 0, t::infer},
    option_spec{id::mmproj, "mmproj", k::text, "", "", "a multimodal projector GGUF loaded beside the model: part \"projector\"", E | P, 0, t::infer, e::llama_cpp},
    option_spec{id::image_size, "image-size", k::positive, "", "the config's, else 448", "pixels per side of one image for a VLM's vision tower (vision_config): part \"projector\"", E | P, 0, t::infer, e::checkpoint},
    option_spec{id::reserve, "reserve", k::size, "", "0", "memory other processes hold on each device, e.g. 2GiB: part \"reserved\"", E | P, 0, t::infer},
    option_spec{id::memory, "memory", k::size, "", "", "a memory budget per device (e.g. 24GiB): also answer the longest context, the most sequences and the best precision that fit (training: the longest --seq, the largest --micro-batch, the most capable method/precision/ZeRO stage)", E | P, 0},

    option_spec{id::method, "method", k::choice, "full lora qlora", "lora", "what is trained", E | P, 0, t::train},
    option_spec{id::optimizer, "optimizer", k::choice, "adamw adamw-8bit sgd adafactor", "adamw", "optimizer", E | P, 0, t::train},
    option_spec{id::precision, "precision", k::choice, "fp32 bf16-mixed fp16-mixed bf16", "bf16-mixed", "training precision", E | P, 0, t::train},
    option_spec{id::seq, "seq", k::positive, "", "2048", "training sequence length", E | P, 0, t::train},
    option_spec{id::micro_batch, "micro-batch", k::positive, "", "1", "sequences per GPU step", E | P, 0, t::train},
    option_spec{id::grad_checkpointing, "grad-checkpointing", k::choice, "on off", "off", "recompute activations in the backward pass", E | P, 0, t::train},
    option_spec{id::lora_rank, "lora-rank", k::positive, "", "16", "LoRA rank", E | P, 0, t::train},
    option_spec{id::lora_targets, "lora-targets", k::list, "all-linear q k v o gate up down", "all-linear", "all-linear or a list q,k,v,o,gate,up,down", E | P, 0, t::train},
    option_spec{id::zero, "zero", k::choice, "0 1 2 3", "0", "DeepSpeed ZeRO stage", E | P, 0, t::train},
    option_spec{id::offload_optimizer, "offload-optimizer", k::choice, "on off", "off", "optimizer state in CPU RAM (ZeRO-Offload)", E | P, 0, t::train},
    option_spec{id::trainer, "trainer", k::text, "hf trl axolotl llama-factory ms-swift unsloth torchtune litgpt deepspeed fsdp", "hf", "the training framework, whose habits (padding, loss, dropout) the estimate follows; NAME@RELEASE for an older release (litgpt@0.5.10, torchtune@0.2.1)", E | P, 0, t::train},
    option_spec{id::lora_dropout, "lora-dropout", k::number, "", "the trainer's", "LoRA dropout p, 0 <= p < 1", E | P, 0, t::train},
    option_spec{id::loss, "loss", k::choice, "full chunked fused linear full-shift head-chunked", "the trainer's", "cross-entropy implementation", E | P, 0, t::train},
    option_spec{id::optimizer_in_backward, "optimizer-in-backward", k::choice, "on off", "the trainer's", "optimizer step fused into the backward pass", E | P, 0, t::train},
    option_spec{id::batch_lengths, "batch-lengths", k::choice, "variable fixed", "the trainer's", "variable (dynamic padding) or fixed (packed or padded)", E | P, 0, t::train},
    option_spec{id::fsdp_units, "fsdp-units", k::choice, "mixed separate", "the trainer's", "FSDP1 units holding LoRA adapters with frozen weights (mixed: the gradient covers the whole unit) or apart", E | P, 0, t::train},
    option_spec{id::grad_accum, "grad-accum", k::positive, "", "1", "gradient accumulation micro-steps per optimizer step (FSDP: unsharded gradients between syncs)", E | P, 0, t::train},
    option_spec{id::train_tokens, "train-tokens", k::count, "", "100M", "tokens the run trains on, e.g. 100M, 2B, 5e8", P, 0, t::train},

    option_spec{id::hardware, "hardware", k::list, "", "the whole catalog", "only these catalog rows (names as `llmplan hardware list`; repeat or comma-separate)", P, 0},
    option_spec{id::hardware_file, "hardware-file", k::text, "", "", "CSV of your own machines (same format as the catalog)", P | F | H, 0},
    option_spec{id::electricity_price, "electricity-price", k::number, "", "0.1688", "USD per kWh for owned hardware (US residential average, EIA Apr 2024)", P, 0},
    option_spec{id::pue, "pue", k::number, "", "1.0", "power usage effectiveness (1.0 at home; data centres average 1.58)", P, 0},
    option_spec{id::utilization, "utilization", k::number, "", "0.238", "share of the hours an owned machine works (40 of 168: a working week)", P, 0},
    option_spec{id::life_years, "life-years", k::number, "", "3", "years an owned machine is used", P, 0},
    option_spec{id::min_tokens_per_s, "min-tokens-per-s", k::number, "", "5.3", "decode speed wanted per request (reading speed)", P, 0, t::infer},
    option_spec{id::max_ttft, "max-ttft", k::number, "", "10", "longest wait for the first token, seconds", P, 0, t::infer},
    option_spec{id::max_nodes, "max-nodes", k::uint, "", "64", "most machines a plan may span", P, 0},
    option_spec{id::top, "top", k::uint, "", "15", "rows of the table (--json has all)", P, 0},
    option_spec{id::top, "top", k::uint, "", "5", "largest fitting models listed per precision", F, 0},
    option_spec{id::kind, "kind", k::list, "laptop desktop mac cpu cloud server", "every kind", "only rows of these kinds, each answered on its own (repeat or comma-separate): laptop desktop mac cpu cloud server", P, 0},
    option_spec{id::from, "from", k::text, "", "", "the model you run now: compare its memory and speed with MODEL on this machine and on the recommended one", P, 0, t::infer},
    option_spec{id::input_len, "input-len", k::positive, "", "1000", "serving: mean prompt tokens a request", P, 0, t::infer},
    option_spec{id::output_len, "output-len", k::positive, "", "256", "serving: mean generated tokens a request", P, 0, t::infer},
    option_spec{id::concurrency, "concurrency", k::positive, "", "", "serving: requests in flight at every moment (a closed loop); turns serving on", P, 0, t::infer},
    option_spec{id::request_rate, "request-rate", k::text, "", "", "serving: new requests a second (Poisson arrivals), or inf (all at once); turns serving on", P, 0, t::infer},
    option_spec{id::ttft_ms, "ttft-ms", k::number, "", "", "serving: target time to first token, milliseconds, at --slo-percentile", P, 0, t::infer},
    option_spec{id::tpot_ms, "tpot-ms", k::number, "", "", "serving: target time per output token, milliseconds, at --slo-percentile", P, 0, t::infer},
    option_spec{id::slo_percentile, "slo-percentile", k::number, "", "99", "serving: the percentile the targets hold at, above 0 and at most 100", P, 0, t::infer},
    option_spec{id::tensor_parallel, "tensor-parallel", k::positive, "", "the plan chooses", "serving: GPUs one instance shards over (1, 2, 4, 8 ...)", P, 0, t::infer},
    option_spec{id::offline, "offline", k::flag, "", "", "no network: the catalog, local files and caches only (or HF_HUB_OFFLINE=1)", every_command, 0},
    option_spec{id::refresh, "refresh", k::flag, "", "", "read the Hub again instead of llmplan's cache and the local Hub caches", every_command, 0},
    option_spec{id::timeout, "timeout", k::number, "", "10", "seconds a Hub request may wait for an answer, 0.1 to 3600", every_command, 0},
};
// clang-format on

constexpr std::array<std::string_view, 7> command_names = {"inspect", "models",   "estimate", "plan",
                                                           "fit",     "hardware", "check"};
constexpr std::array<std::string_view, 7> command_helps = {
    "Show a model's architecture, parameters and weight bytes",
    "List the built-in model catalog",
    "Memory per device to run or train a model, as a breakdown",
    "Hardware that runs a model, with speed, cost and launch lines",
    "What runs on a machine: largest models per precision, longest context",
    "This machine (CPU, RAM, GPUs), or the hardware catalog",
    "An engine's log (llama.cpp, vLLM, transformers) beside llmplan's estimate, part by part",
};

} // namespace option_rows

std::string_view command_name(command_kind c) {
    return option_rows::command_names[static_cast<std::size_t>(c)];
}
std::string_view command_help(command_kind c) {
    return option_rows::command_helps[static_cast<std::size_t>(c)];
}
bool command_from_name(std::string_view name, command_kind& out) {
    for (const command_kind c : all_commands)
        if (command_name(c) == name) {
            out = c;
            return true;
        }
    return false;
}

std::span<const option_spec> option_table() {
    return option_rows::rows;
}

const option_spec* find_option(command_kind c, std::string_view name) {
    for (const auto& o : option_rows::rows)
        if (o.name == name && applies_to(o, c)) return &o;
    return nullptr;
}

} // namespace llmplan
