// Launch-line model arguments for models read from the Hugging Face Hub or ModelScope.
#include "plan/launch_source.h"

#include "detail/embedded.h"
#include "detail/strings.h"
#include "hardware/csv.h"
#include "model/ollama_names.h"

#include <array>
#include <fmt/format.h>
#include <optional>
#include <string_view>
#include <utility>

namespace llmplan::detail {
namespace {

/// Where a model came from (model_origin::kind, set by src/model/hub/lookup.cpp) and what engines
/// can fetch from there by repo id.
struct origin_kind {
    std::string_view kind;
    bool hugging_face;         ///< llama.cpp -hf and Ollama hf.co/ fetch from the Hugging Face Hub
    std::string_view branch;   ///< the default branch: a revision other than this is pinned
    std::string_view vllm_env; ///< environment vLLM needs to fetch from there
};
// vLLM reads ModelScope repos when VLLM_USE_MODELSCOPE=True (vllm/envs.py); llama.cpp's -hf and
// Ollama's hf.co/ names reach the Hugging Face Hub only (or the mirror HF_ENDPOINT names).
constexpr std::array<origin_kind, 4> kinds{
    {
     {"hub", true, "main", ""},
     {"hf-cache", true, "main", ""},
     {"modelscope", false, "master", "VLLM_USE_MODELSCOPE=True "},
     {"modelscope-cache", false, "master", "VLLM_USE_MODELSCOPE=True "},
     }
};

const origin_kind* kind_of(const model_desc& m) {
    if (m.origin.repo.empty()) return nullptr;
    for (const auto& k : kinds)
        if (k.kind == m.origin.kind) return &k;
    return nullptr;
}

bool hub_gguf(const model_desc& m) {
    const auto* k = kind_of(m);
    return k && k->hugging_face && m.from_gguf && !m.origin.files.empty();
}

// GGUF repos of catalog models on the Hugging Face Hub: data/ollama/gguf_repos.csv, compiled into the
// binary by cmake/embed.cmake.
constexpr std::string_view gguf_repos_path = "ollama/gguf_repos.csv";

const std::optional<csv_table>& gguf_repo_table() {
    static const std::optional<csv_table> t = []() -> std::optional<csv_table> {
        for (const auto& f : embedded_files())
            if (std::string_view(f.path) == gguf_repos_path) {
                auto parsed = parse_csv(f.text(), gguf_repos_path);
                if (!parsed) return std::nullopt;
                return std::move(*parsed);
            }
        return std::nullopt; // no table: no -hf lines (gguf_repos_test fails)
    }();
    return t;
}

} // namespace

std::string llama_model_arg(const model_desc& m, const std::string& file) {
    if (!hub_gguf(m)) return "-m " + file;
    // common/arg.cpp: -hf <user>/<model>[:quant]; --hf-file overrides the quant with a file of the repo.
    if (!m.origin.quant.empty()) return fmt::format("-hf {}:{}", m.origin.repo, m.origin.quant);
    return fmt::format("-hf {} --hf-file {}", m.origin.repo, m.origin.files.front());
}

std::string ollama_model(const model_desc& m, const std::string& file) {
    // Ollama pulls hf.co/{user}/{repo}:{quant} (Hugging Face's "Use Ollama with any GGUF model" docs).
    if (!hub_gguf(m) || m.origin.quant.empty()) return file;
    return fmt::format("hf.co/{}:{}", m.origin.repo, m.origin.quant);
}

std::string ollama_library_tag(const model_desc& m, std::string_view gguf_ftype) {
    if (m.from_gguf || m.origin.kind != "catalog" || gguf_ftype.empty()) return {};
    for (const auto& r : ollama_names()) {
        if (!iequals(r.hf_id, m.id) || !iequals(r.quant, gguf_ftype)) continue; // no copies: once a plan row
        return r.size.empty() ? std::string(r.family) : fmt::format("{}:{}", r.family, r.size);
    }
    return {};
}

std::string known_gguf_repo_tag(const model_desc& m, std::string_view gguf_ftype) {
    const auto& t = gguf_repo_table();
    if (!t || m.from_gguf || m.origin.kind != "catalog" || gguf_ftype.empty()) return {};
    std::string want(gguf_ftype); // the repos' files and tags name a quant in upper case: Q4_K_M
    for (char& c : want)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    for (std::size_t r = 0; r < t->rows.size(); ++r) {
        if (!iequals(t->get(r, "hf_id"), m.id)) continue;
        const std::string quants = fmt::format(" {} ", t->get(r, "quants")); // space-separated
        if (quants.find(fmt::format(" {} ", want)) != std::string::npos)
            return fmt::format("{}:{}", t->get(r, "gguf_repo"), want);
    }
    return {};
}

std::string vllm_model_arg(const model_desc& m) {
    const auto* k = kind_of(m);
    if (!k) return m.id;
    const bool pinned = !m.origin.commit.empty() && !m.origin.revision.empty() && m.origin.revision != k->branch;
    return pinned ? fmt::format("{} --revision {}", m.origin.repo, m.origin.commit) : m.origin.repo;
}

std::string python_model_args(const model_desc& m) {
    const auto* k = kind_of(m);
    if (!k) return fmt::format("model='{}'", m.id);
    if (!k->hugging_face) return {};
    const bool pinned = !m.origin.commit.empty() && !m.origin.revision.empty() && m.origin.revision != k->branch;
    return pinned ? fmt::format("model='{}', revision='{}'", m.origin.repo, m.origin.commit)
                  : fmt::format("model='{}'", m.origin.repo);
}

std::string vllm_env(const model_desc& m) {
    const auto* k = kind_of(m);
    return k ? std::string(k->vllm_env) : std::string();
}

} // namespace llmplan::detail
