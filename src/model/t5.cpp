// T5 / mT5 encoder-decoders (transformers configuration_t5.py, modeling_t5.py): the encoder's
// T5Blocks (self-attention, FFN) and then the decoder's (self-attention, cross-attention over the
// encoder output, FFN), one shared embedding, a final RMS norm per stack.
#include "model/t5.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmplan::detail {
namespace {

using json = nlohmann::json;

/// T5Config defaults for the keys a config.json may leave out (configuration_t5.py).
constexpr std::uint64_t default_buckets = 32;   // relative_attention_num_buckets=32
constexpr double default_dropout        = 0.1;  // dropout_rate=0.1
constexpr std::uint64_t max_layers      = 4096; // far above any released stack (T5-XXL: 24 + 24)

} // namespace

status read_t5_stacks(model_desc& m, const json& cfg, std::string_view path) {
    auto where = [&](std::string_view key) { return fmt::format("{}:/{}", path, key); };
    // feed_forward_proj is "{ACT}" (T5DenseActDense: wi, wo) or "gated-{ACT}" (T5DenseGatedActDense:
    // wi_0, wi_1, wo); T5Config rejects anything with more than one dash.
    std::string proj = "relu";
    if (auto it = cfg.find("feed_forward_proj"); it != cfg.end() && !it->is_null()) {
        if (!it->is_string())
            return make_error(error_code::bad_value,
                              fmt::format("feed_forward_proj is {}; expected \"relu\" or \"gated-gelu\"", it->dump()),
                              where("feed_forward_proj"));
        proj = it->get<std::string>();
    }
    const auto dash = proj.find('-');
    if (proj.empty() || (dash != std::string::npos && (proj.substr(0, dash) != "gated" || dash + 1 == proj.size() ||
                                                       proj.find('-', dash + 1) != std::string::npos)))
        return make_error(
            error_code::bad_value,
            fmt::format("feed_forward_proj \"{}\"; expected ACT or gated-ACT (\"relu\", \"gated-gelu\")", proj),
            where("feed_forward_proj"));
    m.ffn = dash == std::string::npos ? ffn_kind::plain : ffn_kind::gated;

    const std::uint64_t n_enc = m.n_layer;
    std::uint64_t n_dec       = n_enc;
    if (auto it = cfg.find("num_decoder_layers"); it != cfg.end() && !it->is_null()) {
        if (!it->is_number_integer() || it->get<std::int64_t>() <= 0 || it->get<std::uint64_t>() > max_layers)
            return make_error(error_code::bad_value,
                              fmt::format("num_decoder_layers is {}; expected 1 to {}", it->dump(), max_layers),
                              where("num_decoder_layers"));
        n_dec = it->get<std::uint64_t>();
    }
    if (n_enc > max_layers)
        return make_error(error_code::bad_value, fmt::format("num_layers is {}; expected 1 to {}", n_enc, max_layers),
                          where("num_layers"));
    std::uint64_t buckets = default_buckets;
    if (auto it = cfg.find("relative_attention_num_buckets"); it != cfg.end() && !it->is_null()) {
        // A bound on what is read, not a T5 fact: released T5/mT5 configs use 32 buckets.
        if (!it->is_number_integer() || it->get<std::int64_t>() <= 0 || it->get<std::int64_t>() > 65536)
            return make_error(error_code::bad_value,
                              fmt::format("relative_attention_num_buckets is {}; expected 1 to 65536", it->dump()),
                              where("relative_attention_num_buckets"));
        buckets = it->get<std::uint64_t>();
    }
    double dropout = default_dropout;
    if (auto it = cfg.find("dropout_rate"); it != cfg.end() && it->is_number()) dropout = it->get<double>();

    const layer_desc base = m.layers.front();
    m.layers.assign(n_enc + n_dec, base);
    for (std::uint64_t i = 0; i < n_enc + n_dec; ++i) {
        m.layers[i].in_encoder = i < n_enc;
        m.layers[i].cross_attn = i >= n_enc;
    }
    m.n_layer          = static_cast<std::uint32_t>(n_enc + n_dec);
    m.n_layer_enc      = static_cast<std::uint32_t>(n_enc);
    m.rel_attn_buckets = static_cast<std::uint32_t>(buckets);
    m.pos              = pos_kind::none; // relative attention bias: a table per stack, no position rows
    // T5Attention adds position_bias to the scores itself (matmul, +bias, softmax, dropout, matmul):
    // transformers had no flash/SDPA path for the T5 family until PR #47014 (merged 2026-07), so the
    // probabilities stay for backward in the releases the measured runs used.
    m.eager_attn_scores = true;
    m.train_dropout     = dropout > 0;
    m.notes.push_back(fmt::format("encoder-decoder: {} encoder + {} decoder layers (cross-attention in each "
                                  "decoder layer), one shared embedding, {} FFN ({})",
                                  n_enc, n_dec, m.ffn == ffn_kind::gated ? "gated" : "plain", proj));
    return ok();
}

} // namespace llmplan::detail
