// Serving answers shared between catalog rows with the same chip (src/api/run.cpp): the simulation
// depends only on the chip, the price on the row.
#pragma once

#include "llmplan/serving.h"

#include <string>

namespace llmplan::detail {

/// What the step model reads of a row: two rows with the same key get the same deployment.
std::string serving_chip_key(const device_spec& d);
/// Put row `d`'s prices (an hour, a month, a million tokens) and launch lines on a copied answer.
void reprice_serving(serving_figures& f, const serving_context& c, const device_spec& d);

} // namespace llmplan::detail
