// load_model: catalog id, config.json path, model directory, or GGUF file -> model_desc.
#include "llmplan/load.h"

#include "llmplan/hf_config.h"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace llmplan {
namespace fs = std::filesystem;
namespace {

// A config.json is a few KB (the largest in data/models, DeciLM's per-layer block_configs, is 37 KB);
// 16 MiB bounds what we read from a path the user gave.
constexpr std::uintmax_t max_config_bytes = 16u << 20;

result<std::string> read_text(const fs::path& p) {
    std::error_code ec;
    const auto size = fs::file_size(p, ec);
    if (ec) return make_error(error_code::file_not_found, "cannot read: " + ec.message(), p.string());
    if (size > max_config_bytes)
        return make_error(error_code::bad_value, fmt::format("{} bytes; expected a config.json under 16 MiB", size),
                          p.string());
    std::ifstream in(p, std::ios::binary);
    if (!in) return make_error(error_code::read_failed, "cannot open", p.string());
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

result<model_desc> load_config_file(const fs::path& config) {
    auto text = read_text(config);
    if (!text) return text.error();
    auto m = parse_hf_config(*text, config.string());
    if (!m) return m;
    m->id = config.parent_path().filename().string();
    return m;
}

} // namespace

result<model_desc> load_model(std::string_view spec) {
    if (spec.empty()) return make_error(error_code::bad_value, "empty MODEL; expected a catalog id or a path", "MODEL");
    std::error_code ec;
    const fs::path p(spec);
    if (fs::is_directory(p, ec)) {
        const auto config = p / "config.json";
        if (!fs::exists(config, ec))
            return make_error(error_code::file_not_found,
                              "directory has no config.json; expected a Hugging Face model folder", p.string());
        return load_config_file(config);
    }
    if (fs::is_regular_file(p, ec)) {
        return load_config_file(p);
    }
    if (const auto* e = find_in_catalog(spec)) return load_catalog_model(*e);
    return make_error(error_code::file_not_found,
                      "not a file, a directory, or a catalog id (see `llmplan models` for the catalog)",
                      std::string(spec));
}

} // namespace llmplan
