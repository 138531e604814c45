// --trainer NAME@RELEASE and the other names of a trainer (src/estimate/trainer_releases.cpp): which row and
// release a value names, that an older release's habits are the overrides its code amounts to, and that a
// name with no row is answered with the default row and said so.
#include "cli_run.h"
#include "estimate/training_detail.h"
#include "llmplan/estimate.h"
#include "llmplan/trainer.h"
#include "training_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace llmplan {
namespace {

trainer_choice read(std::string_view text) {
    trainer_choice c;
    EXPECT_FALSE(read_trainer(text, c)) << text;
    return c;
}

TEST(TrainerNames, CaseAliasesAndReleases) {
    // A row's own name, in any case, '_' as '-'.
    auto c = read("LitGPT");
    ASSERT_NE(c.row, nullptr);
    EXPECT_EQ(c.row->name, "litgpt");
    EXPECT_EQ(c.match, trainer_match::exact);
    EXPECT_EQ(read("LLaMA_Factory").row->name, "llama-factory");
    // Other names people use.
    EXPECT_EQ(read("transformers").row->name, "hf");
    EXPECT_EQ(read("transformers").match, trainer_match::alias);
    EXPECT_EQ(read("swift").row->name, "ms-swift");
    EXPECT_EQ(read("llamafactory").row->name, "llama-factory");
    EXPECT_EQ(read("fsdp2").row->name, "fsdp");
    EXPECT_EQ(read("accelerate").row->name, "fsdp");
    EXPECT_EQ(read("tune").row->name, "torchtune");
    // Lit-GPT (2023) is LitGPT before its releases.
    c = read("lit-gpt");
    EXPECT_EQ(c.row->name, "litgpt");
    EXPECT_EQ(c.release, "0.0");
    // NAME@RELEASE, a leading v dropped.
    c = read("litgpt@v0.5.10");
    EXPECT_EQ(c.row->name, "litgpt");
    EXPECT_EQ(c.release, "0.5.10");
    // Values that name no row are refused, and `out` is left as it was.
    for (const char* bad : {"", "xtuner", "nope@1.0", "lit gpt", "litgpt@", "litgpt@abc", "litgpt@1..2", "@0.5",
                            "litgpt@1.2.3.4.5.6.7.8.9", "litgpt@1234567890", "a/b"}) {
        trainer_choice keep = read("hf");
        EXPECT_TRUE(read_trainer(bad, keep)) << bad;
        EXPECT_EQ(keep.row->name, "hf") << bad;
    }
    trainer_choice keep;
    EXPECT_TRUE(read_trainer(std::string(65, 'a'), keep));
}

TEST(TrainerReleases, BoundariesReadAtTheTags) {
    // LitGPT's finetune_lora moved to FSDP2 in 5ac69b06, first released in v0.5.11 (2025-09-09).
    ASSERT_NE(find_release("litgpt", "0.5.10"), nullptr);
    EXPECT_TRUE(*find_release("litgpt", "0.5.10")->fsdp_mixed_units);
    EXPECT_NE(find_release("litgpt", "0.4"), nullptr);
    EXPECT_NE(find_release("litgpt", "0.0"), nullptr);
    EXPECT_EQ(find_release("litgpt", "0.5.11"), nullptr);
    EXPECT_EQ(find_release("litgpt", "0.6"), nullptr);
    // torchtune v0.3.0 (2024-09-17) brought the chunked loss and dropout 0: 0.2.x and older have neither.
    ASSERT_NE(find_release("torchtune", "0.2.1"), nullptr);
    EXPECT_EQ(*find_release("torchtune", "0.1.0")->loss, loss_impl::full);
    EXPECT_DOUBLE_EQ(*find_release("torchtune", "0.2")->lora_dropout, 0.05);
    EXPECT_EQ(find_release("torchtune", "0.3.0"), nullptr);
    // A release of another trainer, or none, is the row.
    EXPECT_EQ(find_release("hf", "0.1"), nullptr);
    EXPECT_EQ(find_release("litgpt", ""), nullptr);
}

std::int64_t total_of(const training_params& p) {
    auto e = estimate_training(test::make_llama({}), p);
    EXPECT_TRUE(e) << e.error().what();
    return e ? e->devices[0].total_bytes() : 0;
}

TEST(TrainerReleases, AnOlderReleaseIsTheOverridesItsCodeAmountsTo) {
    // LitGPT LoRA on 4 GPUs accumulating 8 micro-steps: 0.5.10 is the current row with FSDP1 mixed units
    // (training_fsdp_test.cpp sizes that gradient by hand), and the run's own option still wins.
    training_params p;
    p.method                         = train_method::lora;
    p.precision                      = train_precision::bf16;
    p.seq                            = 16;
    p.gpus                           = 4;
    p.zero_stage                     = 3;
    p.grad_accum                     = 8;
    p.trainer                        = "litgpt";
    const auto current               = total_of(p);
    auto mixed                       = p;
    mixed.overrides.fsdp_mixed_units = true;
    auto old                         = p;
    old.trainer_release              = "0.5.10";
    EXPECT_GT(total_of(mixed), current);
    EXPECT_EQ(total_of(old), total_of(mixed));
    old.overrides.fsdp_mixed_units = false;
    EXPECT_EQ(total_of(old), current);

    // torchtune 0.2.1 on one GPU: the current row with the full fp32 loss and dropout 0.05.
    training_params t;
    t.method                     = train_method::lora;
    t.precision                  = train_precision::bf16;
    t.seq                        = 16;
    t.trainer                    = "torchtune";
    auto asked                   = t;
    asked.overrides.loss         = loss_impl::full;
    asked.overrides.lora_dropout = 0.05;
    auto tt021                   = t;
    tt021.trainer_release        = "0.2.1";
    EXPECT_NE(total_of(t), total_of(asked));
    EXPECT_EQ(total_of(tt021), total_of(asked));
    auto tt030            = t;
    tt030.trainer_release = "0.3.0";
    EXPECT_EQ(total_of(tt030), total_of(t));
}

TEST(TrainerReleases, AnotherTrainerIsAskedAtItsCurrentRelease) {
    // The fit search's "--trainer unsloth" for a `litgpt@0.4` run is unsloth as it is today, not "unsloth@0.4".
    training_params p;
    p.trainer         = "litgpt";
    p.trainer_release = "0.4";
    p.trainer_asked   = "LitGPT@0.4";
    const auto q      = with_trainer(p, "unsloth");
    EXPECT_EQ(q.trainer, "unsloth");
    EXPECT_TRUE(q.trainer_release.empty());
    EXPECT_TRUE(q.trainer_asked.empty());
}

TEST(TrainerReleases, TrlChunksTheOutputLayerFromOneSeven) {
    // TRL's SFT default loss since v1.7.0 (2026-06-25): lm_head and the cross-entropy per checkpointed chunk of
    // 256 labelled tokens, plus the gathered final hidden states (h a token). By hand on the tiny llama (vocab 100,
    // h 64, bf16) at 16 tokens: one chunk holds them all, 16 x 100 x 12 = 19,200 bytes, + 16 x 64 x 2 = 2,048.
    training_params p;
    p.method    = train_method::lora;
    p.precision = train_precision::bf16;
    p.seq       = 16;
    p.trainer   = "trl";
    auto h      = detail::resolve_habits(p);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->loss, loss_impl::head_chunked);
    const model_desc tiny = test::make_llama({});
    auto lora             = detail::plan_lora(tiny, 8, {"q", "v"});
    ASSERT_TRUE(lora);
    EXPECT_EQ(detail::estimate_activations(tiny, p, *h, &*lora, false, {}).logits_peak_bytes, 21'248u);
    // Qwen-1 7B's shapes at 2048 tokens (vocab 151,936): 256 x 151,936 x 12 = 466,747,392 + 2048 x 4096 x 2 =
    // 16,777,216: 483,524,608 bytes, where the whole fp32 loss (TRL 1.6 and older) holds 2048 x 151,936 x 12 =
    // 3,733,979,136.
    const model_desc qwen = test::make_llama(test::seven_b_dims(151936));
    auto qlora            = detail::plan_lora(qwen, 8, {"q", "v"});
    ASSERT_TRUE(qlora);
    p.seq = 2048;
    EXPECT_EQ(detail::estimate_activations(qwen, p, *h, &*qlora, false, {}).logits_peak_bytes, 483'524'608u);
    p.trainer_release = "1.6";
    auto old          = detail::resolve_habits(p);
    ASSERT_TRUE(old);
    EXPECT_EQ(old->loss, loss_impl::full);
    EXPECT_EQ(detail::estimate_activations(qwen, p, *old, &*qlora, false, {}).logits_peak_bytes, 3'733'979'136u);
    p.trainer_release = "1.7.0";
    EXPECT_EQ(detail::resolve_habits(p)->loss, loss_impl::head_chunked);
}

TEST(TrainerReleases, CliSaysWhatItAnsweredWith) {
    const std::string base = "estimate Qwen/Qwen2.5-0.5B --task train --json --trainer ";
    auto notes             = [](const std::string& out) {
        std::string all;
        const auto j = nlohmann::json::parse(out);
        for (const auto& a : j["assumptions"])
            all += a.get<std::string>() + "\n";
        return all;
    };
    // A name with no row is the contract's bad value: exit 2, with the names that are.
    test::expect_refused(base + "xtuner", "--trainer: \"xtuner\"; expected one of: hf trl");
    auto r = test::run_cli(base + "xtuner");
    EXPECT_NE(r.err.find("fsdp2"), std::string::npos) << r.err;
    // An alias names its row; a release says which habits it has.
    r = test::run_cli(base + "Transformers");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(notes(r.out).find("(--trainer hf), for 'Transformers'"), std::string::npos) << notes(r.out);
    r = test::run_cli(base + "torchtune@0.2.1");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["trainer"]["loss"], "full");
    EXPECT_EQ(nlohmann::json::parse(r.out)["trainer"]["release"], "0.2.1");
    EXPECT_EQ(nlohmann::json::parse(r.out)["trainer"]["name"], "torchtune");
    EXPECT_NE(notes(r.out).find("torchtune 0.2 and older"), std::string::npos) << notes(r.out);
    r = test::run_cli(base + "litgpt@0.6");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(notes(r.out).find("release 0.6 has the current habits"), std::string::npos) << notes(r.out);
    // Refused, exit 2, with what was expected.
    test::expect_refused(base + "litgpt@latest", "--trainer: \"litgpt@latest\"; expected a release of dotted numbers");
    test::expect_refused(base + "a/b", "--trainer: \"a/b\"; expected a trainer's name of letters");
}

} // namespace
} // namespace llmplan
