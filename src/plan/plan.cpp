// make_plan: fit the estimate on each candidate, add roofline speed and cost, sort, recommend.
#include "llmplan/plan.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>

namespace llmplan {
namespace {

constexpr double gib = 1024.0 * 1024.0 * 1024.0;

/// How one candidate is run: the estimate's device, memory per device, GPUs to try.
struct placement {
    std::string kind;
    device_kind device = device_kind::cuda;
    std::optional<std::uint64_t> memory_bytes; ///< per device; empty: not in the table
    std::optional<std::uint64_t> bandwidth;
    double flops = 0;
    std::vector<unsigned> counts; ///< GPU counts to try, fewest first
    double efficiency = decode_efficiency_gpu;
};

placement place(const device_spec& d) {
    placement pl;
    const auto flops = d.fp16_flops ? *d.fp16_flops : d.fp32_flops ? *d.fp32_flops : 0.0;
    auto as_cpu      = [&](std::string kind) {
        pl.kind         = std::move(kind);
        pl.device       = device_kind::cpu;
        pl.memory_bytes = d.host_memory_bytes;
        pl.bandwidth =
            d.host_memory_bandwidth_bytes_per_s ? d.host_memory_bandwidth_bytes_per_s : d.memory_bandwidth_bytes_per_s;
        pl.flops      = d.fp32_flops ? *d.fp32_flops
                             : d.cores    ? *d.cores * cpu_core_clock_hz * cpu_core_flops_per_cycle
                                          : 0.0;
        pl.counts     = {1};
        pl.efficiency = decode_efficiency_cpu;
    };
    auto as_gpu = [&](std::string kind, std::vector<unsigned> counts) {
        pl.kind         = std::move(kind);
        pl.device       = d.unified_memory ? device_kind::metal : device_kind::cuda;
        pl.memory_bytes = d.memory_bytes;
        pl.bandwidth    = d.memory_bandwidth_bytes_per_s;
        pl.flops        = flops;
        pl.counts       = std::move(counts);
    };
    switch (d.kind) {
    case hardware_kind::gpu:
        as_gpu("gpu", {1, 2, 4, 8});
        break;
    case hardware_kind::apple:
        as_gpu("apple", {1});
        break;
    case hardware_kind::cpu:
        as_cpu("cpu");
        break;
    case hardware_kind::laptop:
        if (d.has_accelerator())
            as_gpu(d.unified_memory ? "apple" : "gpu", {d.gpu_count});
        else
            as_cpu("cpu");
        break;
    case hardware_kind::cloud:
        if (d.has_accelerator())
            as_gpu("cloud", {d.gpu_count});
        else
            as_cpu("cloud");
        break;
    case hardware_kind::local:
        if (d.has_accelerator())
            as_gpu("local", {d.gpu_count});
        else
            as_cpu("local");
        break;
    }
    return pl;
}

std::string gib_str(double bytes) {
    return fmt::format("{:.1f} GiB", bytes / gib);
}

std::string gguf_name(const model_desc& m, const inference_params& p) {
    if (m.from_gguf) return m.gguf_path.empty() ? m.id : m.gguf_path;
    std::string base        = m.id.substr(m.id.find_last_of('/') + 1);
    const std::string ftype = p.weights.format == weight_format::gguf ? p.weights.gguf_ftype : "f16";
    return base + "-" + ftype + ".gguf";
}

/// Ollama (runs GGUF files on llama.cpp) sets the context per model in a Modelfile line
/// `PARAMETER num_ctx N` (docs/modelfile.md; the API takes the same as {"options": {"num_ctx": N}}).
/// num_ctx is per request; parallel requests come from the server's OLLAMA_NUM_PARALLEL (docs/faq.md),
/// and Ollama allocates num_ctx x that many slots, as llama-server's -c above.
std::string ollama_line(const std::string& gguf, const inference_params& p) {
    std::string tag = gguf.substr(0, gguf.rfind(".gguf"));
    tag             = tag.substr(tag.find_last_of('/') + 1);
    std::transform(tag.begin(), tag.end(), tag.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    std::string s = fmt::format("printf 'FROM {}\\nPARAMETER num_ctx {}\\n' > Modelfile && ollama create {} -f "
                                "Modelfile && ollama run {}",
                                gguf.find('/') == std::string::npos ? "./" + gguf : gguf, p.ctx, tag, tag);
    if (p.batch > 1) s = fmt::format("OLLAMA_NUM_PARALLEL={} ollama serve & ", p.batch) + s;
    return s;
}

std::vector<std::pair<std::string, std::string>> launch_lines(const model_desc& m, const inference_params& p,
                                                              unsigned count, unsigned nodes) {
    std::vector<std::pair<std::string, std::string>> out;
    if (p.engine == engine_kind::llama_cpp) {
        // llama-server's -c is the context of all slots together: ctx x parallel sequences.
        std::string s = fmt::format("llama-server -m {} -c {} -ngl {} -np {}", gguf_name(m, p), p.ctx * p.batch,
                                    p.device == device_kind::cpu ? 0
                                    : p.gpu_layers >= 0          ? p.gpu_layers
                                                                 : 99,
                                    p.batch);
        if (p.flash_attn) s += " -fa on";
        if (p.kv_type) s += fmt::format(" -ctk {0} -ctv {0}", name(*p.kv_type));
        if (count > 1 && p.device != device_kind::cpu) {
            // Layer split (the default --split-mode), equal shares for equal GPUs.
            std::string ts = "1";
            for (unsigned i = 1; i < count / nodes; ++i)
                ts += ",1";
            s += fmt::format(" -sm layer -ts {}", ts);
        }
        if (nodes > 1) {
            // llama.cpp spans machines through its RPC backend (tools/rpc): one rpc-server per other
            // node, listed with --rpc; layers are split over local and remote devices.
            std::string hosts;
            for (unsigned i = 1; i < nodes; ++i)
                hosts += fmt::format("{}node{}:50052", i > 1 ? "," : "", i);
            s += " --rpc " + hosts;
            out.emplace_back("llama.cpp rpc (on each other node)", "rpc-server -H 0.0.0.0 -p 50052");
        }
        out.emplace_back("llama.cpp", std::move(s));
        if (nodes == 1) out.emplace_back("ollama", ollama_line(gguf_name(m, p), p));
    } else if (p.engine == engine_kind::vllm && p.device == device_kind::cuda) {
        const unsigned pp = std::max(1u, p.pipeline_parallel);
        std::string s     = fmt::format("vllm serve {} --tensor-parallel-size {}", m.id, count / pp);
        if (pp > 1) s += fmt::format(" --pipeline-parallel-size {}", pp);
        s += fmt::format(" --max-model-len {} --gpu-memory-utilization {} --max-num-seqs {}", p.ctx,
                         p.gpu_memory_utilization, p.batch);
        if (p.kv_type && *p.kv_type == dtype::f8_e4m3) s += " --kv-cache-dtype fp8";
        if (pp > 1) {
            // vLLM runs multi-node through a Ray cluster (docs: "Distributed inference and serving").
            out.emplace_back("ray (node0)", "ray start --head --port 6379");
            out.emplace_back("ray (each other node)", "ray start --address node0:6379");
            s += " --distributed-executor-backend ray";
        }
        out.emplace_back("vllm", std::move(s));
    }
    return out;
}

/// GPU counts to try, fewest first, with the nodes each spans.
std::vector<std::pair<unsigned, unsigned>> attempts(const device_spec& d, const placement& pl, unsigned max_nodes) {
    std::vector<std::pair<unsigned, unsigned>> out;
    for (unsigned n : pl.counts)
        out.emplace_back(n, 1);
    if (pl.device == device_kind::cpu || pl.kind == "apple") return out;
    if (d.kind == hardware_kind::gpu)
        for (unsigned nodes = 2; nodes <= max_nodes; nodes *= 2)
            out.emplace_back(gpus_per_node * nodes, nodes);
    else if (d.kind == hardware_kind::cloud && d.gpu_count > 0)
        for (unsigned nodes = 2; nodes <= max_nodes; nodes *= 2)
            out.emplace_back(d.gpu_count * nodes, nodes);
    return out;
}

/// Where a model that fits nowhere else runs: one layer split over nodes (llama.cpp RPC) or
/// tensor parallel inside a node and pipeline stages across (vLLM; transformers cannot span nodes).
inference_params for_nodes(inference_params p, unsigned count, unsigned nodes) {
    p.gpus              = count;
    p.pipeline_parallel = 1;
    if (nodes > 1 && p.engine != engine_kind::llama_cpp) {
        p.engine            = engine_kind::vllm;
        p.pipeline_parallel = nodes;
    }
    return p;
}

/// What must fit the placement's memory: the accelerators' largest device on a GPU (the host side
/// of a llama.cpp GPU run is checked against RAM separately), the whole CPU device on a CPU.
std::int64_t device_need(const inference_estimate& e, device_kind placed) {
    std::int64_t need = 0;
    for (const auto& dev : e.devices)
        if (placed == device_kind::cpu || dev.kind != device_kind::cpu) need = std::max(need, dev.total_bytes());
    if (need == 0)
        for (const auto& dev : e.devices)
            need = std::max(need, dev.total_bytes());
    return need;
}

std::int64_t host_need(const inference_estimate& e) {
    std::int64_t host = 0;
    for (const auto& dev : e.devices)
        if (dev.kind == device_kind::cpu) host += dev.total_bytes();
    return host;
}

struct offload_fit {
    inference_params params;
    inference_estimate estimate;
};

/// The most layers (-ngl) whose GPU side fits `have` bytes: memory grows with the layers on the GPU,
/// so a binary search over 0..n_layer-1 finds it. Empty when not even the GPU's fixed part fits.
std::optional<offload_fit> fit_offload(const model_desc& m, inference_params p, std::int64_t have) {
    std::optional<offload_fit> best;
    std::int64_t lo = 0, hi = static_cast<std::int64_t>(m.n_layer) - 1;
    while (lo <= hi) {
        const std::int64_t mid = (lo + hi) / 2;
        p.gpu_layers           = mid;
        auto e                 = estimate_inference(m, p);
        if (e && device_need(*e, p.device) <= have) {
            best = offload_fit{p, std::move(*e)};
            lo   = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return best;
}

/// Decode with offloaded layers: the GPU's bytes at its bandwidth, then the host's at its own
/// (decode_efficiency_gpu / _cpu of each); the CPU-resident input embedding reads one row a token.
double offload_decode_tokens_per_s(const inference_estimate& e, const inference_params& p, double gpu_bw,
                                   double host_bw) {
    double gpu_s = 0, host_s = 0;
    for (const auto& dev : e.devices) {
        if (dev.kind == device_kind::cpu) {
            const double w = static_cast<double>(dev.parts.weights) - static_cast<double>(e.weights.token_embd_bytes);
            host_s += (std::max(0.0, w) + static_cast<double>(dev.parts.kv_cache)) / (decode_efficiency_cpu * host_bw);
        } else {
            gpu_s += static_cast<double>(dev.parts.weights + dev.parts.kv_cache) / (decode_efficiency_gpu * gpu_bw);
        }
    }
    const double step = gpu_s + host_s;
    return step > 0 ? static_cast<double>(p.batch) / step : 0;
}

plan_candidate evaluate(const model_desc& m, const inference_params& base, const device_spec& d,
                        std::uint64_t active_params, const plan_options& o) {
    const placement pl = place(d);
    plan_candidate c;
    c.hardware            = d.name;
    c.kind                = pl.kind;
    c.runs_on             = pl.device == device_kind::cpu ? "cpu" : pl.device == device_kind::metal ? "apple" : "gpu";
    inference_params p    = base;
    p.device              = pl.device;
    p.device_memory_bytes = 0; // the estimate reports what the plan needs, not a vLLM pool
    if (p.device != device_kind::cuda && p.engine == engine_kind::vllm) p.engine = engine_kind::llama_cpp;

    std::optional<inference_estimate> est;
    std::int64_t need = 0, have = 0;
    for (auto [n, nodes] : attempts(d, pl, o.max_nodes)) {
        inference_params q = for_nodes(p, p.device == device_kind::cpu ? 1 : std::max(1u, n), nodes);
        if (q.pipeline_parallel > m.n_layer) break;
        auto e = estimate_inference(m, q);
        if (!e) {
            if (est) break; // a larger split the engine cannot make: keep the last one
            c.reasons.push_back(fmt::format("cannot estimate: {}", e.error().what()));
            return c;
        }
        need = device_need(*e, q.device);
        // vLLM pre-allocates gpu_memory_utilization of each GPU; the rest must hold the estimate.
        const double usable = q.engine == engine_kind::vllm ? q.gpu_memory_utilization : 1.0;
        have    = pl.memory_bytes ? static_cast<std::int64_t>(usable * static_cast<double>(*pl.memory_bytes)) : 0;
        c.count = n;
        c.nodes = nodes;
        est     = std::move(*e);
        p       = q;
        if (pl.memory_bytes && need <= have) break;
    }
    // llama.cpp on one GPU that is too small: keep as many layers on it as fit, the rest in the
    // machine's RAM (-ngl N). Only where the machine is known (a laptop, an instance, this machine);
    // unified memory has nothing to offload to.
    std::optional<offload_fit> off;
    if (est && pl.memory_bytes && need > have && p.engine == engine_kind::llama_cpp && p.device == device_kind::cuda &&
        c.nodes == 1 && d.kind != hardware_kind::gpu && !d.unified_memory) {
        off = fit_offload(m, p, have);
        if (off) {
            p                       = off->params;
            est                     = off->estimate;
            need                    = device_need(*est, p.device);
            const std::int64_t host = host_need(*est);
            c.reasons.push_back(fmt::format("offload: {} of {} layers on the GPU (-ngl {}), the rest in RAM ({} there)",
                                            p.gpu_layers, m.n_layer, p.gpu_layers, gib_str(static_cast<double>(host))));
            if (d.host_memory_bytes && host > static_cast<std::int64_t>(*d.host_memory_bytes)) {
                c.reasons.push_back(fmt::format("the RAM ({}) cannot hold the rest",
                                                gib_str(static_cast<double>(*d.host_memory_bytes))));
                need = have + (host - static_cast<std::int64_t>(*d.host_memory_bytes)); // short by that much
            }
        }
    }
    if (pl.memory_bytes) {
        c.fits           = need <= have;
        c.headroom_bytes = have - need;
        if (c.fits)
            c.reasons.push_back(fmt::format("fits with {} headroom", gib_str(static_cast<double>(c.headroom_bytes))));
        else
            c.reasons.push_back(fmt::format("does not fit: needs {}, has {}{}", gib_str(static_cast<double>(need)),
                                            gib_str(static_cast<double>(have)),
                                            c.nodes > 1 ? fmt::format(" even on {} nodes", c.nodes) : ""));
        if (c.count > 1 && d.kind == hardware_kind::gpu && c.nodes == 1)
            c.reasons.push_back(fmt::format("needs {} GPUs", c.count));
        if (c.nodes > 1)
            c.reasons.push_back(fmt::format(
                "needs {} nodes ({} GPUs): {}", c.nodes, c.count,
                p.engine == engine_kind::vllm
                    ? fmt::format("vLLM tensor parallel {} in a node x pipeline parallel {} across nodes{}",
                                  c.count / c.nodes, c.nodes,
                                  base.engine == engine_kind::transformers ? " (transformers cannot span nodes)" : "")
                    : "llama.cpp layer split over RPC"));
    } else {
        c.fits = true; // the table has no RAM figure: assume the machine is built with enough
        c.reasons.push_back(
            fmt::format("memory not in the table: needs {} of RAM", gib_str(static_cast<double>(need))));
    }

    // Tensor parallel (vLLM) reads 1/N of the bytes on each GPU at once; layer splits and pipeline
    // stages run in turn for one token.
    const unsigned parallel = p.engine == engine_kind::vllm ? c.count / std::max(1u, p.pipeline_parallel) : 1;
    if (off && pl.bandwidth) {
        // Layers run in turn: the GPU's share at its bandwidth, then the RAM's share at the host's.
        const auto host_bw = d.host_memory_bandwidth_bytes_per_s;
        if (host_bw)
            c.decode_tokens_per_s =
                offload_decode_tokens_per_s(*est, p, static_cast<double>(*pl.bandwidth), static_cast<double>(*host_bw));
        else
            c.reasons.push_back("host memory bandwidth not in the table: no decode speed with offload");
    } else if (pl.bandwidth) { // engine-aware step time (include/llmplan/speed.h)
        c.decode_tokens_per_s =
            decode_tokens_per_s(m, *est, p, static_cast<double>(*pl.bandwidth), pl.efficiency, parallel);
    } else
        c.reasons.push_back("memory bandwidth not in the table: no decode speed");
    c.prefill_tokens_per_s   = prefill_tokens_per_s(active_params, pl.flops, parallel);
    const double prompt      = static_cast<double>(p.prompt ? p.prompt : p.ctx) * static_cast<double>(p.batch);
    c.ttft_s                 = c.prefill_tokens_per_s > 0 ? prompt / c.prefill_tokens_per_s : 0;
    const double per_request = c.decode_tokens_per_s / static_cast<double>(p.batch);
    // Unknown speed is not "fast enough"; an unknown prefill rate leaves the first-token wait unjudged.
    c.meets_speed = c.decode_tokens_per_s > 0 && per_request >= o.min_tokens_per_s && c.ttft_s <= o.max_ttft_s;
    if (c.prefill_tokens_per_s <= 0) c.reasons.push_back("compute rate not in the table: no prefill speed");
    if (c.decode_tokens_per_s > 0 && per_request < o.min_tokens_per_s)
        c.reasons.push_back(
            fmt::format("slow: {:.1f} tokens/s per request, {:.1f} wanted", per_request, o.min_tokens_per_s));
    if (c.ttft_s > o.max_ttft_s)
        c.reasons.push_back(fmt::format("first token after {:.0f} s ({:.0f} prompt tokens), {:.0f} s wanted", c.ttft_s,
                                        prompt, o.max_ttft_s));

    if (auto cost = hourly_cost(d, c.count, c.nodes, o)) {
        c.cost_per_hour_usd = cost->usd_per_hour;
        c.power_w           = cost->power_w;
        if (!cost->reason.empty()) c.reasons.push_back(std::move(cost->reason));
    }
    if (c.cost_per_hour_usd && c.decode_tokens_per_s > 0)
        c.cost_per_million_tokens_usd = *c.cost_per_hour_usd / (c.decode_tokens_per_s * 3600.0 * o.utilization) * 1e6;
    c.launch = launch_lines(m, p, c.count, c.nodes);
    return c;
}

/// The article's question, answered from the candidates: a CPU when one that fits is fast enough
/// for each request (and answers the prompt in time), else a GPU, with the figures that decided it.
std::optional<cpu_or_gpu_answer> cpu_or_gpu(const std::vector<plan_candidate>& cands, const plan_options& o) {
    const plan_candidate *cpu = nullptr, *cpu_fast = nullptr, *gpu = nullptr;
    for (const auto& c : cands) {
        if (!c.fits) continue;
        if (c.runs_on == "cpu") {
            // A CPU row without a price cannot be weighed against a GPU (and the unpriced rows are the
            // big server and Apple parts): the answer rests on CPUs one can price, and this machine.
            if (!c.cost_per_hour_usd && c.kind != "local") continue;
            if (!cpu || c.decode_tokens_per_s > cpu->decode_tokens_per_s) cpu = &c;
            if (!cpu_fast && c.meets_speed) cpu_fast = &c;
        } else if (!gpu && c.meets_speed) {
            gpu = &c;
        }
    }
    if (!cpu && !gpu) return std::nullopt;
    auto cost = [](const plan_candidate* c) {
        return c->cost_per_million_tokens_usd
                   ? fmt::format("${:.3f} per million tokens", *c->cost_per_million_tokens_usd)
                   : std::string("no price known");
    };
    cpu_or_gpu_answer a;
    if (cpu_fast) {
        a.choice = "cpu";
        a.why.push_back(fmt::format("a CPU is enough: {} decodes {:.1f} tokens/s, {:.1f} wanted per request, and "
                                    "answers the prompt in {:.1f} s",
                                    cpu_fast->hardware, cpu_fast->decode_tokens_per_s, o.min_tokens_per_s,
                                    cpu_fast->ttft_s));
        if (gpu)
            a.why.push_back(
                fmt::format("a GPU ({}) {} {:.0f} tokens/s at {}; the CPU costs {}", gpu->hardware,
                            gpu->decode_tokens_per_s > cpu_fast->decode_tokens_per_s ? "is faster:" : "gives",
                            gpu->decode_tokens_per_s, cost(gpu), cost(cpu_fast)));
        a.why.push_back("more concurrent requests or longer prompts would move the choice to a GPU: try --batch and "
                        "--prompt");
        return a;
    }
    a.choice = "gpu";
    if (!cpu) {
        a.why.push_back("no CPU machine in the list holds it in RAM");
    } else {
        for (const auto& r : cpu->reasons)
            if (r.rfind("slow:", 0) == 0 || r.rfind("first token", 0) == 0)
                a.why.push_back(fmt::format("on the fastest CPU that holds it ({}): {}", cpu->hardware, r));
    }
    if (gpu)
        a.why.push_back(fmt::format("{} x {} decodes {:.0f} tokens/s and answers the prompt in {:.1f} s, at {}",
                                    gpu->count, gpu->hardware, gpu->decode_tokens_per_s, gpu->ttft_s, cost(gpu)));
    else
        a.why.push_back("no candidate reaches the wanted speed; the fastest that fits is listed first among GPUs");
    return a;
}

} // namespace

std::optional<hourly_cost_figures> hourly_cost(const device_spec& d, unsigned count, unsigned nodes,
                                               const plan_options& o) {
    hourly_cost_figures f;
    if (d.price_usd_per_hour) {
        f.usd_per_hour = *d.price_usd_per_hour * nodes;
        if (nodes > 1) f.reason = fmt::format("{} instances at ${:.2f}/h each", nodes, *d.price_usd_per_hour);
        return f;
    }
    if (!d.price_usd) return std::nullopt;
    // A GPU row is one card: the plan buys `count` of them; a machine row is bought once a node.
    const unsigned units = d.kind == hardware_kind::gpu ? count : nodes;
    const double buy     = *d.price_usd * units / (o.life_years * 8760.0);
    if (d.tdp_w) f.power_w = *d.tdp_w * units;
    const double energy = f.power_w ? *f.power_w / 1000.0 * o.utilization * o.pue * o.electricity_usd_per_kwh : 0.0;
    f.usd_per_hour      = buy + energy;
    f.reason = f.power_w ? fmt::format("cost: ${:.0f} over {:g} years (${:.3f}/h) + {:.0f} W at ${:.3f}/kWh x "
                                       "PUE {:g} x utilization {:g} (${:.3f}/h){}",
                                       *d.price_usd * units, o.life_years, buy, *f.power_w, o.electricity_usd_per_kwh,
                                       o.pue, o.utilization, energy,
                                       d.kind == hardware_kind::gpu ? "; the host machine is not counted" : "")
                         : fmt::format("cost: ${:.0f} over {:g} years; power not counted (no TDP in the table)",
                                       *d.price_usd * units, o.life_years);
    return f;
}

bool cheapest_first(const plan_candidate& a, const plan_candidate& b) {
    if (a.fits != b.fits) return a.fits;
    if (!a.fits) return a.headroom_bytes > b.headroom_bytes; // closest to fitting first
    const bool ac = a.cost_per_million_tokens_usd.has_value(), bc = b.cost_per_million_tokens_usd.has_value();
    if (ac != bc) return ac;
    if (ac && *a.cost_per_million_tokens_usd != *b.cost_per_million_tokens_usd)
        return *a.cost_per_million_tokens_usd < *b.cost_per_million_tokens_usd;
    const double ta = a.training ? a.training->train_tokens_per_s : a.decode_tokens_per_s;
    const double tb = b.training ? b.training->train_tokens_per_s : b.decode_tokens_per_s;
    return ta > tb;
}

status validate(const plan_options& o) {
    auto bad = [](const char* opt, std::string msg) {
        return make_error(error_code::invalid_params, std::move(msg), opt);
    };
    if (!(o.electricity_usd_per_kwh >= 0)) return bad("--electricity-price", "expected a price of 0 or more");
    if (!(o.pue >= 1.0 && o.pue < 10.0)) return bad("--pue", "expected a PUE from 1 (no overhead) to 10");
    if (!(o.utilization > 0 && o.utilization <= 1)) return bad("--utilization", "expected a share in (0, 1]");
    if (!(o.life_years > 0 && o.life_years <= 50)) return bad("--life-years", "expected 0 to 50 years");
    if (!(o.min_tokens_per_s >= 0)) return bad("--min-tokens-per-s", "expected 0 or more");
    if (!(o.max_ttft_s > 0)) return bad("--max-ttft", "expected a positive number of seconds");
    if (o.max_nodes == 0 || o.max_nodes > 1024) return bad("--max-nodes", "expected 1 to 1024");
    return ok();
}

plan_result make_plan(const model_desc& m, const inference_params& p, const std::vector<const device_spec*>& candidates,
                      const plan_options& o) {
    plan_result r;
    r.options         = o;
    const auto active = count_params(m).active;
    for (const device_spec* d : candidates)
        if (d) r.candidates.push_back(evaluate(m, p, *d, active, o));
    std::stable_sort(r.candidates.begin(), r.candidates.end(), cheapest_first);
    r.cpu_or_gpu = cpu_or_gpu(r.candidates, o);
    // This machine when it already does the job; else, when a CPU is enough, the CPU that costs
    // least per hour to have (at low traffic the hours, not the tokens, are what is paid for); else
    // the cheapest per token that fits and is fast enough; else the cheapest that fits.
    const plan_candidate* pick = nullptr;
    std::string because;
    for (const auto& c : r.candidates)
        if (c.kind == "local" && c.fits && c.meets_speed) {
            pick    = &c;
            because = fmt::format("this machine already runs it at {:.0f} tokens/s: nothing to buy or rent",
                                  c.decode_tokens_per_s);
        }
    if (!pick && r.cpu_or_gpu && r.cpu_or_gpu->choice == "cpu") {
        for (const auto& c : r.candidates)
            if (c.fits && c.meets_speed && c.runs_on == "cpu" && c.cost_per_hour_usd &&
                (!pick || *c.cost_per_hour_usd < *pick->cost_per_hour_usd))
                pick = &c;
        if (pick)
            because = fmt::format("a CPU is enough; the cheapest to keep: ${:.3f}/h, {:.0f} tokens/s",
                                  *pick->cost_per_hour_usd, pick->decode_tokens_per_s);
    }
    if (!pick)
        for (const auto& c : r.candidates)
            if (c.fits && c.meets_speed) {
                pick = &c;
                because =
                    c.cost_per_million_tokens_usd
                        ? fmt::format("cheapest that fits and is fast enough: ${:.3f} per million tokens at {:.0f} "
                                      "tokens/s",
                                      *c.cost_per_million_tokens_usd, c.decode_tokens_per_s)
                        : fmt::format("fits and is fast enough; no price known; {:.0f} tokens/s",
                                      c.decode_tokens_per_s);
                break;
            }
    if (!pick && !r.candidates.empty() && r.candidates.front().fits) {
        pick    = &r.candidates.front();
        because = fmt::format("nothing is as fast as wanted; the cheapest that fits: {:.0f} tokens/s",
                              pick->decode_tokens_per_s);
    }
    if (pick) {
        plan_recommendation rec{pick->hardware, pick->count, pick->reasons,
                                static_cast<std::size_t>(pick - r.candidates.data())};
        rec.why.push_back(std::move(because));
        r.recommendation = std::move(rec);
    }
    return r;
}

} // namespace llmplan
