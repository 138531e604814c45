// Memory accuracy on the default path: the dev cases of the outside measure run exactly as
// ../shared/bench/score.py runs them (`llmplan estimate MODEL_DIR ARGS --json`, the case's options
// unchanged: no --engine-version, no --trainer), scored as its benchlib.py scores them.
//
// tests/data/truth/dev_cases.jsonl is a copy of ../shared/bench/cases/dev.jsonl (bench/dev_cases.py:
// the 1619 cases that name a model folder, the only ones score.py runs without --catalog), so that
// ctest does not read ../shared. accuracy_infer_test and training_accuracy_test stay beside this test:
// they run each source with the engine release or the trainer it names, which checks the mechanisms;
// this one guards what a user and the outside measure get.
//
// What fails it:
//   - a source, or the whole, below its floor: the count of cases within tolerance measured on
//     the date written beside the floors (raise the floors as estimates improve; never lower one
//     without a note saying why);
//   - a known miss (accuracy_default_misses.h) whose error grows past its ceiling;
//   - a known miss that starts passing (remove it from the list and raise its source's floor);
//   - a case outside its tolerance that is not listed.
// LLMPLAN_PRINT_DEV_MISSES=1 prints the misses of this build in the list's form, to review.
#include "accuracy_default_misses.h"
#include "error_bar_table.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using json = nlohmann::json;

// Floors: cases within tolerance, per source and overall, measured on 2026-12-05 (main at 6ce4d59 with
// this test's branch; ../shared/bench/score.py on the same binary gives the same shares: 1448 of 1619,
// 89.4%). Each floor is today's count: a case that stops passing fails the test.
struct floor_row {
    const char* source;
    int cases;  ///< cases of the source in dev_cases.jsonl
    int within; ///< of them within tolerance (the floor)
};
// Training bands against the measured runs (the block at the end of the test): the dev runs the
// band table was written from, the dev runs of other sources, and of those the floor inside their band.
// Floor lowered 38 -> 37 with the training-memory merge of 2026-12-06 (LitGPT's grouped K/V repeated
// to every head, Gemma-2 capped attention, Baichuan 2 ALiBi): LitGPT's dev runs within tolerance rose
// 51.3% -> 69.2% and one of its runs left the band the hf-trainer rows were written from.
// 2026-12-06, later: the band table now rests on every training source whose run compares a measured value
// and whose model is in data/models (LitGPT's two sources, torchtune's docs, PEFT's DeepSpeed/FSDP page,
// the catalog's ChatGLM3/Baichuan2/Qwen-VL-Int4 rows: train_cases.jsonl 129 -> 193), so LitGPT answers print
// LitGPT's own spread; 161 of those are dev cases with a model folder, all inside their band. The two left
// outside are hf_peft_readme's rows, which state no sequence length or batch.
constexpr int band_table_runs = 161, band_other_runs = 2, band_other_inside_floor = 2;

// clang-format off
const std::vector<floor_row> floors = {
#include "accuracy_default_floors.inc"
};
// clang-format on

std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// model_dir "models/X": data/models/X (the catalog) or tests/data/models/X (test-only configs).
std::string model_path(const std::string& model_dir) {
    const std::string test_only = std::string(LLMPLAN_TEST_DATA) + "/" + model_dir;
    return std::filesystem::exists(test_only) ? test_only : std::string(LLMPLAN_SOURCE_DIR) + "/data/" + model_dir;
}

/// The CLI's answer, or null when it exits with an error or prints no JSON (score.py: unanswered).
json run_case(const json& c, const std::string& env) {
    std::string cmd = env + " " + std::string(LLMPLAN_CLI) + " estimate " + shell_quote(model_path(c["model_dir"]));
    for (const auto& a : c["args"])
        cmd += " " + shell_quote(a.get<std::string>());
    cmd += " --json 2>/dev/null";
    std::string out;
    FILE* f = popen(cmd.c_str(), "r");
    if (!f) return nullptr;
    std::array<char, 4096> buf{};
    while (std::size_t n = fread(buf.data(), 1, buf.size(), f))
        out.append(buf.data(), n);
    const int status = pclose(f);
    if (status != 0) return nullptr;
    return json::parse(out, nullptr, false);
}

// ---- benchlib.py's extract_metric, line for line: std::nullopt where it raises (unanswered).
using opt = std::optional<double>;

opt as_int(const json& v) {
    if (v.is_boolean() || !v.is_number()) return std::nullopt;
    return std::trunc(v.get<double>()); // Python int(): toward zero
}

std::vector<json> devices(const json& doc, const std::string& which) {
    std::vector<json> out;
    if (!doc.contains("devices") || !doc["devices"].is_array()) return out;
    for (const auto& d : doc["devices"]) {
        const std::string name = d.contains("device") && d["device"].is_string() ? d["device"].get<std::string>() : "";
        if (which == "all" || ((which == "cuda" || which == "cuda_max") && name.rfind("cuda", 0) == 0) ||
            (which == "cpu" && name == "cpu"))
            out.push_back(d);
    }
    return out;
}

const std::array<const char*, 3> counters = {"torch_allocated", "torch_reserved", "device_used"};

std::optional<std::vector<double>> counter_values(const std::vector<json>& devs, const std::string& counter) {
    if (std::find(counters.begin(), counters.end(), counter) == counters.end()) return std::nullopt;
    std::vector<double> out;
    for (const auto& d : devs) {
        if (!d.contains("counters") || !d["counters"].is_object() || !d["counters"].contains(counter))
            return std::nullopt;
        const opt v = as_int(d["counters"][counter]);
        if (!v) return std::nullopt;
        out.push_back(*v);
    }
    return out;
}

double aggregate(const std::vector<double>& v, bool max) {
    double s = 0, m = 0;
    for (double x : v) {
        s += x;
        m = std::max(m, x);
    }
    return max ? m : s;
}

opt metric_value(const json& metric, const json& doc, opt measured) {
    const std::string kind = metric["kind"];
    if (kind == "disk_bytes") return doc.contains("disk_bytes") ? as_int(doc["disk_bytes"]) : std::nullopt;
    if (kind == "cuda_allocated_sum" || kind == "cuda_allocated_max" || kind == "cuda_total_sum" ||
        kind == "cuda_total_max" || kind == "cpu_total" || kind == "cpu_allocated") {
        const auto devs = devices(doc, kind.rfind("cpu", 0) == 0 ? "cpu" : "cuda");
        if (devs.empty()) return std::nullopt;
        const bool max            = kind.size() > 4 && kind.substr(kind.size() - 4) == "_max";
        const std::string counter = metric.contains("counter") ? metric["counter"].get<std::string>() : "";
        if (counter == "unknown" && measured && *measured != 0) {
            std::optional<double> best;
            for (const char* c : counters) {
                const auto v = counter_values(devs, c);
                if (!v || v->empty()) continue;
                const double x = aggregate(*v, max);
                if (!best || std::abs(x - *measured) < std::abs(*best - *measured)) best = x;
            }
            if (best) return best;
        }
        if (!counter.empty())
            if (const auto v = counter_values(devs, counter)) return aggregate(*v, max);
        const bool alloc = kind.find("allocated") != std::string::npos;
        std::vector<double> v;
        for (const auto& d : devs) {
            const opt total = d.contains("total_bytes") ? as_int(d["total_bytes"]) : std::nullopt;
            if (!total) return std::nullopt;
            double x = *total;
            if (alloc) {
                if (!d.contains("parts") || !d["parts"].contains("overhead")) return std::nullopt;
                const opt o = as_int(d["parts"]["overhead"]);
                if (!o) return std::nullopt;
                x -= *o;
            }
            v.push_back(x);
        }
        return aggregate(v, max);
    }
    if (kind == "part" || kind == "parts_sum") {
        std::vector<std::string> parts;
        if (kind == "part")
            parts.push_back(metric["part"]);
        else
            for (const auto& p : metric["parts"])
                parts.push_back(p);
        const std::string which = metric.value("devices", "all");
        const auto devs         = devices(doc, which);
        if (devs.empty()) return std::nullopt;
        std::vector<double> v;
        for (const auto& d : devs) {
            double s = 0;
            for (const auto& p : parts) {
                if (!d.contains("parts") || !d["parts"].contains(p)) return std::nullopt;
                const opt x = as_int(d["parts"][p]);
                if (!x) return std::nullopt;
                s += *x;
            }
            v.push_back(s);
        }
        return aggregate(v, which == "cuda_max");
    }
    if (kind == "fits") {
        json inner = {
            {"kind", metric.value("scope", "cuda_total_max")}
        };
        inner["counter"] = metric.value("counter", "device_used");
        return metric_value(inner, doc, std::nullopt);
    }
    return std::nullopt;
}

struct scored {
    bool answered = false, ok = false;
    double err = 0; ///< signed relative error; for "fits", how far past the capacity on the wrong side
};

// benchlib.py's case_error.
scored score(const json& c, const json& doc) {
    scored s;
    if (!doc.is_object()) return s;
    const json& m      = c["metric"];
    const opt measured = c.contains("measured_bytes") && c["measured_bytes"].is_number()
                             ? opt(c["measured_bytes"].get<double>())
                             : std::nullopt;
    const opt pred     = metric_value(m, doc, measured);
    if (!pred) return s;
    s.answered = true;
    if (m["kind"] == "fits") {
        const double cap    = m["capacity_bytes"];
        const double margin = (*pred - cap) / cap;
        const bool expected = m["expected"];
        s.ok                = (*pred <= cap) == expected;
        s.err               = expected ? std::max(0.0, margin) : std::min(0.0, margin);
    } else {
        s.err = (*pred - *measured) / *measured;
        s.ok  = std::abs(s.err) <= c["tolerance"].get<double>();
    }
    return s;
}

TEST(accuracy_default, dev_cases_as_the_outside_measure_runs_them) {
    std::ifstream in(std::string(LLMPLAN_TEST_DATA) + "/truth/dev_cases.jsonl");
    ASSERT_TRUE(in.good());
    std::vector<json> cases;
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) cases.push_back(json::parse(line));

    // Offline, with a private cache: nothing from the developer's Hub cache or network settings.
    std::string cache = (std::filesystem::temp_directory_path() / "llmplan_accuracy_default_XXXXXX").string();
    ASSERT_NE(mkdtemp(cache.data()), nullptr);
    const std::string env =
        "env HF_HUB_OFFLINE=1 XDG_CACHE_HOME=" + shell_quote(cache) + " HF_HOME=" + shell_quote(cache + "/hf");
    std::vector<json> docs(cases.size());
    const unsigned n_threads = std::max(2u, std::min(8u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < n_threads; ++t)
        pool.emplace_back([&, t] {
            for (std::size_t i = t; i < cases.size(); i += n_threads)
                docs[i] = run_case(cases[i], env);
        });
    for (auto& th : pool)
        th.join();
    std::filesystem::remove_all(cache);

    struct tally {
        int n = 0, answered = 0, ok = 0;
    };
    std::map<std::string, tally> by_source;
    tally all;
    const auto& misses = llmplan::test::dev_known_misses();
    std::map<std::string, double> listed(misses.begin(), misses.end());
    const bool print = std::getenv("LLMPLAN_PRINT_DEV_MISSES") != nullptr;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const json& c        = cases[i];
        const std::string id = c["id"];
        const scored s       = score(c, docs[i]);
        for (tally* t : {&by_source[c["source"].get<std::string>()], &all}) {
            ++t->n;
            t->answered += s.answered ? 1 : 0;
            t->ok += s.ok ? 1 : 0;
        }
        const auto it = listed.find(id);
        if (print && !s.ok)
            std::printf("    {\"%s\", %s},\n", id.c_str(),
                        s.answered ? std::to_string(std::ceil(std::abs(s.err) * 1000.0 + 1.0) / 1000.0).c_str()
                                   : "unanswered");
        if (it == listed.end()) {
            if (!s.ok)
                ADD_FAILURE() << id << ": "
                              << (s.answered ? "error " + std::to_string(100.0 * s.err) + "%, outside its tolerance"
                                             : std::string("unanswered"))
                              << " on the default path, and not a listed known miss";
            continue;
        }
        const double ceiling = it->second;
        listed.erase(it);
        if (s.ok)
            ADD_FAILURE() << id << " now passes: remove it from accuracy_default_misses.h and raise the floor of "
                          << c["source"].get<std::string>() << " in accuracy_default_floors.inc";
        else if (ceiling >= 0 && !s.answered)
            ADD_FAILURE() << id << ": no longer answered (its listed error ceiling is " << 100.0 * ceiling << "%)";
        else if (ceiling >= 0 && std::abs(s.err) > ceiling)
            ADD_FAILURE() << id << ": error " << 100.0 * s.err << "%, past its listed ceiling of " << 100.0 * ceiling
                          << "%";
        else if (ceiling < 0 && s.answered)
            ADD_FAILURE() << id << ": now answered (error " << 100.0 * s.err
                          << "%): give it its error ceiling in accuracy_default_misses.h";
    }
    for (const auto& [id, ceiling] : listed)
        ADD_FAILURE() << id << ": listed as a known miss but not among the cases";

    std::printf("%-40s %5s %5s %8s\n", "source (default path)", "n", "ans", "in-tol");
    for (const auto& [source, t] : by_source)
        std::printf("%-40s %5d %5d %7.1f%%\n", source.c_str(), t.n, t.answered, 100.0 * t.ok / t.n);
    std::printf("%-40s %5d %5d %7.1f%%\n", "overall", all.n, all.answered, 100.0 * all.ok / all.n);

    if (print) {
        for (const auto& [source, t] : by_source)
            std::printf("{\"%s\", %d, %d},\n", source.c_str(), t.n, t.ok);
        std::printf("{\"overall\", %d, %d},\n", all.n, all.ok);
    }

    // The error bars every inference answer publishes (its "accuracy" block, from
    // data/accuracy/infer_error_bars.csv) are these cases as users run them: the default path, not
    // the engine-release-pinned runs of accuracy_infer_test (on which they once were 93% within
    // tolerance for transformers on CUDA where users get 80%). A table that is not what this build
    // measures fails; the fresh one is written beside the test to copy over.
    std::map<std::string, llmplan::test::bar_stats> bars;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const json& d = docs[i];
        const json& c = cases[i];
        if (!d.is_object() || !d.contains("accuracy") || !d.contains("workload") || c["metric"]["kind"] == "fits")
            continue;
        const scored s = score(c, d);
        if (!s.answered) continue;
        const json& w = d["workload"];
        auto& b       = bars[w["engine"].get<std::string>() + "," + w["device"].get<std::string>() + "," +
                       d["accuracy"]["weight_class"].get<std::string>()];
        b.abs_err.push_back(std::abs(s.err));
        b.ok += s.ok ? 1 : 0;
        b.under10 += s.err < -0.10 ? 1 : 0;
    }
    const std::string table = llmplan::test::error_bar_table(bars);
    std::ifstream committed_in(std::string(LLMPLAN_SOURCE_DIR) + "/data/accuracy/infer_error_bars.csv");
    std::stringstream committed;
    committed << committed_in.rdbuf();
    if (committed.str() != table) {
        std::ofstream("infer_error_bars.csv") << table;
        ADD_FAILURE() << "data/accuracy/infer_error_bars.csv is not what this build measures on the default path; "
                         "the fresh table is in the test's working directory (build/tests/infer_error_bars.csv): "
                         "review it and copy it over";
    }

    // The training bands every training answer prints (its "band": src/estimate/training_bands.inc, which
    // training_accuracy_test writes from train_cases.jsonl) held against the measured runs themselves,
    // through the answer a user gets: measured / estimate - 1, the estimate read as score.py reads it,
    // must lie inside the band the answer printed. Every case the table was written from must be inside
    // (a band that stops covering its own runs, or an estimate that moved without the table, fails); the
    // dev runs left out of the table (hf_peft_readme's, with no stated sequence length) are held at
    // today's count. Half a unit of the table's 3 decimals of
    // slack: the table rounds its ends.
    std::set<std::string> band_source_ids;
    {
        std::ifstream tin(std::string(LLMPLAN_TEST_DATA) + "/truth/train_cases.jsonl");
        for (std::string line; std::getline(tin, line);)
            if (!line.empty()) band_source_ids.insert(json::parse(line)["id"].get<std::string>());
    }
    int in_table = 0, outside_in_table = 0, others = 0, others_inside = 0, others_p10_p90 = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const json& d = docs[i];
        const json& c = cases[i];
        if (c["task"] != "train" || c["metric"]["kind"] == "fits" || !d.is_object() || !d.contains("band") ||
            !d["band"].is_object())
            continue;
        const opt pred = metric_value(c["metric"], d, c["measured_bytes"].get<double>());
        if (!pred || *pred <= 0) continue;
        const double ratio     = c["measured_bytes"].get<double>() / *pred - 1.0;
        const json& b          = d["band"];
        constexpr double slack = 0.0005;
        const bool inside      = ratio >= b["low"].get<double>() - slack && ratio <= b["high"].get<double>() + slack;
        const std::string id   = c["id"];
        if (band_source_ids.count(id)) {
            ++in_table;
            if (!inside) {
                ++outside_in_table;
                ADD_FAILURE() << id << ": measured / estimate - 1 = " << ratio
                              << ", outside the band its answer prints (" << b["kind"].get<std::string>() << ": "
                              << b["low"].get<double>() << " to " << b["high"].get<double>()
                              << ") though the band was written from this run: "
                              << "src/estimate/training_bands.inc no longer measures the estimate users get";
            }
        } else {
            ++others;
            others_inside += inside ? 1 : 0;
            others_p10_p90 +=
                ratio >= b["p10"].get<double>() - slack && ratio <= b["p90"].get<double>() + slack ? 1 : 0;
        }
    }
    std::printf("training bands: %d of %d runs the table was written from inside their band; other sources' runs: "
                "%d of %d inside, %d within 10th-90th percentile\n",
                in_table - outside_in_table, in_table, others_inside, others, others_p10_p90);
    // Counts measured 2026-12-06 (branch train): the table's runs 161, the others 2 (hf_peft_readme).
    EXPECT_EQ(in_table, band_table_runs) << "runs of the band table among the dev cases changed: re-measure";
    EXPECT_EQ(others, band_other_runs) << "dev training runs outside the band table changed: re-measure";
    EXPECT_GE(others_inside, band_other_inside_floor)
        << "fewer dev training runs of other sources inside the band their answer prints than the floor";

    std::map<std::string, bool> seen;
    for (const auto& f : floors) {
        seen[f.source] = true;
        const tally t  = std::string(f.source) == "overall" ? all : by_source[f.source];
        EXPECT_EQ(t.n, f.cases) << f.source << ": the case count changed (bench/dev_cases.py): re-measure the floors";
        EXPECT_GE(t.ok, f.within) << f.source << ": " << t.ok << " of " << t.n
                                  << " within tolerance on the default path, below the floor of " << f.within;
    }
    for (const auto& [source, t] : by_source)
        EXPECT_TRUE(seen.count(source)) << source << " has no floor in accuracy_default_floors.inc";
    EXPECT_TRUE(seen.count("overall")) << "no overall floor";
}

} // namespace
