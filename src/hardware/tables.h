// Row readers for the four hardware tables (tables.cpp); catalog.cpp picks one per row.
#pragma once

#include "hardware/csv.h"
#include "llmplan/hardware.h"

#include <span>

namespace llmplan::detail {

result<device_spec> read_gpu_row(const csv_table& t, std::size_t r);
result<device_spec> read_cpu_row(const csv_table& t, std::size_t r);
/// `gpus`/`cpus`: rows to link the machine's GPU and CPU columns to.
result<device_spec> read_laptop_row(const csv_table& t, std::size_t r, std::span<const device_spec* const> gpus,
                                    std::span<const device_spec* const> cpus);
/// Copy a linked GPU row's per-chip figures (FLOPs; bandwidth too when `with_bandwidth`) into
/// a machine or instance row, naming the row in notes and adding its sources.
void copy_gpu_figures(device_spec& d, const device_spec& g, bool with_bandwidth);
result<device_spec> read_cloud_row(const csv_table& t, std::size_t r, std::span<const device_spec* const> gpus);

} // namespace llmplan::detail
