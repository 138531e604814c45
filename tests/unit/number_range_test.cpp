// Numbers read from text become integers only through detail::to_integer / integer_field, which
// check the range first (issue 26: the fuzzers found `max_seq_len=1e40` cast to an integer, undefined
// behaviour that `llmplan check` answered as "ctx 1").
#include "check/log_parse.h"
#include "cli_run.h"
#include "detail/checked_number.h"
#include "llmplan/check.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using namespace llmplan;
using detail::rounding;
using detail::to_integer;

TEST(checked_number, bounds_are_the_powers_of_two_of_the_type) {
    // uint64_t holds [0, 2^64): 2^64 itself (18446744073709551616.0, exact in a double) does not fit,
    // the largest double below it (2^64 - 2048) does.
    EXPECT_FALSE(to_integer<std::uint64_t>(std::ldexp(1.0, 64)).has_value());
    EXPECT_EQ(*to_integer<std::uint64_t>(std::nextafter(std::ldexp(1.0, 64), 0.0)), 18446744073709549568ull);
    EXPECT_FALSE(to_integer<std::uint64_t>(-1.0).has_value());
    EXPECT_EQ(*to_integer<std::uint64_t>(-0.4), 0u); // rounds to zero, which fits
    // int32_t holds [-2^31, 2^31).
    EXPECT_EQ(*to_integer<std::int32_t>(-2147483648.0), std::numeric_limits<std::int32_t>::min());
    EXPECT_FALSE(to_integer<std::int32_t>(2147483648.0).has_value());
    EXPECT_FALSE(to_integer<std::uint32_t>(1e40).has_value());
    EXPECT_FALSE(to_integer<std::int64_t>(std::numeric_limits<double>::quiet_NaN()).has_value());
    EXPECT_FALSE(to_integer<std::int64_t>(std::numeric_limits<double>::infinity()).has_value());
}

TEST(checked_number, rounding_is_the_callers_choice) {
    EXPECT_EQ(*to_integer<int>(2.5, rounding::nearest), 3);
    EXPECT_EQ(*to_integer<int>(2.5, rounding::down), 2);
    EXPECT_EQ(*to_integer<int>(2.1, rounding::up), 3);
    EXPECT_EQ(*to_integer<int>(-2.7, rounding::toward_zero), -2);
    // A value whose rounding crosses the bound: 2^32 - 0.4 rounds to 2^32, which uint32_t lacks.
    EXPECT_FALSE(to_integer<std::uint32_t>(4294967295.6, rounding::nearest).has_value());
    EXPECT_EQ(*to_integer<std::uint32_t>(4294967295.6, rounding::down), 4294967295u);
}

TEST(checked_number, a_field_out_of_range_is_an_error_naming_it) {
    const auto r = detail::integer_field<std::uint32_t>(1e40, "max_position_embeddings", 1, 1u << 30);
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().message.find("max_position_embeddings"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("1e+40"), std::string::npos) << r.error().message;
    EXPECT_FALSE(detail::integer_field<int>(std::nan(""), "n_layer", 1, 1000).has_value());
    EXPECT_EQ(detail::integer_field<int>(32.0, "n_layer", 1, 1000).value(), 32);
}

TEST(checked_number, saturate_holds_computed_figures_to_the_type) {
    EXPECT_EQ(detail::saturate<std::uint64_t>(1e30), std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(detail::saturate<std::int64_t>(-1e30), std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(detail::saturate<std::uint64_t>(std::nan("")), 0u);
    EXPECT_EQ(detail::saturate<std::uint64_t>(1536.4), 1536u);
}

// The log reader reads a number as printed: an exponent is part of it, every digit counts.
TEST(log_numbers, exponents_and_long_digit_runs_are_read_whole) {
    std::size_t used = 0;
    EXPECT_DOUBLE_EQ(*detail::parse_number("1e40,", used), 1e40);
    EXPECT_EQ(used, 4u);
    EXPECT_DOUBLE_EQ(*detail::parse_number("2.5E+3 MiB", used), 2500.0);
    EXPECT_EQ(used, 6u);
    // "3 experts": an 'e' not followed by digits ends the number.
    EXPECT_DOUBLE_EQ(*detail::parse_number("3 experts", used), 3.0);
    EXPECT_DOUBLE_EQ(*detail::parse_number("3experts", used), 3.0);
    EXPECT_EQ(used, 1u);
    // 41 digits: 1e40, not its first 40 digits (1e39) as before.
    EXPECT_DOUBLE_EQ(*detail::parse_number(std::string("1") + std::string(40, '0'), used), 1e40);
    EXPECT_EQ(used, 41u);
    // Sizes past 1 PiB are not sizes: 1e14 GiB overflowed llround before (undefined behaviour).
    EXPECT_FALSE(detail::size_after("model size = 1e14 GiB", "=").has_value());
    EXPECT_FALSE(detail::size_after("model size = 1e308 GiB", "=").has_value());
    EXPECT_EQ(*detail::size_after("model size = 1048576 GiB", "="), detail::max_log_bytes); // 2^20 x 2^30
    EXPECT_FALSE(detail::size_after("model size = 1048577 GiB", "=").has_value());
}

// vLLM's engine config line (vLLM PR 3120's log, tests/data/logs/vllm_04.log) with its max_seq_len
// replaced: no value is invented from an unusable number; the line's other values still count.
log_facts parse_vllm_with(const std::string& value) {
    const std::string log = "Initializing an LLM engine with config: model='facebook/opt-125m', ..., "
                            "dtype=torch.float16, max_seq_len=" +
                            value +
                            ", ..., tensor_parallel_size=1, ..., kv_cache_dtype=auto, ...\n"
                            "Loading model weights took 244.61 MB\n";
    auto f = parse_engine_log(log, "vllm.log");
    EXPECT_TRUE(f.has_value()) << value;
    return f ? *f : log_facts{};
}

TEST(log_numbers, an_unusable_context_is_ignored_with_a_note) {
    for (const char* v : {"1e40", "-5", "nan", "1e308", "-inf", "99999999999999999999999999999999999999999"}) {
        const auto f = parse_vllm_with(v);
        EXPECT_FALSE(f.max_model_len.has_value()) << v << " became " << f.max_model_len.value_or(0);
        ASSERT_EQ(f.notes.size(), 1u) << v;
        EXPECT_NE(f.notes[0].find("line 1: max_seq_len " + std::string(v).substr(0, 32)), std::string::npos)
            << f.notes[0];
        EXPECT_EQ(f.tensor_parallel, 1u) << v;
    }
    const auto ok = parse_vllm_with("2048");
    EXPECT_EQ(ok.max_model_len, 2048u);
    EXPECT_TRUE(ok.notes.empty());
    EXPECT_EQ(parse_vllm_with("4.096e3").max_model_len, 4096u);
}

TEST(log_numbers, a_size_past_a_petabyte_is_ignored_with_a_note) {
    auto f = parse_engine_log("llama_model_load: file type = Q4_K - Medium\n"
                              "load_tensors: CUDA0 model buffer size = 1e40 MiB\n"
                              "load_tensors: CPU_Mapped model buffer size = 281.81 MiB\n",
                              "x.log");
    ASSERT_TRUE(f.has_value());
    ASSERT_EQ(f->figures.size(), 1u);
    EXPECT_EQ(f->figures[0].device, "cpu");
    ASSERT_EQ(f->notes.size(), 1u);
    EXPECT_NE(f->notes[0].find("line 2: buffer size 1e40"), std::string::npos) << f->notes[0];
}

// The CLI: the note reaches the person, and the context is the model's own, not "1".
TEST(log_numbers, cli_check_says_which_line_it_ignored) {
    const std::string path = ::testing::TempDir() + "/llmplan_max_seq_len_1e40.log";
    {
        std::FILE* out = std::fopen(path.c_str(), "w");
        ASSERT_NE(out, nullptr);
        std::fputs("Initializing an LLM engine with config: model='facebook/opt-125m', ..., dtype=torch.float16, "
                   "max_seq_len=1e40, ..., tensor_parallel_size=1, ..., kv_cache_dtype=auto, ...\n"
                   "Loading model weights took 244.61 MB\n# GPU blocks: 76240, # CPU blocks: 7281\n",
                   out);
        std::fclose(out);
    }
    const auto r = test::run_cli("check " + path + " --json");
    std::remove(path.c_str());
    ASSERT_EQ(r.status, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    bool noted   = false;
    for (const auto& n : j["notes"])
        noted = noted || n.get<std::string>().find("max_seq_len 1e40") != std::string::npos;
    EXPECT_TRUE(noted) << j["notes"].dump();
    // OPT-125m's config: max_position_embeddings 2048 (its trained context stands in).
    EXPECT_EQ(j["estimate"]["workload"]["ctx"], 2048) << j["estimate"]["workload"].dump();
}

// A hand-written hardware list (--hardware-file, the cpus.csv columns) whose core count is -4: a
// whole count is checked for its sign and range before it becomes an integer (it was cast from the
// double unchecked: undefined behaviour for a negative value). Exit 2, naming the column.
TEST(hardware_numbers, a_negative_count_is_refused_naming_the_column) {
    const std::string path = ::testing::TempDir() + "/llmplan_negative_cores.csv";
    {
        std::FILE* out = std::fopen(path.c_str(), "w");
        ASSERT_NE(out, nullptr);
        std::fputs("name,vendor,segment,architecture,cores,threads,core_config,memory_channels,memory_type,"
                   "memory_speed_mt_s,max_memory_gb,theoretical_mem_bw_gb_s,bw_basis,avx512,amx,tdp_w,tdp_note,"
                   "launch_price_usd,price_basis,notes,source,price_date\n"
                   "My CPU,AMD,desktop,Zen 4,-4,32,,2 (128-bit),DDR5,5200,,83.2,,yes,no,,,700,,,,\n",
                   out);
        std::fclose(out);
    }
    test::expect_refused("hardware list --hardware-file " + path, "cores");
    std::remove(path.c_str());
}

} // namespace
