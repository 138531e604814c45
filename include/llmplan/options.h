// The one table of options: every question's option names, value sets, defaults, help text, and the
// commands and tasks each applies to. The CLI builds its parser from it, the web API parses its
// query from it (request.h), and a web page can build its forms from it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace llmplan {

/// The questions (../shared/cli-contract.md): one subcommand each.
enum class command_kind : std::uint8_t { inspect, models, estimate, plan, fit, hardware, check };
inline constexpr command_kind all_commands[] = {command_kind::inspect, command_kind::models, command_kind::estimate,
                                                command_kind::plan,    command_kind::fit,    command_kind::hardware,
                                                command_kind::check};
std::string_view command_name(command_kind c);
std::string_view command_help(command_kind c);
/// "estimate" -> command_kind::estimate; false when the name is no command.
bool command_from_name(std::string_view name, command_kind& out);

/// Every option of every question. A name may carry different defaults per command (--top, --gpus).
enum class option_id : std::uint8_t {
    model,
    filter,
    name,
    list,
    probe,
    check,
    // inference and training
    task,
    engine,
    device,
    gpus,
    weights,
    ctx,
    prompt,
    batch,
    kv_type,
    n_batch,
    ubatch,
    flash_attn,
    gpu_layers,
    n_cpu_moe,
    cpu_moe,
    mmap,
    gpu_memory_utilization,
    max_num_seqs,
    max_num_batched_tokens,
    engine_version,
    pipeline_parallel,
    device_memory,
    memory,
    method,
    optimizer,
    precision,
    seq,
    micro_batch,
    grad_checkpointing,
    lora_rank,
    lora_targets,
    zero,
    offload_optimizer,
    trainer,
    lora_dropout,
    loss,
    optimizer_in_backward,
    batch_lengths,
    fsdp_units,
    grad_accum,
    // every command: how Hub names are read
    offline,
    refresh,
    timeout,
    // plan
    train_tokens,
    hardware,
    hardware_file,
    electricity_price,
    pue,
    utilization,
    life_years,
    min_tokens_per_s,
    max_ttft,
    max_nodes,
    top,
    from,
    kind,
    // other residents of the device (residents.cpp)
    draft,
    mmproj,
    image_size,
    reserve,
    // check
    log,
    log_name,
    // plan: serving at load (include/llmplan/serving.h)
    input_len,
    output_len,
    concurrency,
    request_rate,
    ttft_ms,
    tpot_ms,
    slo_percentile,
    tensor_parallel,
};

/// How a value is written.
enum class value_kind : std::uint8_t {
    flag,     ///< present or not ("1" over the API)
    text,     ///< any text (a model, a file, a name)
    choice,   ///< one of `values` (space-separated)
    uint,     ///< a whole number >= 0
    sint,     ///< a whole number, may be negative
    number,   ///< a finite decimal number
    size,     ///< bytes: "80GiB", "24 GB", "81121MiB" (units.h)
    count,    ///< "100M", "2B", "5e8" (units.h)
    list,     ///< comma-separated (repeatable)
    positive, ///< a whole number >= 1
};

/// Which task of estimate/plan an option belongs to; another task names it as not applying.
enum class task_scope : std::uint8_t { any, infer, train };
/// Which inference engine an option configures (estimate only: a plan launches several engines).
/// `checkpoint`: the engines that load the checkpoint's own modules (vLLM, transformers).
enum class engine_scope : std::uint8_t { any, llama_cpp, vllm, checkpoint };

struct option_spec {
    option_id id;
    std::string_view name; ///< CLI option without dashes; the web API's query key
    value_kind kind;
    std::string_view values;       ///< choice: the allowed values, space-separated
    std::string_view default_text; ///< as the help shows it ("4096", "the model's own")
    std::string_view help;
    std::uint8_t commands;   ///< bits of command_bit()
    std::uint8_t positional; ///< commands where it is the positional argument (MODEL, FILTER, NAME)
    task_scope task     = task_scope::any;
    engine_scope engine = engine_scope::any;
};

constexpr std::uint8_t command_bit(command_kind c) {
    return static_cast<std::uint8_t>(1u << static_cast<unsigned>(c));
}
/// Options of every command (the CLI also takes them before the subcommand).
inline constexpr std::uint8_t every_command = 0x7f;

/// Every row, in the order help lists them.
std::span<const option_spec> option_table();
/// The row of `name` for command `c`, or nullptr when that command has no such option.
const option_spec* find_option(command_kind c, std::string_view name);
/// Whether `o` applies to command `c`.
constexpr bool applies_to(const option_spec& o, command_kind c) {
    return (o.commands & command_bit(c)) != 0;
}

} // namespace llmplan
