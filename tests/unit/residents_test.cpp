// Every resident of a device in one budget: --reserve, --draft, --mmproj, a VLM's vision tower.
#include "cli_run.h"
#include "llmplan/api.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using llmplan::test::run_cli;
using nlohmann::json;

json estimate(const std::string& args) {
    const auto r = run_cli("estimate " + args + " --json");
    EXPECT_EQ(r.status, 0) << args;
    return r.status == 0 ? json::parse(r.out) : json::object();
}

std::int64_t part(const json& j, const char* name) {
    return j["devices"][0]["parts"][name].get<std::int64_t>();
}
std::int64_t total(const json& j) {
    return j["devices"][0]["total_bytes"].get<std::int64_t>();
}

TEST(residents, reserve_adds_exactly_what_other_processes_hold) {
    const auto a = estimate("qwen2.5-7b --ctx 4096");
    const auto b = estimate("qwen2.5-7b --ctx 4096 --reserve 2GiB");
    EXPECT_EQ(part(b, "reserved"), 2ll << 30);
    EXPECT_EQ(total(b) - total(a), 2ll << 30);
}

// llama.cpp -md: the draft's own weights, KV and compute on the same GPU. Qwen2.5-0.5B at Q4_K_M is
// 0.40 GB of weights (its GGUF on the Hub: 398 MB); its KV cache at 8192 cells is 24 layers x 2 KV
// heads x 64 x (K + V) x 2 bytes x 8192 = 100,663,296 bytes; its compute buffer is at most the logits
// of a 512-token ubatch over its 151,936-token vocabulary in f32 (311,164,928 bytes) and 64 MB of
// the rest. So the draft part is from 380 + 100.7 = 480 MB to 480 + 311 + 64 = 855 MB (807 MB today).
TEST(residents, draft_model_on_llama_cpp) {
    const auto a = estimate("qwen2.5-7b --weights q4_k_m --ctx 8192");
    const auto b = estimate("qwen2.5-7b --weights q4_k_m --ctx 8192 --draft Qwen/Qwen2.5-0.5B");
    const auto draft =
        b["devices"][1]["parts"]["draft"].get<std::int64_t>() + b["devices"][0]["parts"]["draft"].get<std::int64_t>();
    EXPECT_GT(draft, 480'000'000);
    EXPECT_LT(draft, 855'000'000);
    EXPECT_EQ(b["workload"]["draft"], "Qwen/Qwen2.5-0.5B");
}

// vLLM: one budget (gpu_memory_utilization x memory); the draft takes its share out of the KV pool.
TEST(residents, draft_model_on_vllm_comes_out_of_the_pool) {
    const std::string base = "qwen2.5-7b --engine vllm --device-memory 80GiB --ctx 8192";
    const auto a           = estimate(base);
    const auto b           = estimate(base + " --draft Qwen/Qwen2.5-0.5B");
    EXPECT_GT(part(b, "draft"), 900'000'000); // 0.49 B params in bf16 + its KV rows
    EXPECT_LT(part(b, "kv_cache"), part(a, "kv_cache"));
    EXPECT_LE(total(b), total(a) + (1 << 20)); // the same budget, to a token's rounding
}

// Gemma-3-4B's SigLIP tower: 27 blocks of width 1152 (~0.42 B params, "SigLIP 400M"), in bf16.
TEST(residents, vlm_vision_tower_in_the_projector_part) {
    const auto j = estimate("google/gemma-3-4b-it");
    EXPECT_GT(part(j, "projector"), 800'000'000);
    EXPECT_LT(part(j, "projector"), 1'100'000'000);
}

// --mmproj: the projector GGUF's tensors, the same bytes `inspect` reads from that file.
TEST(residents, mmproj_file_is_its_tensors) {
    const std::string file = std::string(LLMPLAN_TEST_DATA) + "/gguf/llama-2-tiny-random.gguf";
    const auto i           = json::parse(run_cli("inspect " + file + " --json").out);
    const auto j           = estimate("qwen2.5-7b --weights q4_k_m --mmproj " + file);
    EXPECT_EQ(j["devices"][1]["parts"]["projector"].get<std::int64_t>(),
              i["model"]["weights_bytes"].get<std::int64_t>());
}

TEST(residents, bad_resident_options_exit_2) {
    // a vocab-only GGUF holds no tensors: not a projector (on llama.cpp, the engine that takes --mmproj)
    llmplan::test::expect_refused("estimate qwen2.5-7b --weights q4_k_m --mmproj " + std::string(LLMPLAN_TEST_DATA) +
                                      "/gguf/ggml-vocab-llama.gguf --json",
                                  "--mmproj: " + std::string(LLMPLAN_TEST_DATA) +
                                      "/gguf/ggml-vocab-llama.gguf: the projector "
                                      "GGUF holds no tensors");
    llmplan::test::expect_refused("estimate qwen2.5-7b --weights q4_k_m --mmproj /nonexistent.gguf --json",
                                  "--mmproj: /nonexistent.gguf: no such file");
    llmplan::test::expect_refused("estimate qwen2.5-7b --reserve lots --json", "--reserve: \"lots\" is not a size");
    llmplan::test::expect_refused("estimate qwen2.5-7b --draft nosuch-model --json",
                                  "--draft: nosuch-model: not a file");
    // a vision model's image side is bounded (16384 pixels)
    llmplan::test::expect_refused("estimate google/gemma-3-4b-it --image-size 999999 --offline --json",
                                  "--image-size: 999999 pixels a side; expected at most 16384");
}

} // namespace

namespace {

/// The web API's answer to a query ("model=qwen2.5-7b&task=train", as /api/estimate takes it): a 400
/// whose error names `what`.
void expect_refused(std::string_view query, std::string_view what) {
    std::vector<std::pair<std::string, std::string>> options;
    while (!query.empty()) {
        const auto amp = query.find('&');
        const auto kv  = query.substr(0, amp);
        const auto eq  = kv.find('=');
        options.emplace_back(std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1)));
        query.remove_prefix(amp == std::string_view::npos ? query.size() : amp + 1);
    }
    const auto r = llmplan::answer("estimate", options);
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_NE(r.body.find(what), std::string::npos) << r.body;
}

// Each resident option where it does not apply is an error naming it (exit 2 from the CLI).
TEST(residents, options_that_do_not_apply_are_refused) {
    expect_refused("model=qwen2.5-7b&task=train&reserve=2GiB", "--reserve");
    expect_refused("model=qwen2.5-7b&task=train&draft=qwen2.5-0.5b", "--draft");
    // the projector GGUF is llama.cpp's; transformers and vLLM load the checkpoint's vision tower
    expect_refused("model=qwen2.5-7b&engine=vllm&mmproj=mmproj.gguf", "--mmproj");
    expect_refused("model=qwen2.5-7b&weights=q4_k_m&image-size=896", "--image-size");
    // a text-only model has no vision tower to size
    expect_refused("model=qwen2.5-7b&image-size=896", "no vision tower");
    llmplan::test::expect_refused("estimate qwen2.5-7b --image-size 0 --json", "--image-size: 0; expected at least 1");
    llmplan::test::expect_refused("estimate qwen2.5-7b --image-size 896 --json",
                                  "--image-size: Qwen/Qwen2.5-7B has no vision tower");
    llmplan::test::expect_refused("estimate qwen2.5-7b --engine vllm --mmproj x.gguf --json",
                                  "--mmproj: configures llama.cpp; the engine is vllm");
}

// The web API names no file: --mmproj is refused there, --draft takes catalog ids and hub names only.
TEST(residents, api_reads_no_path) {
    expect_refused("model=qwen2.5-7b&weights=q4_k_m&mmproj=mmproj.gguf", "--mmproj");
    expect_refused("model=qwen2.5-7b&draft=/models/draft.gguf", "--draft");
    const auto ok = llmplan::answer("estimate", {
                                                    {"model", "qwen2.5-7b"  },
                                                    {"draft", "qwen2.5-0.5b"}
    });
    EXPECT_EQ(ok.status, 200) << ok.body;
}

// --image-size: the encoder's activations grow with the patches, N = (side / patch)^2; Gemma-3's
// SigLIP (patch 14, width 1152, MLP 4304): 896 px -> 64^2 patches x (6 x 1152 + 2 x 4304) x 2 bytes.
TEST(residents, image_size_scales_the_encoder_activations) {
    const auto a                 = estimate("google/gemma-3-4b-it --image-size 448");
    const auto b                 = estimate("google/gemma-3-4b-it --image-size 896");
    const std::int64_t per_patch = (6 * 1152 + 2 * 4304) * 2;
    EXPECT_EQ(part(b, "projector") - part(a, "projector"), (64 * 64 - 32 * 32) * per_patch);
}

} // namespace
