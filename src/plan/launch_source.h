// The model argument of a launch line: a local file, or the Hub repo the model was read from, so
// that the engine fetches the same files (engines' own Hub syntax, hub-api.md §6).
#pragma once

#include "llmplan/model_desc.h"

#include <string>
#include <string_view>

namespace llmplan::detail {

/// llama.cpp: "-hf ORG/NAME:QUANT" for a GGUF read from the Hugging Face Hub or its cache (the tag
/// picks the same file by llama.cpp's rule; "-hf ORG/NAME --hf-file PATH" when no tag picked it),
/// else "-m FILE".
std::string llama_model_arg(const model_desc& m, const std::string& file);
/// Ollama's FROM: "hf.co/ORG/NAME:QUANT" for a Hub GGUF picked by a tag, else the file.
std::string ollama_model(const model_desc& m, const std::string& file);
/// The Ollama library tag that pulls this catalog model at this GGUF type ("llama3.1:8b" for
/// meta-llama/Llama-3.1-8B-Instruct at q4_k_m: data/ollama/names.csv, its quant column), else "".
/// A file nobody has is no launch line; a tag is (issue 25, finding 10).
std::string ollama_library_tag(const model_desc& m, std::string_view gguf_ftype);
/// "ORG/REPO-GGUF:QUANT" (llama.cpp's -hf tag, upper case as the repos name their files) when
/// data/ollama/gguf_repos.csv knows a GGUF repo of this catalog model that carries `gguf_ftype`
/// ("q4_k_m"; sources in data/ollama/SOURCES.md); else "" (issue 25, finding 10: no file nobody has,
/// no guessed repo). Only catalog models: a GGUF read from the Hub names its own repo.
std::string known_gguf_repo_tag(const model_desc& m, std::string_view gguf_ftype);
/// vLLM: the repo id (m.id), with "--revision COMMIT" when a revision other than the default
/// branch was asked for; ModelScope repos with VLLM_USE_MODELSCOPE=True before the command.
std::string vllm_model_arg(const model_desc& m);
std::string vllm_env(const model_desc& m);
/// transformers' from_pretrained arguments for the model: model='ORG/NAME' (and revision='COMMIT' when a
/// revision other than the default branch was read); empty for ModelScope, which transformers cannot fetch.
std::string python_model_args(const model_desc& m);

} // namespace llmplan::detail
