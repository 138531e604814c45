// The training enums' names: every value the option table offers (src/api/options.cpp) reads into
// its enum and back to the same spelling, so requests, documents and the reverse search agree.
#include "llmplan/estimate.h"
#include "llmplan/options.h"
#include "llmplan/trainer.h"

#include <gtest/gtest.h>
#include <sstream>

namespace llmplan {
namespace {

template <class F> void round_trips(std::string_view option, F from_name, int at_least = 3) {
    const option_spec* o = find_option(command_kind::estimate, option);
    ASSERT_NE(o, nullptr) << option;
    std::istringstream words{std::string(o->values)};
    int n = 0;
    for (std::string w; words >> w; ++n) {
        const auto v = from_name(w);
        ASSERT_TRUE(v.has_value()) << option << " " << w;
        EXPECT_EQ(to_string(*v), w);
    }
    EXPECT_GE(n, at_least) << option; // full/lora/qlora; four optimizers; four precisions; five losses
}

TEST(TrainingNames, EveryOptionValueReadsBothWays) {
    round_trips("method", train_method_from_name);
    round_trips("optimizer", optimizer_from_name);
    round_trips("precision", train_precision_from_name);
    round_trips("loss", loss_from_name, 6);                    // full chunked fused linear full-shift head-chunked
    round_trips("batch-lengths", batch_lengths_from_name, 2);  // variable fixed
    EXPECT_FALSE(train_method_from_name("QLoRA").has_value()); // spellings are the option table's, exactly
}

} // namespace
} // namespace llmplan
