// State-space models and hybrids: which layers are Mamba / Mamba2 mixers, their state sizes, and
// the MLP / MoE of each layer, one table row per family (the keys and defaults of its transformers
// configuration_*.py; the module lists of its modeling_*.py).
//
// Mamba (MambaMixer, modeling_mamba.py; JambaMambaMixer): in_proj [2 d_inner, e], depthwise conv1d
//   over d_inner channels, x_proj [dt_rank + 2 d_state, d_inner], dt_proj [d_inner, dt_rank] + bias,
//   A_log [d_inner, d_state], D [d_inner], out_proj [e, d_inner]. Per sequence it keeps a conv state
//   over d_inner channels and an SSM state of d_inner x d_state.
// Mamba2 (Mamba2Mixer, modeling_mamba2.py; BambaMixer; NemotronHMamba2Mixer; FalconH1Mixer):
//   in_proj [d_inner + conv_dim + n_heads, e] with conv_dim = d_inner + 2 n_groups d_state, conv1d
//   over conv_dim channels, dt_bias / A_log / D [n_heads], a gated RMSNorm over d_inner, out_proj
//   [e, d_inner]. Per sequence: a conv state over conv_dim channels and an SSM state of n_heads x
//   head_dim x d_state = d_inner x d_state.
#include "model/state_space.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmplan::detail {
namespace {

using json  = nlohmann::json;
using mixer = layer_desc::recurrent_state::mixer;

enum class layout : std::uint8_t {
    all,         ///< every layer is a mixer and nothing else (Mamba, Mamba2)
    period,      ///< Jamba: attention when i % attn_layer_period == attn_layer_offset, MoE likewise
    layer_types, ///< Granite 4.0 H: layer_types[i] "mamba" / "attention"; MoE + shared MLP in every layer
    pattern,     ///< Nemotron-H: hybrid_override_pattern, one letter a layer (M mamba, * attention, - MLP, E MoE)
    parallel,    ///< Falcon-H1: attention and a Mamba2 mixer side by side in every layer, then an MLP
};

struct family {
    std::string_view model_type;
    mixer kind;
    layout how;
    std::uint32_t norms_per_layer; ///< RMSNorms a layer holds (1: one before its single mixer or MLP)
    const char* d_state;
    std::uint64_t d_state_default;
    const char* d_conv;
    const char* expand;
    const char* d_inner; ///< an explicit inner width, when the family has one
    const char* n_heads; ///< Mamba2 heads
    std::uint64_t n_heads_default;
    const char* head_dim; ///< Mamba2 head width ("auto" or absent: d_inner / n_heads)
    std::uint64_t head_dim_default;
    const char* n_groups;
    std::uint64_t n_groups_default;
    const char* dt_rank; ///< Mamba1 ("auto" or absent: ceil(hidden / 16))
    const char* conv_bias;
    const char* proj_bias;
    bool bcdt_norms;
    bool gated_norm;   ///< the Mamba2 mixer has its gated RMSNorm (Falcon-H1: only with mamba_rms_norm)
    bool vllm_ssm_f32; ///< vLLM's NemotronHForCausalLMConfig hook: mamba_ssm_cache_dtype "float32" by default
};

// Keys and defaults: MambaConfig, Mamba2Config, JambaConfig, GraniteMoeHybridConfig, NemotronHConfig,
// FalconH1Config (transformers). vLLM sets the SSM state of NemotronH models to float32 unless the
// config's mamba_ssm_cache_dtype says otherwise (vllm/model_executor/models/config.py,
// NemotronHForCausalLMConfig.DEFAULT_MAMBA_SSM_CACHE_DTYPE: "Only float32 is known to have no
// accuracy issues by default"); the others keep it in the model dtype ("auto").
// clang-format off
constexpr std::array families{
//      model_type          mixer          layout               norms d_state            dflt  d_conv          expand          d_inner              n_heads            dflt head_dim          dflt n_groups          dflt dt_rank          conv_bias          proj_bias          bcdt   gnorm  f32
family{"mamba",            mixer::mamba1, layout::all,         1,    "state_size",      16,   "conv_kernel",  "expand",       "intermediate_size", nullptr,           0,   nullptr,          0,   nullptr,           0,   "time_step_rank", "use_conv_bias",   "use_bias",        false, false, false},
family{"mamba2",           mixer::mamba2, layout::all,         1,    "state_size",      128,  "conv_kernel",  "expand",       nullptr,             "num_heads",       128, "head_dim",       64,  "n_groups",        8,   nullptr,          "use_conv_bias",   "use_bias",        false, true,  false},
family{"jamba",            mixer::mamba1, layout::period,      2,    "mamba_d_state",   16,   "mamba_d_conv", "mamba_expand", nullptr,             nullptr,           0,   nullptr,          0,   nullptr,           0,   "mamba_dt_rank",  "mamba_conv_bias", "mamba_proj_bias", true,  false, false},
family{"granitemoehybrid", mixer::mamba2, layout::layer_types, 2,    "mamba_d_state",   256,  "mamba_d_conv", "mamba_expand", nullptr,             "mamba_n_heads",   128, "mamba_d_head",   0,   "mamba_n_groups",  1,   nullptr,          "mamba_conv_bias", "mamba_proj_bias", false, true,  false},
family{"nemotron_h",       mixer::mamba2, layout::pattern,     1,    "ssm_state_size",  128,  "conv_kernel",  "expand",       nullptr,             "mamba_num_heads", 128, "mamba_head_dim", 64,  "n_groups",        8,   nullptr,          "use_conv_bias",   "use_bias",        false, true,  true },
family{"falcon_h1",        mixer::mamba2, layout::parallel,    2,    "mamba_d_state",   256,  "mamba_d_conv", "mamba_expand", "mamba_d_ssm",       "mamba_n_heads",   128, "mamba_d_head",   0,   "mamba_n_groups",  1,   nullptr,          "mamba_conv_bias", "mamba_proj_bias", false, false, false},
};
// clang-format on

const family* find_family(std::string_view model_type) {
    for (const auto& f : families)
        if (f.model_type == model_type) return &f;
    return nullptr;
}

/// A size from the config: absent, null or "auto" give the fallback; anything else must be an integer.
result<std::uint64_t> size_at(const json& cfg, const char* key, std::uint64_t fallback, std::string_view path) {
    if (key == nullptr) return fallback;
    auto it = cfg.find(key);
    if (it == cfg.end() || it->is_null() || (it->is_string() && it->get<std::string>() == "auto")) return fallback;
    if (!it->is_number_integer() || it->get<std::int64_t>() < 0 || it->get<std::int64_t>() > (1ll << 24))
        return make_error(error_code::bad_value,
                          fmt::format("{} is {}; expected a size from 0 to 16777216", key, it->dump()),
                          fmt::format("{}:/{}", path, key));
    return it->get<std::uint64_t>();
}

bool flag_at(const json& cfg, const char* key, bool fallback) {
    auto it = cfg.find(key);
    return it != cfg.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

status positive(std::uint64_t v, const char* key, std::string_view path) {
    if (v > 0) return ok();
    return make_error(error_code::bad_value, fmt::format("{} is 0; expected a positive size", key),
                      fmt::format("{}:/{}", path, key ? key : ""));
}

/// The mixer every Mamba layer of this model carries (sizes from the config, defaults from the family).
result<layer_desc::recurrent_state> read_mixer(const family& f, const json& cfg, std::uint64_t hidden,
                                               std::string_view path) {
    layer_desc::recurrent_state r;
    r.kind       = f.kind;
    auto d_state = size_at(cfg, f.d_state, f.d_state_default, path);
    auto d_conv  = size_at(cfg, f.d_conv, 4, path);
    auto expand  = size_at(cfg, f.expand, 2, path);
    if (!d_state) return d_state.error();
    if (!d_conv) return d_conv.error();
    if (!expand) return expand.error();
    if (auto s = positive(*d_state, f.d_state, path); !s) return s.error();
    if (auto s = positive(*d_conv, f.d_conv, path); !s) return s.error();
    auto d_inner = size_at(cfg, f.d_inner, *expand * hidden, path);
    if (!d_inner) return d_inner.error();
    r.d_state     = static_cast<std::uint32_t>(*d_state);
    r.conv_kernel = static_cast<std::uint32_t>(*d_conv);
    r.conv_bias   = flag_at(cfg, f.conv_bias, true);
    r.proj_bias   = flag_at(cfg, f.proj_bias, false);
    r.bcdt_norms  = f.bcdt_norms;
    r.gated_norm  = f.gated_norm || flag_at(cfg, "mamba_rms_norm", false);
    // vLLM: an explicit mamba_ssm_cache_dtype in the config is read by the same hook.
    r.vllm_ssm_f32 = f.vllm_ssm_f32 && cfg.value("mamba_ssm_cache_dtype", std::string("float32")) == "float32";
    if (f.kind == mixer::mamba1) {
        auto rank = size_at(cfg, f.dt_rank, (hidden + 15) / 16, path); // "auto": math.ceil(hidden_size / 16)
        if (!rank) return rank.error();
        if (auto s = positive(*d_inner, f.d_inner ? f.d_inner : f.expand, path); !s) return s.error();
        r.dt_rank       = static_cast<std::uint32_t>(*rank);
        r.value_width   = *d_inner;
        r.conv_channels = *d_inner;
        r.state_elems   = *d_inner * *d_state;
        return r;
    }
    auto heads = size_at(cfg, f.n_heads, f.n_heads_default, path);
    if (!heads) return heads.error();
    if (auto s = positive(*heads, f.n_heads, path); !s) return s.error();
    // Nemotron-H sizes the mixer by its heads (intermediate_size = mamba_num_heads x mamba_head_dim);
    // the others by expand x hidden (or mamba_d_ssm), head_dim "auto" = d_inner / n_heads.
    auto head_dim = size_at(cfg, f.head_dim, f.head_dim_default, path);
    if (!head_dim) return head_dim.error();
    const bool by_heads       = f.how == layout::pattern;
    const std::uint64_t inner = by_heads ? *heads * *head_dim : *d_inner;
    if (inner == 0 || inner % *heads != 0 || (*head_dim && !by_heads && *head_dim * *heads != inner))
        return make_error(
            error_code::inconsistent_dims,
            fmt::format("{} heads of width {} do not make the mixer's inner width {}", *heads, *head_dim, inner),
            fmt::format("{}:/{}", path, f.n_heads));
    auto groups = size_at(cfg, f.n_groups, f.n_groups_default, path);
    if (!groups) return groups.error();
    if (*groups == 0 || *heads % *groups != 0)
        return make_error(error_code::inconsistent_dims,
                          fmt::format("{} groups do not divide {} heads", *groups, *heads),
                          fmt::format("{}:/{}", path, f.n_groups));
    r.n_groups      = static_cast<std::uint32_t>(*groups);
    r.v_heads       = static_cast<std::uint32_t>(*heads);
    r.value_width   = inner;
    r.conv_channels = inner + 2 * *groups * *d_state;
    r.state_elems   = inner * *d_state;
    return r;
}

/// Nemotron 3 Ultra / 3.5 write the layout as a list (NemotronHConfig.layers_block_type, transformers
/// configuration_nemotron_h.py: "mamba", "moe", "attention", "mlp"; hybrid_override_pattern is then a
/// property derived from it, one letter a type: M, E, *, -).
result<std::string> letters_from_block_types(const json& cfg, std::uint32_t n, std::string_view path) {
    const json& list = cfg.at("layers_block_type");
    if (!list.is_array() || list.size() != n)
        return make_error(error_code::inconsistent_dims,
                          fmt::format("{} layer types for {} layers", list.is_array() ? list.size() : 0, n),
                          fmt::format("{}:/layers_block_type", path));
    static constexpr std::array<std::pair<std::string_view, char>, 4> letters{
        {{"mamba", 'M'}, {"moe", 'E'}, {"attention", '*'}, {"mlp", '-'}}
    };
    std::string s;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string t = list[i].is_string() ? list[i].get<std::string>() : std::string();
        const auto* hit     = std::find_if(letters.begin(), letters.end(), [&](const auto& p) { return p.first == t; });
        if (hit == letters.end())
            return make_error(error_code::bad_value,
                              fmt::format("{}; expected \"mamba\", \"moe\", \"attention\" or \"mlp\"", list[i].dump()),
                              fmt::format("{}:/layers_block_type/{}", path, i));
        s += hit->second;
    }
    return s;
}

/// Which layers attend: Jamba's period / offset, Granite's layer_types, Nemotron-H's pattern letters.
/// Returns one letter a layer in Nemotron-H's alphabet (M mixer, * attention, - MLP, E MoE, P both).
result<std::string> layer_letters(const family& f, const json& cfg, const model_desc& m, std::string_view path) {
    const std::uint32_t n = m.n_layer;
    switch (f.how) {
    case layout::all:
        return std::string(n, 'M');
    case layout::parallel:
        return std::string(n, 'P');
    case layout::period: {
        auto period = size_at(cfg, "attn_layer_period", 8, path); // JambaConfig defaults: 8 and 4
        auto offset = size_at(cfg, "attn_layer_offset", 4, path);
        if (!period) return period.error();
        if (!offset) return offset.error();
        if (auto s = positive(*period, "attn_layer_period", path); !s) return s.error();
        std::string s(n, 'M');
        for (std::uint32_t i = 0; i < n; ++i)
            if (i % *period == *offset) s[i] = '*';
        return s;
    }
    case layout::layer_types: {
        // GraniteMoeHybridConfig.layers_block_type: layer_types, else every layer "mamba".
        auto it = cfg.find("layer_types");
        if (it == cfg.end() || it->is_null()) return std::string(n, 'M');
        if (!it->is_array() || it->size() != n)
            return make_error(error_code::inconsistent_dims,
                              fmt::format("{} entries for {} layers", it->is_array() ? it->size() : 0, n),
                              fmt::format("{}:/layer_types", path));
        std::string s;
        for (std::size_t i = 0; i < n; ++i) {
            const json& t          = (*it)[i];
            const std::string kind = t.is_string() ? t.get<std::string>() : std::string();
            if (kind != "mamba" && kind != "attention")
                return make_error(error_code::bad_value,
                                  fmt::format("{}; expected \"mamba\" or \"attention\"", t.dump()),
                                  fmt::format("{}:/layer_types/{}", path, i));
            s += kind == "mamba" ? 'M' : '*';
        }
        return s;
    }
    case layout::pattern: {
        auto it = cfg.find("hybrid_override_pattern");
        if ((it == cfg.end() || !it->is_string()) && cfg.contains("layers_block_type"))
            return letters_from_block_types(cfg, n, path);
        if (it == cfg.end() || !it->is_string())
            return make_error(error_code::missing_field,
                              "no hybrid_override_pattern or layers_block_type; expected one letter a layer (M, *, "
                              "-, E) or one layer type a layer",
                              fmt::format("{}:/hybrid_override_pattern", path));
        const std::string s = it->get<std::string>();
        if (s.size() != n)
            return make_error(error_code::inconsistent_dims, fmt::format("{} letters for {} layers", s.size(), n),
                              fmt::format("{}:/hybrid_override_pattern", path));
        if (auto bad = s.find_first_not_of("M*-E"); bad != std::string::npos)
            return make_error(error_code::bad_value,
                              fmt::format("letter '{}' at layer {}; expected M (Mamba2), * (attention), - (MLP) "
                                          "or E (MoE)",
                                          s[bad], bad),
                              fmt::format("{}:/hybrid_override_pattern", path));
        return s;
    }
    }
    return std::string(n, 'M');
}

/// The MoE description of a family that has one (the keys of its configuration class).
status read_experts(model_desc& m, const family& f, const json& cfg, std::string_view path) {
    auto& x      = m.moe;
    const auto n = size_at(cfg, f.how == layout::pattern ? "n_routed_experts" : "num_experts", 0, path);
    if (!n) return n.error();
    const auto local = size_at(cfg, "num_local_experts", *n, path); // Granite
    if (!local) return local.error();
    const auto used = size_at(cfg, "num_experts_per_tok", 0, path);
    if (!used) return used.error();
    x.n_expert      = static_cast<std::uint32_t>(*local);
    x.n_expert_used = static_cast<std::uint32_t>(*used);
    if (x.n_expert > 1 && (x.n_expert_used == 0 || x.n_expert_used > x.n_expert))
        return make_error(error_code::inconsistent_dims,
                          fmt::format("MoE with {} experts and {} used per token; expected 0 < used <= experts",
                                      x.n_expert, x.n_expert_used),
                          fmt::format("{}:/num_experts_per_tok", path));
    const std::uint64_t ff = cfg.value("intermediate_size", std::uint64_t{0});
    if (f.how == layout::pattern) {
        // NemotronHMoE: a router with e_score_correction_bias, relu2 experts (up, down) of
        // moe_intermediate_size and n_shared_experts shared ones of moe_shared_expert_intermediate_size.
        x.n_ff_expert     = cfg.value("moe_intermediate_size", ff);
        x.n_expert_shared = cfg.value("n_shared_experts", 1u);
        x.n_ff_shexp      = cfg.value("moe_shared_expert_intermediate_size", std::uint64_t{0}) * x.n_expert_shared;
        x.score_bias      = true;
        x.plain_experts   = true; // moe_latent_size (LatentMoE) is applied to the tensors: latent_moe.cpp
    } else if (f.how == layout::layer_types) {
        // GraniteMoeHybridMoE: experts of intermediate_size; the shared_mlp of shared_intermediate_size
        // sits in every layer (GraniteMoeHybridDecoderLayer).
        x.n_ff_expert     = ff;
        x.n_ff_shexp      = cfg.value("shared_intermediate_size", std::uint64_t{1024});
        x.n_expert_shared = x.n_ff_shexp ? 1 : 0;
    } else {
        x.n_ff_expert = ff; // JambaSparseMoeBlock: JambaMLP(intermediate_size) experts, a router without bias
    }
    return ok();
}

} // namespace

bool is_state_space_family(std::string_view model_type) {
    return find_family(model_type) != nullptr;
}

std::optional<std::uint64_t> layer_count_from_types(const json& cfg, std::string_view model_type) {
    const family* f = find_family(model_type);
    if (f == nullptr || f->how != layout::pattern) return std::nullopt;
    auto it = cfg.find("layers_block_type");
    if (it == cfg.end() || !it->is_array() || it->empty()) return std::nullopt;
    return it->size(); // NemotronHConfig.num_hidden_layers = len(layers_block_type)
}

status read_state_space(model_desc& m, const json& cfg, std::string_view model_type, std::string_view path) {
    const family* f = find_family(model_type);
    if (f == nullptr) return ok();
    auto r = read_mixer(*f, cfg, m.n_embd, path);
    if (!r) return r.error();
    auto letters = layer_letters(*f, cfg, m, path);
    if (!letters) return letters.error();
    if (f->how != layout::all && f->how != layout::parallel) {
        if (auto s = read_experts(m, *f, cfg, path); !s) return s;
    }
    const bool granite_moe = f->how == layout::layer_types && m.moe.n_expert > 0;
    if (f->how == layout::layer_types && m.moe.n_expert == 0) m.moe = {}; // dense Granite: the shared MLP only
    auto exp_period = size_at(cfg, "expert_layer_period", 2, path);       // JambaConfig defaults: 2 and 1
    auto exp_offset = size_at(cfg, "expert_layer_offset", 1, path);
    if (!exp_period) return exp_period.error();
    if (!exp_offset) return exp_offset.error();
    const std::uint64_t dense_ff = f->how == layout::layer_types ? cfg.value("shared_intermediate_size", 1024u)
                                                                 : cfg.value("intermediate_size", std::uint64_t{0});
    m.n_norm_per_layer           = f->norms_per_layer;
    for (std::uint32_t i = 0; i < m.n_layer; ++i) {
        auto& l        = m.layers[i];
        const char c   = (*letters)[i];
        const bool mix = c == 'M' || c == 'P';
        if (mix) l.recurrent = *r;
        if (c != '*' && c != 'P') {
            l.attn  = attn_kind::none;
            l.n_swa = 0;
        }
        // The MLP of the layer: none beside a lone mixer or attention (Mamba, Nemotron-H), an MoE or MLP
        // in every layer (Jamba by period, Granite, Falcon-H1).
        l.is_moe = false;
        l.n_ff   = 0;
        switch (f->how) {
        case layout::all:
            break;
        case layout::pattern:
            l.is_moe = c == 'E';
            l.n_ff   = c == '-' ? dense_ff : 0;
            break;
        case layout::period:
            l.is_moe = m.moe.n_expert > 1 && *exp_period && i % *exp_period == *exp_offset;
            l.n_ff   = l.is_moe ? 0 : dense_ff;
            break;
        case layout::layer_types:
            l.is_moe = granite_moe;
            l.n_ff   = granite_moe ? 0 : dense_ff;
            break;
        case layout::parallel:
            l.n_ff = dense_ff;
            break;
        }
    }
    if (!std::any_of(m.layers.begin(), m.layers.end(), [](const layer_desc& l) { return l.is_moe; })) {
        m.moe = {};
    } else if (m.moe.n_expert == 0 || m.moe.n_ff_expert == 0) {
        return make_error(error_code::missing_field,
                          fmt::format("MoE layers with {} experts of width {}; expected the expert count and width",
                                      m.moe.n_expert, m.moe.n_ff_expert),
                          fmt::format("{}:/{}", path, f->how == layout::pattern ? "n_routed_experts" : "num_experts"));
    }
    return ok();
}

} // namespace llmplan::detail
