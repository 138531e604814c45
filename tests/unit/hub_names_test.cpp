// Hub names, GGUF quant choice and the parsers of what the Hub sends (no network).
#include "model/hub/hub.h"

#include <gtest/gtest.h>

namespace llmplan::hub {
namespace {

model_name parsed(std::string_view s) {
    auto n = parse_model_name(s);
    EXPECT_TRUE(n && *n) << s;
    return n && *n ? **n : model_name{};
}

TEST(HubNames, Forms) {
    auto n = parsed("hf:bartowski/Llama-3.3-70B-Instruct-GGUF@main:Q4_K_M");
    EXPECT_EQ(n.repo, "bartowski/Llama-3.3-70B-Instruct-GGUF");
    EXPECT_EQ(n.revision, "main");
    EXPECT_EQ(n.quant, "Q4_K_M");
    EXPECT_TRUE(n.prefixed);
    n = parsed("ms:Qwen/Qwen2.5-7B-Instruct");
    EXPECT_EQ(n.kind, hub_kind::modelscope);
    EXPECT_TRUE(n.revision.empty() && n.quant.empty());
    n = parsed("hf.co/unsloth/gemma-3-4b-it-GGUF:q8_0"); // Ollama's spelling
    EXPECT_EQ(n.kind, hub_kind::hf);
    EXPECT_EQ(n.quant, "q8_0");
    n = parsed("Qwen/Qwen2.5-72B-Instruct");
    EXPECT_FALSE(n.prefixed);
    n = parsed("hf:org/name@refs/pr/1");
    EXPECT_EQ(n.revision, "refs/pr/1");
}

TEST(HubNames, NotHubNamesAndBadOnes) {
    EXPECT_FALSE(parse_model_name("llama3.1:8b"));  // Ollama tag, no ORG/: the catalog's business
    EXPECT_FALSE(parse_model_name("qwen2.5-7b"));   // an alias
    EXPECT_FALSE(parse_model_name("./models/x y")); // not a repo id, not prefixed
    for (const char* bad :
         {"hf:name-only", "hf:a/b/c", "hf:org/na--me", "hf:org/name@", "hf:org/name:", "hf:org/x.git", "ms:/name"}) {
        auto n = parse_model_name(bad);
        ASSERT_TRUE(n) << bad;
        EXPECT_FALSE(*n) << bad;
    }
    EXPECT_TRUE(is_commit("0123456789abcdef0123456789abcdef01234567"));
    EXPECT_FALSE(is_commit("main"));
    EXPECT_FALSE(safe_repo_path("../etc/passwd"));
    EXPECT_FALSE(safe_repo_path("a//b"));
    EXPECT_TRUE(safe_repo_path("Q4_K_M/model-00001-of-00002.gguf"));
}

// llama.cpp -hf: the tag asked for, else Q4_K_M, else Q8_0, else the first model file (hub-api.md §6).
TEST(HubQuant, ChoiceLikeLlamaCpp) {
    const std::vector<std::string> repo = {"README.md",
                                           "mmproj-model-f16.gguf",
                                           "model-IQ4_XS.gguf",
                                           "model-Q2_K.gguf",
                                           "model-Q4_K_M.gguf",
                                           "model-Q8_0.gguf",
                                           "model.imatrix.gguf",
                                           "Q6_K/model-Q6_K-00001-of-00002.gguf",
                                           "Q6_K/model-Q6_K-00002-of-00002.gguf"};
    EXPECT_EQ(choose_gguf(repo, "", "r")->first, "model-Q4_K_M.gguf");
    EXPECT_EQ(choose_gguf(repo, "q2_k", "r")->first, "model-Q2_K.gguf");
    auto split = choose_gguf(repo, "Q6_K", "r");
    ASSERT_TRUE(split);
    EXPECT_EQ(split->first, "Q6_K/model-Q6_K-00001-of-00002.gguf");
    EXPECT_EQ(split->all.size(), 2u);
    EXPECT_EQ(choose_gguf(repo, "model-Q8_0.gguf", "r")->first, "model-Q8_0.gguf"); // a file name as the tag
    EXPECT_FALSE(choose_gguf(repo, "Q4_XS", "r"));                                  // IQ4_XS is another quant
    EXPECT_EQ(choose_gguf({"a.Q8_0.gguf", "a.Q5_K_S.gguf"}, "", "r")->first, "a.Q8_0.gguf");
    EXPECT_EQ(choose_gguf({"mmproj-x.gguf", "x-F16.gguf"}, "", "r")->first, "x-F16.gguf");
    EXPECT_FALSE(choose_gguf({"mmproj-x.gguf"}, "", "r"));
    auto missing = choose_gguf({"m-Q8_0-00001-of-00003.gguf", "m-Q8_0-00002-of-00003.gguf"}, "Q8_0", "r");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("part 3 of 3"), std::string::npos);
}

TEST(HubParsers, TreeLinkAndRanges) {
    auto t = parse_tree_page(R"([{"type":"directory","path":"sub","size":0},
        {"type":"file","path":"sub/model.safetensors","size":134,"lfs":{"size":4920000000,"oid":"x"}},
        {"type":"file","path":"config.json","size":700}])",
                             "t");
    ASSERT_TRUE(t) << t.error().what();
    ASSERT_EQ(t->size(), 2u);
    EXPECT_EQ((*t)[0].size, 4920000000u); // the LFS size is the file's
    EXPECT_FALSE(parse_tree_page(R"([{"type":"file","path":"../x","size":1}])", "t"));
    EXPECT_FALSE(parse_tree_page(R"([{"type":"file","path":"x","size":-1}])", "t"));
    EXPECT_FALSE(parse_tree_page(R"({"error":"x"})", "t"));
    EXPECT_EQ(link_next(R"(<https://huggingface.co/api/models/a/b/tree/main?cursor=abc>; rel="next")"),
              "https://huggingface.co/api/models/a/b/tree/main?cursor=abc");
    EXPECT_EQ(link_next(R"(<https://x/1>; rel="prev", <https://x/3>; rel="next")"), "https://x/3");
    EXPECT_EQ(link_next(R"(<https://x/1>; rel="prev")"), "");
    EXPECT_EQ(content_range_total("bytes 0-99999/4920000000", 0), 4920000000u);
    EXPECT_FALSE(content_range_total("bytes 5-9/100", 0)); // not the range asked for
    EXPECT_FALSE(content_range_total("bytes 0-99/50", 0)); // past the end
    EXPECT_FALSE(content_range_total("bytes */100", 0));
    auto info = parse_model_info(R"({"_id":"x","id":"a/b","sha":"0123456789abcdef0123456789abcdef01234567",
        "gated":"manual","safetensors":{"parameters":{"BF16":7615616512},"total":7615616512}})",
                                 "i");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->gated, "manual");
    EXPECT_EQ(info->safetensors_total, 7615616512u);
    auto ms = parse_ms_files(R"({"Code":200,"Data":{"Files":[{"Path":"config.json","Type":"blob","Size":10},
        {"Path":"sub","Type":"tree","Size":0}]}})",
                             "m");
    ASSERT_TRUE(ms);
    EXPECT_EQ(ms->size(), 1u);
    EXPECT_FALSE(parse_ms_files(R"({"Code":10010205001,"Message":"model not found"})", "m"));
}

} // namespace
} // namespace llmplan::hub
