// A VLM's vision tower from config.json's vision_config: its parameter count, counted from the
// modules each family's modeling code creates (transformers modeling_siglip.py for Gemma-3's
// SigLIP tower, modeling_qwen3_vl.py / modeling_qwen2_5_vl.py for Qwen's):
//   per block: q, k, v, o (h x h + bias each), MLP fc1/fc2 (h x ff + bias, ff x h + bias; gated
//   towers have gate/up/down), two LayerNorms (weight + bias);
//   patch embedding: channels x temporal x patch^2 x h (+ bias); learned positions: positions x h;
//   projector: Qwen's PatchMerger (LayerNorm, (h m^2)^2 + (h m^2) x out, one more per deepstack
//   level), else Gemma-3's multi_modal_projector (h x text hidden + soft-embedding norm).
// Pixtral (modeling_pixtral.py, Mistral-Small-3.x's tower) is the bias-free kind: q, k, v, o and a
// SwiGLU MLP without biases, RMSNorms (weight only), a patch conv without bias, an ln_pre RMSNorm and
// 2-D RoPE instead of learned positions; its projector (modeling_mistral3.py Mistral3MultiModalProjector)
// is an RMSNorm, a patch merger (h m^2 -> h) and linear_1 (h -> text), linear_2 (text -> text), biased
// when multimodal_projector_bias says so. Qwen-VL's tower (config key "visual") is read below.
#include "model/vision.h"

#include "detail/checked_number.h"
#include "detail/json_fields.h"

#include <nlohmann/json.hpp>
#include <string>

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

enum class projector_kind : std::uint8_t { by_merge, mistral3 };

/// Vision towers by their vision_config model_type; a type not listed is read as the biased
/// SigLIP/Qwen kind above.
struct vision_family {
    std::string_view model_type;
    bool biases;            ///< linear layers and norms carry biases (LayerNorm) or not (RMSNorm)
    bool learned_positions; ///< a position table of (image / patch)^2 rows, else rotary
    projector_kind projector;
    bool final_norm = true; ///< a norm after the blocks (SigLIP post_layernorm, Pixtral ln_pre)
};
constexpr vision_family pixtral{"pixtral", false, false, projector_kind::mistral3};
constexpr vision_family biased{"", true, true, projector_kind::by_merge};
// Qwen3.5 / Qwen3.6 (modular_qwen3_5.py Qwen3_5VisionModel = Qwen3VLVisionModel without the deepstack
// mergers): patch_embed (Conv3d with bias), pos_embed, blocks and the merger's own LayerNorm, no norm
// after the blocks. vision_config model_type "qwen3_5", "qwen3_5_moe" or "qwen3_5_moe_vision".
constexpr vision_family qwen3_5{"qwen3_5", true, true, projector_kind::by_merge, false};

bool is(const nlohmann::json& j, const char* key, std::string_view want) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() && it->get<std::string>() == want;
}

const vision_family& family_of(const nlohmann::json& v) {
    auto it = v.find("model_type");
    if (it != v.end() && it->is_string() && it->get<std::string>().starts_with(qwen3_5.model_type)) return qwen3_5;
    return is(v, "model_type", pixtral.model_type) ? pixtral : biased;
}

} // namespace

namespace {

// Qwen-VL (Qwen/Qwen-VL-Chat remote code visual.py; its config names the tower "visual", not
// vision_config): an OpenCLIP ViT-bigG and a one-layer cross-attention Resampler.
//   conv1 (3 x patch^2 x width, no bias); positional_embedding, a fixed 256 x width table (16 x 16,
//   interpolated to the image's grid by get_abs_pos); ln_pre; per block (VisualAttentionBlock) ln_1,
//   ln_2, in_proj (width x 3 width + bias), out_proj (width^2 + bias), c_fc / c_proj of
//   mlp_width = int(width x mlp_ratio) with biases;
//   attn_pool (Resampler, n_queries = 256 by default, embed_dim = output_dim): pos_embed and query
//   (256 x output_dim each; pos_embed is a frozen nn.Parameter, so in the checkpoint), kv_proj
//   (width x output_dim, no bias: kv_dim != embed_dim), nn.MultiheadAttention (3 d^2 + 3 d in_proj,
//   d^2 + d out_proj), ln_q, ln_kv; then ln_post and proj (output_dim^2).
// Qwen-VL paper (arXiv 2308.12966) Table 1: ViT 1.9B, VL adapter 0.08B.
void read_qwen_vl_visual(model_desc& m, const nlohmann::json& v) {
    constexpr std::uint64_t table = 256; // VisionTransformer: randn(256, width); n_queries=256 default
    vision_desc d;
    d.n_layer               = static_cast<std::uint32_t>(u(v, {"layers"}, 0));
    d.n_embd                = u(v, {"width"}, 0);
    d.n_head                = static_cast<std::uint32_t>(u(v, {"heads"}, 16));
    d.patch                 = static_cast<std::uint32_t>(u(v, {"patch_size"}, 14));
    d.image_size            = static_cast<std::uint32_t>(u(v, {"image_size"}, 0));
    const auto ratio        = v.find("mlp_ratio");
    const double r          = ratio != v.end() && ratio->is_number() ? ratio->get<double>() : 4.0;
    const std::uint64_t out = u(v, {"output_dim"}, m.n_embd);
    if (d.n_layer == 0 || d.n_embd == 0 || d.n_layer > 1000 || d.n_embd > (1u << 20) || d.patch > 1024 ||
        !(r > 0 && r < 64) || out > (1u << 20))
        return;
    const std::uint64_t h     = d.n_embd;
    d.n_ff                    = detail::saturate<std::uint64_t>(static_cast<double>(h) * r,
                                             detail::rounding::toward_zero); // int(d_model * mlp_ratio)
    const std::uint64_t block = 4 * h + (3 * h * h + 3 * h) + (h * h + h) + (h * d.n_ff + d.n_ff) + (d.n_ff * h + h);
    const std::uint64_t stem  = 3 * d.patch * d.patch * h + table * h + 2 * h;
    const std::uint64_t resampler = 2 * table * out + h * out + (3 * out * out + 3 * out) + (out * out + out) + 4 * out;
    d.n_params                    = d.n_layer * block + stem + resampler + 2 * out + out * out;
    m.vision                      = d;
}

// Gemma 4's tower (transformers modeling_gemma4.py @ c308a309e651, Gemma4VisionModel): per encoder
// layer q, k, v, o without biases (num_attention_heads / num_key_value_heads x head_dim), q_norm and
// k_norm of one head (v_norm has no weight), a gated MLP (gate, up, down) and four RMSNorms; with
// use_clipped_linears each of those 7 linears keeps 4 persistent clamp bounds (Gemma4ClippableLinear
// buffers input_min/max, output_min/max). Gemma4VisionPatchEmbedder: input_proj [h, 3 patch^2] and a
// position_embedding_table [2, position_embedding_size, h]; std_bias and std_scale [h] when
// standardize; the pooler has no weights. The projector, Gemma4MultimodalEmbedder: embedding_projection
// [text hidden, h] after a norm without weight. Checked by the google/gemma-4-31B-it count
// (tests/unit/gemma4_family_test.cpp).
void read_gemma4_vision(model_desc& m, const nlohmann::json& v) {
    vision_desc d;
    d.n_layer               = static_cast<std::uint32_t>(u(v, {"num_hidden_layers"}, 0));
    d.n_embd                = u(v, {"hidden_size"}, 0);
    d.n_ff                  = u(v, {"intermediate_size"}, 0);
    d.n_head                = static_cast<std::uint32_t>(u(v, {"num_attention_heads"}, 16));
    d.patch                 = static_cast<std::uint32_t>(u(v, {"patch_size"}, 16));
    d.merge                 = static_cast<std::uint32_t>(u(v, {"pooling_kernel_size"}, 1));
    const std::uint64_t kv  = u(v, {"num_key_value_heads"}, d.n_head);
    const std::uint64_t hd  = u(v, {"head_dim"}, d.n_head ? d.n_embd / d.n_head : 0);
    const std::uint64_t pos = u(v, {"position_embedding_size"}, 0);
    if (d.n_layer == 0 || d.n_embd == 0 || d.n_ff == 0 || d.n_layer > 1000 || d.n_embd > (1u << 20) ||
        d.n_ff > (1u << 22) || hd > 4096 || d.patch > 1024 || pos > (1u << 24))
        return;
    const std::uint64_t h     = d.n_embd;
    const std::uint64_t clamp = json_flag(v, "use_clipped_linears") ? 7 * 4 : 0;
    const std::uint64_t attn  = 2 * h * d.n_head * hd + 2 * h * kv * hd + 2 * hd;
    const std::uint64_t block = attn + 3 * h * d.n_ff + 4 * h + clamp;
    const std::uint64_t stem  = h * 3 * d.patch * d.patch + 2 * pos * h + (json_flag(v, "standardize") ? 2 * h : 0);
    d.n_params                = d.n_layer * block + stem + m.n_embd * h;
    m.vision                  = d;
}

} // namespace

void read_vision(model_desc& m, const nlohmann::json& root) {
    if (auto a = root.find("audio_config"); a != root.end() && a->is_object())
        m.notes.push_back("the audio tower (audio_config) is not counted");
    if (auto q = root.find("visual"); q != root.end() && q->is_object() && !root.contains("vision_config")) {
        read_qwen_vl_visual(m, *q);
        return;
    }
    auto it = root.find("vision_config");
    if (it == root.end() || !it->is_object()) return;
    const auto& v = *it;
    if (is(v, "model_type", "gemma4_vision")) {
        read_gemma4_vision(m, v);
        return;
    }
    // Gemma 3n's MobileNet-v5 tower (timm mobilenetv5_300m_enc) is convolutional, not a ViT.
    if (is(v, "model_type", "gemma3n_vision")) {
        m.notes.push_back("the MobileNet-v5 vision tower (vision_config) is not counted");
        return;
    }
    vision_desc d;
    d.n_layer    = static_cast<std::uint32_t>(u(v, {"depth", "num_hidden_layers", "num_layers"}, 0));
    d.n_embd     = u(v, {"hidden_size", "embed_dim", "width"}, 0);
    d.n_ff       = u(v, {"intermediate_size"}, 4 * d.n_embd);
    d.n_head     = static_cast<std::uint32_t>(u(v, {"num_heads", "num_attention_heads"}, 16));
    d.patch      = static_cast<std::uint32_t>(u(v, {"patch_size"}, 14));
    d.image_size = static_cast<std::uint32_t>(u(v, {"image_size"}, 0));
    // Qwen keeps spatial_merge_size in vision_config, Mistral3Config at the root.
    d.merge = static_cast<std::uint32_t>(u(v, {"spatial_merge_size"}, u(root, {"spatial_merge_size"}, 1)));
    if (d.n_layer == 0 || d.n_embd == 0 || d.n_layer > 1000 || d.n_embd > (1u << 20) || d.patch > 1024) return;
    const auto& fam              = family_of(v);
    const std::uint64_t h        = d.n_embd;
    const std::uint64_t b        = fam.biases ? 1 : 0;
    const bool gated             = v.value("hidden_act", std::string{}) == "silu"; // Qwen2.5-VL's SwiGLU blocks
    const std::uint64_t mlp      = gated ? 3 * h * d.n_ff + b * (2 * d.n_ff + h) : 2 * h * d.n_ff + b * (d.n_ff + h);
    const std::uint64_t block    = 4 * (h * h + b * h) + mlp + (2 + 2 * b) * h;
    const std::uint64_t temporal = u(v, {"temporal_patch_size"}, 1);
    const std::uint64_t patch    = u(v, {"in_channels", "num_channels"}, 3) * temporal * d.patch * d.patch * h + b * h;
    const std::uint64_t grid     = d.image_size && d.patch ? (d.image_size / d.patch) * (d.image_size / d.patch) : 0;
    const std::uint64_t pos      = fam.learned_positions ? u(v, {"num_position_embeddings"}, grid) * h : 0;
    std::uint64_t projector      = 0;
    if (fam.projector == projector_kind::mistral3) {
        const std::uint64_t text = m.n_embd;
        const std::uint64_t pb   = json_flag(root, "multimodal_projector_bias") ? 1 : 0;
        projector                = h + h * d.merge * d.merge * h + h * text + pb * text + text * text + pb * text;
    } else if (d.merge > 1) {
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
    const std::uint64_t final_norm = fam.final_norm ? (1 + b) * h : 0; // the final / ln_pre norm
    d.n_params                     = d.n_layer * block + patch + pos + final_norm + projector;
    m.vision                       = d;
}

} // namespace llmplan::detail
