// The help a person reads names no developer path or code name (issue 25, finding 10: the help text
// cited `trainer_table()`, serve's cited `../shared/cli-contract.md`): every command's --help.
#include "unit/cli_run.h"

#include <gtest/gtest.h>
#include <regex>

namespace llmplan {
namespace {

TEST(help_words, no_developer_path_or_code_name) {
    // A relative path, a source file or a function call: "../x", "shared/", "src/", "x.cpp", "name()".
    const std::regex developer(R"(\.\./|\bshared/|\bsrc/|\w\.(cpp|h)\b|\w\(\))");
    for (const char* command :
         {"", "inspect", "models", "estimate", "plan", "fit", "hardware", "check", "serve", "mcp"}) {
        const auto r = test::run_cli(std::string(command) + " --help");
        ASSERT_EQ(r.status, 0) << command;
        // llama.cpp is an engine's name, not a source file.
        const std::string text = std::regex_replace(r.out, std::regex(R"(llama\.cpp)"), "llama");
        std::smatch m;
        EXPECT_FALSE(std::regex_search(text, m, developer)) << command << " --help: \"" << m.str() << "\"";
    }
}

} // namespace
} // namespace llmplan
