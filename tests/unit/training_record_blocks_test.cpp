// The caching allocator's blocks left by record-length steps (src/estimate/training_runtime.cpp,
// stranded_record_blocks): with lengths that vary, a model whose code makes the whole logits fp32 before the
// loss keeps 6 fp32 logits tensors of the longest step cached, in place of the fixed 1 GiB of blocks of earlier
// sizes when larger; one that hands 16-bit logits to the loss (Qwen-1, Baichuan remote code) keeps the 1 GiB.
// Sizes by hand: 4 bytes x tokens x vocabulary.
#include "estimate/training_detail.h"
#include "llmplan/estimate.h"
#include "training_fixture.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

training_params lora_params(const char* trainer, std::uint64_t seq) {
    training_params p;
    p.method  = train_method::lora;
    p.seq     = seq;
    p.trainer = trainer;
    return p;
}

TEST(RecordBlocks, WhichModelCodeUpcastsTheLogits) {
    // transformers' heads and ChatGLM's remote code cast to fp32 before the loss; Qwen-1 and Baichuan do not.
    EXPECT_TRUE(detail::logits_upcast_before_loss(test::make_llama({})));
    EXPECT_TRUE(detail::logits_upcast_before_loss(test::make_llama({}, "chatglm")));
    EXPECT_TRUE(detail::logits_upcast_before_loss(test::make_llama({}, "qwen2")));
    EXPECT_FALSE(detail::logits_upcast_before_loss(test::make_llama({}, "qwen")));
    EXPECT_FALSE(detail::logits_upcast_before_loss(test::make_llama({}, "baichuan")));
}

TEST(RecordBlocks, OneFp32LogitsTensorOfTheStep) {
    // Yi-6B's vocabulary (64,000) at 8192 tokens, micro-batch 1 (ms_swift_benchmark.json #41):
    // 4 x 8192 x 64,000 = 2,097,152,000 bytes; x 6 = 12,582,912,000 bytes (11.72 GiB) of the reserve.
    const model_desc yi = test::make_llama({.n_vocab = 64000});
    const auto p        = lora_params("ms-swift", 8192);
    const auto h        = detail::resolve_habits(p);
    ASSERT_TRUE(h);
    const auto a = detail::estimate_activations(yi, p, *h, nullptr, false, {});
    EXPECT_EQ(a.record_block_bytes, 2'097'152'000u);
    // Qwen-1's code keeps its logits 16-bit: nothing.
    EXPECT_EQ(detail::estimate_activations(test::make_llama({.n_vocab = 64000}, "qwen"), p, *h, nullptr, false, {})
                  .record_block_bytes,
              0u);
    // torchtune's chunked loss upcasts one chunk at a time: not the whole logits, nothing.
    const auto tt  = lora_params("torchtune", 8192);
    const auto htt = detail::resolve_habits(tt);
    ASSERT_TRUE(htt);
    EXPECT_EQ(detail::estimate_activations(yi, tt, *htt, nullptr, false, {}).record_block_bytes, 0u);
}

TEST(RecordBlocks, VariableLengthsTakeTheLargerOfTheBlocksAndOneGiB) {
    // Runtime arithmetic, transient 76,800 bytes (12 x 64 tokens x vocab 100) so 1.9 x = 145,920.
    // Blocks of 200 MiB (209,715,200 bytes): 6 x = 1,258,291,200 bytes, above 1 GiB (1,073,741,824):
    // 1,258,291,200 + 145,920 = 1,258,437,120 bytes reclaimable.
    memory_parts g;
    EXPECT_EQ(detail::add_training_runtime(g, batch_lengths::variable, 76'800, 209'715'200, 0, 1, 0).reclaimable_bytes,
              1'258'437'120u);
    // Blocks of 25,600 bytes (4 x 64 x 100): 6 x = 153,600, under 1 GiB: 1,073,741,824 + 145,920 =
    // 1,073,887,744 bytes, as without them.
    memory_parts small, none;
    const auto with_blocks = detail::add_training_runtime(small, batch_lengths::variable, 76'800, 25'600, 0, 1, 0);
    EXPECT_EQ(with_blocks.reclaimable_bytes, 1'073'887'744u);
    EXPECT_EQ(detail::add_training_runtime(none, batch_lengths::variable, 76'800, 0, 0, 1, 0).reclaimable_bytes,
              1'073'887'744u);
    // Batches of one length take their share of the peak instead, whatever the block.
    memory_parts f1, f2;
    EXPECT_EQ(detail::add_training_runtime(f1, batch_lengths::fixed, 76'800, 209'715'200, 0, 1, 0).reclaimable_bytes,
              detail::add_training_runtime(f2, batch_lengths::fixed, 76'800, 0, 0, 1, 0).reclaimable_bytes);
}

TEST(RecordBlocks, EstimateDiffersOnlyByTheLogitsPath) {
    // A tiny llama with Yi-6B's vocabulary at 8192 tokens under ms-swift (variable lengths, full cross-entropy),
    // once as a transformers llama and once as Qwen-1's code: the reserve differs by 6 x 2,097,152,000 -
    // 1,073,741,824 = 11,509,170,176 bytes (the blocks replace the 1 GiB), nothing else.
    const auto p   = lora_params("ms-swift", 8192);
    auto llama     = estimate_training(test::make_llama({.n_vocab = 64000}), p);
    auto qwen_code = estimate_training(test::make_llama({.n_vocab = 64000}, "qwen"), p);
    ASSERT_TRUE(llama && qwen_code);
    EXPECT_EQ(llama->reclaimable_bytes - qwen_code->reclaimable_bytes, 11'509'170'176u);
    EXPECT_EQ(llama->devices.front().total_bytes() - qwen_code->devices.front().total_bytes(),
              std::int64_t{11'509'170'176});
}

} // namespace
} // namespace llmplan
