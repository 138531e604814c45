// safetensors header reader: real files (tests/data/safetensors/README.md gives N, tensors, sizes),
// the Qwen3-4B index in the catalog, and handcrafted bad headers.
#include "llmplan/safetensors.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace llmplan {
namespace {

namespace fs               = std::filesystem;
const std::string data_dir = std::string(LLMPLAN_TEST_DATA) + "/safetensors";

/// 8-byte little-endian length + JSON + data_bytes zero bytes (the on-disk layout).
std::vector<std::byte> make_file(const std::string& json, std::uint64_t data_bytes = 0) {
    std::vector<std::byte> out(8 + json.size() + data_bytes);
    const std::uint64_t n = json.size();
    for (int i = 0; i < 8; ++i)
        out[i] = static_cast<std::byte>((n >> (8 * i)) & 0xff);
    std::memcpy(out.data() + 8, json.data(), json.size());
    return out;
}
/// Only a length prefix claiming n header bytes, followed by `tail`.
std::vector<std::byte> length_only(std::uint64_t n, const std::string& tail = "{}") {
    auto out = make_file(tail);
    for (int i = 0; i < 8; ++i)
        out[i] = static_cast<std::byte>((n >> (8 * i)) & 0xff);
    return out;
}
result<safetensors_header> parse(const std::vector<std::byte>& b) {
    return read_safetensors(b, b.size(), "t.safetensors");
}
void write_file(const fs::path& p, const std::vector<std::byte>& b) {
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}
const tensor_desc* find(const std::vector<tensor_desc>& ts, const std::string& name) {
    for (const auto& t : ts)
        if (t.name == name) return &t;
    return nullptr;
}

TEST(Safetensors, OverallEveryDtype) {
    auto h = read_safetensors_file(data_dir + "/overall.safetensors");
    ASSERT_TRUE(h) << h.error().what();
    // README: N = 526, 9 tensors of shape [6], file 702 bytes = 8 + 526 + 168.
    EXPECT_EQ(h->header_bytes, 526u);
    EXPECT_EQ(h->file_bytes, 702u);
    EXPECT_EQ(h->data_bytes, 168u);
    ASSERT_EQ(h->tensors.size(), 9u);
    const struct {
        const char* name;
        dtype type;
        std::uint64_t bytes; // 6 elements x element size
    } want[] = {
        {"B", dtype::u8,  6 },
        {"H", dtype::u16, 12},
        {"I", dtype::u32, 24},
        {"b", dtype::i8,  6 },
        {"d", dtype::f64, 48},
        {"e", dtype::f16, 12},
        {"f", dtype::f32, 24},
        {"h", dtype::i16, 12},
        {"i", dtype::i32, 24},
    };
    std::uint64_t max_end = 0;
    for (std::size_t i = 0; i < 9; ++i) {
        EXPECT_EQ(h->tensors[i].name, want[i].name); // header order kept
        EXPECT_EQ(h->tensors[i].type, want[i].type) << want[i].name;
        EXPECT_EQ(h->tensors[i].shape, std::vector<std::uint64_t>{6});
        EXPECT_EQ(h->tensors[i].bytes, want[i].bytes);
        EXPECT_EQ(h->offsets[i].end - h->offsets[i].begin, want[i].bytes);
        max_end = std::max(max_end, h->offsets[i].end);
    }
    EXPECT_EQ(8 + h->header_bytes + max_end, h->file_bytes);
    EXPECT_EQ(h->metadata, (std::map<std::string, std::string>{
                               {"test", "a"}
    }));
}

TEST(Safetensors, DiscollamaLoraOffsetsOutOfKeyOrder) {
    auto h = read_safetensors_file(data_dir + "/discollama-adapters.safetensors");
    ASSERT_TRUE(h) << h.error().what();
    EXPECT_EQ(h->header_bytes, 864u); // README
    ASSERT_EQ(h->tensors.size(), 8u);
    EXPECT_TRUE(h->metadata.empty()); // "__metadata__": null
    std::uint64_t max_end = 0;
    for (std::size_t i = 0; i < h->tensors.size(); ++i) {
        const auto& t = h->tensors[i];
        EXPECT_EQ(t.type, dtype::f32);
        EXPECT_TRUE(t.layer == 30 || t.layer == 31) << t.name;
        EXPECT_EQ(t.bytes, t.n_elements() * 4);
        max_end = std::max(max_end, h->offsets[i].end);
    }
    // README shapes: q: [4096,8]/[8,4096]; v: [4096,8]/[8,1024] (Llama-3-8B GQA v_proj width 1024).
    const auto* qa = find(h->tensors, "model.layers.30.self_attn.q_proj.lora_a");
    const auto* vb = find(h->tensors, "model.layers.30.self_attn.v_proj.lora_b");
    ASSERT_TRUE(qa && vb);
    EXPECT_EQ(qa->shape, (std::vector<std::uint64_t>{4096, 8}));
    EXPECT_EQ(vb->shape, (std::vector<std::uint64_t>{8, 1024}));
    EXPECT_EQ(vb->bytes, 8u * 1024 * 4);
    // The first data bytes belong to the 6th key (layer 31 q lora_b at [0, 131072]).
    EXPECT_EQ(h->offsets[5].begin, 0u);
    EXPECT_EQ(h->tensors[5].name, "model.layers.31.self_attn.q_proj.lora_b");
    EXPECT_EQ(8 + h->header_bytes + max_end, 852840u); // file size from the README
}

TEST(Safetensors, MiniCpm3MlaRoles) {
    auto h = read_safetensors_file(data_dir + "/minicpm3-4b-test-model.safetensors");
    ASSERT_TRUE(h) << h.error().what();
    EXPECT_EQ(h->header_bytes, 1536u);
    ASSERT_EQ(h->tensors.size(), 15u);
    std::uint64_t max_end = 0;
    for (const auto& r : h->offsets)
        max_end = std::max(max_end, r.end);
    EXPECT_EQ(8 + h->header_bytes + max_end, 403544u);
    // 10 [100,100] F32 matrices (40000 B each) and 5 [100] norm vectors (400 B each), from the header.
    EXPECT_EQ(h->data_bytes, 10u * 40000 + 5u * 400);
    const std::pair<const char*, tensor_role> roles[] = {
        {"lm_head.weight",                                     tensor_role::output        },
        {"model.embed_tokens.weight",                          tensor_role::token_embd    },
        {"model.norm.weight",                                  tensor_role::output_norm   },
        {"model.layers.0.input_layernorm.weight",              tensor_role::attn_norm     },
        {"model.layers.0.post_attention_layernorm.weight",     tensor_role::ffn_norm      },
        {"model.layers.0.self_attn.q_a_proj.weight",           tensor_role::attn_q_a      },
        {"model.layers.0.self_attn.q_a_layernorm.weight",      tensor_role::attn_q_a_norm },
        {"model.layers.0.self_attn.q_b_proj.weight",           tensor_role::attn_q_b      },
        {"model.layers.0.self_attn.kv_a_proj_with_mqa.weight", tensor_role::attn_kv_a     },
        {"model.layers.0.self_attn.kv_a_layernorm.weight",     tensor_role::attn_kv_a_norm},
        {"model.layers.0.self_attn.kv_b_proj.weight",          tensor_role::attn_kv_b     },
        {"model.layers.0.self_attn.o_proj.weight",             tensor_role::attn_output   },
        {"model.layers.0.mlp.gate_proj.weight",                tensor_role::ffn_gate      },
        {"model.layers.0.mlp.up_proj.weight",                  tensor_role::ffn_up        },
        {"model.layers.0.mlp.down_proj.weight",                tensor_role::ffn_down      },
    };
    for (const auto& [name, role] : roles) {
        const auto* t = find(h->tensors, name);
        ASSERT_TRUE(t) << name;
        EXPECT_EQ(t->role, role) << name;
        EXPECT_EQ(t->layer, std::string(name).find("layers.0") != std::string::npos ? 0 : -1) << name;
    }
}

TEST(Safetensors, DirectoryOfFiles) {
    auto m = read_safetensors_dir(data_dir);
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_FALSE(m->has_index);
    EXPECT_TRUE(m->headers_read);
    // Sorted names; sizes and data bytes from the three tests above (README file sizes).
    EXPECT_EQ(m->files, (std::vector<std::string>{"discollama-adapters.safetensors",
                                                  "minicpm3-4b-test-model.safetensors", "overall.safetensors"}));
    EXPECT_EQ(m->tensors.size(), 8u + 15u + 9u);
    EXPECT_EQ(m->file_bytes, 852840u + 403544u + 702u);
    EXPECT_EQ(m->data_bytes, (852840u - 8 - 864) + (403544u - 8 - 1536) + 168u);
}

TEST(Safetensors, Qwen3IndexWithoutShards) {
    auto m = read_safetensors_dir(std::string(LLMPLAN_SOURCE_DIR) + "/data/models/Qwen--Qwen3-4B");
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_TRUE(m->has_index);
    EXPECT_FALSE(m->headers_read);
    // model.safetensors.index.json: metadata.total_size, 398 weight_map entries over 3 shards.
    EXPECT_EQ(m->index_total_size, 8044936192u);
    EXPECT_EQ(m->data_bytes, 8044936192u);
    EXPECT_EQ(m->file_bytes, 0u);
    EXPECT_EQ(m->files.size(), 3u);
    ASSERT_EQ(m->tensors.size(), 398u); // 36 layers x 11 + embed_tokens + norm (embeddings tied)
    std::map<int, std::map<tensor_role, int>> per_layer;
    for (const auto& t : m->tensors)
        per_layer[t.layer][t.role]++;
    EXPECT_EQ(per_layer.size(), 37u); // -1 (global) and 0..35
    for (int l = 0; l < 36; ++l) {
        const auto& r = per_layer[l];
        for (auto role : {tensor_role::attn_norm, tensor_role::attn_q, tensor_role::attn_k, tensor_role::attn_v,
                          tensor_role::attn_output, tensor_role::attn_q_norm, tensor_role::attn_k_norm,
                          tensor_role::ffn_norm, tensor_role::ffn_gate, tensor_role::ffn_up, tensor_role::ffn_down})
            EXPECT_EQ(r.count(role) ? r.at(role) : 0, 1) << "layer " << l << " " << role_name(role);
    }
    EXPECT_EQ(per_layer[-1][tensor_role::token_embd], 1);
    EXPECT_EQ(per_layer[-1][tensor_role::output_norm], 1);
    EXPECT_EQ(per_layer[-1].count(tensor_role::other), 0u);
}

class SafetensorsTmp : public ::testing::Test {
  protected:
    fs::path dir;
    void SetUp() override {
        dir = fs::temp_directory_path() /
              ("llmplan_st_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }
};

TEST_F(SafetensorsTmp, ShardedCheckpoint) {
    // Two shards of one F32 [2] tensor each (8 bytes of data), and their index.
    write_file(dir / "model-00001-of-00002.safetensors",
               make_file(R"({"a.weight":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 8));
    write_file(dir / "model-00002-of-00002.safetensors",
               make_file(R"({"b.weight":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]}})", 4));
    std::ofstream(dir / "model.safetensors.index.json")
        << R"({"metadata":{"total_size":12},"weight_map":{"a.weight":"model-00001-of-00002.safetensors",)"
        << R"("b.weight":"model-00002-of-00002.safetensors"}})";
    auto m = read_safetensors_dir(dir.string());
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_TRUE(m->headers_read);
    EXPECT_EQ(m->tensors.size(), 2u);
    EXPECT_EQ(m->data_bytes, 12u); // 2 x 4 + 2 x 2
    EXPECT_EQ(m->index_total_size, 12u);
    EXPECT_EQ(m->tensor_files[1], "model-00002-of-00002.safetensors");

    fs::remove(dir / "model-00002-of-00002.safetensors");
    m = read_safetensors_dir(dir.string());
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, error_code::file_not_found);
    EXPECT_NE(m.error().what().find("model-00002-of-00002.safetensors"), std::string::npos);
}

TEST_F(SafetensorsTmp, IndexNamesTensorNotInShard) {
    write_file(dir / "s1.safetensors", make_file(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})", 1));
    std::ofstream(dir / "model.safetensors.index.json")
        << R"({"weight_map":{"a":"s1.safetensors","zz":"s1.safetensors"}})";
    auto m = read_safetensors_dir(dir.string());
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, error_code::missing_field);
    EXPECT_NE(m.error().what().find("zz"), std::string::npos);
}

TEST_F(SafetensorsTmp, IndexRejectsPathsOutsideDir) {
    std::ofstream(dir / "model.safetensors.index.json") << R"({"weight_map":{"a":"../x.safetensors"}})";
    auto m = read_safetensors_dir(dir.string());
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, error_code::bad_value);
}

TEST_F(SafetensorsTmp, ReadsHeaderOnlyOfHugeSparseFile) {
    // 1 GiB of BF16 data declared; the file is sparse, so reading the data would be slow and visible.
    const std::uint64_t n_elem = std::uint64_t{1} << 29; // 2^29 x 2 bytes = 1 GiB
    const std::string json     = R"({"w":{"dtype":"BF16","shape":[536870912],"data_offsets":[0,1073741824]}})";
    write_file(dir / "model.safetensors", make_file(json));
    fs::resize_file(dir / "model.safetensors", 8 + json.size() + 2 * n_elem);
    auto m = read_safetensors_dir(dir.string());
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_EQ(m->data_bytes, 2 * n_elem);
    EXPECT_EQ(m->file_bytes, 8 + json.size() + 2 * n_elem);
}

TEST(Safetensors, IndexText) {
    auto i = parse_safetensors_index(R"({"metadata":{"total_size":14483464192.0},"weight_map":{"a":"s1","b":"s2"}})",
                                     "idx.json");
    ASSERT_TRUE(i) << i.error().what();
    EXPECT_EQ(i->total_size, 14483464192u);
    EXPECT_EQ(i->names, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(i->shards, (std::vector<std::string>{"s1", "s2"}));
    i = parse_safetensors_index(R"({"metadata":{"total_size":-1},"weight_map":{}})", "idx.json");
    ASSERT_FALSE(i);
    EXPECT_EQ(i.error().context, "idx.json:/metadata/total_size");
    i = parse_safetensors_index(R"({"weight_map":{"a":"s1","a":"s1"}})", "idx.json");
    ASSERT_FALSE(i);
    EXPECT_EQ(i.error().code, error_code::duplicate_key);
    i = parse_safetensors_index(R"({"metadata":{}})", "idx.json");
    ASSERT_FALSE(i);
    EXPECT_EQ(i.error().code, error_code::missing_field);
}

TEST(Safetensors, MissingFileAndDir) {
    auto h = read_safetensors_file("/nonexistent/x.safetensors");
    ASSERT_FALSE(h);
    EXPECT_EQ(h.error().code, error_code::file_not_found);
    auto m = read_safetensors_dir("/nonexistent");
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, error_code::file_not_found);
}

// ---- handcrafted bad headers: each gives one exact error code and names what was expected ----

void expect_error(const result<safetensors_header>& h, error_code code, const std::string& in_message,
                  const std::string& in_context) {
    ASSERT_FALSE(h) << "expected an error containing " << in_message;
    EXPECT_EQ(h.error().code, code) << h.error().what();
    EXPECT_NE(h.error().message.find(in_message), std::string::npos) << h.error().what();
    EXPECT_NE(h.error().context.find(in_context), std::string::npos) << h.error().what();
    EXPECT_NE(h.error().message.find("expected"), std::string::npos) << h.error().what();
}
std::string one(const std::string& name, const std::string& dtype, const std::string& shape,
                const std::string& offsets) {
    return "\"" + name + R"(":{"dtype":")" + dtype + R"(","shape":)" + shape + R"(,"data_offsets":)" + offsets + "}";
}

TEST(SafetensorsBad, LengthPrefix) {
    expect_error(parse(std::vector<std::byte>(5)), error_code::truncated, "5 bytes", "t.safetensors:offset 0");
    // 2^60 is over the 100 MiB cap: refused before any allocation.
    expect_error(parse(length_only(std::uint64_t{1} << 60)), error_code::bad_value, "1152921504606846976", "offset 0");
    expect_error(parse(length_only(safetensors_max_header_bytes + 1)), error_code::bad_value, "104857601", "offset 0");
    // 100 MB (decimal) is under the cap but past the end of a 10-byte file.
    expect_error(parse(length_only(100000000)), error_code::truncated, "100000000", "offset 0");
    expect_error(parse(length_only(3)), error_code::truncated, "runs past the end of the 10-byte file", "offset 0");
    // The buffer may hold just the header, but not less.
    auto b = make_file("{}", 100);
    expect_error(read_safetensors(std::span(b.data(), 9), b.size(), "t"), error_code::truncated, "10-byte header",
                 "t:offset 9");
}

TEST(SafetensorsBad, JsonShape) {
    expect_error(parse(make_file("[1,2]")), error_code::bad_value, "JSON array", "offset 8");
    expect_error(parse(make_file("42")), error_code::bad_value, "JSON number", "offset 8");
    // '{"a": }': the parser stops at the '}' (7th byte), so offset = 8 + 7.
    expect_error(parse(make_file(R"({"a": })")), error_code::bad_json, "syntax error", "t.safetensors:offset 15");
    expect_error(parse(make_file(R"({"a": 1)")), error_code::bad_json, "invalid JSON", "offset");
    // 0xff is never valid UTF-8.
    expect_error(parse(make_file("{\"a\xff\":{}}")), error_code::bad_json, "UTF-8", "offset");
    expect_error(parse(make_file(R"({"__metadata__":{"k":1}})")), error_code::bad_value, "expected a string",
                 "/__metadata__/k");
    expect_error(parse(make_file(R"({"__metadata__":[]})")), error_code::bad_value, "__metadata__", "/__metadata__");
    expect_error(parse(make_file(R"({"a":[]})")), error_code::bad_value, "JSON array", ":/a");
}

TEST(SafetensorsBad, DuplicateKeys) {
    const std::string t = R"({"dtype":"U8","shape":[1],"data_offsets":[0,1]})";
    expect_error(parse(make_file(R"({"a":)" + t + R"(,"a":)" + t + "}", 1)), error_code::duplicate_key, "/a",
                 "t.safetensors:/a");
    expect_error(parse(make_file(R"({"a":{"dtype":"U8","dtype":"U8","shape":[1],"data_offsets":[0,1]}})", 1)),
                 error_code::duplicate_key, "/a/dtype", ":/a/dtype");
}

TEST(SafetensorsBad, Fields) {
    expect_error(parse(make_file("{" + one("w", "F13", "[1]", "[0,4]") + "}", 4)), error_code::bad_value,
                 "unknown dtype \"F13\"", ":/w/dtype");
    expect_error(parse(make_file(R"({"w":{"dtype":"F32","shape":[1]}})", 4)), error_code::missing_field, "data_offsets",
                 ":/w");
    expect_error(parse(make_file("{" + one("w", "F32", "[-1]", "[0,4]") + "}", 4)), error_code::bad_value,
                 "shape[0] is -1", ":/w/shape");
    expect_error(parse(make_file("{" + one("w", "F32", "[1.5]", "[0,4]") + "}", 4)), error_code::bad_value,
                 "shape[0] is 1.5", ":/w/shape");
    expect_error(parse(make_file("{" + one("w", "F32", "[4294967296,4294967296]", "[0,4]") + "}", 4)),
                 error_code::overflow, "overflows", ":/w/shape");
    expect_error(parse(make_file("{" + one("w", "F32", "[1]", "[0]") + "}", 4)), error_code::bad_value,
                 "array of 1 items", ":/w/data_offsets");
    expect_error(parse(make_file("{" + one("w", "F32", "[1]", "[4,0]") + "}", 4)), error_code::bad_value, "begin > end",
                 ":/w/data_offsets");
}

TEST(SafetensorsBad, Offsets) {
    // F32 [2] needs 8 bytes; the range holds 4.
    expect_error(parse(make_file("{" + one("w", "F32", "[2]", "[0,4]") + "}", 4)), error_code::inconsistent_dims,
                 "span 4 bytes but shape [2] of F32 needs 8 bytes", ":/w/data_offsets");
    expect_error(parse(make_file("{" + one("w", "F32", "[2]", "[0,8]") + "}", 4)), error_code::truncated,
                 "end 8 is past the 4-byte data section", ":/w/data_offsets");
    expect_error(
        parse(make_file("{" + one("a", "F32", "[1]", "[0,4]") + "," + one("b", "F32", "[1]", "[2,6]") + "}", 6)),
        error_code::bad_value, "overlap tensor \"a\"", ":/b/data_offsets");
    expect_error(
        parse(make_file("{" + one("a", "F32", "[1]", "[0,4]") + "," + one("b", "F32", "[1]", "[8,12]") + "}", 12)),
        error_code::bad_value, "gap of 4 bytes", ":/b/data_offsets");
    // Trailing bytes: the error points at the first uncovered byte, 8 + 54-byte header + 4.
    expect_error(parse(make_file("{" + one("a", "F32", "[1]", "[0,4]") + "}", 8)), error_code::bad_value,
                 "cover 4 of the 8 data bytes", "t.safetensors:offset 66");
}

TEST(SafetensorsBad, ValidEdgeCases) {
    auto h = parse(make_file("{}"));
    ASSERT_TRUE(h) << h.error().what();
    EXPECT_TRUE(h->tensors.empty());
    // A rank-0 tensor holds one element; a zero-size tensor takes no bytes; trailing spaces are padding.
    h = parse(make_file("{" + one("s", "F32", "[]", "[0,4]") + "," + one("z", "BF16", "[0,5]", "[4,4]") + "}   ", 4));
    ASSERT_TRUE(h) << h.error().what();
    EXPECT_EQ(h->tensors[0].bytes, 4u);
    EXPECT_EQ(h->tensors[1].bytes, 0u);
}

} // namespace
} // namespace llmplan
