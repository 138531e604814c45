// DeepSeek-V4 (model_type deepseek_v4: DeepSeek-V4-Flash, DeepSeek-V4-Pro): compressed attention per
// layer, hyper-connections and hash-routed first layers. The module list is vLLM's
// (vllm-project/vllm vllm/model_executor/models/deepseek_v4.py, layers/deepseek_v4_attention.py,
// layers/deepseek_compressor.py, read through the code index; the same shapes in the reference
// ports quoted beside them: "attn.wq_a", "attn.wkv", "attn.wo_a", "hc_attn_fn", "ffn.gate.bias" ...).
//
// One layer (config keys in brackets; DeepSeek-V4-Flash's sizes):
//   attention: wq_a [q_lora_rank, hidden] and its q_norm, wq_b [heads x head_dim, q_lora_rank], wkv
//     [head_dim, hidden] (one KV head, 512 wide, used as K and V) and its kv_norm, a grouped output
//     wo_a [o_groups x o_lora_rank, heads x head_dim / o_groups] then wo_b [hidden, o_groups x
//     o_lora_rank], and attn_sink [heads];
//   compress_ratios[layer] > 0: a DeepseekCompressor: ape [ratio, coff x head_dim] (coff = 2 when the
//     ratio is 4: overlapping windows), wkv and wgate [coff x head_dim, hidden] each (fused_wkv_wgate),
//     norm [head_dim];
//   ratio 4 also a DeepseekV4Indexer: wq_b [index_n_heads x index_head_dim, q_lora_rank],
//     weights_proj [index_n_heads, hidden] and its own compressor of width index_head_dim (vLLM also
//     builds a k_norm LayerNorm there; DeepSeek's reference inference/model.py Indexer has none, code-
//     index file id 52448677091 restating it: not counted);
//   hyper-connections (hc_mult copies of the residual): hc_attn_fn and hc_ffn_fn [(2 + hc) x hc,
//     hc x hidden], their bases [(2 + hc) x hc] and scales [3], all fp32;
//   the two RMSNorms and the MoE (routed and shared SwiGLU experts of moe_intermediate_size, a router
//     [n_routed_experts, hidden]) come from the common generator. The router carries a score bias
//     [n_routed_experts], except in the first num_hash_layers layers, which route by token id through a
//     tid2eid table [vocab, num_experts_per_tok] instead.
//   After the last layer: hc_head_fn [hc, hc x hidden], hc_head_base [hc], hc_head_scale [1].
// The multi-token-prediction layer (num_nextn_predict_layers; compress_ratios has one entry more for
// it) is not counted, as for DeepSeek-V3.
//
// DeepSeek-V4-Flash by hand (tests/unit/deepseek_v4_family_test.cpp): 284,334,567,511 parameters,
// 13,801,959,511 active with 6 of 256 experts: the card's "284B" and "13B activated".
#include "detail/checked_number.h"
#include "model/arch_tensors.h"

#include <array>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmplan::detail {
namespace {

using nlohmann::json;

/// A size key of DeepSeek-V4's config: present, a whole number from 1 to 2^24.
result<std::uint64_t> dsv4_size(const json& cfg, const char* key, std::string_view path) {
    auto it = cfg.find(key);
    if (it == cfg.end() || it->is_null())
        return make_error(error_code::missing_field, "DeepSeek-V4's compressed attention needs this size",
                          fmt::format("{}:/{}", path, key));
    if (!it->is_number_integer() || it->get<std::int64_t>() < 1 || it->get<std::int64_t>() > (1 << 24))
        return make_error(error_code::bad_value, fmt::format("{}; expected a size from 1 to 16777216", it->dump()),
                          fmt::format("{}:/{}", path, key));
    return static_cast<std::uint64_t>(it->get<std::int64_t>());
}

/// Builds the family's own weights under the checkpoint's names (model_desc::extra_weights).
struct dsv4_weights {
    model_desc& m;
    void add(std::string name, tensor_role role, int layer, std::vector<std::uint64_t> shape) {
        m.extra_weights.push_back({std::move(name), role, layer, std::move(shape)});
    }
};

} // namespace

status read_compressed_attention(model_desc& m, const json& cfg, std::string_view path) {
    auto ratios = cfg.find("compress_ratios");
    if (ratios == cfg.end()) return ok(); // not DeepSeek-V4's attention
    if (!ratios->is_array() || ratios->size() < m.n_layer)
        return make_error(error_code::inconsistent_dims,
                          fmt::format("expected a list of at least {} compression ratios, one a layer", m.n_layer),
                          fmt::format("{}:/compress_ratios", path));
    std::uint64_t v[13] = {};
    const char* keys[]  = {
         "q_lora_rank",         "qk_rope_head_dim", "o_groups",       "o_lora_rank", "hc_mult",
         "sliding_window",      "index_n_heads",    "index_head_dim", "head_dim",    "num_attention_heads",
         "num_experts_per_tok", "vocab_size",       "hidden_size"};
    for (int i = 0; i < 13; ++i) {
        auto s = dsv4_size(cfg, keys[i], path);
        if (!s) return s.error();
        v[i] = *s;
    }
    const auto [q_rank, rope, groups, o_rank, hc, window, ih, idim, head, heads, topk, vocab, hidden] =
        std::to_array(v);
    if (rope >= head || heads % groups != 0)
        return make_error(
            error_code::inconsistent_dims,
            fmt::format("head_dim {} must exceed qk_rope_head_dim {}, and o_groups {} divide the {} heads", head, rope,
                        groups, heads),
            fmt::format("{}:/o_groups", path));
    std::uint64_t hash_layers = 0;
    if (auto it = cfg.find("num_hash_layers"); it != cfg.end() && it->is_number_unsigned())
        hash_layers = it->get<std::uint64_t>();

    m.mla.q_lora_rank      = static_cast<std::uint32_t>(q_rank);
    m.mla.qk_rope_head_dim = static_cast<std::uint32_t>(rope);
    m.moe.score_bias       = false; // per layer below: hash-routed layers have none
    dsv4_weights w{m};
    const std::uint64_t mix = (2 + hc) * hc; // hc_pre / hc_post / hc_comb mixes
    for (std::uint32_t i = 0; i < m.n_layer; ++i) {
        const json& r = (*ratios)[i];
        if (!r.is_number_unsigned() || r.get<std::uint64_t>() > (1u << 20))
            return make_error(error_code::bad_value, fmt::format("{}; expected 0 or a ratio up to 1048576", r.dump()),
                              fmt::format("{}:/compress_ratios/{}", path, i));
        const auto ratio = static_cast<std::uint32_t>(r.get<std::uint64_t>());
        auto& l          = m.layers[i];
        l.attn           = attn_kind::mqa; // one KV head of head_dim, read by every query head
        l.n_head_kv      = 1;
        l.compressed     = {ratio > 1 ? ratio : 1, static_cast<std::uint32_t>(window), static_cast<std::uint32_t>(rope),
                        ratio == 4 ? static_cast<std::uint32_t>(idim) : 0};
        // A window-only layer is a sliding-window layer for every reader of n_swa; a compressed layer
        // reads the whole context (compressed), so it stays "full" there.
        l.n_swa       = ratio > 1 ? 0 : static_cast<std::uint32_t>(window);
        const int il  = static_cast<int>(i);
        const auto at = [&](std::string_view name) { return fmt::format("layers.{}.{}", i, name); };
        w.add(at("attn.wq_a.weight"), tensor_role::attn_q_a, il, {q_rank, hidden});
        w.add(at("attn.q_norm.weight"), tensor_role::attn_q_a_norm, il, {q_rank});
        w.add(at("attn.wq_b.weight"), tensor_role::attn_q_b, il, {heads * head, q_rank});
        w.add(at("attn.wkv.weight"), tensor_role::attn_kv_a, il, {head, hidden});
        w.add(at("attn.kv_norm.weight"), tensor_role::attn_kv_a_norm, il, {head});
        w.add(at("attn.wo_a.weight"), tensor_role::attn_output, il, {groups * o_rank, heads * head / groups});
        w.add(at("attn.wo_b.weight"), tensor_role::attn_output, il, {hidden, groups * o_rank});
        w.add(at("attn.attn_sink"), tensor_role::attn_sinks, il, {heads});
        // A copy: clang before 16 cannot capture a structured binding (the fuzz preset builds with clang 14).
        const std::uint64_t hidden_width = hidden;
        const auto compressor            = [&](std::string_view where, std::uint64_t width) {
            const std::uint64_t coff = ratio == 4 ? 2 : 1; // overlapping windows at ratio 4
            w.add(at(fmt::format("{}.ape", where)), tensor_role::other, il, {ratio, coff * width});
            w.add(at(fmt::format("{}.wkv.weight", where)), tensor_role::other, il, {coff * width, hidden_width});
            w.add(at(fmt::format("{}.wgate.weight", where)), tensor_role::other, il, {coff * width, hidden_width});
            w.add(at(fmt::format("{}.norm.weight", where)), tensor_role::other, il, {width});
        };
        if (ratio > 1) compressor("attn.compressor", head);
        if (ratio == 4) {
            w.add(at("attn.indexer.wq_b.weight"), tensor_role::indexer_q_b, il, {ih * idim, q_rank});
            w.add(at("attn.indexer.weights_proj.weight"), tensor_role::indexer_proj, il, {ih, hidden});
            compressor("attn.indexer.compressor", idim);
        }
        for (const char* part : {"attn", "ffn"}) {
            w.add(at(fmt::format("hc_{}_fn", part)), tensor_role::other, il, {mix, hc * hidden});
            w.add(at(fmt::format("hc_{}_base", part)), tensor_role::other, il, {mix});
            w.add(at(fmt::format("hc_{}_scale", part)), tensor_role::other, il, {3});
        }
        if (i < hash_layers)
            w.add(at("ffn.gate.tid2eid"), tensor_role::other, il, {vocab, topk});
        else
            w.add(at("ffn.gate.bias"), tensor_role::other, il, {m.moe.n_expert});
    }
    w.add("hc_head_fn", tensor_role::other, -1, {hc, hc * hidden});
    w.add("hc_head_base", tensor_role::other, -1, {hc});
    w.add("hc_head_scale", tensor_role::other, -1, {1});
    m.notes.push_back(fmt::format("compressed attention: a {}-token window in every layer, compressed rows every "
                                  "4 or 128 tokens (compress_ratios), an indexer on the ratio-4 layers",
                                  window));
    return ok();
}

void apply_dsv4_checkpoint(model_desc& m, const json& cfg) {
    // DeepSeek's reference inference code (deepseek-ai/DeepSeek-V4-Flash inference/model.py, restated in
    // code-index file id 52448677091 "adapted from" it): Linear(dtype=float4_e2m1fn_x2) stores a weight
    // [out, in / 2] (two e2m1 values a byte) and a scale [out, in / 32] of float8_e8m0fnu; an FP8 Linear
    // a weight [out, in] of e4m3 and one float8_e8m0fnu scale a 128 x 128 block (config scale_fmt
    // "ue8m0": 1 byte, not a float32). MoE(expert_dtype) builds the routed experts in fp4 or fp8; the
    // shared expert stays in the checkpoint's FP8.
    if (m.quant.method != quant_method::fp8 || !cfg.contains("compress_ratios")) return;
    const bool ue8m0 = cfg.value("quantization_config", json::object()).value("scale_fmt", std::string()) == "ue8m0";
    const std::string experts = cfg.value("expert_dtype", std::string());
    for (auto& t : m.tensors) {
        if (t.shape.size() < 2 || t.type != dtype::f8_e4m3) continue;
        const std::uint64_t out = t.shape[t.shape.size() - 2], in = t.shape.back();
        const std::uint64_t n = out && in ? t.n_elements() / (out * in) : 0;
        if (experts == "fp4" && is_expert(t.role)) {
            t.type  = dtype::mxfp4;
            t.bytes = n * (out * (in / 2) + out * ceil_div(in, std::uint64_t{32}));
        } else if (ue8m0 && m.quant.block_out && m.quant.block_in) {
            t.bytes = n * (out * in + ceil_div(out, std::uint64_t{m.quant.block_out}) *
                                          ceil_div(in, std::uint64_t{m.quant.block_in}));
        }
    }
    if (experts == "fp4")
        m.notes.push_back("routed experts stored in FP4 (e2m1 pairs, an e8m0 scale a 32), the rest in FP8 blocks");
}

} // namespace llmplan::detail
