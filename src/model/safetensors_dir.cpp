// Reading safetensors headers from disk: one file, or a checkpoint directory (sharded or not).
#include "detail/checked_number.h"
#include "detail/file_ptr.h"
#include "llmplan/safetensors.h"
#include "model/hf_tensor_names.h"
#include "model/safetensors_detail.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <memory>
#include <unordered_map>
#include <unordered_set>

namespace llmplan {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

/// Transformers' names (transformers/utils/__init__.py SAFE_WEIGHTS_NAME, SAFE_WEIGHTS_INDEX_NAME).
constexpr std::string_view single_file_name = "model.safetensors";
constexpr std::string_view index_file_name  = "model.safetensors.index.json";
/// Index files list one line per tensor (DeepSeek-V3's, ~92k tensors, is under 10 MB); the same
/// cap as a safetensors header bounds the one allocation.
constexpr std::uint64_t max_index_bytes = safetensors_max_header_bytes;

using detail::file_ptr;

/// Size of a regular file, or an error naming it.
result<std::uint64_t> regular_file_size(const std::string& path) {
    std::error_code ec;
    const auto st = fs::status(path, ec);
    if (ec || !fs::exists(st))
        return make_error(error_code::file_not_found, "no such file; expected a readable file", path);
    if (!fs::is_regular_file(st))
        return make_error(error_code::read_failed, "not a regular file; expected a file", path);
    const std::uint64_t size = fs::file_size(path, ec);
    if (ec) return make_error(error_code::read_failed, "cannot stat: " + ec.message(), path);
    return size;
}

/// Reads `count` bytes at the current position into out.
status read_exact(std::FILE* f, std::byte* out, std::size_t count, const std::string& path, std::uint64_t offset) {
    if (count > 0 && std::fread(out, 1, count, f) != count)
        return make_error(error_code::read_failed,
                          fmt::format("short read of {} bytes; expected the file to be "
                                      "readable and unchanged while read",
                                      count),
                          fmt::format("{}:offset {}", path, offset));
    return ok();
}

/// A shard name from an index must be a plain file name in the same directory.
bool plain_file_name(std::string_view s) {
    return !s.empty() && s != "." && s != ".." && s.find('/') == std::string_view::npos &&
           s.find('\\') == std::string_view::npos && s.find('\0') == std::string_view::npos;
}

result<std::string> read_text_file(const std::string& path) {
    auto size = regular_file_size(path);
    if (!size) return unexpected{size.error()};
    if (*size > max_index_bytes)
        return make_error(error_code::bad_value,
                          fmt::format("index is {} bytes; expected at most {}", *size, max_index_bytes), path);
    file_ptr f(std::fopen(path.c_str(), "rb"));
    if (!f) return make_error(error_code::read_failed, std::string("cannot open: ") + std::strerror(errno), path);
    std::string text(static_cast<std::size_t>(*size), '\0');
    if (auto s = read_exact(f.get(), reinterpret_cast<std::byte*>(text.data()), text.size(), path, 0); !s)
        return unexpected{s.error()};
    return text;
}

/// Headers of files in `dir`, read from disk.
safetensors_header_reader file_reader(const std::string& dir) {
    return [dir](const std::string& name) { return read_safetensors_file((fs::path(dir) / name).string()); };
}

/// Appends one file's tensors to the model.
status add_file(safetensors_model& m, const std::string& name, std::unordered_map<std::string, std::string>& seen,
                const safetensors_header_reader& read) {
    auto h = read(name);
    if (!h) return unexpected{h.error()};
    const std::string& path = h->path;
    for (auto& t : h->tensors) {
        if (auto [it, inserted] = seen.emplace(t.name, name); !inserted)
            return make_error(error_code::duplicate_key,
                              fmt::format("tensor \"{}\" is also in {}; expected each tensor in one file",
                                          detail::printable(t.name), it->second),
                              path + ":" + detail::json_pointer(t.name));
        m.tensors.push_back(std::move(t));
        m.tensor_files.push_back(name);
    }
    for (auto& [k, v] : h->metadata)
        m.metadata.emplace(k, v);
    m.files.push_back(name);
    m.file_bytes += h->file_bytes;
    m.data_bytes += h->data_bytes;
    return ok();
}

/// Shard names of an index, unique, in first-appearance order.
std::vector<std::string> unique_shards(const safetensors_index& idx) {
    std::vector<std::string> shards;
    for (const auto& s : idx.shards)
        if (std::find(shards.begin(), shards.end(), s) == shards.end()) shards.push_back(s);
    return shards;
}

/// Every shard of the index read; each tensor must sit in the shard the index names.
result<safetensors_model> add_indexed(safetensors_model m, const safetensors_index& idx, std::string_view index_path,
                                      const safetensors_header_reader& read) {
    m.has_index        = true;
    m.index_total_size = idx.total_size;
    std::unordered_map<std::string, std::string> seen; // tensor name -> file
    for (const auto& s : unique_shards(idx))
        if (auto st = add_file(m, s, seen, read); !st) return unexpected{st.error()};
    for (std::size_t i = 0; i < idx.names.size(); ++i) {
        const auto it = seen.find(idx.names[i]);
        if (it == seen.end() || it->second != idx.shards[i])
            return make_error(error_code::missing_field,
                              fmt::format("tensor \"{}\" is mapped to {} but is not in its header; expected the "
                                          "index to match the shards",
                                          detail::printable(idx.names[i]), idx.shards[i]),
                              fmt::format("{}:/weight_map{}", index_path, detail::json_pointer(idx.names[i])));
    }
    m.headers_read = true;
    hf_assign_roles(m.tensors);
    return m;
}

result<safetensors_model> read_indexed(safetensors_model m, const std::string& index_path) {
    auto text = read_text_file(index_path);
    if (!text) return unexpected{text.error()};
    auto idx = parse_safetensors_index(*text, index_path);
    if (!idx) return unexpected{idx.error()};
    const auto shards   = unique_shards(*idx);
    std::size_t present = 0;
    for (const auto& s : shards)
        present += fs::exists(fs::path(m.dir) / s) ? 1 : 0;

    if (present == 0) { // index only (a config-only catalog entry): names and total_size
        m.has_index        = true;
        m.index_total_size = idx->total_size;
        m.headers_read     = false;
        m.files            = shards;
        m.tensor_files     = idx->shards;
        for (const auto& name : idx->names) {
            tensor_desc t;
            t.name = name;
            m.tensors.push_back(std::move(t));
        }
        hf_assign_roles(m.tensors);
        m.data_bytes = idx->total_size;
        return m;
    }
    for (const auto& s : shards)
        if (!fs::exists(fs::path(m.dir) / s))
            return make_error(error_code::file_not_found,
                              fmt::format("shard {} listed in {} is missing; expected all {} shards", s,
                                          index_file_name, shards.size()),
                              (fs::path(m.dir) / s).string());
    auto reader = file_reader(m.dir);
    return add_indexed(std::move(m), *idx, index_path, reader);
}

} // namespace

result<safetensors_index> parse_safetensors_index(std::string_view text, std::string_view path) {
    auto doc = detail::parse_json_strict(text, path, 0);
    if (!doc) return unexpected{doc.error()};
    const ordered_json& root = *doc;
    if (!root.is_object())
        return make_error(error_code::bad_value,
                          fmt::format("index is a JSON {}; expected an object", root.type_name()), std::string(path));
    const auto wm = root.find("weight_map");
    if (wm == root.end() || !wm->is_object())
        return make_error(error_code::missing_field, "no \"weight_map\" object; expected tensor name -> shard file",
                          fmt::format("{}:/weight_map", path));
    safetensors_index out;
    for (auto it = wm->begin(); it != wm->end(); ++it) {
        if (!it->is_string() || !plain_file_name(it->get_ref<const std::string&>()))
            return make_error(error_code::bad_value,
                              "shard is not a plain file name; expected \"model-0000N-of-0000M.safetensors\"",
                              fmt::format("{}:/weight_map{}", path, detail::json_pointer(it.key())));
        out.names.push_back(it.key());
        out.shards.push_back(it->get<std::string>());
    }
    if (const auto md = root.find("metadata"); md != root.end() && md->is_object()) {
        if (const auto ts = md->find("total_size"); ts != md->end()) {
            // Some writers store it as a float ("total_size": 14483464192.0): accept whole values.
            const double f   = ts->is_number() ? ts->get<double>() : -1.0;
            const auto whole = detail::to_integer<std::uint64_t>(f, detail::rounding::toward_zero);
            if (ts->is_number_unsigned())
                out.total_size = ts->get<std::uint64_t>();
            else if (ts->is_number_float() && whole && static_cast<double>(*whole) == f)
                out.total_size = *whole;
            else
                return make_error(error_code::bad_value, "total_size is not a non-negative integer; expected bytes",
                                  fmt::format("{}:/metadata/total_size", path));
        }
    }
    return out;
}

result<safetensors_header> read_safetensors_file(const std::string& path) {
    auto size = regular_file_size(path);
    if (!size) return unexpected{size.error()};
    file_ptr f(std::fopen(path.c_str(), "rb"));
    if (!f) return make_error(error_code::read_failed, std::string("cannot open: ") + std::strerror(errno), path);
    constexpr std::size_t prefix = 8; // u64 header length (spec)
    std::vector<std::byte> buf(prefix);
    const std::size_t got = std::fread(buf.data(), 1, prefix, f.get());
    if (got < prefix) return read_safetensors(std::span(buf.data(), got), *size, path); // reports truncation
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < prefix; ++i)
        n |= std::uint64_t{std::to_integer<std::uint8_t>(buf[i])} << (8 * i);
    // Bound N before allocating; read_safetensors reports the out-of-bound value.
    if (n > safetensors_max_header_bytes || n > *size - prefix) return read_safetensors(buf, *size, path);
    buf.resize(prefix + static_cast<std::size_t>(n));
    if (auto s = read_exact(f.get(), buf.data() + prefix, static_cast<std::size_t>(n), path, prefix); !s)
        return unexpected{s.error()};
    return read_safetensors(buf, *size, path);
}

result<safetensors_model> read_safetensors_dir(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return make_error(error_code::file_not_found, "not a directory; expected a checkpoint directory", dir);
    safetensors_model m;
    m.dir = dir;
    if (const auto index = fs::path(dir) / index_file_name; fs::exists(index, ec))
        return read_indexed(m, index.string());

    std::vector<std::string> names;
    if (fs::exists(fs::path(dir) / single_file_name, ec)) {
        names.emplace_back(single_file_name);
    } else {
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            if (it->path().extension() == ".safetensors" && it->is_regular_file(ec))
                names.push_back(it->path().filename().string());
        if (ec) return make_error(error_code::read_failed, "cannot list: " + ec.message(), dir);
        std::sort(names.begin(), names.end());
    }
    if (names.empty())
        return make_error(error_code::file_not_found,
                          "no safetensors files; expected model.safetensors, model.safetensors.index.json or "
                          "*.safetensors",
                          dir);
    return read_safetensors_headers(dir, nullptr, names, file_reader(dir));
}

result<safetensors_model> read_safetensors_headers(std::string label, const safetensors_index* index,
                                                   const std::vector<std::string>& files,
                                                   const safetensors_header_reader& read) {
    safetensors_model m;
    m.dir = std::move(label);
    if (index) {
        const std::string index_path = fmt::format("{}/{}", m.dir, index_file_name);
        return add_indexed(std::move(m), *index, index_path, read);
    }
    std::unordered_map<std::string, std::string> seen;
    for (const auto& name : files)
        if (auto st = add_file(m, name, seen, read); !st) return unexpected{st.error()};
    m.headers_read = true;
    hf_assign_roles(m.tensors);
    return m;
}

} // namespace llmplan
