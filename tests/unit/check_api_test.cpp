// `check` through the front door (api.h): the library takes the log's text, never a path; the CLI
// reads the file or standard input and gives the same bytes as answer() does.
#include "cli_run.h"
#include "llmplan/api.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

using llmplan::answer;
using llmplan::test::run_cli;

std::string log_path(const char* name) {
    return std::string(LLMPLAN_TEST_DATA) + "/logs/" + name;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(check_api, file_stdin_and_answer_give_the_same_bytes) {
    const std::string path = log_path("llamacpp_03.log");
    const auto file        = run_cli("check " + path + " --json");
    ASSERT_EQ(file.status, 0);
    const auto api = answer("check", {
                                         {"log",      slurp(path)},
                                         {"log-name", path       }
    });
    ASSERT_EQ(api.status, 200) << api.body;
    EXPECT_EQ(file.out, api.body);
    // Standard input: the same comparison (the log's name only appears in messages).
    const auto piped = run_cli("check - --json < " + path);
    ASSERT_EQ(piped.status, 0);
    EXPECT_EQ(piped.out, api.body);
}

TEST(check_api, the_log_is_text_never_a_path) {
    // A path sent over the API is a one-line log that no engine wrote: refused, nothing read.
    const auto r = answer("check", {
                                       {"log", log_path("llamacpp_03.log")}
    });
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(answer("check", {}).status, 400); // no log: LOG missing
    const auto m = answer("check", {
                                       {"log",   slurp(log_path("vllm_00.log"))},
                                       {"model", "/etc/passwd"                 }
    });
    EXPECT_EQ(m.status, 400);
    EXPECT_NE(m.body.find("--model"), std::string::npos) << m.body;
}

TEST(check_api, options_of_other_commands_are_refused) {
    const auto r = answer("check", {
                                       {"log", slurp(log_path("vllm_00.log"))},
                                       {"ctx", "4096"                        }
    });
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.body.find("--ctx: does not apply to `check`"), std::string::npos) << r.body;
    llmplan::test::expect_refused("check " + log_path("vllm_00.log") + " --ctx 4096", "--ctx");
    llmplan::test::expect_refused("check", "LOG is required");
}

} // namespace
