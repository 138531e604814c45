// What the plans read off a hardware row beyond its figures: whether it clusters, a CPU's peak.
#include "plan/detail.h"

namespace llmplan::detail {

bool is_server_gpu(const device_spec& d) {
    return d.kind == hardware_kind::gpu && (d.form.rfind("datacenter", 0) == 0 || d.form.rfind("cloud", 0) == 0);
}

void describe_purchase(plan_candidate& c, const device_spec& d) {
    c.id         = d.id;
    c.purchase   = std::string(to_string(purchase_of(d)));
    c.needs      = host_needs(d, c.count); // count is set by the placement before this
    c.provider   = d.provider;
    c.price_date = d.price_date;
    if (d.kind == hardware_kind::cloud) c.instances = c.nodes;
}

double cpu_cores(const device_spec& d) {
    if (d.cores) return *d.cores;
    if (d.threads) return *d.threads / 2.0;
    return 0;
}

double cpu_peak_flops(const device_spec& d) {
    if (d.fp32_flops) return *d.fp32_flops;
    return cpu_cores(d) * cpu_core_clock_hz * cpu_core_flops_per_cycle;
}

} // namespace llmplan::detail
