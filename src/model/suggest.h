// "Did you mean": catalog suggestions for a model name that was found nowhere.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan {

struct model_suggestion {
    std::string id;         ///< "meta-llama/Llama-3.1-8B-Instruct" (a catalog id, or a Hub id when !in_catalog)
    std::string quant;      ///< GGUF type an Ollama-style name asked for ("Q4_K_M"); empty when none
    bool in_catalog = true; ///< false: a Hub id from the Ollama table that the built-in catalog lacks
    /// The name says this model, not a neighbour of it: an Ollama tag in the table, the same name in
    /// another organisation or spelling (case, spaces, '-', '_'), a GGUF repo or file of it, or its
    /// only chat/base variant. A typo's neighbour is never sure (resolve.h goes on only with sure ones).
    bool sure = false;
};

/// Suggestions for `name`, best first, at most `max`: an Ollama-style name ("llama3.1:8b",
/// "qwen2.5:7b-instruct-q4_K_M", "gpt-oss:20b") mapped to its model and quant; a catalog id or alias
/// differing only in case, in the organisation, or by an "-Instruct"/"-it"/"-Chat"/"-hf" suffix;
/// then catalog names within a small edit distance. Empty when nothing is close.
std::vector<model_suggestion> suggest_models(std::string_view name, std::size_t max = 3);

/// Catalog models whose name starts as `name` does before its first digit ("deepseek-v4" ->
/// DeepSeek-V2, V3 ...): other versions or sizes, offered as such, never as the same model.
std::vector<std::string> same_name_models(std::string_view name, std::size_t max = 4);

/// "X, Y (--weights Q4_K_M)" for an error message; empty for no suggestions.
std::string format_suggestions(const std::vector<model_suggestion>& s);

} // namespace llmplan
