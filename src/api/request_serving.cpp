// Serving at load's options (the contract's "Serving at load") -> the serving request.
#include "api/request_detail.h"
#include "detail/checked_number.h"
#include "estimate/engine_traits.h"
#include "llmplan/check.h"
#include "llmplan/units.h"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <limits>

// GCC 12 reports -Wmaybe-uninitialized on assigning a request holding strings to a std::variant
// alternative (a false positive of its variant inlining); clang and GCC 13 do not.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace llmplan::request_detail {

/// Serving at load (the contract's "Serving at load").
status apply_serving(serving_request& s, const option_spec& o, const value& v) {
    // Bounds: a prompt or output of 10 million tokens is past every model's context; 10 million
    // requests in flight or a second, a target of 10^7 ms (about 3 hours), are past any service.
    constexpr std::uint64_t max_tokens = 10'000'000, max_requests = 10'000'000;
    switch (o.id) {
    case id::engine:
        s.engine = v.text == "sglang"         ? serving_engine::sglang
                   : v.text == "tensorrt-llm" ? serving_engine::trtllm
                   : v.text == "llama.cpp"    ? serving_engine::llamacpp
                                              : serving_engine::vllm;
        break;
    case id::input_len: {
        auto n = in_range(o, v.u, 1, max_tokens);
        if (!n) return n.error();
        s.input_len = *n;
        break;
    }
    case id::output_len: {
        auto n = in_range(o, v.u, 1, max_tokens);
        if (!n) return n.error();
        s.output_len = *n;
        break;
    }
    case id::concurrency: {
        auto n = in_range(o, v.u, 1, max_requests);
        if (!n) return n.error();
        s.concurrency = static_cast<double>(*n);
        s.on          = true;
        break;
    }
    case id::request_rate: {
        if (v.text == "inf" || v.text == "infinity") {
            s.request_rate = std::numeric_limits<double>::infinity();
        } else {
            double d     = 0;
            auto [p, ec] = std::from_chars(v.text.data(), v.text.data() + v.text.size(), d);
            if (ec != std::errc{} || p != v.text.data() + v.text.size() || !std::isfinite(d))
                return bad(o, fmt::format("\"{}\"; expected requests a second (a number) or inf", v.text));
            auto r = number_in(o, d, 0, static_cast<double>(max_requests), " requests a second, or inf");
            if (!r) return r.error();
            s.request_rate = *r;
        }
        s.on = true;
        break;
    }
    case id::ttft_ms:
    case id::tpot_ms: {
        auto r = number_in(o, v.d, 0, 1e7, " milliseconds");
        if (!r) return r.error();
        (o.id == id::ttft_ms ? s.ttft_ms : s.tpot_ms) = *r;
        break;
    }
    case id::slo_percentile: {
        auto r = number_in(o, v.d, 0, 100, "");
        if (!r) return r.error();
        s.slo_percentile = *r;
        break;
    }
    case id::tensor_parallel: {
        auto n = in_range(o, v.u, 1, 1024);
        if (!n) return n.error();
        s.tensor_parallel = static_cast<std::uint32_t>(*n);
        break;
    }
    default:
        break;
    }
    return ok();
}

} // namespace llmplan::request_detail
