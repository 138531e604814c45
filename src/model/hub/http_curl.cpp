// libcurl behind http_transport: one GET per call, redirects left to the caller. libcurl is loaded
// with dlopen the first time a transport is made (curl_api.h): only Hub names need it, and linking it
// cost every run ~12 ms of CPU in the dynamic loader (bench/README.md, start-up).
#include "curl_api.h"
#include "llmplan/http.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace llmplan {

const std::string* http_response::header(std::string_view name) const {
    for (const auto& h : headers) {
        if (h.name.size() != name.size()) continue;
        bool same = true;
        for (std::size_t i = 0; i < name.size() && same; ++i)
            same = std::tolower(static_cast<unsigned char>(h.name[i])) ==
                   std::tolower(static_cast<unsigned char>(name[i]));
        if (same) return &h.value;
    }
    return nullptr;
}

namespace {

/// Loaded by the time a transfer runs: get() returns an error before any of these when it is not.
const detail::curl_functions& api() {
    return *detail::load_curl();
}

constexpr std::uint64_t redirect_body_bytes = 64u << 10;

struct transfer {
    CURL* curl              = nullptr;
    const http_request* req = nullptr;
    http_response* resp     = nullptr;
    std::uint64_t skip      = 0; ///< bytes to drop before keeping (a ranged request answered 200)
    std::uint64_t keep      = 0; ///< bytes to keep
    bool decided            = false;
    bool stopped            = false; ///< we ended the transfer on purpose (enough bytes)
};

std::size_t on_header(char* data, std::size_t size, std::size_t n, void* user) {
    auto* t = static_cast<transfer*>(user);
    std::string_view line(data, size * n);
    if (line.starts_with("HTTP/")) { // a new response (after 100-continue): start over
        t->resp->headers.clear();
        return size * n;
    }
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) return size * n;
    std::string name(line.substr(0, colon));
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
        value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
        value.remove_suffix(1);
    t->resp->headers.push_back({std::move(name), std::string(value)});
    return size * n;
}

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
    auto* t               = static_cast<transfer*>(user);
    const std::size_t len = size * n;
    if (!t->decided) {
        t->decided  = true;
        long status = 0;
        api().easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &status);
        t->keep = t->req->max_body_bytes;
        // A redirect's body is read (curl resolves Location only for a transfer that ends well) but
        // not kept; 64 KiB bounds it (the Hub's are under 1 kB).
        if (status >= 300 && status < 400) t->skip = redirect_body_bytes, t->keep = 0;
        if (t->req->range && status == 200) { // the server ignored Range: take our slice of the whole
            t->resp->range_ignored = true;
            t->skip                = t->req->range->first;
            t->keep                = std::min<std::uint64_t>(t->keep, t->req->range->last - t->req->range->first + 1);
        }
    }
    t->resp->bytes_received += len;
    std::string_view chunk(data, len);
    if (t->skip) {
        const auto drop = std::min<std::uint64_t>(t->skip, chunk.size());
        chunk.remove_prefix(static_cast<std::size_t>(drop));
        t->skip -= drop;
    }
    const std::uint64_t room = t->keep - std::min<std::uint64_t>(t->keep, t->resp->body.size());
    if (chunk.size() > room) {
        t->resp->body.append(chunk.substr(0, static_cast<std::size_t>(room)));
        if (!t->resp->range_ignored) t->resp->body_cut = true;
        t->stopped = true;
        return 0; // ends the transfer: CURLE_WRITE_ERROR, which we expect
    }
    t->resp->body.append(chunk);
    if (t->resp->range_ignored && t->skip == 0 && t->resp->body.size() >= t->keep) {
        t->stopped = true;
        return 0;
    }
    return len;
}

struct slist_free {
    void operator()(curl_slist* l) const { api().slist_free_all(l); }
};
struct easy_free {
    void operator()(CURL* c) const { api().easy_cleanup(c); }
};

class curl_transport final : public http_transport {
  public:
    result<http_response> get(const http_request& req) override {
        std::string why;
        if (detail::load_curl(&why) == nullptr) return make_error(error_code::network, why, req.url);
        // One handle per thread, reset for each request: its connection cache keeps the Hub's and
        // the CDN's connections (and TLS sessions) open from one shard to the next.
        thread_local std::unique_ptr<CURL, easy_free> curl(api().easy_init());
        if (!curl) return make_error(error_code::network, "cannot start an HTTP transfer (libcurl)", req.url);
        api().easy_reset(curl.get());
        http_response resp;
        transfer t{curl.get(), &req, &resp};
        curl_slist* raw = nullptr;
        for (const auto& h : req.headers)
            raw = api().slist_append(raw, fmt::format("{}: {}", h.name, h.value).c_str());
        // Ranged reads must not be content-encoded (hub-api.md §1.4); curl sends no Accept-Encoding.
        std::unique_ptr<curl_slist, slist_free> list(raw);
        const std::string range = req.range ? fmt::format("{}-{}", req.range->first, req.range->last) : "";
        const long timeout_s    = std::max<long>(1, static_cast<long>((req.timeout.count() + 999) / 1000));
        CURL* c                 = curl.get();
        api().easy_setopt(c, CURLOPT_URL, req.url.c_str());
        api().easy_setopt(c, CURLOPT_HTTPHEADER, list.get());
        api().easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
        api().easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
        api().easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
        api().easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(req.timeout.count()));
        // A read timeout: under 1 byte/s for the whole timeout aborts (huggingface_hub's 10 s read timeout).
        api().easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
        api().easy_setopt(c, CURLOPT_LOW_SPEED_TIME, timeout_s);
        // And a bound on the whole transfer, so that a server trickling a byte a second ends too: 30
        // timeouts (5 minutes at the default) carry a 16 MiB GGUF chunk at 56 kB/s.
        api().easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(req.timeout.count()) * 30);
        api().easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
        api().easy_setopt(c, CURLOPT_HEADERDATA, &t);
        api().easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
        api().easy_setopt(c, CURLOPT_WRITEDATA, &t);
        if (req.range) api().easy_setopt(c, CURLOPT_RANGE, range.c_str());
        const CURLcode rc = api().easy_perform(c);
        if (rc != CURLE_OK && !(rc == CURLE_WRITE_ERROR && t.stopped)) {
            const std::string what = api().easy_strerror(rc);
            switch (rc) {
            case CURLE_OPERATION_TIMEDOUT:
                return make_error(error_code::timed_out, fmt::format("no answer within {} s (--timeout)", timeout_s),
                                  req.url);
            case CURLE_PARTIAL_FILE:
            case CURLE_RECV_ERROR:
            case CURLE_GOT_NOTHING:
            case CURLE_SEND_ERROR:
                return make_error(error_code::connection_lost,
                                  fmt::format("the connection dropped after {} bytes ({})", resp.bytes_received, what),
                                  req.url);
            default:
                return make_error(error_code::network, fmt::format("cannot reach the server: {}", what), req.url);
            }
        }
        api().easy_getinfo(c, CURLINFO_RESPONSE_CODE, &resp.status);
        if (resp.status >= 300 && resp.status < 400) {
            char* loc = nullptr;
            if (api().easy_getinfo(c, CURLINFO_REDIRECT_URL, &loc) == CURLE_OK && loc) resp.redirect_url = loc;
        }
        return resp;
    }
};

} // namespace

std::shared_ptr<http_transport> make_curl_transport() {
    return std::make_shared<curl_transport>();
}

} // namespace llmplan
