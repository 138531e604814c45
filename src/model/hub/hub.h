// Reading a model from the Hugging Face Hub or ModelScope by its name, headers only
// (../shared/research/hub-api.md has the facts and their sources).
#pragma once

#include "llmplan/error.h"
#include "llmplan/http.h"
#include "llmplan/load.h"
#include "llmplan/model_desc.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan::hub {

enum class hub_kind : std::uint8_t { hf, modelscope };

/// `hf:ORG/NAME[@REVISION][:QUANT]`, `ms:...`, or a bare `ORG/NAME`.
struct model_name {
    hub_kind kind = hub_kind::hf;
    std::string repo;     ///< "ORG/NAME"
    std::string revision; ///< empty: the default branch
    std::string quant;    ///< empty: none asked for
    bool prefixed = false;
};
/// nullopt when `spec` is not in one of these forms (then it is no Hub name at all); an error when
/// it has the prefix but a bad repo id.
std::optional<result<model_name>> parse_model_name(std::string_view spec);
bool is_commit(std::string_view rev); ///< 40 lower-case hex digits
/// RFC 3986 percent-encoding; `keep_slash` keeps '/' (file paths in resolve URLs).
std::string url_encode(std::string_view s, bool keep_slash);

/// The process environment as huggingface_hub and modelscope read it (hub-api.md §3, §7).
struct environment {
    std::string endpoint;      ///< HF_ENDPOINT without a trailing '/'
    std::string token;         ///< HF_TOKEN, else the token file; "" when none
    bool offline = false;      ///< HF_HUB_OFFLINE / TRANSFORMERS_OFFLINE
    std::string hf_hub_cache;  ///< HF_HUB_CACHE, else $HF_HOME/hub
    std::string llmplan_cache; ///< $XDG_CACHE_HOME/llmplan, else ~/.cache/llmplan; "" when no home
    std::string ms_endpoint;   ///< https:// + MODELSCOPE_DOMAIN, else https://www.modelscope.cn
    std::string ms_token;      ///< MODELSCOPE_API_TOKEN
    std::string ms_cache;      ///< MODELSCOPE_CACHE, else ~/.cache/modelscope/hub
};
environment read_environment();

struct repo_file {
    std::string path;
    std::uint64_t size = 0;
};
/// A path a repo may hold and a cache may store: relative, no "..", no backslash or NUL.
bool safe_repo_path(std::string_view p);

// ---- parsers of what the servers send (fuzzed: tests/fuzz/fuzz_hub_json.cpp) ----
struct model_info {
    std::string sha;                     ///< the commit the revision resolved to
    std::string gated;                   ///< "", "auto" or "manual"
    std::uint64_t safetensors_total = 0; ///< the Hub's own parameter count, 0 when absent
};
result<model_info> parse_model_info(std::string_view json, std::string_view label);
/// One page of `/api/models/{repo}/tree/{rev}?recursive=true`: files only (directories skipped).
result<std::vector<repo_file>> parse_tree_page(std::string_view json, std::string_view label);
/// The `rel="next"` URL of a Link header; "" when none.
std::string link_next(std::string_view link);
/// ModelScope `/api/v1/models/{id}/repo/files`: {"Code":200,"Data":{"Files":[{"Path","Type","Size"}]}}.
result<std::vector<repo_file>> parse_ms_files(std::string_view json, std::string_view label);
/// ModelScope `/api/v1/models/{id}/commits?Ref=REV&PageSize=1` (modelscope hub/api.py
/// list_repo_commits): {"Code":200,"Data":{"Commit":[{"Id":"<40 hex>",...}]}}, newest first. The
/// newest commit's Id; "" when the answer holds none (hub-api.md §7 does not promise one).
std::string parse_ms_head_commit(std::string_view json);
/// "bytes FIRST-LAST/TOTAL" -> TOTAL; nullopt when not in that form.
std::optional<std::uint64_t> content_range_total(std::string_view v, std::uint64_t first);

// ---- GGUF quant choice, as llama.cpp's -hf repo:quant (hub-api.md §6) ----
bool is_model_gguf(std::string_view path); ///< a .gguf that is not an mmproj/imatrix sidecar
struct gguf_choice {
    std::string first;            ///< the file (split: part 1) to read
    std::vector<std::string> all; ///< it and its split siblings
    std::string tag;              ///< the quant tag that picked it ("Q4_K_M"); "" for a file name or the first file
};
result<gguf_choice> choose_gguf(const std::vector<std::string>& paths, std::string_view quant, std::string_view repo);

// ---- requests ----
/// What a request was for, to word its errors.
struct request_what {
    std::string repo;
    std::string revision;
    std::string file; ///< empty for API calls
};

/// Requests and bytes, shared by the threads of one run.
struct traffic {
    std::atomic<std::uint64_t> requests{0};
    std::atomic<std::uint64_t> bytes{0};
};

/// One run's HTTP: redirects (Authorization only to the endpoint's own host), bounded retries with
/// backoff, errors in the user's words.
class session {
  public:
    session(const load_options& opt, const environment& env, hub_kind kind);
    /// GET `url`, following redirects; a 2xx answer or an error.
    result<http_response> get(const std::string& url, std::optional<byte_range> range, std::uint64_t max_body,
                              const request_what& what);
    [[nodiscard]] bool offline() const { return offline_; }
    [[nodiscard]] const std::string& endpoint() const { return endpoint_; }
    traffic stats;

  private:
    result<http_response> follow(const std::string& url, std::optional<byte_range> range, std::uint64_t max_body);
    std::shared_ptr<http_transport> transport_;
    const load_options& opt_;
    hub_kind kind_;
    std::string endpoint_;
    std::string token_;
    bool offline_ = false;
};

/// An error answer (4xx/5xx) in the user's words (hub-api.md §2).
error hf_error(const http_response& r, const request_what& what, const std::string& endpoint, bool has_token);
error ms_error(const http_response& r, const request_what& what);

// ---- llmplan's own cache: $XDG_CACHE_HOME/llmplan/hub/<endpoint>/<org>--<name>/<commit>/ ----
class file_cache {
  public:
    /// Disabled when root is empty.
    file_cache(const std::string& root, const std::string& endpoint, const std::string& repo);
    [[nodiscard]] std::optional<std::string> get_ref(std::string_view rev) const;
    void put_ref(std::string_view rev, std::string_view commit) const;
    /// key: "tree.json", "files/<path>" or "heads/<path>", under the commit's folder.
    [[nodiscard]] std::optional<std::string> get(std::string_view commit, std::string_view key) const;
    void put(std::string_view commit, std::string_view key, std::string_view data) const; ///< atomic

  private:
    std::string dir_; ///< "" disabled
};

/// One repo at one commit, read through the caches and the session.
class remote_repo {
  public:
    remote_repo(session& s, const file_cache& c, hub_kind kind, std::string repo, std::string revision,
                std::string commit, bool refresh);
    /// A whole small file (config.json, an index), at most `cap` bytes.
    result<std::string> whole(const std::string& path, std::uint64_t cap);
    struct head {
        std::string bytes;       ///< the file's first bytes (at least what was asked for, unless shorter)
        std::uint64_t total = 0; ///< the file's size
    };
    /// The first `want` bytes of a file (by Range); `listed_size` is the tree's size (0 unknown).
    result<head> first_bytes(const std::string& path, std::uint64_t want, std::uint64_t listed_size);
    [[nodiscard]] std::string url(const std::string& path) const;
    /// "hf:ORG/NAME/path" (ms: for ModelScope; "hf:ORG/NAME" for an empty path), naming a file in errors.
    [[nodiscard]] std::string label(std::string_view path) const;
    [[nodiscard]] const std::string& repo() const { return repo_; }
    [[nodiscard]] const std::string& commit() const { return commit_; }
    [[nodiscard]] const std::string& revision() const { return revision_; }
    [[nodiscard]] hub_kind kind() const { return kind_; }
    session& net() { return s_; }

  private:
    session& s_;
    const file_cache& cache_;
    hub_kind kind_;
    std::string repo_, revision_, commit_;
    bool refresh_;
};

/// The repo's files (tree listing, all pages), through the cache.
result<std::vector<repo_file>> list_files(remote_repo& r, const file_cache& c, bool refresh);

/// A model from a repo's files: GGUF (the quant asked for, else llama.cpp's default) or
/// config.json plus safetensors headers.
result<model_desc> read_repo(remote_repo& r, const std::vector<repo_file>& files, std::string_view quant,
                             const load_options& opt);

/// A model from a local folder (a Hugging Face snapshot, a ModelScope download): nullopt when the
/// folder does not hold enough to describe it (the quant or shards not downloaded; a config alone
/// is enough when offline, or when `known_absent` (the Hugging Face cache's `.no_exist` entries)
/// says the repo has neither model.safetensors nor its index).
std::optional<result<model_desc>> read_local_dir(const std::string& dir, std::string_view quant, std::string_view repo,
                                                 bool offline, const std::vector<std::string>& known_absent = {});

/// The whole lookup for a Hub name (caches, then the network).
result<model_desc> load_hub_model(const model_name& name, const load_options& opt);

/// Stderr progress line (only on a terminal, only when more than one file is fetched).
class progress {
  public:
    progress(bool enabled, std::size_t total_files);
    ~progress();
    /// One more file done; `fetched`: the run's bytes received so far.
    void file_done(std::uint64_t fetched);

  private:
    bool on_;
    std::size_t total_;
    std::atomic<std::size_t> done_{0};
};

} // namespace llmplan::hub
