#include "catalog_fixtures.h"
#include "estimate/gguf_recipe.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace llmplan {
namespace {

// A llama / qwen2 / mistral shaped dense model, tensors named as convert_hf_to_gguf.py names them.
struct dense_spec {
    std::string arch     = "llama";
    std::uint64_t n_embd = 0, n_ff = 0, n_vocab = 0, head_dim = 0;
    std::uint32_t n_layer = 0, n_head = 0, n_head_kv = 0;
    bool tied = false, qkv_bias = false, rope_freqs = false;
};

void add(model_desc& m, std::string name, tensor_role role, int layer, std::vector<std::uint64_t> shape,
         bool bias = false) {
    tensor_desc t;
    t.name    = std::move(name);
    t.role    = role;
    t.layer   = layer;
    t.shape   = std::move(shape);
    t.is_bias = bias;
    m.tensors.push_back(std::move(t));
}

model_desc make_dense(const dense_spec& s) {
    model_desc m;
    m.arch                 = s.arch;
    m.gguf_arch            = s.arch; // the specs name llama.cpp architectures
    m.n_layer              = s.n_layer;
    m.n_embd               = s.n_embd;
    m.n_vocab              = s.n_vocab;
    m.tied_embd            = s.tied;
    m.attn_qkv_bias        = s.qkv_bias;
    const std::uint64_t hd = s.head_dim ? s.head_dim : s.n_embd / s.n_head;
    const std::uint64_t q = s.n_head * hd, kv = s.n_head_kv * hd;
    add(m, "token_embd.weight", tensor_role::token_embd, -1, {s.n_vocab, s.n_embd});
    add(m, "output_norm.weight", tensor_role::output_norm, -1, {s.n_embd});
    if (!s.tied) add(m, "output.weight", tensor_role::output, -1, {s.n_vocab, s.n_embd});
    // llama-3 rope scaling: convert_hf_to_gguf.py writes a rope_freqs table of head_dim / 2 floats
    if (s.rope_freqs) add(m, "rope_freqs.weight", tensor_role::other, -1, {hd / 2});
    for (std::uint32_t i = 0; i < s.n_layer; ++i) {
        layer_desc l;
        l.n_head     = s.n_head;
        l.n_head_kv  = s.n_head_kv;
        l.head_dim_k = l.head_dim_v = static_cast<std::uint32_t>(hd);
        l.n_ff                      = s.n_ff;
        m.layers.push_back(l);
        const int li  = static_cast<int>(i);
        const auto bn = "blk." + std::to_string(i) + ".";
        add(m, bn + "attn_norm.weight", tensor_role::attn_norm, li, {s.n_embd});
        add(m, bn + "attn_q.weight", tensor_role::attn_q, li, {q, s.n_embd});
        add(m, bn + "attn_k.weight", tensor_role::attn_k, li, {kv, s.n_embd});
        add(m, bn + "attn_v.weight", tensor_role::attn_v, li, {kv, s.n_embd});
        if (s.qkv_bias) {
            add(m, bn + "attn_q.bias", tensor_role::attn_q, li, {q}, true);
            add(m, bn + "attn_k.bias", tensor_role::attn_k, li, {kv}, true);
            add(m, bn + "attn_v.bias", tensor_role::attn_v, li, {kv}, true);
        }
        add(m, bn + "attn_output.weight", tensor_role::attn_output, li, {s.n_embd, q});
        add(m, bn + "ffn_norm.weight", tensor_role::ffn_norm, li, {s.n_embd});
        add(m, bn + "ffn_gate.weight", tensor_role::ffn_gate, li, {s.n_ff, s.n_embd});
        add(m, bn + "ffn_up.weight", tensor_role::ffn_up, li, {s.n_ff, s.n_embd});
        add(m, bn + "ffn_down.weight", tensor_role::ffn_down, li, {s.n_embd, s.n_ff});
    }
    return m;
}

gguf_ftype_info ftype(std::string_view name) {
    auto f = gguf_ftype_from_name(name);
    EXPECT_TRUE(f.has_value()) << name;
    return f.value_or(gguf_ftype_info{});
}

std::string upper(std::string_view s) {
    std::string r(s);
    for (auto& c : r)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return r;
}

/// Bytes per ggml type name ("Q6_K") after applying the recipe.
std::map<std::string, std::uint64_t> bytes_by_type(model_desc m, std::string_view ft) {
    gguf_apply_recipe(m, ftype(ft));
    std::map<std::string, std::uint64_t> r;
    for (const auto& t : m.tensors)
        r[upper(name(t.type))] += t.bytes;
    return r;
}

/// Type of the tensor with that name under file type ft.
dtype type_of(const model_desc& m, std::string_view tensor_name, std::string_view ft) {
    for (const auto& t : m.tensors)
        if (t.name == tensor_name) return gguf_recipe_type(m, t, ftype(ft));
    ADD_FAILURE() << "no tensor " << tensor_name;
    return dtype::count;
}

/// Layers whose tensor `suffix` gets type want.
std::vector<int> layers_with(const model_desc& m, std::string_view suffix, std::string_view ft, dtype want) {
    std::vector<int> r;
    for (const auto& t : m.tensors)
        if (t.name.ends_with(suffix) && gguf_recipe_type(m, t, ftype(ft)) == want) r.push_back(t.layer);
    return r;
}

/// How many tensors get each type (llama.cpp's loader prints this census: "type q4_K: 193 tensors").
std::map<dtype, int> census(const model_desc& m, std::string_view ft) {
    std::map<dtype, int> n;
    for (const auto& t : m.tensors)
        ++n[gguf_recipe_type(m, t, ftype(ft))];
    return n;
}
using counts = std::map<dtype, int>;

// Real llama-quantize outputs (tests/data/truth/llamacpp_cpu_measured.json, tensor_bytes_by_type):
// each distinct (model, quant_type) rebuilt from its hf_config must give the same bytes per type.
TEST(gguf_recipe, matches_measured_llamacpp_files) {
    std::ifstream in(std::string(LLMPLAN_TEST_DATA) + "/truth/llamacpp_cpu_measured.json");
    ASSERT_TRUE(in.good());
    const auto doc = nlohmann::json::parse(in);
    std::set<std::pair<std::string, std::string>> seen;
    for (const auto& c : doc.at("cases")) {
        const auto key = std::make_pair(c.at("model").get<std::string>(), c.at("quant_type").get<std::string>());
        if (!seen.insert(key).second) continue;
        const auto& h = c.at("hf_config");
        dense_spec s;
        s.arch         = c.at("arch").get<std::string>();
        s.n_embd       = h.at("hidden_size");
        s.n_ff         = h.at("intermediate_size");
        s.n_vocab      = h.at("vocab_size");
        s.n_layer      = h.at("num_hidden_layers");
        s.n_head       = h.at("num_attention_heads");
        s.n_head_kv    = h.value("num_key_value_heads", s.n_head);
        s.head_dim     = h.value("head_dim", std::uint64_t{0});
        s.tied         = h.value("tie_word_embeddings", false);
        s.qkv_bias     = s.arch == "qwen2"; // Qwen2 q/k/v projections carry biases
        s.rope_freqs   = h.contains("rope_scaling") && h["rope_scaling"].value("rope_type", "") == "llama3";
        const auto got = bytes_by_type(make_dense(s), key.second);
        std::map<std::string, std::uint64_t> want;
        for (const auto& [k, v] : c.at("tensor_bytes_by_type").items())
            want[k] = v.get<std::uint64_t>();
        EXPECT_EQ(got, want) << key.first << " " << key.second;
    }
    EXPECT_EQ(seen.size(), 6u); // qwen2.5-0.5b and llama-3.2-1b at Q4_0, Q8_0, F16
}

// Llama-2-7B shape: 32 layers, 4096 wide (all rows divisible by 256), MHA, untied output.
dense_spec llama7b() {
    dense_spec s;
    s.n_embd = 4096, s.n_ff = 11008, s.n_vocab = 32000, s.n_layer = 32, s.n_head = 32, s.n_head_kv = 32;
    return s;
}

TEST(gguf_recipe, q4_k_m_on_llama_7b) {
    const auto m = make_dense(llama7b());
    // use_more_bits(i, 32): i < 4, i >= 28, or (i - 4) % 3 == 2 -> 4 + 4 + 8 = 16 layers.
    const std::vector<int> more{0, 1, 2, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29, 30, 31};
    EXPECT_EQ(layers_with(m, "attn_v.weight", "q4_k_m", dtype::q6_k), more);
    EXPECT_EQ(layers_with(m, "ffn_down.weight", "q4_k_m", dtype::q6_k), more);
    EXPECT_EQ(type_of(m, "output.weight", "q4_k_m"), dtype::q6_k);
    EXPECT_EQ(type_of(m, "token_embd.weight", "q4_k_m"), dtype::q4_k);
    EXPECT_EQ(type_of(m, "blk.5.attn_v.weight", "q4_k_m"), dtype::q4_k);
    EXPECT_EQ(type_of(m, "blk.0.attn_norm.weight", "q4_k_m"), dtype::f32);
    // Tensor counts: 65 f32 (2 norms x 32 + output_norm), 33 q6_K (16 + 16 + output), 193 q4_K, as
    // llama.cpp reports when loading llama-2-7b.Q4_K_M.gguf.
    EXPECT_EQ(census(m, "q4_k_m"), (counts{
                                       {dtype::f32,  65 },
                                       {dtype::q4_k, 193},
                                       {dtype::q6_k, 33 }
    }));
    // Q5_K_M uses the same layers for Q6_K; Q4_K_S gives Q5_K to the first 4 attn_v and ffn_down
    // (i < n/8 = 4); Q3_K_M gives Q5_K to the first 2 attn_v and the first 2 ffn_down (n/16 = 2).
    EXPECT_EQ(layers_with(m, "attn_v.weight", "q5_k_m", dtype::q6_k), more);
    EXPECT_EQ(layers_with(m, "attn_v.weight", "q4_k_s", dtype::q5_k), (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(layers_with(m, "ffn_down.weight", "q4_k_s", dtype::q5_k), (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(layers_with(m, "attn_v.weight", "q3_k_m", dtype::q5_k), (std::vector<int>{0, 1}));
    EXPECT_EQ(layers_with(m, "ffn_down.weight", "q3_k_m", dtype::q5_k), (std::vector<int>{0, 1}));
    EXPECT_EQ(type_of(m, "blk.7.attn_output.weight", "q3_k_m"), dtype::q4_k);
    // Without the tensor list (config-only model) the counters come from the layers: same answer.
    model_desc bare = m;
    bare.tensors.clear();
    for (const auto& t : m.tensors)
        EXPECT_EQ(gguf_recipe_type(bare, t, ftype("q4_k_m")), gguf_recipe_type(m, t, ftype("q4_k_m"))) << t.name;
}

// Qwen2.5-7B (hidden 3584 = 14 x 256, 28 layers, 28 / 4 heads, untied): llama.cpp's loader census of
// qwen2.5-7b-instruct-q4_k_m.gguf prints "f32: 141, q4_K: 169, q6_K: 29 tensors" (a load log quoted in
// many llama.cpp issues). use_more_bits(i, 28) holds for 14 layers; 141 = 28 x (2 norms + 3 biases) + 1.
TEST(gguf_recipe, q4_k_m_on_qwen25_7b_matches_published_census) {
    dense_spec s;
    s.arch = "qwen2", s.n_embd = 3584, s.n_ff = 18944, s.n_vocab = 152064, s.n_layer = 28, s.n_head = 28;
    s.n_head_kv = 4, s.qkv_bias = true;
    const auto m = make_dense(s);
    std::map<dtype, int> n;
    for (const auto& t : m.tensors)
        ++n[gguf_recipe_type(m, t, ftype("q4_k_m"))];
    EXPECT_EQ(n, (std::map<dtype, int>{
                     {dtype::f32,  141},
                     {dtype::q4_k, 169},
                     {dtype::q6_k, 29 }
    }));
}

// Qwen2.5-0.5B shape: n_embd 896 = 3.5 x 256, so every matrix reading n_embd falls back to a 32-block
// type (llama_tensor_get_type): Q4_K -> Q5_0, Q6_K -> Q8_0, Q2_K / Q3_K / IQ4_XS -> IQ4_NL.
dense_spec qwen05b() {
    dense_spec s;
    s.arch = "qwen2", s.n_embd = 896, s.n_ff = 4864, s.n_vocab = 151936, s.n_layer = 24, s.n_head = 14, s.n_head_kv = 2,
    s.tied = true, s.qkv_bias = true;
    return s;
}

TEST(gguf_recipe, rows_not_divisible_by_256_fall_back) {
    const auto m = make_dense(qwen05b());
    // tied token_embd takes the output rule: 896 % 256 != 0 -> Q8_0 for every k-quant and Q4_0
    for (auto ft : {"q4_k_m", "q4_0", "q6_k", "q2_k", "iq4_xs"})
        EXPECT_EQ(type_of(m, "token_embd.weight", ft), dtype::q8_0) << ft;
    EXPECT_EQ(type_of(m, "blk.4.attn_q.weight", "q4_k_m"), dtype::q5_0);
    EXPECT_EQ(type_of(m, "blk.4.ffn_up.weight", "q4_k_m"), dtype::q5_0);
    EXPECT_EQ(type_of(m, "blk.0.attn_v.weight", "q4_k_m"), dtype::q8_0);   // Q6_K layer -> Q8_0
    EXPECT_EQ(type_of(m, "blk.4.ffn_down.weight", "q4_k_m"), dtype::q4_k); // row 4864 = 19 x 256
    EXPECT_EQ(type_of(m, "blk.0.ffn_down.weight", "q4_k_m"), dtype::q6_k);
    EXPECT_EQ(type_of(m, "blk.4.attn_q.weight", "q5_k_s"), dtype::q5_1);
    EXPECT_EQ(type_of(m, "blk.4.attn_q.weight", "q2_k"), dtype::iq4_nl);
    EXPECT_EQ(type_of(m, "blk.4.attn_q.weight", "q6_k"), dtype::q8_0);
    EXPECT_EQ(type_of(m, "blk.4.attn_q.weight", "iq4_xs"), dtype::iq4_nl);
    EXPECT_EQ(type_of(m, "blk.4.attn_q.weight", "q4_0"), dtype::q4_0); // 896 = 28 x 32
    EXPECT_EQ(type_of(m, "blk.4.attn_q.bias", "q4_k_m"), dtype::f32);
    // n_layer 24: use_more_bits -> 0..2, 21..23 and (i - 3) % 3 == 2 -> 5, 8, 11, 14, 17, 20
    const std::vector<int> more{0, 1, 2, 5, 8, 11, 14, 17, 20, 21, 22, 23};
    EXPECT_EQ(layers_with(m, "ffn_down.weight", "q4_k_m", dtype::q6_k), more);
    // attn_v: the same layers (the q/k/v biases do not count), Q6_K falling back to Q8_0
    EXPECT_EQ(layers_with(m, "attn_v.weight", "q4_k_m", dtype::q8_0), more);
    // gqa 14 / 2 = 7 >= 4: Q2_K gives attn_v Q4_K, which falls back to Q5_0 on 896-wide rows
    EXPECT_EQ(type_of(m, "blk.9.attn_v.weight", "q2_k"), dtype::q5_0);
}

// Loader censuses of real Qwen2.5-0.5B files quoted in llama.cpp issue logs: Qwen's own Q4_K_M (untied
// output, 462.96 MiB) "f32 121, q5_0 133, q8_0 13, q4_K 12, q6_K 12" and a tied Q5_K_M "f32 121,
// q5_1 132, q8_0 13, q5_K 12, q6_K 12". Untied token_embd is Q4_K -> Q5_0; tied it is the output (Q8_0).
TEST(gguf_recipe, qwen25_05b_matches_published_censuses) {
    auto s = qwen05b();
    s.tied = false;
    // clang-format off
    EXPECT_EQ(census(make_dense(s), "q4_k_m"), (counts{{dtype::f32, 121}, {dtype::q5_0, 133}, {dtype::q8_0, 13},
                                                       {dtype::q4_k, 12}, {dtype::q6_k, 12}}));
    EXPECT_EQ(census(make_dense(qwen05b()), "q5_k_m"), (counts{{dtype::f32, 121}, {dtype::q5_1, 132},
                                                       {dtype::q8_0, 13}, {dtype::q5_k, 12}, {dtype::q6_k, 12}}));
    // clang-format on
}

// Llama-3-8B shape (32 heads, 8 KV heads: n_gqa = 4) and the GQA rules.
TEST(gguf_recipe, grouped_kv_heads_give_attn_v_more_bits) {
    auto s      = llama7b();
    s.n_head_kv = 8, s.n_ff = 14336, s.n_vocab = 128256;
    const auto m = make_dense(s);
    EXPECT_EQ(type_of(m, "blk.9.attn_v.weight", "q2_k"), dtype::q4_k);    // Q3_K without GQA
    EXPECT_EQ(type_of(m, "blk.9.attn_v.weight", "iq4_xs"), dtype::q5_k);  // n_gqa >= 4
    EXPECT_EQ(type_of(m, "blk.9.attn_v.weight", "iq3_xxs"), dtype::q4_k); // n_gqa >= 4
    EXPECT_EQ(type_of(m, "blk.9.attn_v.weight", "iq2_xxs"), dtype::q4_k);
    EXPECT_EQ(type_of(m, "blk.9.ffn_down.weight", "q2_k"), dtype::q3_k);
    EXPECT_EQ(type_of(m, "blk.9.attn_output.weight", "q2_k"), dtype::q3_k);
    // IQ1/IQ2 mixtures: untied token_embd Q2_K / IQ3_S, output Q5_K, first n/8 ffn_down Q2_K / IQ3_S
    EXPECT_EQ(type_of(m, "token_embd.weight", "iq2_xxs"), dtype::q2_k);
    EXPECT_EQ(type_of(m, "token_embd.weight", "iq2_m"), dtype::iq3_s);
    EXPECT_EQ(type_of(m, "output.weight", "iq1_s"), dtype::q5_k);
    EXPECT_EQ(type_of(m, "blk.3.ffn_down.weight", "iq2_xxs"), dtype::q2_k);
    EXPECT_EQ(type_of(m, "blk.4.ffn_down.weight", "iq2_xxs"), dtype::iq2_xxs);
    EXPECT_EQ(type_of(m, "blk.4.attn_output.weight", "iq1_m"), dtype::iq2_xxs);
    EXPECT_EQ(type_of(m, "output.weight", "q8_0"), dtype::q8_0); // Q8_0 output stays Q8_0
    EXPECT_EQ(type_of(m, "output.weight", "q4_0"), dtype::q6_k);
}

// Phi-3-medium (40 layers, 5120 wide, fused attn_qkv and fused gate+up in ffn_up): a Q4_K_M loader
// census in a llama.cpp issue log reads "f32 81, q4_K 101, q5_K 40, q6_K 21". attn_qkv has its own
// rule (Q4_K_M -> Q5_K, all 40); ffn_down takes Q6_K on use_more_bits(i, 40): 5 + 5 + 10 layers.
TEST(gguf_recipe, fused_qkv_phi3_medium_census) {
    model_desc m;
    m.arch = m.gguf_arch = "phi3", m.n_layer = 40, m.fused_qkv = true;
    add(m, "token_embd.weight", tensor_role::token_embd, -1, {32064, 5120});
    add(m, "output_norm.weight", tensor_role::output_norm, -1, {5120});
    add(m, "output.weight", tensor_role::output, -1, {32064, 5120});
    for (int i = 0; i < 40; ++i) {
        layer_desc l;
        l.n_head = 40, l.n_head_kv = 10, l.n_ff = 17920;
        m.layers.push_back(l);
        const auto bn = "blk." + std::to_string(i) + ".";
        add(m, bn + "attn_norm.weight", tensor_role::attn_norm, i, {5120});
        add(m, bn + "attn_qkv.weight", tensor_role::attn_qkv, i, {5120 + 2 * 1280, 5120});
        add(m, bn + "attn_output.weight", tensor_role::attn_output, i, {5120, 5120});
        add(m, bn + "ffn_norm.weight", tensor_role::ffn_norm, i, {5120});
        add(m, bn + "ffn_up.weight", tensor_role::ffn_up, i, {2 * 17920, 5120});
        add(m, bn + "ffn_down.weight", tensor_role::ffn_down, i, {5120, 17920});
    }
    EXPECT_EQ(census(m, "q4_k_m"), (counts{
                                       {dtype::f32,  81 },
                                       {dtype::q4_k, 101},
                                       {dtype::q5_k, 40 },
                                       {dtype::q6_k, 21 }
    }));
}

// Llama-3-70B shape: 80 layers with grouped KV is LLM_TYPE_70B, whose attn_v Q3_K / Q4_K become Q5_K.
TEST(gguf_recipe, llama_70b_attn_v_gets_q5_k) {
    auto s   = llama7b();
    s.n_embd = 8192, s.n_ff = 28672, s.n_layer = 80, s.n_head = 64, s.n_head_kv = 8;
    const auto m = make_dense(s);
    // use_more_bits(i, 80): n/8 = 10, so layer 12 ((12 - 10) % 3 == 2) gets Q6_K, layer 13 Q4_K -> Q5_K
    EXPECT_EQ(type_of(m, "blk.12.attn_v.weight", "q4_k_m"), dtype::q6_k);
    EXPECT_EQ(type_of(m, "blk.13.attn_v.weight", "q4_k_m"), dtype::q5_k);
    EXPECT_EQ(type_of(m, "blk.13.ffn_down.weight", "q4_k_m"), dtype::q4_k); // the 70B rule is attn_v only
    EXPECT_EQ(type_of(m, "blk.12.attn_v.weight", "q4_k_s"), dtype::q5_k);
}

// The same rule reached from Hugging Face configs: the catalog's Llama-3.1-70B (model_type llama) and
// Qwen2.5-72B (qwen2, 80 layers: LLM_TYPE_70B in load_hparams) convert to llama.cpp's LLAMA and QWEN2,
// so layer 13's attn_v goes Q4_K -> Q5_K; Llama-2-70B is grouped too (8 KV heads). A Mistral config
// converts to LLAMA; Qwen2.5-7B (28 layers) is not 70B.
TEST(gguf_recipe, seventy_b_rule_from_hf_configs) {
    for (const char* id : {"meta-llama/Llama-3.1-70B", "Qwen/Qwen2.5-72B", "meta-llama/Llama-2-70b-hf"}) {
        const auto m = test::catalog_model(id);
        EXPECT_FALSE(m.gguf_arch.empty()) << id;
        for (const auto& t : m.tensors)
            if (t.layer == 13 && t.role == tensor_role::attn_v && !t.is_bias)
                EXPECT_EQ(gguf_recipe_type(m, t, ftype("q4_k_m")), dtype::q5_k) << id;
    }
    EXPECT_EQ(test::catalog_model("meta-llama/Llama-3.1-70B").gguf_arch, "llama");
    EXPECT_EQ(test::catalog_model("Qwen/Qwen2.5-72B").gguf_arch, "qwen2");
    const auto small = test::catalog_model("Qwen/Qwen2.5-7B");
    for (const auto& t : small.tensors)
        if (t.layer == 13 && t.role == tensor_role::attn_v && !t.is_bias)
            EXPECT_EQ(gguf_recipe_type(small, t, ftype("q4_k_m")), dtype::q4_k);
}

// Mixtral-8x7B shape: 8 experts get Q8_0 attn_v / attn_k and Q5_K attn_output; expert FFN layers
// are read from the tensor's block, the router stays F32.
TEST(gguf_recipe, eight_expert_moe) {
    auto s         = llama7b();
    s.n_head_kv    = 8;
    auto m         = make_dense(s);
    m.moe.n_expert = 8, m.moe.n_expert_used = 2;
    std::erase_if(m.tensors, [](const tensor_desc& t) {
        return t.role == tensor_role::ffn_gate || t.role == tensor_role::ffn_up || t.role == tensor_role::ffn_down;
    });
    for (int i = 0; i < 32; ++i) {
        const auto bn = "blk." + std::to_string(i) + ".";
        add(m, bn + "ffn_gate_inp.weight", tensor_role::ffn_gate_inp, i, {8, 4096});
        add(m, bn + "ffn_gate_exps.weight", tensor_role::ffn_gate_exps, i, {8, 14336, 4096});
        add(m, bn + "ffn_up_exps.weight", tensor_role::ffn_up_exps, i, {8, 14336, 4096});
        add(m, bn + "ffn_down_exps.weight", tensor_role::ffn_down_exps, i, {8, 4096, 14336});
    }
    EXPECT_EQ(type_of(m, "blk.5.attn_v.weight", "q4_k_m"), dtype::q8_0);
    EXPECT_EQ(type_of(m, "blk.5.attn_k.weight", "q4_k_m"), dtype::q8_0);
    EXPECT_EQ(type_of(m, "blk.5.attn_output.weight", "q4_k_m"), dtype::q5_k);
    EXPECT_EQ(type_of(m, "blk.5.ffn_down_exps.weight", "q4_k_m"), dtype::q4_k);
    EXPECT_EQ(type_of(m, "blk.6.ffn_down_exps.weight", "q4_k_m"), dtype::q6_k);
    EXPECT_EQ(type_of(m, "blk.6.ffn_gate_inp.weight", "q4_k_m"), dtype::f32);
    // MXFP4_MOE: 3-D expert tensors in MXFP4, other matrices and the output in Q8_0
    EXPECT_EQ(type_of(m, "blk.6.ffn_up_exps.weight", "mxfp4_moe"), dtype::mxfp4);
    EXPECT_EQ(type_of(m, "blk.6.attn_q.weight", "mxfp4_moe"), dtype::q8_0);
    EXPECT_EQ(type_of(m, "output.weight", "mxfp4_moe"), dtype::q8_0);
}

TEST(gguf_recipe, float_file_types_have_no_mixture) {
    const auto m = make_dense(qwen05b());
    EXPECT_EQ(type_of(m, "token_embd.weight", "f16"), dtype::f16);
    EXPECT_EQ(type_of(m, "blk.0.attn_v.weight", "bf16"), dtype::bf16);
    EXPECT_EQ(type_of(m, "blk.0.attn_v.weight", "f32"), dtype::f32);
    EXPECT_EQ(type_of(m, "blk.0.ffn_norm.weight", "f16"), dtype::f32);
}

TEST(gguf_recipe, ftype_names) {
    auto f = gguf_ftype_from_name("Q4_K_M");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->llama_ftype, 15); // LLAMA_FTYPE_MOSTLY_Q4_K_M
    EXPECT_EQ(f->base, dtype::q4_k);
    EXPECT_EQ(gguf_ftype_from_name("q4_k")->llama_ftype, 15); // llama-quantize alias
    EXPECT_EQ(gguf_ftype_from_name("IQ2_M")->base, dtype::iq2_s);
    EXPECT_EQ(gguf_ftype_from_name("bf16")->llama_ftype, 32);
    EXPECT_EQ(gguf_ftype_from_name("q8_0")->llama_ftype, 7);
    EXPECT_FALSE(gguf_ftype_from_name("q4_k_x"));
    EXPECT_FALSE(gguf_ftype_from_name(""));
    EXPECT_EQ(gguf_ftype_from_id(18)->name, "q6_k");
    EXPECT_FALSE(gguf_ftype_from_id(4)); // removed Q4_1_SOME_F16
    std::set<int> ids;
    for (const auto& row : gguf_ftypes()) {
        EXPECT_TRUE(ids.insert(row.llama_ftype).second) << row.name;
        EXPECT_EQ(gguf_ftype_from_name(row.name)->llama_ftype, row.llama_ftype);
    }
    EXPECT_EQ(ids.size(), 38u);
}

// ik_llama.cpp's own types (its llama.h and block_iq*_k structs): IQ3_K is file type 139, ggml type
// 138, 110 bytes per 256 weights (f16 d + u16 extra + u16 scales_h + 8 scales_l + 64 qs + 32 qh).
TEST(gguf_recipe, ik_llama_types) {
    const auto f = gguf_ftype_from_name("IQ3_K");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->llama_ftype, 139);
    EXPECT_EQ(f->base, dtype::iq3_k);
    EXPECT_EQ(info(dtype::iq3_k).bytes_per_block, 110u);
    EXPECT_EQ(dtype_from_ggml_id(138), dtype::iq3_k);
    EXPECT_EQ(info(dtype::iq4_k).bytes_per_block, 144u); // 4.5 bits a weight
    EXPECT_EQ(gguf_ftype_from_id(140)->name, "iq4_k");
    // Qwen2.5-0.5B's 896-wide rows are not whole 256-blocks: IQ4_K falls back to IQ4_NL (32-blocks)
    const auto m = make_dense(qwen05b());
    EXPECT_EQ(type_of(m, "blk.0.attn_q.weight", "iq4_k"), dtype::iq4_nl);
}

} // namespace
} // namespace llmplan
