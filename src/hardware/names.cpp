#include "hardware/names.h"

#include "detail/strings.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <unordered_map>

namespace llmplan::detail {

namespace {

using detail::lower_char;
bool alnum(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}
bool digit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// Words a row's name may have that the query lacks without naming a different model: the form
// factor (SXM/PCIe boards of one chip differ in power and clocks, not in what they are), vendor and
// brand words, and "per GPU"/"per chip" qualifiers of the tables (gpus.csv README).
constexpr std::array<std::string_view, 19> optional_words = {
    "sxm",   "pcie",  "hgx",    "dgx",      "per", "gpu",    "chip", "geforce", "nvidia",    "amd",
    "intel", "apple", "google", "instinct", "rtx", "radeon", "rx",   "tesla",   "generation"};

bool is_optional_word(std::string_view w) {
    return std::find(optional_words.begin(), optional_words.end(), w) != optional_words.end();
}

/// "80gb" -> 80
std::optional<double> memory_word_gb(std::string_view w) {
    if (w.size() < 3 || w.substr(w.size() - 2) != "gb") return std::nullopt;
    const auto num = w.substr(0, w.size() - 2);
    if (!std::all_of(num.begin(), num.end(), digit)) return std::nullopt;
    return std::stod(std::string(num));
}

bool is_memory_word(std::string_view w) {
    return memory_word_gb(w).has_value();
}

/// The row's memory in vendor GB, as its name would say it ("80GB").
std::optional<double> nominal_gb(const device_spec& d) {
    if (d.vendor_memory_gb) return std::round(*d.vendor_memory_gb);
    const auto m = d.unified_memory_bytes ? d.unified_memory_bytes : d.memory_bytes;
    if (!m) return std::nullopt;
    return std::round(static_cast<double>(*m) / 1e9);
}

bool contains(const std::vector<std::string>& v, std::string_view w) {
    return std::find(v.begin(), v.end(), w) != v.end();
}

/// A row's name split into words, and its model word (best_match), kept between calls: linking the
/// cloud and laptop tables to the GPU table matches each of their rows against every GPU row, and
/// splitting the same GPU names again each time was most of `llmplan plan`'s start (bench/README.md).
struct row_words {
    std::string name; ///< the name these words are of (a row freed and another made at its address differs)
    name_words words;
    std::string model; ///< its first base word with a digit that is not a size, else its first base word
};

const row_words& words_of(const device_spec& d) {
    // Per thread (the web server matches on many); bounded, since each uploaded --hardware-file
    // makes rows at new addresses.
    constexpr std::size_t max_rows = 4096;
    thread_local std::unordered_map<const device_spec*, row_words> cache;
    auto it = cache.find(&d);
    if (it != cache.end() && it->second.name == d.name) return it->second;
    if (cache.size() >= max_rows) cache.clear(), it = cache.end();
    row_words r{d.name, split_words(d.name), {}};
    for (const auto& w : r.words.base)
        if (std::any_of(w.begin(), w.end(), digit) && !is_memory_word(w)) {
            r.model = w;
            break;
        }
    if (r.model.empty() && !r.words.base.empty()) r.model = r.words.base.front();
    if (it != cache.end()) return it->second = std::move(r);
    return cache.emplace(&d, std::move(r)).first->second;
}

} // namespace

std::string normalize_name(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s)
        if (alnum(c) || c == '.') out.push_back(lower_char(c));
    return out;
}

std::string base_name(std::string_view s) {
    std::string out;
    int depth = 0;
    for (char c : s) {
        if (c == '(')
            ++depth;
        else if (c == ')')
            depth = depth > 0 ? depth - 1 : 0;
        else if (depth == 0)
            out.push_back(c);
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == ','))
        out.pop_back();
    return out;
}

name_words split_words(std::string_view s) {
    name_words w;
    std::string cur;
    int depth  = 0;
    auto flush = [&] {
        if (cur.empty()) return;
        // "sxm4", "sxm5", "sxm2": the SXM form of one generation; the chip name says which.
        if (cur.size() == 4 && cur.rfind("sxm", 0) == 0 && digit(cur[3])) cur = "sxm";
        w.all.push_back(cur);
        if (depth == 0) w.base.push_back(cur);
        cur.clear();
    };
    for (char c : s) {
        if (alnum(c)) {
            cur.push_back(lower_char(c));
            continue;
        }
        flush();
        if (c == '(')
            ++depth;
        else if (c == ')' && depth > 0)
            --depth;
    }
    flush();
    return w;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    constexpr std::size_t cap = 128; // names are short; bounds the O(n*m) work on odd input
    a                         = a.substr(0, std::min(a.size(), cap));
    b                         = b.substr(0, std::min(b.size(), cap));
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j]                = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

const device_spec* best_match(std::string_view query, std::span<const device_spec* const> rows, match_mode mode) {
    const auto q = split_words(query);
    if (q.all.empty()) return nullptr;

    const device_spec* best  = nullptr;
    std::size_t best_matched = 0, best_lacking = 0;
    bool best_sxm = false;
    for (const device_spec* d : rows) {
        const row_words& rw = words_of(*d);
        const name_words& r = rw.words;
        if (r.base.empty()) continue;
        // The model word must be covered (below): by a query word equal to it or to a run of row
        // words holding it, so it is part of some query word; a row whose model word is in none is
        // rejected here without the rest.
        if (std::none_of(q.all.begin(), q.all.end(),
                         [&](const std::string& w) { return w.find(rw.model) != std::string::npos; }))
            continue;

        // Which of the row's words the query covers: equal words, or runs of 2-3 adjacent row
        // words typed together ("rtx4090" covers "rtx" and "4090").
        std::vector<bool> covered(r.all.size(), false);
        std::size_t matched = 0;
        bool all_found      = true;
        bool size_conflict  = false;
        for (const auto& w : q.all) {
            bool found = false;
            for (std::size_t i = 0; i < r.all.size(); ++i) {
                if (r.all[i] == w) {
                    covered[i] = found = true;
                    continue;
                }
                std::string joined = r.all[i];
                for (std::size_t j = i + 1; j < r.all.size() && j < i + 3; ++j) {
                    joined += r.all[j];
                    if (joined == w) {
                        for (std::size_t k = i; k <= j; ++k)
                            covered[k] = true;
                        found = true;
                    }
                }
            }
            if (!found && memory_word_gb(w)) {
                // A size names the variant: equal to the row's size matches, another size conflicts.
                const auto have = nominal_gb(*d);
                if (have && *have == *memory_word_gb(w))
                    found = true;
                else if (have)
                    size_conflict = true;
            }
            if (found)
                ++matched;
            else
                all_found = false;
        }
        if (size_conflict || (mode == match_mode::user && !all_found)) continue;

        // The row's base words the query did not cover: its model word (first word with a digit
        // that is not a size: "4090", "m4", "v6e") must be covered; the others may be missing only
        // when they are form, brand or size words.
        std::vector<std::string_view> base_uncovered;
        {
            const std::vector<std::string>& base = r.base; // views into it outlive this block
            std::vector<bool> used(r.all.size(), false);
            for (const auto& bw : base) {
                bool cov = false;
                for (std::size_t i = 0; i < r.all.size(); ++i)
                    if (!used[i] && r.all[i] == bw) {
                        used[i] = true;
                        cov     = covered[i];
                        break;
                    }
                if (!cov) base_uncovered.push_back(bw);
            }
        }
        const std::string& model = rw.model;
        bool reject              = false;
        for (auto w : base_uncovered)
            if (w == model || (!is_optional_word(w) && !is_memory_word(w))) reject = true;
        if (reject) continue;

        const std::size_t lacking = base_uncovered.size();
        const bool sxm            = contains(r.base, "sxm");
        const bool better =
            !best || matched > best_matched ||
            (matched == best_matched && (lacking < best_lacking || (lacking == best_lacking && sxm && !best_sxm)));
        if (better) {
            best         = d;
            best_matched = matched;
            best_lacking = lacking;
            best_sxm     = sxm;
        }
    }
    return best;
}

} // namespace llmplan::detail
