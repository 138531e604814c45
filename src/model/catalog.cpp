// The built-in model catalog: one official config.json per model under data/models/<org>--<name>/,
// embedded at build time (cmake/embed.cmake). Adding a model is adding a folder. A folder may hold a
// catalog.json instead of (or beside) its config.json: a sibling whose tensor shapes are proven equal
// to another catalog model's names that folder's config ("config") and restates the fields that are
// not shapes where its own Hub config differs ("set"), each with its source (data/models/SOURCES.md).
#include "detail/embedded.h"
#include "detail/strings.h"
#include "llmplan/hf_config.h"
#include "llmplan/load.h"
#include "model/catalog_detail.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

namespace llmplan {
namespace {

using detail::lower;

const detail::embedded_file* embedded(std::string_view path);

/// data/models/sources.json: folder -> {repo, path, commit, check} | {shares_config_of, evidence} | {seed}.
catalog_source source_of(const nlohmann::json& sources, std::string_view folder) {
    catalog_source s;
    const auto it = sources.find(std::string(folder));
    if (it == sources.end() || !it->is_object()) return s;
    const auto str = [&](const char* k) {
        return it->contains(k) && (*it)[k].is_string() ? (*it)[k].get<std::string>() : "";
    };
    if (it->contains("shares_config_of")) {
        s.kind     = "sibling";
        s.origin   = str("shares_config_of");
        s.evidence = str("evidence");
    } else if (it->contains("repo")) {
        s.kind     = "copy";
        s.origin   = str("repo") + " " + str("path") + " @ " + str("commit");
        s.evidence = str("check");
    } else {
        s.kind     = "seed";
        s.evidence = str("seed");
    }
    return s;
}

std::vector<catalog_entry> build_catalog() {
    std::vector<catalog_entry> out;
    std::set<std::string, std::less<>> seen;
    constexpr std::string_view prefix = "models/";
    for (const auto& f : detail::embedded_files()) {
        std::string_view p = f.path;
        if (!p.starts_with(prefix)) continue;
        std::string_view rest = p.substr(prefix.size());
        const auto slash      = rest.find('/');
        if (slash == std::string_view::npos) continue;
        const std::string_view file = rest.substr(slash + 1);
        if (file != "config.json" && file != "catalog.json") continue;
        std::string_view folder = rest.substr(0, slash);
        const auto sep          = folder.find("--");
        if (sep == std::string_view::npos || !seen.emplace(folder).second) continue;
        catalog_entry e;
        e.id          = std::string(folder.substr(0, sep)) + "/" + std::string(folder.substr(sep + 2));
        e.alias       = lower(folder.substr(sep + 2));
        e.config_path = std::string(prefix) + std::string(folder) + "/config.json";
        out.push_back(std::move(e));
    }
    // By lower-cased id, each lowered once (not twice per comparison).
    std::vector<std::pair<std::string, std::size_t>> keys;
    keys.reserve(out.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        keys.emplace_back(lower(out[i].id), i);
    std::sort(keys.begin(), keys.end());
    std::vector<catalog_entry> sorted;
    sorted.reserve(out.size());
    for (const auto& k : keys)
        sorted.push_back(std::move(out[k.second]));
    return sorted;
}

const detail::embedded_file* embedded(std::string_view path) {
    for (const auto& f : detail::embedded_files())
        if (path == f.path) return &f;
    return nullptr;
}

} // namespace

const std::vector<catalog_entry>& catalog() {
    static const std::vector<catalog_entry> c = build_catalog();
    return c;
}

const catalog_source& catalog_source_of(const catalog_entry& e) {
    // Every entry's source, by config path, built once on first use (thread-safe static).
    static const auto by_path = [] {
        nlohmann::json sources = nlohmann::json::object();
        if (const auto* f = embedded("models/sources.json"))
            sources = nlohmann::json::parse(f->text(), nullptr, /*allow_exceptions=*/false);
        if (!sources.is_object()) sources = nlohmann::json::object();
        std::map<std::string, catalog_source, std::less<>> m;
        constexpr std::string_view prefix = "models/", suffix = "/config.json";
        for (const auto& c : catalog()) {
            std::string_view folder = c.config_path;
            folder.remove_prefix(prefix.size());
            folder.remove_suffix(suffix.size());
            m.emplace(c.config_path, source_of(sources, folder));
        }
        return m;
    }();
    static const catalog_source none;
    const auto it = by_path.find(e.config_path);
    return it == by_path.end() ? none : it->second;
}

const catalog_entry* find_in_catalog(std::string_view name) {
    // Lower-cased ids and aliases, built once (the server looks a model up on every request). The
    // first entry to claim a name keeps it, as a scan in catalog order would; ids hold a '/' and
    // aliases never do, so an id and an alias cannot collide.
    static const auto index = [] {
        std::map<std::string, const catalog_entry*, std::less<>> m;
        for (const auto& e : catalog()) {
            m.emplace(lower(e.id), &e);
            m.emplace(e.alias, &e);
        }
        return m;
    }();
    const auto it = index.find(lower(name));
    return it == index.end() ? nullptr : it->second;
}

namespace {
/// `t` in `s` where a word starts (the start, or after '/', '-', '_', '.', ' '): "gemma-4" is Gemma 4,
/// not the end of "medgemma-4b".
bool at_word_start(std::string_view s, std::string_view t) {
    for (auto p = s.find(t); p != std::string_view::npos; p = s.find(t, p + 1))
        if (p == 0 || !std::isalnum(static_cast<unsigned char>(s[p - 1]))) return true;
    return false;
}
} // namespace

std::vector<const catalog_entry*> search_catalog(std::string_view text) {
    const std::string t = lower(text);
    std::vector<const catalog_entry*> out;
    // Names where a word starts with the text first; only when there are none, the text anywhere
    // (a part of a word, "wen2.5", still finds something).
    for (const auto& e : catalog())
        if (at_word_start(lower(e.id), t) || at_word_start(e.alias, t)) out.push_back(&e);
    if (!out.empty() || t.empty()) return out;
    for (const auto& e : catalog())
        if (lower(e.id).find(t) != std::string::npos || e.alias.find(t) != std::string::npos) out.push_back(&e);
    return out;
}

namespace detail {

// The config.json fields a catalog.json may restate: none of them is a tensor shape or a dtype, so
// a sibling sharing another model's config keeps that model's weights exactly.
constexpr std::array<std::string_view, 8> settable_fields{"max_position_embeddings",
                                                          "seq_length",
                                                          "sliding_window",
                                                          "use_sliding_window",
                                                          "rope_theta",
                                                          "rope_scaling",
                                                          "bos_token_id",
                                                          "eos_token_id"};

result<std::string> apply_catalog_json(std::string_view catalog_text, std::string_view where,
                                       const std::function<const std::string*(std::string_view)>& config_of,
                                       std::string_view own_config) {
    auto c = nlohmann::json::parse(catalog_text, nullptr, false);
    if (!c.is_object()) return make_error(error_code::bad_json, "not a JSON object", std::string(where));
    std::string base;
    if (auto it = c.find("config"); it != c.end()) {
        if (!it->is_string())
            return make_error(error_code::bad_value, "expected a catalog folder name", std::string(where) + ":/config");
        const std::string* text = config_of(it->get<std::string>());
        if (text == nullptr)
            return make_error(error_code::file_not_found,
                              "no catalog folder " + it->get<std::string>() + " with a config.json",
                              std::string(where) + ":/config");
        base = *text;
    } else if (!own_config.empty()) {
        base = std::string(own_config);
    } else {
        return make_error(error_code::missing_field, "no \"config\" and no config.json beside it", std::string(where));
    }
    auto it = c.find("set");
    if (it == c.end()) return base;
    if (!it->is_object())
        return make_error(error_code::bad_value, "expected an object of config fields", std::string(where) + ":/set");
    auto cfg = nlohmann::json::parse(base, nullptr, false);
    if (!cfg.is_object())
        return make_error(error_code::bad_json, "shared config is not a JSON object", std::string(where));
    for (const auto& [key, value] : it->items()) {
        if (std::find(settable_fields.begin(), settable_fields.end(), key) == settable_fields.end())
            return make_error(error_code::bad_value,
                              "\"" + key + "\" cannot be set (only fields that are not tensor shapes or dtypes may be)",
                              std::string(where) + ":/set/" + key);
        cfg[key] = value;
    }
    return cfg.dump();
}

} // namespace detail

namespace {

result<model_desc> read_catalog_model(const catalog_entry& e) {
    const std::string folder = e.config_path.substr(0, e.config_path.size() - std::string_view("config.json").size());
    const auto* own          = embedded(e.config_path);
    std::string text;
    if (const auto* cat = embedded(folder + "catalog.json")) {
        std::string shared;
        auto config_of = [&](std::string_view other) -> const std::string* {
            const auto* f = embedded("models/" + std::string(other) + "/config.json");
            if (f == nullptr) return nullptr;
            shared = std::string(f->text());
            return &shared;
        };
        auto t = detail::apply_catalog_json(cat->text(), folder + "catalog.json", config_of,
                                            own != nullptr ? own->text() : std::string_view{});
        if (!t) return unexpected{t.error()};
        text = std::move(*t);
    } else if (own != nullptr) {
        text = std::string(own->text());
    } else {
        return make_error(error_code::file_not_found, "catalog entry has no config", e.config_path);
    }
    auto m = parse_hf_config(text, "catalog:" + e.id);
    if (!m) return m;
    m->id = e.id;
    // The catalog may carry the checkpoint's safetensors index (exact on-disk size).
    if (const auto* idx = embedded(folder + "model.safetensors.index.json")) {
        auto j = nlohmann::json::parse(idx->text(), nullptr, false);
        if (j.is_object() && j.contains("metadata") && j["metadata"].contains("total_size") &&
            j["metadata"]["total_size"].is_number_unsigned())
            m->file_bytes = j["metadata"]["total_size"].get<std::uint64_t>();
    }
    return m;
}

} // namespace

result<model_desc> load_catalog_model(const catalog_entry& e) {
    // The embedded files never change: each entry's description is parsed once, on first use, and
    // copied out after (the server answers every request from it). An entry not in catalog() (a
    // caller's own) is read each time.
    struct slot {
        std::once_flag once;
        std::optional<result<model_desc>> m;
    };
    const auto& all = catalog();
    const std::less<const catalog_entry*> before;
    if (before(&e, all.data()) || !before(&e, all.data() + all.size())) return read_catalog_model(e);
    static std::vector<slot> cache(all.size());
    auto& s = cache[static_cast<std::size_t>(&e - all.data())];
    std::call_once(s.once, [&] { s.m = read_catalog_model(e); });
    return *s.m;
}

} // namespace llmplan
