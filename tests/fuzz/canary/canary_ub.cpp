// The sanitizer canary: the engine-log reader's old finding (issue 26), a number of 41 digits read as
// a double and cast to an integer ("1e+40 is outside the range of representable values of type
// 'unsigned long'"), kept here on purpose. Built only where a sanitizer runs; its tests pass only
// when the run reports the undefined behaviour and fails, so a build that lets UBSan print and carry
// on (no -fno-sanitize-recover) turns CI red.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto at = text.find("max_seq_len=");
    if (at == std::string::npos) return 0;
    const double v           = std::strtod(text.c_str() + at + 12, nullptr);
    volatile std::uint64_t n = 0;
    if (v >= 1) n = static_cast<std::uint64_t>(v); // the old code path: no range check
    (void)n;
    return 0;
}
