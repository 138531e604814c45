// libFuzzer target: config.json text -> model_desc (and the estimators that read it) must never crash.
#include "llmplan/hf_config.h"
#include "llmplan/inference.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto m = llmplan::parse_hf_config(text, "fuzz.json");
    if (m.has_value() && m->n_layer < 512 && m->n_embd < (1u << 16) && m->n_vocab < (1u << 20)) {
        llmplan::inference_params p;
        p.ctx = 4096;
        (void)llmplan::estimate_inference(*m, p);
    }
    return 0;
}
