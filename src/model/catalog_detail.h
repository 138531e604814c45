// The catalog.json of a catalog folder (see catalog.cpp): which config a sibling shares and which
// fields that are not shapes it restates.
#pragma once

#include "llmplan/error.h"

#include <functional>
#include <string>
#include <string_view>

namespace llmplan::detail {

/// The config.json text a catalog folder describes: the config of the folder named by "config"
/// (`config_of` returns nullptr when there is none) or `own_config`, with the fields of "set"
/// replaced. Only fields that are not tensor shapes or dtypes may be set; `where` names the file.
result<std::string> apply_catalog_json(std::string_view catalog_text, std::string_view where,
                                       const std::function<const std::string*(std::string_view)>& config_of,
                                       std::string_view own_config);

} // namespace llmplan::detail
