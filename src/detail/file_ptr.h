// A C FILE closed when its owner goes out of scope.
#pragma once

#include <cstdio>
#include <memory>

namespace llmplan::detail {

struct file_closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using file_ptr = std::unique_ptr<std::FILE, file_closer>;

} // namespace llmplan::detail
