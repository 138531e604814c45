// The date llmplan's facts are as of: one constant for the whole library, shown under every text
// answer and as "facts_as_of" in every JSON answer (docs/cli-contract.md: an added field).
//
// It is the latest date the sources below were read; change it when any of them is refreshed
// (docs/keeping-up.md):
//   - the model catalog: data/models/SOURCES.md (config.json copies with their commits; the 2026
//     families read from ai-dynamo/aiconfigurator's snapshot of 2026-08-21, rows added up to 2026-12-06);
//   - the hardware tables and prices: data/hardware/SOURCES.md (price snapshots retrieved 2026-12-02
//     to 2026-12-05, each row with its own price date);
//   - the engine releases: src/estimate/engine_versions.cpp (each row with its release and date) and
//     the current release of each engine in src/estimate/engine_traits.cpp.
#pragma once

#include <string_view>

namespace llmplan {

/// ISO date (YYYY-MM-DD) of the newest source the catalogs and rules summarize.
inline constexpr std::string_view facts_as_of = "2026-12-06";

} // namespace llmplan
