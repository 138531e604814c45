// libFuzzer target: any text as an engine log -> log_facts must never crash, hang or allocate without bound.
#include "llmplan/check.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto f = llmplan::parse_engine_log(text, "fuzz.log");
    if (f) (void)f->figures.size();
    return 0;
}
