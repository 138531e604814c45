// State-space models and hybrids (Mamba, Mamba2, Jamba, Granite 4.0 H, Nemotron-H): layers read
// from their configs, parameters against the published counts, the constant per-sequence state as
// each engine stores it (hand-computed from the configs), and memory that never shrinks with context.
// Configs and sources: tests/data/models/README.md.
#include "llmplan/gguf.h"
#include "llmplan/hf_config.h"
#include "llmplan/inference.h"
#include "llmplan/load.h"
#include "llmplan/report.h"
#include "report/text_report.h"
#include "unit/gguf_writer.h"
#include "unit/hybrid_fixture.h"
#include "unit/infer_fixture.h"

#include <gtest/gtest.h>
#include <string>

namespace {

using namespace llmplan;
using test::kv_bytes;

model_desc load(const std::string& folder) {
    return test::load_test_model(folder);
}

std::int64_t total_bytes(const inference_estimate& e) {
    std::int64_t s = 0;
    for (const auto& d : e.devices)
        s += d.parts.total();
    return s;
}

// Parameters summed from the modules of each family's modeling code (tests/data/models/README.md has
// the hand sums), against what the publishers state:
//   Mamba-Codestral-7B-v0.1: 7,285,403,648 (the Hub's 7.29B); Jamba-v0.1: 51.6 B total, 12 B active
//   (AI21's "52B parameters, 12B active"); Nemotron-H-56B: "56B"; Nemotron-3-Nano-30B-A3B: "31.6B
//   total parameters, 3.6B active including embeddings" (model card); Granite-4.0-H-Small: "32B
//   total, 9B active" (IBM's model card).
TEST(state_space, parameters_match_published_counts) {
    struct row {
        const char* folder;
        std::uint64_t total, active;
        double published_total, published_active;
    };
    for (const auto& r : {
             row{"mistralai--Mamba-Codestral-7B-v0.1",          7'285'403'648,  7'285'403'648,  7.29e9, 7.29e9},
             row{"ai21labs--Jamba-v0.1",                        51'570'323'328, 12'110'311'296, 51.6e9, 12.0e9},
             row{"nvidia--Nemotron-H-56B-Base-8K",              56'324'350'464, 56'324'350'464, 56.0e9, 56.0e9},
             row{"nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", 31'577'940'288, 3'580'076'352,  31.6e9, 3.6e9 },
             row{"ibm-granite--granite-4.0-h-small",            32'207'337'984, 8'803'121'664,  32.0e9, 9.0e9 },
    }) {
        const auto c = count_params(load(r.folder));
        EXPECT_EQ(c.total, r.total) << r.folder;
        EXPECT_EQ(c.active, r.active) << r.folder;
        EXPECT_NEAR(static_cast<double>(c.total) / r.published_total, 1.0, 0.01) << r.folder;
        EXPECT_NEAR(static_cast<double>(c.active) / r.published_active, 1.0, 0.03) << r.folder;
    }
}

// Jamba (JambaConfig.layers_block_type / layers_num_experts): attention where i % 8 == 4, MoE where
// i % 2 == 1; Mamba1 mixers of d_inner 8192 with a 8192 x 16 state. Nemotron-H: one letter a layer.
TEST(state_space, layers_from_periods_and_patterns) {
    const auto jamba = load("ai21labs--Jamba-v0.1");
    for (std::uint32_t i = 0; i < jamba.n_layer; ++i) {
        const auto& l = jamba.layers[i];
        EXPECT_EQ(l.has_kv(), i % 8 == 4) << i;
        EXPECT_EQ(l.has_state(), i % 8 != 4) << i;
        EXPECT_EQ(l.is_moe, i % 2 == 1) << i;
        if (!l.has_state()) continue;
        EXPECT_EQ(l.recurrent.kind, layer_desc::recurrent_state::mixer::mamba1);
        EXPECT_EQ(l.recurrent.conv_channels, 8192u);
        EXPECT_EQ(l.recurrent.state_elems, 8192u * 16);
    }
    // "MEMEM*EMEMEM*..." : 23 Mamba2, 23 MoE, 6 attention layers; conv over 64 x 64 + 2 x 8 x 128 channels.
    const auto nano     = load("nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16");
    std::uint32_t mamba = 0, moe = 0, attn = 0;
    for (const auto& l : nano.layers) {
        mamba += l.has_state();
        moe += l.is_moe;
        attn += l.has_kv();
        EXPECT_LE(l.has_state() + l.is_moe + l.has_kv(), 1); // one mixer or MLP a layer
    }
    EXPECT_EQ(mamba, 23u);
    EXPECT_EQ(moe, 23u);
    EXPECT_EQ(attn, 6u);
    EXPECT_EQ(nano.layers[0].recurrent.conv_channels, 4096u + 2 * 8 * 128);
    EXPECT_TRUE(nano.layers[0].recurrent.vllm_ssm_f32);
}

// One mixer's state for one sequence, by hand:
//   Granite-4.0-H-Small (Mamba2: d_inner 8192, 1 group, d_state 128, 128 heads of 64, conv 4):
//     llama.cpp f32, 3 past inputs: (8448 x 3 + 8192 x 128) x 4 = 4,295,680;
//     vLLM bf16: (8448 x 3 + 1,048,576) x 2 = 2,147,840; TP 2 raises the one group to 2 (B and C
//       replicated with their heads): (8704 x 3 / 2 + 524,288) x 2 = 1,074,688;
//     transformers bf16, the whole kernel: (8448 x 4 + 1,048,576) x 2 = 2,164,736.
//   Jamba (Mamba1: d_inner 8192, d_state 16): llama.cpp (8192 x 3 + 131,072) x 4 = 622,592; vLLM
//     (24,576 + 131,072) x 2 = 311,296; transformers (32,768 + 131,072) x 2 = 327,680.
//   Nemotron-3-Nano: vLLM keeps NemotronH's SSM state in f32: 6144 x 3 x 2 + 524,288 x 4 = 2,134,016.
TEST(state_space, state_bytes_per_engine) {
    const auto granite = load("ibm-granite--granite-4.0-h-small");
    const auto& g      = granite.layers[0];
    ASSERT_TRUE(g.has_state());
    EXPECT_EQ(state_layer_bytes(g, engine_kind::llama_cpp, dtype::f16), 4'295'680u);
    EXPECT_EQ(state_layer_bytes(g, engine_kind::vllm, dtype::bf16), 2'147'840u);
    EXPECT_EQ(state_layer_bytes(g, engine_kind::vllm, dtype::bf16, 2), 1'074'688u);
    EXPECT_EQ(state_layer_bytes(g, engine_kind::transformers, dtype::bf16), 2'164'736u);
    const auto jamba = load("ai21labs--Jamba-v0.1");
    EXPECT_EQ(state_layer_bytes(jamba.layers[0], engine_kind::llama_cpp, dtype::f16), 622'592u);
    EXPECT_EQ(state_layer_bytes(jamba.layers[0], engine_kind::vllm, dtype::bf16), 311'296u);
    EXPECT_EQ(state_layer_bytes(jamba.layers[0], engine_kind::transformers, dtype::bf16), 327'680u);
    const auto nano = load("nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16");
    EXPECT_EQ(state_layer_bytes(nano.layers[0], engine_kind::vllm, dtype::bf16), 2'134'016u);
}

// llama.cpp, Granite-4.0-H-Small at 8192 tokens: 4 attention layers x 8192 cells x (8 x 128) x 2 x 2
// bytes = 134,217,728 of KV plus 36 x 4,295,680 = 154,644,480 of state; doubling the context adds
// exactly the KV of the new tokens and leaves the state as it is.
TEST(state_space, state_constant_in_context_kv_only_for_attention_layers) {
    const auto m = load("ibm-granite--granite-4.0-h-small");
    auto p       = test::infer_params(engine_kind::llama_cpp, "q4_k_m", 8192);
    auto a       = estimate_inference(m, p);
    ASSERT_TRUE(a.has_value()) << a.error().what();
    EXPECT_EQ(a->kv_bytes_per_token, 4u * 2 * 8 * 128 * 2);
    EXPECT_EQ(a->state_bytes_per_sequence, 154'644'480u);
    EXPECT_EQ(kv_bytes(*a), 134'217'728u + 154'644'480u);
    p.ctx  = 16384;
    auto b = estimate_inference(m, p);
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ(b->state_bytes_per_sequence, a->state_bytes_per_sequence);
    EXPECT_EQ(kv_bytes(*b) - kv_bytes(*a), 8192u * a->kv_bytes_per_token);
    // vLLM and transformers: 36 x the per-layer figures above.
    p.engine  = engine_kind::vllm;
    p.weights = {};
    auto v    = estimate_inference(m, p);
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(v->state_bytes_per_sequence, 36u * 2'147'840);
    p.engine = engine_kind::transformers;
    auto t   = estimate_inference(m, p);
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->state_bytes_per_sequence, 36u * 2'164'736);
}

// More context never needs less memory, on every engine, for every state-space model here.
TEST(state_space, more_context_never_needs_less_memory) {
    for (const char* folder : {"mistralai--Mamba-Codestral-7B-v0.1", "ai21labs--Jamba-v0.1",
                               "nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "ibm-granite--granite-4.0-h-small"}) {
        const auto m = load(folder);
        for (auto engine : {engine_kind::llama_cpp, engine_kind::vllm, engine_kind::transformers}) {
            std::int64_t last = 0;
            for (std::uint64_t ctx = 512; ctx <= 131072; ctx *= 2) {
                inference_params p;
                p.engine = engine;
                p.ctx    = ctx;
                auto e   = estimate_inference(m, p);
                ASSERT_TRUE(e.has_value()) << folder << " " << e.error().what();
                EXPECT_GE(total_bytes(*e), last) << folder << " engine " << static_cast<int>(engine) << " ctx " << ctx;
                last = total_bytes(*e);
            }
        }
    }
}

// A model without attention (Mamba2): no KV per token; vLLM starts at any context once the states fit.
TEST(state_space, pure_mamba_has_no_kv_and_vllm_starts) {
    const auto m = load("mistralai--Mamba-Codestral-7B-v0.1");
    inference_params p;
    p.engine              = engine_kind::vllm;
    p.ctx                 = 32768;
    p.device_memory_bytes = 24ull << 30;
    auto e                = estimate_inference(m, p);
    ASSERT_TRUE(e.has_value()) << e.error().what();
    EXPECT_EQ(e->kv_bytes_per_token, 0u);
    // 64 layers x ((10240 x 3) x 2 + 1,048,576 x 2) bytes in bf16.
    EXPECT_EQ(e->state_bytes_per_sequence, 64u * (10240 * 3 * 2 + 1'048'576 * 2));
    EXPECT_GE(e->vllm_kv_capacity_tokens, p.ctx);
    for (const auto& n : e->notes)
        EXPECT_EQ(n.find("refuse"), std::string::npos) << n;
}

// The reports name the state: estimate text and JSON, inspect text and JSON.
TEST(state_space, reports_name_the_state) {
    const auto m = load("ibm-granite--granite-4.0-h-small");
    inference_params p;
    p.engine = engine_kind::vllm;
    auto e   = estimate_inference(m, p);
    ASSERT_TRUE(e.has_value());
    const auto text = inference_to_text(m, p, *e);
    EXPECT_NE(text.find("per sequence (recurrent state"), std::string::npos) << text;
    EXPECT_EQ(inference_to_json(m, p, *e)["state_bytes_per_sequence"], 36u * 2'147'840);
    EXPECT_NE(model_to_text(m).find("36 of 40 layers are mamba2 mixers"), std::string::npos);
    const auto j = model_to_json(m);
    EXPECT_EQ(j["n_state_layers"], 36);
    EXPECT_EQ(j["recurrent_state"]["mixer"], "mamba2");
}

// Python's json.dumps writes Infinity bare (Mamba2 configs' time_step_limit); strings stay as written.
// Bad layouts name the field.
TEST(state_space, nonfinite_numbers_and_bad_configs) {
    const std::string base = R"({"model_type": "nemotron_h", "hidden_size": 64, "num_hidden_layers": 4,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 128,
        "vocab_size": 256, "mamba_num_heads": 4, "mamba_head_dim": 16, "n_groups": 2, "ssm_state_size": 8,
        "conv_kernel": 4, "time_step_limit": [0.0, Infinity], "name": "NaN Infinity",
        "hybrid_override_pattern": "M*-M"})";
    auto m                 = parse_hf_config(base, "t.json");
    ASSERT_TRUE(m.has_value()) << m.error().what();
    EXPECT_TRUE(m->layers[1].has_kv());
    EXPECT_EQ(m->layers[2].n_ff, 128u);
    EXPECT_EQ(m->layers[3].recurrent.conv_channels, 64u + 2 * 2 * 8);
    auto with = [&](const std::string& from, const std::string& to) {
        auto s = base;
        s.replace(s.find(from), from.size(), to);
        return parse_hf_config(s, "t.json");
    };
    auto short_pattern = with("\"M*-M\"", "\"M*-\"");
    ASSERT_FALSE(short_pattern.has_value());
    EXPECT_NE(short_pattern.error().what().find("hybrid_override_pattern"), std::string::npos);
    auto bad_letter = with("\"M*-M\"", "\"M*-X\"");
    ASSERT_FALSE(bad_letter.has_value());
    EXPECT_NE(bad_letter.error().what().find("'X' at layer 3"), std::string::npos) << bad_letter.error().what();
    auto bad_groups = with("\"n_groups\": 2", "\"n_groups\": 3");
    ASSERT_FALSE(bad_groups.has_value());
    EXPECT_NE(bad_groups.error().what().find("/n_groups"), std::string::npos);
    auto moe_without_experts = with("\"M*-M\"", "\"M*-E\"");
    EXPECT_FALSE(moe_without_experts.has_value());
    const std::string granite = R"({"model_type": "granitemoehybrid", "hidden_size": 64, "num_hidden_layers": 2,
        "num_attention_heads": 4, "vocab_size": 256, "num_local_experts": 0, "shared_intermediate_size": 96,
        "mamba_n_heads": 8, "mamba_d_state": 16, "layer_types": ["mamba", "linear"]})";
    auto g                    = parse_hf_config(granite, "g.json");
    ASSERT_FALSE(g.has_value());
    EXPECT_NE(g.error().what().find("/layer_types/1"), std::string::npos) << g.error().what();
}

// Falcon-H1 (FalconH1DecoderLayer): attention and a Mamba2 mixer side by side in every layer, then
// an MLP; both a KV row and a state per layer. mamba_d_ssm sets the inner width (48 heads of 64).
TEST(state_space, falcon_h1_runs_attention_beside_the_mixer) {
    const std::string cfg = R"({"model_type": "falcon_h1", "hidden_size": 2048, "num_hidden_layers": 2,
        "num_attention_heads": 8, "num_key_value_heads": 2, "head_dim": 128, "intermediate_size": 4608,
        "vocab_size": 65537, "mamba_d_state": 256, "mamba_d_conv": 4, "mamba_n_groups": 1,
        "mamba_n_heads": 48, "mamba_d_head": 64, "mamba_d_ssm": 3072})";
    auto m                = parse_hf_config(cfg, "f.json");
    ASSERT_TRUE(m.has_value()) << m.error().what();
    for (const auto& l : m->layers) {
        EXPECT_TRUE(l.has_kv());
        EXPECT_TRUE(l.has_state());
        EXPECT_EQ(l.n_ff, 4608u);
        EXPECT_EQ(l.recurrent.conv_channels, 3072u + 2 * 256);
        EXPECT_EQ(l.recurrent.state_elems, 3072u * 256);
    }
}

// A GGUF (llama.cpp's granitehybrid layout): the blocks with an ssm_conv1d tensor are recurrent,
// sized from the ssm.* keys as llama.cpp sizes its cells: (4 - 1) x (128 + 2 x 1 x 16) conv values and
// 16 x 128 state values in f32 = 10,112 bytes a sequence; head_count_kv 0 marks them KV-free.
test::gguf_spec granite_hybrid_spec() {
    using namespace llmplan::test;
    gguf_spec s;
    s.kvs     = model_kvs("granitehybrid", 2, 64, v_u32(128), 4,
                          {
                              {"attention.head_count_kv", v_u32_array({0, 2})},
                              {"ssm.conv_kernel",         v_u32(4)           },
                              {"ssm.inner_size",          v_u32(128)         },
                              {"ssm.state_size",          v_u32(16)          },
                              {"ssm.group_count",         v_u32(1)           },
                              {"ssm.time_step_rank",      v_u32(8)           }
    });
    s.tensors = {
        {"token_embd.weight",       {64, 100}},
        {"blk.0.ssm_conv1d.weight", {4, 160} },
        {"blk.0.ssm_a",             {8}      },
        {"blk.1.attn_k.weight",     {64, 32} },
    };
    return s;
}

TEST(state_space, gguf_recurrent_layers_from_ssm_keys) {
    auto f = read_gguf(build(granite_hybrid_spec()), "h.gguf");
    ASSERT_TRUE(f.has_value()) << f.error().what();
    auto m = model_from_gguf(*f, "h.gguf");
    ASSERT_TRUE(m.has_value()) << m.error().what();
    ASSERT_TRUE(m->layers[0].has_state());
    EXPECT_FALSE(m->layers[0].has_kv());
    EXPECT_EQ(m->layers[0].recurrent.kind, layer_desc::recurrent_state::mixer::mamba2);
    EXPECT_EQ(m->layers[0].recurrent.conv_channels, 160u);
    EXPECT_EQ(state_layer_bytes(m->layers[0], engine_kind::llama_cpp, dtype::f16), 10'112u);
    EXPECT_TRUE(m->layers[1].has_kv());
    EXPECT_FALSE(m->layers[1].has_state());
}

// The same file without ssm.state_size: its state cannot be sized, so the read fails naming the key
// instead of counting the state as 0 bytes (an under-estimate).
TEST(state_space, gguf_without_ssm_sizes_is_refused_by_name) {
    auto s = granite_hybrid_spec();
    std::erase_if(s.kvs, [](const test::kv_spec& kv) { return kv.key == "granitehybrid.ssm.state_size"; });
    auto f = read_gguf(build(s), "h.gguf");
    ASSERT_TRUE(f.has_value()) << f.error().what();
    auto m = model_from_gguf(*f, "h.gguf");
    ASSERT_FALSE(m.has_value());
    EXPECT_NE(std::string(m.error().what()).find("granitehybrid.ssm.state_size"), std::string::npos)
        << m.error().what();
}

} // namespace
