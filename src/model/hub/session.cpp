// One run's requests: redirects with credentials kept to their own host, bounded retries with
// backoff (hub-api.md §1.4, §2), and the progress line.
#include "model/hub/hub.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <thread>
#include <unistd.h>

#ifndef LLMPLAN_VERSION
#define LLMPLAN_VERSION "0"
#endif

namespace llmplan::hub {
namespace {

/// requests' and curl's defaults allow 30; a Hub file takes at most two (307 to resolve-cache, or
/// 302 to the CDN), a renamed repo one more.
constexpr int max_redirects = 10;
/// huggingface_hub's http_backoff: 5 retries on 408, 429, 500, 502, 503, 504 (utils/_http.py).
constexpr int max_retries = 5;
/// A wait the server asks for beyond this is reported instead of slept: a person at a terminal
/// would rather be told when the window resets (the Hub's windows are 5 minutes, hub-api.md §2).
constexpr std::chrono::seconds max_wait{30};
/// All a run may fetch: the largest real cases are ~60 MB (Kimi-K2's index, hub-api.md §5.2) and
/// 163 shards x 100 kB; 1 GiB bounds what a hostile server can make us hold.
constexpr std::uint64_t max_run_bytes = std::uint64_t{1} << 30;

/// "scheme://host:port" in lower case, the default port made explicit.
std::string origin_of(std::string_view url) {
    const auto scheme_end = url.find("://");
    if (scheme_end == std::string_view::npos) return {};
    std::string scheme(url.substr(0, scheme_end));
    std::string_view rest = url.substr(scheme_end + 3);
    std::string host(rest.substr(0, rest.find_first_of("/?#")));
    if (const auto at = host.rfind('@'); at != std::string::npos) host = host.substr(at + 1);
    std::string out = scheme + "://" + host;
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (host.find(':') == std::string::npos && host.find(']') == std::string::npos)
        out += scheme == "https" ? ":443" : scheme == "http" ? ":80" : "";
    return out;
}

bool retryable(long status) {
    return status == 408 || status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

/// `RateLimit: "api";r=0;t=172` (IETF draft v9, hub-api.md §2): remaining and seconds to reset.
struct rate_limit {
    std::optional<std::uint64_t> remaining, reset_s;
};
rate_limit parse_rate_limit(const http_response& r) {
    rate_limit out;
    const auto* v = r.header("ratelimit");
    if (!v) return out;
    const auto number_after = [&](std::string_view key) -> std::optional<std::uint64_t> {
        const auto p = v->find(key);
        if (p == std::string::npos) return std::nullopt;
        std::uint64_t n = 0;
        std::size_t i = p + key.size(), digits = 0;
        for (; i < v->size() && std::isdigit(static_cast<unsigned char>((*v)[i])) && digits < 12; ++i, ++digits)
            n = n * 10 + static_cast<std::uint64_t>((*v)[i] - '0');
        return digits ? std::optional(n) : std::nullopt;
    };
    out.remaining = number_after(";r=");
    out.reset_s   = number_after(";t=");
    return out;
}

std::optional<std::uint64_t> retry_after_s(const http_response& r) {
    const auto* v = r.header("retry-after");
    if (!v || v->empty() || v->size() > 9 ||
        !std::all_of(v->begin(), v->end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt; // the HTTP-date form is not used by the Hub; huggingface_hub reads seconds only
    return std::stoull(*v);
}

std::string user_agent() {
    // Peers name themselves and their version (hub-api.md §3: llama-cpp/<build>, hf-mem/<ver>).
    return "llmplan/" LLMPLAN_VERSION "; hf_hub/none; cpp";
}

} // namespace

session::session(const load_options& opt, const environment& env, hub_kind kind)
    : transport_(opt.transport ? opt.transport : make_curl_transport()), opt_(opt), kind_(kind),
      endpoint_(kind == hub_kind::hf ? env.endpoint : env.ms_endpoint),
      token_(kind == hub_kind::hf ? env.token : env.ms_token), offline_(opt.offline || env.offline) {}

result<http_response> session::follow(const std::string& url, std::optional<byte_range> range, std::uint64_t max_body) {
    const std::string home = origin_of(endpoint_);
    std::string cur        = url;
    for (int hop = 0; hop <= max_redirects; ++hop) {
        http_request req;
        req.url            = cur;
        req.range          = range;
        req.max_body_bytes = max_body;
        req.timeout        = opt_.timeout;
        req.headers.push_back({"User-Agent", user_agent()});
        // Credentials go to the endpoint's own origin only, never to a CDN a redirect names
        // (huggingface_hub drops Authorization when the host changes, hub-api.md §1.4).
        if (!token_.empty() && origin_of(cur) == home) {
            if (kind_ == hub_kind::hf)
                req.headers.push_back({"Authorization", "Bearer " + token_});
            else
                req.headers.push_back({"Cookie", "m_session_id=" + token_}); // modelscope hub/api.py get_cookies
        }
        auto r = transport_->get(req);
        stats.requests += 1;
        if (!r) return r;
        if ((stats.bytes += r->bytes_received) > max_run_bytes)
            return make_error(
                error_code::bad_value,
                fmt::format("more than {} MiB fetched for headers; expected far less", max_run_bytes >> 20), url);
        if (r->status >= 300 && r->status < 400 && r->status != 304) {
            if (r->redirect_url.empty())
                return make_error(error_code::network, fmt::format("HTTP {} without a Location", r->status), cur);
            cur = r->redirect_url;
            continue;
        }
        return r;
    }
    return make_error(error_code::network, fmt::format("more than {} redirects (a redirect loop)", max_redirects), url);
}

result<http_response> session::get(const std::string& url, std::optional<byte_range> range, std::uint64_t max_body,
                                   const request_what& what) {
    const std::string label =
        (kind_ == hub_kind::hf ? "hf:" : "ms:") + what.repo + (what.file.empty() ? "" : "/" + what.file);
    if (offline_)
        return make_error(error_code::network, "offline (--offline or HF_HUB_OFFLINE) and not in any cache", label);
    for (int attempt = 0;; ++attempt) {
        auto r = follow(url, range, max_body);
        if (!r) {
            error e = r.error();
            if (e.code == error_code::connection_lost && attempt < max_retries) {
                std::this_thread::sleep_for(opt_.backoff_base * (1 << std::min(attempt, 3)));
                continue;
            }
            e.message = fmt::format("{} ({})", e.message, origin_of(e.context));
            e.context = label;
            return e;
        }
        if (r->status >= 200 && r->status < 300) return r;
        const auto rl = parse_rate_limit(*r);
        if (retryable(r->status) && attempt < max_retries) {
            std::chrono::milliseconds wait = opt_.backoff_base * (1 << std::min(attempt, 3));
            if (rl.remaining == std::uint64_t{0} && rl.reset_s)
                wait = std::chrono::seconds(*rl.reset_s + 1);
            else if (const auto ra = retry_after_s(*r))
                wait = std::chrono::seconds(*ra);
            if (wait <= max_wait) {
                std::this_thread::sleep_for(wait);
                continue;
            }
        }
        error e = kind_ == hub_kind::hf ? hf_error(*r, what, endpoint_, !token_.empty()) : ms_error(*r, what);
        if (r->status == 429) {
            const auto reset = rl.reset_s ? rl.reset_s : retry_after_s(*r);
            if (reset)
                e.message = fmt::format("rate limited by {}; the window resets in {} s (a token raises the quota: "
                                        "HF_TOKEN)",
                                        origin_of(endpoint_), *reset);
        }
        return e;
    }
}

progress::progress(bool enabled, std::size_t total_files)
    : on_(enabled && total_files > 1 && ::isatty(STDERR_FILENO) == 1), total_(total_files) {}

progress::~progress() {
    if (on_) std::fputs("\r\033[K", stderr);
}

void progress::file_done(std::uint64_t fetched) {
    const auto done = ++done_;
    if (on_)
        std::fprintf(stderr, "\r\033[Kllmplan: read headers of %zu/%zu files, %.2f MiB fetched", done, total_,
                     static_cast<double>(fetched) / (1 << 20));
}

} // namespace llmplan::hub
