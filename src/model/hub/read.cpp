// A model from a repo's files, headers only: config.json plus each safetensors shard's header by
// HTTP Range (in parallel, bounded), or a GGUF header by growing ranges (every part of a split
// set); the same readers and mapping as for local files (hub-api.md §8).
#include "llmplan/hf_config.h"
#include "model/gguf_parse.h"
#include "model/hub/hub.h"
#include "model/load_detail.h"
#include "model/quant_config.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <thread>

namespace llmplan::hub {
namespace fs = std::filesystem;
namespace {

/// config.json is a few KB; the largest in data/models (DeciLM's block_configs) is 37 KB.
constexpr std::uint64_t max_config_bytes = std::uint64_t{16} << 20;
/// First read of a safetensors file: 100,000 bytes holds the header of 97% of the top 1000 models
/// (huggingface_hub hf_api.py get_safetensors_metadata); a longer header takes one more read.
constexpr std::uint64_t safetensors_probe_bytes = 100000;
/// GGUF: 2 MiB first (a 32k vocabulary's header is 741 kB, @huggingface/gguf's chunk size), doubled
/// while the header goes on (128k-152k vocabularies take 4-9 MB); 64 MiB at most.
constexpr std::uint64_t gguf_first_read = std::uint64_t{2} << 20;
constexpr std::uint64_t gguf_part_read  = std::uint64_t{256} << 10; // later split parts: split KVs + tensor infos
constexpr std::uint64_t gguf_max_header = std::uint64_t{64} << 20;
/// Files read at once: huggingface.js uses 20, hf-mem 32; 8 keeps within the Hub's resolver quota
/// (3,000 per 5 minutes anonymously) while a 163-shard repo still takes ~20 round trips.
constexpr unsigned max_parallel = 8;

constexpr std::string_view index_name = "model.safetensors.index.json";

/// Runs f(i) for i in [0, n) on at most max_parallel threads.
template <class F> void parallel_for(std::size_t n, F f) {
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
        for (std::size_t i = next++; i < n; i = next++)
            f(i);
    };
    std::vector<std::thread> pool;
    const std::size_t threads = std::min<std::size_t>(max_parallel, n);
    for (std::size_t t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (auto& t : pool)
        t.join();
}

std::uint64_t u64_le(std::string_view b) {
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < 8; ++i)
        n |= std::uint64_t{static_cast<unsigned char>(b[i])} << (8 * i);
    return n;
}

std::span<const std::byte> as_bytes(const std::string& s) {
    return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

result<safetensors_header> remote_safetensors_header(remote_repo& r, const std::string& path, std::uint64_t listed) {
    const std::string label = r.label(path);
    auto h                  = r.first_bytes(path, safetensors_probe_bytes, listed);
    if (!h) return h.error();
    if (h->bytes.size() >= 8) {
        const std::uint64_t n = u64_le(h->bytes);
        // The reader reports an N over the cap or past the file; only fetch what can be a header.
        if (n <= safetensors_max_header_bytes && n <= h->total - 8 && h->bytes.size() < 8 + n) {
            h = r.first_bytes(path, 8 + n, listed);
            if (!h) return h.error();
        }
    }
    return read_safetensors(as_bytes(h->bytes), h->total, label);
}

result<gguf_file> remote_gguf_header(remote_repo& r, const std::string& path, std::uint64_t listed,
                                     std::uint64_t first) {
    const std::string label = r.label(path);
    for (std::uint64_t want = first;; want = std::min(gguf_max_header, want * 2)) {
        auto h = r.first_bytes(path, want, listed);
        if (!h) return h.error();
        bool need_more = false;
        auto g         = detail::parse_gguf(as_bytes(h->bytes), label, h->total, true, need_more);
        if (g) {
            g->parts.push_back(gguf_part{path, h->total, g->n_tensors});
            return g;
        }
        if (!need_more || h->bytes.size() >= h->total) return g;
        if (want >= gguf_max_header)
            return make_error(
                error_code::bad_value,
                fmt::format("the GGUF header goes past {} MiB; expected a header under that", gguf_max_header >> 20),
                label);
    }
}

result<model_desc> read_gguf_repo(remote_repo& r, const std::map<std::string, std::uint64_t>& sizes,
                                  const std::vector<std::string>& paths, std::string_view quant,
                                  const load_options& opt) {
    auto choice = choose_gguf(paths, quant, r.label(""));
    if (!choice) return choice.error();
    // Every part's header at once (bounded); the split reader then takes them in order.
    std::vector<std::optional<result<gguf_file>>> parts(choice->all.size());
    progress bar(opt.progress, parts.size());
    parallel_for(parts.size(), [&](std::size_t i) {
        const auto& p = choice->all[i];
        parts[i]      = remote_gguf_header(r, p, sizes.at(p), i == 0 ? gguf_first_read : gguf_part_read);
        bar.file_done(r.net().stats.bytes);
    });
    const std::string in_repo = r.label("") + "/"; // headers are labelled "hf:ORG/NAME/path"
    const auto reader         = [&](const std::string& label) -> result<gguf_file> {
        const std::string p = label.starts_with(in_repo) ? label.substr(in_repo.size()) : label;
        for (std::size_t i = 0; i < parts.size(); ++i)
            if (choice->all[i] == p) return *parts[i];
        return make_error(error_code::file_not_found, "split part is not in the repo", r.label(p));
    };
    auto g = detail::read_gguf_set(in_repo + choice->first, reader);
    if (!g) return g.error();
    const std::string file = choice->first.substr(choice->first.rfind('/') + 1);
    auto m                 = detail::model_from_gguf_file(*g, file);
    if (!m) return m;
    m->id           = r.repo();
    m->origin.files = choice->all;
    m->origin.quant = choice->tag;
    return m;
}

result<model_desc> read_safetensors_repo(remote_repo& r, const std::map<std::string, std::uint64_t>& sizes,
                                         const load_options& opt) {
    auto text = r.whole("config.json", max_config_bytes);
    if (!text) return text.error();
    auto m = parse_hf_config(*text, r.label("config.json"));
    if (!m) return m;
    m->id = r.repo();
    m->origin.files.push_back("config.json");
    // ModelOpt checkpoints keep their quantization beside config.json (load.cpp reads it the same way).
    if (sizes.contains("hf_quant_config.json")) {
        auto q = r.whole("hf_quant_config.json", max_config_bytes);
        if (!q) return q.error();
        if (auto s = detail::apply_hf_quant_config(*m, *q, r.label("hf_quant_config.json")); !s) return s.error();
        m->origin.files.emplace_back("hf_quant_config.json");
    }
    std::optional<safetensors_index> index;
    std::vector<std::string> files;
    if (sizes.contains(std::string(index_name))) {
        auto t = r.whole(std::string(index_name), safetensors_max_header_bytes);
        if (!t) return t.error();
        auto idx = parse_safetensors_index(*t, r.label(index_name));
        if (!idx) return idx.error();
        m->origin.files.emplace_back(index_name);
        for (const auto& s : idx->shards)
            if (std::find(files.begin(), files.end(), s) == files.end()) files.push_back(s);
        index = std::move(*idx);
    } else if (sizes.contains("model.safetensors")) {
        files = {"model.safetensors"};
    } else {
        for (const auto& [p, size] : sizes) // std::map: sorted by name
            if (p.ends_with(".safetensors") && p.find('/') == std::string::npos) files.push_back(p);
    }
    if (files.empty()) {
        m->notes.push_back("no safetensors weights in the repo: weights from the architecture");
        return m;
    }
    for (const auto& f : files)
        if (!sizes.contains(f))
            return make_error(error_code::file_not_found,
                              fmt::format("shard {} named by the index is not in the repo", f), r.label(f));
    std::vector<std::optional<result<safetensors_header>>> headers(files.size());
    progress bar(opt.progress, files.size());
    parallel_for(files.size(), [&](std::size_t i) {
        headers[i] = remote_safetensors_header(r, files[i], sizes.at(files[i]));
        bar.file_done(r.net().stats.bytes);
    });
    const auto reader = [&](const std::string& name) -> result<safetensors_header> {
        const auto at = std::find(files.begin(), files.end(), name) - files.begin();
        return *headers[static_cast<std::size_t>(at)];
    };
    auto st = read_safetensors_headers(r.repo(), index ? &*index : nullptr, files, reader);
    if (!st) return st.error();
    auto out = detail::add_checkpoint(std::move(*m), *st);
    if (out) out->origin.files.insert(out->origin.files.end(), files.begin(), files.end());
    return out;
}

/// What a repo holds: GGUF files, a config with safetensors, or a config alone.
struct layout {
    bool config = false, safetensors = false, gguf = false;
};
layout layout_of(const std::vector<std::string>& paths) {
    layout l;
    for (const auto& p : paths) {
        l.config |= p == "config.json";
        l.safetensors |= p.find('/') == std::string::npos && p.ends_with(".safetensors");
        l.safetensors |= p == index_name;
        l.gguf |= is_model_gguf(p);
    }
    return l;
}

bool wants_gguf(const layout& l, std::string_view quant) {
    return l.gguf && (!quant.empty() || !(l.config && l.safetensors));
}

} // namespace

result<model_desc> read_repo(remote_repo& r, const std::vector<repo_file>& files, std::string_view quant,
                             const load_options& opt) {
    std::map<std::string, std::uint64_t> sizes;
    std::vector<std::string> paths;
    for (const auto& f : files) {
        sizes[f.path] = f.size;
        paths.push_back(f.path);
    }
    const layout l = layout_of(paths);
    if (wants_gguf(l, quant)) return read_gguf_repo(r, sizes, paths, quant, opt);
    if (!quant.empty())
        return make_error(error_code::file_not_found,
                          fmt::format("a quant (\"{}\") was asked for but the repo has no GGUF file", quant), r.repo());
    if (l.config) return read_safetensors_repo(r, sizes, opt);
    return make_error(error_code::file_not_found,
                      "the repo has neither config.json nor a GGUF file; expected a model repo", r.repo());
}

std::optional<result<model_desc>> read_local_dir(const std::string& dir, std::string_view quant, std::string_view repo,
                                                 bool offline, const std::vector<std::string>& known_absent) {
    std::vector<std::string> paths;
    std::error_code ec;
    constexpr std::size_t max_entries = 100000; // a snapshot holds tens of files; bounds a strange folder
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::follow_directory_symlink, ec), end;
         !ec && it != end && paths.size() < max_entries; it.increment(ec))
        if (it->is_regular_file(ec)) paths.push_back(it->path().lexically_relative(dir).generic_string());
    const layout l = layout_of(paths);
    if (wants_gguf(l, quant)) {
        auto choice = choose_gguf(paths, quant, repo);
        if (!choice) return std::nullopt; // that quant is not downloaded: maybe on the Hub
        auto g = read_gguf_file((fs::path(dir) / choice->first).string());
        if (!g && g.error().code == error_code::file_not_found) return std::nullopt; // a part not downloaded
        if (!g) return result<model_desc>(g.error());
        auto m = detail::model_from_gguf_file(*g, (fs::path(dir) / choice->first).string());
        if (m) {
            m->origin.files = choice->all;
            m->origin.quant = choice->tag;
        }
        return m;
    }
    if (!quant.empty() || !l.config) return std::nullopt;
    const bool weights = std::any_of(paths.begin(), paths.end(), [](const std::string& p) {
        return p.find('/') == std::string::npos && p.ends_with(".safetensors");
    });
    // The Hub said (a 404 that huggingface_hub recorded in .no_exist, hub-api.md §4) that the repo has
    // neither file transformers looks for first: it has no safetensors weights, as read_repo would
    // find from the listing, so the config alone is the whole answer.
    const auto absent = [&](std::string_view f) {
        return std::find(known_absent.begin(), known_absent.end(), f) != known_absent.end();
    };
    const bool no_weights = !weights && absent("model.safetensors") && absent(index_name);
    if (!weights && !offline && !no_weights) return std::nullopt; // a config alone: the Hub's headers are exact
    auto m = detail::load_model_dir(dir);
    if (!m && m.error().code == error_code::file_not_found) return std::nullopt; // shards not downloaded
    if (m) m->id = std::string(repo);
    if (m && no_weights) m->notes.push_back("no safetensors weights in the repo: weights from the architecture");
    return m;
}

} // namespace llmplan::hub
