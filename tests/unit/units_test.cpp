// Sizes and counts people type, and the one GiB wording (include/llmplan/units.h).
#include "llmplan/units.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

TEST(units, sizes_in_decimal_and_binary_units) {
    EXPECT_EQ(*parse_size_bytes("80GiB", "--device-memory"), 80ull << 30);
    EXPECT_EQ(*parse_size_bytes("24 GB", "--device-memory"), 24'000'000'000ull);
    EXPECT_EQ(*parse_size_bytes("81121MiB", "--device-memory"), 81121ull << 20);
    EXPECT_FALSE(parse_size_bytes("lots", "--device-memory").has_value());
}

TEST(units, counts_with_suffixes_or_exponents) {
    EXPECT_EQ(*parse_count("100M", "--train-tokens"), 100'000'000ull);
    EXPECT_EQ(*parse_count("2.5B", "--train-tokens"), 2'500'000'000ull);
    EXPECT_EQ(*parse_count("5e8", "--train-tokens"), 500'000'000ull);
    EXPECT_EQ(*parse_count("250k", "--train-tokens"), 250'000ull);
    EXPECT_EQ(*parse_count("1T", "--train-tokens"), 1'000'000'000'000ull);
    for (const char* bad : {"", "abc", "0", "100X", "-5M", "1e19", "12M3"}) {
        auto r = parse_count(bad, "--train-tokens");
        ASSERT_FALSE(r.has_value()) << bad;
        EXPECT_NE(std::string(r.error().what()).find("--train-tokens"), std::string::npos) << r.error().what();
    }
}

TEST(units, gib_text) {
    EXPECT_EQ(gib_text(1.5 * 1073741824.0), "1.5 GiB");
    EXPECT_EQ(gib_text(1073741824.0 / 3, 2), "0.33 GiB");
}

} // namespace
} // namespace llmplan
