// The serving step model's tables: efficiencies per engine x memory class, and the all-reduce link of
// a GPU (src/serve/step_model.cpp).
#pragma once

#include "llmplan/serving.h"
#include "plan/speed.h"

namespace llmplan::detail {

/// The row of `e` on memory `m` (step_model.cpp gives each value with the data it was fitted on).
step_efficiency serving_efficiency(serving_engine e, memory_class m);

/// Bytes a second one GPU moves in a ring all-reduce (NCCL "bus bandwidth") over its link when
/// `tensor_parallel` GPUs share it: NVLink on SXM/HGX/NVL parts (bridged pairs only up to two GPUs),
/// PCIe otherwise.
double allreduce_link_bytes_per_s(const device_spec& d, std::uint32_t tensor_parallel);
/// Whether a ring of `tensor_parallel` GPUs of this kind crosses PCIe (no NVLink, or NVLink-bridged pairs
/// only and more than two GPUs).
bool allreduce_crosses_pcie(const device_spec& d, std::uint32_t tensor_parallel);

/// A decode-only step of a fixed number of sequences as a function of their summed context c:
/// memory = mem_a + mem_b c, compute = cmp_a + cmp_b c, plus a fixed time (the same terms as
/// step_seconds with no prefill, which is affine in c). The simulation's decode runs evaluate it per
/// step instead of the whole step model.
struct decode_line {
    double mem_a = 0, mem_b = 0, cmp_a = 0, cmp_b = 0, fixed_s = 0;
};
decode_line decode_step_line(const instance_shape& s, double decode_seqs);

} // namespace llmplan::detail
