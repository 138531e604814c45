// GGUF reader: the header (key/values and tensor infos) of GGUF v2/v3 files, and its mapping to
// a model_desc.
//
// Format facts come from the GGUF spec (ggml docs/gguf.md): little-endian; magic "GGUF"; version
// u32; n_tensors u64; n_kv u64; KVs (key string, value type u32, value); tensor infos (name,
// n_dims u32, ne u64[n_dims], ggml type u32, offset u64); then the data section, which starts at
// the end of the tensor infos rounded up to `general.alignment` (default 32). Every count and
// length read from the file is bounded by the bytes left before anything is allocated.
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace llmplan {

/// GGUF metadata value types; the numbers are the on-disk ids (gguf_metadata_value_type).
enum class gguf_type : std::uint32_t {
    u8      = 0,
    i8      = 1,
    u16     = 2,
    i16     = 3,
    u32     = 4,
    i32     = 5,
    f32     = 6,
    boolean = 7,
    string  = 8,
    array   = 9,
    u64     = 10,
    i64     = 11,
    f64     = 12,
    count   = 13
};
std::string_view name(gguf_type t);

/// One scalar: unsigned ints widen to u64, signed to i64, floats to double.
using gguf_scalar = std::variant<std::uint64_t, std::int64_t, double, bool, std::string>;

/// An array value: its element type and count as in the file, plus a bounded copy of the elements
/// (`values` for scalars, `arrays` for nested arrays). `complete()` says whether all were kept.
struct gguf_array {
    gguf_type elem_type = gguf_type::u8;
    std::uint64_t count = 0;
    std::vector<gguf_scalar> values; ///< first elements, at most max_kept_values (see gguf.cpp)
    std::vector<gguf_array> arrays;  ///< nested arrays (elem_type == array), same bound

    [[nodiscard]] bool complete() const { return values.size() + arrays.size() == count; }
    bool operator==(const gguf_array&) const = default;
    /// Element i as an unsigned integer (any integer or bool type, non-negative); nullopt otherwise.
    [[nodiscard]] std::optional<std::uint64_t> uint_at(std::size_t i) const;
};

using gguf_value = std::variant<gguf_scalar, gguf_array>;

struct gguf_kv {
    std::string key;
    gguf_type type = gguf_type::u8;
    gguf_value value;
    std::uint64_t offset = 0; ///< byte offset of the key in its file

    [[nodiscard]] const gguf_scalar* scalar() const { return std::get_if<gguf_scalar>(&value); }
    [[nodiscard]] const gguf_array* array() const { return std::get_if<gguf_array>(&value); }
    /// Any integer or bool type holding a non-negative value.
    [[nodiscard]] std::optional<std::uint64_t> as_uint() const;
    [[nodiscard]] std::optional<std::int64_t> as_int() const;
    [[nodiscard]] std::optional<double> as_double() const; ///< floats and integers
    [[nodiscard]] const std::string* as_string() const;
};

/// One tensor info. `desc` has name, shape (PyTorch order: ggml ne reversed), type and exact bytes;
/// its role and layer are filled by model_from_gguf.
struct gguf_tensor_info {
    tensor_desc desc;
    std::uint32_t n_dims      = 0;
    std::uint64_t offset      = 0; ///< as stored: relative to the start of the data section
    std::uint64_t file_offset = 0; ///< absolute byte offset of the data in its file
    std::uint64_t info_offset = 0; ///< byte offset of the tensor info (its name) in the header
    std::uint32_t part        = 0; ///< index into gguf_file::parts (split files)
};

/// One file of a (possibly split) GGUF model.
struct gguf_part {
    std::string path;
    std::uint64_t file_size_bytes = 0;
    std::uint64_t n_tensors       = 0;
};

struct gguf_file {
    std::string path;
    std::uint32_t version   = 0;
    std::uint64_t n_tensors = 0; ///< all parts together
    std::uint64_t n_kv      = 0; ///< of the first part, as declared in its header
    std::vector<gguf_kv> kvs;    ///< in file order (first part), unique keys
    std::vector<gguf_tensor_info> tensors;

    std::uint32_t alignment       = 32;    ///< general.alignment; the spec's default is 32
    std::uint64_t header_bytes    = 0;     ///< end of the tensor infos (first part)
    std::uint64_t data_offset     = 0;     ///< header_bytes rounded up to alignment
    std::uint64_t data_end        = 0;     ///< end of the last tensor's data (first part), absolute
    std::uint64_t file_size_bytes = 0;     ///< of the first part; 0 when unknown (a prefix)
    bool data_checked             = false; ///< tensor extents were checked against the file size

    std::optional<std::uint32_t> file_type; ///< general.file_type (llama_ftype), when present
    std::vector<gguf_part> parts;           ///< one entry per file; split models have split.count
    std::vector<std::string> warnings;      ///< tolerated oddities (e.g. an identical duplicate KV)

    [[nodiscard]] const gguf_kv* find(std::string_view key) const;
    [[nodiscard]] std::string architecture() const; ///< general.architecture, "" when absent
    [[nodiscard]] std::uint64_t total_file_bytes() const;
};

struct gguf_read_options {
    /// Size of the whole file when `bytes` is only its beginning; 0 means `bytes` is the whole file.
    std::uint64_t file_size_bytes = 0;
    /// false: `bytes` is a prefix of a file of unknown size; tensor data past it is not checked.
    bool check_data_extent = true;
};

/// Parses a GGUF header from memory. With default options `bytes` is the whole file, and tensor
/// data past its end is an error (truncated).
result<gguf_file> read_gguf(std::span<const std::byte> bytes, std::string_view path,
                            const gguf_read_options& options = {});

/// Reads the header of a GGUF file from disk, reading progressively (1 MiB first, growing) and never
/// the tensor data. Given part 1 of a split model (`*-00001-of-0000N.gguf`) it reads every part and
/// merges the tensors.
result<gguf_file> read_gguf_file(const std::string& path);

/// Maps the GGUF keys (gguf_keys.cpp) and tensors to a model description.
result<model_desc> model_from_gguf(const gguf_file& file, std::string_view path);

} // namespace llmplan
