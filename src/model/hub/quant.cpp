// Which GGUF of a repo to read: llama.cpp's -hf repo:quant rule (common/download.cpp
// find_best_model; hub-api.md §6): the quant asked for, else Q4_K_M, else Q8_0, else the first
// model file; sidecars (mmproj, imatrix) skipped; a split quant brings its siblings.
#include "model/hub/hub.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace llmplan::hub {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string_view base_name(std::string_view p) {
    const auto slash = p.rfind('/');
    return slash == std::string_view::npos ? p : p.substr(slash + 1);
}

/// "<prefix>-00001-of-00003.gguf" (llama.cpp llama_split_path): {prefix, part, count}.
struct split_name {
    std::string prefix;
    unsigned part = 0, count = 0;
};
std::optional<split_name> parse_split(std::string_view p) {
    constexpr std::string_view example = "-00001-of-00003.gguf";
    if (p.size() <= example.size()) return std::nullopt;
    const std::string_view tail = p.substr(p.size() - example.size());
    split_name s;
    for (std::size_t i = 0; i < example.size(); ++i) {
        const bool digit = example[i] >= '0' && example[i] <= '9';
        if (digit != (std::isdigit(static_cast<unsigned char>(tail[i])) != 0)) return std::nullopt;
        if (!digit && std::tolower(static_cast<unsigned char>(tail[i])) != example[i]) return std::nullopt;
        if (digit) (i < 6 ? s.part : s.count) = (i < 6 ? s.part : s.count) * 10 + static_cast<unsigned>(tail[i] - '0');
    }
    if (s.part == 0 || s.count == 0 || s.part > s.count) return std::nullopt;
    s.prefix = std::string(p.substr(0, p.size() - example.size()));
    return s;
}

/// The tag as a word of the file name: after the start or one of "-._", before '.' or '-'
/// (llama.cpp matches "<tag>[.-]" case-insensitively; the left edge keeps Q4_0 from IQ4_0).
bool names_quant(std::string_view path, std::string_view tag) {
    const std::string name = lower(base_name(path)), t = lower(tag);
    for (std::size_t at = name.find(t); at != std::string::npos; at = name.find(t, at + 1)) {
        const bool left  = at == 0 || std::string_view("-._").find(name[at - 1]) != std::string_view::npos;
        const auto after = at + t.size();
        const bool right = after < name.size() && (name[after] == '.' || name[after] == '-');
        if (left && right) return true;
    }
    return false;
}

bool first_part(std::string_view p) {
    const auto s = parse_split(p);
    return !s || s->part == 1;
}

} // namespace

bool is_model_gguf(std::string_view path) {
    const std::string name = lower(base_name(path));
    return name.ends_with(".gguf") && !name.starts_with("mmproj") && name.find("imatrix") == std::string::npos;
}

result<gguf_choice> choose_gguf(const std::vector<std::string>& paths, std::string_view quant, std::string_view repo) {
    std::vector<std::string> models;
    for (const auto& p : paths)
        if (is_model_gguf(p)) models.push_back(p);
    if (models.empty())
        return make_error(error_code::file_not_found, "no GGUF model file in the repo", std::string(repo));
    std::optional<std::string> pick;
    std::string picked_by;
    for (const auto& p : models) // a full file name as the tag (Ollama accepts it too)
        if (!quant.empty() && (lower(p) == lower(quant) || lower(base_name(p)) == lower(quant))) pick = p;
    std::vector<std::string_view> tags;
    if (quant.empty())
        tags = {"Q4_K_M", "Q8_0"}; // llama.cpp's defaults, in order
    else
        tags = {quant};
    for (auto tag : tags) {
        if (pick) break;
        for (const auto& p : models)
            if (names_quant(p, tag) && first_part(p)) {
                pick      = p;
                picked_by = tag;
                break;
            }
    }
    if (!pick && quant.empty())
        for (const auto& p : models)
            if (first_part(p)) {
                pick = p;
                break;
            }
    if (!pick) {
        std::string some;
        for (std::size_t i = 0, shown = 0; i < models.size() && shown < 8; ++i)
            if (first_part(models[i])) some += (shown++ ? ", " : "") + std::string(base_name(models[i]));
        return make_error(error_code::file_not_found,
                          fmt::format("no GGUF file for quant \"{}\"; the repo has: {}", quant, some),
                          std::string(repo));
    }
    gguf_choice c;
    c.first          = *pick;
    c.tag            = picked_by;
    const auto split = parse_split(*pick);
    if (!split) {
        c.all = {*pick};
        return c;
    }
    const std::string ext = pick->substr(pick->size() - 5); // ".gguf" as spelled
    for (unsigned i = 1; i <= split->count; ++i) {
        const std::string sib = fmt::format("{}-{:05}-of-{:05}{}", split->prefix, i, split->count, ext);
        if (std::find(paths.begin(), paths.end(), sib) == paths.end())
            return make_error(error_code::file_not_found,
                              fmt::format("split part {} of {} is not in the repo", i, split->count),
                              std::string(repo) + "/" + sib);
        c.all.push_back(sib);
    }
    return c;
}

} // namespace llmplan::hub
