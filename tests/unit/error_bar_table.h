// The inference error bars (data/accuracy/infer_error_bars.csv, embedded and shown with every
// estimate as its "accuracy" block): per engine, device and weight class, the share of measured cases
// within tolerance, the median and 90th-percentile absolute error (nearest rank) and the share
// under-estimated by more than 10%. Written by accuracy_default_test from the dev cases run as the
// outside measure runs them (the path users take).
#pragma once

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace llmplan::test {

struct bar_stats {
    std::vector<double> abs_err;
    int ok = 0, under10 = 0;
};

inline std::string error_bar_table(const std::map<std::string, bar_stats>& bars) {
    std::string out = "engine,device,weight_class,cases,within_tolerance,median_abs_error,p90_abs_error,"
                      "under_10pct_share\n";
    for (const auto& [key, stats] : bars) {
        bar_stats b = stats; // a named copy: clang before 16 cannot capture a structured binding in a lambda
        std::sort(b.abs_err.begin(), b.abs_err.end());
        const auto n = b.abs_err.size();
        auto at = [&](double q) { return b.abs_err[std::min(n - 1, static_cast<std::size_t>(q * (n - 1) + 0.5))]; };
        char line[256];
        std::snprintf(line, sizeof line, "%s,%zu,%.3f,%.3f,%.3f,%.3f\n", key.c_str(), n, static_cast<double>(b.ok) / n,
                      at(0.5), at(0.9), static_cast<double>(b.under10) / n);
        out += line;
    }
    return out;
}

} // namespace llmplan::test
