// The built-in model catalog: one official config.json per model under data/models/<org>--<name>/,
// embedded at build time (cmake/embed.cmake). Adding a model is adding a folder.
#include "detail/embedded.h"
#include "detail/strings.h"
#include "llmplan/hf_config.h"
#include "llmplan/load.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

namespace llmplan {
namespace {

using detail::lower;

std::vector<catalog_entry> build_catalog() {
    std::vector<catalog_entry> out;
    constexpr std::string_view prefix = "models/";
    constexpr std::string_view suffix = "/config.json";
    for (const auto& f : detail::embedded_files()) {
        std::string_view p = f.path;
        if (!p.starts_with(prefix) || !p.ends_with(suffix)) continue;
        std::string_view folder = p.substr(prefix.size(), p.size() - prefix.size() - suffix.size());
        const auto sep          = folder.find("--");
        if (sep == std::string_view::npos) continue;
        catalog_entry e;
        e.id          = std::string(folder.substr(0, sep)) + "/" + std::string(folder.substr(sep + 2));
        e.alias       = lower(folder.substr(sep + 2));
        e.config_path = std::string(p);
        out.push_back(std::move(e));
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return lower(a.id) < lower(b.id); });
    return out;
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

const catalog_entry* find_in_catalog(std::string_view name) {
    const std::string n = lower(name);
    for (const auto& e : catalog())
        if (lower(e.id) == n || e.alias == n) return &e;
    return nullptr;
}

std::vector<const catalog_entry*> search_catalog(std::string_view text) {
    const std::string t = lower(text);
    std::vector<const catalog_entry*> out;
    for (const auto& e : catalog())
        if (lower(e.id).find(t) != std::string::npos || e.alias.find(t) != std::string::npos) out.push_back(&e);
    return out;
}

result<model_desc> load_catalog_model(const catalog_entry& e) {
    const auto* f = embedded(e.config_path);
    if (f == nullptr) return make_error(error_code::file_not_found, "catalog entry has no config", e.config_path);
    auto m = parse_hf_config(f->text(), "catalog:" + e.id);
    if (!m) return m;
    m->id = e.id;
    // The catalog may carry the checkpoint's safetensors index (exact on-disk size).
    const std::string index_path = e.config_path.substr(0, e.config_path.size() - 11) + "model.safetensors.index.json";
    if (const auto* idx = embedded(index_path)) {
        auto j = nlohmann::json::parse(idx->text(), nullptr, false);
        if (j.is_object() && j.contains("metadata") && j["metadata"].contains("total_size") &&
            j["metadata"]["total_size"].is_number_unsigned())
            m->file_bytes = j["metadata"]["total_size"].get<std::uint64_t>();
    }
    return m;
}

} // namespace llmplan
