// libFuzzer target: the GGUF header parser and its mapping to model_desc on arbitrary bytes.
// Any crash, sanitizer report, hang or over-allocation is a finding; errors are expected results.
#include "llmplan/gguf.h"

#include <cstddef>
#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
    auto f = llmplan::read_gguf(bytes, "fuzz.gguf");
    if (f) {
        auto m = llmplan::model_from_gguf(*f, "fuzz.gguf");
        if (m) (void)llmplan::weights_bytes(*m);
    }
    // The same bytes as a header-only prefix of a larger file of unknown size.
    auto p = llmplan::read_gguf(bytes, "fuzz.gguf", {.file_size_bytes = 0, .check_data_extent = false});
    if (p) (void)llmplan::model_from_gguf(*p, "fuzz.gguf");
    return 0;
}
