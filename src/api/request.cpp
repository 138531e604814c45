// Name/value pairs -> a request, through the option table: one parser for the CLI and the web API.
#include "llmplan/request.h"

#include "detail/checked_number.h"
#include "estimate/engine_traits.h"
#include "llmplan/check.h"
#include "llmplan/units.h"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <limits>

// GCC 12 reports -Wmaybe-uninitialized on assigning a request holding strings to a std::variant
// alternative (a false positive of its variant inlining); clang and GCC 13 do not.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace llmplan {
namespace {

using id = option_id;

error bad(const option_spec& o, std::string message) {
    return error{error_code::invalid_params, std::move(message), fmt::format("--{}", o.name)};
}

bool in_set(std::string_view set, std::string_view v) {
    std::size_t at = 0;
    while (at < set.size()) {
        std::size_t end = set.find(' ', at);
        if (end == std::string_view::npos) end = set.size();
        if (set.substr(at, end - at) == v) return true;
        at = end + 1;
    }
    return false;
}

/// A MODEL (or --from) that names a file or folder rather than a catalog id or a hub repo.
bool looks_like_path(std::string_view v) {
    auto ends = [&](std::string_view s) { return v.size() >= s.size() && v.substr(v.size() - s.size()) == s; };
    return v.empty() || v.front() == '/' || v.front() == '.' || v.front() == '~' ||
           v.find('\\') != std::string_view::npos || v.find("..") != std::string_view::npos || ends(".gguf") ||
           ends(".json") || ends(".safetensors");
}

/// One option's text as a typed value; the option's own syntax only (ranges that depend on other
/// options are the estimators' validate()).
struct value {
    std::string text;
    std::uint64_t u = 0;
    std::int64_t i  = 0;
    double d        = 0;
    bool on         = false;
};

result<value> parse_value(const option_spec& o, const std::string& v) {
    value out{v};
    const char* b = v.data();
    const char* e = v.data() + v.size();
    switch (o.kind) {
    case value_kind::flag:
        if (v != "1" && v != "true" && !v.empty()) return bad(o, fmt::format("\"{}\"; a flag takes 1 or nothing", v));
        out.on = true;
        return out;
    case value_kind::text:
    case value_kind::list:
        if (v.empty()) return bad(o, "empty; expected a value");
        return out;
    case value_kind::choice:
        if (!in_set(o.values, v)) return bad(o, fmt::format("\"{}\"; expected one of: {}", v, o.values));
        out.on = v == "on";
        return out;
    case value_kind::uint:
    case value_kind::positive: {
        auto [p, ec] = std::from_chars(b, e, out.u);
        if (v.empty() || ec != std::errc{} || p != e)
            return bad(o, fmt::format("\"{}\"; expected a whole number{}", v,
                                      o.kind == value_kind::positive ? " of at least 1" : " >= 0"));
        if (o.kind == value_kind::positive && out.u == 0) return bad(o, "0; expected at least 1");
        return out;
    }
    case value_kind::sint: {
        auto [p, ec] = std::from_chars(b, e, out.i);
        if (v.empty() || ec != std::errc{} || p != e) return bad(o, fmt::format("\"{}\"; expected a whole number", v));
        return out;
    }
    case value_kind::number: {
        auto [p, ec] = std::from_chars(b, e, out.d);
        if (v.empty() || ec != std::errc{} || p != e || !std::isfinite(out.d))
            return bad(o, fmt::format("\"{}\"; expected a finite number", v));
        return out;
    }
    case value_kind::size: {
        auto s = parse_size_bytes(v, fmt::format("--{}", o.name));
        if (!s) return s.error();
        out.u = *s;
        return out;
    }
    case value_kind::count: {
        auto n = parse_count(v, fmt::format("--{}", o.name));
        if (!n) return n.error();
        out.u = *n;
        return out;
    }
    }
    return out;
}

result<std::uint32_t> narrow(const option_spec& o, std::uint64_t v) {
    if (v > std::numeric_limits<std::uint32_t>::max()) return bad(o, fmt::format("{}; too large", v));
    return static_cast<std::uint32_t>(v);
}

void split_list(const std::string& v, std::vector<std::string>& into) {
    std::size_t at = 0;
    while (at <= v.size()) {
        std::size_t end = v.find(',', at);
        if (end == std::string::npos) end = v.size();
        if (end > at) into.push_back(v.substr(at, end - at));
        at = end + 1;
    }
}

template <class E> E pick(const std::string& v, std::initializer_list<std::pair<const char*, E>> rows) {
    for (const auto& [n, x] : rows)
        if (v == n) return x;
    return rows.begin()->second; // unreachable: the table's value set was checked first
}

/// estimate and plan: the inference and training options.
status apply_estimate(estimate_request& r, const option_spec& o, const value& v, bool& lora_targets_given) {
    auto& p = r.infer;
    auto& t = r.train;
    switch (o.id) {
    case id::model:
        r.model = v.text;
        break;
    case id::task:
        r.task = v.text == "train" ? task_kind::train : task_kind::infer;
        break;
    case id::engine:
        if (const auto* e = detail::engine_by_name(v.text)) r.engine = e->kind;
        // TensorRT-LLM reserves a KV pool from a fraction of each GPU as vLLM does: its memory is
        // planned as vLLM's; serving at load prices its steps with its own row.
        else if (v.text == "tensorrt-llm")
            r.engine = engine_kind::vllm;
        break;
    case id::device:
        p.device = pick<device_kind>(
            v.text, {
                        {"cpu",   device_kind::cpu  },
                        {"cuda",  device_kind::cuda },
                        {"metal", device_kind::metal}
        });
        break;
    case id::gpus: {
        auto n = narrow(o, v.u);
        if (!n) return n.error();
        p.gpus = t.gpus = *n;
        break;
    }
    case id::weights: {
        auto w = parse_weight_choice(v.text);
        if (!w) return w.error();
        p.weights = t.weights = *w;
        break;
    }
    case id::ctx:
        p.ctx = v.u;
        break;
    case id::prompt:
        p.prompt = v.u;
        break;
    case id::batch:
        p.batch = v.u;
        break;
    case id::kv_type: {
        auto k = dtype_from_name(v.text);
        if (!k) return bad(o, fmt::format("\"{}\"; expected {}", v.text, o.values));
        p.kv_type = *k;
        break;
    }
    case id::n_batch:
        p.n_batch = v.u;
        break;
    case id::ubatch:
        p.n_ubatch = v.u;
        break;
    case id::flash_attn:
        p.flash_attn = v.on;
        break;
    case id::gpu_layers:
        p.gpu_layers = v.i;
        break;
    case id::n_cpu_moe: {
        auto n = narrow(o, v.u);
        if (!n) return n.error();
        p.cpu_moe_layers = std::max(p.cpu_moe_layers, *n);
        break;
    }
    case id::cpu_moe: // every layer: llama.cpp's --cpu-moe (cpu_moe_all in launch.cpp)
        p.cpu_moe_layers = std::numeric_limits<std::uint32_t>::max();
        break;
    case id::mmap:
        p.mmap = v.on;
        break;
    case id::gpu_memory_utilization:
        p.gpu_memory_utilization = v.d;
        break;
    case id::max_num_seqs:
        p.max_num_seqs = v.u;
        break;
    case id::max_num_batched_tokens:
        p.max_num_batched_tokens = v.u;
        break;
    case id::engine_version:
        r.engine_version = v.text;
        break;
    case id::pipeline_parallel: {
        auto n = narrow(o, v.u);
        if (!n) return n.error();
        p.pipeline_parallel = *n;
        break;
    }
    case id::device_memory:
        p.device_memory_bytes = v.u;
        t.device_memory_bytes = v.u;
        break;
    case id::memory:
        r.memory_bytes = v.u;
        break;
    case id::draft:
        r.draft = v.text;
        break;
    case id::mmproj:
        r.mmproj = v.text;
        break;
    case id::image_size: {
        auto n = narrow(o, v.u);
        if (!n) return n.error();
        p.image_size = *n;
        break;
    }
    case id::reserve:
        p.reserve_bytes = v.u;
        break;
    // The value sets were checked against the option table first, so every name has its value.
    case id::method:
        t.method = train_method_from_name(v.text).value_or(t.method);
        break;
    case id::optimizer:
        t.optimizer = optimizer_from_name(v.text).value_or(t.optimizer);
        break;
    case id::precision:
        t.precision = train_precision_from_name(v.text).value_or(t.precision);
        break;
    case id::seq:
        t.seq = v.u;
        break;
    case id::micro_batch:
        t.micro_batch = v.u;
        break;
    case id::grad_checkpointing:
        t.grad_checkpointing = v.on;
        break;
    case id::lora_rank: {
        auto n = narrow(o, v.u);
        if (!n) return n.error();
        t.lora_rank = *n;
        break;
    }
    case id::lora_targets:
        if (!lora_targets_given) t.lora_targets.clear();
        lora_targets_given = true;
        split_list(v.text, t.lora_targets);
        break;
    case id::zero:
        t.zero_stage = static_cast<std::uint32_t>(v.text[0] - '0');
        break;
    case id::offload_optimizer:
        t.offload_optimizer = v.on;
        break;
    case id::trainer:
        if (!find_trainer(v.text)) return bad(o, fmt::format("\"{}\"; expected one of: {}", v.text, trainer_names()));
        t.trainer = v.text;
        break;
    case id::lora_dropout:
        if (v.d < 0 || v.d >= 1) return bad(o, fmt::format("{}; expected a number 0 <= p < 1", v.d));
        t.overrides.lora_dropout = v.d;
        break;
    case id::loss:
        t.overrides.loss = loss_from_name(v.text);
        break;
    case id::optimizer_in_backward:
        t.overrides.optimizer_in_backward = v.on;
        break;
    case id::batch_lengths:
        t.overrides.lengths = batch_lengths_from_name(v.text);
        break;
    case id::fsdp_units:
        t.overrides.fsdp_mixed_units = v.text == "mixed";
        break;
    case id::grad_accum:
        t.grad_accum = v.u; // range checked by estimate_training
        break;
    default:
        break;
    }
    return ok();
}

/// A whole number of [lo, hi] (the checked conversion of checked_number.h), or an error naming the option.
result<std::uint64_t> in_range(const option_spec& o, std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
    auto n = detail::integer_field<std::uint64_t>(static_cast<double>(v), fmt::format("--{}", o.name), lo, hi);
    if (!n) return bad(o, fmt::format("{}; expected a whole number from {} to {}", v, lo, hi));
    return *n;
}

/// A number of (lo, hi], or an error naming the option.
result<double> number_in(const option_spec& o, double v, double lo, double hi, std::string_view unit) {
    if (!(v > lo) || !(v <= hi))
        return bad(o, fmt::format("{:g}; expected a number above {:g} and at most {:g}{}", v, lo, hi, unit));
    return v;
}

/// Serving at load (the contract's "Serving at load").
status apply_serving(serving_request& s, const option_spec& o, const value& v) {
    // Bounds: a prompt or output of 10 million tokens is past every model's context; 10 million
    // requests in flight or a second, a target of 10^7 ms (about 3 hours), are past any service.
    constexpr std::uint64_t max_tokens = 10'000'000, max_requests = 10'000'000;
    switch (o.id) {
    case id::engine:
        s.engine = v.text == "sglang"         ? serving_engine::sglang
                   : v.text == "tensorrt-llm" ? serving_engine::trtllm
                   : v.text == "llama.cpp"    ? serving_engine::llamacpp
                                              : serving_engine::vllm;
        break;
    case id::input_len: {
        auto n = in_range(o, v.u, 1, max_tokens);
        if (!n) return n.error();
        s.input_len = *n;
        break;
    }
    case id::output_len: {
        auto n = in_range(o, v.u, 1, max_tokens);
        if (!n) return n.error();
        s.output_len = *n;
        break;
    }
    case id::concurrency: {
        auto n = in_range(o, v.u, 1, max_requests);
        if (!n) return n.error();
        s.concurrency = static_cast<double>(*n);
        s.on          = true;
        break;
    }
    case id::request_rate: {
        if (v.text == "inf" || v.text == "infinity") {
            s.request_rate = std::numeric_limits<double>::infinity();
        } else {
            double d     = 0;
            auto [p, ec] = std::from_chars(v.text.data(), v.text.data() + v.text.size(), d);
            if (ec != std::errc{} || p != v.text.data() + v.text.size() || !std::isfinite(d))
                return bad(o, fmt::format("\"{}\"; expected requests a second (a number) or inf", v.text));
            auto r = number_in(o, d, 0, static_cast<double>(max_requests), " requests a second, or inf");
            if (!r) return r.error();
            s.request_rate = *r;
        }
        s.on = true;
        break;
    }
    case id::ttft_ms:
    case id::tpot_ms: {
        auto r = number_in(o, v.d, 0, 1e7, " milliseconds");
        if (!r) return r.error();
        (o.id == id::ttft_ms ? s.ttft_ms : s.tpot_ms) = *r;
        break;
    }
    case id::slo_percentile: {
        auto r = number_in(o, v.d, 0, 100, "");
        if (!r) return r.error();
        s.slo_percentile = *r;
        break;
    }
    case id::tensor_parallel: {
        auto n = in_range(o, v.u, 1, 1024);
        if (!n) return n.error();
        s.tensor_parallel = static_cast<std::uint32_t>(*n);
        break;
    }
    default:
        break;
    }
    return ok();
}

status apply_plan(plan_request& r, const option_spec& o, const value& v) {
    if (auto s = apply_serving(r.serving, o, v); !s) return s;
    auto& p = r.plan;
    switch (o.id) {
    case id::train_tokens:
        r.train_tokens = v.u;
        break;
    case id::hardware:
        split_list(v.text, r.hardware);
        break;
    case id::hardware_file:
        r.hardware_file = v.text;
        break;
    case id::electricity_price:
        p.electricity_usd_per_kwh = v.d;
        break;
    case id::pue:
        p.pue = v.d;
        break;
    case id::utilization:
        p.utilization = v.d;
        break;
    case id::life_years:
        p.life_years = v.d;
        break;
    case id::min_tokens_per_s:
        p.min_tokens_per_s = v.d;
        break;
    case id::max_ttft:
        p.max_ttft_s = v.d;
        break;
    case id::max_nodes: {
        auto n = narrow(o, v.u);
        if (!n) return n.error();
        p.max_nodes = *n;
        break;
    }
    case id::top:
        r.top = v.u;
        break;
    case id::from:
        r.from = v.text;
        break;
    case id::kind: {
        std::vector<std::string> kinds;
        split_list(v.text, kinds);
        for (const auto& k : kinds) {
            answer_kind a{};
            if (!answer_kind_from_name(k, a)) return bad(o, fmt::format("\"{}\"; expected {}", k, o.values));
            p.kinds |= static_cast<std::uint8_t>(1u << static_cast<unsigned>(a));
        }
        break;
    }
    default:
        break;
    }
    return ok();
}

status apply_fit(fit_request& r, const option_spec& o, const value& v) {
    switch (o.id) {
    case id::name:
        r.hardware = v.text;
        break;
    case id::model:
        r.model = v.text;
        break;
    case id::hardware_file:
        r.hardware_file = v.text;
        break;
    case id::ctx:
        r.ctx = v.u;
        break;
    case id::batch:
        r.batch = v.u;
        break;
    case id::gpus: {
        auto n = narrow(o, v.u);
        if (!n) return n.error();
        r.gpus = *n;
        break;
    }
    case id::top:
        r.top = v.u;
        break;
    default:
        break;
    }
    return ok();
}

status apply_hardware(hardware_request& r, const option_spec& o, const value& v) {
    switch (o.id) {
    case id::list:
        r.what = hardware_request::mode::list;
        break;
    case id::filter:
        r.what = hardware_request::mode::list;
        r.filter += (r.filter.empty() ? "" : " ") + v.text;
        break;
    case id::probe:
        r.probe = true;
        break;
    case id::check:
        r.what = hardware_request::mode::check;
        break;
    case id::name:
        r.name = v.text;
        break;
    case id::hardware_file:
        r.hardware_file = v.text;
        break;
    default:
        break;
    }
    return ok();
}

status apply_check(check_request& r, const option_spec& o, const value& v) {
    switch (o.id) {
    case id::log:
        if (v.text.size() > max_log_bytes)
            return bad(o, fmt::format("more than {} MiB; expected an engine's start-up log", max_log_bytes >> 20));
        r.log = v.text;
        break;
    case id::log_name:
        r.log_name = v.text;
        break;
    case id::model:
        r.model = v.text;
        break;
    case id::weights:
        r.weights = v.text;
        break;
    default:
        break;
    }
    return ok();
}

/// The option `name` of `command`, or an error saying it is unknown or belongs to other commands.
result<const option_spec*> lookup(command_kind command, const std::string& name) {
    if (const auto* o = find_option(command, name)) return o;
    for (const auto& o : option_table())
        if (o.name == name)
            return make_error(error_code::invalid_params, fmt::format("does not apply to `{}`", command_name(command)),
                              "--" + name);
    return make_error(error_code::invalid_params, "unknown option", "--" + name);
}

status check_task(const option_spec& o, task_kind task) {
    if (o.task == task_scope::train && task != task_kind::train) return bad(o, "applies to --task train only");
    if (o.task == task_scope::infer && task == task_kind::train) return bad(o, "does not apply to --task train");
    return ok();
}

} // namespace

engine_kind default_engine(bool model_from_gguf, const weight_choice& weights) {
    const bool gguf = model_from_gguf || weights.format == weight_format::gguf;
    return gguf ? engine_kind::llama_cpp : engine_kind::transformers;
}

result<request> parse_request(command_kind command, const option_values& options, const load_options& sources) {
    request r{command, sources, {}};
    switch (command) {
    case command_kind::inspect:
        r.body = inspect_request{};
        break;
    case command_kind::models:
        r.body = models_request{};
        break;
    case command_kind::estimate:
        r.body = estimate_request{};
        break;
    case command_kind::plan:
        r.body = plan_request{};
        break;
    case command_kind::fit:
        r.body = fit_request{};
        break;
    case command_kind::hardware:
        r.body = hardware_request{};
        break;
    case command_kind::check:
        r.body = check_request{};
        break;
    }
    // The task first: whether the other options apply depends on it.
    task_kind task = task_kind::infer;
    for (const auto& [name, v] : options)
        if (name == "task" && v == "train") task = task_kind::train;
    bool lora_targets_given = false;
    for (const auto& [name, text] : options) {
        auto o = lookup(command, name);
        if (!o) return o.error();
        const option_spec& spec = **o;
        if (auto s = check_task(spec, task); !s) return s.error();
        auto v = parse_value(spec, text);
        if (!v) return v.error();
        // A model sent as bytes (load_options::uploaded) is named by its file name: no path is read.
        const bool names_source =
            (spec.id == id::model && !sources.uploaded) || spec.id == id::from || spec.id == id::draft;
        if (names_source && !sources.allow_paths && looks_like_path(v->text))
            return bad(spec, fmt::format("\"{}\" is a file-system path; expected a catalog id or a hub name "
                                         "(hf:ORG/NAME, ms:ORG/NAME)",
                                         v->text));
        if ((spec.id == id::hardware_file || spec.id == id::mmproj) && !sources.allow_paths)
            return bad(spec, "reads a local file; not accepted here (use the command line)");
        status s = ok();
        if (spec.id == id::offline) r.sources.offline = true;
        if (spec.id == id::refresh) r.sources.refresh = true;
        if (spec.id == id::timeout) {
            if (v->d < 0.1 || v->d > 3600) return bad(spec, fmt::format("{}; expected 0.1 to 3600 seconds", v->d));
            r.sources.timeout = std::chrono::milliseconds(
                detail::saturate<long long>(v->d * 1000)) /* 100 to 3,600,000: checked above */;
        }
        if (auto* e = std::get_if<estimate_request>(&r.body)) {
            e->given.push_back(spec.id);
            s = apply_estimate(*e, spec, *v, lora_targets_given);
        }
        if (auto* p = std::get_if<plan_request>(&r.body)) {
            p->estimate.given.push_back(spec.id);
            s = apply_estimate(p->estimate, spec, *v, lora_targets_given);
            if (s) s = apply_plan(*p, spec, *v);
        }
        if (auto* f = std::get_if<fit_request>(&r.body)) s = apply_fit(*f, spec, *v);
        if (auto* h = std::get_if<hardware_request>(&r.body)) s = apply_hardware(*h, spec, *v);
        if (auto* i = std::get_if<inspect_request>(&r.body)) i->model = v->text;
        if (auto* m = std::get_if<models_request>(&r.body)) m->filter = v->text;
        if (auto* c = std::get_if<check_request>(&r.body)) s = apply_check(*c, spec, *v);
        if (!s) return s.error();
    }
    auto missing_model = [] {
        return make_error(error_code::invalid_params, "missing; expected a catalog id, a hub name or a path", "MODEL");
    };
    if (auto* i = std::get_if<inspect_request>(&r.body); i && i->model.empty()) return missing_model();
    if (auto* e = std::get_if<estimate_request>(&r.body); e && e->model.empty()) return missing_model();
    if (auto* p = std::get_if<plan_request>(&r.body); p && p->estimate.model.empty()) return missing_model();
    if (auto* c = std::get_if<check_request>(&r.body); c && c->log.empty())
        return make_error(error_code::invalid_params, "missing; expected an engine's log (a file, or - for stdin)",
                          "LOG");
    if (auto* h = std::get_if<hardware_request>(&r.body); h && !h->name.empty()) {
        if (h->what == hardware_request::mode::list)
            return make_error(error_code::invalid_params, "names one row; drop list and filter", "--name");
        h->what = hardware_request::mode::show;
    }
    return r;
}

} // namespace llmplan
