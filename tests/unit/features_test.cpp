// Will it run at all (issue 14, item 9): chip features against the plan's engine and dtype.
#include "catalog_fixtures.h"
#include "llmplan/hardware.h"
#include "llmplan/plan.h"
#include "llmplan/train_plan.h"
#include "plan/detail.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using test::catalog_model;

plan_candidate one(const char* hw, engine_kind e, const char* weights = "bf16") {
    inference_params p;
    p.engine  = e;
    p.weights = *parse_weight_choice(weights);
    p.ctx     = 4096;
    return make_plan(catalog_model("Qwen/Qwen2.5-7B"), p, {*builtin_hardware().lookup(hw)}).candidates.front();
}

TEST(features, bf16_on_a_t4_offers_fp16) {
    // T4: compute capability 7.5 (NVIDIA's table); bf16 tensor cores start at 8.0 (Ampere).
    const auto c = one("g4dn.xlarge", engine_kind::transformers);
    ASSERT_FALSE(c.unsupported.empty());
    EXPECT_NE(c.unsupported.front().find("fp16"), std::string::npos) << c.unsupported.front();
    EXPECT_TRUE(one("GeForce RTX 4090", engine_kind::transformers).unsupported.empty()); // 8.9
}

TEST(features, vllm_needs_compute_capability_7) {
    // P100 (6.0) is below vLLM's 7.0; llama.cpp (5.0+) runs there.
    const auto c = one("P100 PCIe 16GB", engine_kind::vllm, "f16");
    ASSERT_FALSE(c.unsupported.empty());
    EXPECT_NE(c.unsupported.front().find("vLLM needs compute capability 7.0+"), std::string::npos);
    EXPECT_FALSE(c.meets_speed);
    EXPECT_TRUE(one("P100 PCIe 16GB", engine_kind::llama_cpp, "f16").unsupported.empty());
}

TEST(features, launch_lines_name_the_cuda_floor) {
    const auto c = one("GeForce RTX 5090", engine_kind::vllm); // Blackwell, 12.0
    ASSERT_FALSE(c.requires_versions.empty());
    EXPECT_EQ(c.requires_versions.front(), "CUDA 12.8+ and NVIDIA driver 570+ (Blackwell)");
}

TEST(features, bf16_read_from_the_compute_capability) {
    // NVIDIA's CUDA GPU table: V100 7.0, T4 7.5 (no bf16); A100 8.0, RTX 4090 8.9 (bf16).
    EXPECT_FALSE(detail::has_bf16(**builtin_hardware().lookup("V100 SXM2 32GB")));
    EXPECT_FALSE(detail::has_bf16(**builtin_hardware().lookup("T4")));
    EXPECT_FALSE(detail::has_bf16(**builtin_hardware().lookup("g4dn.xlarge"))); // a cloud row: its T4's
    EXPECT_TRUE(detail::has_bf16(**builtin_hardware().lookup("A100 SXM4 80GB")));
    EXPECT_TRUE(detail::has_bf16(**builtin_hardware().lookup("GeForce RTX 4090")));
    // the column decides, not the architecture's name
    device_spec d        = **builtin_hardware().lookup("A100 SXM4 80GB");
    d.compute_capability = 7.5;
    EXPECT_FALSE(detail::has_bf16(d));
    d.compute_capability.reset(); // unknown: not refused
    EXPECT_TRUE(detail::has_bf16(d));
}

TEST(features, vllm_on_a_t4_computes_in_fp16) {
    // Qwen2.5-7B is a bf16 checkpoint: vLLM stops on a 7.5 GPU unless --dtype float16 is given.
    auto line = [](const char* hw) {
        for (const auto& [name, text] : one(hw, engine_kind::vllm, "native").launch)
            if (name == "vllm") return text;
        return std::string();
    };
    EXPECT_NE(line("g4dn.xlarge").find(" --dtype float16"), std::string::npos) << line("g4dn.xlarge");
    EXPECT_EQ(line("GeForce RTX 4090").find("--dtype"), std::string::npos) << line("GeForce RTX 4090");
}

TEST(features, nvfp4_needs_blackwell) {
    // NVFP4 tensor cores are sm_100/sm_120; an H100 (9.0) is offered vLLM's FP4 Marlin path instead.
    auto m         = catalog_model("Qwen/Qwen2.5-7B");
    m.weights_type = "nvfp4";
    inference_params p;
    p.engine = engine_kind::vllm;
    p.ctx    = 4096;
    auto on  = [&](const char* hw) {
        return make_plan(m, p, {*builtin_hardware().lookup(hw)}).candidates.front().unsupported;
    };
    const auto h100 = on("H100 SXM 80GB");
    ASSERT_EQ(h100.size(), 1u);
    EXPECT_NE(h100.front().find("NVFP4 tensor cores needs compute capability 10.0+"), std::string::npos)
        << h100.front();
    EXPECT_NE(h100.front().find("Marlin"), std::string::npos);
    EXPECT_TRUE(on("GeForce RTX 5090").empty()); // 12.0
}

} // namespace
} // namespace llmplan

namespace llmplan {
namespace {

TEST(features, cloud_rows_run_on_their_accelerators_platform) {
    // A cloud row's vendor column is its provider (GCP); the linked gpus.csv row's architecture (TPU)
    // says where code runs. llama.cpp has no TPU backend (its README's backends); vLLM has one.
    auto c = one("TPU v6e-1", engine_kind::llama_cpp, "q4_k_m");
    ASSERT_EQ(c.unsupported.size(), 1u);
    EXPECT_EQ(c.unsupported.front(), "llama.cpp does not build for TPU: vLLM does");
    EXPECT_TRUE(one("TPU v6e-1", engine_kind::vllm).unsupported.empty());
}

TEST(features, qlora_needs_bitsandbytes_where_it_builds) {
    // QLoRA's NF4 base is bitsandbytes' (CUDA, ROCm, XPU, CPU builds; no TPU, Gaudi or Metal).
    training_params p;
    p.method             = train_method::qlora;
    p.grad_checkpointing = true;
    const auto& m        = catalog_model("Qwen/Qwen2.5-7B");
    const auto r =
        make_train_plan(m, p, {*builtin_hardware().lookup("TPU v6e-1"), *builtin_hardware().lookup("GeForce RTX 4090")},
                        default_train_tokens);
    ASSERT_EQ(r.candidates.size(), 2u);
    // The row that cannot start the run comes after the one that can, and is never recommended.
    EXPECT_EQ(r.candidates.front().hardware, "GeForce RTX 4090");
    EXPECT_TRUE(r.candidates.front().unsupported.empty());
    ASSERT_EQ(r.candidates.back().unsupported.size(), 1u);
    EXPECT_EQ(r.candidates.back().unsupported.front(),
              "bitsandbytes (the 4-bit base) does not build for TPU: LoRA on the 16-bit base runs");
    ASSERT_TRUE(r.recommendation);
    EXPECT_EQ(r.recommendation->hardware, "GeForce RTX 4090");
    // LoRA on a 16-bit base with torch AdamW needs nothing from bitsandbytes.
    p.method = train_method::lora;
    EXPECT_TRUE(detail::training_unsupported(m, p, **builtin_hardware().lookup("TPU v6e-1")).empty());
    p.optimizer = optimizer_kind::adamw_8bit;
    EXPECT_EQ(detail::training_unsupported(m, p, **builtin_hardware().lookup("TPU v6e-1")).size(), 1u);
}

} // namespace
} // namespace llmplan
