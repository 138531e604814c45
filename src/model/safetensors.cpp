// safetensors header parsing and validation (format: huggingface/safetensors README).
#include "llmplan/safetensors.h"

#include "model/hf_tensor_names.h"
#include "model/safetensors_detail.h"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>
#include <unordered_set>

namespace llmplan {

using nlohmann::ordered_json;

namespace detail {

std::string printable(std::string_view s, std::size_t max_chars) {
    std::string out;
    for (std::size_t i = 0; i < s.size() && i < max_chars; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c >= 0x7f)
            out += fmt::format("\\x{:02x}", c);
        else
            out += static_cast<char>(c);
    }
    if (s.size() > max_chars) out += "...";
    return out;
}

std::string json_pointer(std::string_view key) {
    std::string escaped;
    for (char c : key) {
        if (c == '~')
            escaped += "~0";
        else if (c == '/')
            escaped += "~1";
        else
            escaped += c;
    }
    return fmt::format("/{}", printable(escaped));
}

result<nlohmann::ordered_json> parse_json_strict(std::string_view text, std::string_view path,
                                                 std::uint64_t base_offset) {
    using event_t = nlohmann::ordered_json::parse_event_t;
    struct frame {
        bool is_object      = false;
        std::size_t n_items = 0; ///< arrays: elements seen so far (for the pointer)
        std::string key;         ///< objects: the current key
        std::unordered_set<std::string> keys;
    };
    std::vector<frame> stack;
    std::string duplicate; // JSON pointer of the first duplicate key
    auto on_item = [&] {
        if (!stack.empty() && !stack.back().is_object) ++stack.back().n_items;
    };
    const ordered_json::parser_callback_t callback = [&](int, event_t event, ordered_json& parsed) {
        switch (event) {
        case event_t::object_start:
        case event_t::array_start:
            on_item();
            stack.push_back(frame{event == event_t::object_start, 0, {}, {}});
            break;
        case event_t::object_end:
        case event_t::array_end:
            if (!stack.empty()) stack.pop_back();
            break;
        case event_t::value:
            on_item();
            break;
        case event_t::key:
            if (!stack.empty() && parsed.is_string()) {
                frame& top = stack.back();
                top.key    = parsed.get_ref<const std::string&>();
                if (duplicate.empty() && !top.keys.insert(top.key).second) {
                    for (const frame& f : stack)
                        duplicate += f.is_object ? json_pointer(f.key) : fmt::format("/{}", f.n_items - 1);
                }
            }
            break;
        }
        return true;
    };
    try {
        ordered_json doc = ordered_json::parse(text.begin(), text.end(), callback, /*allow_exceptions=*/true,
                                               /*ignore_comments=*/false);
        if (!duplicate.empty())
            return make_error(error_code::duplicate_key,
                              fmt::format("key {} appears more than once; expected unique keys", duplicate),
                              fmt::format("{}:{}", path, duplicate));
        return doc;
    } catch (const ordered_json::parse_error& e) {
        std::string what = e.what();
        if (const auto p = what.find("] "); p != std::string::npos) what.erase(0, p + 2); // drop "[json.exception..]"
        return make_error(error_code::bad_json,
                          fmt::format("invalid JSON: {}; expected a UTF-8 JSON object", printable(what, 300)),
                          fmt::format("{}:offset {}", path, base_offset + e.byte));
    } catch (const std::exception& e) {
        return make_error(error_code::bad_json,
                          fmt::format("invalid JSON: {}; expected a UTF-8 JSON object", printable(e.what(), 300)),
                          fmt::format("{}:offset {}", path, base_offset));
    }
}

} // namespace detail

namespace {

using detail::json_pointer;
using detail::printable;

/// Bytes of the little-endian u64 header length that starts every file (spec).
constexpr std::uint64_t length_prefix_bytes = 8;

std::uint64_t read_le64(std::span<const std::byte> b) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < 8; ++i)
        v |= std::uint64_t{std::to_integer<std::uint8_t>(b[i])} << (8 * i);
    return v;
}

/// A JSON value for a message: numbers and short strings verbatim, else the type name.
std::string describe(const ordered_json& v) {
    if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
    if (v.is_number_unsigned()) return std::to_string(v.get<std::uint64_t>());
    if (v.is_number_float()) return fmt::format("{}", v.get<double>());
    if (v.is_string()) return fmt::format("\"{}\"", printable(v.get_ref<const std::string&>(), 40));
    return std::string("a JSON ") + v.type_name();
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
    constexpr std::size_t max_dims_shown = 8; // keeps messages one line on absurd ranks
    std::string s                        = "[";
    for (std::size_t i = 0; i < shape.size() && i < max_dims_shown; ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() > max_dims_shown ? ", ...]" : "]");
}

struct entry_reader {
    std::string_view file;
    std::uint64_t data_bytes;

    std::string where(std::string_view name, std::string_view field) const {
        return field.empty() ? fmt::format("{}:{}", file, json_pointer(name))
                             : fmt::format("{}:{}/{}", file, json_pointer(name), field);
    }

    /// Non-negative integer array element or field.
    static bool as_u64(const ordered_json& v, std::uint64_t& out) {
        if (!v.is_number_unsigned()) return false;
        out = v.get<std::uint64_t>();
        return true;
    }

    status read(const std::string& name, const ordered_json& v, tensor_desc& t, safetensors_range& r) const {
        if (!v.is_object())
            return make_error(
                error_code::bad_value,
                fmt::format("tensor entry is {}; expected an object with dtype, shape, data_offsets", describe(v)),
                where(name, ""));
        for (const char* field : {"dtype", "shape", "data_offsets"})
            if (!v.contains(field))
                return make_error(error_code::missing_field,
                                  fmt::format("no \"{}\" field; expected dtype, shape and data_offsets", field),
                                  where(name, ""));
        const ordered_json& dt = v["dtype"];
        const auto type =
            dt.is_string() ? dtype_from_safetensors(dt.get_ref<const std::string&>()) : std::optional<dtype>{};
        if (!type)
            return make_error(error_code::bad_value,
                              fmt::format("unknown dtype {}; expected a safetensors dtype such as F32, F16, BF16, "
                                          "I64, U8, BOOL, F8_E4M3",
                                          describe(dt)),
                              where(name, "dtype"));
        const ordered_json& shape = v["shape"];
        if (!shape.is_array())
            return make_error(error_code::bad_value,
                              fmt::format("shape is {}; expected an array of non-negative integers", describe(shape)),
                              where(name, "shape"));
        std::uint64_t n_elements = 1; // an empty shape is a scalar (spec: rank-0 tensors hold one element)
        for (std::size_t i = 0; i < shape.size(); ++i) {
            std::uint64_t d = 0;
            if (!as_u64(shape[i], d))
                return make_error(
                    error_code::bad_value,
                    fmt::format("shape[{}] is {}; expected a non-negative integer", i, describe(shape[i])),
                    where(name, "shape"));
            if (!detail::checked_mul(n_elements, d, n_elements))
                return make_error(error_code::overflow,
                                  "product of shape overflows 64 bits; expected an element count below 2^64",
                                  where(name, "shape"));
            t.shape.push_back(d);
        }
        const ordered_json& offs = v["data_offsets"];
        if (!offs.is_array() || offs.size() != 2 || !as_u64(offs[0], r.begin) || !as_u64(offs[1], r.end))
            return make_error(
                error_code::bad_value,
                fmt::format("data_offsets is {}; expected [begin, end], two non-negative integers",
                            offs.is_array() ? fmt::format("an array of {} items", offs.size()) : describe(offs)),
                where(name, "data_offsets"));
        if (r.begin > r.end)
            return make_error(
                error_code::bad_value,
                fmt::format("data_offsets [{}, {}] has begin > end; expected begin <= end", r.begin, r.end),
                where(name, "data_offsets"));
        if (r.end > data_bytes)
            return make_error(error_code::truncated,
                              fmt::format("data_offsets end {} is past the {}-byte data section; expected end <= "
                                          "file size - 8 - header length",
                                          r.end, data_bytes),
                              where(name, "data_offsets"));
        if (!tensor_bytes(*type, n_elements, t.bytes))
            return make_error(error_code::overflow,
                              fmt::format("{} elements of {} overflow 64-bit bytes; expected a size below 2^64",
                                          n_elements, info(*type).safetensors),
                              where(name, "shape"));
        if (r.end - r.begin != t.bytes)
            return make_error(error_code::inconsistent_dims,
                              fmt::format("data_offsets [{}, {}] span {} bytes but shape {} of {} needs {} bytes; "
                                          "expected them equal",
                                          r.begin, r.end, r.end - r.begin, shape_text(t.shape), info(*type).safetensors,
                                          t.bytes),
                              where(name, "data_offsets"));
        t.name = name;
        t.type = *type;
        return ok();
    }
};

/// The data section must be covered exactly: sorted by begin, each tensor starts where the
/// previous one ended, and the last ends at the end of the data (spec; the reference reader's
/// validate() rejects the same files).
status check_cover(const safetensors_header& h, std::string_view file, const entry_reader& rd) {
    std::vector<std::size_t> order(h.tensors.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return h.offsets[a].begin != h.offsets[b].begin ? h.offsets[a].begin < h.offsets[b].begin
                                                        : h.offsets[a].end < h.offsets[b].end;
    });
    std::uint64_t cursor    = 0;
    const std::string* prev = nullptr;
    for (std::size_t i : order) {
        const auto& r    = h.offsets[i];
        const auto& name = h.tensors[i].name;
        if (r.begin < cursor)
            return make_error(error_code::bad_value,
                              fmt::format("data_offsets [{}, {}] overlap tensor \"{}\" which ends at {}; expected "
                                          "disjoint byte ranges",
                                          r.begin, r.end, prev ? printable(*prev) : "", cursor),
                              rd.where(name, "data_offsets"));
        if (r.begin > cursor)
            return make_error(error_code::bad_value,
                              fmt::format("gap of {} bytes before data_offsets [{}, {}] (previous data ends at {}); "
                                          "expected tensors to cover the data section without gaps",
                                          r.begin - cursor, r.begin, r.end, cursor),
                              rd.where(name, "data_offsets"));
        cursor = r.end;
        prev   = &name;
    }
    if (cursor != h.data_bytes)
        return make_error(error_code::bad_value,
                          fmt::format("tensors cover {} of the {} data bytes; expected them to cover the data "
                                      "section exactly",
                                      cursor, h.data_bytes),
                          fmt::format("{}:offset {}", file, length_prefix_bytes + h.header_bytes + cursor));
    return ok();
}

} // namespace

result<safetensors_header> read_safetensors(std::span<const std::byte> bytes, std::uint64_t file_size,
                                            std::string_view path) {
    const auto at = [&](std::uint64_t off) { return fmt::format("{}:offset {}", path, off); };
    if (file_size < length_prefix_bytes || bytes.size() < length_prefix_bytes)
        return make_error(error_code::truncated,
                          fmt::format("file is {} bytes; expected at least 8 bytes of header length",
                                      std::min<std::uint64_t>(file_size, bytes.size())),
                          at(0));
    const std::uint64_t n = read_le64(bytes);
    if (n > safetensors_max_header_bytes)
        return make_error(error_code::bad_value,
                          fmt::format("header length {} exceeds the {}-byte limit; expected a JSON header length", n,
                                      safetensors_max_header_bytes),
                          at(0));
    if (n > file_size - length_prefix_bytes)
        return make_error(error_code::truncated,
                          fmt::format("header length {} runs past the end of the {}-byte file; expected at most {}", n,
                                      file_size, file_size - length_prefix_bytes),
                          at(0));
    if (bytes.size() - length_prefix_bytes < n)
        return make_error(error_code::truncated,
                          fmt::format("only {} bytes given; expected the whole {}-byte header", bytes.size(),
                                      length_prefix_bytes + n),
                          at(bytes.size()));

    const std::string_view text(reinterpret_cast<const char*>(bytes.data()) + length_prefix_bytes, n);
    auto doc = detail::parse_json_strict(text, path, length_prefix_bytes);
    if (!doc) return unexpected{doc.error()};
    const ordered_json& root = *doc;
    if (!root.is_object())
        return make_error(error_code::bad_value,
                          fmt::format("header is a JSON {}; expected a JSON object of tensors", root.type_name()),
                          at(length_prefix_bytes));

    safetensors_header h;
    h.path         = std::string(path);
    h.header_bytes = n;
    h.file_bytes   = file_size;
    h.data_bytes   = file_size - length_prefix_bytes - n;
    const entry_reader rd{path, h.data_bytes};
    for (auto it = root.begin(); it != root.end(); ++it) {
        const std::string& key = it.key();
        const ordered_json& v  = it.value();
        if (key == "__metadata__") {
            if (v.is_null()) continue; // written as null by some tools (e.g. ollama's test adapters)
            if (!v.is_object())
                return make_error(error_code::bad_value,
                                  fmt::format("__metadata__ is {}; expected an object of strings", describe(v)),
                                  rd.where(key, ""));
            for (auto m = v.begin(); m != v.end(); ++m) {
                if (!m->is_string())
                    return make_error(error_code::bad_value,
                                      fmt::format("metadata value is {}; expected a string", describe(*m)),
                                      rd.where(key, "") + json_pointer(m.key()));
                h.metadata.emplace(m.key(), m->get<std::string>());
            }
            continue;
        }
        tensor_desc t;
        safetensors_range r;
        if (auto s = rd.read(key, v, t, r); !s) return unexpected{s.error()};
        h.tensors.push_back(std::move(t));
        h.offsets.push_back(r);
    }
    if (auto s = check_cover(h, path, rd); !s) return unexpected{s.error()};
    hf_assign_roles(h.tensors);
    return h;
}

} // namespace llmplan
