// GGUF reader on the real fixtures (tests/data/gguf), split files, and the mapping to model_desc.
#include "llmplan/gguf.h"
#include "unit/gguf_writer.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace llmplan {
namespace {

using namespace llmplan::test;
namespace fs = std::filesystem;

const std::string gguf_dir = std::string(LLMPLAN_TEST_DATA) + "/gguf/";

std::vector<std::byte> slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> c((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> out(c.size());
    std::memcpy(out.data(), c.data(), c.size());
    return out;
}

void write_file(const fs::path& p, const std::vector<std::byte>& b) {
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// Expected values: tests/data/gguf/README.md (file table and "Architecture KVs" table);
// head_count_kv 0 = key absent (the spec's default is head_count).
struct fixture {
    const char* file;
    const char* arch;
    std::uint64_t n_kv, n_tensors, n_vocab, n_ctx, n_embd;
    std::uint32_t n_layer;
    std::uint64_t n_ff;
    std::uint32_t n_head, n_head_kv;
};
// clang-format off
const fixture fixtures[] = {
    {"ggml-vocab-baichuan.gguf",       "baichuan",   18, 0,  64000,  4096,  4096, 32, 11008, 32, 32},
    {"ggml-vocab-bert-bge.gguf",       "bert",       20, 0,  30522,  512,   384,  12, 1536,  12, 0},
    {"ggml-vocab-dbrx.gguf",           "dbrx",       25, 0,  100352, 32768, 6144, 40, 10752, 48, 8},
    {"ggml-vocab-deepseek-coder.gguf", "llama",      25, 0,  32256,  16384, 4096, 32, 11008, 32, 32},
    {"ggml-vocab-deepseek-llm.gguf",   "llama",      23, 0,  102400, 4096,  4096, 30, 11008, 32, 32},
    {"ggml-vocab-falcon.gguf",         "falcon",     18, 0,  65024,  2048,  4544, 32, 18176, 71, 1},
    {"ggml-vocab-gpt-2.gguf",          "gpt2",       16, 0,  50257,  1024,  768,  12, 3072,  12, 0},
    {"ggml-vocab-gpt-neox.gguf",       "gptneox",    17, 0,  50432,  2048,  6144, 44, 24576, 64, 0},
    {"ggml-vocab-llama-spm.gguf",      "llama",      22, 0,  32000,  4096,  4096, 32, 11008, 32, 32},
    {"ggml-vocab-llama.gguf",          "llama",      17, 0,  32000,  4096,  4096, 32, 11008, 32, 32},
    {"ggml-vocab-mpt.gguf",            "mpt",        17, 0,  50432,  2048,  4096, 32, 16384, 32, 0},
    {"ggml-vocab-phi-3.gguf",          "phi3",       26, 0,  32064,  4096,  3072, 32, 8192,  32, 32},
    {"ggml-vocab-refact.gguf",         "refact",     18, 0,  49216,  4096,  2048, 32, 5632,  32, 1},
    {"ggml-vocab-stablelm.gguf",       "stablelm",   16, 0,  50304,  4096,  2560, 32, 6912,  32, 0},
    {"ggml-vocab-starcoder.gguf",      "starcoder2", 19, 0,  49152,  16384, 3072, 30, 12288, 24, 2},
    {"llama-2-tiny-random.gguf",       "llama",      18, 12, 32000,  4096,  8,    1,  32,    2,  2},
};
// clang-format on

TEST(gguf, every_fixture_reads_and_maps) {
    ASSERT_EQ(std::size(fixtures), 16u);
    for (const auto& fx : fixtures) {
        SCOPED_TRACE(fx.file);
        const std::string path = gguf_dir + fx.file;
        auto f                 = read_gguf_file(path);
        ASSERT_TRUE(f.has_value()) << f.error().what();
        EXPECT_EQ(f->version, 3u);
        EXPECT_EQ(f->architecture(), fx.arch);
        EXPECT_EQ(f->n_kv, fx.n_kv);
        EXPECT_EQ(f->n_tensors, fx.n_tensors);
        EXPECT_EQ(f->file_size_bytes, fs::file_size(path));
        if (fx.n_tensors == 0) EXPECT_EQ(f->header_bytes, f->file_size_bytes); // README: header ends at EOF

        // The in-memory reader agrees with the progressive file reader.
        auto mem = read_gguf(slurp(path), path);
        ASSERT_TRUE(mem.has_value()) << mem.error().what();
        EXPECT_EQ(mem->kvs.size(), f->kvs.size());
        EXPECT_EQ(mem->header_bytes, f->header_bytes);

        auto m = model_from_gguf(*f, path);
        ASSERT_TRUE(m.has_value()) << m.error().what();
        EXPECT_EQ(m->arch, fx.arch);
        EXPECT_EQ(m->n_vocab, fx.n_vocab);
        EXPECT_EQ(m->n_ctx_train, fx.n_ctx);
        EXPECT_EQ(m->n_embd, fx.n_embd);
        EXPECT_EQ(m->n_layer, fx.n_layer);
        ASSERT_EQ(m->layers.size(), fx.n_layer);
        const auto& l = m->layers.front();
        // MoE layers have no dense FFN; feed_forward_length is then the expert width (dbrx).
        EXPECT_EQ(m->is_moe() ? m->moe.n_ff_expert : l.n_ff, fx.n_ff);
        EXPECT_EQ(l.n_head, fx.n_head);
        EXPECT_EQ(l.n_head_kv, fx.n_head_kv == 0 ? fx.n_head : fx.n_head_kv);
        EXPECT_EQ(l.head_dim_k, fx.n_embd / fx.n_head); // no key_length in these files: the fallback
        EXPECT_TRUE(m->from_gguf);
        EXPECT_EQ(m->file_bytes, fs::file_size(path));
        EXPECT_EQ(m->source, fx.n_tensors > 0 ? weights_source::tensors : weights_source::formula);
        EXPECT_EQ(m->tensors.size(), fx.n_tensors);
    }
}

TEST(gguf, dbrx_repeats_file_type_with_the_same_value) {
    // ggml-vocab-dbrx.gguf declares 25 KVs; general.file_type appears twice with value 1.
    auto f = read_gguf_file(gguf_dir + "ggml-vocab-dbrx.gguf");
    ASSERT_TRUE(f.has_value()) << f.error().what();
    EXPECT_EQ(f->kvs.size(), 24u);
    EXPECT_EQ(f->warnings.size(), 1u);
    EXPECT_EQ(f->file_type, 1u);
    auto m = model_from_gguf(*f, "dbrx");
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->moe.n_expert, 16u); // README: expert_count/used 16/4
    EXPECT_EQ(m->moe.n_expert_used, 4u);
    EXPECT_EQ(m->moe.n_ff_expert, 10752u); // no expert_feed_forward_length: feed_forward_length
    EXPECT_EQ(m->ffn, ffn_kind::moe);
    EXPECT_TRUE(m->layers[0].is_moe);
    EXPECT_EQ(m->layers[0].attn, attn_kind::gqa); // 48 heads, 8 KV heads
}

TEST(gguf, vocab_only_architecture_facts) {
    auto load = [](const char* file) {
        auto f = read_gguf_file(gguf_dir + file);
        EXPECT_TRUE(f.has_value());
        return model_from_gguf(*f, file).value();
    };
    const auto falcon = load("ggml-vocab-falcon.gguf");
    EXPECT_EQ(falcon.layers[0].attn, attn_kind::mqa); // head_count_kv 1
    EXPECT_EQ(falcon.norm, norm_kind::layer);         // layer_norm_epsilon, no rms epsilon
    EXPECT_EQ(falcon.gguf_ftype_main, dtype::f16);    // general.file_type 1 = MOSTLY_F16
    const auto mpt = load("ggml-vocab-mpt.gguf");
    EXPECT_EQ(mpt.pos, pos_kind::alibi); // mpt.attention.max_alibi_bias
    const auto bert = load("ggml-vocab-bert-bge.gguf");
    EXPECT_TRUE(bert.is_encoder); // bert.attention.causal = false
    EXPECT_EQ(bert.pos, pos_kind::learned);
    EXPECT_EQ(bert.n_pos_embd, 512u);
    const auto neox = load("ggml-vocab-gpt-neox.gguf");
    EXPECT_EQ(neox.rope_dim, 24u); // rope.dimension_count 24 of head_dim 6144 / 64 = 96
    EXPECT_EQ(neox.layers[0].attn, attn_kind::mha);
}

TEST(gguf, llama_2_tiny_random) {
    const std::string path = gguf_dir + "llama-2-tiny-random.gguf";
    auto f                 = read_gguf_file(path);
    ASSERT_TRUE(f.has_value()) << f.error().what();
    ASSERT_EQ(f->tensors.size(), 12u);
    EXPECT_TRUE(f->data_checked);
    EXPECT_EQ(f->data_end, f->file_size_bytes); // README: data ends exactly at EOF
    EXPECT_EQ(f->data_offset, 724416u);         // header ends at 724398; next multiple of 32
    auto m = model_from_gguf(*f, path);
    ASSERT_TRUE(m.has_value()) << m.error().what();
    EXPECT_EQ(m->id, "LLaMA v2");
    EXPECT_EQ(m->n_embd, 8u);
    EXPECT_EQ(m->n_layer, 1u);
    EXPECT_EQ(m->n_vocab, 32000u);
    EXPECT_EQ(m->layers[0].head_dim_k, 4u); // 8 / 2 heads
    EXPECT_EQ(m->layers[0].attn, attn_kind::mha);
    EXPECT_EQ(m->rope_dim, 0u); // rope.dimension_count 4 = the whole head
    EXPECT_FALSE(m->tied_embd);
    EXPECT_EQ(m->ffn, ffn_kind::gated);
    EXPECT_EQ(m->gguf_ftype_main, dtype::f16);
    // f16 token_embd and output 8 x 32000 x 2 = 512000 each; q/k/v/o 8 x 8 x 2 = 128 each;
    // gate/up/down 8 x 32 x 2 = 512 each; three f32 norms 8 x 4 = 32 each.
    const std::uint64_t expected = 2 * 512000 + 4 * 128 + 3 * 512 + 3 * 32;
    EXPECT_EQ(weights_bytes(*m), expected);
    std::uint64_t sum = 0;
    for (const auto& t : f->tensors)
        sum += t.desc.bytes;
    EXPECT_EQ(sum, expected);
    EXPECT_EQ(f->data_offset + 514144 + 512000, f->file_size_bytes); // output.weight is last, at 514144
    const auto& q = m->tensors[1];
    EXPECT_EQ(q.name, "blk.0.attn_q.weight");
    EXPECT_EQ(q.role, tensor_role::attn_q);
    EXPECT_EQ(q.layer, 0);
    EXPECT_EQ(m->tensors[0].role, tensor_role::token_embd);
    EXPECT_EQ(m->tensors[0].shape, (std::vector<std::uint64_t>{32000, 8}));
    EXPECT_EQ(m->tensors[7].shape, (std::vector<std::uint64_t>{8, 32})); // ffn_down: ne {32, 8}
    EXPECT_EQ(m->tensors[11].role, tensor_role::output);
    EXPECT_EQ(m->file_bytes, 1750560u);
}

TEST(gguf, file_errors) {
    auto missing = read_gguf_file(gguf_dir + "no-such-file.gguf");
    ASSERT_FALSE(missing.has_value());
    EXPECT_EQ(missing.error().code, error_code::file_not_found);
    auto dir = read_gguf_file(gguf_dir);
    ASSERT_FALSE(dir.has_value());
    EXPECT_EQ(dir.error().code, error_code::read_failed);
}

TEST(gguf, split_files_merge) {
    const fs::path dir = fs::temp_directory_path() / "llmplan_gguf_split_test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    auto base = tiny_llama_spec();
    auto p1   = base;
    p1.tensors.resize(4);
    auto p2 = gguf_spec{};
    p2.tensors.assign(base.tensors.begin() + 4, base.tensors.end());
    p1.kvs.push_back({"split.no", v_u16(0)});
    p1.kvs.push_back({"split.count", v_u16(2)});
    p1.kvs.push_back({"split.tensors.count", v_i32(8)});
    p2.kvs = {
        {"split.no",            v_u16(1)},
        {"split.count",         v_u16(2)},
        {"split.tensors.count", v_i32(8)}
    };
    const auto b1 = build(p1), b2 = build(p2);
    write_file(dir / "m-00001-of-00002.gguf", b1);

    auto missing = read_gguf_file((dir / "m-00001-of-00002.gguf").string());
    ASSERT_FALSE(missing.has_value());
    EXPECT_EQ(missing.error().code, error_code::file_not_found);
    EXPECT_NE(missing.error().what().find("m-00002-of-00002.gguf"), std::string::npos) << missing.error().what();

    write_file(dir / "m-00002-of-00002.gguf", b2);
    for (const char* given : {"m-00001-of-00002.gguf", "m-00002-of-00002.gguf"}) {
        auto f = read_gguf_file((dir / given).string());
        ASSERT_TRUE(f.has_value()) << f.error().what();
        EXPECT_EQ(f->n_tensors, 8u);
        ASSERT_EQ(f->tensors.size(), 8u);
        ASSERT_EQ(f->parts.size(), 2u);
        EXPECT_EQ(f->tensors[4].part, 1u);
        EXPECT_EQ(f->total_file_bytes(), b1.size() + b2.size());
        auto m = model_from_gguf(*f, given);
        ASSERT_TRUE(m.has_value()) << m.error().what();
        EXPECT_EQ(m->file_bytes, b1.size() + b2.size());
        EXPECT_EQ(m->tensors.size(), 8u);
    }
    fs::remove_all(dir);
}

TEST(gguf, model_mapping_from_tiny_spec) {
    auto f = read_gguf(build(tiny_llama_spec()), "tiny.gguf");
    ASSERT_TRUE(f.has_value()) << f.error().what();
    auto m = model_from_gguf(*f, "tiny.gguf");
    ASSERT_TRUE(m.has_value()) << m.error().what();
    EXPECT_EQ(m->id, "tiny");
    EXPECT_EQ(m->layers[1].attn, attn_kind::gqa); // 4 heads, 2 KV heads
    EXPECT_EQ(m->layers[1].head_dim_k, 16u);      // 64 / 4
    // Matrices by bytes: f16 12800 (embd) + 8192 + 4096 + 8192 + 12800 (output) vs q8_0 8704.
    EXPECT_EQ(m->gguf_ftype_main, dtype::f16);
    EXPECT_EQ(m->weights_type_name(), "f16"); // general.file_type 1 = LLAMA_FTYPE_MOSTLY_F16
    EXPECT_EQ(m->tensors[5].role, tensor_role::ffn_down);
    EXPECT_EQ(m->tensors[5].layer, 1);
}

TEST(gguf, weights_type_names_the_file_type_not_the_compute_dtype) {
    // A file written as Q4_K_M (general.file_type 15, include/llama.h) computes in f16 but is shown
    // as q4_k_m; without general.file_type, the dominant matrix type (all matrices q8_0 here).
    auto spec = tiny_llama_spec();
    for (auto& kv : spec.kvs)
        if (kv.key == "general.file_type") kv.val = v_u32(15);
    auto f = read_gguf(build(spec), "tiny.gguf");
    ASSERT_TRUE(f.has_value()) << f.error().what();
    EXPECT_EQ(model_from_gguf(*f, "tiny.gguf")->weights_type_name(), "q4_k_m");

    spec = tiny_llama_spec();
    std::erase_if(spec.kvs, [](const kv_spec& kv) { return kv.key == "general.file_type"; });
    for (auto& t : spec.tensors)
        if (t.ne.size() == 2) t.type = 8; // GGML_TYPE_Q8_0
    f = read_gguf(build(spec), "tiny.gguf");
    ASSERT_TRUE(f.has_value()) << f.error().what();
    auto m = model_from_gguf(*f, "tiny.gguf");
    EXPECT_EQ(m->weights_type_name(), "q8_0");
    EXPECT_EQ(m->torch_dtype, dtype::f16); // llama.cpp computes in f16/f32 whatever the storage
}

TEST(gguf, per_layer_arrays_swa_and_moe) {
    gguf_spec s;
    const auto ff = v_u32_array({512, 512, 1024, 1024}); // per layer
    s.kvs         = model_kvs("gemma2", 4, 256, ff, 8,
                              {
                                  {"attention.head_count_kv",  v_u32_array({8, 4, 1, 0})},
                                  {"attention.key_length",     v_u32(64)                },
                                  {"attention.value_length",   v_u32(48)                },
                                  {"attention.sliding_window", v_u32(4096)              }
    });
    auto f        = read_gguf(build(s), "g.gguf");
    ASSERT_TRUE(f.has_value());
    auto m = model_from_gguf(*f, "dir/g.gguf");
    ASSERT_TRUE(m.has_value()) << m.error().what();
    EXPECT_EQ(m->id, "g.gguf"); // no general.name: the file name
    EXPECT_EQ(m->layers[0].attn, attn_kind::mha);
    EXPECT_EQ(m->layers[1].attn, attn_kind::gqa);
    EXPECT_EQ(m->layers[2].attn, attn_kind::mqa);
    EXPECT_EQ(m->layers[3].attn, attn_kind::none);
    EXPECT_EQ(m->layers[2].n_ff, 1024u);
    EXPECT_EQ(m->layers[0].head_dim_k, 64u);
    EXPECT_EQ(m->layers[0].head_dim_v, 48u);
    // gemma2: llama.cpp set_swa_pattern(2): even layers slide, odd layers are global.
    EXPECT_EQ(m->layers[0].n_swa, 4096u);
    EXPECT_EQ(m->layers[1].n_swa, 0u);
    EXPECT_EQ(m->layers[2].n_swa, 4096u);
    EXPECT_EQ(m->layers[3].n_swa, 0u); // no attention at all

    s.kvs[5] = {"gemma2.attention.head_count_kv", v_u32_array({8, 4})};
    auto bad = model_from_gguf(read_gguf(build(s), "g.gguf").value(), "g.gguf");
    ASSERT_FALSE(bad.has_value());
    EXPECT_EQ(bad.error().code, error_code::inconsistent_dims);
    EXPECT_NE(bad.error().message.find("gemma2.attention.head_count_kv"), std::string::npos);
}

TEST(gguf, moe_layers_from_tensors_and_mla) {
    gguf_spec s;
    // MLA: key 48 = 32 nope + 16 rope dims, value 32, a 64-rank compressed KV; 4 experts, 2 used, 1 shared
    s.kvs = model_kvs("deepseek2", 2, 64, v_u32(128), 4);
    for (const auto& [key, n] : {
             std::pair{"attention.key_length",       48},
             {"attention.value_length",     32},
             {"attention.kv_lora_rank",     64},
             {"rope.dimension_count",       16},
             {"expert_count",               4 },
             {"expert_used_count",          2 },
             {"expert_shared_count",        1 },
             {"expert_feed_forward_length", 32}
    })
        s.kvs.push_back({std::string("deepseek2.") + key, v_u32(static_cast<std::uint32_t>(n))});
    s.tensors = {
        {"blk.0.ffn_up.weight",       {64, 128},   0, {}},
        {"blk.1.ffn_up_exps.weight",  {64, 32, 4}, 0, {}},
        {"blk.1.ffn_gate_inp.weight", {64, 4},     0, {}},
        {"blk.1.attn_output.bias",    {64},        0, {}},
    };
    auto f = read_gguf(build(s), "d.gguf");
    ASSERT_TRUE(f.has_value()) << f.error().what();
    auto m = model_from_gguf(*f, "d.gguf");
    ASSERT_TRUE(m.has_value()) << m.error().what();
    EXPECT_FALSE(m->layers[0].is_moe);
    EXPECT_EQ(m->layers[0].n_ff, 128u);
    EXPECT_TRUE(m->layers[1].is_moe);
    EXPECT_EQ(m->layers[1].n_ff, 0u);
    EXPECT_EQ(m->moe.n_ff_shexp, 32u); // 1 shared expert x 32
    EXPECT_EQ(m->layers[0].attn, attn_kind::mla);
    EXPECT_EQ(m->mla.kv_lora_rank, 64u);
    EXPECT_EQ(m->mla.qk_rope_head_dim, 16u);
    EXPECT_EQ(m->mla.qk_nope_head_dim, 32u);                                 // 48 - 16
    EXPECT_EQ(m->tensors[1].shape, (std::vector<std::uint64_t>{4, 32, 64})); // [n_expert, out, in]
    EXPECT_TRUE(m->tensors[3].is_bias);
    EXPECT_TRUE(m->attn_out_bias);
    EXPECT_EQ(m->tensors[3].role, tensor_role::attn_output);
}

TEST(gguf, missing_block_count_is_unsupported_arch) {
    gguf_spec s;
    s.kvs = {
        {"general.architecture",     v_str("mystery")},
        {"mystery.embedding_length", v_u32(8)        }
    };
    auto m = model_from_gguf(read_gguf(build(s), "x.gguf").value(), "x.gguf");
    ASSERT_FALSE(m.has_value());
    EXPECT_EQ(m.error().code, error_code::unsupported_arch);
    EXPECT_NE(m.error().message.find("mystery.block_count"), std::string::npos);

    auto blk = tiny_llama_spec();
    blk.tensors.push_back({
        "blk.7.attn_q.weight", {64,            64},
         0, {             }
    });
    auto m2 = model_from_gguf(read_gguf(build(blk), "x.gguf").value(), "x.gguf");
    ASSERT_FALSE(m2.has_value());
    EXPECT_EQ(m2.error().code, error_code::inconsistent_dims);
}

} // namespace
} // namespace llmplan

namespace llmplan {
namespace {

// Replays the fuzz corpus (seeds and any saved findings) through the reader: no crash, and the
// generated seeds are valid files that map to a model.
TEST(gguf, fuzz_corpus_replays) {
    const fs::path dir = fs::path(LLMPLAN_SOURCE_DIR) / "tests/fuzz/corpus/fuzz_gguf";
    ASSERT_TRUE(fs::is_directory(dir));
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        SCOPED_TRACE(e.path().string());
        const auto bytes = slurp(e.path().string());
        EXPECT_LT(bytes.size(), 4097u); // seeds stay small
        auto f = read_gguf(bytes, e.path().string());
        if (e.path().filename() == "llama2_tiny_first4k.gguf") {
            EXPECT_FALSE(f.has_value()); // a prefix: the token list runs past 4 KB
            EXPECT_EQ(f.error().code, error_code::truncated);
        } else if (e.path().extension() == ".gguf") {
            ASSERT_TRUE(f.has_value()) << f.error().what();
            EXPECT_TRUE(model_from_gguf(*f, e.path().string()).has_value());
        } else if (f) {
            (void)model_from_gguf(*f, e.path().string());
        }
        ++n;
    }
    EXPECT_GE(n, 4);
}

} // namespace
} // namespace llmplan
