// Table files in tests/data: one case a line, fields split at a separator, '#' lines are comments.
#pragma once

#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan::test {

/// The rows of tests/data/`name`, each split at `sep`; blank and '#' lines are skipped. A file that
/// cannot be read fails the test and gives no rows.
inline std::vector<std::vector<std::string>> data_rows(std::string_view name, char sep) {
    std::ifstream in(std::string(LLMPLAN_TEST_DATA) + "/" + std::string(name));
    EXPECT_TRUE(in.good()) << name;
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line.starts_with("#")) continue;
        auto& f        = rows.emplace_back();
        std::size_t at = 0;
        for (auto s = line.find(sep); s != std::string::npos; s = line.find(sep, at = s + 1))
            f.push_back(line.substr(at, s - at));
        f.push_back(line.substr(at));
    }
    return rows;
}

} // namespace llmplan::test
