// The serving step model's tables: efficiencies per engine x memory class, and the all-reduce link of
// a GPU (src/serve/step_model.cpp).
#pragma once

#include "llmplan/serving.h"
#include "plan/speed.h"

namespace llmplan::detail {

/// The row of `e` on memory `m` (step_model.cpp gives each value with the data it was fitted on).
step_efficiency serving_efficiency(serving_engine e, memory_class m);

/// Bytes a second one GPU moves in a ring all-reduce (NCCL "bus bandwidth") over its link: NVLink on
/// SXM/HGX/NVL parts, PCIe otherwise. 0 when nothing is known.
double allreduce_link_bytes_per_s(const device_spec& d);

} // namespace llmplan::detail
