// Engine versions: which release of vLLM, transformers or llama.cpp an estimate is for, and what
// each range of releases does differently with memory (the table in src/estimate/engine_versions.cpp,
// every row with its source).
#pragma once

#include "llmplan/error.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace llmplan {

enum class engine_kind : std::uint8_t { llama_cpp, vllm, transformers };
std::string_view engine_name(engine_kind e);

/// A release: major.minor.patch for vLLM and transformers; llama.cpp's build number bNNNN as major.
struct engine_version {
    std::uint32_t major = 0, minor = 0, patch = 0;
    [[nodiscard]] bool known() const { return major || minor || patch; }
    [[nodiscard]] std::uint64_t key() const { return (std::uint64_t{major} << 32) | (minor << 16) | patch; }
};

/// "vllm@0.11", "transformers@4.38.2", "llama.cpp@b6000" (the engine must be `e`); a bare
/// version ("0.11", "b6000") is taken for `e`.
result<engine_version> parse_engine_version(std::string_view text, engine_kind e);
std::string to_string(engine_kind e, const engine_version& v);

/// What a range of releases does that changes memory (engine_versions.cpp says where each comes from).
struct engine_behaviour {
    std::string_view range;  ///< "vllm 0.8+" as printed in notes
    std::string_view source; ///< the code or log the row was read from
    // transformers
    bool prompt_logits = false; ///< generate() computes logits (and an f32 copy) for every prompt position
    // vLLM
    bool v1_engine = false; ///< V1: profile at max_num_batched_tokens, sampler warm-up, non-torch since init
    // llama.cpp
    bool cpu_repack = false; ///< ggml-cpu keeps a repacked copy of q4_0/iq4_nl matrices (CPU_REPACK buffer)
};

/// The release assumed when none is given: the current one of each engine.
engine_version default_engine_version(engine_kind e);
/// The behaviour of the row whose range holds `v` (the default release when `v` is unknown).
const engine_behaviour& behaviour_of(engine_kind e, engine_version v);

} // namespace llmplan
