// Ollama library names (`ollama pull FAMILY:TAG`) and the Hugging Face models they package.
#pragma once

#include <span>
#include <string_view>

namespace llmplan::detail {

struct ollama_name {
    std::string_view family;  ///< "llama3.1"
    std::string_view size;    ///< the tag's size token, "8b"; "" matches a tag without one ("latest")
    std::string_view hf_id;   ///< the model a chat/instruct tag packages
    std::string_view base_id; ///< the model a "-text"/"-base" tag packages ("" when Ollama has none)
    std::string_view quant;   ///< what the tag pulls when it names no quant
    bool latest = false;      ///< the size `ollama pull FAMILY` (tag "latest") fetches
};

std::span<const ollama_name> ollama_names();
/// The size tag "latest" stands for ("8b" for llama3.1); empty for an unknown family.
std::string_view ollama_latest_size(std::string_view family);

} // namespace llmplan::detail
