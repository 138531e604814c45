// Asset lookup for the page served by `llmplan serve`.
#include "assets.h"

#include <array>
#include <utility>

namespace llmplan::web {

const embedded_file* find_asset(std::string_view path) {
    for (const auto& f : web_assets())
        if (path == f.path) return &f;
    if (path.starts_with("data/")) {
        path.remove_prefix(5);
        for (const auto& f : web_data())
            if (path == f.path) return &f;
    }
    return nullptr;
}

std::string_view content_type(std::string_view path) {
    // The types the assets folder holds; charset stated so no browser sniffs one.
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> types{
        {
         {".html", "text/html; charset=utf-8"},
         {".js", "text/javascript; charset=utf-8"},
         {".css", "text/css; charset=utf-8"},
         {".json", "application/json"},
         {".png", "image/png"},
         {".svg", "image/svg+xml"},
         {".csv", "text/csv; charset=utf-8"},
         }
    };
    for (const auto& [ext, type] : types)
        if (path.size() >= ext.size() && path.substr(path.size() - ext.size()) == ext) return type;
    return "application/octet-stream";
}

} // namespace llmplan::web
