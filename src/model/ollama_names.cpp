// Ollama library names -> the Hugging Face model each packages: the table data/ollama/names.csv,
// compiled into the binary (its sources and the tag grammar are in data/ollama/SOURCES.md).
// Ids missing from the built-in catalog are kept: the Hub reader can fetch them by id.
#include "model/ollama_names.h"

#include "detail/embedded.h"
#include "hardware/csv.h"

#include <vector>

namespace llmplan::detail {
namespace {

constexpr std::string_view table_path = "ollama/names.csv";

struct ollama_table {
    csv_table csv;                 ///< owns the text the rows view
    std::vector<ollama_name> rows; ///< in the file's order
};

ollama_table read_table() {
    ollama_table t;
    for (const auto& f : embedded_files()) {
        if (std::string_view(f.path) != table_path) continue;
        auto parsed = parse_csv(f.text(), table_path);
        if (!parsed) return t; // a malformed built-in table leaves no names (ollama_names_test fails)
        t.csv = std::move(*parsed);
    }
    for (std::size_t r = 0; r < t.csv.rows.size(); ++r)
        t.rows.push_back({t.csv.get(r, "family"), t.csv.get(r, "size"), t.csv.get(r, "hf_id"), t.csv.get(r, "base_id"),
                          t.csv.get(r, "quant"), t.csv.get(r, "latest") == "yes"});
    return t;
}

const ollama_table& table() {
    static const ollama_table t = read_table();
    return t;
}

} // namespace

std::span<const ollama_name> ollama_names() {
    return table().rows;
}

std::string_view ollama_latest_size(std::string_view family) {
    for (const auto& r : ollama_names())
        if (r.family == family && r.latest) return r.size;
    for (const auto& r : ollama_names()) // a family with one size
        if (r.family == family) return r.size;
    return {};
}

} // namespace llmplan::detail
