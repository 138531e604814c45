// Catalog round 12 (data/models/SOURCES.md, "Round 12 additions"): OpenBuddy/openbuddy-zephyr-7b-v14.1,
// the last model of the benchmark's training cases the catalog lacked (five ms-swift cases, issue 23),
// counted by hand from the values of TheBloke's GPTQ re-upload of its config.json.
#include "catalog_fixtures.h"
#include "llmplan/estimate.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using test::catalog_model;

// Mistral-7B-v0.1's shapes (4096 wide, 32 layers, 32 heads of 128, 8 KV heads, MLP 14336, untied head)
// with OpenBuddy's 36,608-row vocabulary: the count is Mistral-7B-v0.1's 7,241,732,096 (its Hub total)
// plus 4,608 extra rows in both the embedding and the head.
TEST(catalog_round12, openbuddy_zephyr_count_by_hand) {
    const auto m          = catalog_model("OpenBuddy/openbuddy-zephyr-7b-v14.1");
    const std::uint64_t h = 4096, v = 36'608, ff = 14'336, kv = 8 * 128;
    const std::uint64_t layer   = (2 * h * h + 2 * h * kv) + 3 * h * ff + 2 * h;
    const std::uint64_t by_hand = 2 * v * h + 32 * layer + h;
    const auto c                = count_params(m);
    EXPECT_EQ(c.total, by_hand);
    EXPECT_EQ(c.total, 7'279'480'832u);
    EXPECT_EQ(c.total - 2 * (v - 32'000) * h, 7'241'732'096u); // Mistral-7B-v0.1's Hub total
    EXPECT_FALSE(m.tied_embd);
    EXPECT_EQ(m.typical_layer().n_head_kv, 8u);
}

} // namespace
} // namespace llmplan
