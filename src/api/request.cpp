// Name/value pairs -> a request, through the option table: one parser for the CLI and the web API.
#include "llmplan/request.h"

#include "api/request_detail.h"
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
namespace request_detail {

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
    case id::trainer: {
        trainer_choice c;
        if (auto why = read_trainer(v.text, c)) return bad(o, fmt::format("\"{}\"; expected {}", v.text, *why));
        t.trainer         = std::string(c.row->name);
        t.trainer_release = c.release;
        t.trainer_asked   = c.match == trainer_match::exact ? std::string() : std::string(v.text);
        break;
    }
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

} // namespace request_detail

engine_kind default_engine(bool model_from_gguf, const weight_choice& weights) {
    const bool gguf = model_from_gguf || weights.format == weight_format::gguf;
    return gguf ? engine_kind::llama_cpp : engine_kind::transformers;
}

result<request> parse_request(command_kind command, const option_values& options, const load_options& sources) {
    using namespace request_detail;
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
