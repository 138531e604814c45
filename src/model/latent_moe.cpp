// LatentMoE: the routed experts of a MoE layer work in a narrower latent width.
//
// transformers modeling_nemotron_h.py, NemotronHMoE: when config.moe_latent_size is set,
//   fc1_latent_proj = Linear(hidden_size, moe_latent_size, bias=mlp_bias)   before the experts,
//   fc2_latent_proj = Linear(moe_latent_size, hidden_size, bias=mlp_bias)   after them,
// and NemotronHExperts are built on the latent width (up [n, ff, latent], down [n, latent, ff]); the
// router (gate, e_score_correction_bias) reads the full hidden state and the shared expert keeps
// hidden_size. llama.cpp loads the same two projections as blk.N.ffn_latent_down / ffn_latent_up
// (LLM_TENSOR_FFN_LATENT_DOWN {n_embd, moe_n_embd}, LLM_TENSOR_FFN_LATENT_UP {moe_n_embd, n_embd}).
//
// The projections are dense matrices every token reads: they are carried under the dense up-projection
// role (linear, quantizable, never scaled by the experts in use), named as llama.cpp names them;
// llama.cpp's quantization recipe gives them the base type, as it does an up projection.
#include "model/latent_moe.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmplan::detail {

status apply_latent_moe(model_desc& m, const nlohmann::json& cfg, std::string_view path) {
    auto it = cfg.find("moe_latent_size");
    if (it == cfg.end() || it->is_null() || m.moe.n_expert == 0) return ok();
    // A latent wider than the hidden state would not compress; 1 << 24 bounds every size llmplan reads.
    if (!it->is_number_integer() || it->get<std::int64_t>() <= 0 || it->get<std::int64_t>() > (1ll << 24))
        return make_error(error_code::bad_value,
                          fmt::format("moe_latent_size is {}; expected a positive width or null", it->dump()),
                          fmt::format("{}:/moe_latent_size", path));
    const std::uint64_t latent = it->get<std::uint64_t>();
    const std::uint64_t e      = m.n_embd;
    std::vector<tensor_desc> out;
    out.reserve(m.tensors.size() + 4 * m.n_layer);
    auto matrix = [&](int layer, std::string name, std::uint64_t rows, std::uint64_t cols, bool bias) {
        tensor_desc t;
        t.role  = tensor_role::ffn_up;
        t.layer = layer;
        t.shape = {rows, cols};
        t.type  = m.torch_dtype;
        t.bytes = tensor_bytes_ceil(t.type, t.n_elements());
        t.name  = fmt::format("blk.{}.{}.weight", layer, name);
        out.push_back(t);
        if (!bias) return;
        t.shape   = {rows};
        t.is_bias = true;
        t.bytes   = tensor_bytes_ceil(t.type, rows);
        t.name    = fmt::format("blk.{}.{}.bias", layer, name);
        out.push_back(std::move(t));
    };
    for (auto& t : m.tensors) {
        const bool up   = t.role == tensor_role::ffn_up_exps && t.shape.size() == 3 && t.shape[2] == e;
        const bool down = t.role == tensor_role::ffn_down_exps && t.shape.size() == 3 && t.shape[1] == e;
        if (up) t.shape[2] = latent;   // [n_expert, ff, latent]
        if (down) t.shape[1] = latent; // [n_expert, latent, ff]
        if (up || down) t.bytes = tensor_bytes_ceil(t.type, t.n_elements());
        // The projections sit with the routed experts, after the router: before the up projections.
        if (up) {
            matrix(t.layer, "ffn_latent_down", latent, e, m.ffn_bias);
            matrix(t.layer, "ffn_latent_up", e, latent, m.ffn_bias);
        }
        out.push_back(std::move(t));
    }
    m.tensors = std::move(out);
    m.notes.push_back(fmt::format("LatentMoE: routed experts work in a {}-wide latent between two projections "
                                  "(moe_latent_size)",
                                  latent));
    return ok();
}

} // namespace llmplan::detail
