// Engine releases and what each range of them does with memory. One row per range, oldest first;
// a version belongs to the last row whose `from` it reaches. Each row names where it was read.
#include "estimate/engine_defaults.h"
#include "estimate/engine_traits.h"
#include "llmplan/engine_version.h"

#include <array>
#include <charconv>
#include <fmt/format.h>

namespace llmplan {
namespace {

struct version_row {
    engine_kind engine;
    engine_version from;
    engine_behaviour b;
};

// clang-format off
constexpr std::array release_rows = {
    // transformers: until 4.45 the causal-LM forward returned logits for every input position and the
    // Llama/Qwen2/Mistral code upcast them with logits.float(), so prefill held n_prompt x n_vocab in
    // the compute dtype and in f32 at once; 4.45 added num_logits_to_keep and generate() asks for the
    // last position only. Measured: Qwen2 speed benchmark (transformers 4.38.2) needs ~6 bytes x
    // prompt x vocab more than the Qwen2.5 one (4.46.0) for the same shapes
    // (truth/qwen2_speed_benchmark.json, truth/qwen25_speed_benchmark.json).
    version_row{engine_kind::transformers, {0, 0, 0},
                {.range = "transformers < 4.45",
                 .source = "modeling_llama/qwen2 forward: logits = lm_head(hidden_states).float() over all positions",
                 .prompt_logits = true}},
    version_row{engine_kind::transformers, {4, 45, 0},
                {.range = "transformers 4.45+",
                 .source = "GenerationMixin: num_logits_to_keep=1 in prepare_inputs_for_generation (v4.45.0)"}},
    // transformers 5 (Dec 2025): from_pretrained's dtype defaults to "auto", the checkpoint's dtype
    // (huggingface/transformers PR 42883, 2025-12-15, "auto is the default now in from_pretrained");
    // 4.x loaded float32 without torch_dtype, which 4.56+ renamed dtype (torch_dtype deprecated:
    // TransformerLens issue 1093, 2025-10-21). Packing a layer's MoE experts into one tensor (issue 21's
    // list; not read in transformers' code here) keeps the same parameters, so the same bytes.
    // llmplan sized the weights in the checkpoint's dtype already (4.x launch lines pass
    // torch_dtype='auto'), so memory is unchanged; 5.x launch lines pass dtype='auto'.
    version_row{engine_kind::transformers, {5, 0, 0},
                {.range = "transformers 5+",
                 .source = "modeling_utils from_pretrained: dtype=\"auto\" by default (PR 42883, v5.0.0)",
                 .dtype_auto_default = true}},
    // vLLM V0: the profiling pass runs max(max_model_len, 2048) tokens at once (no chunked prefill)
    // and the sampler over max_num_seqs rows; non-torch memory includes the CUDA context.
    version_row{engine_kind::vllm, {0, 0, 0},
                {.range = "vllm < 0.8 (V0 engine)",
                 .source = "vllm/worker/worker.py determine_num_available_blocks; SchedulerConfig"}},
    // vLLM V1 (default from 0.8.0, V0 removed in 0.11): chunked prefill always on, so the profile runs
    // max_num_batched_tokens tokens whatever the context; _dummy_sampler_run samples top-k/top-p over
    // min(max_num_seqs, max_num_batched_tokens) rows of logits; the memory snapshot is taken at
    // init_device, so non-torch memory is only what grew after it (NCCL, cuBLAS workspaces).
    // CUDA graphs are captured after the KV pool is allocated (compile_or_warm_up_model), outside it.
    version_row{engine_kind::vllm, {0, 8, 0},
                {.range = "vllm 0.8+ (V1 engine)",
                 .source = "vllm/v1/worker/gpu_worker.py determine_available_memory, gpu_model_runner.py profile_run",
                 .v1_engine = true}},
    // vLLM 0.21 (2026): the start-up profile captures the CUDA graphs once against a small dummy KV
    // cache and takes their estimate out of the KV pool (PR 30515, Dec 2025, behind
    // VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS; on by default from v0.21 with PR 38284, 2026-03-26,
    // which raised the default --gpu-memory-utilization from 0.9 to 0.92 to make up for it).
    // gpu_worker.py logs "CUDA graph memory profiling is enabled (default since v0.21.0)" (vLLM 0.27.1
    // log in gpustack/runner PR 251; club-3090 issue 127); vllm/config/cache.py
    // gpu_memory_utilization Field(default=0.92).
    version_row{engine_kind::vllm, {0, 21, 0},
                {.range = "vllm 0.21+ (CUDA graphs in the budget)",
                 .source = "vllm/v1/worker/gpu_worker.py determine_available_memory: requested_memory - "
                           "non_kv_cache_memory - cudagraph_memory_estimate; config/cache.py default 0.92",
                 .v1_engine = true, .gpu_memory_utilization = 0.92, .cuda_graphs_in_budget = true}},
    // vLLM 0.28 (Aug 2026): `vllm serve` batches 16384 tokens a step on GPUs with enough memory
    // (PR 51726 "Update default _max_num_batched_tokens from 8192 to 16384", merged 2026-08-10;
    // ROCm/MAD PR 235, 2026-08-26: "VLLM now defaults to 16384"). The release number is the first
    // after the merge (0.27.1 was current on 2026-08-14, gpustack/runner PR 251). Prefix caching is on
    // by default (config/cache.py enable_prefix_caching = True: blocks of finished requests stay in the
    // pool, reused or evicted, so the pool's size is unchanged), and DeepSeek-V3.2's sparse attention
    // defaults the KV cache to fp8 (config/cache.py cache_dtype; no such model in llmplan's catalog).
    version_row{engine_kind::vllm, {0, 28, 0},
                {.range = "vllm 0.28+ (16384 batched tokens on large GPUs)",
                 .source = "vllm/engine/arg_utils.py batch defaults (PR 51726); config/cache.py",
                 .v1_engine = true, .gpu_memory_utilization = 0.92, .cuda_graphs_in_budget = true,
                 .large_gpu_batched_tokens = 16384}},
    // llama.cpp: ggml-cpu repacks q4_0 (and iq4_nl) matrices into interleaved blocks at load on
    // AVX2 and ARM (CPU_REPACK buffer, beside the mapped file) since the online repacking refactor
    // (PR 10446, merged 2024-12-07, build ~b4273); builds before, and forks such as ik_llama.cpp, do not.
    version_row{engine_kind::llama_cpp, {0, 0, 0},
                {.range = "llama.cpp < b4273",
                 .source = "ggml-cpu before PR 10446: Q4_0_4_4/8_8 were file types, no online repacking"}},
    version_row{engine_kind::llama_cpp, {4273, 0, 0},
                {.range = "llama.cpp b4273+",
                 .source = "ggml/src/ggml-cpu/repack.cpp (ggml_aarch64_get_optimal_repack_type)",
                 .cpu_repack = true}},
    // llama.cpp's releases are semantic versions from v0.3.0 (Aug 2026; canonical/inference-snaps issue
    // 339, 2026-08-26: "llama.cpp started using semantic versioning", release v0.3.0), after build
    // b10630 (ollama PR 18003, 2026-08-25). Memory rules as the last builds. Defaults these builds
    // share, for the record: -fa auto (from b6327: llama_flash_attn_by_default below) and --fit on
    // (PR 16653, merged by Dec 2025: when the model does not fit, llama_params_fit shrinks the context toward
    // 4096 tokens, then moves weights, routed experts first, to host memory, leaving a 1024 MiB
    // margin on each GPU; only parameters the user did not set, so launch lines that give -c and -ngl
    // keep them, PR 18070).
    version_row{engine_kind::llama_cpp, {0, 3, 0, true},
                {.range = "llama.cpp v0.3.0+ (semantic versions)",
                 .source = "ggml-org/llama.cpp releases v0.3.0; ggml/src/ggml-cpu/repack.cpp",
                 .cpu_repack = true}},
    // SGLang before v0.5.3: --mem-fraction-static without the flag came from the tensor-parallel size
    // alone, 0.88 at TP 1, 0.87 at 2-3, 0.85 at 4-7, 0.81 at 8-15, 0.79 at 16+ (python/sglang/srt/
    // server_args.py __post_init__, v0.4.x: "Set mem fraction static, which depends on the tensor
    // parallelism size"); sglang_static_fraction() in engine_sglang.cpp.
    version_row{engine_kind::sglang, {0, 0, 0},
                {.range = "sglang < 0.5.3 (fraction by TP size)",
                 .source = "python/sglang/srt/server_args.py __post_init__ mem_fraction_static table (v0.4.x)"}},
    // SGLang v0.5.3+: the fraction is (GPU memory - reserved) / GPU memory, reserved from the chunked
    // prefill and the CUDA graphs' batch (sgl-project/sglang PR 10975 "Use more general heuristics to
    // set the default value of --mem-fraction-static", merged 2025-09-27; v0.5.2 was out by 2025-09-25,
    // verl PR 3613, so v0.5.3 is the first release with it). The same rule in v0.5.19's
    // python/sglang/srt/arg_groups/memory_hook.py handle_gpu_memory_settings (commit 031ed82d, 2026).
    version_row{engine_kind::sglang, {0, 5, 3},
                {.range = "sglang 0.5.3+ (fraction from GPU memory)",
                 .source = "python/sglang/srt/arg_groups/memory_hook.py handle_gpu_memory_settings (PR 10975)",
                 .sglang_fraction_from_gpu_memory = true}},
    // mlx-lm: one row (the KV cache's 256-token steps and the wired limit hold across the 0.2x-0.32
    // releases read: mlx_lm/models/cache.py KVCache.step, generate.py wired_limit).
    version_row{engine_kind::mlx, {0, 0, 0},
                {.range = "mlx-lm (all releases)",
                 .source = "mlx_lm/models/cache.py KVCache (step 256); mlx_lm/generate.py wired_limit"}},
};
// clang-format on

bool parse_uint(std::string_view s, std::uint32_t& out) {
    if (s.empty() || s.size() > 9) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc{} && p == s.data() + s.size();
}

} // namespace

/// The first llama.cpp build whose -fa defaults to auto: PR 15434 ("use FA + max. GPU layers by
/// default", 2025-08-19) came with b6327 (llama.node PR 102, 2025-08-31: "sync llama.cpp to b6327:
/// ... introduce flash_attn_type (auto|on|off)"); `llama-server -h` prints "-fa, --flash-attn
/// [on|off|auto] ... default: 'auto'" (yazon/flexllama issue 15, 2025-09-30).
constexpr engine_version llama_flash_attn_auto_from{6327, 0, 0};

bool detail::llama_flash_attn_by_default(engine_version v) {
    if (!v.known()) v = default_engine_version(engine_kind::llama_cpp);
    return v.key() >= llama_flash_attn_auto_from.key();
}

engine_version default_engine_version(engine_kind e) {
    return detail::traits_of(e).current; // the engine table's current release
}

const engine_behaviour& behaviour_of(engine_kind e, engine_version v) {
    if (!v.known()) v = default_engine_version(e);
    const engine_behaviour* found = nullptr;
    for (const auto& r : release_rows)
        if (r.engine == e && v.key() >= r.from.key()) found = &r.b;
    return *found; // every engine has a row from version 0
}

namespace {

/// MAJOR.MINOR[.PATCH] into r; false when it is not one.
bool parse_dotted(std::string_view v, engine_version& r) {
    std::array<std::uint32_t*, 3> parts{&r.major, &r.minor, &r.patch};
    std::size_t i = 0;
    while (true) {
        const auto dot = v.find('.');
        if (i == parts.size() || !parse_uint(v.substr(0, dot), *parts[i]) || *parts[i] > 0xffff) return false;
        ++i;
        if (dot == std::string_view::npos) break;
        v.remove_prefix(dot + 1);
    }
    return i >= 2;
}

/// llama.cpp's first semantic version (release v0.3.0, Aug 2026): earlier MAJOR.MINOR numbers
/// name no llama.cpp release (they are llama-cpp-python's, a separate project).
constexpr engine_version first_llama_cpp_semver{0, 3, 0, true};

} // namespace

result<engine_version> parse_engine_version(std::string_view text, engine_kind e) {
    auto bad = [&](std::string why) {
        return make_error(error_code::invalid_params,
                          fmt::format("\"{}\": {}; expected ENGINE@VERSION such as vllm@0.11, "
                                      "transformers@4.38.2, sglang@0.5.19, mlx@0.32.0, llama.cpp@b6000 or "
                                      "llama.cpp@v0.3.0",
                                      text, why),
                          "--engine-version");
    };
    std::string_view v = text;
    if (auto at = text.find('@'); at != std::string_view::npos) {
        const std::string_view who = text.substr(0, at);
        // mlx-lm's releases may be named by its package name too
        const bool alias = e == engine_kind::mlx && who == "mlx-lm";
        if (who != engine_name(e) && !alias) return bad(fmt::format("the estimate is for {}", engine_name(e)));
        v = text.substr(at + 1);
    }
    engine_version r;
    if (detail::traits_of(e).build_numbers) {
        // bNNNN (a build) or [v]MAJOR.MINOR[.PATCH] (a release from v0.3.0 on).
        if (v.find('.') != std::string_view::npos) {
            if (!v.empty() && v.front() == 'v') v.remove_prefix(1);
            r.semver = true;
            if (!parse_dotted(v, r))
                return bad(
                    fmt::format("{} versions are build numbers bNNNN or releases vMAJOR.MINOR.PATCH", engine_name(e)));
            if (r.key() < first_llama_cpp_semver.key())
                return bad(fmt::format("{} releases with semantic versions start at v0.3.0 (Aug 2026); "
                                       "earlier ones are build numbers bNNNN",
                                       engine_name(e)));
            return r;
        }
        if (!v.empty() && v.front() == 'b') v.remove_prefix(1);
        if (!parse_uint(v, r.major) || r.major == 0)
            return bad(
                fmt::format("{} versions are build numbers bNNNN or releases vMAJOR.MINOR.PATCH", engine_name(e)));
        return r;
    }
    if (!parse_dotted(v, r)) return bad("expected MAJOR.MINOR[.PATCH]");
    return r;
}

std::string to_string(engine_kind e, const engine_version& v) {
    if (detail::traits_of(e).build_numbers && !v.semver) return fmt::format("{}@b{}", engine_name(e), v.major);
    if (v.semver) return fmt::format("{}@v{}.{}.{}", engine_name(e), v.major, v.minor, v.patch);
    return fmt::format("{}@{}.{}.{}", engine_name(e), v.major, v.minor, v.patch);
}

} // namespace llmplan
