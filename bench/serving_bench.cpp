// Serving at load, timed (bench/README.md): a 1,000-request open-loop simulation for each of 200
// candidate configurations (tensor parallel x max-num-seqs x instances), then the planner's own search
// for one row, in CPU time. No Google Benchmark needed: built with every preset as llmplan_serving_bench.
//
//     build/bench/llmplan_serving_bench
#include "llmplan/hardware.h"
#include "llmplan/load.h"
#include "llmplan/serving.h"

#include <cstdio>
#include <ctime>

using namespace llmplan;

int main() {
    auto m = load_model("meta-llama/Llama-3.1-8B-Instruct");
    auto d = builtin_hardware().lookup("H100 SXM 80GB");
    if (!m || !d) {
        std::fprintf(stderr, "catalog model or hardware row missing\n");
        return 1;
    }
    inference_params p;
    p.engine              = engine_kind::vllm;
    p.ctx                 = 1200;
    p.device_memory_bytes = (*d)->memory_bytes.value_or(0);

    const std::clock_t t0 = std::clock();
    std::uint32_t configs = 0, requests = 0;
    double checksum = 0;
    for (std::uint32_t tp : {1u, 2u, 4u, 8u}) {
        p.gpus = tp;
        auto e = estimate_inference(*m, p);
        if (!e) return 1;
        const auto shape = make_instance_shape(*m, *e, p, **d, serving_engine::vllm, tp, 1);
        for (std::uint64_t seqs : {256u, 128u, 64u, 32u, 16u})
            for (std::uint32_t instances = 1; instances <= 10; ++instances) {
                sim_config c;
                c.max_num_seqs           = seqs;
                c.max_num_batched_tokens = 8192;
                c.kv_capacity_tokens     = e->vllm_kv_capacity_tokens;
                c.input_len              = 1000;
                c.output_len             = 200;
                c.request_rate           = 40.0 / instances; // 40 requests a second over the instances
                c.requests               = 1000;
                const auto r             = simulate(shape, c);
                checksum += r.ttft_s.p99;
                requests += static_cast<std::uint32_t>(r.completed);
                ++configs;
            }
    }
    const double sim_ms = 1e3 * static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC;

    serving_context sc;
    sc.model                = &*m;
    sc.infer                = p;
    sc.infer.gpus           = 1;
    sc.request.on           = true;
    sc.request.request_rate = 40;
    sc.request.input_len    = 1000;
    sc.request.output_len   = 200;
    sc.request.ttft_ms      = 500;
    sc.request.tpot_ms      = 25;
    const std::clock_t t1   = std::clock();
    const auto f            = plan_serving(sc, **d);
    const double plan_ms    = 1e3 * static_cast<double>(std::clock() - t1) / CLOCKS_PER_SEC;

    std::printf("open-loop simulations: %u configurations x 1,000 requests (%u completed): %.1f ms CPU "
                "(checksum %.3f)\n",
                configs, requests, sim_ms, checksum);
    if (f)
        std::printf("planner search on one row: %u configurations, %.1f ms CPU -> %u x TP%u, %u GPUs, binding %s\n",
                    f->candidates_searched, plan_ms, f->instances, f->tensor_parallel, f->gpus, f->binding.c_str());
    return sim_ms < 200.0 ? 0 : 3;
}
