// Training memory against published measurements (tests/data/truth/train_cases.jsonl: the training
// cases of ../shared/bench/cases/dev.jsonl that compare a measured value (not a fit limit) and whose model
// is in data/models (a catalog entry by the config it shares), from qwen1_readme_profiling.json,
// qwen_vl_readme_profiling.json, ms_swift_benchmark.json, torchtune_readme_memory.json,
// torchtune_docs_memory.json, litgpt_config_hub_finetune.json, litgpt_resource_tables.json and
// peft_docs_deepspeed_fsdp.json; hf_peft_readme.json's rows state no sequence length or batch), with the
// default trainer as the outside measure runs them. Each case gives the CLI options, the metric and
// its tolerance:
//   cuda_total_sum     = sum over GPUs of total_bytes (Qwen's tables: nvidia-smi style, summed)
//   cuda_total_max     = max over GPUs of total_bytes (ms-swift: torch.cuda.max_memory_reserved)
//   cuda_allocated_max = max over GPUs of total_bytes - overhead (torchtune: torch's allocated peak)
// read at the counter the case names (metric.counter, copied from the shared cases: ms-swift's
// torch_reserved; Qwen's and torchtune's unknown, the closest of the three) as score.py reads them.
// A case passes when |error| <= tolerance and it is not under by more than 10%; every other case is
// a known miss below, with its reason. The same run writes the band table the CLI prints
// (src/estimate/training_bands.inc): LLMPLAN_WRITE_BANDS=1 regenerates it, and the test fails when
// the checked-in table differs from what the cases give. That the bands cover the measured runs
// themselves, through the answer users get, is accuracy_default_test's check (its last block).
#include "estimate/counters.h"
#include "estimate/training_detail.h"
#include "llmplan/estimate.h"
#include "llmplan/load.h"
#include "llmplan/weights.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace llmplan {
namespace {

struct train_case {
    std::string id, source, model_dir, metric;
    std::string counter; ///< the counter the source printed (../shared/truth/COUNTERS.md); "" or "unknown"
    std::vector<std::string> args;
    double measured_bytes = 0, tolerance = 0;
};

std::vector<train_case> load_cases() {
    std::vector<train_case> out;
    // LLMPLAN_TRAIN_CASES names another case list in the same format (for trying more cases).
    const char* other = std::getenv("LLMPLAN_TRAIN_CASES");
    std::ifstream f(other != nullptr ? std::string(other)
                                     : std::string(LLMPLAN_TEST_DATA) + "/truth/train_cases.jsonl");
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        train_case c;
        c.id             = j.at("id").get<std::string>();
        c.source         = j.at("source").get<std::string>();
        c.model_dir      = j.at("model_dir").get<std::string>();
        c.metric         = j.at("metric").at("kind").get<std::string>();
        c.counter        = j.at("metric").value("counter", std::string());
        c.args           = j.at("args").get<std::vector<std::string>>();
        c.measured_bytes = j.at("measured_bytes").get<double>();
        c.tolerance      = j.at("tolerance").get<double>();
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<std::string> split_commas(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
        out.push_back(item);
    return out;
}

/// The training options of ../shared/cli-contract.md -> training_params.
bool parse_args(const std::vector<std::string>& a, training_params& p, std::string& err) {
    for (std::size_t i = 0; i + 1 < a.size(); i += 2) {
        const std::string& k = a[i];
        const std::string& v = a[i + 1];
        if (k == "--task") continue;
        if (k == "--method")
            p.method = v == "full" ? train_method::full : v == "qlora" ? train_method::qlora : train_method::lora;
        else if (k == "--precision")
            p.precision = v == "fp32"         ? train_precision::fp32
                          : v == "fp16-mixed" ? train_precision::fp16_mixed
                          : v == "bf16"       ? train_precision::bf16
                                              : train_precision::bf16_mixed;
        else if (k == "--optimizer")
            p.optimizer = v == "adamw-8bit"  ? optimizer_kind::adamw_8bit
                          : v == "sgd"       ? optimizer_kind::sgd
                          : v == "adafactor" ? optimizer_kind::adafactor
                                             : optimizer_kind::adamw;
        else if (k == "--seq")
            p.seq = std::stoull(v);
        else if (k == "--micro-batch")
            p.micro_batch = std::stoull(v);
        else if (k == "--grad-checkpointing")
            p.grad_checkpointing = v == "on";
        else if (k == "--lora-rank")
            p.lora_rank = static_cast<std::uint32_t>(std::stoul(v));
        else if (k == "--lora-targets")
            p.lora_targets = split_commas(v);
        else if (k == "--gpus")
            p.gpus = static_cast<std::uint32_t>(std::stoul(v));
        else if (k == "--zero")
            p.zero_stage = static_cast<std::uint32_t>(std::stoul(v));
        else if (k == "--trainer")
            p.trainer = v;
        else if (k == "--batch-lengths")
            p.overrides.lengths = v == "fixed" ? batch_lengths::fixed : batch_lengths::variable;
        else if (k == "--weights") {
            auto w = parse_weight_choice(v);
            if (!w) {
                err = w.error().what();
                return false;
            }
            p.weights = *w;
        } else {
            err = "unknown option " + k;
            return false;
        }
    }
    return true;
}

double metric_bytes(const training_estimate& e, const std::string& kind) {
    double sum = 0, mx = 0;
    for (const auto& d : e.devices) {
        if (d.kind != device_kind::cuda) continue;
        const double total = static_cast<double>(d.total_bytes());
        const double alloc = total - static_cast<double>(d.parts.overhead);
        sum += total;
        mx = std::max(mx, alloc);
    }
    double total_max = 0;
    for (const auto& d : e.devices)
        if (d.kind == device_kind::cuda) total_max = std::max(total_max, static_cast<double>(d.total_bytes()));
    if (kind == "cuda_total_sum") return sum;
    if (kind == "cuda_total_max") return total_max;
    return mx;
}

// At the counter the source printed, as score.py reads the contract's `counters` (an unknown counter: the
// closest of the three to the measurement, since the source did not say which it printed).
double metric_bytes(const training_estimate& e, const training_params& p, const train_case& c) {
    if (c.counter.empty()) return metric_bytes(e, c.metric);
    const bool sum = c.metric.ends_with("_sum");
    std::array<double, 3> v{};
    for (const auto& d : e.devices) {
        const auto k = detail::training_counters(d, p);
        if (!k) continue;
        const std::array<double, 3> x{static_cast<double>(k->torch_allocated), static_cast<double>(k->torch_reserved),
                                      static_cast<double>(k->device_used)};
        for (std::size_t i = 0; i < 3; ++i)
            v[i] = sum ? v[i] + x[i] : std::max(v[i], x[i]);
    }
    if (c.counter == "torch_allocated") return v[0];
    if (c.counter == "torch_reserved") return v[1];
    if (c.counter == "device_used") return v[2];
    double best = v[0];
    for (const double x : v)
        if (std::fabs(x - c.measured_bytes) < std::fabs(best - c.measured_bytes)) best = x;
    return best;
}

struct band_acc {
    std::vector<double> ratios; ///< measured / estimate - 1 of each case of the kind
};

// The value at rank ceil(q x n) of the sorted ratios (nearest rank): with 50 cases the 5th and the 45th.
double nearest_rank(const std::vector<double>& sorted, double q) {
    const auto n    = sorted.size();
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(n)));
    return sorted[std::min(n, std::max<std::size_t>(rank, 1)) - 1];
}

std::string bands_inc(const std::map<std::string, band_acc>& bands) {
    std::string s =
        "// Generated by tests/unit/training_accuracy_test.cpp from tests/data/truth/train_cases.jsonl\n"
        "// (LLMPLAN_WRITE_BANDS=1); measured / estimate - 1 over the dev cases of each kind: lowest, 10th\n"
        "// percentile, 90th percentile (nearest rank), highest, cases.\n";
    char buf[160];
    for (const auto& [kind, b] : bands) {
        auto r = b.ratios;
        std::sort(r.begin(), r.end());
        std::snprintf(buf, sizeof buf, "{\"%s\", %.3f, %.3f, %.3f, %.3f, %zu},\n", kind.c_str(), r.front(),
                      nearest_rank(r, 0.1), nearest_rank(r, 0.9), r.back(), r.size());
        s += buf;
    }
    return s;
}

// The trainer each source ran, as its notes (../shared/truth/*.json how_measured) say. The outside
// measure runs every case with the default trainer (score.py passes only the contract's options);
// this test checks the mechanisms with the trainer each run really used.
std::vector<std::string> trainer_of(const std::string& source) {
    // Qwen's finetune.py pads every sample to model_max_length (fixed lengths), HF Trainer + PEFT.
    if (source == "qwen1_readme_profiling") return {"--trainer", "hf", "--batch-lengths", "fixed"};
    // Qwen-VL's finetune.py is the same script (preprocess pads every sample to max_len), vision tower
    // frozen (fix_vit).
    if (source == "qwen_vl_readme_profiling") return {"--trainer", "hf", "--batch-lengths", "fixed"};
    // swift sft 1.x: HF Trainer, its own LoRA tuner, dynamic padding of cls-fudan-news-zh.
    if (source == "ms_swift_benchmark") return {"--trainer", "ms-swift"};
    // torchtune's README runs: packed samples of 2048 tokens.
    if (source == "torchtune_readme_memory") return {"--trainer", "torchtune", "--batch-lengths", "fixed"};
    return {};
}

// Settings a source documents for some of its runs that the contract's options do not carry. Qwen's
// finetune.py passes modules_to_save=["wte", "lm_head"] when LoRA-tuning a base model (not Q-LoRA, no
// "chat" in the name); its README gives "LoRA" and "LoRA (emb)" rows apart for the sizes that fit one
// GPU, but a single row for Qwen-72B (base) with LoRA + ZeRO-3, which is the emb setting.
std::vector<std::string> documented_settings(const train_case& c) {
    const bool qwen72_zero3_lora = c.source == "qwen1_readme_profiling" &&
                                   c.model_dir == "models/Qwen--Qwen-72B-Chat" &&
                                   std::find(c.args.begin(), c.args.end(), "lora") != c.args.end();
    if (qwen72_zero3_lora) return {"--lora-targets", "all-linear,embed,lm_head"};
    return {};
}

// Cases the default trainer cannot match, and why (bench/accuracy_train.md). A case listed here
// that starts passing fails the test too, so the list stays true.
const std::map<std::string, std::string>& known_misses() {
    static const std::map<std::string, std::string> m = [] {
        std::map<std::string, std::string> r;
        auto add = [&r](std::initializer_list<const char*> ids, const char* why) {
            for (const char* id : ids)
                r[id] = why;
        };
        add({"torchtune_readme_memory#7"}, "Llama-3.1-405B QLoRA on 8 GPUs: the FSDP prefetch of a 405B layer is "
                                           "counted whole; torchtune's NF4 layers gather smaller: over-estimate");
        add({"ms_swift_benchmark#7"}, "ms-swift 1.x NF4 (bitsandbytes 0.41) on Qwen-14B (-10.1%): its reserve "
                                      "exceeds the GPTQ-Int4 twin's (#5) by 66 MiB a layer; the load-time "
                                      "quantization (a 16-bit copy of each weight, then freed) leaves about 5 MiB "
                                      "a layer of free blocks in a replay of the caching allocator, not that "
                                      "(bench/accuracy_train.md, eighth pass)");
        add({"ms_swift_benchmark#12"}, "max_length 512 keeps few samples of the dataset (lengths 91-19548, mean "
                                       "3234): a short run whose reserve has not grown: over-estimate");
        add({"ms_swift_benchmark#34", "ms_swift_benchmark#39"},
            "ChatGLM3-6B and Yi-6B at 2048 tokens with the records' fp32 logits blocks counted (training_runtime.cpp, "
            "stranded_record_blocks): those rows ran with truncation_left (Benchmark.md @ 97e4d198: most samples cut "
            "to max_length, few record steps); over-estimate");
        add({"ms_swift_benchmark#64", "ms_swift_benchmark#66"},
            "ms-swift's own caveat: reserved memory is not monotonic in seq for Qwen-1.8B full fine-tuning (35.11 GiB "
            "at 2048, 31.62 at 4096)");
        add({"ms_swift_benchmark#78", "ms_swift_benchmark#80"},
            "micro-batch 2 over the whole dataset reserves 2.6x the transient beyond the allocation where 1.9x is "
            "counted (training_runtime.cpp; -11.6%); batch 8 is capped by the 80 GiB GPU, which the case does not "
            "name: over-estimate");
        add({"ms_swift_benchmark#16", "ms_swift_benchmark#21", "ms_swift_benchmark#26", "ms_swift_benchmark#56",
             "ms_swift_benchmark#65"},
            "the 1000-sample runs at 4096-8192 tokens of ms-swift's Max Length table reserve 1.1-1.5x the transient "
            "beyond the allocation (Qwen-1's rows ran with truncation_left: most steps at max_length, few records), "
            "where whole-dataset runs reserve 1.7-2.0x and 1.9x is counted (training_runtime.cpp): over-estimate");
        add({"ms_swift_benchmark#111", "ms_swift_benchmark#112", "ms_swift_benchmark#116"},
            "ms-swift's Tuners table: the reserve grows with the run's length (2.0, 2.8, 3.2x the transient beyond "
            "the allocation for 7900 packed, 29698 and 87543 samples; #118 and #88 pass); #116 adds DDP: 7.6 GiB "
            "over #118, not in DDP's documented buffers for 0.02 B trained params");
        // The shared cases of the other training sources (added so that the bands rest on every trainer's
        // runs; bench/accuracy_train.md, "What the misses are now").
        add({"ms_swift_benchmark#33", "ms_swift_benchmark#53", "ms_swift_benchmark#54", "ms_swift_benchmark#59"},
            "ChatGLM3-6B at 1024 and Baichuan2 7B/13B at 1024-2048 reserve less than the Qwen rows of the same "
            "table (1.9x the transient beyond the allocation is fitted on the whole-dataset runs): over-estimate");
        add({"ms_swift_benchmark#36"},
            "ChatGLM3-6B grows 29.8 -> 66.8 GiB from 4096 to 8192 tokens, 47.5 GiB above the allocation at 8192 "
            "where Yi-6B in the same conditions is 24.6; its remote code calls SDPA with is_causal=True when the "
            "batch has no padding (flash, no seq x seq matrix), and which kernel ran is not recorded");
        add({"litgpt_config_hub_finetune#3"},
            "gemma-2b/full.yaml: global batch 16 over 4 GPUs at micro-batch 1 accumulates 4 micro-steps under "
            "FSDP no_sync (unsharded gradients held); the case options carry no --grad-accum (--grad-accum 4: "
            "-8.6% at the allocated counter, bench/accuracy_train.md \"Round ttune\")");
        add({"litgpt_config_hub_finetune#44"},
            "LitGPT Phi-3 QLoRA without checkpointing (-11.8%): what is left of QLoRA's excess over the LoRA run of "
            "the same model once bitsandbytes' MatMul4Bit keeping each input, the fused q/k/v buffer, the plain "
            "absmax and the bf16 chunked loss are counted; not found in MatMul4Bit or Fabric's 4-bit path "
            "(bench/accuracy_train.md, fifth pass)");
        return r;
    }();
    return m;
}

TEST(TrainingAccuracy, PublishedMeasurements) {
    const auto cases = load_cases();
    ASSERT_GE(cases.size(), std::getenv("LLMPLAN_TRAIN_CASES") != nullptr ? 1u : 100u);
    int passed = 0;
    std::vector<std::string> failed, fixed, under_plain;
    std::vector<double> abs_err;
    std::map<std::string, band_acc> bands;
    constexpr double gib = 1024.0 * 1024.0 * 1024.0;
    for (const auto& c : cases) {
        training_params p;
        std::string err;
        auto args = c.args;
        for (const auto& a : trainer_of(c.source))
            args.push_back(a);
        for (const auto& a : documented_settings(c))
            args.push_back(a);
        ASSERT_TRUE(parse_args(args, p, err)) << c.id << ": " << err;
        // model_dir "models/X" is data/models/X (the catalog) or tests/data/models/X (test-only configs).
        const std::string test_only = std::string(LLMPLAN_TEST_DATA) + "/" + c.model_dir;
        auto m                      = load_model(
                                 std::filesystem::exists(test_only) ? test_only : std::string(LLMPLAN_SOURCE_DIR) + "/data/" + c.model_dir);
        ASSERT_TRUE(m) << c.id << ": " << m.error().what();
        auto e = estimate_training(*m, p);
        ASSERT_TRUE(e) << c.id << ": " << e.error().what();
        const double predicted = metric_bytes(*e, p, c);
        const double rel       = (predicted - c.measured_bytes) / c.measured_bytes;
        const bool ok          = std::fabs(rel) <= c.tolerance && rel >= -0.10;
        const bool listed      = known_misses().count(c.id) != 0;
        std::printf("%-30s predicted %7.2f GiB  measured %7.2f GiB  error %+6.1f%%  %s\n", c.id.c_str(),
                    predicted / gib, c.measured_bytes / gib, rel * 100.0,
                    ok       ? "ok"
                    : listed ? "known miss"
                             : "MISS");
        abs_err.push_back(std::fabs(rel));
        // The band is of the default trainer's estimate (what a user gets without --trainer).
        training_params plain;
        ASSERT_TRUE(parse_args(c.args, plain, err));
        auto e_plain = estimate_training(*m, plain);
        ASSERT_TRUE(e_plain);
        const double predicted_plain = metric_bytes(*e_plain, plain, c);
        // What score.py measures (no --trainer): an OOM-side miss of the default trainer must be listed too.
        // (A run whose documented setting the contract's options cannot carry is explained by it.)
        if ((predicted_plain - c.measured_bytes) / c.measured_bytes < -0.10 && !listed &&
            documented_settings(c).empty())
            under_plain.push_back(c.id);
        bands[training_kind(plain)].ratios.push_back(c.measured_bytes / predicted_plain - 1.0);
        bands[detail::training_trainer_kind(plain)].ratios.push_back(c.measured_bytes / predicted_plain - 1.0);
        if (ok) ++passed;
        if (!ok && !listed) failed.push_back(c.id);
        if (ok && listed) fixed.push_back(c.id);
    }
    std::sort(abs_err.begin(), abs_err.end());
    std::printf("within tolerance: %d of %zu, median |error| %.1f%%\n", passed, cases.size(),
                abs_err.empty() ? 0.0 : abs_err[abs_err.size() / 2] * 100.0);
    for (const auto& id : failed)
        ADD_FAILURE() << id << " misses and is not a listed known miss";
    for (const auto& id : under_plain)
        ADD_FAILURE() << id << " is under-estimated by more than 10% with the default trainer and is not listed";
    if (std::getenv("LLMPLAN_TRAIN_CASES") != nullptr) return;
    for (const auto& id : fixed)
        ADD_FAILURE() << id << " now passes: remove it from known_misses()";

    // The band table the CLI prints is exactly what these cases give.
    const std::string path = std::string(LLMPLAN_SOURCE_DIR) + "/src/estimate/training_bands.inc";
    const std::string want = bands_inc(bands);
    if (std::getenv("LLMPLAN_WRITE_BANDS") != nullptr) std::ofstream(path) << want;
    std::ifstream f(path);
    std::stringstream have;
    have << f.rdbuf();
    EXPECT_EQ(have.str(), want) << "src/estimate/training_bands.inc is stale: rerun with LLMPLAN_WRITE_BANDS=1";
}

} // namespace
} // namespace llmplan
