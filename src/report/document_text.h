// The text tables of the documents (document.h's to_text dispatches to these).
#pragma once

#include "llmplan/document.h"

#include <string>

namespace llmplan::detail {

std::string plan_text(const plan_document& d);
std::string fit_text(const fit_hardware_result& r);
std::string hardware_text(const hardware_document& d);
std::string models_text(const models_document& d);

} // namespace llmplan::detail
