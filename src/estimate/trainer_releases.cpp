// What a --trainer value names (include/llmplan/trainer.h): the names people use for each row, and the
// habits of a trainer's older releases where they differ from its row. The row describes the current
// release; a release read here was read in the trainer's repository at the tags named.
#include "detail/strings.h"
#include "llmplan/trainer.h"

#include <array>
#include <cstdint>
#include <vector>

namespace llmplan {
namespace {

struct trainer_alias {
    std::string_view name;    ///< as typed, lower case, '_' as '-'
    std::string_view row;     ///< the row it names
    std::string_view release; ///< a release the name implies (empty: the current)
};

// Other names of the rows (trainers.cpp says what each row is):
//  - transformers, huggingface, hf-trainer, peft: the transformers Trainer with PEFT adapters (the hf row).
//  - llamafactory: LLaMA-Factory's package and CLI name (`llamafactory-cli`).
//  - swift: ms-swift's package and CLI name (`swift sft`).
//  - tune: torchtune's CLI (`tune run`).
//  - fsdp1, fsdp2: torch FSDP or its per-parameter successor (fully_shard), as accelerate's
//    `fsdp_version` 1 or 2 runs them for a transformers model; the fsdp row's habits hold for both (no
//    unit mixes adapters and frozen weights: PEFT's fsdp_auto_wrap_policy, or per-parameter sharding; the
//    root unit stays gathered; accumulation runs without the gradient sync).
//  - accelerate: a transformers model in a loop that accelerate runs (its `accumulate()` skips the sync
//    the same way); with --zero its FSDP plugin (the fsdp row).
//  - lit-gpt: LitGPT's name in 2023, before its first releases (Lightning-AI/lit-gpt, renamed LitGPT in
//    2024): the first litgpt row below (FSDP1 units, the longest sample first), the release "0.0".
// clang-format off
constexpr std::array<trainer_alias, 11> trainer_aliases{{
    {"transformers", "hf",            ""},
    {"huggingface",  "hf",            ""},
    {"hf-trainer",   "hf",            ""},
    {"peft",         "hf",            ""},
    {"llamafactory", "llama-factory", ""},
    {"swift",        "ms-swift",      ""},
    {"tune",         "torchtune",     ""},
    {"fsdp1",        "fsdp",          ""},
    {"fsdp2",        "fsdp",          ""},
    {"accelerate",   "fsdp",          ""},
    {"lit-gpt",      "litgpt",        "0.0"},
}};
// clang-format on

// Older releases, per trainer in ascending order of `through` (the first that holds the release wins).
//  - FSDP units (LitGPT 0.5.10 and older, and Lit-GPT of 2023): finetune_lora shards with Fabric's
//    FSDPStrategy(auto_wrap_policy={Block}), FSDP1 units holding each Block's adapters with its frozen weights
//    (litgpt/finetune/lora.py up to 5ac69b06, 2025-08-13, which moved it to ModelParallelStrategy and
//    fully_shard: FSDP2, first released in v0.5.11, 2025-09-09; finetune/lora.py @ 8641822b, 2023-10-16, the
//    same).
//  - The last step's graph (LitGPT 0.1 to 0.5.4): the loop binds `logits = model(input_ids,
//    lm_head_chunk_size=128)` and `loss = chunked_cross_entropy(...)` as locals of fit() and calls
//    `fabric.backward(loss / ...)` (litgpt/finetune/lora.py @ v0.3.1 l.280-284, @ v0.5.4 l.321-325); nothing drops
//    them, so the logit chunks keep the step's autograd graph through the optimizer step and the next forward,
//    until `logits` is bound again after it. Backward frees what nodes saved with save_for_backward, not what a
//    Python autograd function put on its context: bitsandbytes 0.41.0-0.43.1 MatMul4Bit.forward sets
//    `ctx.tensors = (A, B)` and backward never clears it (bitsandbytes/autograd/_functions.py @ 0.42.0, 4870580f,
//    l.522-525), so every 4-bit linear's input of the last step is still held while the next forward builds its
//    own. LitGPT pinned bitsandbytes==0.42.0 (pyproject.toml @ v0.3.1 ... v0.5.4, 2024-12-23) until d2ed13c3
//    (2024-12-28, first in v0.5.5) moved to 0.44, whose MatMul4Bit keeps `(None, B)` (from 0.43.2). Lit-GPT of
//    2023 had the same loop but ran the longest sample first (`get_batch(fabric, train_data, longest_seq_ix if
//    iter_num == 0 else None)`, finetune/lora.py @ 8641822b l.212), so its peak step had no earlier graph; LitGPT
//    computes longest_seq_ix only to size the model. Measured: LitGPT's config-hub QLoRA runs (bench/
//    accuracy_train.md, seventh pass: -12% to -2% without it, 0% to +5% with it).
//  - TRL 1.6 and older: SFTTrainer takes the model's own loss over the whole logits (loss_type "nll", the
//    default until b58947c7e, first released in v1.7.0, 2026-06-25; trl/trainer/sft_config.py).
//  - torchtune 0.2 and older: the LoRA configs' loss is torch.nn.CrossEntropyLoss over the whole logits,
//    which TransformerDecoder returns in fp32 (`self.output(h).float()`, torchtune/modules/transformer.py @
//    v0.1.0), and the LoRA model builders default lora_dropout to 0.05 (torchtune/models/llama2/
//    _model_builders.py @ v0.2.1, 2024-07-25). v0.3.0 (2024-09-17) brought CEWithChunkedOutputLoss to the
//    configs (4fba6cd4) and lora_dropout 0.0 (d7fae967): the row.
// clang-format off
constexpr std::array<trainer_release, 5> trainer_release_rows{{
    {"litgpt", "0.0",
     "Lit-GPT of 2023 shards LoRA runs with FSDP1 units holding each block's adapters with its frozen weights",
     std::nullopt, std::nullopt, true, false},
    {"litgpt", "0.5.4",
     "LitGPT 0.5.4 and older shard LoRA runs with FSDP1 units holding each block's adapters with its frozen weights, "
     "and run bitsandbytes 0.42",
     std::nullopt, std::nullopt, true, true},
    {"litgpt", "0.5.10",
     "LitGPT 0.5.10 and older shard LoRA runs with FSDP1 units holding each block's adapters with its frozen weights",
     std::nullopt, std::nullopt, true, false},
    {"trl", "1.6",
     "TRL 1.6 and older: the model's cross-entropy over the whole fp32 logits",
     loss_impl::full, std::nullopt, std::nullopt, false},
    {"torchtune", "0.2",
     "torchtune 0.2 and older: cross-entropy over the whole fp32 logits, LoRA dropout 0.05",
     loss_impl::full, 0.05, std::nullopt, false},
}};
// clang-format on

char fold_trainer_char(char c) {
    return c == '_' ? '-' : detail::lower_char(c);
}

bool trainer_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

// "0.5.10" -> {0, 5, 10}; empty on anything but dotted numbers of up to 9 digits, at most 8 of them.
std::vector<std::uint32_t> parse_trainer_release(std::string_view s) {
    std::vector<std::uint32_t> parts;
    std::uint32_t v = 0;
    int digits      = 0;
    for (std::size_t i = 0; i <= s.size(); ++i) {
        if (i == s.size() || s[i] == '.') {
            if (digits == 0 || parts.size() == 8) return {};
            parts.push_back(v);
            v      = 0;
            digits = 0;
        } else if (s[i] >= '0' && s[i] <= '9' && digits < 9) {
            v = v * 10 + static_cast<std::uint32_t>(s[i] - '0');
            ++digits;
        } else {
            return {};
        }
    }
    return parts;
}

// Whether `release` is `through` or older, compared over `through`'s parts ("0.2.1" is within "0.2").
bool release_at_or_before(const std::vector<std::uint32_t>& release, const std::vector<std::uint32_t>& through) {
    for (std::size_t i = 0; i < through.size(); ++i) {
        const std::uint32_t r = i < release.size() ? release[i] : 0;
        if (r != through[i]) return r < through[i];
    }
    return true;
}

} // namespace

std::optional<std::string> read_trainer(std::string_view text, trainer_choice& out) {
    if (text.empty() || text.size() > 64) return "a trainer's name of 1 to 64 characters, e.g. hf or litgpt@0.5.10";
    std::string name, release;
    const auto at = text.find('@');
    for (char c : text.substr(0, at)) {
        const char f = fold_trainer_char(c);
        if (!trainer_name_char(f))
            return "a trainer's name of letters, digits, '.', '_' and '-' (NAME or NAME@RELEASE)";
        name += f;
    }
    if (name.empty()) return "a trainer's name before the '@'";
    if (at != std::string_view::npos) {
        std::string_view r = text.substr(at + 1);
        if (!r.empty() && (r.front() == 'v' || r.front() == 'V')) r.remove_prefix(1);
        if (parse_trainer_release(r).empty())
            return "a release of dotted numbers after the '@', e.g. litgpt@0.5.10 or torchtune@0.2.1";
        release = std::string(r);
    }
    trainer_choice c;
    c.release = release;
    if (const trainer_profile* row = find_trainer(name)) {
        c.row = row;
    } else {
        for (const auto& a : trainer_aliases)
            if (a.name == name) {
                c.row   = find_trainer(a.row);
                c.match = trainer_match::alias;
                if (c.release.empty()) c.release = std::string(a.release);
            }
        // A name that is neither: the contract's bad value (exit 2), with the names that are.
        if (c.row == nullptr) {
            std::string other;
            for (const auto& a : trainer_aliases)
                other += (other.empty() ? "" : " ") + std::string(a.name);
            return "one of: " + trainer_names() + " (or another name for one: " + other +
                   "), optionally NAME@RELEASE; a stack with no row: the closest row with --loss, --lora-dropout, "
                   "--batch-lengths or --fsdp-units";
        }
    }
    out = c;
    return std::nullopt;
}

const trainer_release* find_release(std::string_view trainer, std::string_view release) {
    if (release.empty()) return nullptr;
    const auto r = parse_trainer_release(release);
    if (r.empty()) return nullptr;
    for (const auto& row : trainer_release_rows)
        if (row.trainer == trainer && release_at_or_before(r, parse_trainer_release(row.through))) return &row;
    return nullptr;
}

} // namespace llmplan
