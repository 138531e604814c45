// Speed of reading model descriptions and of the estimates (see bench/README.md for results).
#include "gguf_writer.h"
#include "llmplan/api.h"
#include "llmplan/gguf.h"
#include "llmplan/inference.h"
#include "llmplan/load.h"
#include "llmplan/plan.h"
#include "llmplan/safetensors.h"
#include "llmplan/train_plan.h"

#include <benchmark/benchmark.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>

namespace {
using namespace llmplan;

// Every real GGUF fixture: header parse + mapping to model_desc (headers only; no tensor data read).
void read_gguf_fixtures(benchmark::State& state) {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(std::string(LLMPLAN_TEST_DATA) + "/gguf"))
        if (e.path().extension() == ".gguf") files.push_back(e.path().string());
    for (auto _ : state)
        for (const auto& f : files)
            benchmark::DoNotOptimize(load_model(f));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * files.size()));
}
BENCHMARK(read_gguf_fixtures)->Unit(benchmark::kMillisecond);

// A synthetic GGUF header with 10,000 tensors (header only, as a huge model's first bytes).
void read_gguf_10k_tensors(benchmark::State& state) {
    test::gguf_spec s = test::tiny_llama_spec();
    s.tensors.clear();
    for (int i = 0; i < 10000; ++i)
        s.tensors.push_back({
            fmt::format("blk.{}.ffn_up.weight", i), {4096, 14336},
              12, std::nullopt
        });
    s.write_data     = false;
    const auto bytes = test::build(s);
    gguf_read_options opts;
    opts.check_data_extent = false;
    for (auto _ : state)
        benchmark::DoNotOptimize(read_gguf(bytes, "synthetic.gguf", opts));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(read_gguf_10k_tensors)->Unit(benchmark::kMillisecond);

// A checkpoint folder with a 100-shard index: 100 safetensors headers of 4 tensors each.
void read_safetensors_100_shards(benchmark::State& state) {
    const auto dir = std::filesystem::temp_directory_path() / "llmplan-bench-100-shards";
    std::filesystem::create_directories(dir);
    std::string index = R"({"metadata": {"total_size": 0}, "weight_map": {)";
    for (int s = 0; s < 100; ++s) {
        const std::string file = fmt::format("model-{:05}-of-00100.safetensors", s + 1);
        std::string header     = "{";
        for (int t = 0; t < 4; ++t) {
            const std::string name = fmt::format("model.layers.{}.mlp.w{}.weight", s, t);
            header += fmt::format(R"({}"{}":{{"dtype":"BF16","shape":[4,4],"data_offsets":[{},{}]}})", t ? "," : "",
                                  name, t * 32, t * 32 + 32);
            index += fmt::format(R"({}"{}":"{}")", s || t ? "," : "", name, file);
        }
        header += "}";
        std::ofstream out(dir / file, std::ios::binary);
        const std::uint64_t n = header.size();
        out.write(reinterpret_cast<const char*>(&n), 8);
        out << header << std::string(128, '\0');
    }
    index += "}}";
    std::ofstream(dir / "model.safetensors.index.json") << index;
    for (auto _ : state)
        benchmark::DoNotOptimize(read_safetensors_dir(dir.string()));
}
BENCHMARK(read_safetensors_100_shards)->Unit(benchmark::kMillisecond);

// One estimate (the pure function), config already loaded.
void estimate_one(benchmark::State& state) {
    const auto m = *load_model("meta-llama/Llama-3.1-8B");
    inference_params p;
    p.engine  = engine_kind::llama_cpp;
    p.device  = device_kind::cpu;
    p.weights = *parse_weight_choice("q4_k_m");
    for (auto _ : state)
        benchmark::DoNotOptimize(estimate_inference(m, p));
}
BENCHMARK(estimate_one)->Unit(benchmark::kMicrosecond);

// Sweep: every catalog model x 8 contexts x 4 precisions (transformers, GPU).
void estimate_catalog_sweep(benchmark::State& state) {
    std::vector<model_desc> models;
    for (const auto& e : catalog())
        models.push_back(*load_catalog_model(e));
    const char* precisions[] = {"bf16", "int8", "nf4", "awq"};
    std::size_t n            = 0;
    for (auto _ : state)
        for (const auto& m : models)
            for (std::uint64_t ctx = 512; ctx <= 65536; ctx *= 2)
                for (const char* w : precisions) {
                    inference_params p;
                    p.ctx     = ctx;
                    p.weights = *parse_weight_choice(w);
                    benchmark::DoNotOptimize(estimate_inference(m, p));
                    ++n;
                }
    state.SetItemsProcessed(static_cast<std::int64_t>(n));
}
BENCHMARK(estimate_catalog_sweep)->Unit(benchmark::kMillisecond);

/// Times `plan(candidates)` over every catalog candidate; items are candidates planned.
template <class Plan> void time_over_catalog(benchmark::State& state, Plan plan) {
    const auto& cands = builtin_hardware().candidates();
    for (auto _ : state)
        benchmark::DoNotOptimize(plan(cands));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * cands.size()));
}

// One inference plan over every catalog candidate (what `llmplan plan` computes), Qwen2.5-7B Q4_K_M.
void plan_catalog(benchmark::State& state) {
    const auto m = *load_model("Qwen/Qwen2.5-7B-Instruct");
    inference_params p;
    p.engine  = engine_kind::llama_cpp;
    p.weights = *parse_weight_choice("q4_k_m");
    p.ctx     = 8192;
    time_over_catalog(state, [&](const auto& cands) { return make_plan(m, p, cands); });
}
BENCHMARK(plan_catalog)->Unit(benchmark::kMillisecond);

// One training plan over every candidate: the GPU x ZeRO x checkpointing x nodes search, Llama-3.1-8B full.
void train_plan_catalog(benchmark::State& state) {
    const auto m = *load_model("meta-llama/Llama-3.1-8B");
    training_params p;
    p.method = train_method::full;
    time_over_catalog(state, [&](const auto& cands) { return make_train_plan(m, p, cands); });
}
BENCHMARK(train_plan_catalog)->Unit(benchmark::kMillisecond);

// What `llmplan serve` does per request, without HTTP: the front door's answer() for the routes
// bench/web_bench.sh drives (a catalog id, options as the query gives them, JSON bytes out).
void api_estimate(benchmark::State& state) {
    const std::vector<std::pair<std::string, std::string>> q{
        {"model", "Qwen/Qwen2.5-7B-Instruct"},
        {"ctx",   "8192"                    }
    };
    for (auto _ : state)
        benchmark::DoNotOptimize(answer("estimate", q));
}
BENCHMARK(api_estimate)->Unit(benchmark::kMicrosecond);

void api_plan(benchmark::State& state) {
    const std::vector<std::pair<std::string, std::string>> q{
        {"model",   "Qwen/Qwen2.5-7B-Instruct"},
        {"ctx",     "8192"                    },
        {"weights", "q4_k_m"                  }
    };
    for (auto _ : state)
        benchmark::DoNotOptimize(answer("plan", q));
}
BENCHMARK(api_plan)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
