#include "hardware/csv.h"

#include <fmt/format.h>

namespace llmplan::detail {

namespace {

// Bounds so that a hostile file cannot make us allocate without limit: the largest table we ship
// is under 30 KiB; user hardware files are hand-written lists of machines.
constexpr std::size_t max_csv_bytes   = 16u << 20; // 16 MiB
constexpr std::size_t max_csv_columns = 256;       // the widest shipped table has 24 columns

std::string trimmed(std::string_view s) {
    const auto* ws = " \t";
    const auto b   = s.find_first_not_of(ws);
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(ws);
    return std::string(s.substr(b, e - b + 1));
}

} // namespace

std::optional<std::size_t> csv_table::column(std::string_view name) const {
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return i;
    return std::nullopt;
}

std::string_view csv_table::get(std::size_t r, std::string_view name) const {
    const auto c = column(name);
    if (!c || r >= rows.size()) return {};
    return rows[r][*c];
}

std::string csv_table::where(std::size_t r) const {
    return fmt::format("{}:{}", file, r < row_lines.size() ? row_lines[r] : 0);
}

result<csv_table> parse_csv(std::string_view text, std::string_view file) {
    csv_table t;
    t.file = std::string(file);
    if (text.size() > max_csv_bytes)
        return make_error(
            error_code::bad_device_file,
            fmt::format("file is {} bytes; expected at most {} for a hardware table", text.size(), max_csv_bytes),
            t.file);
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3); // UTF-8 byte order mark

    std::size_t line = 1;
    std::size_t i    = 0;
    const auto n     = text.size();
    bool have_header = false;

    while (i < n) {
        const std::size_t record_line = line;
        std::vector<std::string> fields;
        bool end_of_record = false;
        bool blank         = true;
        while (!end_of_record) {
            std::string field;
            bool quoted = false;
            // Skip spaces before an opening quote so `a, "b"` reads as b (common in hand-written files).
            std::size_t j = i;
            while (j < n && (text[j] == ' ' || text[j] == '\t'))
                ++j;
            if (j < n && text[j] == '"') {
                quoted      = true;
                blank       = false;
                i           = j + 1;
                bool closed = false;
                while (i < n) {
                    const char c = text[i];
                    if (c == '"') {
                        if (i + 1 < n && text[i + 1] == '"') {
                            field.push_back('"');
                            i += 2;
                            continue;
                        }
                        closed = true;
                        ++i;
                        break;
                    }
                    if (c == '\n') ++line;
                    field.push_back(c);
                    ++i;
                }
                if (!closed)
                    return make_error(error_code::bad_device_file, "unterminated quoted field; expected a closing '\"'",
                                      fmt::format("{}:{}", t.file, record_line));
                while (i < n && (text[i] == ' ' || text[i] == '\t'))
                    ++i;
                if (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
                    return make_error(error_code::bad_device_file,
                                      fmt::format("field {}: text after a closing quote; expected ',' or end of line",
                                                  fields.size() + 1),
                                      fmt::format("{}:{}", t.file, line));
            } else {
                const auto start = i;
                while (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
                    if (text[i] == '"')
                        return make_error(error_code::bad_device_file,
                                          fmt::format("field {}: a '\"' inside an unquoted field; quote the whole "
                                                      "field and double the quote",
                                                      fields.size() + 1),
                                          fmt::format("{}:{}", t.file, line));
                    ++i;
                }
                field = std::string(text.substr(start, i - start));
                if (!field.empty()) blank = false;
            }
            fields.push_back(quoted ? std::move(field) : trimmed(field));
            if (fields.size() > max_csv_columns)
                return make_error(error_code::bad_device_file,
                                  fmt::format("more than {} fields in a row", max_csv_columns),
                                  fmt::format("{}:{}", t.file, record_line));
            if (i >= n) {
                end_of_record = true;
            } else if (text[i] == ',') {
                ++i;
            } else { // \r, \n or \r\n
                if (text[i] == '\r') ++i;
                if (i < n && text[i] == '\n') ++i;
                ++line;
                end_of_record = true;
            }
        }
        if (blank && fields.size() == 1) continue; // an empty line
        if (!have_header) {
            for (auto& f : fields)
                t.header.push_back(trimmed(f));
            have_header = true;
            continue;
        }
        if (fields.size() != t.header.size())
            return make_error(
                error_code::bad_device_file,
                fmt::format("row has {} fields; expected {} (one per header column)", fields.size(), t.header.size()),
                fmt::format("{}:{}", t.file, record_line));
        t.rows.push_back(std::move(fields));
        t.row_lines.push_back(record_line);
    }
    if (!have_header) return make_error(error_code::bad_device_file, "empty file; expected a header row", t.file);
    return t;
}

} // namespace llmplan::detail
