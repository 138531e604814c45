// Inference accuracy against memory measured on real runs.
//
// tests/data/truth/infer_cases.jsonl holds the measured inference cases of tests/data/truth/*.json
// turned into CLI options (a copy of the dev split of the outside accuracy measure). Each case runs
// the real CLI (`llmplan estimate DIR ARGS --json`), takes the metric the case names and compares
// it with the measurement. A case outside its tolerance fails the test unless it is one of the
// known misses listed below with the reason; the summary per source is printed for bench/accuracy.
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace {

using json = nlohmann::json;

// Known misses, each with its reason. Keep this list short and honest.
const std::set<std::string> known_misses = {
    // Eval-depth and all-logits runs: same options as other cases but 4000-16000 tokens evaluated
    // (or logits for every token); the CLI cannot express the number of tokens evaluated, and
    // llama.cpp's compute buffer only becomes resident when used (llamacpp_cpu_notes.md).
    "llamacpp_cpu_measured#190:rss",
    "llamacpp_cpu_measured#191:rss",
    "llamacpp_cpu_measured#203:rss",
    "llamacpp_cpu_measured#204:rss",
    "llamacpp_cpu_measured#205:rss",
    "llamacpp_cpu_measured#206:rss",
    // vLLM: non-torch memory logged as 1.79 GiB on one 80 GB GPU and 0.35 GiB on a 3090; one constant
    // cannot meet both; the Dec-2023 Llama-2-70B TP=4 block count predates vLLM's profiling fixes.
    "vllm_issue_logs#0:overhead",
    "vllm_issue_logs#2:kv_pool",
    "vllm_issue_logs#6:kv_pool",
    // octocoder 4-bit: bitsandbytes FP4 run through pipeline(); 17% under (see bench/README.md).
    "hf_transformers_llm_optimization_doc#2",
};
// Qwen-1 (remote code) cases: 26 of 29 within tolerance; the misses are Int4/Int8 runs whose
// kernel versions (auto_gptq 0.4-0.6) the README does not pin. Tracked as a share.
constexpr double qwen1_min_within = 0.85;

std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

json run_cli(const json& c) {
    std::string cmd = std::string(LLMPLAN_CLI) + " estimate " +
                      shell_quote(std::string(LLMPLAN_SOURCE_DIR) + "/data/" + c["model_dir"].get<std::string>());
    for (const auto& a : c["args"])
        cmd += " " + shell_quote(a.get<std::string>());
    cmd += " --json 2>/dev/null";
    std::string out;
    FILE* f = popen(cmd.c_str(), "r");
    if (!f) return {};
    std::array<char, 4096> buf{};
    while (std::size_t n = fread(buf.data(), 1, buf.size(), f))
        out.append(buf.data(), n);
    pclose(f);
    return json::parse(out, nullptr, false);
}

double metric(const json& m, const json& doc) {
    const std::string kind = m["kind"];
    auto devs              = [&](const std::string& which) {
        std::vector<json> v;
        for (const auto& d : doc["devices"]) {
            const std::string name = d["device"];
            if (which == "all" || (which.rfind("cuda", 0) == 0 && name.rfind("cuda", 0) == 0) ||
                (which == "cpu" && name == "cpu"))
                v.push_back(d);
        }
        return v;
    };
    if (kind == "part" || kind == "parts_sum") {
        std::vector<std::string> parts;
        if (kind == "part")
            parts.push_back(m["part"]);
        else
            for (const auto& p : m["parts"])
                parts.push_back(p);
        const std::string which = m.value("devices", "all");
        double best = 0, sum = 0;
        for (const auto& d : devs(which)) {
            double v = 0;
            for (const auto& p : parts)
                v += d["parts"][p].get<double>();
            best = std::max(best, v);
            sum += v;
        }
        return which == "cuda_max" ? best : sum;
    }
    std::string scope = kind == "fits" ? m.value("scope", "cuda_total_max") : kind;
    const bool alloc  = scope.find("allocated") != std::string::npos;
    double best = 0, sum = 0;
    for (const auto& d : devs(scope.rfind("cpu", 0) == 0 ? "cpu" : "cuda")) {
        const double v = d["total_bytes"].get<double>() - (alloc ? d["parts"]["overhead"].get<double>() : 0.0);
        best           = std::max(best, v);
        sum += v;
    }
    return scope.size() > 4 && scope.substr(scope.size() - 4) == "_max" ? best : sum;
}

TEST(accuracy, inference_cases_within_tolerance) {
    std::ifstream in(std::string(LLMPLAN_TEST_DATA) + "/truth/infer_cases.jsonl");
    ASSERT_TRUE(in.good());
    struct stats {
        int n = 0, ok = 0, under10 = 0;
    };
    std::map<std::string, stats> by_source;
    std::string line;
    while (std::getline(in, line)) {
        const json c             = json::parse(line);
        const std::string id     = c["id"];
        const std::string source = c["source"];
        const json doc           = run_cli(c);
        auto& s                  = by_source[source];
        ++s.n;
        ASSERT_TRUE(doc.is_object() && doc.contains("devices")) << id << ": no JSON from the CLI";
        const double pred = metric(c["metric"], doc);
        bool ok           = false;
        double err        = 0;
        if (c["metric"]["kind"] == "fits") {
            const double cap = c["metric"]["capacity_bytes"];
            ok               = (pred <= cap) == c["metric"]["expected"].get<bool>();
        } else {
            const double meas = c["measured_bytes"];
            err               = (pred - meas) / meas;
            ok                = std::abs(err) <= c["tolerance"].get<double>();
            s.under10 += err < -0.10 ? 1 : 0;
        }
        s.ok += ok ? 1 : 0;
        if (!ok && !known_misses.count(id) && source != "qwen1_readme_profiling")
            ADD_FAILURE() << id << ": predicted " << pred << ", error " << err * 100 << "%";
    }
    for (const auto& [source, s] : by_source) {
        std::printf("%-40s n %3d  within tolerance %5.1f%%  under by >10%% %d\n", source.c_str(), s.n,
                    100.0 * s.ok / s.n, s.under10);
        if (source == "qwen1_readme_profiling") EXPECT_GE(static_cast<double>(s.ok) / s.n, qwen1_min_within);
    }
}

} // namespace
