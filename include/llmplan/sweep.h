// What the page's charts and its "why" panel show, computed by the library from the same answers the
// CLI prints (api.h): the page draws, it does no arithmetic on bytes or tokens/s.
#pragma once

#include "llmplan/api.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmplan {

using api_options = std::vector<std::pair<std::string, std::string>>;

/// `sources` as answer()'s (api.h): paths refused by default, or a model sent as bytes.
/// Memory per device, and speed on one machine, against one option. Options: `over` (ctx, batch, seq
/// or micro-batch) and, optionally, `hardware` (one catalog row: its capacity and the plan's speed
/// there), plus every estimate option, applied to each point. Body:
/// {"over": str, "values": [int], "devices": [{"device": str, "total_bytes": [int|null]}],
///  "hardware": str|null, "capacity_bytes": int|null, "count": [int|null], "fits": [bool|null],
///  "decode_tokens_per_s": [float|null], "prefill_tokens_per_s": [float|null], "ttft_s": [float|null],
///  "train_tokens_per_s": [float|null]} (speeds: the plan's row for that machine; null without one)
api_response sweep(const api_options& options, const load_options& sources = api_sources());

/// The values a sweep over `over` visits for a model trained to `n_ctx_train` tokens: powers of two
/// from 256 up to the trained context for ctx and seq, 1 to 256 sequences for batch (vLLM's default
/// --max-num-seqs) and 1 to 64 for micro-batch. Empty for an option that cannot be swept.
std::vector<std::uint64_t> sweep_points(std::string_view over, std::uint64_t n_ctx_train);

/// The estimate explained: each non-zero part of each device with what it counts, the formula and
/// the source the estimator follows, and the rule of thumb (parameters x bytes per parameter of the
/// weights' type) beside the total. Body:
/// {"devices": [{"device": str, "total_bytes": int, "parts": [{"part": str, "bytes": int,
///   "formula": str, "source": str}], "notes": [str]}],
///  "rule_of_thumb": {"n_params": int, "bits_per_param": float, "bytes": int, "formula": str},
///  "total_bytes": int (every device), "rule_misses_bytes": int (total_bytes - the rule's bytes),
///  "assumptions": [str]}
api_response why(const api_options& options, const load_options& sources = api_sources());

} // namespace llmplan
