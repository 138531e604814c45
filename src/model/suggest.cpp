// "Did you mean": Ollama-style names, near-miss catalog ids, and typos -> catalog suggestions.
#include "model/suggest.h"

#include "detail/strings.h"
#include "llmplan/load.h"
#include "model/ollama_names.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <optional>

namespace llmplan {
namespace {

using detail::lower;

// Names longer than any model id are not compared letter by letter (bounded work on bad input).
constexpr std::size_t max_compared_chars = 128;
// Suffixes that tell a chat/instruct release from its base model in Hub ids.
constexpr std::array<std::string_view, 6> variant_suffixes{"-instruct", "-it", "-chat", "-hf", "-base", "-pt"};

struct candidate {
    model_suggestion s;
    int score = 0; ///< lower is better
};

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0]           = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j]               = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag                 = up;
        }
    }
    return row[b.size()];
}

std::string squeeze(std::string_view s) { // "Llama-3.1_8B instruct" -> "llama3.18binstruct"
    std::string out;
    for (char c : s)
        if (c != '-' && c != '_' && c != ' ') out += detail::lower_char(c);
    return out;
}

bool differs_by_suffix(std::string_view a, std::string_view b) {
    if (a.size() > b.size()) std::swap(a, b);
    if (!b.starts_with(a)) return false;
    const auto rest = b.substr(a.size());
    return std::find(variant_suffixes.begin(), variant_suffixes.end(), rest) != variant_suffixes.end();
}

/// A catalog name that is the typed name plus one more word of letters only ("deepseek-v4" ->
/// "deepseek-v4-flash", "-pro"): the editions a family released under one version. The typed name must
/// hold a version or size digit, so that "qwen" does not offer every Qwen.
bool is_edition_of(std::string_view alias, std::string_view key) {
    if (key.find_first_of("0123456789") == std::string_view::npos) return false;
    if (alias.size() <= key.size() + 1 || !alias.starts_with(key) || alias[key.size()] != '-') return false;
    const auto rest = alias.substr(key.size() + 1);
    return std::all_of(rest.begin(), rest.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// GGUF type spelling of an Ollama quant token ("q4_k_m" -> "Q4_K_M", "fp16" -> "F16"); empty if none.
std::string ollama_quant(std::string_view tok) {
    if (tok == "fp16" || tok == "f16") return "F16";
    if (tok == "fp32" || tok == "f32") return "F32";
    if (tok == "bf16") return "BF16";
    if (tok == "mxfp4") return "MXFP4";
    if (tok.size() >= 2 && (tok[0] == 'q' || tok[0] == 'i') &&
        tok.find_first_of("0123456789") != std::string_view::npos) {
        std::string out(tok);
        for (auto& c : out)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return out;
    }
    return {};
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    for (std::size_t start = 0;;) {
        const auto p = s.find(sep, start);
        out.push_back(s.substr(start, p == std::string_view::npos ? p : p - start));
        if (p == std::string_view::npos) return out;
        start = p + 1;
    }
}

model_suggestion with_catalog_id(std::string_view id, std::string quant) {
    model_suggestion s{std::string(id), std::move(quant), false, true};
    if (const auto* e = find_in_catalog(id)) {
        s.id         = e->id;
        s.in_catalog = true;
    }
    return s;
}

// "qwen2.5:7b-instruct-q4_K_M", "gemma3:27b", "gpt-oss" -> the model and the quant Ollama pulls.
std::optional<model_suggestion> from_ollama(std::string_view name) {
    std::string n = lower(name);
    for (std::string_view prefix : {"registry.ollama.ai/library/", "ollama.com/library/", "library/"})
        if (n.starts_with(prefix)) n.erase(0, prefix.size());
    const auto colon         = n.find(':');
    const std::string family = n.substr(0, colon);
    std::string tag          = colon == std::string::npos ? "latest" : n.substr(colon + 1);
    const auto latest_size   = detail::ollama_latest_size(family);
    if (latest_size.empty()) return std::nullopt;
    if (tag.empty() || tag == "latest") tag = std::string(latest_size);
    const auto tokens     = split(tag, '-');
    std::string_view size = tokens.front();
    bool base             = false;
    std::string quant;
    for (std::size_t i = 1; i < tokens.size(); ++i) {
        if (tokens[i] == "text" || tokens[i] == "base") base = true;
        if (auto q = ollama_quant(tokens[i]); !q.empty()) quant = std::move(q);
    }
    if (auto q = ollama_quant(size); !q.empty()) { // "gemma3:q8_0"-style: the quant of the latest size
        quant = std::move(q);
        size  = latest_size;
    }
    for (const auto& r : detail::ollama_names()) {
        if (r.family != family || r.size != size) continue;
        const auto id = base && !r.base_id.empty() ? r.base_id : r.hf_id;
        return with_catalog_id(id, quant.empty() ? std::string(r.quant) : quant);
    }
    return std::nullopt;
}

// A GGUF repo named the way llama.cpp -hf / Ollama hf.co/ name them ("hf.co/bartowski/Qwen2.5-7B-
// Instruct-GGUF:Q4_K_M") -> the base repo name and the quant: the catalog holds the original model.
// A GGUF type name as files and tags spell it ("q4_k_m", "iq2_xxs", "bf16"): a quant, not part of a name.
bool is_gguf_quant(std::string_view tok) {
    const auto q = ollama_quant(tok);
    return !q.empty() && (q.starts_with("Q") || q.starts_with("IQ") || q == "F16" || q == "BF16" || q == "F32");
}

std::string strip_repo_decorations(std::string n, std::string& quant) {
    for (std::string_view prefix : {"https://", "http://"})
        if (n.starts_with(prefix)) n.erase(0, prefix.size());
    for (std::string_view prefix : {"hf:", "ms:", "hf.co/", "huggingface.co/", "www.huggingface.co/"})
        if (n.starts_with(prefix)) n.erase(0, prefix.size());
    // An address of a file in the repo (".../blob/main/NAME-Q4_K_M.gguf"): the repo and the file's quant.
    std::string file;
    for (std::string_view part : {"/blob/", "/resolve/", "/tree/"})
        if (const auto p = n.find(part); p != std::string::npos) {
            const auto last = n.rfind('/');
            if (last > p + part.size()) file = n.substr(last + 1);
            n.erase(p);
            break;
        }
    const auto slash = n.rfind('/');
    const auto colon = n.find(':', slash == std::string::npos ? 0 : slash);
    if (colon != std::string::npos) {
        quant = ollama_quant(n.substr(colon + 1));
        n.erase(colon);
    }
    if (const auto at = n.find('@', slash == std::string::npos ? 0 : slash); at != std::string::npos) {
        // LM Studio's `lms get NAME@q4_k_m` names a quant; anything else after '@' is a revision.
        if (is_gguf_quant(n.substr(at + 1))) quant = ollama_quant(n.substr(at + 1));
        n.erase(at);
    }
    if (n.ends_with(".gguf")) n.erase(n.size() - 5);
    if (n.ends_with("-gguf")) n.erase(n.size() - 5);
    // A GGUF file's name ends in its quant ("Meta-Llama-3.1-8B-Instruct-Q4_K_M").
    if (const auto dash = n.rfind('-'); dash != std::string::npos && dash > (slash == std::string::npos ? 0 : slash) &&
                                        is_gguf_quant(n.substr(dash + 1))) {
        if (quant.empty()) quant = ollama_quant(n.substr(dash + 1));
        n.erase(dash);
    }
    if (quant.empty() && !file.empty()) {
        std::string fq;
        strip_repo_decorations(file, fq);
        quant = fq;
    }
    return n;
}

// Two versions or sizes are two models: "deepseek-v4" is not a typo of "deepseek-v3", nor "qwen3-4b"
// of "qwen3-8b". Names whose digits differ are never offered as each other's typo.
std::string digits_of(std::string_view s) {
    std::string out;
    for (char c : s)
        if (c >= '0' && c <= '9') out += c;
    return out;
}

} // namespace

std::vector<model_suggestion> suggest_models(std::string_view name, std::size_t max) {
    std::vector<model_suggestion> out;
    if (max == 0 || name.empty()) return out;
    if (auto o = from_ollama(name)) out.push_back(std::move(*o));

    std::vector<candidate> c;
    if (name.size() <= max_compared_chars) {
        std::string quant;
        const std::string full = strip_repo_decorations(lower(name), quant);
        const auto slash       = full.rfind('/');
        const std::string key  = slash == std::string::npos ? full : full.substr(slash + 1);
        const std::string sq   = squeeze(key);
        // A typo allowance that grows with the name: 1 edit up to 8 letters, then one per 6 more.
        const std::size_t allowed = 1 + (key.size() > 8 ? (key.size() - 8) / 6 : 0);
        // Meta's own repos named Llama 3.1 "Meta-Llama-3.1-..." (the spelling GGUF and LM Studio
        // copies keep); the catalog has the renamed "Llama-3.1-...".
        const std::string sq_meta   = sq.starts_with("metallama") ? sq.substr(4) : sq;
        std::size_t suffix_variants = 0;
        for (const auto& e : catalog()) {
            int score = -1;
            bool sure = false;
            if (e.alias == key)
                score = 0, sure = true; // another organisation, or case
            else if (squeeze(e.alias) == sq || squeeze(e.alias) == sq_meta)
                score = 1, sure = true; // spaces, '-' and '_'
            else if (differs_by_suffix(e.alias, key))
                score = 1, ++suffix_variants;
            else if (is_edition_of(e.alias, key))
                score = 2; // "deepseek-v4" -> deepseek-v4-flash, deepseek-v4-pro: a choice, never sure
            else if (digits_of(e.alias) == digits_of(key)) {
                const auto d = std::min(edit_distance(e.alias, key), edit_distance(lower(e.id), full));
                if (d <= allowed) score = 1 + static_cast<int>(d);
            }
            if (score >= 0)
                c.push_back({
                    {e.id, quant, true, sure},
                    score
                });
        }
        // The only chat (or base) variant of the name is that model; two are a choice to offer.
        if (suffix_variants == 1)
            for (auto& x : c)
                if (x.score == 1 && !x.s.sure) x.s.sure = true;
        std::stable_sort(c.begin(), c.end(), [](const auto& a, const auto& b) { return a.score < b.score; });
        // Only the best tier and the next one: an exact name in another organisation should not bring
        // every one-letter neighbour along, and an Ollama match only its case/suffix variants.
        const int worst = out.empty() ? (c.empty() ? 0 : c.front().score + 1) : 1;
        std::erase_if(c, [&](const auto& x) { return x.score > worst; });
    }
    for (auto& x : c) {
        if (out.size() >= max) break;
        if (std::none_of(out.begin(), out.end(), [&](const auto& s) { return s.id == x.s.id; }))
            out.push_back(std::move(x.s));
    }
    if (out.size() > max) out.resize(max);
    return out;
}

std::vector<std::string> same_name_models(std::string_view name, std::size_t max) {
    std::vector<std::string> out;
    if (max == 0 || name.empty() || name.size() > max_compared_chars) return out;
    std::string quant;
    const std::string full = strip_repo_decorations(lower(name), quant);
    const auto slash       = full.rfind('/');
    const std::string key  = slash == std::string::npos ? full : full.substr(slash + 1);
    const auto digit       = key.find_first_of("0123456789");
    // The name's stem before its first version or size digit, at least 3 letters ("deepseek-v").
    if (digit == std::string::npos || digit < 3) return out;
    const std::string stem = key.substr(0, digit);
    for (const auto& e : catalog())
        if (out.size() < max && e.alias.starts_with(stem)) out.push_back(e.id);
    return out;
}

std::string format_suggestions(const std::vector<model_suggestion>& s) {
    std::string out;
    for (const auto& x : s) {
        if (!out.empty()) out += ", ";
        out += x.id;
        if (!x.quant.empty()) out += fmt::format(" --weights {}", x.quant);
        if (!x.in_catalog) out += " (a Hub id; not in the built-in catalog)";
    }
    return out;
}

} // namespace llmplan
