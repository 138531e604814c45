// Engine releases and what each range of them does with memory. One row per range, oldest first;
// a version belongs to the last row whose `from` it reaches. Each row names where it was read.
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
constexpr std::array rows = {
    // transformers: until 4.45 the causal-LM forward returned logits for every input position and the
    // Llama/Qwen2/Mistral code upcast them with logits.float(), so prefill held n_prompt x n_vocab in
    // the compute dtype and in f32 at once; 4.45 added num_logits_to_keep and generate() asks for the
    // last position only. Measured: Qwen2 speed benchmark (transformers 4.38.2) needs ~6 bytes x
    // prompt x vocab more than the Qwen2.5 one (4.46.0) for the same shapes
    // (truth/qwen2_speed_benchmark.json, truth/qwen25_speed_benchmark.json).
    version_row{engine_kind::transformers, {0, 0, 0},
                {"transformers < 4.45", "modeling_llama/qwen2 forward: logits = lm_head(hidden_states).float() over all positions",
                 true, false, false}},
    version_row{engine_kind::transformers, {4, 45, 0},
                {"transformers 4.45+", "GenerationMixin: num_logits_to_keep=1 in prepare_inputs_for_generation (v4.45.0)",
                 false, false, false}},
    // vLLM V0: the profiling pass runs max(max_model_len, 2048) tokens at once (no chunked prefill)
    // and the sampler over max_num_seqs rows; non-torch memory includes the CUDA context.
    version_row{engine_kind::vllm, {0, 0, 0},
                {"vllm < 0.8 (V0 engine)", "vllm/worker/worker.py determine_num_available_blocks; SchedulerConfig",
                 false, false, false}},
    // vLLM V1 (default from 0.8.0, V0 removed in 0.11): chunked prefill always on, so the profile runs
    // max_num_batched_tokens tokens whatever the context; _dummy_sampler_run samples top-k/top-p over
    // min(max_num_seqs, max_num_batched_tokens) rows of logits; the memory snapshot is taken at
    // init_device, so non-torch memory is only what grew after it (NCCL, cuBLAS workspaces).
    // CUDA graphs are captured after the KV pool is allocated (compile_or_warm_up_model), outside it.
    version_row{engine_kind::vllm, {0, 8, 0},
                {"vllm 0.8+ (V1 engine)", "vllm/v1/worker/gpu_worker.py determine_available_memory, gpu_model_runner.py profile_run",
                 false, true, false}},
    // llama.cpp: ggml-cpu repacks q4_0 (and iq4_nl) matrices into interleaved blocks at load on
    // AVX2 and ARM (CPU_REPACK buffer, beside the mapped file) since the online repacking refactor
    // (PR 10446, merged 2024-12-07, build ~b4273); builds before, and forks such as ik_llama.cpp, do not.
    version_row{engine_kind::llama_cpp, {0, 0, 0},
                {"llama.cpp < b4273", "ggml-cpu before PR 10446: Q4_0_4_4/8_8 were file types, no online repacking",
                 false, false, false}},
    version_row{engine_kind::llama_cpp, {4273, 0, 0},
                {"llama.cpp b4273+", "ggml/src/ggml-cpu/repack.cpp (ggml_aarch64_get_optimal_repack_type)",
                 false, false, true}},
};
// clang-format on

bool parse_uint(std::string_view s, std::uint32_t& out) {
    if (s.empty() || s.size() > 9) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc{} && p == s.data() + s.size();
}

} // namespace

engine_version default_engine_version(engine_kind e) {
    return detail::traits_of(e).current; // the engine table's current release
}

const engine_behaviour& behaviour_of(engine_kind e, engine_version v) {
    if (!v.known()) v = default_engine_version(e);
    const engine_behaviour* found = nullptr;
    for (const auto& r : rows)
        if (r.engine == e && v.key() >= r.from.key()) found = &r.b;
    return *found; // every engine has a row from version 0
}

result<engine_version> parse_engine_version(std::string_view text, engine_kind e) {
    auto bad = [&](std::string why) {
        return make_error(error_code::invalid_params,
                          fmt::format("\"{}\": {}; expected ENGINE@VERSION such as vllm@0.11, "
                                      "transformers@4.38.2 or llama.cpp@b6000",
                                      text, why),
                          "--engine-version");
    };
    std::string_view v = text;
    if (auto at = text.find('@'); at != std::string_view::npos) {
        if (text.substr(0, at) != engine_name(e)) return bad(fmt::format("the estimate is for {}", engine_name(e)));
        v = text.substr(at + 1);
    }
    engine_version r;
    if (detail::traits_of(e).build_numbers) {
        if (!v.empty() && v.front() == 'b') v.remove_prefix(1);
        if (!parse_uint(v, r.major) || r.major == 0)
            return bad(fmt::format("{} versions are build numbers, bNNNN", engine_name(e)));
        return r;
    }
    std::array<std::uint32_t*, 3> parts{&r.major, &r.minor, &r.patch};
    std::size_t i = 0;
    while (true) {
        const auto dot = v.find('.');
        if (i == parts.size() || !parse_uint(v.substr(0, dot), *parts[i]) || *parts[i] > 0xffff)
            return bad("expected MAJOR.MINOR[.PATCH]");
        ++i;
        if (dot == std::string_view::npos) break;
        v.remove_prefix(dot + 1);
    }
    if (i < 2) return bad("expected MAJOR.MINOR[.PATCH]");
    return r;
}

std::string to_string(engine_kind e, const engine_version& v) {
    if (detail::traits_of(e).build_numbers) return fmt::format("{}@b{}", engine_name(e), v.major);
    return fmt::format("{}@{}.{}.{}", engine_name(e), v.major, v.minor, v.patch);
}

} // namespace llmplan
