// One entry point for every way a user names a model (../shared/cli-contract.md, MODEL).
#pragma once

#include "llmplan/error.h"
#include "llmplan/http.h"
#include "llmplan/model_desc.h"

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan {

/// How models named by a Hub id are fetched (the CLI's --offline, --refresh, --timeout).
struct load_options {
    bool offline  = false; ///< no network (HF_HUB_OFFLINE=1 also sets it): catalog, files and caches only
    bool refresh  = false; ///< ignore llmplan's cache and the local Hub caches; fetch again
    bool progress = true;  ///< a progress line on stderr when it is a terminal
    /// Per request: connect, and the longest wait without a byte (huggingface_hub's
    /// HF_HUB_DOWNLOAD_TIMEOUT default, hub-api.md §3).
    std::chrono::milliseconds timeout{10000};
    /// First retry wait when the server gives none; doubles per retry up to 8x (huggingface_hub's
    /// 1, 2, 4, 8, 8 s, hub-api.md §2). Tests shorten it.
    std::chrono::milliseconds backoff_base{1000};
    std::shared_ptr<http_transport> transport; ///< null: libcurl
    /// The web API never reads a path its caller gave (MODEL, --from, --hardware-file): only catalog
    /// ids and Hub names. The CLI allows paths (it runs as the user who typed them).
    bool allow_paths = true;
    /// A model already parsed from bytes a caller sent (the web page's dropped file, load_bytes.h):
    /// when set, it is the MODEL, whatever `spec` says, and nothing is read.
    const model_desc* uploaded = nullptr;
};

/// The web API's sources: no paths; Hub reads as by default.
inline load_options api_sources() {
    load_options o;
    o.allow_paths = false;
    return o;
}

/// A catalog id ("Qwen/Qwen2.5-7B-Instruct", case-insensitive, or an alias "qwen2.5-7b"), a path to
/// config.json or to a directory holding it (with safetensors headers read when present), a
/// .gguf file (the first part of a split set names the set), `hf:ORG/NAME[@REV][:QUANT]`,
/// `ms:ORG/NAME[@REV][:QUANT]`, or a bare ORG/NAME not in the catalog (the local Hugging Face
/// cache, the local ModelScope cache, then the Hub unless offline).
result<model_desc> load_model(std::string_view spec, const load_options& options = {});

/// Where a catalog model's config came from (data/models/sources.json, written from SOURCES.md).
struct catalog_source {
    std::string kind;     ///< "copy" (a public file), "sibling" (shares a proven-equal config) or "seed"
    std::string origin;   ///< "repo path @ commit", or the catalog id whose config it shares
    std::string evidence; ///< the check made, or the evidence that the shapes are equal
};

struct catalog_entry {
    std::string id;          ///< "Qwen/Qwen2.5-7B-Instruct"
    std::string alias;       ///< "qwen2.5-7b-instruct"
    std::string config_path; ///< embedded path, "models/Qwen--Qwen2.5-7B-Instruct/config.json"
};

/// Where a catalog entry's config came from: read from data/models/sources.json the first time it is
/// asked (not at start: parsing it was a third of a catalog lookup's time, issue 24's start-up).
const catalog_source& catalog_source_of(const catalog_entry& e);

/// The built-in catalog (configs compiled into the binary from data/models/).
const std::vector<catalog_entry>& catalog();
/// Find a catalog entry by id or alias, case-insensitively; nullptr when none.
const catalog_entry* find_in_catalog(std::string_view name);
/// Entries whose id or alias contains `text`, case-insensitively (all entries for an empty text).
std::vector<const catalog_entry*> search_catalog(std::string_view text);
/// Load a catalog entry's description.
result<model_desc> load_catalog_model(const catalog_entry& e);

} // namespace llmplan
