// A small RFC 4180 CSV reader for the hardware tables: header row, comma separator, CRLF or LF,
// double-quoted fields that may hold commas, newlines and doubled quotes ("").
#pragma once

#include "llmplan/error.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan::detail {

struct csv_table {
    std::string file;                           ///< name used in error messages
    std::vector<std::string> header;            ///< column names, trimmed
    std::vector<std::vector<std::string>> rows; ///< every row has header.size() fields
    std::vector<std::size_t> row_lines;         ///< 1-based line where each row starts

    /// Index of a column by exact name, if present.
    [[nodiscard]] std::optional<std::size_t> column(std::string_view name) const;
    /// The field of row `r` in column `name`, or "" when the column is absent (values are trimmed).
    [[nodiscard]] std::string_view get(std::size_t r, std::string_view name) const;
    /// "file:LINE" for row `r`: the error context the hardware loaders use.
    [[nodiscard]] std::string where(std::size_t r) const;
};

/// Parse `text` (UTF-8, optional BOM). Errors name the file, the line and what was wrong: an
/// unterminated quote, text after a closing quote, a row with the wrong number of fields.
result<csv_table> parse_csv(std::string_view text, std::string_view file);

} // namespace llmplan::detail
