// libFuzzer target: what a Hub or ModelScope server sends (model info, tree pages, Link and
// Content-Range headers, ModelScope listings) and safetensors index JSON must never crash.
#include "llmplan/safetensors.h"
#include "model/hub/hub.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    (void)llmplan::hub::parse_model_info(text, "info");
    (void)llmplan::hub::parse_tree_page(text, "tree");
    (void)llmplan::hub::parse_ms_files(text, "ms");
    (void)llmplan::hub::parse_ms_head_commit(text);
    (void)llmplan::hub::link_next(text);
    (void)llmplan::hub::content_range_total(text, 0);
    (void)llmplan::hub::parse_model_name(text);
    (void)llmplan::parse_safetensors_index(text, "index");
    return 0;
}
