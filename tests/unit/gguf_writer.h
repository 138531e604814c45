// Test-only GGUF writer: builds valid files and handcrafted broken variants byte by byte.
//
// Values are encoded bodies (no type tag) plus their type id, so arrays of any type, nested
// arrays, and deliberately wrong counts can all be spelled out.
#pragma once

#include "llmplan/dtype.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan::test {

/// Little-endian byte emitter.
struct byte_writer {
    std::vector<std::byte> data;

    template <class T> byte_writer& le(T v) {
        unsigned char raw[sizeof(T)];
        std::memcpy(raw, &v, sizeof(T)); // tests run on little-endian hosts (x86-64, arm64)
        for (unsigned char c : raw)
            data.push_back(static_cast<std::byte>(c));
        return *this;
    }
    byte_writer& u32(std::uint32_t v) { return le(v); }
    byte_writer& u64(std::uint64_t v) { return le(v); }
    byte_writer& raw(std::string_view s) {
        for (char c : s)
            data.push_back(static_cast<std::byte>(c));
        return *this;
    }
    byte_writer& bytes(const std::vector<std::byte>& b) {
        data.insert(data.end(), b.begin(), b.end());
        return *this;
    }
    byte_writer& str(std::string_view s) { return u64(s.size()).raw(s); } ///< GGUF string: u64 length + bytes
    byte_writer& zeros(std::uint64_t n) {
        data.resize(data.size() + n, std::byte{0});
        return *this;
    }
    [[nodiscard]] std::uint64_t size() const { return data.size(); }
};

/// GGUF value type ids (spec).
enum : std::uint32_t {
    t_u8     = 0,
    t_i8     = 1,
    t_u16    = 2,
    t_i16    = 3,
    t_u32    = 4,
    t_i32    = 5,
    t_f32    = 6,
    t_bool   = 7,
    t_string = 8,
    t_array  = 9,
    t_u64    = 10,
    t_i64    = 11,
    t_f64    = 12
};

/// An encoded value: its type id and its body.
struct value {
    std::uint32_t type = t_u8;
    std::vector<std::byte> body;
};
/// A scalar of GGUF type `Type` whose body is the little-endian bytes of a `T`.
template <std::uint32_t Type, class T> value scalar(T v) {
    byte_writer w;
    w.le(v);
    return {Type, w.data};
}
// v_u32(7): a GGUF_TYPE_UINT32 holding 7 (the C++ type each GGUF type is read as: gguf.h).
inline constexpr auto v_u8  = scalar<t_u8, std::uint8_t>;
inline constexpr auto v_i8  = scalar<t_i8, std::int8_t>;
inline constexpr auto v_u16 = scalar<t_u16, std::uint16_t>;
inline constexpr auto v_i16 = scalar<t_i16, std::int16_t>;
inline constexpr auto v_u32 = scalar<t_u32, std::uint32_t>;
inline constexpr auto v_i32 = scalar<t_i32, std::int32_t>;
inline constexpr auto v_u64 = scalar<t_u64, std::uint64_t>;
inline constexpr auto v_i64 = scalar<t_i64, std::int64_t>;
inline constexpr auto v_f32 = scalar<t_f32, float>;
inline constexpr auto v_f64 = scalar<t_f64, double>;
inline value v_bool(bool v) {
    return scalar<t_bool>(static_cast<std::uint8_t>(v ? 1 : 0));
}
inline value v_str(std::string_view s) {
    byte_writer w;
    w.str(s);
    return {t_string, w.data};
}
/// An array; every element must have type elem_type. `count` overrides the element count written.
inline value v_array(std::uint32_t elem_type, const std::vector<value>& elems,
                     std::optional<std::uint64_t> count = std::nullopt) {
    byte_writer w;
    w.u32(elem_type).u64(count.value_or(elems.size()));
    for (const auto& e : elems)
        w.bytes(e.body);
    return {t_array, w.data};
}
inline value v_u32_array(const std::vector<std::uint32_t>& xs) {
    std::vector<value> e;
    for (auto x : xs)
        e.push_back(v_u32(x));
    return v_array(t_u32, e);
}

struct kv_spec {
    std::string key;
    value val;
};

/// The keys llama.cpp's loader asks of every model (llama_model_loader / load_hparams):
/// general.architecture, ARCH.block_count, ARCH.embedding_length, ARCH.feed_forward_length and
/// ARCH.attention.head_count; then `more`, each key under the ARCH. prefix ("vocab_size" ->
/// "ARCH.vocab_size").
inline std::vector<kv_spec> model_kvs(const std::string& arch, std::uint32_t blocks, std::uint32_t embd, value ff,
                                      std::uint32_t heads, std::vector<kv_spec> more = {}) {
    std::vector<kv_spec> kvs{
        {"general.architecture",         v_str(arch)  },
        {arch + ".block_count",          v_u32(blocks)},
        {arch + ".embedding_length",     v_u32(embd)  },
        {arch + ".feed_forward_length",  std::move(ff)},
        {arch + ".attention.head_count", v_u32(heads) },
    };
    for (auto& kv : more)
        kvs.push_back({arch + "." + kv.key, std::move(kv.val)});
    return kvs;
}

struct tensor_spec {
    std::string name;
    std::vector<std::uint64_t> ne;       ///< ggml order: innermost first
    std::uint32_t type = 0;              ///< ggml type id (0 = F32)
    std::optional<std::uint64_t> offset; ///< default: packed, aligned, in order
};

struct gguf_spec {
    std::string magic     = "GGUF";
    std::uint32_t version = 3;
    std::optional<std::uint64_t> n_tensors; ///< override the written count
    std::optional<std::uint64_t> n_kv;      ///< override the written count
    std::vector<kv_spec> kvs;
    std::vector<tensor_spec> tensors;
    std::uint32_t alignment = 32;   ///< padding used by the writer (write general.alignment yourself)
    bool write_data         = true; ///< pad and write zeroed tensor data
};

inline std::uint64_t spec_tensor_bytes(const tensor_spec& t) {
    std::uint64_t n = 1;
    for (auto d : t.ne)
        n *= d;
    std::uint64_t b = 0;
    const auto dt   = dtype_from_ggml_id(t.type);
    return dt && tensor_bytes(*dt, n, b) ? b : 0;
}

/// The file's bytes. Offsets of the tensor infos and data follow the spec's layout rules.
inline std::vector<std::byte> build(const gguf_spec& s) {
    byte_writer w;
    w.raw(s.magic).u32(s.version);
    w.u64(s.n_tensors.value_or(s.tensors.size())).u64(s.n_kv.value_or(s.kvs.size()));
    for (const auto& kv : s.kvs)
        w.str(kv.key).u32(kv.val.type).bytes(kv.val.body);
    std::uint64_t next = 0, data_end = 0;
    for (const auto& t : s.tensors) {
        const std::uint64_t off = t.offset.value_or(next);
        const std::uint64_t b   = spec_tensor_bytes(t);
        w.str(t.name).u32(static_cast<std::uint32_t>(t.ne.size()));
        for (auto d : t.ne)
            w.u64(d);
        w.u32(t.type).u64(off);
        next     = (off + b + s.alignment - 1) / s.alignment * s.alignment;
        data_end = std::max(data_end, off + b);
    }
    if (s.write_data && !s.tensors.empty()) {
        w.zeros((s.alignment - w.size() % s.alignment) % s.alignment);
        w.zeros(data_end);
    }
    return w.data;
}

/// A small valid model: llama, 2 blocks, n_embd 64, 4 heads / 2 KV heads, 8 tensors.
inline gguf_spec tiny_llama_spec() {
    gguf_spec s;
    s.kvs = model_kvs("llama", 2, 64, v_u32(128), 4,
                      {
                          {"attention.head_count_kv",          v_u32(2)    },
                          {"context_length",                   v_u32(256)  },
                          {"vocab_size",                       v_u32(100)  },
                          {"attention.layer_norm_rms_epsilon", v_f32(1e-5f)}
    });
    s.kvs.push_back({"general.name", v_str("tiny")});
    s.kvs.push_back({"general.file_type", v_u32(1)});
    s.tensors = {
        {"token_embd.weight",      {64, 100}, 1, {}},
        {"blk.0.attn_q.weight",    {64, 64},  1, {}},
        {"blk.0.attn_k.weight",    {64, 32},  1, {}},
        {"blk.0.attn_norm.weight", {64},      0, {}},
        {"blk.1.attn_q.weight",    {64, 64},  1, {}},
        {"blk.1.ffn_down.weight",  {128, 64}, 8, {}},
        {"output_norm.weight",     {64},      0, {}},
        {"output.weight",          {64, 100}, 1, {}},
    };
    return s;
}

} // namespace llmplan::test
