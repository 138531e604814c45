// The caching allocator's reserve of earlier steps' blocks (--batch-lengths variable): counted in
// the total, reported as reclaimable, capped by --device-memory, and left out of what a training
// plan needs to fit (PyTorch's CUDACachingAllocator frees unused cached blocks and retries before
// raising out-of-memory). On the tiny llama of training_fixture.h.
#include "llmplan/estimate.h"
#include "training_fixture.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

training_params lora(batch_lengths lengths) {
    training_params p;
    p.method            = train_method::lora;
    p.seq               = 64;
    p.overrides.lengths = lengths;
    return p;
}

std::uint64_t total(const training_estimate& e) {
    return static_cast<std::uint64_t>(e.devices.front().total_bytes());
}

TEST(TrainingReserve, ReclaimableIsWhatFixedLengthsLeaveOut) {
    const model_desc m = test::make_llama({});
    auto var           = estimate_training(m, lora(batch_lengths::variable));
    auto fixed         = estimate_training(m, lora(batch_lengths::fixed));
    ASSERT_TRUE(var && fixed);
    EXPECT_GT(var->reclaimable_bytes, 0u);
    EXPECT_EQ(fixed->reclaimable_bytes, 0u);
    // The only difference between the two is that reserve, carried in `overhead`.
    EXPECT_EQ(total(*var) - var->reclaimable_bytes, total(*fixed));
}

TEST(TrainingReserve, DeviceMemoryCapsTheReserveNotTheAllocations) {
    const model_desc m = test::make_llama({});
    const auto fixed   = estimate_training(m, lora(batch_lengths::fixed));
    const auto var     = estimate_training(m, lora(batch_lengths::variable));
    ASSERT_TRUE(fixed && var);
    const std::uint64_t floor = total(*fixed);
    const std::uint64_t half  = var->reclaimable_bytes / 2;

    // Room for half the reserve: the total stops at the GPU's memory.
    auto p                = lora(batch_lengths::variable);
    p.device_memory_bytes = floor + half;
    auto capped           = estimate_training(m, p);
    ASSERT_TRUE(capped);
    EXPECT_EQ(total(*capped), floor + half);
    EXPECT_EQ(capped->reclaimable_bytes, half);

    // A GPU larger than the whole: nothing changes.
    p.device_memory_bytes = total(*var) + 1;
    auto roomy            = estimate_training(m, p);
    ASSERT_TRUE(roomy);
    EXPECT_EQ(total(*roomy), total(*var));

    // Smaller than the allocations: no reserve at all, and the total still says what is needed.
    p.device_memory_bytes = floor - 1;
    auto small            = estimate_training(m, p);
    ASSERT_TRUE(small);
    EXPECT_EQ(small->reclaimable_bytes, 0u);
    EXPECT_EQ(total(*small), floor);
}

} // namespace
} // namespace llmplan
