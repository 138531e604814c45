// Every answer says the date its facts are as of (issue 21, item 7): the one constant of
// include/llmplan/facts.h, as a last text line and as "facts_as_of" in the JSON, added beside the
// contract's fields (docs/cli-contract.md), never in place of one.
#include "cli_run.h"
#include "llmplan/facts.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

namespace llmplan {
namespace {

TEST(facts_as_of, is_an_iso_date) {
    EXPECT_TRUE(std::regex_match(std::string(facts_as_of), std::regex("20[0-9]{2}-[01][0-9]-[0-3][0-9]")))
        << facts_as_of;
}

TEST(facts_as_of, every_json_answer_carries_it_beside_the_contract_fields) {
    for (const char* args :
         {"estimate qwen2.5-7b --json", "models qwen2.5 --json", "hardware --json", "inspect qwen2.5-7b --json"}) {
        const auto r = test::run_cli(args);
        ASSERT_EQ(r.status, 0) << args << "\n" << r.err;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j.value("facts_as_of", ""), std::string(facts_as_of)) << args;
    }
    const auto e = nlohmann::json::parse(test::run_cli("estimate qwen2.5-7b --json").out);
    EXPECT_TRUE(e.contains("model") && e.contains("devices") && e.contains("kv_bytes_per_token"));
}

TEST(facts_as_of, every_text_answer_ends_with_it) {
    const std::string line =
        "Facts (models, hardware, prices, engine releases) as of " + std::string(facts_as_of) + ".\n";
    for (const char* args : {"estimate qwen2.5-7b", "models qwen2.5", "hardware --check"}) {
        const auto r = test::run_cli(args);
        ASSERT_EQ(r.status, 0) << args << "\n" << r.err;
        ASSERT_GE(r.out.size(), line.size()) << args;
        EXPECT_EQ(r.out.substr(r.out.size() - line.size()), line) << args;
    }
}

} // namespace
} // namespace llmplan
