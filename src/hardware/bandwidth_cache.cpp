// This machine's measured memory bandwidth, kept in a small file so that `plan` and `fit` do not
// allocate and read a 256 MiB buffer on every run (and so that two runs give the same answer).
// The file is keyed by the CPU model, thread count and RAM size: a different machine (or a RAM
// upgrade) under the same home directory measures again. `llmplan hardware --probe` refreshes it.
#include "llmplan/hardware.h"

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <string>
#include <system_error>
#include <unistd.h>

namespace llmplan {
namespace {

/// The file is a few lines; anything longer is not ours.
constexpr std::size_t max_cache_file_bytes = 4096;
/// A read rate outside 100 MB/s .. 100 TB/s is not a memory system (a corrupt or edited file):
/// the slowest single-channel DDR3 reads above 5 GB/s, the fastest HBM3e GPU at 8 TB/s.
constexpr std::uint64_t min_plausible_bytes_per_s = 100'000'000ull;
constexpr std::uint64_t max_plausible_bytes_per_s = 100'000'000'000'000ull;

constexpr std::string_view key_field   = "machine=";
constexpr std::string_view value_field = "read_bytes_per_s=";

} // namespace

std::string bandwidth_cache_path(const detect_options& o) {
    std::filesystem::path dir;
    if (!o.cache_dir.empty()) {
        dir = o.cache_dir;
    } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') {
        dir = std::filesystem::path(xdg) / "llmplan"; // XDG Base Directory spec: relative paths are ignored
    } else if (const char* home = std::getenv("HOME"); home && *home) {
        dir = std::filesystem::path(home) / ".cache" / "llmplan";
    } else {
        return {};
    }
    return (dir / "memory-bandwidth.txt").string();
}

std::string bandwidth_cache_key(const local_machine& m) {
    // One line: a model name with a newline in it would end the field early.
    std::string model = m.cpu.model;
    for (auto& c : model)
        if (c == '\n' || c == '\r') c = ' ';
    return fmt::format("{}; {} threads; {} bytes RAM", model.empty() ? "unknown CPU" : model, m.cpu.threads,
                       m.ram.total_bytes.value_or(0));
}

std::optional<std::uint64_t> read_cached_bandwidth(const std::string& path, const std::string& key) {
    if (path.empty()) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string text(max_cache_file_bytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got > max_cache_file_bytes) return std::nullopt;
    text.resize(got);
    bool key_matches = false;
    std::optional<std::uint64_t> value;
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        const std::string_view line(text.data() + pos, end - pos);
        pos = end + 1;
        if (line.starts_with(key_field)) key_matches = line.substr(key_field.size()) == key;
        if (line.starts_with(value_field)) {
            const auto digits  = line.substr(value_field.size());
            std::uint64_t v    = 0;
            const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
            if (ec == std::errc{} && p == digits.data() + digits.size()) value = v;
        }
    }
    if (!key_matches || !value || *value < min_plausible_bytes_per_s || *value > max_plausible_bytes_per_s)
        return std::nullopt;
    return value;
}

bool write_cached_bandwidth(const std::string& path, const std::string& key, std::uint64_t bytes_per_s) {
    if (path.empty()) return false;
    std::error_code ec;
    const std::filesystem::path target(path);
    std::filesystem::create_directories(target.parent_path(), ec);
    if (ec) return false;
    // Write beside the target, then rename: a reader sees the old file or the new one, never half.
    const auto tmp = target.string() + fmt::format(".tmp.{}", static_cast<long>(::getpid()));
    const auto secs =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return false;
        out << "# llmplan: this machine's memory read bandwidth; `llmplan hardware --probe` measures again\n"
            << key_field << key << '\n'
            << value_field << bytes_per_s << '\n'
            << "measured_unix_s=" << secs << '\n';
        out.flush();
        if (!out) {
            std::filesystem::remove(tmp, ec);
            return false;
        }
    }
    std::filesystem::rename(tmp, target, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        return false;
    }
    return true;
}

} // namespace llmplan
