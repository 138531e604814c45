// The engine table (src/estimate/engine_traits.h): the rows are consistent with themselves and with
// the names and versions the CLI prints, and the plan's fallback engine follows the device columns.
#include "estimate/engine_traits.h"
#include "llmplan/plan.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

constexpr engine_kind all_engines[] = {engine_kind::llama_cpp, engine_kind::vllm, engine_kind::transformers};

TEST(EngineTraits, EachRowIsFoundByItsName) {
    for (engine_kind e : all_engines) {
        const auto* t = detail::engine_by_name(detail::traits_of(e).name);
        ASSERT_NE(t, nullptr);
        EXPECT_EQ(t->kind, e);
    }
    EXPECT_EQ(detail::engine_by_name("ollama"), nullptr); // a front end of llama.cpp, not an engine row
}

TEST(EngineTraits, SmallerKvTypesAreOnesTheEngineOffers) {
    // A plan's "--kv-type X" suggestion must pass the estimate's own --kv-type check.
    for (engine_kind e : all_engines) {
        const auto& t = detail::traits_of(e);
        for (std::string_view word : detail::words_of(t.smaller_kv_types)) {
            const auto type = dtype_from_name(word);
            ASSERT_TRUE(type.has_value()) << word;
            EXPECT_TRUE(detail::offers_kv_type(t, *type)) << t.name << " " << word;
        }
    }
}

TEST(EngineTraits, EngineOnFallsBackToLlamaCppWhereTheAskedOneDoesNotRun) {
    // vLLM builds for CUDA, not Metal (its install docs: macOS runs it on the CPU, which the
    // estimate does not cover); llama.cpp and transformers (MPS) run on a Mac.
    EXPECT_EQ(detail::engine_on(engine_kind::vllm, device_kind::metal), engine_kind::llama_cpp);
    EXPECT_EQ(detail::engine_on(engine_kind::vllm, device_kind::cpu), engine_kind::llama_cpp);
    EXPECT_EQ(detail::engine_on(engine_kind::vllm, device_kind::cuda), engine_kind::vllm);
    EXPECT_EQ(detail::engine_on(engine_kind::transformers, device_kind::metal), engine_kind::transformers);
}

TEST(EngineTraits, CurrentReleasesPrintAsTheCliShowsThem) {
    // The table's current releases (engine_traits.cpp: Dec 2026), llama.cpp's as a semantic version.
    EXPECT_EQ(to_string(engine_kind::llama_cpp, default_engine_version(engine_kind::llama_cpp)), "llama.cpp@v0.3.0");
    EXPECT_EQ(to_string(engine_kind::vllm, default_engine_version(engine_kind::vllm)), "vllm@0.30.0");
    EXPECT_EQ(to_string(engine_kind::transformers, default_engine_version(engine_kind::transformers)),
              "transformers@5.15.1");
    // SGLang v0.5.19 (AMD-AGI/TraceLens issue 1006, 2026-09-07) and mlx-lm 0.32.0 (ml-explore/mlx-lm
    // PR 1753, 2026-08-18).
    EXPECT_EQ(to_string(engine_kind::sglang, default_engine_version(engine_kind::sglang)), "sglang@0.5.19");
    EXPECT_EQ(to_string(engine_kind::mlx, default_engine_version(engine_kind::mlx)), "mlx@0.32.0");
    const auto b = parse_engine_version("llama.cpp@b6000", engine_kind::llama_cpp);
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ(b->major, 6000u);
    const auto wrong = parse_engine_version("x7", engine_kind::llama_cpp);
    ASSERT_FALSE(wrong.has_value());
    EXPECT_NE(wrong.error().what().find("llama.cpp versions are build numbers"), std::string::npos);
}

TEST(EngineTraits, RunsOnNamesAreThePlanDocumentStrings) {
    // The plan document's extra field "runs_on" (tests/golden/plan_infer.out holds "gpu"; training
    // candidates, tests/golden/plan_train.out, hold "").
    EXPECT_EQ(runs_on_name(device_kind::cuda), "gpu");
    EXPECT_EQ(runs_on_name(device_kind::metal), "apple");
    EXPECT_EQ(runs_on_name(device_kind::cpu), "cpu");
    EXPECT_EQ(runs_on_name(std::nullopt), "");
}

} // namespace
} // namespace llmplan
