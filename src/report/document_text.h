// The text tables of the documents (document.h's to_text dispatches to these).
#pragma once

#include "llmplan/document.h"

#include <string>
#include <vector>

namespace llmplan::detail {

/// `text` in lines of at most `width` characters, broken at spaces (a longer word is cut): how a
/// table keeps a long name whole within 100 columns.
std::vector<std::string> wrapped(const std::string& text, std::size_t width);

std::string plan_text(const plan_document& d);
std::string fit_text(const fit_hardware_result& r);
std::string hardware_text(const hardware_document& d);
std::string models_text(const models_document& d);

} // namespace llmplan::detail
