// Reader of safetensors headers (single files, directories, sharded checkpoints with an index).
//
// Format (huggingface/safetensors README, "Format"): 8 bytes little-endian u64 N, then N bytes of
// UTF-8 JSON: an object whose keys are tensor names mapping to {"dtype", "shape", "data_offsets":
// [begin, end]} (offsets relative to the data section that starts at 8 + N), plus an optional
// "__metadata__" string->string map. The data section must be covered by the tensors exactly.
// Only the header is read: tensor data is never touched, so multi-GB shards cost a few KB of I/O.
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan {

/// Upper bound on N, the JSON header length. The reference reader (safetensors/src/tensor.rs
/// MAX_HEADER_SIZE) refuses more than 100,000,000 bytes; we allow 100 MiB, which also bounds the
/// one allocation done before parsing.
inline constexpr std::uint64_t safetensors_max_header_bytes = std::uint64_t{100} << 20;

/// Byte range [begin, end) of one tensor, relative to the start of the data section (8 + N).
struct safetensors_range {
    std::uint64_t begin = 0;
    std::uint64_t end   = 0;
};

/// One parsed header.
struct safetensors_header {
    std::string path;
    /// In header order; role, layer and is_bias come from the Hugging Face name (hf_tensor_names.h).
    std::vector<tensor_desc> tensors;
    std::vector<safetensors_range> offsets;      ///< offsets[i] belongs to tensors[i]
    std::map<std::string, std::string> metadata; ///< "__metadata__" (empty when absent or null)
    std::uint64_t header_bytes = 0;              ///< N, the JSON length (without the 8 length bytes)
    std::uint64_t data_bytes   = 0;              ///< file_size - 8 - N = sum of tensor bytes
    std::uint64_t file_bytes   = 0;              ///< file size as given
};

/// Parses the header from `bytes`, which holds at least the first 8 + N bytes of a file of
/// `file_size` bytes (the rest may be absent). `path` only labels errors.
result<safetensors_header> read_safetensors(std::span<const std::byte> bytes, std::uint64_t file_size,
                                            std::string_view path);

/// Reads the 8 length bytes and the JSON header of one file (never the data; size from stat).
result<safetensors_header> read_safetensors_file(const std::string& path);

/// model.safetensors.index.json: which shard holds each tensor, and the checkpoint's data bytes.
struct safetensors_index {
    std::vector<std::string> names;  ///< weight_map keys, in file order
    std::vector<std::string> shards; ///< shards[i]: plain file name holding names[i]
    std::uint64_t total_size = 0;    ///< metadata.total_size (sum of tensor bytes), 0 when absent
};

/// Parses index JSON text (e.g. an embedded catalog copy); `path` only labels errors.
result<safetensors_index> parse_safetensors_index(std::string_view text, std::string_view path);

/// Every tensor of a checkpoint directory.
struct safetensors_model {
    std::string dir;
    std::vector<tensor_desc> tensors;            ///< all tensors (from headers, or names only from the index)
    std::vector<std::string> tensor_files;       ///< tensor_files[i]: file name (in dir) holding tensors[i]
    std::vector<std::string> files;              ///< the .safetensors file names, in read order
    std::map<std::string, std::string> metadata; ///< "__metadata__" of the files (first value wins)
    bool has_index                 = false;      ///< model.safetensors.index.json was present
    bool headers_read              = false; ///< false: index only, no shard on disk; tensors carry names, no shapes
    std::uint64_t index_total_size = 0;     ///< the index's metadata.total_size (0 without index)
    std::uint64_t data_bytes       = 0;     ///< sum of tensor bytes; the index's total_size when !headers_read
    std::uint64_t file_bytes       = 0;     ///< bytes on disk of the files read (0 when !headers_read)
};

/// Reads `dir/model.safetensors.index.json` and its shards' headers when the index exists, else
/// `dir/model.safetensors`, else every `*.safetensors` in dir (sorted by name).
result<safetensors_model> read_safetensors_dir(const std::string& dir);

/// One file's header by its name (from disk, or from a remote repo's ranged reads).
using safetensors_header_reader = std::function<result<safetensors_header>(const std::string& name)>;

/// The checkpoint made of `files` (without an index), or of the index's shards (each tensor must be
/// in the shard the index names), with headers from `read`; `label` names the checkpoint in errors.
result<safetensors_model> read_safetensors_headers(std::string label, const safetensors_index* index,
                                                   const std::vector<std::string>& files,
                                                   const safetensors_header_reader& read);

} // namespace llmplan
