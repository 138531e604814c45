// Reading the embedded error-bar table (data/accuracy/infer_error_bars.csv). The file is generated
// by tests/unit/accuracy_default_test.cpp from the dev cases run as users and the outside measure run
// them (no pinned engine release), never typed by hand; the test
// fails when the committed table differs from what the current build measures.
#include "llmplan/accuracy.h"

#include "detail/checked_number.h"
#include "detail/embedded.h"

#include <charconv>
#include <string>
#include <vector>

namespace llmplan {
namespace {

constexpr std::string_view table_path = "accuracy/infer_error_bars.csv";
/// Bits per parameter that separate the classes: 16-bit formats store 16 (f16/bf16) or 32 bits;
/// 8-bit ones 8 to 9 (int8/fp8/q8_0 with scales, plus the 16-bit head); 4-bit ones 2 to 6.6.
constexpr double bits_16_from = 12.0;
constexpr double bits_8_from  = 7.0;

std::vector<std::string_view> split(std::string_view line) {
    std::vector<std::string_view> out;
    while (true) {
        const auto c = line.find(',');
        out.push_back(line.substr(0, c));
        if (c == std::string_view::npos) return out;
        line.remove_prefix(c + 1);
    }
}

double number(std::string_view s) {
    double v = 0;
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
}

} // namespace

std::string_view to_string(device_kind d) {
    return d == device_kind::cpu ? "cpu" : d == device_kind::metal ? "metal" : "cuda";
}

std::string_view weight_class(std::uint64_t weight_bytes, std::uint64_t n_params) {
    if (n_params == 0) return "16-bit";
    const double bits = 8.0 * static_cast<double>(weight_bytes) / static_cast<double>(n_params);
    return bits >= bits_16_from ? "16-bit" : bits >= bits_8_from ? "8-bit" : "4-bit";
}

std::optional<accuracy_row> measured_accuracy(engine_kind e, device_kind d, std::string_view cls) {
    for (const auto& f : detail::embedded_files()) {
        if (std::string_view(f.path) != table_path) continue;
        std::string_view text = f.text();
        bool header           = true;
        while (!text.empty()) {
            const auto nl               = text.find('\n');
            const std::string_view line = text.substr(0, nl);
            text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
            if (header || line.empty()) {
                header = false;
                continue;
            }
            const auto c = split(line);
            if (c.size() != 8 || c[0] != engine_name(e) || c[1] != to_string(d) || c[2] != cls) continue;
            accuracy_row r{std::string(c[0]), std::string(c[1]), std::string(c[2])};
            r.cases             = detail::saturate<std::uint32_t>(number(c[3]));
            r.within_tolerance  = number(c[4]);
            r.median_abs_error  = number(c[5]);
            r.p90_abs_error     = number(c[6]);
            r.under_10pct_share = number(c[7]);
            return r;
        }
    }
    return std::nullopt;
}

} // namespace llmplan
