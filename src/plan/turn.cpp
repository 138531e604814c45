// The turn a plan's speeds are priced for (src/plan/turn.h).
#include "plan/turn.h"

#include <algorithm>
#include <fmt/format.h>

namespace llmplan {

turn_shape turn_of(const inference_params& p) {
    turn_shape t;
    const std::uint64_t ctx = std::max<std::uint64_t>(1, p.ctx);
    if (p.prompt == 0) {
        t.chat   = true;
        t.prompt = std::min(chat_prompt_tokens, ctx);
        t.answer = std::min(chat_answer_tokens, ctx - t.prompt);
        return t;
    }
    t.prompt                 = std::min(p.prompt, ctx);
    const std::uint64_t room = ctx - t.prompt;
    t.answer                 = std::min(chat_answer_tokens, room);
    t.cached                 = room - t.answer;
    return t;
}

std::string turn_text(const turn_shape& t) {
    if (t.chat)
        return fmt::format("speeds are for a chat turn: a {}-token prompt and a {}-token answer (the mean of "
                           "ShareGPT chats in vLLM's serving benchmark); --prompt N prices a longer prompt",
                           t.prompt, t.answer);
    if (t.answer == 0)
        return fmt::format("speeds are for a {}-token prompt that fills the {}-token context, decode priced at its "
                           "end",
                           t.prompt, t.cached + t.prompt);
    if (t.cached > 0)
        return fmt::format("speeds are for a {}-token prompt after {} tokens already in the context, then a "
                           "{}-token answer",
                           t.prompt, t.cached, t.answer);
    return fmt::format("speeds are for a {}-token prompt, then a {}-token answer", t.prompt, t.answer);
}

} // namespace llmplan
