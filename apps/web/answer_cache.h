// Answers of `llmplan serve` kept for a few seconds, so that the same GET asked again (a page's
// slider going back and forth, several tabs, a client under load) costs a lookup instead of a plan.
#pragma once

#include "api_routes.h"

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace llmplan::web {

struct answer_cache_limits {
    /// How long an answer is reused. The answers depend only on the query and the embedded tables,
    /// but `plan` also reads this machine (its free memory, its GPUs): 10 s keeps that view fresh.
    std::chrono::milliseconds ttl{10'000};
    std::size_t max_entries = 512;      ///< the distinct requests kept (least recently used goes first)
    std::size_t max_bytes   = 32 << 20; ///< their bodies' total (a plan answer is ~30-60 kB)
};

/// The answer to (command, query) from the cache, or made by `make` and kept when its status is 200.
/// Thread-safe; a request asked while the same one is being answered waits for that answer.
api_reply cached_answer(std::string_view command, const query& q, const std::function<api_reply()>& make,
                        const answer_cache_limits& limits = {});

} // namespace llmplan::web
