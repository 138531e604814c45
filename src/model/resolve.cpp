// Names as people type them -> one model and its quant (include/llmplan/resolve.h). The matching
// itself is the catalog's suggestions (src/model/suggest.cpp); only sure ones are taken.
#include "llmplan/resolve.h"

#include "detail/strings.h"
#include "model/suggest.h"

#include <filesystem>
#include <fmt/format.h>

namespace llmplan {
namespace {

bool is_hub_address(std::string_view n) {
    const std::string l = detail::lower(n);
    for (std::string_view p : {"https://huggingface.co/", "http://huggingface.co/", "huggingface.co/", "https://hf.co/",
                               "http://hf.co/", "www.huggingface.co/", "https://www.huggingface.co/"})
        if (l.starts_with(p)) return true;
    return false;
}

std::string how_named(std::string_view name) {
    const std::string l = detail::lower(name);
    if (is_hub_address(name) || l.starts_with("hf.co/") || l.starts_with("hf:")) return "Hugging Face address";
    if (l.ends_with(".gguf") || l.find("-gguf") != std::string::npos) return "GGUF file or repo";
    if (l.find(':') != std::string::npos || l.starts_with("registry.ollama.ai/") || l.starts_with("ollama.com/"))
        return "Ollama tag";
    if (l.find('@') != std::string::npos) return "LM Studio name";
    return "name";
}

} // namespace

std::optional<model_resolution> resolve_model_name(std::string_view name) {
    if (name.empty() || name.size() > 512 || find_in_catalog(name)) return std::nullopt;
    const auto s = suggest_models(name, 3);
    if (s.empty() || !s.front().sure) return std::nullopt;
    // Two different sure answers (two organisations' copies, base and chat) are a choice, not a name.
    for (std::size_t i = 1; i < s.size(); ++i)
        if (s[i].sure && s[i].id != s.front().id && how_named(name) == "name") return std::nullopt;
    model_resolution r;
    r.asked = std::string(name);
    r.id    = s.front().in_catalog ? s.front().id : "hf:" + s.front().id;
    r.quant = s.front().quant;
    // A GGUF repo named without a quant: the file llama.cpp's `-hf ORG/REPO` takes, Q4_K_M (its default
    // quant tag, common/arg.cpp; src/model/hub reads a repo the same way).
    if (r.quant.empty() && detail::lower(name).find("gguf") != std::string::npos) r.quant = "Q4_K_M";
    r.how        = how_named(name);
    r.in_catalog = s.front().in_catalog;
    return r;
}

result<model_desc> load_model_by_name(std::string_view name, const load_options& options,
                                      std::optional<model_resolution>& resolved) {
    resolved.reset();
    // A Hub address of a model the catalog holds: the catalog's copy is the same config.json, and
    // needs no network.
    if (is_hub_address(name))
        if (auto r = resolve_model_name(name); r && r->in_catalog && options.uploaded == nullptr) {
            auto m = load_model(r->id, options);
            if (m) resolved = std::move(r);
            return m;
        }
    auto m = load_model(name, options);
    if (m || options.uploaded) return m;
    // Any failure to find it (no such file, not in the catalog, a Hub repo offline or absent): a file
    // that exists but does not parse keeps its own error.
    std::error_code ec;
    if (options.allow_paths && std::filesystem::exists(std::filesystem::path(name), ec)) return m;
    auto r = resolve_model_name(name);
    if (!r || r->id == name) return m;
    auto again = load_model(r->id, options);
    if (!again) return m; // the first error says what was tried
    resolved = std::move(r);
    return again;
}

std::string resolution_text(const model_resolution& r) {
    // "an Ollama tag", "an LM Studio name", "a Hugging Face address"
    const bool vowel_sound = !r.how.empty() && (r.how[0] == 'O' || r.how.starts_with("LM"));
    return fmt::format("read \"{}\" ({} {}) as {}{}", r.asked, vowel_sound ? "an" : "a", r.how, r.id,
                       r.quant.empty() ? "" : ", " + r.quant);
}

} // namespace llmplan
