// One entry point for every way a user names a model (../shared/cli-contract.md, MODEL).
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"

#include <string>
#include <string_view>
#include <vector>

namespace llmplan {

/// How a model (and a hardware file) may be named. The web API never reads a path its caller gave:
/// only catalog ids and hub names.
struct source_policy {
    bool allow_paths = true;
    /// A model already parsed from bytes a caller sent (the web page's dropped file, load_bytes.h):
    /// when set, it is the MODEL, whatever `spec` says, and nothing is read.
    const model_desc* uploaded = nullptr;
};

/// A catalog id ("Qwen/Qwen2.5-7B-Instruct", case-insensitive, or an alias "qwen2.5-7b"), a path to
/// config.json or to a directory holding it (with safetensors headers read when present), or a
/// .gguf file (the first part of a split set names the set).
/// With `sources.allow_paths` false the file system is never looked at for `spec`.
result<model_desc> load_model(std::string_view spec, source_policy sources = {});

struct catalog_entry {
    std::string id;          ///< "Qwen/Qwen2.5-7B-Instruct"
    std::string alias;       ///< "qwen2.5-7b-instruct"
    std::string config_path; ///< embedded path, "models/Qwen--Qwen2.5-7B-Instruct/config.json"
};

/// The built-in catalog (configs compiled into the binary from data/models/).
const std::vector<catalog_entry>& catalog();
/// Find a catalog entry by id or alias, case-insensitively; nullptr when none.
const catalog_entry* find_in_catalog(std::string_view name);
/// Entries whose id or alias contains `text`, case-insensitively (all entries for an empty text).
std::vector<const catalog_entry*> search_catalog(std::string_view text);
/// Load a catalog entry's description.
result<model_desc> load_catalog_model(const catalog_entry& e);

} // namespace llmplan
