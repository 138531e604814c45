#include "llmplan/units.h"

#include "detail/checked_number.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <exception>
#include <fmt/format.h>
#include <string>

namespace llmplan {

result<std::uint64_t> parse_size_bytes(std::string_view s, std::string_view what) {
    struct unit {
        std::string_view suffix;
        double factor;
    };
    static constexpr std::array units{
        unit{"TiB", 1099511627776.0},
        unit{"GiB", 1073741824.0   },
        unit{"MiB", 1048576.0      },
        unit{"KiB", 1024.0         },
        unit{"TB",  1e12           },
        unit{"GB",  1e9            },
        unit{"MB",  1e6            },
        unit{"KB",  1e3            },
        unit{"B",   1.0            },
    };
    std::string t;
    for (char c : s)
        if (!std::isspace(static_cast<unsigned char>(c))) t += c;
    double factor = 1.0;
    for (const auto& u : units)
        if (t.size() > u.suffix.size() && std::string_view(t).substr(t.size() - u.suffix.size()) == u.suffix) {
            factor = u.factor;
            t.resize(t.size() - u.suffix.size());
            break;
        }
    double v       = 0;
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc{} || ptr != t.data() + t.size() || !std::isfinite(v) || v <= 0 ||
        v * factor > 1e18)
        return make_error(error_code::bad_value,
                          fmt::format("\"{}\" is not a size; expected e.g. 24GiB, 80GB or 81121MiB", s),
                          std::string(what));
    return *detail::to_integer<std::uint64_t>(v * factor, detail::rounding::nearest); // <= 1e18: fits
}

result<std::uint64_t> parse_count(std::string_view s, std::string_view what) {
    const std::string v(s);
    std::size_t used = 0;
    double x         = 0;
    try {
        x = std::stod(v, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used > 0 && used + 1 == v.size()) {
        double scale = 0;
        switch (v.back()) {
        case 'k':
        case 'K':
            scale = 1e3;
            break;
        case 'm':
        case 'M':
            scale = 1e6;
            break;
        case 'b':
        case 'B':
        case 'g':
        case 'G':
            scale = 1e9;
            break;
        case 't':
        case 'T':
            scale = 1e12;
            break;
        default:
            break;
        }
        if (scale > 0) {
            x *= scale;
            ++used;
        }
    }
    if (used == 0 || used != v.size() || !(x >= 1) || x > 1e18)
        return make_error(error_code::bad_value, fmt::format("\"{}\"; expected a count such as 100M, 2B or 5e8", v),
                          std::string(what));
    return *detail::to_integer<std::uint64_t>(x, detail::rounding::toward_zero); // 1 to 1e18: fits
}

std::string gib_text(double bytes, int decimals) {
    return fmt::format("{:.{}f} GiB", bytes / 1073741824.0, decimals);
}

std::string tokens_per_s_text(double tokens_per_s) {
    if (!(tokens_per_s > 0)) return "unknown";
    return tokens_per_s >= 1 ? fmt::format("{:.1f}", tokens_per_s) : fmt::format("{:.2g}", tokens_per_s);
}

} // namespace llmplan
