// Ollama library names -> the Hugging Face model each packages. Source: the library pages'
// tag lists, https://ollama.com/library/<family>/tags (and each page's "Models" section naming the
// upstream model): a tag is SIZE[-VARIANT][-QUANT], "latest" is the default size, the default quant
// is Q4_K_M except where noted, and "-text"/"-base" tags package the pretrained (non-chat) model.
// Ids missing from the built-in catalog are kept: the Hub reader can fetch them by id.
#include "model/ollama_names.h"

#include <array>

namespace llmplan::detail {
namespace {

constexpr std::string_view q4 = "Q4_K_M";

// clang-format off
constexpr std::array table{
    ollama_name{"llama3.1",     "8b",    "meta-llama/Llama-3.1-8B-Instruct",        "meta-llama/Llama-3.1-8B",        q4},
    ollama_name{"llama3.1",     "70b",   "meta-llama/Llama-3.1-70B-Instruct",       "meta-llama/Llama-3.1-70B",       q4},
    ollama_name{"llama3.1",     "405b",  "meta-llama/Llama-3.1-405B-Instruct",      "meta-llama/Llama-3.1-405B",      q4},
    ollama_name{"llama3.2",     "1b",    "meta-llama/Llama-3.2-1B-Instruct",        "meta-llama/Llama-3.2-1B",        q4},
    ollama_name{"llama3.2",     "3b",    "meta-llama/Llama-3.2-3B-Instruct",        "meta-llama/Llama-3.2-3B",        q4},
    ollama_name{"llama3.3",     "70b",   "meta-llama/Llama-3.3-70B-Instruct",       "",                               q4},
    ollama_name{"llama3",       "8b",    "meta-llama/Meta-Llama-3-8B-Instruct",     "meta-llama/Meta-Llama-3-8B",     q4},
    ollama_name{"llama3",       "70b",   "meta-llama/Meta-Llama-3-70B-Instruct",    "meta-llama/Meta-Llama-3-70B",    q4},
    ollama_name{"llama2",       "7b",    "meta-llama/Llama-2-7b-chat-hf",           "meta-llama/Llama-2-7b-hf",       "Q4_0"},
    ollama_name{"llama2",       "13b",   "meta-llama/Llama-2-13b-chat-hf",          "meta-llama/Llama-2-13b-hf",      "Q4_0"},
    ollama_name{"llama2",       "70b",   "meta-llama/Llama-2-70b-chat-hf",          "meta-llama/Llama-2-70b-hf",      "Q4_0"},
    ollama_name{"llama4",       "16x17b","meta-llama/Llama-4-Scout-17B-16E-Instruct",     "",                         q4},
    ollama_name{"llama4",       "scout", "meta-llama/Llama-4-Scout-17B-16E-Instruct",     "",                         q4},
    ollama_name{"llama4",       "128x17b","meta-llama/Llama-4-Maverick-17B-128E-Instruct", "",                         q4},
    ollama_name{"llama4",       "maverick","meta-llama/Llama-4-Maverick-17B-128E-Instruct","",                         q4},
    ollama_name{"qwen3",        "0.6b",  "Qwen/Qwen3-0.6B",                         "Qwen/Qwen3-0.6B-Base",           q4},
    ollama_name{"qwen3",        "1.7b",  "Qwen/Qwen3-1.7B",                         "Qwen/Qwen3-1.7B-Base",           q4},
    ollama_name{"qwen3",        "4b",    "Qwen/Qwen3-4B",                           "Qwen/Qwen3-4B-Base",             q4},
    ollama_name{"qwen3",        "8b",    "Qwen/Qwen3-8B",                           "Qwen/Qwen3-8B-Base",             q4},
    ollama_name{"qwen3",        "14b",   "Qwen/Qwen3-14B",                          "Qwen/Qwen3-14B-Base",            q4},
    ollama_name{"qwen3",        "32b",   "Qwen/Qwen3-32B",                          "",                               q4},
    ollama_name{"qwen3",        "30b",   "Qwen/Qwen3-30B-A3B",                      "Qwen/Qwen3-30B-A3B-Base",        q4},
    ollama_name{"qwen3",        "235b",  "Qwen/Qwen3-235B-A22B",                    "",                               q4},
    ollama_name{"qwen3-coder",  "30b",   "Qwen/Qwen3-Coder-30B-A3B-Instruct",       "",                               q4},
    ollama_name{"qwen3-coder",  "480b",  "Qwen/Qwen3-Coder-480B-A35B-Instruct",     "",                               q4},
    ollama_name{"qwen3-vl",     "2b",    "Qwen/Qwen3-VL-2B-Instruct",               "",                               q4},
    ollama_name{"qwen3-vl",     "4b",    "Qwen/Qwen3-VL-4B-Instruct",               "",                               q4},
    ollama_name{"qwen3-vl",     "8b",    "Qwen/Qwen3-VL-8B-Instruct",               "",                               q4},
    ollama_name{"qwen3-vl",     "30b",   "Qwen/Qwen3-VL-30B-A3B-Instruct",          "",                               q4},
    ollama_name{"qwen3-vl",     "32b",   "Qwen/Qwen3-VL-32B-Instruct",              "",                               q4},
    ollama_name{"qwen3-vl",     "235b",  "Qwen/Qwen3-VL-235B-A22B-Instruct",        "",                               q4},
    ollama_name{"qwen2.5",      "0.5b",  "Qwen/Qwen2.5-0.5B-Instruct",              "Qwen/Qwen2.5-0.5B",              q4},
    ollama_name{"qwen2.5",      "1.5b",  "Qwen/Qwen2.5-1.5B-Instruct",              "Qwen/Qwen2.5-1.5B",              q4},
    ollama_name{"qwen2.5",      "3b",    "Qwen/Qwen2.5-3B-Instruct",                "Qwen/Qwen2.5-3B",                q4},
    ollama_name{"qwen2.5",      "7b",    "Qwen/Qwen2.5-7B-Instruct",                "Qwen/Qwen2.5-7B",                q4},
    ollama_name{"qwen2.5",      "14b",   "Qwen/Qwen2.5-14B-Instruct",               "Qwen/Qwen2.5-14B",               q4},
    ollama_name{"qwen2.5",      "32b",   "Qwen/Qwen2.5-32B-Instruct",               "Qwen/Qwen2.5-32B",               q4},
    ollama_name{"qwen2.5",      "72b",   "Qwen/Qwen2.5-72B-Instruct",               "Qwen/Qwen2.5-72B",               q4},
    ollama_name{"qwen2",        "0.5b",  "Qwen/Qwen2-0.5B-Instruct",                "Qwen/Qwen2-0.5B",                "Q4_0"},
    ollama_name{"qwen2",        "1.5b",  "Qwen/Qwen2-1.5B-Instruct",                "Qwen/Qwen2-1.5B",                "Q4_0"},
    ollama_name{"qwen2",        "7b",    "Qwen/Qwen2-7B-Instruct",                  "Qwen/Qwen2-7B",                  "Q4_0"},
    ollama_name{"qwen2",        "72b",   "Qwen/Qwen2-72B-Instruct",                 "Qwen/Qwen2-72B",                 "Q4_0"},
    ollama_name{"qwen",         "0.5b",  "Qwen/Qwen1.5-0.5B-Chat",                  "Qwen/Qwen1.5-0.5B",              "Q4_0"},
    ollama_name{"qwen",         "4b",    "Qwen/Qwen1.5-4B-Chat",                    "Qwen/Qwen1.5-4B",                "Q4_0"},
    ollama_name{"qwen",         "7b",    "Qwen/Qwen1.5-7B-Chat",                    "Qwen/Qwen1.5-7B",                "Q4_0"},
    ollama_name{"gemma3",       "1b",    "google/gemma-3-1b-it",                    "google/gemma-3-1b-pt",           q4},
    ollama_name{"gemma3",       "4b",    "google/gemma-3-4b-it",                    "google/gemma-3-4b-pt",           q4},
    ollama_name{"gemma3",       "12b",   "google/gemma-3-12b-it",                   "google/gemma-3-12b-pt",          q4},
    ollama_name{"gemma3",       "27b",   "google/gemma-3-27b-it",                   "google/gemma-3-27b-pt",          q4},
    ollama_name{"gemma3n",      "e2b",   "google/gemma-3n-E2B-it",                  "",                               q4},
    ollama_name{"gemma3n",      "e4b",   "google/gemma-3n-E4B-it",                  "",                               q4},
    ollama_name{"gemma2",       "2b",    "google/gemma-2-2b-it",                    "google/gemma-2-2b",              q4},
    ollama_name{"gemma2",       "9b",    "google/gemma-2-9b-it",                    "google/gemma-2-9b",              q4},
    ollama_name{"gemma2",       "27b",   "google/gemma-2-27b-it",                   "google/gemma-2-27b",             q4},
    ollama_name{"gemma",        "2b",    "google/gemma-2b-it",                      "google/gemma-2b",                "Q4_0"},
    ollama_name{"gemma",        "7b",    "google/gemma-7b-it",                      "google/gemma-7b",                "Q4_0"},
    // gpt-oss ships its MXFP4 expert weights as released; the tags have no other quant.
    ollama_name{"gpt-oss",      "20b",   "openai/gpt-oss-20b",                      "",                               "MXFP4"},
    ollama_name{"gpt-oss",      "120b",  "openai/gpt-oss-120b",                     "",                               "MXFP4"},
    // deepseek-r1's small sizes are the distilled models its page lists (8b: the 0528 Qwen3 distill).
    ollama_name{"deepseek-r1",  "1.5b",  "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "",                             q4},
    ollama_name{"deepseek-r1",  "7b",    "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", "",                               q4},
    ollama_name{"deepseek-r1",  "8b",    "deepseek-ai/DeepSeek-R1-0528-Qwen3-8B",   "",                               q4},
    ollama_name{"deepseek-r1",  "14b",   "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", "",                              q4},
    ollama_name{"deepseek-r1",  "32b",   "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "",                              q4},
    ollama_name{"deepseek-r1",  "70b",   "deepseek-ai/DeepSeek-R1-Distill-Llama-70B", "",                             q4},
    ollama_name{"deepseek-r1",  "671b",  "deepseek-ai/DeepSeek-R1",                 "",                               q4},
    ollama_name{"deepseek-v3",  "671b",  "deepseek-ai/DeepSeek-V3",                 "",                               q4},
    ollama_name{"deepseek-v2",  "16b",   "deepseek-ai/DeepSeek-V2-Lite-Chat",       "deepseek-ai/DeepSeek-V2-Lite",   "Q4_0"},
    ollama_name{"deepseek-llm", "7b",    "deepseek-ai/deepseek-llm-7b-chat",        "deepseek-ai/deepseek-llm-7b-base", "Q4_0"},
    ollama_name{"mistral",      "7b",    "mistralai/Mistral-7B-Instruct-v0.3",      "mistralai/Mistral-7B-v0.3",      "Q4_K_M"},
    ollama_name{"mixtral",      "8x7b",  "mistralai/Mixtral-8x7B-Instruct-v0.1",    "mistralai/Mixtral-8x7B-v0.1",    "Q4_0"},
    ollama_name{"mixtral",      "8x22b", "mistralai/Mixtral-8x22B-Instruct-v0.1",   "mistralai/Mixtral-8x22B-v0.1",   "Q4_0"},
    ollama_name{"mistral-nemo", "12b",   "mistralai/Mistral-Nemo-Instruct-2407",    "mistralai/Mistral-Nemo-Base-2407", q4},
    ollama_name{"mistral-small","24b",   "mistralai/Mistral-Small-24B-Instruct-2501", "",                             q4},
    ollama_name{"magistral",    "24b",   "mistralai/Magistral-Small-2506",          "",                               q4},
    ollama_name{"codestral",    "22b",   "mistralai/Codestral-22B-v0.1",            "",                               "Q4_0"},
    ollama_name{"phi4",         "14b",   "microsoft/phi-4",                         "",                               q4},
    ollama_name{"phi4-mini",    "3.8b",  "microsoft/Phi-4-mini-instruct",           "",                               q4},
    ollama_name{"phi4-reasoning","14b",  "microsoft/Phi-4-reasoning",               "",                               q4},
    ollama_name{"phi3.5",       "3.8b",  "microsoft/Phi-3.5-mini-instruct",         "",                               "Q4_0"},
    ollama_name{"phi3",         "3.8b",  "microsoft/Phi-3-mini-4k-instruct",        "",                               "Q4_0"},
    ollama_name{"phi3",         "14b",   "microsoft/Phi-3-medium-4k-instruct",      "",                               "Q4_0"},
    ollama_name{"phi",          "2.7b",  "microsoft/phi-2",                         "",                               "Q4_0"},
    ollama_name{"tinyllama",    "1.1b",  "TinyLlama/TinyLlama-1.1B-Chat-v1.0",      "",                               "Q4_0"},
    ollama_name{"smollm2",      "135m",  "HuggingFaceTB/SmolLM2-135M-Instruct",     "HuggingFaceTB/SmolLM2-135M",     "F16"},
    ollama_name{"smollm2",      "360m",  "HuggingFaceTB/SmolLM2-360M-Instruct",     "HuggingFaceTB/SmolLM2-360M",     "F16"},
    ollama_name{"smollm2",      "1.7b",  "HuggingFaceTB/SmolLM2-1.7B-Instruct",     "HuggingFaceTB/SmolLM2-1.7B",     q4},
    ollama_name{"smollm",       "135m",  "HuggingFaceTB/SmolLM-135M-Instruct",      "HuggingFaceTB/SmolLM-135M",      "Q4_0"},
    ollama_name{"smollm",       "360m",  "HuggingFaceTB/SmolLM-360M-Instruct",      "HuggingFaceTB/SmolLM-360M",      "Q4_0"},
    ollama_name{"smollm",       "1.7b",  "HuggingFaceTB/SmolLM-1.7B-Instruct",      "HuggingFaceTB/SmolLM-1.7B",      "Q4_0"},
    ollama_name{"starcoder2",   "7b",    "bigcode/starcoder2-7b",                   "bigcode/starcoder2-7b",          "Q4_0"},
    ollama_name{"olmo2",        "7b",    "allenai/OLMo-2-1124-7B-Instruct",         "allenai/OLMo-2-1124-7B",         q4},
    ollama_name{"olmo2",        "13b",   "allenai/OLMo-2-1124-13B-Instruct",        "allenai/OLMo-2-1124-13B",        q4},
    ollama_name{"aya",          "8b",    "CohereForAI/aya-23-8B",                   "",                               "Q4_0"},
    ollama_name{"granite3.3",   "2b",    "ibm-granite/granite-3.3-2b-instruct",     "",                               q4},
    ollama_name{"granite3.3",   "8b",    "ibm-granite/granite-3.3-8b-instruct",     "",                               q4},
};

// What `ollama pull FAMILY` (tag "latest") fetches: the size each library page marks "latest".
constexpr std::array<std::array<std::string_view, 2>, 31> latest{{
    {"llama4", "16x17b"}, {"llama3.1", "8b"}, {"llama3.2", "3b"}, {"llama3.3", "70b"}, {"llama3", "8b"}, {"llama2", "7b"},
    {"qwen3", "8b"}, {"qwen3-coder", "30b"}, {"qwen3-vl", "8b"}, {"qwen2.5", "7b"}, {"qwen2", "7b"},
    {"qwen", "4b"}, {"gemma3", "4b"}, {"gemma3n", "e4b"}, {"gemma2", "9b"}, {"gemma", "7b"},
    {"gpt-oss", "20b"}, {"deepseek-r1", "8b"}, {"deepseek-v3", "671b"}, {"deepseek-v2", "16b"},
    {"mistral", "7b"}, {"mixtral", "8x7b"}, {"mistral-nemo", "12b"}, {"mistral-small", "24b"},
    {"magistral", "24b"}, {"phi4", "14b"}, {"phi4-mini", "3.8b"}, {"phi3", "3.8b"}, {"phi", "2.7b"},
    {"tinyllama", "1.1b"}, {"smollm2", "1.7b"},
}};
// clang-format on

} // namespace

std::span<const ollama_name> ollama_names() {
    return table;
}

std::string_view ollama_latest_size(std::string_view family) {
    for (const auto& l : latest)
        if (l[0] == family) return l[1];
    for (const auto& r : table) // a family with one size
        if (r.family == family) return r.size;
    return {};
}

} // namespace llmplan::detail
