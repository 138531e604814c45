// llmplan's cache of what it fetched, and reading a repo's files through it: whole small files,
// first bytes by HTTP Range, the tree listing (hub-api.md §1.3, §1.4, §8).
#include "model/hub/hub.h"

#include <atomic>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

namespace llmplan::hub {
namespace fs = std::filesystem;
namespace {

/// The listing: at most this many pages and bytes a page (the Hub pages ~1,000 entries; a page
/// is tens of KB), so a server that pages forever ends with an error.
constexpr int max_tree_pages              = 10000;
constexpr std::uint64_t max_listing_bytes = std::uint64_t{64} << 20;
/// All pages together: an entry is ~200 bytes, so 100k files list in ~20 MB; this bounds memory.
constexpr std::uint64_t max_listing_total = std::uint64_t{256} << 20;
constexpr std::uint64_t max_cached_file   = std::uint64_t{128} << 20;

std::optional<std::string> read_file(const fs::path& p) {
    std::error_code ec;
    const auto size = fs::file_size(p, ec);
    if (ec || size > max_cached_file) return std::nullopt;
    std::ifstream in(p, std::ios::binary);
    if (!in) return std::nullopt;
    std::string s(static_cast<std::size_t>(size), '\0');
    if (!in.read(s.data(), static_cast<std::streamsize>(s.size()))) return std::nullopt;
    return s;
}

/// Written to a temporary name beside the target, then renamed: a killed run leaves no half file.
void write_atomic(const fs::path& p, std::string_view data) {
    static std::atomic<unsigned> counter{0};
    std::error_code ec;
    fs::create_directories(p.parent_path(), ec);
    if (ec) return; // the cache is an optimisation: a read-only home just means no cache
    const fs::path tmp = p.parent_path() / fmt::format(".{}.tmp.{}.{}", p.filename().string(), ::getpid(), counter++);
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return;
        out.write(data.data(), static_cast<std::streamsize>(data.size()));
        out.flush();
        if (!out) {
            out.close();
            fs::remove(tmp, ec);
            return;
        }
    }
    fs::rename(tmp, p, ec);
    if (ec) fs::remove(tmp, ec);
}

std::string fs_safe(std::string_view s) {
    return url_encode(s, false);
}

} // namespace

file_cache::file_cache(const std::string& root, const std::string& endpoint, const std::string& repo) {
    if (root.empty()) return;
    std::string folder = repo;
    folder.replace(folder.find('/'), 1, "--"); // the Hugging Face cache's "models--org--name" spelling
    dir_ = (fs::path(root) / "hub" / fs_safe(endpoint) / folder).string();
}

std::optional<std::string> file_cache::get_ref(std::string_view rev) const {
    if (dir_.empty()) return std::nullopt;
    auto s = read_file(fs::path(dir_) / "refs" / fs_safe(rev));
    if (!s || s->size() > 256) return std::nullopt;
    return s;
}

void file_cache::put_ref(std::string_view rev, std::string_view commit) const {
    if (!dir_.empty()) write_atomic(fs::path(dir_) / "refs" / fs_safe(rev), commit);
}

std::optional<std::string> file_cache::get(std::string_view commit, std::string_view key) const {
    if (dir_.empty()) return std::nullopt;
    return read_file(fs::path(dir_) / fs_safe(commit) / std::string(key));
}

void file_cache::put(std::string_view commit, std::string_view key, std::string_view data) const {
    if (!dir_.empty()) write_atomic(fs::path(dir_) / fs_safe(commit) / std::string(key), data);
}

remote_repo::remote_repo(session& s, const file_cache& c, hub_kind kind, std::string repo, std::string revision,
                         std::string commit, bool refresh)
    : s_(s), cache_(c), kind_(kind), repo_(std::move(repo)), revision_(std::move(revision)), commit_(std::move(commit)),
      refresh_(refresh) {}

std::string remote_repo::url(const std::string& path) const {
    if (kind_ == hub_kind::hf) // huggingface_hub file_download.py hf_hub_url
        return fmt::format("{}/{}/resolve/{}/{}", s_.endpoint(), repo_, url_encode(commit_, false),
                           url_encode(path, true));
    // modelscope hub/file_download.py get_file_download_url
    return fmt::format("{}/api/v1/models/{}/repo?Revision={}&FilePath={}", s_.endpoint(), repo_,
                       url_encode(commit_, false), url_encode(path, false));
}

std::string remote_repo::label(std::string_view path) const {
    return fmt::format("{}:{}{}{}", kind_ == hub_kind::hf ? "hf" : "ms", repo_, path.empty() ? "" : "/", path);
}

result<std::string> remote_repo::whole(const std::string& path, std::uint64_t cap) {
    const std::string key = "files/" + path;
    if (!refresh_)
        if (auto hit = cache_.get(commit_, key)) return *hit;
    auto r = s_.get(url(path), std::nullopt, cap + 1, {repo_, revision_, path});
    if (!r) return r.error();
    if (r->body.size() > cap)
        return make_error(error_code::bad_value, fmt::format("larger than {} bytes; expected a small JSON file", cap),
                          label(path));
    cache_.put(commit_, key, r->body);
    return std::move(r->body);
}

result<remote_repo::head> remote_repo::first_bytes(const std::string& path, std::uint64_t want,
                                                   std::uint64_t listed_size) {
    const std::string key   = "heads/" + path;
    const std::string where = label(path);
    head h;
    bool known = false;
    if (!refresh_)
        if (auto hit = cache_.get(commit_, key)) { // "<total>\n<first bytes>"
            const auto nl = hit->find('\n');
            if (nl != std::string::npos && nl < 21) {
                h.total = std::strtoull(hit->substr(0, nl).c_str(), nullptr, 10);
                h.bytes = hit->substr(nl + 1);
                known   = h.bytes.size() <= h.total;
                if (!known) h = {};
            }
        }
    if (known && (h.bytes.size() >= want || h.bytes.size() == h.total)) return h;
    const std::uint64_t first = h.bytes.size();
    std::uint64_t last        = want - 1;
    if (known && last >= h.total) last = h.total - 1;
    if (listed_size && last >= listed_size) last = listed_size - 1;
    if (last < first) return h;
    auto r = s_.get(url(path), byte_range{first, last}, last - first + 1, {repo_, revision_, path});
    if (!r) return r.error();
    std::uint64_t total = 0;
    if (r->range_ignored || r->status == 200) {
        const auto* cl = r->header("content-length");
        total          = cl ? std::strtoull(cl->c_str(), nullptr, 10) : listed_size;
    } else {
        const auto* cr = r->header("content-range");
        const auto t   = cr ? content_range_total(*cr, first) : std::nullopt;
        if (!t)
            return make_error(error_code::bad_value,
                              fmt::format("answer {} to a Range request has no valid Content-Range (\"{}\"); expected "
                                          "\"bytes {}-{}/SIZE\"",
                                          r->status, cr ? *cr : "", first, last),
                              where);
        total = *t;
    }
    if (total == 0)
        return make_error(error_code::bad_value, "the server gives no file size (no Content-Range or Content-Length)",
                          where);
    if (listed_size && total != listed_size)
        return make_error(
            error_code::bad_value,
            fmt::format("the server says the file is {} bytes but the listing says {}", total, listed_size), where);
    if (known && total != h.total)
        return make_error(
            error_code::bad_value,
            fmt::format("the file is {} bytes now but was {} (the cache is stale; try --refresh)", total, h.total),
            where);
    const std::uint64_t expect = std::min(last, total - 1) - first + 1;
    if (r->body.size() != expect)
        return make_error(error_code::truncated,
                          fmt::format("the server sent {} bytes for bytes {}-{}; expected {}", r->body.size(), first,
                                      std::min(last, total - 1), expect),
                          where);
    h.total = total;
    h.bytes += r->body;
    cache_.put(commit_, key, fmt::format("{}\n", h.total) + h.bytes);
    return h;
}

result<std::vector<repo_file>> list_files(remote_repo& r, const file_cache& c, bool refresh) {
    if (!refresh)
        if (auto hit = c.get(r.commit(), "tree.json")) {
            auto files = parse_tree_page(*hit, "cached tree.json");
            if (files) return files;
        }
    std::vector<repo_file> all;
    session& s = r.net();
    if (s.endpoint().empty()) return make_error(error_code::bad_value, "no endpoint", r.repo());
    const bool hf = r.kind() == hub_kind::hf;
    const request_what what{r.repo(), r.revision(), ""};
    if (hf) {
        // One listing of the pinned commit, every page (hub-api.md §1.3: follow Link rel="next").
        std::string url = fmt::format("{}/api/models/{}/tree/{}?recursive=true&expand=false", s.endpoint(), r.repo(),
                                      url_encode(r.commit(), false));
        std::uint64_t listed = 0;
        for (int page = 0; !url.empty(); ++page) {
            if (page == max_tree_pages)
                return make_error(error_code::bad_value, fmt::format("the tree listing has more than {} pages", page),
                                  "hf:" + r.repo());
            auto resp = s.get(url, std::nullopt, max_listing_bytes, what);
            if (!resp) return resp.error();
            if ((listed += resp->body.size()) > max_listing_total)
                return make_error(error_code::bad_value,
                                  fmt::format("the tree listing goes past {} MiB", max_listing_total >> 20),
                                  "hf:" + r.repo());
            auto files = parse_tree_page(resp->body, "hf:" + r.repo() + " tree listing");
            if (!files) return files.error();
            all.insert(all.end(), files->begin(), files->end());
            const auto* link = resp->header("link");
            url              = link ? link_next(*link) : "";
            if (url.starts_with("/")) url = s.endpoint() + url;
        }
    } else {
        const std::string url = fmt::format("{}/api/v1/models/{}/repo/files?Revision={}&Recursive=True", s.endpoint(),
                                            r.repo(), url_encode(r.commit(), false));
        auto resp             = s.get(url, std::nullopt, max_listing_bytes, what);
        if (!resp) return resp.error();
        auto files = parse_ms_files(resp->body, "ms:" + r.repo() + " file listing");
        if (!files) return files.error();
        all = std::move(*files);
    }
    nlohmann::json out = nlohmann::json::array();
    for (const auto& f : all)
        out.push_back({
            {"type", "file"},
            {"path", f.path},
            {"size", f.size}
        });
    c.put(r.commit(), "tree.json", out.dump());
    return all;
}

} // namespace llmplan::hub
