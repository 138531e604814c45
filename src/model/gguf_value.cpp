// GGUF values: typed accessors, type names, UTF-8 validation.
#include "llmplan/gguf.h"
#include "model/gguf_parse.h"

#include <array>

namespace llmplan {
namespace {

// Spec names of the 13 value types (gguf_metadata_value_type), in id order.
constexpr std::array<std::string_view, static_cast<std::size_t>(gguf_type::count)> type_names{
    "u8", "i8", "u16", "i16", "u32", "i32", "f32", "bool", "string", "array", "u64", "i64", "f64"};

std::optional<std::uint64_t> scalar_uint(const gguf_scalar& s) {
    if (const auto* u = std::get_if<std::uint64_t>(&s)) return *u;
    if (const auto* i = std::get_if<std::int64_t>(&s); i && *i >= 0) return static_cast<std::uint64_t>(*i);
    if (const auto* b = std::get_if<bool>(&s)) return *b ? 1u : 0u;
    return std::nullopt;
}

} // namespace

std::string_view name(gguf_type t) {
    const auto i = static_cast<std::size_t>(t);
    return i < type_names.size() ? type_names[i] : std::string_view("unknown");
}

std::optional<std::uint64_t> gguf_array::uint_at(std::size_t i) const {
    if (i >= values.size()) return std::nullopt;
    return scalar_uint(values[i]);
}

std::optional<std::uint64_t> gguf_kv::as_uint() const {
    const auto* s = scalar();
    return s ? scalar_uint(*s) : std::nullopt;
}

std::optional<std::int64_t> gguf_kv::as_int() const {
    const auto* s = scalar();
    if (!s) return std::nullopt;
    if (const auto* i = std::get_if<std::int64_t>(s)) return *i;
    if (const auto* u = std::get_if<std::uint64_t>(s); u && *u <= static_cast<std::uint64_t>(INT64_MAX))
        return static_cast<std::int64_t>(*u);
    return std::nullopt;
}

std::optional<double> gguf_kv::as_double() const {
    const auto* s = scalar();
    if (!s) return std::nullopt;
    if (const auto* d = std::get_if<double>(s)) return *d;
    if (const auto* u = std::get_if<std::uint64_t>(s)) return static_cast<double>(*u);
    if (const auto* i = std::get_if<std::int64_t>(s)) return static_cast<double>(*i);
    return std::nullopt;
}

const std::string* gguf_kv::as_string() const {
    const auto* s = scalar();
    return s ? std::get_if<std::string>(s) : nullptr;
}

const gguf_kv* gguf_file::find(std::string_view key) const {
    for (const auto& kv : kvs)
        if (kv.key == key) return &kv;
    return nullptr;
}

std::string gguf_file::architecture() const {
    const gguf_kv* kv    = find("general.architecture");
    const std::string* s = kv ? kv->as_string() : nullptr;
    return s ? *s : std::string();
}

std::uint64_t gguf_file::total_file_bytes() const {
    std::uint64_t total = 0;
    for (const auto& p : parts)
        total += p.file_size_bytes;
    return total;
}

namespace detail {

bool is_valid_utf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c     = static_cast<unsigned char>(s[i]);
        std::size_t n    = 0;
        std::uint32_t cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        }
        if ((c & 0xe0) == 0xc0) {
            n  = 1;
            cp = c & 0x1fu;
        } else if ((c & 0xf0) == 0xe0) {
            n  = 2;
            cp = c & 0x0fu;
        } else if ((c & 0xf8) == 0xf0) {
            n  = 3;
            cp = c & 0x07u;
        } else {
            return false; // continuation byte first, or 0xf8..0xff
        }
        if (s.size() - i <= n) return false;
        for (std::size_t k = 1; k <= n; ++k) {
            const auto cc = static_cast<unsigned char>(s[i + k]);
            if ((cc & 0xc0) != 0x80) return false;
            cp = (cp << 6) | (cc & 0x3fu);
        }
        constexpr std::array<std::uint32_t, 4> min_cp{0, 0x80, 0x800, 0x10000}; // shortest form per length
        if (cp < min_cp[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
        i += n + 1;
    }
    return true;
}

} // namespace detail
} // namespace llmplan
