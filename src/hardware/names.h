// Hardware name matching: normalisation, words, the "is this the same model" score used to link
// cloud/laptop rows to GPU rows and to resolve users' partial names, and edit-distance suggestions.
#pragma once

#include "llmplan/hardware.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan::detail {

/// Lower-case letters, digits and '.', nothing else: "H100 SXM-80GB" -> "h100sxm80gb".
std::string normalize_name(std::string_view s);
/// The name without parenthesised parts: "EPYC 9654 (Genoa)" -> "EPYC 9654".
std::string base_name(std::string_view s);

struct name_words {
    std::vector<std::string> all;  ///< every word, lower case; "sxm4"/"sxm5" read as "sxm"
    std::vector<std::string> base; ///< the words outside parentheses
};
name_words split_words(std::string_view s);

/// Levenshtein distance (inputs are names, capped at 128 characters each).
std::size_t edit_distance(std::string_view a, std::string_view b);

enum class match_mode {
    user, ///< every word the user typed must be found in the row's name
    link, ///< a table's GPU/CPU column: the row's model number must be found; other words may not
};

/// Best row among `rows` for `query`, or null. Rules (names.cpp): the row's model word (its first
/// word with a digit) must be in the query; the row may lack only form, vendor and size words
/// (sxm, pcie, geforce, 80gb, ...); most words matched, then fewest lacking, then SXM, then file order.
const device_spec* best_match(std::string_view query, std::span<const device_spec* const> rows, match_mode mode);

} // namespace llmplan::detail
