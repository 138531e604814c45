// GGUF from disk: progressive header reads and split models (`<prefix>-0000K-of-0000N.gguf`).
#include "detail/file_ptr.h"
#include "llmplan/gguf.h"
#include "model/gguf_parse.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <memory>
#include <unordered_set>

namespace llmplan {
namespace {

// First read: 1 MiB holds the header of most model files (the 32k-150k token vocabularies take
// 0.5-4 MB); each retry doubles the buffer, up to the file size.
constexpr std::uint64_t first_read_bytes = std::uint64_t{1} << 20;
// Split file names: llama.cpp's llama_split_path writes "%s-%05d-of-%05d.gguf".
constexpr std::string_view split_suffix_example = "-00001-of-00003.gguf";
constexpr std::uint64_t max_split_count         = 99999; // five digits in the file name

using detail::file_closer;

result<gguf_file> read_one(const std::string& path) {
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(st)) return make_error(error_code::file_not_found, "no such file", path);
    if (std::filesystem::is_directory(st))
        return make_error(error_code::read_failed, "is a directory; expected a .gguf file", path);
    const std::uint64_t file_size = std::filesystem::file_size(path, ec);
    if (ec) return make_error(error_code::read_failed, "cannot get the file size: " + ec.message(), path);
    std::unique_ptr<std::FILE, file_closer> in(std::fopen(path.c_str(), "rb"));
    if (!in) return make_error(error_code::read_failed, "cannot open the file for reading", path);

    std::vector<std::byte> buf;
    std::uint64_t want = std::min(first_read_bytes, file_size);
    for (;;) {
        const std::size_t have = buf.size();
        buf.resize(static_cast<std::size_t>(want));
        const std::size_t got = std::fread(buf.data() + have, 1, buf.size() - have, in.get());
        if (got != buf.size() - have)
            return make_error(error_code::read_failed,
                              fmt::format("short read: got {} of {} bytes", have + got, buf.size()), path);
        bool need_more = false;
        auto r         = detail::parse_gguf(buf, path, file_size, true, need_more);
        if (r) {
            r->parts.push_back(gguf_part{path, file_size, r->n_tensors});
            return r;
        }
        if (!need_more || want >= file_size) return r;
        want = std::min(file_size, want * 2);
    }
}

std::optional<std::uint64_t> kv_uint(const gguf_file& f, std::string_view key) {
    const gguf_kv* kv = f.find(key);
    return kv ? kv->as_uint() : std::nullopt;
}

// "<prefix>-00002-of-00003.gguf" -> prefix; nullopt when the name has no split suffix.
std::optional<std::string> split_prefix(const std::string& path) {
    if (path.size() < split_suffix_example.size()) return std::nullopt;
    const std::string_view tail = std::string_view(path).substr(path.size() - split_suffix_example.size());
    for (std::size_t i = 0; i < tail.size(); ++i) {
        const char want  = split_suffix_example[i];
        const bool digit = want >= '0' && want <= '9';
        if (digit ? (tail[i] < '0' || tail[i] > '9') : tail[i] != want) return std::nullopt;
    }
    return path.substr(0, path.size() - split_suffix_example.size());
}

std::string split_path(const std::string& prefix, std::uint64_t no_1based, std::uint64_t count) {
    return fmt::format("{}-{:05}-of-{:05}.gguf", prefix, no_1based, count);
}

result<gguf_file> read_split(gguf_file first, std::uint64_t count, const detail::gguf_part_reader& read_part) {
    const auto prefix = split_prefix(first.path);
    if (!prefix)
        return make_error(
            error_code::bad_value,
            fmt::format("split.count is {} but the file name does not end like \"{}\"", count, split_suffix_example),
            first.path);
    std::unordered_set<std::string> names;
    for (const auto& t : first.tensors)
        names.insert(t.desc.name);
    for (std::uint64_t i = 1; i < count; ++i) {
        const std::string p = split_path(*prefix, i + 1, count);
        auto part           = read_part(p);
        if (!part) {
            if (part.error().code == error_code::file_not_found)
                return make_error(error_code::file_not_found,
                                  fmt::format("split part {} of {} is missing", i + 1, count), p);
            return part;
        }
        const auto no = kv_uint(*part, "split.no");
        const auto n  = kv_uint(*part, "split.count");
        if (no != i || n != count)
            return make_error(error_code::bad_value,
                              fmt::format("split.no/split.count are {}/{}; expected {}/{} from the file name",
                                          no ? fmt::to_string(*no) : "absent", n ? fmt::to_string(*n) : "absent", i,
                                          count),
                              p);
        const auto part_index = static_cast<std::uint32_t>(first.parts.size());
        for (auto& t : part->tensors) {
            if (!names.insert(t.desc.name).second)
                return make_error(error_code::duplicate_key,
                                  fmt::format("tensor '{}' also appears in an earlier split part", t.desc.name),
                                  fmt::format("{}:offset {}", p, t.info_offset));
            t.part = part_index;
            first.tensors.push_back(std::move(t));
        }
        first.parts.push_back(part->parts.front());
        first.n_tensors += part->n_tensors;
    }
    if (const auto declared = kv_uint(first, "split.tensors.count"); declared && *declared != first.n_tensors)
        return make_error(error_code::bad_value,
                          fmt::format("split.tensors.count is {} but the {} parts hold {} tensors", *declared, count,
                                      first.n_tensors),
                          first.path);
    return first;
}

} // namespace

result<gguf_file> read_gguf_file(const std::string& path) {
    return detail::read_gguf_set(path, read_one);
}

result<gguf_file> detail::read_gguf_set(const std::string& path, const gguf_part_reader& read_part) {
    auto r = read_part(path);
    if (!r) return r;
    const std::uint64_t count = kv_uint(*r, "split.count").value_or(1);
    if (count <= 1) return r;
    if (count > max_split_count)
        return make_error(error_code::bad_value, fmt::format("split.count {} exceeds {}", count, max_split_count),
                          path);
    const std::uint64_t no = kv_uint(*r, "split.no").value_or(0);
    if (no != 0) { // given a later part: start from the first
        const auto prefix = split_prefix(path);
        if (!prefix)
            return make_error(
                error_code::bad_value,
                fmt::format("split.no is {} but the file name does not end like \"{}\"", no, split_suffix_example),
                path);
        r = read_part(split_path(*prefix, 1, count));
        if (!r) return r;
        if (kv_uint(*r, "split.no").value_or(0) != 0 || kv_uint(*r, "split.count").value_or(1) != count)
            return make_error(error_code::bad_value, "the first split part disagrees on split.no/split.count", r->path);
    }
    return read_split(std::move(*r), count, read_part);
}

} // namespace llmplan
