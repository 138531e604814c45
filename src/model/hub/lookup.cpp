// A Hub name to a model: the local Hugging Face cache, the local ModelScope cache, then the Hub
// or ModelScope (unless offline), pinning every request to one commit (hub-api.md §4, §7, §8).
#include "llmplan/load.h"
#include "model/hub/hub.h"
#include "model/suggest.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <vector>

namespace llmplan::hub {
namespace fs = std::filesystem;
namespace {

/// Model info is a few KB with the fields asked for (hub-api.md §8).
constexpr std::uint64_t max_info_bytes = std::uint64_t{16} << 20;

std::string read_small(const fs::path& p) {
    std::ifstream in(p);
    std::string s;
    if (in) std::getline(in, s);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.pop_back();
    return s;
}

/// `.no_exist/<commit>/<path>`: empty files huggingface_hub writes after the Hub answered 404
/// EntryNotFound for that path at that commit (hub-api.md §4): the paths known not to exist.
std::vector<std::string> known_absent(const fs::path& dir) {
    constexpr std::size_t max_entries = 10000; // transformers records a handful; bounds a strange folder
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end && out.size() < max_entries;
         it.increment(ec))
        if (it->is_regular_file(ec)) out.push_back(it->path().lexically_relative(dir).generic_string());
    return out;
}

/// The Hugging Face cache (hub-api.md §4): models--ORG--NAME/refs/<rev> -> snapshots/<commit>/.
std::optional<result<model_desc>> from_hf_cache(const model_name& n, const environment& env, bool offline) {
    if (env.hf_hub_cache.empty()) return std::nullopt;
    std::string folder = "models--" + n.repo;
    folder.replace(folder.find('/'), 1, "--");
    const fs::path repo_dir = fs::path(env.hf_hub_cache) / folder;
    const std::string rev   = n.revision.empty() ? "main" : n.revision;
    std::string commit      = is_commit(rev) ? rev : read_small(repo_dir / "refs" / rev);
    std::error_code ec;
    if (!is_commit(commit) && n.revision.empty()) { // no refs/main: the one snapshot there is, as llama.cpp does
        std::vector<std::string> snaps;
        for (fs::directory_iterator it(repo_dir / "snapshots", ec), end; !ec && it != end && snaps.size() < 2;
             it.increment(ec))
            snaps.push_back(it->path().filename().string());
        if (snaps.size() == 1) commit = snaps.front();
    }
    if (!safe_repo_path(rev) || !is_commit(commit)) return std::nullopt;
    const fs::path snap = repo_dir / "snapshots" / commit;
    if (!fs::is_directory(snap, ec)) return std::nullopt;
    auto m = read_local_dir(snap.string(), n.quant, n.repo, offline, known_absent(repo_dir / ".no_exist" / commit));
    if (m && *m) {
        (*m)->origin.kind     = "hf-cache";
        (*m)->origin.repo     = n.repo;
        (*m)->origin.location = snap.string();
        (*m)->origin.revision = rev;
        (*m)->origin.commit   = commit;
    }
    return m;
}

/// ModelScope's cache (hub-api.md §7): plain files under models/ORG/NAME with '.' written "___"
/// (older SDKs: ORG/NAME directly).
std::optional<result<model_desc>> from_ms_cache(const model_name& n, const environment& env, bool offline) {
    if (env.ms_cache.empty()) return std::nullopt;
    std::string escaped = n.repo;
    for (std::size_t at = escaped.find('.'); at != std::string::npos; at = escaped.find('.', at + 3))
        escaped.replace(at, 1, "___");
    for (const fs::path& dir : {fs::path(env.ms_cache) / "models" / escaped, fs::path(env.ms_cache) / n.repo}) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) continue;
        auto m = read_local_dir(dir.string(), n.quant, n.repo, offline);
        if (!m) continue;
        if (*m) {
            (*m)->origin.kind     = "modelscope-cache";
            (*m)->origin.repo     = n.repo;
            (*m)->origin.location = dir.string();
            (*m)->origin.revision = n.revision;
        }
        return m;
    }
    return std::nullopt;
}

/// "did you mean" from the catalog's suggestions (src/model/suggest.cpp).
std::string suggestions(const std::string& repo) {
    const auto s = suggest_models(repo, 3);
    return s.empty() ? std::string{} : "; did you mean " + format_suggestions(s) + "?";
}

result<std::string> resolve_commit(session& s, const file_cache& cache, const model_name& n, const std::string& rev,
                                   model_info& info_out) {
    if (is_commit(rev)) return rev;
    const std::string label = "hf:" + n.repo + "@" + rev;
    if (s.offline()) {
        if (auto c = cache.get_ref(rev); c && is_commit(*c)) return *c;
        return make_error(error_code::network,
                          "offline (--offline or HF_HUB_OFFLINE) and not in the Hugging Face cache nor llmplan's",
                          label);
    }
    // The revision form pins branches, tags and commits; `sha` is the commit it resolved to (hub-api.md §1.1).
    // safetensors: the Hub's own parameter count, all a gated repo shows without access (hub-api.md §1.1).
    const std::string url = fmt::format("{}/api/models/{}/revision/{}?expand%5B%5D=sha&expand%5B%5D=gated"
                                        "&expand%5B%5D=safetensors",
                                        s.endpoint(), n.repo, url_encode(rev, false));
    auto r                = s.get(url, std::nullopt, max_info_bytes, {n.repo, rev, ""});
    if (!r) return r.error();
    auto info = parse_model_info(r->body, label + " model info");
    if (!info) return info.error();
    if (!is_commit(info->sha))
        return make_error(error_code::missing_field, "the model info has no 40-hex \"sha\"; expected the commit",
                          label);
    cache.put_ref(rev, info->sha);
    info_out = *info;
    return info->sha;
}

/// ModelScope: the newest commit on the revision (modelscope hub/api.py list_repo_commits, hub-api.md
/// §7), "" when the server gives none (a 404 from a server without the route, an answer without an
/// Id): then every request names the revision, as the modelscope SDK's do.
result<std::string> resolve_ms_commit(session& s, const file_cache& cache, const model_name& n,
                                      const std::string& rev) {
    if (is_commit(rev)) return rev;
    if (s.offline()) return cache.get_ref(rev).value_or(std::string());
    const std::string url = fmt::format("{}/api/v1/models/{}/commits?Ref={}&PageNumber=1&PageSize=1", s.endpoint(),
                                        n.repo, url_encode(rev, false));
    auto r                = s.get(url, std::nullopt, max_info_bytes, {n.repo, rev, ""});
    if (!r) return r.error().code == error_code::file_not_found ? result<std::string>(std::string()) : r.error();
    std::string commit = parse_ms_head_commit(r->body);
    if (!commit.empty()) cache.put_ref(rev, commit);
    return commit;
}

} // namespace

result<model_desc> load_hub_model(const model_name& n, const load_options& opt) {
    const environment env = read_environment();
    const bool offline    = opt.offline || env.offline;
    if (!opt.refresh) {
        if (n.kind == hub_kind::hf)
            if (auto m = from_hf_cache(n, env, offline)) return std::move(*m);
        if (n.kind == hub_kind::modelscope || !n.prefixed)
            if (auto m = from_ms_cache(n, env, offline)) return std::move(*m);
    }
    session s(opt, env, n.kind);
    const file_cache cache(env.llmplan_cache, s.endpoint(), n.repo);
    const bool hf         = n.kind == hub_kind::hf;
    const std::string rev = !n.revision.empty() ? n.revision : hf ? "main" : "master"; // ModelScope's default branch
    std::string commit    = rev;
    model_info info;
    if (hf) {
        auto c = resolve_commit(s, cache, n, rev, info);
        if (!c) {
            error e = c.error();
            if (!n.prefixed) // a bare name may have meant a catalog id
                e.message = "not a catalog id nor in the local caches; " + e.message + suggestions(n.repo);
            return e;
        }
        commit = *c;
    } else {
        auto c = resolve_ms_commit(s, cache, n, rev);
        if (!c) return c.error();
        commit = *c;
    }
    // Requests and llmplan's cache name the commit; the revision where ModelScope gave none.
    std::optional<remote_repo> repo;
    repo.emplace(s, cache, n.kind, n.repo, rev, commit.empty() ? rev : commit, opt.refresh);
    auto files = list_files(*repo, cache, opt.refresh);
    if (!files && !hf && !commit.empty() && commit != rev && files.error().code == error_code::file_not_found) {
        // A ModelScope server that names commits but takes only branch and tag names as Revision.
        commit.clear();
        repo.emplace(s, cache, n.kind, n.repo, rev, rev, opt.refresh);
        files = list_files(*repo, cache, opt.refresh);
    }
    if (!files) return files.error();
    auto m = read_repo(*repo, *files, n.quant, opt);
    if (!m && m.error().code == error_code::access_denied && info.safetensors_total) {
        std::uint64_t bytes = 0; // what the listing shows of a repo whose files are refused
        for (const auto& f : *files)
            bytes += f.size;
        error e = m.error();
        e.message += fmt::format(" (the Hub lists {} parameters and {} bytes of files)", info.safetensors_total, bytes);
        return e;
    }
    if (!m) return m;
    m->origin.kind          = hf ? "hub" : "modelscope";
    m->origin.repo          = n.repo;
    m->origin.location      = s.endpoint() + "/" + n.repo;
    m->origin.revision      = rev;
    m->origin.commit        = commit;
    m->origin.requests      = s.stats.requests;
    m->origin.bytes_fetched = s.stats.bytes;
    return m;
}

} // namespace llmplan::hub
