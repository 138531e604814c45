// libFuzzer target: read_safetensors on arbitrary bytes, the whole input being the file.
// Any result is fine; a crash, a sanitizer report, a hang or a huge allocation is a finding.
#include "llmplan/safetensors.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto bytes = std::as_bytes(std::span(data, size));
    auto h           = llmplan::read_safetensors(bytes, size, "fuzz.safetensors");
    if (h) {
        // Invariants of an accepted header: every range inside the data section, bytes match.
        for (std::size_t i = 0; i < h->tensors.size(); ++i)
            if (h->offsets[i].end > h->data_bytes || h->offsets[i].end - h->offsets[i].begin != h->tensors[i].bytes)
                __builtin_trap();
        if (8 + h->header_bytes + h->data_bytes != size) __builtin_trap();
    } else if (h.error().message.empty()) {
        __builtin_trap();
    }
    // The same bytes as index JSON text.
    (void)llmplan::parse_safetensors_index(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
    return 0;
}
