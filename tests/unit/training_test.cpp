// estimate_training on a tiny hand-built llama (training_fixture.h): every expected value below is
// counted by hand from the shapes, as the comments show.
//
// Model: 2 layers, h 64, 4 heads of 16 (q 64 wide), 2 KV heads (k, v 32 wide), SwiGLU ff 128,
// vocab 100, untied. Params: embd 6400 + 2 x (norms 128 + q 4096 + k 2048 + v 2048 + o 4096 +
// gate/up/down 3 x 8192) + output_norm 64 + output 6400 = 86848.
#include "estimate/training_detail.h"
#include "llmplan/estimate.h"
#include "training_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace llmplan {
namespace {

constexpr std::uint64_t n_params = 86848;

model_desc tiny() {
    return test::make_llama({});
}

training_params lora_params() {
    training_params p;
    p.method      = train_method::lora;
    p.lora_rank   = 8;
    p.seq         = 16;
    p.micro_batch = 1;
    return p;
}

TEST(TrainingLora, CountsAllLinear) {
    // per layer r*(in+out): q 8*(64+64)=1024, k 8*(64+32)=768, v 768, o 1024, gate/up/down
    // 8*(64+128)=1536 each -> 8192; 2 layers -> 16384 (lm_head is never adapted).
    auto lp = detail::plan_lora(tiny(), 8, {"all-linear"});
    ASSERT_TRUE(lp) << lp.error().what();
    EXPECT_EQ(lp->params, 16384u);
    EXPECT_EQ(lp->largest_layer_params, 8192u);
    EXPECT_EQ(lp->matrices.size(), 2u * 7u * 2u);
}

TEST(TrainingLora, CountsNamedTargets) {
    // q 1024 + v 768 per layer, 2 layers.
    auto lp = detail::plan_lora(tiny(), 8, {"q", "v"});
    ASSERT_TRUE(lp);
    EXPECT_EQ(lp->params, 2u * (1024u + 768u));
}

TEST(TrainingLora, FusedQkvIsAdaptedWhole) {
    // Qwen-1 style c_attn [64+32+32, 64]: 8*(64+128) = 1536 per layer; its bias is not adapted.
    test::llama_dims d;
    d.fused_qkv = true;
    auto lp     = detail::plan_lora(test::make_llama(d), 8, {"q"});
    ASSERT_TRUE(lp);
    EXPECT_EQ(lp->params, 2u * 1536u);
}

TEST(TrainingLora, ModulesToSaveAreTrainedWhole) {
    // PEFT modules_to_save (Qwen-1 finetune.py on a base model: wte, lm_head): embd 100 x 64 = 6400 and
    // output 6400 trained in full beside the adapters; a trainable bf16 copy of each (2 B), its
    // gradient (2 B), and under DeepSpeed mixed precision an fp32 master (4 B).
    auto lp = detail::plan_lora(tiny(), 8, {"all-linear", "embed", "lm_head"});
    ASSERT_TRUE(lp) << lp.error().what();
    EXPECT_EQ(lp->params, 16384u);
    EXPECT_EQ(lp->saved_params, 12800u);
    training_params p = lora_params();
    p.lora_targets    = {"all-linear", "embed", "lm_head"};
    auto with_saved   = estimate_training(tiny(), p);
    p.lora_targets    = {"all-linear"};
    auto plain        = estimate_training(tiny(), p);
    ASSERT_TRUE(with_saved && plain);
    EXPECT_EQ(with_saved->trainable_params, 16384u + 12800u);
    EXPECT_EQ(with_saved->devices[0].parts.adapters - plain->devices[0].parts.adapters, 12800 * 2);
    EXPECT_EQ(with_saved->devices[0].parts.gradients - plain->devices[0].parts.gradients, 12800 * 2);
    p.lora_targets = {"all-linear", "embed", "lm_head"};
    p.trainer      = "deepspeed";
    p.zero_stage   = 2;
    auto ds        = estimate_training(tiny(), p);
    ASSERT_TRUE(ds) << ds.error().what();
    EXPECT_EQ(ds->devices[0].parts.master_weights, 12800 * 4);

    // A tied model has no separate lm_head to save.
    test::llama_dims d;
    d.tied = true;
    EXPECT_TRUE(detail::plan_lora(test::make_llama(d), 8, {"all-linear", "embed"}));
    auto tied = detail::plan_lora(test::make_llama(d), 8, {"all-linear", "lm_head"});
    ASSERT_FALSE(tied);
    EXPECT_NE(tied.error().message.find("lm_head"), std::string::npos);
}

TEST(TrainingLora, RejectsBadRankAndTargets) {
    EXPECT_FALSE(detail::plan_lora(tiny(), 0, {"all-linear"}));
    EXPECT_FALSE(detail::plan_lora(tiny(), 65, {"all-linear"})); // above hidden size 64
    EXPECT_TRUE(detail::plan_lora(tiny(), 64, {"all-linear"}));
    EXPECT_FALSE(detail::plan_lora(tiny(), 8, {"foo"}));
    auto m = tiny();
    std::erase_if(m.tensors, [](const tensor_desc& t) { return t.role == tensor_role::ffn_gate; });
    auto r = detail::plan_lora(m, 8, {"gate"});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, error_code::invalid_params);
    EXPECT_NE(r.error().message.find("gate"), std::string::npos);
}

TEST(TrainingFull, MixedPrecisionIs16BytesAParam) {
    // bf16 weights 2 + bf16 grads 2 + fp32 master 4 + AdamW m and v in fp32 8 (Rajbhandari et al. 2020).
    training_params p   = lora_params();
    p.method            = train_method::full;
    p.overrides.lengths = batch_lengths::fixed; // the allocator slack without the variable-length reserve
    auto e              = estimate_training(tiny(), p);
    ASSERT_TRUE(e) << e.error().what();
    ASSERT_EQ(e->devices.size(), 1u);
    const auto& g = e->devices[0].parts;
    EXPECT_EQ(e->trainable_params, n_params);
    EXPECT_EQ(g.weights, n_params * 2);
    EXPECT_EQ(g.gradients, n_params * 2);
    EXPECT_EQ(g.master_weights, n_params * 4);
    // AdamW 8 B a param, plus what torch's foreach step temporary (sqrt of v: 4 B a param) exceeds
    // the activations by (101120 B: 2 layers x 16 tokens x 2560 B + logits 19200 B).
    EXPECT_EQ(g.activations, 101120u);
    EXPECT_EQ(g.optimizer, n_params * 8 + n_params * 4 - 101120u);
    EXPECT_EQ(g.adapters, 0u);
    EXPECT_EQ(g.overhead, static_cast<std::int64_t>(5ull << 29)); // 1 GiB context + 1.5 GiB allocator slack
}

TEST(TrainingFull, Fp32AndPureBf16) {
    training_params p = lora_params();
    p.method          = train_method::full;
    p.precision       = train_precision::fp32;
    p.trainer         = "deepspeed"; // FusedAdam: no step temporaries
    auto e            = estimate_training(tiny(), p);
    ASSERT_TRUE(e);
    const auto& g = e->devices[0].parts;
    EXPECT_EQ(g.weights, n_params * 4);
    EXPECT_EQ(g.gradients, n_params * 4);
    EXPECT_EQ(g.master_weights, 0u);
    EXPECT_EQ(g.optimizer, n_params * 8);

    p.precision = train_precision::bf16; // bf16 states (zeros_like(param)); the default trainer keeps every grad
    e           = estimate_training(tiny(), p);
    ASSERT_TRUE(e);
    const auto& b = e->devices[0].parts;
    EXPECT_EQ(b.weights, n_params * 2);
    EXPECT_EQ(b.optimizer, n_params * 4);
    EXPECT_EQ(b.gradients, n_params * 2); // torchtune's in-backward step: training_trainer_test.cpp
    EXPECT_EQ(b.master_weights, 0u);
}

TEST(TrainingFull, Optimizers) {
    training_params p = lora_params();
    p.method          = train_method::full;
    p.trainer         = "deepspeed"; // FusedAdam: no step temporaries
    p.optimizer       = optimizer_kind::sgd;
    EXPECT_EQ(estimate_training(tiny(), p)->devices[0].parts.optimizer, n_params * 4); // fp32 momentum
    p.optimizer = optimizer_kind::adamw_8bit;
    // tensors >= 4096 elements: 2 B + 2 x 4 B absmax per 256 elements; smaller ones 8 B.
    // per layer: q 4096 -> 8192+128, k,v 2048 -> 16384 each, o 8320, gate/up/down 8192 -> 16384+256,
    // norms 64 -> 512 each; globals embd/output 6400 -> 12800+2*4*25=13000 each, output_norm 512.
    const std::uint64_t layer = 8320 + 2 * 16384 + 8320 + 3 * 16640 + 2 * 512;
    EXPECT_EQ(estimate_training(tiny(), p)->devices[0].parts.optimizer, 2 * layer + 2 * 13000 + 512);
    p.optimizer = optimizer_kind::adafactor;
    // (rows+cols)*4 per matrix: q,o (64+64), k,v (32+64), gate/up (128+64), down (64+128); vectors n*4.
    const std::uint64_t af_layer = 4 * (2 * 128 + 2 * 96 + 3 * 192) + 2 * 64 * 4;
    EXPECT_EQ(estimate_training(tiny(), p)->devices[0].parts.optimizer, 2 * af_layer + 2 * 4 * 164 + 64 * 4);
}

TEST(TrainingActivations, EagerAndFused) {
    training_params p = lora_params();
    // Eager (transformers), per token per layer: attention 64+64+64+32+32+2*64 = 384 elements = 768 B
    // + fp32 norm copy 256 B; MLP 64+64+4*128 = 640 elements = 1280 B + 256 B -> 2560 B.
    // No LoRA plan here: dropout adds nothing (TrainingActivations.LoraDropoutKeepsInputCopies).
    auto hf = detail::resolve_habits(p);
    ASSERT_TRUE(hf);
    auto a = detail::estimate_activations(tiny(), p, *hf, nullptr, false);
    EXPECT_EQ(a.per_layer_saved_bytes, 2u * 16u * 2560u);
    // 2 (bf16 logits) + 4 (fp32 copy) + 4 (log_softmax) + 2 (shifted copy) bytes per logit.
    EXPECT_EQ(a.logits_peak_bytes, 16u * 100u * 12u);
    EXPECT_EQ(a.backward_work_bytes, (2u * 128u + 2u * 64u) * 2u * 16u);
    EXPECT_EQ(a.peak_bytes, 81920u + 19200u);
    p.grad_checkpointing = true;
    a                    = detail::estimate_activations(tiny(), p, *hf, nullptr, false);
    EXPECT_EQ(a.checkpoint_bytes, 2u * 64u * 2u * 16u);
    EXPECT_EQ(a.peak_bytes, 4096u + 40960u + 12288u);
    // fp32 residual stream after a k-bit upcast: fp32 checkpoints.
    EXPECT_EQ(detail::estimate_activations(tiny(), p, *hf, nullptr, true).checkpoint_bytes, 2u * 64u * 4u * 16u);
    // Fused (torchtune): attention 64+64 + q 64 + k, v repeated to the 4 query heads 64+64 + 2*64 = 448 elements
    // = 896 B (torchtune/modules/attention.py expands grouped k and v), MLP 64+64+2*128 = 384 elements = 768 B;
    // logits 2 B + 12 B over 8 chunks.
    p.grad_checkpointing = false;
    p.trainer            = "torchtune";
    auto tt              = detail::resolve_habits(p);
    ASSERT_TRUE(tt);
    a = detail::estimate_activations(tiny(), p, *tt, nullptr, false);
    EXPECT_EQ(a.per_layer_saved_bytes, 2u * 16u * 1664u);
    EXPECT_EQ(a.logits_peak_bytes, 16u * 100u * 2u + 16u * 100u * 12u / 8u);
}

TEST(TrainingActivations, TransformersShiftedLossCopy) {
    // --loss full-shift: transformers 4.46.0 to PR #35646's ForCausalLMLoss, `logits.float()` then
    // `logits[..., :-1, :].contiguous()` beside the caller's bf16 logits, and log_softmax's fp32 output:
    // 2 + 4 + 4 + 4 = 14 bytes a logit, 16 tokens x 100 vocab (the tiny llama).
    training_params p = lora_params();
    p.overrides.loss  = loss_from_name("full-shift");
    ASSERT_TRUE(p.overrides.loss.has_value());
    auto h = detail::resolve_habits(p);
    ASSERT_TRUE(h);
    auto a = detail::estimate_activations(tiny(), p, *h, nullptr, false);
    EXPECT_EQ(a.logits_peak_bytes, 16u * 100u * 14u);
    // Without checkpointing the logits outweigh a layer's backward (768 B a token): the peak is 2 x 16 x 2560 B
    // of saved layers + the logits, 2 bytes a logit above --loss full's 81920 + 19200.
    EXPECT_EQ(a.peak_bytes, 81920u + 22400u);
    // fp32 training: `.float()` returns the logits themselves: 4 + 4 + 4, as --loss full.
    p.precision = train_precision::fp32;
    a           = detail::estimate_activations(tiny(), p, *h, nullptr, false);
    EXPECT_EQ(a.logits_peak_bytes, 16u * 100u * 12u);
}

TEST(TrainingQlora, Nf4BaseKeepsEmbeddingsIn16Bit) {
    // NF4 n/2 + n/64 + 4*ceil(n/64/256): 4096 -> 2116, 2048 -> 1060, 8192 -> 4228. Per layer
    // norms 256 + q,o 2*2116 + k,v 2*1060 + 3*4228 = 19292; globals embd 12800 + output 12800 +
    // output_norm 128 stay bf16; PEFT's k-bit preparation (the default trainer) makes every one of
    // them fp32: + 2 * 256 + 25728 = 26240.
    training_params p = lora_params();
    p.method          = train_method::qlora;
    auto e            = estimate_training(tiny(), p);
    ASSERT_TRUE(e) << e.error().what();
    EXPECT_EQ(e->devices[0].parts.weights, 2u * 19292u + 25728u + 26240u);
    // adapters fp32 under bf16-mixed: 16384 x 4; grads 4; AdamW 8
    EXPECT_EQ(e->devices[0].parts.adapters, 16384u * 4u);
    EXPECT_EQ(e->devices[0].parts.gradients, 16384u * 4u);
    EXPECT_EQ(e->lora_params, 16384u);

    auto gg      = tiny();
    gg.from_gguf = true;
    EXPECT_FALSE(estimate_training(gg, p));
}

TEST(TrainingMultiGpu, ZeroShardsAndOffload) {
    training_params p   = lora_params();
    p.method            = train_method::full;
    p.gpus              = 4;
    p.zero_stage        = 1;
    p.overrides.lengths = batch_lengths::fixed; // the allocator slack without the variable-length term
    auto e              = estimate_training(tiny(), p);
    ASSERT_TRUE(e);
    ASSERT_EQ(e->devices.size(), 4u);
    const auto& g = e->devices[3].parts;
    EXPECT_EQ(g.optimizer, n_params * 8 / 4);
    EXPECT_EQ(g.master_weights, n_params * 4 / 4);
    // + DeepSpeed's two reduce (IPG) buffers of reduce_bucket_size = 2e8 bf16 elements, allocated whole
    // by stage_1_and_2.py's backward() however small the model
    EXPECT_EQ(g.gradients, n_params * 2 + 2 * 200'000'000ull * 2);
    EXPECT_EQ(g.overhead, static_cast<std::int64_t>((5ull << 29) + (1ull << 29)));
    auto cfg = nlohmann::json::parse(e->launch_config_json);
    EXPECT_EQ(cfg["zero_optimization"]["stage"], 1);
    EXPECT_TRUE(cfg["bf16"]["enabled"].get<bool>());

    p.zero_stage        = 3;
    p.offload_optimizer = true;
    e                   = estimate_training(tiny(), p);
    ASSERT_TRUE(e);
    ASSERT_EQ(e->devices.size(), 5u);
    EXPECT_EQ(e->devices[0].parts.optimizer, 0u);
    EXPECT_EQ(e->devices[4].device, "cpu");
    EXPECT_EQ(e->devices[4].parts.optimizer, n_params * 8);
    EXPECT_EQ(e->devices[4].parts.master_weights, n_params * 4);
    // weights: a quarter of 2 B a param + the gathered params DeepSpeed keeps alive up to
    // stage3_max_live_parameters (1e9: the whole tiny model, 2 B a param)
    EXPECT_EQ(e->devices[0].parts.weights, n_params * 2 / 4 + n_params * 2);
    // FSDP (no DeepSpeed): the root unit stays gathered through forward and backward (FSDP1
    // _post_forward_reshard and FSDP2 fully_shard do not reshard the root): embedding 100 x 64,
    // lm_head 64 x 100 and the final norm 64 = 12864 params = 25728 B; beside it the layer in use and
    // the next one prefetched (a layer: 36992 params = 73984 B each).
    p.trainer           = "fsdp";
    p.offload_optimizer = false;
    e                   = estimate_training(tiny(), p);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->devices[0].parts.weights, n_params * 2 / 4 + 25728 + 73984 + 73984);
    // Gradients: a quarter of 2 B a param, plus lm_head's unsharded gradient (6400 params = 12800 B,
    // held until the root's reduce-scatter at the backward's end) and one layer's (73984 B) before its
    // reduce-scatter.
    EXPECT_EQ(e->devices[0].parts.gradients, n_params * 2 / 4 + 12800 + 73984);
}

TEST(TrainingErrors, BadInput) {
    training_params p = lora_params();
    p.micro_batch     = 0;
    EXPECT_FALSE(estimate_training(tiny(), p));
    p.micro_batch = 1;
    p.seq         = 0;
    EXPECT_FALSE(estimate_training(tiny(), p));
    p.seq = std::uint64_t{1} << 40;
    EXPECT_FALSE(estimate_training(tiny(), p));
    p.seq        = 16;
    p.zero_stage = 3; // allowed on one GPU, with a note
    auto e       = estimate_training(tiny(), p);
    ASSERT_TRUE(e);
    bool noted = false;
    for (const auto& a : e->assumptions)
        noted = noted || a.find("single rank") != std::string::npos;
    EXPECT_TRUE(noted);
    EXPECT_TRUE(estimate_training(model_desc{}, lora_params()).has_value() == false);
}

TEST(TrainingFlops, SixTimesParams) {
    training_params p = lora_params();
    p.method          = train_method::full;
    // 6 x (86848 - 6400 embedding rows)
    EXPECT_DOUBLE_EQ(estimate_training(tiny(), p)->flops_per_token, 6.0 * 80448.0);
    p.grad_checkpointing = true;
    EXPECT_DOUBLE_EQ(estimate_training(tiny(), p)->flops_per_token, 8.0 * 80448.0);
}

} // namespace
} // namespace llmplan
