// Which tensors a checkpoint's module lists name: the lists name Hugging Face module paths
// ("model.layers.3.self_attn.q_a_proj", "re:.*shared_experts.*", "model.layers.61*"), while a
// description's tensors carry roles and layer indices; each tensor is matched by the paths its module
// has in the common families' checkpoints, with the list's own matching rule.
#pragma once

#include "llmplan/model_desc.h"

#include <string>
#include <string_view>
#include <vector>

namespace llmplan::detail {

/// How a checkpoint format matches its module lists, from the code that reads them:
enum class module_rule : std::uint8_t {
    /// vLLM modelopt.py is_layer_excluded: the path equals, contains, or fnmatch-matches the entry.
    modelopt,
    /// compressed-tensors: "re:<regex>" is Python's re.match (anchored at the start), any other
    /// entry names one module exactly.
    compressed_tensors,
    /// transformers' modules_to_not_convert: the path contains the entry, or the entry as a glob
    /// names the module or a module above it ("model.layers.*.self_attn").
    transformers,
};

/// The module paths tensor t may have in a Hugging Face checkpoint (Llama / DeepSeek / Qwen /
/// Mixtral / MiniMax spellings, plain and under a multimodal wrapper); empty for norms and tensors
/// no list names.
std::vector<std::string> hf_module_paths(const tensor_desc& t);

/// Whether one entry of a module list names tensor t.
bool module_listed(std::string_view entry, const tensor_desc& t, module_rule rule);
bool module_listed(const std::vector<std::string>& entries, const tensor_desc& t, module_rule rule);
/// The same for a model of family `arch`, with only that family's spelling of the MoE block: a
/// substring entry ("gate") must not match another family's name for the tensor ("mlp.experts.0.gate_proj"
/// is a MiniMax expert's w1, which "gate" does not name).
bool module_listed(const std::vector<std::string>& entries, const tensor_desc& t, module_rule rule,
                   std::string_view arch);

/// fnmatch-style glob: `*` any run of characters (dots included), `?` one character.
bool glob_match(std::string_view text, std::string_view pattern);

/// The override whose module is t's module or a module above it ("...mlp.experts" names every
/// expert matrix of that layer); nullptr when none.
const quant_override* override_for(const quant_desc& q, const tensor_desc& t);

} // namespace llmplan::detail
