// How close estimates of one kind (engine x device x weight class) have come to memory measured
// on real runs: the table data/accuracy/infer_error_bars.csv, written by the inference accuracy
// test from tests/data/truth/infer_cases.jsonl (the dev cases) and compiled into the binary.
#pragma once

#include "llmplan/engine_version.h"
#include "llmplan/estimate.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace llmplan {

/// The weight class of an estimate, by bits per parameter: "16-bit" (12 and more), "8-bit"
/// (7 to 12) or "4-bit" (below 7: 2 to 6-bit GGUF types, int4, nf4, GPTQ/AWQ int4, MXFP4).
std::string_view weight_class(std::uint64_t weight_bytes, std::uint64_t n_params);

struct accuracy_row {
    std::string engine, device, weight_class;
    std::uint32_t cases      = 0; ///< measured values of this kind in the dev cases
    double within_tolerance  = 0; ///< share within each case's tolerance
    double median_abs_error  = 0; ///< |estimate - measured| / measured
    double p90_abs_error     = 0;
    double under_10pct_share = 0; ///< share where the estimate was more than 10% below
};

/// The row for this kind of estimate, if the dev cases hold any.
std::optional<accuracy_row> measured_accuracy(engine_kind e, device_kind d, std::string_view weight_class);

} // namespace llmplan
