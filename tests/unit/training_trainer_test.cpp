// The trainer table and its overrides (include/llmplan/trainer.h), the mechanisms it switches, and
// the training reverse questions (include/llmplan/training_fit.h), on the tiny llama of
// training_fixture.h: 2 layers, hidden 64, 4 heads (2 KV) of 16, FFN 128, vocab 100, bf16.
#include "cli_run.h"
#include "estimate/training_detail.h"
#include "llmplan/estimate.h"
#include "llmplan/training_fit.h"
#include "training_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace llmplan {
namespace {

model_desc tiny() {
    return test::make_llama({});
}

training_params with(train_method method, const char* trainer) {
    training_params p;
    p.method  = method;
    p.seq     = 16;
    p.trainer = trainer;
    return p;
}

TEST(TrainerTable, DefaultIsTransformersAndNamesAreUnique) {
    ASSERT_FALSE(trainer_table().empty());
    EXPECT_EQ(trainer_table().front().name, "hf");
    EXPECT_EQ(training_params{}.trainer, "hf");
    for (const auto& t : trainer_table())
        EXPECT_EQ(find_trainer(t.name), &t);
    EXPECT_EQ(find_trainer("megatron"), nullptr);
}

TEST(TrainerTable, UnknownTrainerAndBadDropoutAreErrors) {
    auto p = with(train_method::lora, "megatron");
    auto e = estimate_training(tiny(), p);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().context, "--trainer");
    p                        = with(train_method::lora, "hf");
    p.overrides.lora_dropout = 1.0;
    e                        = estimate_training(tiny(), p);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().context, "--lora-dropout");
}

TEST(TrainingActivations, LoraDropoutKeepsInputCopies) {
    // all-linear adapts q,k,v,o,gate,up (input 64) and down (input 128): 512 input elements a layer.
    auto lora = detail::plan_lora(tiny(), 16, {"all-linear"});
    ASSERT_TRUE(lora);
    EXPECT_EQ(lora->largest_layer_inputs, 512u);
    EXPECT_EQ(lora->total_inputs, 1024u);
    auto p = with(train_method::lora, "hf"); // lora_dropout 0.05, fp32 adapters under autocast
    auto h = detail::resolve_habits(p);
    ASSERT_TRUE(h);
    const auto with_dropout = detail::estimate_activations(tiny(), p, *h, &*lora, false);
    const auto no_lora      = detail::estimate_activations(tiny(), p, *h, nullptr, false);
    // Each adapted input: a 16-bit copy (2 bytes) + the dropout mask (1 byte) per element, 16 tokens.
    EXPECT_EQ(with_dropout.per_layer_saved_bytes - no_lora.per_layer_saved_bytes, 1024u * 3u * 16u);
    EXPECT_EQ(with_dropout.largest_layer_bytes - no_lora.largest_layer_bytes, 512u * 3u * 16u);
    // p = 0: the 16-bit copy autocast makes of the fp32-cast input stays, the mask goes.
    p.overrides.lora_dropout = 0.0;
    h                        = detail::resolve_habits(p);
    EXPECT_EQ(detail::estimate_activations(tiny(), p, *h, &*lora, false).per_layer_saved_bytes -
                  no_lora.per_layer_saved_bytes,
              1024u * 2u * 16u);
    // Pure bf16: --precision bf16 says every trained tensor is bf16 (PEFT's autocast_adapter_dtype=False),
    // so no fp32 cast of the input: at p = 0 lora_A keeps the module's input itself (nothing added), with
    // dropout the 16-bit dropped-out copy and its mask (3 bytes an element).
    auto pure      = p;
    pure.precision = train_precision::bf16;
    h              = detail::resolve_habits(pure);
    EXPECT_FALSE(h->fp32_adapters);
    EXPECT_EQ(detail::estimate_activations(tiny(), pure, *h, &*lora, false).per_layer_saved_bytes -
                  detail::estimate_activations(tiny(), pure, *h, nullptr, false).per_layer_saved_bytes,
              0u);
    pure.overrides.lora_dropout = 0.1;
    h                           = detail::resolve_habits(pure);
    EXPECT_EQ(detail::estimate_activations(tiny(), pure, *h, &*lora, false).per_layer_saved_bytes -
                  detail::estimate_activations(tiny(), pure, *h, nullptr, false).per_layer_saved_bytes,
              1024u * 3u * 16u);
    // 16-bit adapters (torchtune) with p = 0 keep the input itself: nothing added.
    p.trainer = "torchtune";
    h         = detail::resolve_habits(p);
    EXPECT_EQ(detail::estimate_activations(tiny(), p, *h, &*lora, false).per_layer_saved_bytes,
              detail::estimate_activations(tiny(), p, *h, nullptr, false).per_layer_saved_bytes);
}

TEST(TrainingActivations, UnslothLoraKernelsKeepNoInputCopy) {
    // unsloth at lora_dropout 0 runs LoRA as its own autograd functions (fast_lora.py LoRA_QKV,
    // LoRA_MLP, LoRA_W): they save X once and cast A, B to X's dtype, so its fp32 adapters add no
    // copy, where PEFT's forward (hf, same fp32 adapters under autocast) keeps a 16-bit copy of each
    // adapted input: 1024 input elements x 2 bytes x 16 tokens (tiny(), all-linear).
    auto lora = detail::plan_lora(tiny(), 16, {"all-linear"});
    ASSERT_TRUE(lora);
    auto p = with(train_method::lora, "unsloth");
    auto h = detail::resolve_habits(p);
    ASSERT_TRUE(h);
    EXPECT_EQ(detail::estimate_activations(tiny(), p, *h, &*lora, false).per_layer_saved_bytes,
              detail::estimate_activations(tiny(), p, *h, nullptr, false).per_layer_saved_bytes);
    EXPECT_EQ(detail::estimate_activations(tiny(), p, *h, &*lora, false).largest_layer_bytes,
              detail::estimate_activations(tiny(), p, *h, nullptr, false).largest_layer_bytes);
    // With dropout unsloth leaves the LoRA matrices to PEFT's forward: copy (2) + mask (1) per element.
    p.overrides.lora_dropout = 0.05;
    h                        = detail::resolve_habits(p);
    EXPECT_EQ(detail::estimate_activations(tiny(), p, *h, &*lora, false).per_layer_saved_bytes -
                  detail::estimate_activations(tiny(), p, *h, nullptr, false).per_layer_saved_bytes,
              1024u * 3u * 16u);
}

TEST(TrainingActivations, CutCrossEntropyKeepsOneLogsumexpPerToken) {
    // tiny(): 16 tokens, vocab 100. unsloth's Cut Cross-Entropy (--loss linear) keeps the fp32
    // logsumexp of each token: 16 x 4 bytes. Its older Triton kernel (--loss fused) keeps the 16-bit
    // logits and the logsumexp: 16 x 100 x 2 + 16 x 4.
    auto p = with(train_method::lora, "unsloth");
    auto h = detail::resolve_habits(p);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->loss, loss_impl::linear);
    EXPECT_EQ(detail::estimate_activations(tiny(), p, *h, nullptr, false).logits_peak_bytes, 16u * 4u);
    p.overrides.loss = loss_impl::fused;
    h                = detail::resolve_habits(p);
    EXPECT_EQ(detail::estimate_activations(tiny(), p, *h, nullptr, false).logits_peak_bytes,
              16u * 100u * 2u + 16u * 4u);
}

TEST(TrainerHabits, KbitPreparationUpcastsTheUnquantizedParams) {
    // NF4 base: embeddings 6400 + lm_head 6400 + norms 4*64 + final norm 64 = 13120 elements stay
    // bf16 (26240 bytes); PEFT's prepare_model_for_kbit_training makes them fp32 (+26240).
    auto hf = estimate_training(tiny(), with(train_method::qlora, "hf"));
    auto lf = estimate_training(tiny(), with(train_method::qlora, "llama-factory"));
    ASSERT_TRUE(hf && lf);
    EXPECT_EQ(hf->devices[0].parts.weights - lf->devices[0].parts.weights, 26240u);
    EXPECT_TRUE(hf->trainer.kbit_upcast);
    EXPECT_FALSE(lf->trainer.kbit_upcast);
}

TEST(TrainerHabits, PureBf16KeepsEveryGradientUnlessSteppedInBackward) {
    auto p      = with(train_method::full, "hf");
    p.precision = train_precision::bf16;
    auto hf     = estimate_training(tiny(), p);
    ASSERT_TRUE(hf);
    EXPECT_EQ(hf->devices[0].parts.gradients, hf->trainable_params * 2);
    EXPECT_FALSE(hf->trainer.optimizer_in_backward);
    // torchtune's single-device full configs step in backward with their 8-bit paged optimizer: only the
    // largest gradient (a 128 x 64 FFN matrix). Its configs on torch AdamW set optimizer_in_bwd False.
    p.trainer   = "torchtune";
    auto tt_std = estimate_training(tiny(), p);
    ASSERT_TRUE(tt_std);
    EXPECT_FALSE(tt_std->trainer.optimizer_in_backward);
    EXPECT_EQ(tt_std->devices[0].parts.gradients, tt_std->trainable_params * 2);
    p.optimizer = optimizer_kind::adamw_8bit;
    auto tt     = estimate_training(tiny(), p);
    ASSERT_TRUE(tt);
    EXPECT_TRUE(tt->trainer.optimizer_in_backward);
    EXPECT_EQ(tt->devices[0].parts.gradients, 8192u * 2u);
    p.optimizer = optimizer_kind::adamw;
    // The same described by hand for an unlisted trainer.
    p.trainer                         = "hf";
    p.overrides.optimizer_in_backward = true;
    auto by_hand                      = estimate_training(tiny(), p);
    ASSERT_TRUE(by_hand);
    EXPECT_EQ(by_hand->devices[0].parts.gradients, 8192u * 2u);
}

TEST(TrainerHabits, ForeachAdamWStepTemporaries) {
    // torch AdamW (foreach) allocates one fp32 temporary per trained parameter in step(); DeepSpeed's
    // FusedAdam does not. Only what exceeds the (freed) activations raises the peak.
    auto p    = with(train_method::full, "hf");
    auto f    = estimate_training(tiny(), p);
    p.trainer = "deepspeed";
    auto d    = estimate_training(tiny(), p);
    ASSERT_TRUE(f && d);
    const std::uint64_t tmp = f->trainable_params * 4, act = f->devices[0].parts.activations;
    EXPECT_EQ(f->devices[0].parts.optimizer - d->devices[0].parts.optimizer, tmp > act ? tmp - act : 0);
    EXPECT_TRUE(f->trainer.foreach_step_temps);
    EXPECT_FALSE(d->trainer.foreach_step_temps);
}

TEST(TrainerHabits, VariableLengthsReserveMoreThanFixed) {
    // 64 tokens, so that the activations (freed at the optimizer step) exceed AdamW's step temporaries and
    // the step adds nothing to the reserve below.
    auto p              = with(train_method::lora, "hf");
    p.seq               = 64;
    p.overrides.lengths = batch_lengths::fixed;
    auto fixed          = estimate_training(tiny(), p);
    p.overrides.lengths = batch_lengths::variable;
    auto variable       = estimate_training(tiny(), p);
    ASSERT_TRUE(fixed && variable);
    // Fixed: CUDA context 1 GiB + allocator slack 1.5 GiB.
    EXPECT_EQ(fixed->devices[0].parts.overhead, std::int64_t{5} << 29);
    // Variable: + 1 GiB of cached blocks and 1.9 x the largest transient (here the 64 x 100 logits at 12
    // bytes): the reserve fitted on ms-swift's max_memory_reserved (training_runtime.cpp). The 6 fp32 logits
    // blocks record-length steps leave (6 x 4 x 64 x 100 = 153,600 bytes) are under the 1 GiB: not added.
    EXPECT_EQ(variable->devices[0].parts.overhead - fixed->devices[0].parts.overhead,
              (std::int64_t{1} << 30) + 64 * 100 * 12 * 19 / 10);
}

TEST(TrainerHabits, DeepSpeedZero3FlattensAGradientSubGroupAtTheStep) {
    // stage3.py _prepare_fp32_grad_for_sub_group: flatten(16-bit grads).to(fp32) -- the fp32 copy of a
    // sub-group (4 B/param, kept in `gradients`) and, while .to() runs, the 16-bit flat (2 B/param).
    // With ZeRO-3 on one GPU the sub-group is every trained param (86848 < 1e9); only what exceeds
    // the freed activations raises the peak.
    auto p       = with(train_method::full, "deepspeed");
    p.precision  = train_precision::bf16_mixed;
    p.zero_stage = 3;
    auto e       = estimate_training(tiny(), p);
    ASSERT_TRUE(e) << e.error().what();
    constexpr std::uint64_t n_params = 86848; // training_test.cpp counts the tiny llama's params by hand
    const std::uint64_t flat = n_params * 2, act = e->devices[0].parts.activations;
    // params 2, master 4, AdamW 8, grads 2 + the fp32 sub-group copy 4
    EXPECT_EQ(e->devices[0].parts.gradients, n_params * 2 + n_params * 4);
    EXPECT_EQ(e->devices[0].parts.optimizer, n_params * 8 + (flat > act ? flat - act : 0));
}

TEST(TrainerHabits, QloraPaperFitsLlama65bIn48GiB) {
    // papers_lora_qlora_zero.json (Dettmers et al. 2023): QLoRA fine-tunes LLaMA-65B on one 48 GB GPU,
    // while 16-bit full fine-tuning needs more than 780 GB. LLaMA-65B's shape (transformers'
    // convert_llama_weights_to_hf.py "65b": dim 8192, 80 layers, 64 heads, ffn 22016; vocab 32000),
    // the dev case's workload: seq 512, micro-batch 1, checkpointing, the default trainer. This bounds
    // from above what a bitsandbytes QLoRA may add per parameter.
    const auto m         = test::make_llama({80, 8192, 64, 64, 22016, 32000});
    auto p               = with(train_method::qlora, "hf");
    p.precision          = train_precision::bf16_mixed;
    p.weights            = weight_choice{weight_format::nf4};
    p.seq                = 512;
    p.grad_checkpointing = true;
    p.lora_rank          = 16;
    auto q               = estimate_training(m, p);
    ASSERT_TRUE(q) << q.error().what();
    EXPECT_LE(training_memory_need(*q), std::int64_t{48} << 30);
    p.method  = train_method::full;
    p.weights = {};
    auto f    = estimate_training(m, p);
    ASSERT_TRUE(f) << f.error().what();
    EXPECT_GT(f->devices[0].total_bytes(), std::int64_t{780'000'000'000});
}

TEST(TrainingFit, AnswersAreTheLargestThatFit) {
    const model_desc m = tiny();
    auto p             = with(train_method::lora, "hf");
    p.seq              = 4096;
    auto at            = estimate_training(m, p);
    ASSERT_TRUE(at);
    const auto budget = static_cast<std::uint64_t>(training_memory_need(*at));
    const auto a      = fit_training(m, p, budget);
    EXPECT_TRUE(a.fits_as_asked);
    EXPECT_GE(a.max_seq, 4096u);
    auto q = p;
    q.seq  = a.max_seq + 256;
    EXPECT_GT(training_memory_need(*estimate_training(m, q)), static_cast<std::int64_t>(budget));
    EXPECT_GE(a.max_micro_batch, 1u);
    q             = p;
    q.micro_batch = a.max_micro_batch + 1;
    EXPECT_GT(training_memory_need(*estimate_training(m, q)), static_cast<std::int64_t>(budget));
    // A budget far above the model: full fine-tuning in mixed precision is the most capable setup.
    EXPECT_EQ(fit_training(m, p, std::uint64_t{1} << 40).best_setup, "full, bf16-mixed, adamw");
    // Below the CUDA context nothing fits.
    const auto none = fit_training(m, p, std::uint64_t{1} << 29);
    EXPECT_FALSE(none.fits_as_asked);
    EXPECT_EQ(none.max_seq, 0u);
    EXPECT_TRUE(none.best_setup.empty());
}

TEST(TrainingCli, TrainerBandAndFitInJson) {
    const auto r = test::run_cli("estimate Qwen/Qwen2.5-0.5B --task train --trainer unsloth --lora-dropout 0.1 "
                                 "--memory 24GiB --json");
    ASSERT_EQ(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["workload"]["trainer"], "unsloth");
    EXPECT_EQ(j["trainer"]["loss"], "linear"); // Cut Cross-Entropy (unsloth since 2024.12)
    EXPECT_DOUBLE_EQ(j["trainer"]["lora_dropout"].get<double>(), 0.1);
    // The band of "lora, 1 GPU" (95 dev cases, src/estimate/training_bands.inc): the extremes hold the
    // middle 8 in 10, and the text gives both.
    const auto& band = j["band"];
    ASSERT_TRUE(band.is_object());
    EXPECT_EQ(band["kind"], "lora, 1 GPU");
    EXPECT_LE(band["low"].get<double>(), band["p10"].get<double>());
    EXPECT_LT(band["p10"].get<double>(), band["p90"].get<double>());
    EXPECT_LE(band["p90"].get<double>(), band["high"].get<double>());
    EXPECT_NE(band["text"].get<std::string>().find("; the middle 8 in 10: "), std::string::npos);
    EXPECT_GT(j["fit"]["max_seq"].get<std::uint64_t>(), 2048u);
    // Under 10 runs of a kind (full on several GPUs: 3) only the extremes are said.
    const auto few = nlohmann::json::parse(
        test::run_cli("estimate Qwen/Qwen2.5-0.5B --task train --method full --gpus 2 --json").out);
    EXPECT_LT(few["band"]["cases"].get<int>(), 10);
    EXPECT_EQ(few["band"]["text"].get<std::string>().find("middle"), std::string::npos);
    test::expect_refused("estimate Qwen/Qwen2.5-0.5B --task train --trainer nope --json", "--trainer: \"nope\"");
    test::expect_refused("estimate Qwen/Qwen2.5-0.5B --task train --loss half --json", "--loss: \"half\"");
    test::expect_refused("estimate Qwen/Qwen2.5-0.5B --task train --lora-dropout x --json", "--lora-dropout: \"x\"");
}

} // namespace
} // namespace llmplan
