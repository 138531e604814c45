// make_train_plan: for each candidate, search GPUs x ZeRO stage x gradient checkpointing (then nodes,
// then optimizer offload) for the cheapest configuration whose estimate_training fits; add step
// time, run time, cost and launch lines; sort and recommend. Constants and sources: train_plan.h.
//
// Placement is its own (place_for_training) because training needs more of each row than inference
// (measured matmul FLOP/s, host RAM for offload, PCIe-only cards); the rules both plans share (which
// rows cluster, a CPU's peak) are in plan/detail.h.
#include "llmplan/train_plan.h"

#include "llmplan/training_fit.h"
#include "llmplan/units.h"
#include "plan/detail.h"
#include "plan/train_launch.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace llmplan {
namespace {

bool is_cpu_row(const device_spec& d) {
    return d.kind == hardware_kind::cpu ||
           (d.kind != hardware_kind::gpu && d.kind != hardware_kind::apple && !d.has_accelerator());
}

/// How one candidate may train: its memory, the GPU counts to try, whether it can be a node of many.
struct train_place {
    candidate_kind kind = candidate_kind::gpu;
    bool cpu            = false;
    bool apple          = false;               ///< PyTorch MPS: no DeepSpeed, no NCCL
    std::optional<std::uint64_t> memory_bytes; ///< per GPU; a CPU row: RAM
    std::optional<std::uint64_t> host_bytes;   ///< host RAM, for an offloaded optimizer
    double host_bandwidth   = offload_host_bytes_per_s_default;
    double device_bandwidth = 0;     ///< memory bandwidth per GPU; 0 when unknown
    std::vector<unsigned> counts;    ///< GPUs per machine to try, fewest first
    unsigned per_node       = 0;     ///< GPUs per node when several nodes may be used; 0: one machine only
    bool counts_are_machine = false; ///< the count is the machine's own (cloud, laptop, local)
    bool pcie_only          = false; ///< consumer cards: GPUs talk over PCIe, not NVLink
};

train_place place_for_training(const device_spec& d) {
    train_place pl;
    if (d.host_memory_bandwidth_bytes_per_s)
        pl.host_bandwidth = static_cast<double>(*d.host_memory_bandwidth_bytes_per_s);
    pl.host_bytes = d.host_memory_bytes;
    if (is_cpu_row(d)) {
        pl.kind         = d.kind == hardware_kind::cloud   ? candidate_kind::cloud
                          : d.kind == hardware_kind::local ? candidate_kind::local
                                                           : candidate_kind::cpu;
        pl.cpu          = true;
        pl.memory_bytes = d.host_memory_bytes;
        pl.counts       = {1};
        return pl;
    }
    pl.memory_bytes = d.memory_bytes;
    pl.apple        = d.unified_memory;
    if (d.memory_bandwidth_bytes_per_s) pl.device_bandwidth = static_cast<double>(*d.memory_bandwidth_bytes_per_s);
    switch (d.kind) {
    case hardware_kind::gpu:
        pl.kind   = candidate_kind::gpu;
        pl.counts = {1, 2, 4, 8};
        // Datacenter boards come 8 to a node with NVLink and fast NICs; consumer cards do not.
        if (detail::is_server_gpu(d))
            pl.per_node = gpus_per_node;
        else
            pl.pcie_only = true;
        break;
    case hardware_kind::apple:
        pl.kind   = candidate_kind::apple;
        pl.counts = {1};
        break;
    case hardware_kind::laptop:
        pl.kind               = d.unified_memory ? candidate_kind::apple : candidate_kind::gpu;
        pl.counts             = {std::max(1u, d.gpu_count)};
        pl.counts_are_machine = true;
        break;
    case hardware_kind::cloud:
        pl.kind               = candidate_kind::cloud;
        pl.counts             = {std::max(1u, d.gpu_count)};
        pl.counts_are_machine = true;
        // Instances of 8 GPUs are the ones built to be clustered (EFA / InfiniBand).
        if (d.gpu_count >= gpus_per_node) pl.per_node = d.gpu_count;
        break;
    case hardware_kind::local:
        pl.kind               = candidate_kind::local;
        pl.counts             = {std::max(1u, d.gpu_count)};
        pl.counts_are_machine = true;
        break;
    case hardware_kind::cpu:
        break;
    }
    return pl;
}

struct config {
    unsigned gpus = 1, nodes = 1, zero = 0;
    bool ckpt = false, offload = false;
};

struct outcome {
    config cfg;
    training_estimate est;
    std::int64_t need      = 0; ///< largest per-GPU total less the reclaimable reserve (CPU row: the process)
    std::int64_t host_need = 0; ///< the offloaded optimizer in host RAM
    bool fits              = false;
    bool host_known        = true;
    std::int64_t headroom  = 0;
    double compute_s = 0, comm_s = 0, offload_s = 0, step_s = 0, tokens_per_s = 0;
    double host_s = 0, dequant_s = 0; ///< issuing the kernels; a QLoRA base's dequantization
    std::uint64_t tokens_per_step = 0;
    /// GPU-seconds per token: proportional to the cost per token on any one row.
    [[nodiscard]] double gpu_seconds_per_token() const {
        return tokens_per_s > 0 ? cfg.gpus / tokens_per_s : std::numeric_limits<double>::infinity();
    }
};

struct row_search {
    const model_desc& m;
    const training_params& base;
    const train_place& pl;
    double flops = 0;
    std::optional<error> failure;

    std::optional<outcome> run(const config& c) {
        training_params q     = base;
        q.gpus                = c.gpus;
        q.zero_stage          = c.zero;
        q.grad_checkpointing  = c.ckpt;
        q.offload_optimizer   = c.offload;
        q.device_memory_bytes = pl.cpu ? 0 : pl.memory_bytes.value_or(0);
        auto e                = estimate_training(m, q);
        if (!e) {
            failure = e.error();
            return std::nullopt;
        }
        outcome o;
        o.cfg = c;
        o.est = std::move(*e);
        for (const auto& d : o.est.devices) {
            if (d.kind == device_kind::cpu)
                o.host_need = d.total_bytes();
            else
                o.need = std::max(o.need, d.total_bytes());
        }
        // On a GPU what must fit leaves out the allocator's reclaimable reserve (training_memory_need).
        if (!pl.cpu) o.need = training_memory_need(o.est);
        if (pl.memory_bytes) {
            o.headroom = static_cast<std::int64_t>(*pl.memory_bytes) - o.need;
            o.fits     = o.headroom >= 0;
        } else {
            // Not in the table. Inference plans assume the machine has enough; training needs many times
            // the weights (a 405B full fine-tune: 6.5 TB), so an unknown memory is not counted as fitting.
            o.headroom = -o.need;
            o.fits     = false;
        }
        if (c.offload) {
            o.host_known = pl.host_bytes.has_value();
            if (pl.host_bytes && o.host_need > static_cast<std::int64_t>(*pl.host_bytes)) o.fits = false;
        }

        // ---- speed
        const std::uint64_t per_device = base.seq * base.micro_batch;
        o.tokens_per_step              = per_device * c.gpus;
        const double fpt               = o.est.flops_per_token + train_attention_flops_per_token(m, base.seq, c.ckpt);
        o.compute_s                    = train_compute_seconds(fpt, per_device, flops);
        if (!pl.cpu && o.compute_s > 0) {
            // CUDA (and MPS) launch asynchronously: the device waits on the host when issuing the
            // layers' kernels takes longer than running them (short sequences, small batches).
            o.dequant_s = train_dequant_seconds(m, q, c.ckpt, pl.device_bandwidth);
            o.host_s    = train_host_seconds(m, q, c.ckpt);
        }
        if (c.nodes > 1 || (pl.pcie_only && c.gpus > 1)) {
            // Bytes through each GPU's link a step: ZeRO-3 gathers the 16-bit weights twice and
            // reduce-scatters the gradients; DDP and ZeRO-1/2 all-reduce the gradients (2 passes).
            const bool full          = base.method == train_method::full;
            const double param_bytes = base.method == train_method::qlora        ? 0.5625 // NF4 + absmax
                                       : base.precision == train_precision::fp32 ? 4.0
                                                                                 : 2.0;
            const double weights     = static_cast<double>(count_params(m).total) * param_bytes;
            const double grads =
                static_cast<double>(o.est.trainable_params) * (base.precision == train_precision::fp32 ? 4.0 : 2.0);
            // With gradient accumulation, DDP (ZeRO 0) and FSDP trainers that skip the sync between
            // micro-steps (the trainer table's no_sync column) all-reduce the gradients once per
            // --grad-accum micro-steps; ZeRO-3 still gathers the weights every micro-step.
            const trainer_profile* row = find_trainer(base.trainer);
            const bool sync_once =
                base.grad_accum > 1 && c.zero < 3 &&
                (c.zero == 0 || (row != nullptr && !row->deepspeed_zero && row->no_sync_accumulation));
            const double volume = c.zero == 3 ? (full ? zero3_weight_passes_full : zero3_weight_passes_lora) * weights
                                              : 2.0 * grads / (sync_once ? static_cast<double>(base.grad_accum) : 1.0);
            if (c.nodes > 1)
                o.comm_s = volume / (inter_node_bytes_per_s_per_gpu * inter_node_link_efficiency);
            else // a ring over PCIe: (n-1)/n of the volume through each card's link
                o.comm_s = volume * (c.gpus - 1) / c.gpus / (offload_pcie_bytes_per_s * inter_node_link_efficiency);
        }
        if (c.offload) {
            const double P = static_cast<double>(o.est.trainable_params);
            // The CPU Adam step runs once per optimizer step (--grad-accum micro-steps); the gradients
            // cross PCIe every micro-step.
            o.offload_s = P * offload_adam_bytes_per_param / pl.host_bandwidth / static_cast<double>(base.grad_accum) +
                          P / c.gpus * 4.0 / offload_pcie_bytes_per_s;
        }
        if (o.compute_s > 0) {
            o.step_s       = std::max({o.host_s, o.compute_s, o.comm_s}) + o.dequant_s + o.offload_s;
            o.tokens_per_s = static_cast<double>(o.tokens_per_step) / o.step_s;
        }
        return o;
    }
};

/// a is cheaper per token than b (ties: keep b, the earlier: fewer GPUs, lower stage).
bool cheaper(const outcome& a, const outcome& b) {
    return a.gpu_seconds_per_token() < b.gpu_seconds_per_token() * (1.0 - 1e-9);
}

std::string config_words(const outcome& o) {
    std::string s;
    if (o.cfg.nodes > 1)
        s = fmt::format("{} nodes x {} GPUs = {} GPUs", o.cfg.nodes, o.cfg.gpus / o.cfg.nodes, o.cfg.gpus);
    else
        s = fmt::format("{} GPU{}", o.cfg.gpus, o.cfg.gpus == 1 ? "" : "s");
    if (o.cfg.gpus > 1 || o.cfg.zero > 0)
        s += o.cfg.zero == 0 ? ", DDP (ZeRO-0)" : fmt::format(", ZeRO-{}", o.cfg.zero);
    if (o.cfg.offload) s += ", optimizer offloaded to CPU";
    if (o.cfg.ckpt) s += ", gradient checkpointing";
    return s;
}

std::vector<std::pair<std::string, std::string>> train_launch(const model_desc& m, const training_params& p,
                                                              const train_place& pl, const outcome& o) {
    detail::train_launch_setup s;
    s.cpu              = pl.cpu;
    s.apple            = pl.apple;
    s.gpus             = o.cfg.gpus;
    s.nodes            = o.cfg.nodes;
    s.zero             = o.cfg.zero;
    s.offload          = o.cfg.offload;
    s.model_id         = m.id;
    s.method           = p.method;
    s.precision        = p.precision;
    s.deepspeed_config = o.est.launch_config_json;
    if (const trainer_profile* row = find_trainer(p.trainer)) s.kind = row->launch;
    return detail::train_launch_commands(s);
}

plan_candidate evaluate(const model_desc& m, const training_params& p, const device_spec& d, std::uint64_t train_tokens,
                        const plan_options& cost) {
    const train_place pl = place_for_training(d);
    row_search s{m, p, pl, train_device_flops(d), std::nullopt};
    plan_candidate c;
    c.hardware = d.name;
    c.kind     = pl.kind;

    std::vector<bool> ckpts{p.grad_checkpointing};
    if (!p.grad_checkpointing) ckpts.push_back(true); // turned on only when it is needed to fit
    std::optional<outcome> best, closest;
    auto consider = [&](const outcome& o) {
        if (o.fits) {
            if (!best || cheaper(o, *best)) best = o;
        } else if (!closest || o.headroom > closest->headroom) {
            closest = o;
        }
    };

    // 1. one machine: GPU counts x ZeRO stages x checkpointing (x offload when asked for)
    for (unsigned n : pl.counts) {
        std::vector<unsigned> stages;
        if (pl.cpu || pl.apple)
            stages = {0};
        else if (p.offload_optimizer)
            stages = n == 1 ? std::vector<unsigned>{2} : std::vector<unsigned>{2, 3};
        else
            stages = n == 1 ? std::vector<unsigned>{0} : std::vector<unsigned>{1, 2, 3};
        for (unsigned z : stages)
            for (bool ck : ckpts) {
                auto o = s.run({n, 1, z, ck, p.offload_optimizer && !pl.cpu && !pl.apple});
                if (!o) break;
                consider(*o);
            }
        if (s.failure) break;
    }
    // 2. several nodes with ZeRO-3, the fewest that fit
    if (!best && !s.failure && pl.per_node > 0)
        for (bool ck : ckpts)
            for (unsigned nodes = 2; nodes <= cost.max_nodes; ++nodes) {
                auto o = s.run({pl.per_node * nodes, nodes, 3, ck, p.offload_optimizer});
                if (!o) break;
                consider(*o);
                if (o->fits) break;
            }
    // 3. last resort on one machine: the optimizer offloaded to host RAM (ZeRO-Offload)
    if (!best && !s.failure && !p.offload_optimizer && !pl.cpu && !pl.apple)
        for (unsigned n : pl.counts)
            for (unsigned z : n == 1 ? std::vector<unsigned>{2} : std::vector<unsigned>{2, 3})
                for (bool ck : ckpts)
                    if (auto o = s.run({n, 1, z, ck, true})) consider(*o);

    if (s.failure) {
        c.reasons.push_back(fmt::format("cannot estimate: {}", s.failure->what()));
        return c;
    }
    // Fewer GPUs with another trainer or a lower LoRA rank (issue 25, finding 7): where the asked
    // trainer needs several cards, or none fits, one card may do with unsloth (checkpoints offloaded
    // to RAM, fused loss) or with LoRA rank 8: training_fit.cpp's ranks 6 and 7, here on one GPU.
    std::optional<std::pair<std::string, outcome>> one_gpu;
    if (!pl.cpu && !pl.apple && !pl.counts_are_machine && (!best || best->cfg.gpus > 1)) {
        std::vector<std::pair<std::string, training_params>> others;
        if (p.trainer != "unsloth" && find_trainer("unsloth") != nullptr) {
            others.emplace_back("--trainer unsloth", with_trainer(p, "unsloth"));
        }
        if (p.method != train_method::full && p.lora_rank > 8) {
            auto q      = p;
            q.lora_rank = 8;
            others.emplace_back("--lora-rank 8", q);
            if (!others.empty() && others.front().second.trainer != p.trainer) {
                others.emplace_back("--trainer unsloth --lora-rank 8", with_trainer(q, others.front().second.trainer));
            }
        }
        for (const auto& [words, q] : others) {
            row_search t{m, q, pl, s.flops, std::nullopt};
            for (bool ck : ckpts)
                if (auto o = t.run({1, 1, 0, ck, false}); o && o->fits) {
                    one_gpu.emplace(words + (ck && !p.grad_checkpointing ? " --grad-checkpointing on" : ""), *o);
                    break;
                }
            if (one_gpu) break;
        }
    }
    if (one_gpu) {
        fit_option f;
        f.way            = fit_way::other_trainer;
        f.value          = 1;
        f.setting        = one_gpu->first;
        f.fits           = true;
        f.headroom_bytes = one_gpu->second.headroom;
        c.fit_options.push_back(f);
        c.reasons.push_back(fmt::format("on one GPU with {}: fits with {} headroom, {:.0f} training tokens/s",
                                        one_gpu->first, gib_text(static_cast<double>(one_gpu->second.headroom)),
                                        one_gpu->second.tokens_per_s));
    }
    const outcome& o = best ? *best : *closest;
    c.count          = o.cfg.gpus;
    c.fits           = o.fits;
    c.headroom_bytes = o.headroom;

    train_figures t;
    t.train_tokens       = train_tokens;
    t.nodes              = o.cfg.nodes;
    t.gpus_per_node      = o.cfg.gpus / o.cfg.nodes;
    t.zero_stage         = o.cfg.zero;
    t.offload_optimizer  = o.cfg.offload;
    t.grad_checkpointing = o.cfg.ckpt;
    t.host_bytes         = o.host_need;
    t.tokens_per_step    = o.tokens_per_step;
    t.step_seconds       = o.step_s;
    t.train_tokens_per_s = o.tokens_per_s;
    t.comm_bound         = o.comm_s > std::max(o.host_s, o.compute_s);
    if (o.tokens_per_s > 0) t.run_hours = static_cast<double>(train_tokens) / o.tokens_per_s / 3600.0;

    // ---- memory
    const char* unit = pl.cpu ? "of RAM" : "per GPU";
    if (!pl.memory_bytes)
        c.reasons.push_back(fmt::format("memory not in the table, so not counted as fitting: needs {} {}",
                                        gib_text(static_cast<double>(o.need)), unit));
    else if (o.fits)
        c.reasons.push_back(fmt::format(
            "fits with {} headroom {} (needs {} of {}){}", gib_text(static_cast<double>(o.headroom)), unit,
            gib_text(static_cast<double>(o.need)), gib_text(static_cast<double>(*pl.memory_bytes)),
            o.est.reclaimable_bytes > 0
                ? fmt::format("; the allocator's cache of earlier steps may fill {} more, given back under pressure",
                              gib_text(static_cast<double>(o.est.reclaimable_bytes)))
                : std::string()));
    else
        c.reasons.push_back(fmt::format("does not fit: needs {} {}, has {} (closest: {})",
                                        gib_text(static_cast<double>(o.need)), unit,
                                        gib_text(static_cast<double>(*pl.memory_bytes)), config_words(o)));
    if (!pl.cpu) c.reasons.push_back("plan: " + config_words(o));
    if (o.cfg.nodes > 1 && o.fits)
        c.reasons.push_back(fmt::format("one node of {} GPUs is not enough at any ZeRO stage: data parallel over {} "
                                        "nodes with ZeRO-3 (weights, gradients and optimizer sharded over all {} GPUs)",
                                        t.gpus_per_node, o.cfg.nodes, o.cfg.gpus));
    else if (!o.fits && pl.per_node > 0)
        c.reasons.push_back(
            fmt::format("does not fit even on {} nodes of {} with ZeRO-3", cost.max_nodes, pl.per_node));
    if (o.cfg.ckpt && !p.grad_checkpointing)
        c.reasons.push_back("gradient checkpointing turned on to fit: one more forward pass, 8 instead of 6 FLOPs per "
                            "parameter per token");
    if (o.cfg.offload) {
        c.reasons.push_back(fmt::format("optimizer offloaded to the CPU (ZeRO-Offload): needs {} of host RAM{}; adds "
                                        "{:.2f} s a step for the CPU Adam step and PCIe transfers",
                                        gib_text(static_cast<double>(o.host_need)),
                                        o.host_known
                                            ? fmt::format(" (has {})", gib_text(static_cast<double>(*pl.host_bytes)))
                                            : std::string(", not in the table"),
                                        o.offload_s));
    }

    // ---- speed
    if (s.flops <= 0) {
        c.reasons.push_back(pl.cpu ? "CPU cores not in the table: no speed" : "FLOP/s not in the table: no speed");
    } else {
        if (pl.cpu)
            c.reasons.push_back(
                fmt::format("training on a CPU is compute-bound: about {:.2f} TFLOP/s from {:.0f} "
                            "cores at best, so the run takes {:.0f} h; a GPU is hundreds of times faster",
                            s.flops / 1e12, detail::cpu_cores(d), t.run_hours));
        c.reasons.push_back(
            fmt::format("step {:.2f} s for {} tokens ({} x {} x {} {}) at {:.3g} TFLOP/s a device; {:.0f} "
                        "training tokens/s",
                        o.step_s, o.tokens_per_step, p.seq, p.micro_batch, o.cfg.gpus,
                        pl.cpu            ? "CPU"
                        : o.cfg.gpus == 1 ? "GPU"
                                          : "GPUs",
                        s.flops / 1e12, o.tokens_per_s));
        if (o.host_s > o.compute_s && o.host_s >= o.comm_s)
            c.reasons.push_back(fmt::format(
                "host-bound: issuing {} layers' kernels takes {:.3f} s a step ({:.1f} ms a layer, {}) against "
                "{:.3f} s of GPU work; a longer --seq or a larger --micro-batch costs little more time",
                m.n_layer, o.host_s, o.host_s / std::max(1u, m.n_layer) * 1e3, p.trainer, o.compute_s));
        if (o.dequant_s > 0)
            c.reasons.push_back(fmt::format("dequantizing the quantized base adds {:.3f} s a step", o.dequant_s));
        if (t.comm_bound)
            c.reasons.push_back(fmt::format(
                "communication-bound: {} takes {:.2f} s a step against {:.2f} s of compute ({} at {:.0f}%); a larger "
                "--micro-batch or --seq hides it",
                o.cfg.nodes > 1 ? "ZeRO-3's inter-node traffic" : "the GPUs' traffic over PCIe", o.comm_s, o.compute_s,
                o.cfg.nodes > 1 ? "400 Gb/s per GPU" : "25 GB/s per card", inter_node_link_efficiency * 100));
        c.reasons.push_back(fmt::format("{} tokens: {:.1f} h", train_tokens, t.run_hours));
    }

    // ---- cost: as the inference plan (hourly_cost), at full power while the run lasts
    plan_options busy = cost;
    busy.utilization  = 1.0;
    if (auto h = hourly_cost(d, o.cfg.gpus, o.cfg.nodes, busy)) {
        c.cost_per_hour_usd = h->usd_per_hour;
        c.power_w           = h->power_w;
        if (!h->reason.empty()) c.reasons.push_back(std::move(h->reason));
    }
    if (c.cost_per_hour_usd && o.tokens_per_s > 0) {
        c.cost_per_million_tokens_usd = *c.cost_per_hour_usd / (o.tokens_per_s * 3600.0) * 1e6;
        t.run_cost_usd                = *c.cost_per_hour_usd * t.run_hours;
    }
    // A one-off run on hardware bought for it pays the purchase, not the hours' share of three years
    // (issue 25, finding 6: $16k of cards for a 3.6 h run is not "$4.95"): price x units + the run's
    // power (load power x hours x PUE x electricity price). This machine is already paid for.
    if (!d.price_usd_per_hour && d.price_usd && d.kind != hardware_kind::local && o.tokens_per_s > 0) {
        const unsigned units = purchase_of(d) == purchase_kind::card ? o.cfg.gpus : o.cfg.nodes;
        t.purchase_usd       = *d.price_usd * units;
        t.power_usd = d.tdp_w ? *d.tdp_w * units / 1000.0 * t.run_hours * cost.pue * cost.electricity_usd_per_kwh : 0.0;
        t.run_cost_usd                = *t.purchase_usd + *t.power_usd;
        c.cost_per_million_tokens_usd = *t.run_cost_usd / static_cast<double>(train_tokens) * 1e6;
        c.reasons.push_back(fmt::format("bought for this run: ${:.0f} of {}{} + ${:.2f} of power for {:.1f} h",
                                        *t.purchase_usd, units > 1 ? fmt::format("{} x ", units) : "", d.name,
                                        *t.power_usd, t.run_hours));
    }
    // Rented by the hour, more GPUs cost about the same a run; bought for the run, each card is paid.
    if (o.fits && d.kind == hardware_kind::gpu && o.cfg.nodes == 1 && o.cfg.gpus < 8 && !pl.apple && !t.purchase_usd)
        c.reasons.push_back("more GPUs of this type cut the time in proportion at about the same cost");
    c.launch = train_launch(m, p, pl, o);
    if (d.kind == hardware_kind::cloud) c.instances = t.nodes; // counted in instances, as inference plans
    c.training = t;
    return c;
}

} // namespace

double train_device_flops(const device_spec& d) {
    if (is_cpu_row(d)) return train_mfu_of_dense_peak * detail::cpu_peak_flops(d);
    if (d.measured_bf16_matmul_flops) return train_share_of_mamf * *d.measured_bf16_matmul_flops;
    if (d.bf16_flops) return train_mfu_of_dense_peak * *d.bf16_flops;
    if (d.fp16_flops) return train_mfu_of_dense_peak * *d.fp16_flops;
    if (d.fp32_flops) return train_mfu_of_dense_peak * *d.fp32_flops;
    return 0;
}

double train_compute_seconds(double flops_per_token, std::uint64_t tokens_per_device, double device_flops) {
    if (device_flops <= 0) return 0;
    return flops_per_token * static_cast<double>(tokens_per_device) / device_flops;
}

double train_attention_flops_per_token(const model_desc& m, std::uint64_t seq, bool recompute) {
    double per_token = 0;
    for (const auto& l : m.layers) {
        if (l.attn == attn_kind::none || l.attn_linear) continue;
        double context = static_cast<double>(seq) / 2.0;
        if (l.n_swa > 0) context = std::min(context, static_cast<double>(l.n_swa));
        per_token += 2.0 * l.n_head * (static_cast<double>(l.head_dim_k) + l.head_dim_v) * context;
    }
    return per_token * (3.0 + (recompute ? 1.0 : 0.0)); // forward, backward 2x, recomputed forward
}

double train_host_seconds(const model_desc& m, const training_params& p, bool recompute) {
    const trainer_profile* t = find_trainer(p.trainer);
    if (!t) return 0;
    return m.n_layer * t->host_s_per_layer * (recompute ? 1.0 : host_share_without_recompute);
}

double train_dequant_seconds(const model_desc& m, const training_params& p, bool recompute, double memory_bytes_per_s) {
    if (p.method != train_method::qlora || memory_bytes_per_s <= 0) return 0;
    const param_counts pc       = count_params(m);
    const std::uint64_t lm_head = m.tied_embd ? 0 : m.n_vocab * m.n_embd;
    const double quantized      = static_cast<double>(pc.total - std::min(pc.total, pc.embedding + lm_head));
    return quantized * dequant_bytes_per_param_per_pass * (recompute ? 3.0 : 2.0) / memory_bytes_per_s;
}

plan_result make_train_plan(const model_desc& m, const training_params& p,
                            const std::vector<const device_spec*>& candidates, std::uint64_t train_tokens,
                            const plan_options& cost) {
    plan_result r;
    r.options = cost;
    for (const device_spec* d : candidates) {
        if (!d) continue;
        // --kind: only rows answering for those kinds (this machine always).
        if (cost.kinds != 0 && d->kind != hardware_kind::local && (answer_kinds_of(*d) & cost.kinds) == 0) continue;
        // bf16 needs a GPU that has it: a plan on one without trains in fp16 with loss scaling, the
        // nearest that runs (and its DeepSpeed config says fp16, never bf16).
        training_params q  = p;
        const bool to_fp16 = (q.precision == train_precision::bf16_mixed || q.precision == train_precision::bf16) &&
                             !detail::has_bf16(*d);
        if (to_fp16) q.precision = train_precision::fp16_mixed;
        r.candidates.push_back(evaluate(m, q, *d, train_tokens, cost));
        r.candidates.back().unsupported = detail::training_unsupported(m, q, *d);
        for (const auto& u : r.candidates.back().unsupported)
            r.candidates.back().reasons.push_back("will not run as planned: " + u);
        if (to_fp16)
            r.candidates.back().reasons.push_back(
                fmt::format("no bf16 on compute capability {:.1f} (bf16 needs 8.0+): fp16 mixed precision with "
                            "loss scaling instead",
                            d->compute_capability.value_or(0)));
    }
    std::stable_sort(r.candidates.begin(), r.candidates.end(), cheapest_first);
    // A row the run cannot start on (its platform lacks a library the plan needs) goes after every
    // row it can, whatever its memory or price.
    std::stable_partition(r.candidates.begin(), r.candidates.end(),
                          [](const plan_candidate& c) { return c.unsupported.empty(); });
    if (!r.candidates.empty() && r.candidates.front().fits && r.candidates.front().unsupported.empty()) {
        const auto& c = r.candidates.front();
        // A cloud pick is counted in instances, as the inference plan counts it.
        plan_recommendation rec{c.hardware, c.instances > 0 ? c.instances : c.count, c.reasons};
        const auto& t = *c.training;
        if (c.cost_per_million_tokens_usd && t.run_cost_usd)
            rec.why.push_back(
                fmt::format("cheapest that fits: ${:.2f} per million training tokens; {} tokens in {:.1f} h "
                            "for ${:.2f}",
                            *c.cost_per_million_tokens_usd, t.train_tokens, t.run_hours, *t.run_cost_usd));
        else
            rec.why.push_back(fmt::format("fits; no price known; {} tokens in {:.1f} h", t.train_tokens, t.run_hours));
        // Rent or buy: the cheapest rented and the cheapest owned rows that fit, and after how many
        // runs like this one buying costs less (purchase / (rent a run - power a run)).
        const plan_candidate *rent = nullptr, *own = nullptr;
        for (const auto& x : r.candidates) {
            if (!x.fits || !x.unsupported.empty() || !x.training || !x.training->run_cost_usd) continue;
            if (x.training->purchase_usd) {
                if (!own) own = &x;
            } else if (x.kind == candidate_kind::cloud && !rent) {
                rent = &x;
            }
        }
        if (rent && own) {
            const double rent_run  = *rent->training->run_cost_usd;
            const double power_run = own->training->power_usd.value_or(0);
            // Instances of a cloud row, cards of a card row, machines otherwise.
            const auto units = [](const plan_candidate& x) {
                const unsigned n = x.kind == candidate_kind::cloud || x.kind == candidate_kind::local ||
                                           x.training->purchase_usd.value_or(0) == 0
                                       ? x.training->nodes
                                       : x.count;
                return n > 1 ? fmt::format("{} x ", n) : std::string();
            };
            if (rent_run > power_run)
                rec.why.push_back(fmt::format(
                    "rent or buy: renting {}{} costs ${:.2f} a run; buying {}{} costs ${:.0f} once and ${:.2f} of "
                    "power a run, so buying pays off after {:.0f} runs like this one",
                    units(*rent), rent->hardware, rent_run, units(*own), own->hardware, *own->training->purchase_usd,
                    power_run, std::ceil(*own->training->purchase_usd / (rent_run - power_run))));
        }
        r.recommendation = std::move(rec);
    }
    return r;
}

} // namespace llmplan
