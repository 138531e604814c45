// A VLM's vision tower from config.json's vision_config: its parameter count, counted from the
// modules each family's modeling code creates (transformers modeling_siglip.py for Gemma-3's
// SigLIP tower, modeling_qwen3_vl.py / modeling_qwen2_5_vl.py for Qwen's):
//   per block: q, k, v, o (h x h + bias each), MLP fc1/fc2 (h x ff + bias, ff x h + bias; gated
//   towers have gate/up/down), two LayerNorms (weight + bias);
//   patch embedding: channels x temporal x patch^2 x h (+ bias); learned positions: positions x h;
//   projector: Qwen's PatchMerger (LayerNorm, (h m^2)^2 + (h m^2) x out, one more per deepstack
//   level), else Gemma-3's multi_modal_projector (h x text hidden + soft-embedding norm).
#include "model/vision.h"

#include <nlohmann/json.hpp>

namespace llmplan::detail {
namespace {

std::uint64_t u(const nlohmann::json& j, std::initializer_list<const char*> keys, std::uint64_t fallback) {
    for (const char* k : keys) {
        auto it = j.find(k);
        if (it != j.end() && it->is_number_integer() && it->get<std::int64_t>() > 0 &&
            it->get<std::int64_t>() < (1ll << 32))
            return it->get<std::uint64_t>();
    }
    return fallback;
}

} // namespace

void read_vision(model_desc& m, const nlohmann::json& root) {
    auto it = root.find("vision_config");
    if (it == root.end() || !it->is_object()) return;
    const auto& v = *it;
    vision_desc d;
    d.n_layer    = static_cast<std::uint32_t>(u(v, {"depth", "num_hidden_layers", "num_layers"}, 0));
    d.n_embd     = u(v, {"hidden_size", "embed_dim", "width"}, 0);
    d.n_ff       = u(v, {"intermediate_size"}, 4 * d.n_embd);
    d.n_head     = static_cast<std::uint32_t>(u(v, {"num_heads", "num_attention_heads"}, 16));
    d.patch      = static_cast<std::uint32_t>(u(v, {"patch_size"}, 14));
    d.image_size = static_cast<std::uint32_t>(u(v, {"image_size"}, 0));
    d.merge      = static_cast<std::uint32_t>(u(v, {"spatial_merge_size"}, 1));
    if (d.n_layer == 0 || d.n_embd == 0 || d.n_layer > 1000 || d.n_embd > (1u << 20) || d.patch > 1024) return;
    const std::uint64_t h        = d.n_embd;
    const bool gated             = v.value("hidden_act", std::string{}) == "silu"; // Qwen2.5-VL's SwiGLU blocks
    const std::uint64_t mlp      = gated ? 3 * h * d.n_ff + 2 * d.n_ff + h : 2 * h * d.n_ff + d.n_ff + h;
    const std::uint64_t block    = 4 * (h * h + h) + mlp + 4 * h;
    const std::uint64_t temporal = u(v, {"temporal_patch_size"}, 1);
    const std::uint64_t patch    = u(v, {"in_channels", "num_channels"}, 3) * temporal * d.patch * d.patch * h + h;
    const std::uint64_t grid     = d.image_size && d.patch ? (d.image_size / d.patch) * (d.image_size / d.patch) : 0;
    const std::uint64_t pos      = u(v, {"num_position_embeddings"}, grid) * h;
    std::uint64_t projector      = 0;
    if (d.merge > 1) {
        const std::uint64_t in    = h * d.merge * d.merge;
        const std::uint64_t out   = u(v, {"out_hidden_size"}, m.n_embd);
        const std::uint64_t one   = 2 * h + in * in + in + in * out + out;
        const std::uint64_t extra = v.contains("deepstack_visual_indexes") && v["deepstack_visual_indexes"].is_array()
                                        ? v["deepstack_visual_indexes"].size()
                                        : 0;
        projector                 = one * (1 + extra);
    } else {
        projector = h * m.n_embd + h; // Gemma3MultiModalProjector: input projection + soft-embedding norm
    }
    d.n_params = d.n_layer * block + patch + pos + 2 * h + projector;
    m.vision   = d;
}

} // namespace llmplan::detail
