// Replays a fuzz target's seed corpus (and any file or folder named) through its
// LLVMFuzzerTestOneInput without libFuzzer, so the normal test run (any compiler, no sanitizer
// runtime needed) feeds every reader the inputs that once found bugs. Exits 1 when an input cannot
// be read or a folder is empty: a replay that reads nothing must not pass.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

bool replay_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "%s: cannot read\n", p.c_str());
        return false;
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // A copy of exactly `size` bytes: a read past the end is a sanitizer finding, not a lucky byte.
    std::vector<std::uint8_t> copy(bytes.begin(), bytes.end());
    LLVMFuzzerTestOneInput(copy.data(), copy.size());
    return true;
}

} // namespace

int main(int argc, char** argv) {
    std::size_t replayed = 0;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path arg(argv[i]);
        std::error_code ec;
        if (std::filesystem::is_directory(arg, ec)) {
            for (const auto& e : std::filesystem::directory_iterator(arg))
                if (e.is_regular_file()) {
                    if (!replay_file(e.path())) return 1;
                    ++replayed;
                }
        } else {
            if (!replay_file(arg)) return 1;
            ++replayed;
        }
    }
    if (replayed == 0) {
        std::fprintf(stderr, "no inputs replayed\n");
        return 1;
    }
    std::printf("replayed %zu inputs\n", replayed);
    return 0;
}
