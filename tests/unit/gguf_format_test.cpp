// GGUF reader on handcrafted variants (tests/unit/gguf_writer.h): each broken file fails with its
// exact error_code and a message or context naming the offset or field; valid ones round-trip.
#include "llmplan/gguf.h"
#include "unit/gguf_writer.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using namespace llmplan::test;

constexpr std::uint64_t huge = std::uint64_t{1} << 60; // a length no file can hold

result<gguf_file> parse(const std::vector<std::byte>& b) {
    return read_gguf(b, "t.gguf");
}

// The error's code and that its one-line text contains `needle`.
void expect_error(const result<gguf_file>& r, error_code code, std::string_view needle) {
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, code) << r.error().what();
    EXPECT_NE(r.error().what().find(needle), std::string::npos) << r.error().what();
}

TEST(gguf_format, tiny_valid_file_reads) {
    const auto b = build(tiny_llama_spec());
    auto r       = parse(b);
    ASSERT_TRUE(r.has_value()) << r.error().what();
    EXPECT_EQ(r->version, 3u);
    EXPECT_EQ(r->kvs.size(), 11u);
    ASSERT_EQ(r->tensors.size(), 8u);
    // token_embd: ggml ne {64, 100} -> PyTorch [100, 64], f16: 6400 x 2 bytes.
    EXPECT_EQ(r->tensors[0].desc.shape, (std::vector<std::uint64_t>{100, 64}));
    EXPECT_EQ(r->tensors[0].desc.bytes, 12800u);
    // blk.1.ffn_down in q8_0: 128 x 64 = 8192 elements = 256 blocks x 34 bytes.
    EXPECT_EQ(r->tensors[5].desc.type, dtype::q8_0);
    EXPECT_EQ(r->tensors[5].desc.bytes, 8704u);
    EXPECT_EQ(r->data_offset % 32, 0u);
    EXPECT_EQ(r->data_end, b.size());
    EXPECT_EQ(r->file_type, 1u);
}

TEST(gguf_format, bad_magic) {
    auto s  = tiny_llama_spec();
    s.magic = "GGML";
    expect_error(parse(build(s)), error_code::bad_magic, "offset 0");
}

TEST(gguf_format, versions_1_and_4_unsupported) {
    for (std::uint32_t v : {1u, 4u}) {
        auto s    = tiny_llama_spec();
        s.version = v;
        expect_error(parse(build(s)), error_code::unsupported_version, "offset 4");
    }
    auto s    = tiny_llama_spec();
    s.version = 2; // v2 has the same layout as v3
    EXPECT_TRUE(parse(build(s)).has_value());
    s.version = 0x03000000; // 3 written big-endian
    expect_error(parse(build(s)), error_code::unsupported_version, "big-endian");
}

TEST(gguf_format, truncated_at_every_byte) {
    const auto full = build(tiny_llama_spec());
    for (std::size_t n = 0; n < full.size(); ++n) {
        const std::vector<std::byte> cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
        auto r = parse(cut);
        ASSERT_FALSE(r.has_value()) << "prefix of " << n << " bytes parsed";
        EXPECT_EQ(r.error().code, error_code::truncated) << n << ": " << r.error().what();
    }
}

TEST(gguf_format, huge_string_length_fails_fast) {
    // magic, version, n_tensors, n_kv = 24 bytes; the key length is at offset 24.
    byte_writer w;
    w.raw("GGUF").u32(3).u64(0).u64(1).u64(huge).raw("abc").zeros(16);
    expect_error(parse(w.data), error_code::truncated, "offset 24");
    expect_error(parse(w.data), error_code::truncated, "string length 1152921504606846976");
}

TEST(gguf_format, huge_array_count_fails_fast) {
    // key "a" (8 + 1 bytes) at 24, type at 33, element type at 37, count at 41.
    byte_writer w;
    w.raw("GGUF").u32(3).u64(0).u64(1).str("a").u32(t_array).u32(t_u32).u64(huge).zeros(16);
    expect_error(parse(w.data), error_code::truncated, "offset 41");
    expect_error(parse(w.data), error_code::truncated, "array count 1152921504606846976");
}

TEST(gguf_format, huge_counts_fail_fast) {
    byte_writer w;
    w.raw("GGUF").u32(3).u64(huge).u64(0).zeros(64);
    expect_error(parse(w.data), error_code::truncated, "offset 8"); // n_tensors
    byte_writer k;
    k.raw("GGUF").u32(3).u64(0).u64(huge).zeros(64);
    expect_error(parse(k.data), error_code::truncated, "offset 16"); // n_kv
}

TEST(gguf_format, duplicate_key) {
    auto s = tiny_llama_spec();
    s.kvs.push_back({"llama.block_count", v_u32(3)});
    expect_error(parse(build(s)), error_code::duplicate_key, "llama.block_count");
    // The same key with the same value (seen in ggml-vocab-dbrx.gguf) is kept once, with a warning.
    auto same = tiny_llama_spec();
    same.kvs.push_back({"llama.block_count", v_u32(2)});
    auto r = parse(build(same));
    ASSERT_TRUE(r.has_value()) << r.error().what();
    EXPECT_EQ(r->n_kv, 12u);
    EXPECT_EQ(r->kvs.size(), 11u);
    ASSERT_EQ(r->warnings.size(), 1u);
}

TEST(gguf_format, duplicate_tensor_name) {
    auto s = tiny_llama_spec();
    s.tensors.push_back({"output.weight", {64}, 0, {}});
    expect_error(parse(build(s)), error_code::duplicate_key, "output.weight");
}

TEST(gguf_format, misaligned_offset) {
    auto s              = tiny_llama_spec();
    s.tensors[1].offset = 12808; // token_embd is 12800 bytes; 12808 is not a multiple of 32
    expect_error(parse(build(s)), error_code::bad_alignment, "blk.0.attn_q.weight");
}

TEST(gguf_format, overlapping_tensors) {
    auto s              = tiny_llama_spec();
    s.tensors[1].offset = 12768; // inside token_embd's [0, 12800)
    expect_error(parse(build(s)), error_code::bad_value, "overlaps");
}

TEST(gguf_format, offset_past_end) {
    // Same header layout (offsets are u64 either way), the valid file's data, a bogus last offset.
    const auto valid        = build(tiny_llama_spec());
    auto s                  = tiny_llama_spec();
    s.tensors.back().offset = std::uint64_t{1} << 40;
    s.write_data            = false;
    auto b                  = build(s);
    b.insert(b.end(), valid.begin() + static_cast<std::ptrdiff_t>(b.size()), valid.end());
    ASSERT_EQ(b.size(), valid.size());
    expect_error(parse(b), error_code::truncated, "output.weight");
    expect_error(parse(b), error_code::truncated, "extends past the end of the file");
}

TEST(gguf_format, header_only_prefix_skips_data_check) {
    const auto full = build(tiny_llama_spec());
    auto whole      = parse(full);
    ASSERT_TRUE(whole.has_value());
    const std::vector<std::byte> head(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(whole->header_bytes));
    auto r = read_gguf(head, "t.gguf", {.file_size_bytes = 0, .check_data_extent = false});
    ASSERT_TRUE(r.has_value()) << r.error().what();
    EXPECT_FALSE(r->data_checked);
    auto sized = read_gguf(head, "t.gguf", {.file_size_bytes = full.size(), .check_data_extent = true});
    ASSERT_TRUE(sized.has_value()) << sized.error().what();
    EXPECT_TRUE(sized->data_checked);
}

TEST(gguf_format, non_utf8_key_and_name) {
    auto s = tiny_llama_spec();
    s.kvs.push_back({"bad\xff", v_u8(1)});
    expect_error(parse(build(s)), error_code::bad_value, "UTF-8");
    auto t            = tiny_llama_spec();
    t.tensors[0].name = "\xc0\xaf"; // overlong '/'
    expect_error(parse(build(t)), error_code::bad_value, "tensor #0 name is not valid UTF-8");
}

TEST(gguf_format, too_many_dims) {
    auto s = tiny_llama_spec();
    s.tensors.push_back({
        "x.weight", {32, 1, 1, 1, 1},
         0, {}
    });
    expect_error(parse(build(s)), error_code::bad_value, "n_dims 5");
}

TEST(gguf_format, unknown_type_id) {
    auto s = tiny_llama_spec();
    s.tensors.push_back({"x.weight", {32}, 99, {}});
    auto r = parse(build(s));
    expect_error(r, error_code::bad_value, "unknown ggml type id 99");
    EXPECT_NE(r.error().context.find("offset"), std::string::npos);
}

TEST(gguf_format, ne0_not_a_block_multiple) {
    auto s = tiny_llama_spec();
    s.tensors.push_back({
        "x.weight", {16,            2},
         8, {             }
    }); // q8_0 blocks hold 32
    expect_error(parse(build(s)), error_code::bad_value, "block size 32");
}

TEST(gguf_format, nested_arrays) {
    gguf_spec s;
    const value inner1 = v_u32_array({1, 2, 3});
    const value inner2 = v_u32_array({4});
    s.kvs              = {
                     {"nested", v_array(t_array, {inner1, inner2})}
    };
    auto r = parse(build(s));
    ASSERT_TRUE(r.has_value()) << r.error().what();
    const auto* a = r->kvs[0].array();
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->elem_type, gguf_type::array);
    ASSERT_EQ(a->arrays.size(), 2u);
    EXPECT_EQ(a->arrays[0].count, 3u);
    EXPECT_EQ(a->arrays[0].uint_at(2), 3u);
    EXPECT_EQ(a->arrays[1].uint_at(0), 4u);
    EXPECT_TRUE(a->complete());
}

TEST(gguf_format, all_13_value_types_round_trip) {
    gguf_spec s;
    s.kvs = {
        {"u8",     v_u8(200)                              },
        {"i8",     v_i8(-100)                             },
        {"u16",    v_u16(60000)                           },
        {"i16",    v_i16(-30000)                          },
        {"u32",    v_u32(4000000000u)                     },
        {"i32",    v_i32(-2000000000)                     },
        {"f32",    v_f32(0.5f)                            },
        {"bool",   v_bool(true)                           },
        {"string", v_str("héllo")                        },
        {"array",  v_u32_array({7, 8})                    },
        {"u64",    v_u64(huge)                            },
        {"i64",    v_i64(-static_cast<std::int64_t>(huge))},
        {"f64",    v_f64(-2.25)                           },
    };
    auto r = parse(build(s));
    ASSERT_TRUE(r.has_value()) << r.error().what();
    ASSERT_EQ(r->kvs.size(), 13u);
    for (std::uint32_t i = 0; i < 13; ++i) {
        EXPECT_EQ(static_cast<std::uint32_t>(r->kvs[i].type), s.kvs[i].val.type) << r->kvs[i].key;
        EXPECT_EQ(name(r->kvs[i].type), r->kvs[i].key);
    }
    EXPECT_EQ(r->find("u8")->as_uint(), 200u);
    EXPECT_EQ(r->find("i8")->as_int(), -100);
    EXPECT_EQ(r->find("u16")->as_uint(), 60000u);
    EXPECT_EQ(r->find("i16")->as_int(), -30000);
    EXPECT_EQ(r->find("u32")->as_uint(), 4000000000u);
    EXPECT_EQ(r->find("i32")->as_int(), -2000000000);
    EXPECT_EQ(r->find("f32")->as_double(), 0.5);
    EXPECT_EQ(r->find("bool")->as_uint(), 1u);
    EXPECT_EQ(*r->find("string")->as_string(), "héllo");
    EXPECT_EQ(r->find("array")->array()->uint_at(1), 8u);
    EXPECT_EQ(r->find("u64")->as_uint(), huge);
    EXPECT_EQ(r->find("i64")->as_int(), -static_cast<std::int64_t>(huge));
    EXPECT_EQ(r->find("f64")->as_double(), -2.25);
}

TEST(gguf_format, unknown_value_type) {
    byte_writer w;
    w.raw("GGUF").u32(3).u64(0).u64(1).str("k").u32(13).u32(0); // type 13 at offset 33
    expect_error(parse(w.data), error_code::bad_value, "unknown value type 13");
}

TEST(gguf_format, alignment_key) {
    auto s = tiny_llama_spec();
    s.kvs.push_back({"general.alignment", v_u32(48)});
    expect_error(parse(build(s)), error_code::bad_alignment, "general.alignment = 48");
    auto t = tiny_llama_spec();
    t.kvs.push_back({"general.alignment", v_u64(64)}); // the spec says u32
    expect_error(parse(build(t)), error_code::bad_alignment, "expected u32");
    auto ok64      = tiny_llama_spec();
    ok64.alignment = 64;
    ok64.kvs.push_back({"general.alignment", v_u32(64)});
    auto r = parse(build(ok64));
    ASSERT_TRUE(r.has_value()) << r.error().what();
    EXPECT_EQ(r->alignment, 64u);
    EXPECT_EQ(r->data_offset % 64, 0u);
}

TEST(gguf_format, deep_nesting_is_bounded) {
    value v = v_u32_array({1});
    for (int i = 0; i < 20; ++i)
        v = v_array(t_array, {v});
    gguf_spec s;
    s.kvs = {
        {"deep", v}
    };
    expect_error(parse(build(s)), error_code::bad_value, "nested deeper");
}

} // namespace
} // namespace llmplan
