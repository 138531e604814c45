// Ways to make a model fit a row it does not fit (plan.h, fit_option): the request changed in one
// respect (context, KV type, weight quantization, experts in RAM, GPUs) and evaluated again with the
// same estimators as the plan, never guessed.
#include "estimate/engine_traits.h"
#include "plan/detail.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>

namespace llmplan::detail {
namespace {

/// llama.cpp's quantizations from large to small (llama-quantize's usual ladder: 8.5, 6.6, 5.7, 4.9,
/// 3.9 and 3.0 bits a weight for a 7B); a smaller quant is the first of these below the current.
constexpr std::array<std::string_view, 6> gguf_ladder = {"q8_0", "q6_k", "q5_k_m", "q4_k_m", "q3_k_m", "q2_k"};

/// Bits a weight of a GGUF type name on that ladder (for "below the current"); 16 for anything else.
std::size_t ladder_start(const weight_choice& w) {
    if (w.format != weight_format::gguf) return 0;
    for (std::size_t i = 0; i < gguf_ladder.size(); ++i)
        if (gguf_ladder[i] == w.gguf_ftype) return i + 1;
    return gguf_ladder.size(); // an unlisted (already small) type: nothing smaller offered
}

fit_option judged(fit_way way, std::uint64_t value, std::string setting, const plan_candidate& c) {
    fit_option f;
    f.way                 = way;
    f.value               = value;
    f.setting             = std::move(setting);
    f.fits                = c.fits;
    f.headroom_bytes      = c.headroom_bytes;
    f.decode_tokens_per_s = c.decode_tokens_per_s;
    for (const auto& r : c.findings)
        if (r.code == reason_code::offload_experts || r.code == reason_code::offload_layers) f.host_bytes = r.bytes;
    f.launch = c.launch; // the lines that run it so (kept on the rows a person reads first: make_plan)
    return f;
}

} // namespace

std::vector<fit_option> ways_to_fit(const model_desc& m, const inference_params& base, const device_spec& d,
                                    const plan_candidate& c, const plan_options& o, estimate_memo& memo) {
    std::vector<fit_option> out;
    // The engine the candidate runs: the asked one, or llama.cpp where it does not run (evaluate).
    const device_kind where = c.runs_on.value_or(device_kind::cuda); // set by evaluate
    const auto& engine      = traits_of(engine_on(base.engine, where));
    const bool llama        = engine.runs_gguf;
    auto try_params         = [&](fit_way way, std::uint64_t value, std::string setting, const inference_params& q) {
        const plan_candidate e = evaluate(m, q, d, o, memo);
        if (e.headroom_bytes > c.headroom_bytes || e.fits) out.push_back(judged(way, value, std::move(setting), e));
        return e.fits;
    };

    // 1. A shorter context: halve until it fits (the KV cache and llama.cpp's KQ buffer shrink with it).
    for (std::uint64_t ctx = base.ctx / 2; ctx >= 512; ctx /= 2) {
        inference_params q = base;
        q.ctx              = ctx;
        if (q.prompt > ctx) q.prompt = ctx;
        const plan_candidate e = evaluate(m, q, d, o, memo);
        if (e.fits) {
            out.push_back(judged(fit_way::shorter_context, ctx, fmt::format("--ctx {}", ctx), e));
            break;
        }
    }
    // 2. A quantized KV cache: the engine's smaller KV types in order (llama.cpp q8_0 then q4_0, which
    // need flash attention for the V cache: llama-context.cpp refuses a quantized V cache without it;
    // vLLM fp8).
    for (std::string_view kv : words_of(engine.smaller_kv_types)) {
        inference_params q  = base;
        q.kv_type           = dtype_from_name(kv);
        std::string setting = fmt::format("--kv-type {}", kv);
        if (engine.quantized_v_needs_flash_attn) {
            q.flash_attn = true;
            setting += " --flash-attn on";
        }
        if (try_params(fit_way::quantized_kv, 0, std::move(setting), q)) break;
    }
    // 3. A smaller quantization of the weights, made from the checkpoint the user has (AWQ, GPTQ and FP8
    // need checkpoints of their own, so they are not offered):
    //  - llama.cpp: the GGUF ladder (llama-quantize makes each from the checkpoint);
    //  - transformers on a GPU: bitsandbytes quantizes as it loads (from_pretrained with
    //    BitsAndBytesConfig: LLM.int8(), then NF4; transformers docs "bitsandbytes");
    //  - transformers on a Mac or a CPU, where people run GGUF files: llama.cpp and the same ladder.
    const bool checkpoint_16bit = !m.from_gguf && m.quant.method == quant_method::none;
    if (engine.quantizes_on_load && where == device_kind::cuda && checkpoint_16bit &&
        !is_quantized(base.weights.format)) {
        for (auto [format, word] : {
                 std::pair{weight_format::int8, "int8"},
                 std::pair{weight_format::nf4,  "nf4" }
        }) {
            inference_params q = base;
            q.weights          = weight_choice{format, {}};
            if (try_params(fit_way::smaller_quant, 0, fmt::format("--weights {}", word), q)) break;
        }
    }
    // Off a CUDA GPU the candidate's engine is llama.cpp or transformers (vLLM runs only there).
    const bool to_llama = !llama && where != device_kind::cuda;
    if ((llama && !m.from_gguf) || (to_llama && checkpoint_16bit)) {
        // Down the ladder to the first quant that fits, and on to the first that is also fast enough
        // (a smaller file reads faster per token) when the first is not.
        const std::size_t start = ladder_start(base.weights);
        const auto usual_at     = static_cast<std::size_t>(
            std::find(gguf_ladder.begin(), gguf_ladder.end(), std::string_view("q4_k_m")) - gguf_ladder.begin());
        bool fitted = false, fast = false, usual_tried = start > usual_at;
        for (std::size_t i = start; i < gguf_ladder.size(); ++i) {
            inference_params q     = base;
            q.engine               = engine_kind::llama_cpp;
            q.weights              = weight_choice{weight_format::gguf, std::string(gguf_ladder[i])};
            const plan_candidate e = evaluate(m, q, d, o, memo);
            const std::string setting =
                fmt::format("{}--weights {}", to_llama ? "--engine llama.cpp " : "", gguf_ladder[i]);
            // Q4_K_M, the type llama.cpp's -hf and Ollama pull by default, is listed whenever it fits: a
            // laptop answered "q8_0 at 4.9 tokens/s" should also hear of Q4_K_M at nearly twice that.
            const bool usual = gguf_ladder[i] == "q4_k_m";
            // Listed: the first that fits, the first also fast enough, and Q4_K_M; the ladder goes on
            // past the first fast enough only as far as Q4_K_M.
            if (e.fits && (!fitted || (e.meets_speed && !fast) || usual))
                out.push_back(judged(fit_way::smaller_quant, 0, setting, e));
            if (!e.fits && !fitted && e.headroom_bytes > c.headroom_bytes)
                out.push_back(judged(fit_way::smaller_quant, 0, setting, e));
            fitted      = fitted || e.fits;
            fast        = fast || (e.fits && e.meets_speed);
            usual_tried = usual_tried || usual;
            if (fast && usual_tried) break;
        }
    }
    // 4. Experts in RAM (llama.cpp --n-cpu-moe N, the fewest layers that fit): the plan already does
    // it where it knows the machine's RAM; a bare card lists it (the host RAM they take is shown; its
    // speed needs the host's bandwidth, unknown for a card alone).
    if (m.is_moe() && engine.offloads_to_host && where == device_kind::cuda && d.kind == hardware_kind::gpu) {
        std::optional<plan_candidate> best;
        std::uint32_t lo = 1, hi = m.n_layer, n = 0;
        while (lo <= hi) {
            inference_params q = base;
            q.engine           = engine_kind::llama_cpp;
            q.cpu_moe_layers   = lo + (hi - lo) / 2;
            auto e             = evaluate(m, q, d, o, memo);
            if (e.fits && e.count == 1) {
                n    = q.cpu_moe_layers;
                best = std::move(e);
                hi   = q.cpu_moe_layers - 1;
            } else {
                lo = q.cpu_moe_layers + 1;
            }
        }
        if (best) {
            auto f             = judged(fit_way::experts_on_cpu, n, fmt::format("--n-cpu-moe {}", n), *best);
            std::uint64_t host = 0;
            if (const auto w = estimate_weights(m, base.weights))
                for (std::uint32_t i = 0; i < n && i < w->layer_expert_bytes.size(); ++i)
                    host += w->layer_expert_bytes[i];
            f.host_bytes = static_cast<std::int64_t>(host);
            out.push_back(std::move(f));
        }
    }
    // 5. Another GPU of the same kind in a machine (a second card in a desktop; a bigger instance is
    // another row). Bare cards already try 1, 2, 4, 8.
    if (d.kind == hardware_kind::laptop && d.has_accelerator() && !d.unified_memory && where == device_kind::cuda) {
        device_spec more       = d;
        more.gpu_count         = d.gpu_count + 1;
        const plan_candidate e = evaluate(m, base, more, o, memo);
        if (e.fits || e.headroom_bytes > c.headroom_bytes)
            out.push_back(judged(
                fit_way::more_gpus, more.gpu_count,
                fmt::format("a {} GPU ({} in all)", d.gpu_model.empty() ? "second" : d.gpu_model, more.gpu_count), e));
    }
    // 6. A Mac: the row's memory is macOS's default GPU wired limit; `sudo sysctl iogpu.wired_limit_mb`
    // raises it up to the RAM less what macOS keeps (hardware.h, apple_raised_wired_limit_bytes).
    if (d.unified_memory && where == device_kind::metal && d.unified_memory_bytes && d.memory_bytes) {
        const std::uint64_t raised = apple_raised_wired_limit_bytes(*d.unified_memory_bytes);
        if (raised > *d.memory_bytes) {
            device_spec more       = d;
            more.memory_bytes      = raised;
            const plan_candidate e = evaluate(m, base, more, o, memo);
            if (e.fits || e.headroom_bytes > c.headroom_bytes)
                out.push_back(judged(fit_way::wired_limit, raised, apple_wired_limit_command(raised), e));
        }
    }
    // Closest first: what fits before what does not, then the fastest, then the least short.
    std::stable_sort(out.begin(), out.end(), [](const fit_option& a, const fit_option& b) {
        if (a.fits != b.fits) return a.fits;
        if (a.fits) return a.decode_tokens_per_s > b.decode_tokens_per_s;
        return a.headroom_bytes > b.headroom_bytes;
    });
    // What fits; when nothing does, only the one that comes closest.
    const auto fitting = std::count_if(out.begin(), out.end(), [](const fit_option& f) { return f.fits; });
    out.resize(fitting > 0 ? static_cast<std::size_t>(fitting) : std::min<std::size_t>(out.size(), 1));
    return out;
}

} // namespace llmplan::detail
