// GGUF header parser (from memory). See include/llmplan/gguf.h for the layout.
#include "llmplan/gguf.h"

#include "model/gguf_parse.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <iterator>
#include <unordered_map>
#include <unordered_set>

namespace llmplan {
namespace {

// Kept array elements: per-layer arrays (head_count_kv, feed_forward_length) have n_layer entries,
// far below 4096 for every released model; tokenizer arrays (150k entries) keep only their count.
constexpr std::uint64_t max_kept_values  = 4096;
constexpr std::uint64_t max_kept_strings = 64; // string arrays (tokens, merges): a few for display
// Nested arrays: real files nest at most once; the bound keeps recursion shallow on hostile input.
constexpr int max_array_depth                 = 8;
constexpr std::uint32_t max_dims              = 4;                     // GGML_MAX_DIMS
constexpr std::uint32_t default_alignment     = 32;                    // GGUF_DEFAULT_ALIGNMENT (spec)
constexpr std::uint64_t min_kv_bytes          = 8 + 4 + 1;             // key length, value type, a u8 value
constexpr std::uint64_t min_tensor_info_bytes = 8 + 4 + 4 + 8;         // name length, n_dims 0, type, offset
constexpr std::uint64_t max_ne                = 0x7fffffffffffffffull; // ggml stores ne as int64_t

// Smallest encoding of one value of type t, to bound array counts by the bytes left: the scalar's
// size (gguf.md), a string's u64 length (empty string), an array's u32 element type + u64 count
// (empty array). Indexed by gguf_type: u8 i8 u16 i16 u32 i32 f32 bool string array u64 i64 f64.
constexpr std::uint8_t min_bytes_of[] = {1, 1, 2, 2, 4, 4, 4, 1, 8, 12, 8, 8, 8};
static_assert(std::size(min_bytes_of) == static_cast<std::size_t>(gguf_type::count));

std::uint64_t min_value_bytes(gguf_type t) {
    const auto i = static_cast<std::size_t>(t);
    return i < std::size(min_bytes_of) ? min_bytes_of[i] : 8;
}

class parser {
  public:
    parser(std::span<const std::byte> bytes, std::string_view path, std::uint64_t file_size)
        : b_(bytes), path_(path), file_size_(file_size) {}

    result<gguf_file> run(bool check_extent) {
        gguf_file f;
        f.path            = std::string(path_);
        f.file_size_bytes = file_size_;
        if (!read_fixed(f) || !read_kvs(f) || !apply_alignment(f) || !read_tensor_infos(f) ||
            !check_tensors(f, check_extent))
            return unexpected{err_};
        return f;
    }
    [[nodiscard]] bool need_more() const { return need_more_; }

  private:
    std::span<const std::byte> b_;
    std::string_view path_;
    std::uint64_t file_size_;
    std::uint64_t pos_ = 0;
    error err_;
    bool need_more_ = false;

    bool fail(error_code c, std::string msg, std::uint64_t at) {
        err_ = error{c, std::move(msg), fmt::format("{}:offset {}", path_, at)};
        return false;
    }
    [[nodiscard]] std::uint64_t left_in_file() const { return file_size_ - pos_; }

    // n more bytes at pos_ must be in the buffer (and so in the file).
    bool need(std::uint64_t n, std::string_view what) {
        if (n <= b_.size() - pos_) return true;
        if (n <= left_in_file()) {
            need_more_ = true; // the caller read a prefix; a longer read can succeed
            return fail(
                error_code::truncated,
                fmt::format("{} needs {} bytes; the read buffer ends {} bytes later", what, n, b_.size() - pos_), pos_);
        }
        return fail(error_code::truncated,
                    fmt::format("{} needs {} bytes; only {} are left in the file", what, n, left_in_file()), pos_);
    }

    template <class T> bool read_le(T& out, std::string_view what) {
        if (!need(sizeof(T), what)) return false;
        std::array<unsigned char, sizeof(T)> raw{};
        for (std::size_t i = 0; i < sizeof(T); ++i) // little-endian, independent of the host
            raw[i] = static_cast<unsigned char>(b_[pos_ + i]);
        if constexpr (std::endian::native != std::endian::little) std::reverse(raw.begin(), raw.end());
        std::memcpy(&out, raw.data(), sizeof(T));
        pos_ += sizeof(T);
        return true;
    }

    // A GGUF string (u64 length + bytes) as a view into the buffer; length bounded by the file first.
    bool read_string(std::string_view& out, std::string_view what) {
        const std::uint64_t at = pos_;
        std::uint64_t len      = 0;
        if (!read_le(len, what)) return false;
        if (len > left_in_file())
            return fail(
                error_code::truncated,
                fmt::format("{}: string length {} exceeds the {} bytes left in the file", what, len, left_in_file()),
                at);
        if (!need(len, what)) return false;
        out = std::string_view(reinterpret_cast<const char*>(b_.data() + pos_), static_cast<std::size_t>(len));
        pos_ += len;
        return true;
    }

    bool read_type(gguf_type& t, std::string_view what) {
        const std::uint64_t at = pos_;
        std::uint32_t id       = 0;
        if (!read_le(id, what)) return false;
        if (id >= static_cast<std::uint32_t>(gguf_type::count))
            return fail(error_code::bad_value, fmt::format("{}: unknown value type {}; expected 0..12", what, id), at);
        t = static_cast<gguf_type>(id);
        return true;
    }

    template <class Raw, class Wide> bool scalar_as(gguf_scalar* out, std::string_view what) {
        Raw v{};
        if (!read_le(v, what)) return false;
        if (out) *out = static_cast<Wide>(v);
        return true;
    }

    // One scalar value of type t; out == nullptr skips it without copying.
    bool read_scalar(gguf_type t, gguf_scalar* out, std::string_view what) {
        switch (t) {
        case gguf_type::u8:
            return scalar_as<std::uint8_t, std::uint64_t>(out, what);
        case gguf_type::i8:
            return scalar_as<std::int8_t, std::int64_t>(out, what);
        case gguf_type::u16:
            return scalar_as<std::uint16_t, std::uint64_t>(out, what);
        case gguf_type::i16:
            return scalar_as<std::int16_t, std::int64_t>(out, what);
        case gguf_type::u32:
            return scalar_as<std::uint32_t, std::uint64_t>(out, what);
        case gguf_type::i32:
            return scalar_as<std::int32_t, std::int64_t>(out, what);
        case gguf_type::u64:
            return scalar_as<std::uint64_t, std::uint64_t>(out, what);
        case gguf_type::i64:
            return scalar_as<std::int64_t, std::int64_t>(out, what);
        case gguf_type::f32:
            return scalar_as<float, double>(out, what);
        case gguf_type::f64:
            return scalar_as<double, double>(out, what);
        case gguf_type::boolean: {
            std::uint8_t v = 0;
            if (!read_le(v, what)) return false;
            if (out) *out = v != 0;
            return true;
        }
        case gguf_type::string: {
            std::string_view s;
            if (!read_string(s, what)) return false;
            if (out) *out = std::string(s);
            return true;
        }
        default:
            return fail(error_code::bad_value, fmt::format("{}: not a scalar type", what), pos_);
        }
    }

    bool read_array(gguf_array& out, int depth, bool keep, std::string_view what) {
        if (depth > max_array_depth)
            return fail(error_code::bad_value,
                        fmt::format("{}: arrays nested deeper than {} levels", what, max_array_depth), pos_);
        if (!read_type(out.elem_type, what)) return false;
        const std::uint64_t count_at = pos_;
        if (!read_le(out.count, what)) return false;
        const std::uint64_t min_bytes = min_value_bytes(out.elem_type);
        if (out.count > left_in_file() / min_bytes)
            return fail(error_code::truncated,
                        fmt::format("{}: array count {} of {} needs at least {} bytes each; only {} bytes are left "
                                    "in the file",
                                    what, out.count, name(out.elem_type), min_bytes, left_in_file()),
                        count_at);
        const bool strings      = out.elem_type == gguf_type::string;
        const std::uint64_t cap = !keep ? 0 : strings ? max_kept_strings : max_kept_values;
        const auto kept         = std::min(out.count, cap);
        if (out.elem_type == gguf_type::array)
            out.arrays.reserve(kept);
        else
            out.values.reserve(kept);
        for (std::uint64_t i = 0; i < out.count; ++i) {
            const bool keep_this = i < cap;
            if (out.elem_type == gguf_type::array) {
                gguf_array child;
                if (!read_array(child, depth + 1, keep_this, what)) return false;
                if (keep_this) out.arrays.push_back(std::move(child));
            } else if (keep_this) {
                gguf_scalar v;
                if (!read_scalar(out.elem_type, &v, what)) return false;
                out.values.push_back(std::move(v));
            } else if (!read_scalar(out.elem_type, nullptr, what)) {
                return false;
            }
        }
        return true;
    }

    bool read_fixed(gguf_file& f) {
        if (!need(4, "magic")) return false;
        if (std::memcmp(b_.data(), "GGUF", 4) != 0) {
            std::string found;
            for (int i = 0; i < 4; ++i) {
                const auto c = static_cast<unsigned char>(b_[i]);
                found += (c >= 0x20 && c < 0x7f) ? std::string(1, static_cast<char>(c)) : fmt::format("\\x{:02x}", c);
            }
            return fail(error_code::bad_magic, fmt::format("magic \"{}\"; expected \"GGUF\"", found), 0);
        }
        pos_ = 4;
        if (!read_le(f.version, "version")) return false;
        if (f.version != 2 && f.version != 3) {
            if (f.version != 0 && (f.version & 0xffffu) == 0) // a small number stored big-endian
                return fail(
                    error_code::unsupported_version,
                    fmt::format("version 0x{:08x} looks byte-swapped; big-endian GGUF is not supported", f.version), 4);
            return fail(error_code::unsupported_version,
                        fmt::format("version {}; supported: 2 and 3 (v1 used 32-bit lengths)", f.version), 4);
        }
        if (!read_le(f.n_tensors, "n_tensors") || !read_le(f.n_kv, "n_kv")) return false;
        const std::uint64_t left = left_in_file();
        if (f.n_kv > left / min_kv_bytes)
            return fail(error_code::truncated,
                        fmt::format("n_kv {} needs at least {} bytes each; only {} bytes are left in the file", f.n_kv,
                                    min_kv_bytes, left),
                        16);
        if (f.n_tensors > left / min_tensor_info_bytes)
            return fail(error_code::truncated,
                        fmt::format("n_tensors {} needs at least {} bytes each; only {} bytes are left in the file",
                                    f.n_tensors, min_tensor_info_bytes, left),
                        8);
        return true;
    }

    bool read_kvs(gguf_file& f) {
        std::unordered_map<std::string_view, std::size_t> seen; // views into the buffer
        f.kvs.reserve(static_cast<std::size_t>(f.n_kv));
        for (std::uint64_t i = 0; i < f.n_kv; ++i) {
            const std::uint64_t at = pos_;
            const std::string what = fmt::format("KV #{}", i);
            std::string_view key;
            if (!read_string(key, what + " key")) return false;
            if (!detail::is_valid_utf8(key))
                return fail(error_code::bad_value, fmt::format("{} key is not valid UTF-8", what), at);
            gguf_kv kv{std::string(key), gguf_type::u8, {}, at};
            const std::string kv_what = fmt::format("KV '{}'", key);
            if (!read_type(kv.type, kv_what)) return false;
            if (kv.type == gguf_type::array) {
                gguf_array a;
                if (!read_array(a, 1, true, kv_what)) return false;
                kv.value = std::move(a);
            } else {
                gguf_scalar s;
                if (!read_scalar(kv.type, &s, kv_what)) return false;
                kv.value = std::move(s);
            }
            if (auto it = seen.find(key); it != seen.end()) {
                const gguf_kv& first = f.kvs[it->second];
                if (first.type != kv.type || first.value != kv.value)
                    return fail(
                        error_code::duplicate_key,
                        fmt::format("duplicate key '{}' with a different value; first at offset {}", key, first.offset),
                        at);
                f.warnings.push_back(
                    fmt::format("{}:offset {}: key '{}' repeated with the same value; kept the first", path_, at, key));
                continue;
            }
            seen.emplace(key, f.kvs.size());
            f.kvs.push_back(std::move(kv));
        }
        if (const gguf_kv* ft = f.find("general.file_type")) {
            if (auto v = ft->as_uint(); v && *v <= 0xffffffffu) f.file_type = static_cast<std::uint32_t>(*v);
        }
        return true;
    }

    bool apply_alignment(gguf_file& f) {
        f.alignment       = default_alignment;
        const gguf_kv* kv = f.find("general.alignment");
        if (!kv) return true;
        if (kv->type != gguf_type::u32)
            return fail(error_code::bad_alignment,
                        fmt::format("general.alignment has type {}; expected u32", name(kv->type)), kv->offset);
        const std::uint64_t a = *kv->as_uint();
        if (a == 0 || (a & (a - 1)) != 0)
            return fail(error_code::bad_alignment, fmt::format("general.alignment = {} is not a power of two", a),
                        kv->offset);
        f.alignment = static_cast<std::uint32_t>(a);
        return true;
    }

    bool read_tensor_infos(gguf_file& f);
    bool check_tensors(gguf_file& f, bool check_extent);
};

bool parser::read_tensor_infos(gguf_file& f) {
    std::unordered_set<std::string_view> names; // views into the buffer
    f.tensors.reserve(static_cast<std::size_t>(f.n_tensors));
    for (std::uint64_t i = 0; i < f.n_tensors; ++i) {
        gguf_tensor_info t;
        t.info_offset = pos_;
        std::string_view nm;
        if (!read_string(nm, fmt::format("tensor #{} name", i))) return false;
        if (!detail::is_valid_utf8(nm))
            return fail(error_code::bad_value, fmt::format("tensor #{} name is not valid UTF-8", i), t.info_offset);
        if (!names.insert(nm).second)
            return fail(error_code::duplicate_key, fmt::format("duplicate tensor name '{}'", nm), t.info_offset);
        const std::string what      = fmt::format("tensor '{}'", nm);
        const std::uint64_t dims_at = pos_;
        if (!read_le(t.n_dims, what)) return false;
        if (t.n_dims > max_dims)
            return fail(error_code::bad_value,
                        fmt::format("{}: n_dims {}; at most {} (GGML_MAX_DIMS)", what, t.n_dims, max_dims), dims_at);
        std::array<std::uint64_t, max_dims> ne{1, 1, 1, 1};
        std::uint64_t n_elements = 1;
        for (std::uint32_t d = 0; d < t.n_dims; ++d) {
            const std::uint64_t ne_at = pos_;
            if (!read_le(ne[d], what)) return false;
            if (ne[d] > max_ne || !detail::checked_mul(n_elements, ne[d], n_elements) || n_elements > max_ne)
                return fail(error_code::overflow,
                            fmt::format("{}: ne[{}] = {} makes the element count overflow int64", what, d, ne[d]),
                            ne_at);
        }
        const std::uint64_t type_at = pos_;
        std::uint32_t type_id       = 0;
        if (!read_le(type_id, what)) return false;
        const auto type = dtype_from_ggml_id(type_id);
        if (!type)
            return fail(error_code::bad_value, fmt::format("{}: unknown ggml type id {}", what, type_id), type_at);
        const auto& ti = info(*type);
        if (ne[0] % ti.block_size != 0)
            return fail(error_code::bad_value,
                        fmt::format("{}: ne[0] = {} is not a multiple of the {} block size {}", what, ne[0], ti.name,
                                    ti.block_size),
                        dims_at);
        if (!tensor_bytes(*type, n_elements, t.desc.bytes))
            return fail(error_code::overflow, fmt::format("{}: byte size overflows", what), dims_at);
        if (!read_le(t.offset, what)) return false;
        t.desc.name = std::string(nm);
        t.desc.type = *type;
        for (std::uint32_t d = t.n_dims; d-- > 0;) // ggml ne is innermost first; PyTorch order reverses it
            t.desc.shape.push_back(ne[d]);
        f.tensors.push_back(std::move(t));
    }
    f.header_bytes = pos_;
    return true;
}

bool parser::check_tensors(gguf_file& f, bool check_extent) {
    const std::uint64_t pad = (f.alignment - f.header_bytes % f.alignment) % f.alignment;
    if (!detail::checked_add(f.header_bytes, pad, f.data_offset))
        return fail(error_code::overflow, "data section offset overflows", f.header_bytes);
    f.data_end = f.data_offset;
    for (auto& t : f.tensors) {
        if (t.offset % f.alignment != 0)
            return fail(error_code::bad_alignment,
                        fmt::format("tensor '{}': offset {} is not a multiple of the alignment {}", t.desc.name,
                                    t.offset, f.alignment),
                        t.info_offset);
        std::uint64_t end = 0;
        if (!detail::checked_add(f.data_offset, t.offset, t.file_offset) ||
            !detail::checked_add(t.file_offset, t.desc.bytes, end))
            return fail(error_code::overflow, fmt::format("tensor '{}': data end overflows", t.desc.name),
                        t.info_offset);
        if (check_extent && end > f.file_size_bytes)
            return fail(error_code::truncated,
                        fmt::format("tensor '{}': data [{}, {}) extends past the end of the file ({} bytes)",
                                    t.desc.name, t.file_offset, end, f.file_size_bytes),
                        t.info_offset);
        f.data_end = std::max(f.data_end, end);
    }
    std::vector<const gguf_tensor_info*> by_offset;
    by_offset.reserve(f.tensors.size());
    for (const auto& t : f.tensors)
        by_offset.push_back(&t);
    std::sort(by_offset.begin(), by_offset.end(),
              [](const gguf_tensor_info* a, const gguf_tensor_info* b) { return a->offset < b->offset; });
    for (std::size_t i = 1; i < by_offset.size(); ++i) {
        const auto* prev = by_offset[i - 1];
        const auto* cur  = by_offset[i];
        if (cur->offset < prev->offset + prev->desc.bytes) // no overflow: checked above
            return fail(error_code::bad_value,
                        fmt::format("tensor '{}' at data offset {} overlaps tensor '{}' [{}, {})", cur->desc.name,
                                    cur->offset, prev->desc.name, prev->offset, prev->offset + prev->desc.bytes),
                        cur->info_offset);
    }
    f.data_checked = check_extent;
    return true;
}

} // namespace

namespace detail {

result<gguf_file> parse_gguf(std::span<const std::byte> bytes, std::string_view path, std::uint64_t file_size,
                             bool check_extent, bool& need_more) {
    parser p(bytes, path, file_size);
    auto r    = p.run(check_extent);
    need_more = !r && p.need_more();
    return r;
}

} // namespace detail

result<gguf_file> read_gguf(std::span<const std::byte> bytes, std::string_view path, const gguf_read_options& options) {
    const std::uint64_t file_size = options.file_size_bytes == 0 ? bytes.size() : options.file_size_bytes;
    if (file_size < bytes.size())
        return make_error(error_code::invalid_params,
                          fmt::format("file_size_bytes {} is smaller than the {} bytes given", file_size, bytes.size()),
                          std::string(path));
    bool need_more = false;
    auto r         = detail::parse_gguf(bytes, path, file_size, options.check_data_extent, need_more);
    if (!r) return r;
    gguf_file& f = *r;
    if (options.file_size_bytes == 0 && !options.check_data_extent) f.file_size_bytes = 0; // a prefix
    f.parts.push_back(gguf_part{f.path, f.file_size_bytes, f.n_tensors});
    return r;
}

} // namespace llmplan
