// Files compiled into the binary by cmake/embed.cmake (model catalog, hardware tables).
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace llmplan::detail {

struct embedded_file {
    const char* path; ///< relative to data/, e.g. "models/Qwen--Qwen2.5-7B-Instruct/config.json"
    const unsigned char* data;
    std::size_t size;

    [[nodiscard]] std::string_view text() const { return {reinterpret_cast<const char*>(data), size}; }
};

std::span<const embedded_file> embedded_files();

} // namespace llmplan::detail
