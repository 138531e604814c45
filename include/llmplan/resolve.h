// Names as people type them: an Ollama tag ("llama3.1:8b"), an LM Studio name or GGUF file
// ("Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf"), a Hugging Face address
// ("https://huggingface.co/Qwen/Qwen2.5-7B-Instruct"), or plain words ("llama 3.1 8b") -> the model
// (and the quant the name asks for), said back to the person. One function for the CLI, the web API
// and the Python module.
#pragma once

#include "llmplan/error.h"
#include "llmplan/load.h"
#include "llmplan/model_desc.h"

#include <optional>
#include <string>
#include <string_view>

namespace llmplan {

/// What a name was read as.
struct model_resolution {
    std::string asked; ///< the name as typed
    std::string id;    ///< a catalog id, or a Hub id ("hf:ORG/NAME") the catalog lacks
    std::string quant; ///< the GGUF type the name asks for ("Q4_K_M"); empty: the model's own weights
    std::string how;   ///< "Ollama tag", "Hugging Face address", "GGUF file or repo", "name"
    bool in_catalog = true;
};

/// The one model `name` means, when it means exactly one; empty when it is a catalog id already, a
/// path, or only close to some names (then the error's "did you mean" lists them, and nothing is guessed).
std::optional<model_resolution> resolve_model_name(std::string_view name);

/// load_model, then, when the name is no catalog id, file or readable Hub repo, the model
/// resolve_model_name reads it as. A Hugging Face address of a catalog model is read from the
/// catalog's copy (no network). `resolved` says what a name was read as (left empty otherwise).
result<model_desc> load_model_by_name(std::string_view name, const load_options& options,
                                      std::optional<model_resolution>& resolved);

/// "read 'llama3.1:8b' (an Ollama tag) as meta-llama/Llama-3.1-8B-Instruct, Q4_K_M": one line for a person.
std::string resolution_text(const model_resolution& r);

} // namespace llmplan
