#include "report/text_report.h"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <string>

namespace llmplan {

std::string human_bytes(std::int64_t bytes) {
    const double b = static_cast<double>(bytes);
    if (std::llabs(bytes) < (1 << 20)) return fmt::format("{:.1f} KiB", b / 1024.0);
    if (std::llabs(bytes) < (1ll << 30)) return fmt::format("{:.1f} MiB", b / (1 << 20));
    return fmt::format("{:.2f} GiB", b / (1ll << 30));
}

std::string origin_to_text(const model_desc& m) {
    if (!m.origin.commit.empty())
        return fmt::format("{} ({}) at commit {}", m.origin.location, m.origin.kind, m.origin.commit);
    if (m.origin.kind == "modelscope-cache") return fmt::format("{} ({})", m.origin.location, m.origin.kind);
    return {};
}

std::string model_to_text(const model_desc& m) {
    const auto p  = count_params(m);
    const auto& l = m.typical_layer();
    std::string s;
    s += fmt::format("model        {}\n", m.id);
    if (const auto from = origin_to_text(m); !from.empty()) s += fmt::format("read from    {}\n", from);
    s += fmt::format("family       {}{}\n", m.arch, m.hf_class.empty() ? "" : " (" + m.hf_class + ")");
    if (m.is_moe())
        s += fmt::format("params       {:.3f} B total, {:.3f} B active per token ({} of {} experts{})\n",
                         static_cast<double>(p.total) / 1e9, static_cast<double>(p.active) / 1e9, m.moe.n_expert_used,
                         m.moe.n_expert,
                         m.moe.n_expert_shared ? fmt::format(" + {} shared", m.moe.n_expert_shared) : "");
    else
        s += fmt::format("params       {:.3f} B ({} exactly)\n", static_cast<double>(p.total) / 1e9, p.total);
    // A config may state no trained context (T5's relative positions have none): say so, not "0".
    s += fmt::format("layers       {} x width {}, vocab {}, trained context {}\n", m.n_layer, m.n_embd, m.n_vocab,
                     m.n_ctx_train > 0 ? std::to_string(m.n_ctx_train) : std::string("not stated"));
    std::uint32_t swa_layers = 0, kv_layers = 0;
    for (const auto& x : m.layers) {
        swa_layers += x.n_swa ? 1 : 0;
        kv_layers += x.has_kv() && !x.kv_shared ? 1 : 0;
    }
    s += fmt::format("attention    {}: {} heads, {} KV heads, head dim {}{}\n", attn_kind_name(l.attn), l.n_head,
                     l.n_head_kv, l.head_dim_k, l.head_dim_v != l.head_dim_k ? fmt::format("/{}", l.head_dim_v) : "");
    if (l.attn == attn_kind::mla)
        s += fmt::format("             latent KV rank {} + rope {} (q rank {})\n", m.mla.kv_lora_rank,
                         m.mla.qk_rope_head_dim, m.mla.q_lora_rank);
    if (swa_layers) s += fmt::format("             {} of {} layers sliding-window\n", swa_layers, m.n_layer);
    if (kv_layers != m.n_layer)
        s += fmt::format("             {} of {} layers hold a KV cache\n", kv_layers, m.n_layer);
    const auto state =
        std::find_if(m.layers.begin(), m.layers.end(), [](const layer_desc& x) { return x.has_state(); });
    if (state != m.layers.end()) {
        const auto n =
            std::count_if(m.layers.begin(), m.layers.end(), [](const layer_desc& x) { return x.has_state(); });
        const auto& r = state->recurrent;
        s += fmt::format("state        {} of {} layers are {} mixers: a recurrent state per sequence, constant in "
                         "context (conv {} x {}, state {} elements)\n",
                         n, m.n_layer, mixer_name(r.kind), r.conv_channels, r.conv_kernel, r.state_elems);
    }
    if (m.is_moe())
        s += fmt::format("experts      {} x width {}{}\n", m.moe.n_expert, m.moe.n_ff_expert,
                         m.moe.n_ff_shexp ? fmt::format(", shared width {}", m.moe.n_ff_shexp) : "");
    s += fmt::format("weights      {} ({}, {})\n", human_bytes(static_cast<std::int64_t>(weights_bytes(m))),
                     m.weights_type_name(),
                     m.source == weights_source::tensors ? "exact, from the file's tensors"
                                                         : "from the architecture at the config's dtype");
    if (m.file_bytes) s += fmt::format("on disk      {}\n", human_bytes(static_cast<std::int64_t>(m.file_bytes)));
    for (const auto& n : m.notes)
        s += fmt::format("note         {}\n", n);
    if (m.low_confidence()) s += "confidence   LOW: parts of this model were guessed, not read\n";
    for (const auto* list : {&m.guessed_weights, &m.guessed_cache})
        for (const auto& g : *list)
            s += fmt::format("guessed      {}\n", g);
    return s;
}

} // namespace llmplan
