// Training memory against published measurements (tests/data/truth/train_cases.jsonl: the training
// cases of ../shared/bench/cases/dev.jsonl, from qwen1_readme_profiling.json and
// torchtune_readme_memory.json). Each case gives the CLI options, the metric and its tolerance:
//   cuda_total_sum     = sum over GPUs of total_bytes (Qwen's tables: nvidia-smi style, summed)
//   cuda_allocated_max = max over GPUs of total_bytes - overhead (torchtune: torch's allocated peak)
// A case passes when |error| <= tolerance and it is not under by more than 10%.
#include "llmplan/estimate.h"
#include "llmplan/load.h"
#include "llmplan/weights.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace llmplan {
namespace {

struct train_case {
    std::string id, model_dir, metric;
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
        c.model_dir      = j.at("model_dir").get<std::string>();
        c.metric         = j.at("metric").at("kind").get<std::string>();
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
    return kind == "cuda_total_sum" ? sum : mx;
}

TEST(TrainingAccuracy, PublishedMeasurements) {
    const auto cases = load_cases();
    ASSERT_GE(cases.size(), std::getenv("LLMPLAN_TRAIN_CASES") != nullptr ? 1u : 20u);
    int passed = 0;
    std::vector<std::string> failed;
    constexpr double gib = 1024.0 * 1024.0 * 1024.0;
    for (const auto& c : cases) {
        training_params p;
        std::string err;
        ASSERT_TRUE(parse_args(c.args, p, err)) << c.id << ": " << err;
        // model_dir "models/X" is data/models/X in the repository.
        auto m = load_model(std::string(LLMPLAN_SOURCE_DIR) + "/data/" + c.model_dir);
        ASSERT_TRUE(m) << c.id << ": " << m.error().what();
        auto e = estimate_training(*m, p);
        ASSERT_TRUE(e) << c.id << ": " << e.error().what();
        const double predicted = metric_bytes(*e, c.metric);
        const double rel       = (predicted - c.measured_bytes) / c.measured_bytes;
        const bool ok          = std::fabs(rel) <= c.tolerance && rel >= -0.10;
        std::printf("%-30s predicted %7.2f GiB  measured %7.2f GiB  error %+6.1f%%  %s\n", c.id.c_str(),
                    predicted / gib, c.measured_bytes / gib, rel * 100.0, ok ? "ok" : "MISS");
        if (ok)
            ++passed;
        else
            failed.push_back(c.id);
    }
    std::printf("within tolerance: %d of %zu\n", passed, cases.size());
    // Known misses (bench/accuracy_train.md): Qwen-7B full fine-tuning on 2 GPUs grows 18 MB a token
    // per GPU in the table, which no checkpointed ZeRO-3 run allocates; its 1024-token row is under.
    EXPECT_GE(static_cast<double>(passed), 0.9 * static_cast<double>(cases.size()));
}

} // namespace
} // namespace llmplan
