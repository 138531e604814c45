// run(request) -> document: the orchestration every front end shares (load, defaults, estimate,
// candidates, plan, --from, fit, hardware).
#include "detail/strings.h"
#include "estimate/engine_defaults.h"
#include "estimate/engine_traits.h"
#include "llmplan/document.h"
#include "llmplan/train_plan.h"
#include "serve/reprice.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <memory>

// GCC 12 reports -Wmaybe-uninitialized on moving a vector into a std::variant alternative through
// result<> (a known false positive of its variant inlining, GCC PR 107138-like); clang and GCC 13 do not.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace llmplan {
namespace {

std::string_view engine_scope_name(engine_scope s) {
    return s == engine_scope::vllm ? "vllm" : s == engine_scope::checkpoint ? "vllm and transformers" : "llama.cpp";
}

/// `checkpoint` options (--image-size) size the vision tower an engine loads with the checkpoint.
bool engine_matches(engine_scope s, engine_kind e) {
    const auto& engine = detail::traits_of(e);
    return s == engine_scope::any || s == engine.own_options ||
           (s == engine_scope::checkpoint && !engine.projector_file);
}

/// The other residents named by the request: the draft model loaded, the projector file sized.
status load_residents(const estimate_request& q, const model_desc& m, const load_options& sources,
                      inference_params& p) {
    if (!q.draft.empty()) {
        auto d = load_model(q.draft, sources);
        if (!d) return make_error(d.error().code, d.error().what(), "--draft");
        p.draft = std::make_shared<const model_desc>(std::move(*d));
    }
    if (!q.mmproj.empty()) {
        auto b = projector_file_bytes(q.mmproj);
        if (!b) return make_error(b.error().code, b.error().what(), "--mmproj");
        p.mmproj_bytes = *b;
    }
    if (p.image_size && m.vision.n_layer == 0)
        return make_error(error_code::invalid_params,
                          fmt::format("{} has no vision tower (no vision_config) to size at this image size", m.id),
                          "--image-size");
    return ok();
}

/// estimate only (a plan launches several engines): an engine's own option with another engine.
status check_engine_options(const estimate_request& q, engine_kind e) {
    for (const option_id given : q.given)
        for (const auto& o : option_table())
            if (o.id == given && applies_to(o, command_kind::estimate) && !engine_matches(o.engine, e))
                return make_error(
                    error_code::invalid_params,
                    fmt::format("configures {}; the engine is {}", engine_scope_name(o.engine), engine_name(e)),
                    fmt::format("--{}", o.name));
    return ok();
}

result<estimate_document> run_estimate(const estimate_request& q, const load_options& sources, command_kind command) {
    std::optional<model_resolution> resolved;
    auto m = load_model_by_name(q.model, sources, resolved);
    if (!m) return m.error();
    estimate_document d{std::move(*m), q.task,       q.infer,      std::nullopt, q.train,
                        std::nullopt,  std::nullopt, std::nullopt, std::nullopt};
    // A name that asks for a quant (an Ollama tag, a GGUF file) plans that quant unless --weights says.
    if (resolved && !resolved->quant.empty() &&
        std::find(q.given.begin(), q.given.end(), option_id::weights) == q.given.end()) {
        auto w = parse_weight_choice(detail::lower(resolved->quant));
        if (w && q.task == task_kind::infer) d.infer.weights = *w;
    }
    d.resolved = std::move(resolved);
    if (q.task == task_kind::train) {
        auto e = estimate_training(d.model, d.train);
        if (!e) return e.error();
        d.training = std::move(*e);
        if (q.memory_bytes) d.train_fit = fit_training(d.model, d.train, *q.memory_bytes);
        return d;
    }
    d.infer.engine  = q.engine.value_or(default_engine(d.model.from_gguf, d.infer.weights));
    d.infer.weights = weights_for_engine(d.infer.weights, detail::traits_of(d.infer.engine).runs_gguf);
    if (!q.engine_version.empty()) {
        auto v = parse_engine_version(q.engine_version, d.infer.engine);
        if (!v) return v.error();
        d.infer.version = *v;
    }
    // mlx-lm runs on Apple silicon's GPU only: its default device is metal.
    if (d.infer.engine == engine_kind::mlx &&
        std::find(q.given.begin(), q.given.end(), option_id::device) == q.given.end())
        d.infer.device = device_kind::metal;
    // llama.cpp's -fa auto (b6327+): flash attention on unless --flash-attn says otherwise.
    if (d.infer.engine == engine_kind::llama_cpp &&
        std::find(q.given.begin(), q.given.end(), option_id::flash_attn) == q.given.end() &&
        detail::llama_flash_attn_by_default(d.infer.version))
        d.infer.flash_attn = true;
    if (command == command_kind::estimate)
        if (auto s = check_engine_options(q, d.infer.engine); !s) return s.error();
    if (auto s = load_residents(q, d.model, sources, d.infer); !s) return s.error();
    auto e = estimate_inference(d.model, d.infer);
    if (!e) return e.error();
    d.inference = std::move(*e);
    if (q.memory_bytes) d.fit = fit_in_memory(d.model, d.infer, *q.memory_bytes);
    return d;
}

// The built-in catalog is shared, not copied (a copy of its few hundred rows was a tenth of a plan
// request's time); a --hardware-file catalog is owned by the request.
result<std::shared_ptr<const hardware_catalog>> catalog_for(const std::string& hardware_file) {
    if (hardware_file.empty())
        return std::shared_ptr<const hardware_catalog>(std::shared_ptr<void>{}, &builtin_hardware());
    auto c = catalog_with_file(hardware_file);
    if (!c) return c.error();
    return std::make_shared<const hardware_catalog>(std::move(*c));
}

bool named(const estimate_request& e, option_id id) {
    return std::find(e.given.begin(), e.given.end(), id) != e.given.end();
}

/// Serving at load: each candidate's deployment (include/llmplan/serving.h).
void add_serving(plan_document& doc, const plan_request& q, const std::vector<const device_spec*>& cands) {
    serving_context sc;
    sc.model                = &doc.estimate.model;
    sc.infer                = doc.estimate.infer;
    sc.infer.gpus           = std::max(sc.infer.gpus, q.estimate.infer.gpus); // --gpus: the whole deployment
    sc.request              = q.serving;
    sc.gpus_given           = named(q.estimate, option_id::gpus);
    sc.max_num_seqs_given   = named(q.estimate, option_id::max_num_seqs);
    sc.batched_tokens_given = named(q.estimate, option_id::max_num_batched_tokens);
    sc.ctx_given            = named(q.estimate, option_id::ctx);
    sc.plan                 = q.plan;
    doc.serving_question    = q.serving;
    doc.serving.resize(doc.plan.candidates.size());
    doc.serving_why.resize(doc.plan.candidates.size());
    // Rows of the same chip (a card and the cloud instances built on it) share one search; each gets
    // its own prices and launch lines.
    std::map<std::string, std::pair<std::optional<serving_figures>, std::string>> by_chip;
    for (std::size_t i = 0; i < doc.plan.candidates.size(); ++i) {
        const auto& c = doc.plan.candidates[i];
        for (const auto* d : cands)
            if (d->name == c.hardware) {
                const auto key = detail::serving_chip_key(*d);
                auto it        = by_chip.find(key);
                if (it == by_chip.end()) {
                    doc.serving[i] = plan_serving(sc, *d, &doc.serving_why[i]);
                    by_chip.emplace(key, std::pair{doc.serving[i], doc.serving_why[i]});
                } else if (it->second.first) {
                    doc.serving[i] = it->second.first;
                    detail::reprice_serving(*doc.serving[i], sc, *d);
                } else {
                    doc.serving_why[i] = it->second.second;
                }
                break;
            }
    }
}

result<plan_document> run_plan(const plan_request& q, const load_options& sources) {
    if (auto s = validate(q.plan); !s) return s.error();
    if (auto s = validate(q.serving, q.estimate.infer, named(q.estimate, option_id::ctx)); !s) return s.error();
    auto catalog = catalog_for(q.hardware_file);
    if (!catalog) return catalog.error();
    estimate_request asked = q.estimate;
    // Serving: memory is planned for one request's context (prompt + output) unless --ctx says more.
    if (q.serving.on && !named(q.estimate, option_id::ctx))
        asked.infer.ctx = q.serving.input_len + q.serving.output_len;
    auto est = run_estimate(asked, sources, command_kind::plan);
    // Serving: --gpus fixes the whole deployment (instances x tensor x pipeline parallel, the contract), so
    // 32 GPUs of a model whose heads do not split 32 ways are several instances, and the memory estimate
    // is one instance's: the largest tensor-parallel size of a node that divides both.
    if (!est && q.serving.on && named(q.estimate, option_id::gpus) && q.serving.tensor_parallel == 0) {
        const unsigned pp = std::max(1u, asked.infer.pipeline_parallel), all = q.estimate.infer.gpus;
        for (unsigned tp : {8u, 4u, 2u, 1u}) {
            if (tp * pp >= all || all % (tp * pp) != 0) continue;
            asked.infer.gpus = tp * pp;
            if (auto e = run_estimate(asked, sources, command_kind::plan)) {
                est = std::move(e);
                break;
            }
        }
    }
    if (!est) return est.error();
    // Every GPU, Apple SoC, machine and cloud instance with known memory (or the ones named), plus
    // this machine.
    std::vector<const device_spec*> cands;
    if (q.hardware.empty()) cands = (*catalog)->candidates();
    if (!q.hardware.empty()) {
        // Names may hold commas ("MacBook Pro 14\" M4, 16GB") and arrive split at them: join and
        // let the catalog find the longest names.
        std::string names;
        for (const auto& n : q.hardware)
            names += (names.empty() ? "" : ",") + n;
        auto rows = (*catalog)->lookup_list(names);
        if (!rows) return make_error(rows.error().code, rows.error().what(), "--hardware");
        cands = std::move(*rows);
    }
    const auto local = to_device_spec(detect_local_hardware());
    cands.push_back(&local);
    plan_document doc{std::move(*est), {}, q.train_tokens, q.top, std::nullopt, {}, {}, {}};
    if (doc.estimate.task == task_kind::train) {
        doc.plan = make_train_plan(doc.estimate.model, doc.estimate.train, cands, q.train_tokens, q.plan);
        return doc;
    }
    doc.plan = make_plan(doc.estimate.model, doc.estimate.infer, cands, q.plan);
    if (q.serving.on) add_serving(doc, q, cands);
    if (q.from.empty()) return doc;
    estimate_request before = q.estimate;
    before.model            = q.from;
    auto from               = run_estimate(before, sources, command_kind::plan);
    if (!from) return make_error(from.error().code, from.error().what(), "--from");
    // The model run now, on this machine and on the row recommended for the one wanted.
    std::vector<const device_spec*> where{&local};
    if (doc.plan.recommendation)
        for (const auto* d : cands)
            if (d != &local && d->name == doc.plan.recommendation->hardware) where.insert(where.begin(), d);
    auto from_plan = make_plan(from->model, from->infer, where, q.plan);
    auto cmp =
        compare_plans(from->model, *from->inference, from_plan, doc.estimate.model, *doc.estimate.inference, doc.plan);
    doc.from = plan_document::from_side{std::move(*from), std::move(from_plan), std::move(cmp)};
    return doc;
}

result<fit_document> run_fit(const fit_request& q, const load_options& sources) {
    fit_hardware_options fo;
    fo.ctx   = q.ctx;
    fo.batch = q.batch;
    fo.gpus  = q.gpus;
    fo.top   = q.top;
    if (!q.model.empty()) {
        std::optional<model_resolution> resolved;
        auto m = load_model_by_name(q.model, sources, resolved);
        if (!m) return m.error();
        fo.chosen = std::move(*m);
    }
    std::vector<model_desc> models;
    for (const auto& e : catalog())
        if (auto m = load_catalog_model(e)) models.push_back(std::move(*m));
    result<fit_hardware_result> r = make_error(error_code::invalid_params, "unset");
    if (q.hardware.empty()) {
        r = fit_hardware(to_device_spec(detect_local_hardware()), models, fo);
    } else {
        auto c = catalog_for(q.hardware_file);
        if (!c) return c.error();
        r = fit_named_hardware(q.hardware, **c, models, fo);
    }
    if (!r) return r.error();
    return fit_document{std::move(*r)};
}

result<hardware_document> run_hardware(const hardware_request& q) {
    auto cat_ref = catalog_for(q.hardware_file);
    if (!cat_ref) return cat_ref.error();
    const hardware_catalog* cat = cat_ref->get();
    hardware_document d;
    d.what         = q.what;
    d.catalog_size = cat->size();
    switch (q.what) {
    case hardware_request::mode::local: {
        detect_options opts;
        if (q.probe) opts.bandwidth_cache = bandwidth_cache_mode::refresh;
        d.machine    = detect_local_hardware(opts);
        d.cache_file = bandwidth_cache_path(opts);
        d.local      = to_device_spec(d.machine, *cat);
    } break;
    case hardware_request::mode::list:
        for (const auto* row : cat->filter(q.filter.empty() ? q.filter : q.filter + " "))
            d.rows.push_back(*row);
        break;
    case hardware_request::mode::check:
        // Rows a person buys or rents (not server parts or chips sold inside machines) that lack a
        // figure; the rest are what the planner ranks.
        for (const auto& row : cat->devices()) {
            const auto pk = purchase_of(row);
            if (pk != purchase_kind::server && pk != purchase_kind::chip && !missing_figures(row).empty())
                d.rows.push_back(row);
        }
        d.ranked = cat->candidates().size();
        break;
    case hardware_request::mode::show: {
        auto row = cat->lookup(q.name);
        if (!row) return row.error();
        d.rows.push_back(**row);
        break;
    }
    }
    return d;
}

result<models_document> run_models(const models_request& q) {
    models_document d;
    for (const auto* e : search_catalog(q.filter)) {
        auto m = load_catalog_model(*e);
        if (!m) return m.error();
        d.rows.push_back({*e, std::move(*m)});
    }
    return d;
}

result<check_document> run_check(const check_request& q, const load_options& sources) {
    auto facts = parse_engine_log(q.log, q.log_name.empty() ? "LOG" : q.log_name);
    if (!facts) return facts.error();
    auto m = q.model.empty() ? model_from_log(*facts) : load_model(q.model, sources);
    if (!m) return m.error();
    if (!q.weights.empty()) {
        auto w = parse_weight_choice(q.weights);
        if (!w) return w.error();
        if (w->format == weight_format::gguf) facts->gguf_ftype = w->gguf_ftype;
    }
    auto r = check_against_log(*facts, *m);
    if (!r) return r.error();
    return check_document{std::move(*m), std::move(*r)};
}

template <class T> result<document> as_document(result<T> r) {
    if (!r) return r.error();
    return document{std::move(*r)};
}

} // namespace

result<document> run(const request& r) {
    return std::visit(
        [&](const auto& q) -> result<document> {
            using Q = std::decay_t<decltype(q)>;
            if constexpr (std::is_same_v<Q, inspect_request>) {
                std::optional<model_resolution> resolved;
                auto m = load_model_by_name(q.model, r.sources, resolved);
                if (!m) return m.error();
                return document{
                    inspect_document{std::move(*m), std::move(resolved)}
                };
            } else if constexpr (std::is_same_v<Q, models_request>) {
                return as_document(run_models(q));
            } else if constexpr (std::is_same_v<Q, estimate_request>) {
                return as_document(run_estimate(q, r.sources, command_kind::estimate));
            } else if constexpr (std::is_same_v<Q, plan_request>) {
                return as_document(run_plan(q, r.sources));
            } else if constexpr (std::is_same_v<Q, fit_request>) {
                return as_document(run_fit(q, r.sources));
            } else if constexpr (std::is_same_v<Q, check_request>) {
                return as_document(run_check(q, r.sources));
            } else {
                return as_document(run_hardware(q));
            }
        },
        r.body);
}

} // namespace llmplan
