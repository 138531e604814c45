// Plan: which hardware runs a model, how fast, at what cost. A pure function of the model, the
// inference options and a list of candidate devices (../shared/cli-contract.md, "llmplan plan").
#pragma once

#include "llmplan/hardware.h"
#include "llmplan/inference.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llmplan {

/// CPU rows without a FLOP/s figure: cores x clock x FP32 FLOPs a core makes per cycle. 32 = two
/// 256-bit FMA pipes x 8 lanes x 2 (Intel Golden Cove, AMD Zen 4/5 with AVX-512 double-pumped); 3 GHz
/// is a typical all-core clock under AVX load for the desktop and server parts of cpus.csv.
inline constexpr double cpu_core_clock_hz        = 3.0e9;
inline constexpr double cpu_core_flops_per_cycle = 32.0;
/// GPUs in one node: the usual HGX/DGX baseboard (8 x H100/H200/A100 SXM over NVLink); a plan that
/// needs more spans nodes.
inline constexpr unsigned gpus_per_node = 8;

/// What the cost and the choice assume; every default has its source.
struct plan_options {
    /// US average residential retail price, EIA Electricity Monthly Update, April 2024: 16.88 cents
    /// a kWh (data/hardware/SOURCES.md, "Electricity and PUE").
    double electricity_usd_per_kwh = 0.1688;
    /// Power usage effectiveness: a home has none (1.0, same page); a data centre averages 1.58
    /// (Uptime Institute survey 2023).
    double pue = 1.0;
    /// Share of the hours an owned machine works: it draws load power and makes tokens that share of
    /// the time and idles the rest; its purchase is paid all the time. Default: a working week, 40 of
    /// 168 hours, a personal machine used through the working day (1 = round the clock). A rented
    /// instance is paid only while it runs: its tokens cost the same at any utilization.
    double utilization = 40.0 / 168.0;
    /// Years an owned machine is used before it is replaced.
    double life_years = 3.0;
    /// Decode speed a user wants for each request. Default: reading speed, 238 words a minute
    /// (Brysbaert 2019, meta-analysis of silent reading in English) x 1.33 tokens a word (OpenAI's
    /// "a token is about 3/4 of a word") = 5.3 tokens/s.
    double min_tokens_per_s = 238.0 / 60.0 * 4.0 / 3.0;
    /// Longest wait for the first token: 10 s is the limit for keeping a user's attention on a
    /// task (Nielsen, Usability Engineering, 1993, ch. 5 "response times").
    double max_ttft_s = 10.0;
    /// Most nodes of `gpus_per_node` a plan may span before it says "does not fit".
    unsigned max_nodes = 64;
    /// --kind: only rows answering for these kinds (bits of answer_kind); 0 = every row.
    std::uint8_t kinds = 0;
};

/// What a training plan adds to a candidate (make_train_plan, train_plan.h); empty for inference.
struct train_figures {
    double train_tokens_per_s     = 0; ///< all GPUs (all nodes) together
    double step_seconds           = 0; ///< one optimizer step: one micro-batch on every GPU
    std::uint64_t tokens_per_step = 0; ///< seq x micro-batch x GPUs
    double run_hours              = 0; ///< the whole run of train_tokens
    /// What the run costs: a rented row its hours; an owned row bought for it, the purchase plus the
    /// run's power (a one-off job pays the whole card, not three years' share of it).
    std::optional<double> run_cost_usd;
    std::optional<double> purchase_usd; ///< owned rows: the cards' or machines' price, paid once
    std::optional<double> power_usd;    ///< owned rows: the power the run draws
    std::uint64_t train_tokens = 0;
    unsigned nodes             = 1; ///< machines (cloud instances, or nodes of 8 GPUs)
    unsigned gpus_per_node     = 1;
    unsigned zero_stage        = 0;
    bool offload_optimizer     = false;
    bool grad_checkpointing    = false;
    bool comm_bound            = false; ///< multi-node ZeRO-3 step set by the inter-node all-gathers
    std::int64_t host_bytes    = 0;     ///< host RAM the offloaded optimizer needs (0: none)
};

/// What a plan found about a candidate, as data: decisions read the code and its figures, never
/// the text beside it (plan_candidate::reasons keeps the sentences a reader sees).
enum class reason_code : std::uint8_t {
    fits,             ///< bytes: headroom
    does_not_fit,     ///< bytes: short by (positive)
    offload_layers,   ///< count: layers on the GPU (-ngl); bytes: host RAM the rest takes
    offload_experts,  ///< count: layers whose experts stay in RAM (--n-cpu-moe); bytes: host RAM
    ram_short,        ///< bytes: host RAM missing for the offloaded part
    speed_unknown,    ///< a bandwidth or compute figure is missing
    slow,             ///< tokens_per_s: per request; wanted: the wanted rate
    slow_first_token, ///< seconds: first-token wait; wanted: the longest wanted
    fast_enough,      ///< tokens_per_s: per request; seconds: first-token wait
    cheapest,         ///< usd: per million tokens (empty: no price) among the rows that qualify
    fastest,          ///< tokens_per_s: the fastest of the rows that fit (none is fast enough)
    closest,          ///< bytes: short by; nothing of the kind fits, this one comes closest
    no_price,         ///< the row has no price
};
std::string_view name(reason_code c);
struct plan_reason {
    reason_code code          = reason_code::fits;
    std::int64_t bytes        = 0;
    unsigned count            = 0;
    double tokens_per_s       = 0;
    double wanted             = 0;
    double seconds            = 0;
    std::optional<double> usd = std::nullopt;
};
/// A reason with its code and, where it has them, its bytes and count (set the rest by name).
inline plan_reason make_reason(reason_code c, std::int64_t bytes = 0, unsigned count = 0) {
    plan_reason r;
    r.code  = c;
    r.bytes = bytes;
    r.count = count;
    return r;
}
/// One line of text for a reason (the text renderers and the JSON's `why` use it).
std::string reason_text(const plan_reason& r);

/// The kinds of answer a person asks for ("the best laptop"); a row may answer for two (a MacBook:
/// laptop and mac). Rows of this machine answer for none.
enum class answer_kind : std::uint8_t {
    laptop,  ///< laptops.csv rows whose form is "laptop"
    desktop, ///< complete desktops (laptops.csv "desktop ..."), and consumer/workstation cards to add to one
    mac,     ///< Apple silicon: gpus.csv Apple rows and Apple machines
    cpu,     ///< runs on the CPU alone: CPU parts and machines without a GPU (not cloud)
    cloud,   ///< rented instances (cloud_instances.csv)
    server,  ///< datacenter accelerators bought for a server (H100 SXM ...)
};
inline constexpr answer_kind all_answer_kinds[] = {answer_kind::laptop, answer_kind::desktop, answer_kind::mac,
                                                   answer_kind::cpu,    answer_kind::cloud,   answer_kind::server};
std::string_view name(answer_kind k);
/// "laptop" -> answer_kind::laptop; false when the name is no kind.
bool answer_kind_from_name(std::string_view text, answer_kind& out);
/// Bit (1 << kind) set for each kind row `d` answers for.
std::uint8_t answer_kinds_of(const device_spec& d);

/// One way to make a model fit a row it does not fit: the request changed in one respect, re-estimated.
enum class fit_way : std::uint8_t {
    shorter_context, ///< value: the context (tokens) that fits
    quantized_kv,    ///< value: the KV type's name in `setting`; llama.cpp turns flash attention on
    smaller_quant,   ///< setting: the weight format (GGUF type, int4 ...)
    experts_on_cpu,  ///< value: --n-cpu-moe N (llama.cpp, MoE)
    more_gpus,       ///< value: GPUs in all
    wired_limit,     ///< a Mac: value: macOS's GPU wired limit raised to this many bytes (setting: the command)
    other_trainer,   ///< training: value: GPUs it takes with another trainer or a lower LoRA rank (setting)
};
std::string_view name(fit_way w);
/// Where a candidate runs the model, as the plan document prints it: "cpu", "gpu" (CUDA and every
/// other discrete accelerator), "apple" (Metal); "" when unset (training candidates).
std::string_view runs_on_name(std::optional<device_kind> d);
struct fit_option {
    fit_way way         = fit_way::shorter_context;
    std::uint64_t value = 0;
    std::string setting; ///< the option as the CLI takes it ("--ctx 8192", "--kv-type q8_0 --flash-attn on")
    bool fits                   = false;
    std::int64_t headroom_bytes = 0; ///< device memory - need (negative: still short)
    std::int64_t host_bytes     = 0; ///< host RAM the offloaded part takes (experts on CPU)
    double decode_tokens_per_s  = 0; ///< 0: unknown
    /// What the change costs beyond memory (ways to do better: "+0.18 perplexity on Llama-3-8B ...").
    std::string cost;
    std::vector<std::pair<std::string, std::string>> launch; ///< ways to do better: engine -> command line
};

/// What a plan's row is, as the contract's candidates[].kind names it.
enum class candidate_kind : std::uint8_t {
    local, ///< this machine
    gpu,   ///< GPUs bought (a gpus.csv row, or a PC/laptop with a discrete GPU)
    apple, ///< an Apple silicon machine (unified memory)
    cpu,   ///< CPU only
    cloud, ///< a rented instance
};
/// "local", "gpu", "apple", "cpu", "cloud".
std::string_view name(candidate_kind k);

struct plan_candidate {
    std::string hardware;
    candidate_kind kind = candidate_kind::gpu;
    unsigned count      = 1;            ///< accelerators in all (GPU rows and GPU instances), else 1
    unsigned nodes      = 1;            ///< machines the plan spans (pipeline stages across nodes)
    std::optional<device_kind> runs_on; ///< where an inference plan runs the model (runs_on_name); unset for training
    bool fits                   = false;
    std::int64_t headroom_bytes = 0; ///< device memory - per-device total (negative: short by)
    double decode_tokens_per_s  = 0;
    double prefill_tokens_per_s = 0;
    double ttft_s               = 0;     ///< prefill of the prompt (all sequences), seconds
    bool meets_speed            = false; ///< per-request decode and first-token wait as wanted
    std::optional<double> power_w;       ///< TDP of what is counted (GPUs alone for GPU rows); cloud: none
    std::optional<double> idle_power_w;  ///< the same at idle (counted the hours it does not work)
    std::string id;                      ///< the row's id (hardware_id), selectable with --hardware
    std::string purchase;                ///< "machine" | "card" | "cpu" | "instance" | ... (purchase_kind)
    std::string needs;                   ///< what a part needs around it ("" for machines, instances)
    std::string provider;                ///< cloud: AWS, GCP, ...
    unsigned instances = 0;              ///< cloud: instances rented (count is their GPUs in all)
    std::string price_date;              ///< when the purchase price was stated ("" unknown or rented)
    /// What the plan needs that this chip or engine lacks, each with the nearest that works ("bf16
    /// needs compute capability 8.0+; T4 has 7.5: fp16 used"); see plan/features.cpp.
    std::vector<std::string> unsupported;
    /// The minimum versions the launch lines assume ("CUDA 12.8+ and driver 570+ (Blackwell)").
    std::vector<std::string> requires_versions;
    std::optional<double> cost_per_hour_usd;
    std::optional<double> cost_per_million_tokens_usd;
    std::vector<std::string> reasons;
    std::vector<plan_reason> findings;   ///< the reasons as data (what decisions read)
    std::uint8_t answer_kinds = 0;       ///< answer_kinds_of(the row)
    std::vector<fit_option> fit_options; ///< rows that do not fit and answer for a kind: ways to fit, closest first
    /// Rows that fit (this machine, the best of each kind, the recommended row): the same row with a
    /// faster setting (a GGUF quant, llama.cpp instead of transformers on a CPU or a Mac), fastest
    /// first, each with its cost.
    std::vector<fit_option> better_options;
    std::vector<std::pair<std::string, std::string>> launch; ///< engine -> command line
    std::optional<train_figures> training;                   ///< --task train only
};

struct plan_recommendation {
    std::string hardware;
    unsigned count = 1;
    std::vector<std::string> why;
    std::size_t index = 0; ///< its place in plan_result::candidates
};

/// The article's question: does a CPU do, or is a GPU needed, and why.
struct cpu_or_gpu_answer {
    std::string choice; ///< "cpu" | "gpu"
    std::vector<std::string> why;
};

/// The best row of one kind, as the question is asked ("the best laptop for this model").
struct kind_answer {
    answer_kind kind  = answer_kind::laptop;
    std::size_t index = 0;        ///< its place in plan_result::candidates
    std::vector<plan_reason> why; ///< cheapest/fastest/closest first, then fits/short, speed
};

struct plan_result {
    std::vector<plan_candidate> candidates; ///< fitting cheapest first, then the rest
    std::vector<kind_answer> answers;       ///< one per kind that has a row, in all_answer_kinds order
    std::optional<plan_recommendation> recommendation;
    std::optional<cpu_or_gpu_answer> cpu_or_gpu;
    plan_options options;
};

/// Evaluate every candidate and sort them. GPU rows get the fewest of 1, 2, 4, 8 that fits, then
/// nodes of 8 (vLLM tensor x pipeline parallel; llama.cpp RPC layer split); GPU cloud instances
/// get 1, 2, 4 ... instances up to options.max_nodes.
plan_result make_plan(const model_desc& m, const inference_params& p, const std::vector<const device_spec*>& candidates,
                      const plan_options& options = {});
/// The article's "I run the 0.5B, I want the 7B": the same workload with the model run now (`from`)
/// and the one wanted (`to`), on the hardware both plans evaluated.
struct plan_comparison {
    struct side {
        std::string model;
        std::int64_t largest_device_bytes = 0; ///< the largest device's total
        std::uint64_t weights_bytes       = 0;
        std::uint64_t kv_cache_bytes      = 0; ///< all devices
    };
    struct row {
        std::string hardware;
        bool fits_from = false, fits_to = false;
        double decode_from = 0, decode_to = 0; ///< tokens/s
        double ttft_from = 0, ttft_to = 0;     ///< seconds
    };
    side from, to;
    std::vector<row> rows; ///< hardware in both plans, in the `from` plan's order
};
plan_comparison compare_plans(const model_desc& from_model, const inference_estimate& from_estimate,
                              const plan_result& from_plan, const model_desc& to_model,
                              const inference_estimate& to_estimate, const plan_result& to_plan);

/// What having a candidate costs an hour: a rented instance's price x nodes; owned hardware's
/// purchase over o.life_years plus its TDP x o.utilization x o.pue x o.electricity_usd_per_kwh.
/// Empty when no price is known.
struct hourly_cost_figures {
    double usd_per_hour = 0;
    std::optional<double> power_w;      ///< load power counted (card rows: the cards alone)
    std::optional<double> idle_power_w; ///< idle power counted the rest of the hours
    bool rented = false;                ///< an instance: paid only while it runs
    std::string reason;                 ///< one line saying how it was made
};
std::optional<hourly_cost_figures> hourly_cost(const device_spec& d, unsigned count, unsigned nodes,
                                               const plan_options& o);
/// Dollars per million tokens at `tokens_per_s`: an owned machine's hour over the tokens it makes
/// in o.utilization of an hour; a rented instance's hour over a full hour of tokens.
std::optional<double> cost_per_million_tokens(const hourly_cost_figures& f, double tokens_per_s, const plan_options& o);
/// The order of both plans: fitting first (cheapest per million tokens, then fastest), then the
/// rest closest to fitting first.
bool cheapest_first(const plan_candidate& a, const plan_candidate& b);
/// The options' own errors (negative price, utilization outside (0, 1] ...), named by option.
status validate(const plan_options& o);

} // namespace llmplan
