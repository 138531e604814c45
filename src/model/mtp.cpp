// Multi-token prediction of Qwen3.5 / Qwen3.6 (and Qwen3-Next).
//
// Module list (vLLM vllm/model_executor/models/qwen3_5_mtp.py Qwen3_5MultiTokenPredictor, the same
// as qwen3_next_mtp.py): pre_fc_norm_embedding and pre_fc_norm_hidden (RMSNorm over n_embd each),
// fc = Linear(2 n_embd, n_embd, bias=False), mtp_num_hidden_layers decoder layers built as the
// model's full-attention layers (gated attention with q/k norms, the dense MLP or the MoE block,
// input and post-attention norms), and a final norm; the embedding and the head are the model's own
// (mtp_use_dedicated_embeddings false in every released config). The Hub's safetensors total counts
// these mtp.* tensors: Qwen3.5-27B's 27,781,427,952 is the language model + the vision tower + one
// such block (tests/unit/qwen3_5_family_test.cpp).
//
// Who loads them: transformers drops them (Qwen3_5ForCausalLM _keys_to_ignore_on_load_unexpected
// "^mtp.*"); llama.cpp's converter skips them (convert_hf_to_gguf.py Qwen3NextModel, the base of the
// Qwen3.5 converters: names starting with "mtp" are ignored), so no GGUF holds them; vLLM loads them
// only as the draft model of speculative decoding (registry.py _SPECULATIVE_DECODING_MODELS
// "Qwen3_5MTP" / "Qwen3_5MoeMTP" in qwen3_5_mtp.py, asked for with --speculative-config).
#include "model/mtp.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmplan::detail {

std::uint64_t mtp_block_params(const model_desc& m) {
    int full = -1;
    for (std::uint32_t i = 0; i < m.n_layer && full < 0; ++i)
        if (m.layers[i].has_kv() && !m.layers[i].has_state()) full = static_cast<int>(i);
    if (full < 0) return 0;
    std::uint64_t layer = 0;
    for (const auto& t : m.tensors)
        if (t.layer == full) layer += t.n_elements();
    const std::uint64_t e = m.n_embd;
    return layer + 2 * e * e + 3 * e; // + fc [e, 2e] + pre_fc_norm_embedding, pre_fc_norm_hidden, norm
}

void read_mtp(model_desc& m, const nlohmann::json& cfg) {
    auto it = cfg.find("mtp_num_hidden_layers");
    if (it == cfg.end() || !it->is_number_unsigned() || it->get<std::uint64_t>() == 0) return;
    const std::uint64_t n      = it->get<std::uint64_t>();
    const std::uint64_t params = n * mtp_block_params(m);
    if (params == 0) return;
    m.notes.push_back(fmt::format(
        "{} multi-token-prediction layer{} (mtp_num_hidden_layers): {:.2f} B parameters in the checkpoint, "
        "not counted here; transformers and llama.cpp leave {} out, vLLM loads {} only for speculative "
        "decoding (--speculative-config)",
        n, n == 1 ? "" : "s", static_cast<double>(params) / 1e9, n == 1 ? "it" : "them", n == 1 ? "it" : "them"));
}

} // namespace llmplan::detail
