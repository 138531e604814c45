// The turn a plan's speeds are priced for: tokens already in the cache, the prompt taken in one
// prefill, and the answer generated after it. Decode is priced at the mean depth of the answer and
// prefill with the depth already in the cache, never at the full --ctx unless the turn reaches it.
#pragma once

#include "llmplan/inference.h"

#include <cstdint>
#include <string>

namespace llmplan {

/// A chat turn without --prompt: the mean first prompt and answer of ShareGPT conversations as
/// vLLM's serving benchmark sends them through a chat template. vllm-project/vllm PR 18566
/// (mgoin, 2025-05-22, "Support datasets in vllm bench serve"): `vllm bench serve --endpoint-type
/// openai-chat --dataset-name hf --dataset-path Aeala/ShareGPT_Vicuna_unfiltered` on
/// Llama-3.1-8B-Instruct, 1000 requests: 229,711 input and 203,068 generated tokens, so 230 and 203
/// tokens a request. (vllm-project/vllm-ascend issue 1605, 2025-07-03, Qwen3-32B on the same
/// dataset: 43,560 and 44,697 tokens for 200 requests, 218 and 223: the same size.)
inline constexpr std::uint64_t chat_prompt_tokens = 230;
inline constexpr std::uint64_t chat_answer_tokens = 203;

struct turn_shape {
    std::uint64_t cached = 0;     ///< tokens in the cache before the prompt (earlier turns, a document)
    std::uint64_t prompt = 0;     ///< tokens of the prompt: one prefill
    std::uint64_t answer = 0;     ///< tokens generated after it
    bool chat            = false; ///< --prompt not given: the chat turn above
    /// Context depth of the mean decode step: what is cached, the prompt, and half the answer.
    [[nodiscard]] std::uint64_t decode_depth() const { return cached + prompt + answer / 2; }
};

/// The turn of `p`. Without --prompt (p.prompt == 0): a chat turn of chat_prompt_tokens and
/// chat_answer_tokens from an empty cache (each cut to --ctx). With --prompt P: the turn ends at
/// --ctx: the answer is chat_answer_tokens (or what room is left) and the tokens before the prompt
/// are the rest, ctx - P - answer: --ctx 33280 --prompt 512 is a 512-token prompt after 32,565
/// tokens of context, --ctx 4096 --prompt 4096 a 4096-token prompt into an empty cache.
turn_shape turn_of(const inference_params& p);

/// One sentence a person reads: what the speeds assume.
std::string turn_text(const turn_shape& t);

} // namespace llmplan
