// The HTTP transport the Hub reader talks through: one GET, no redirect followed, no retry (the
// reader does both, so that it decides where credentials go). libcurl backs it in the program;
// tests may pass their own.
#pragma once

#include "llmplan/error.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan {

struct http_header {
    std::string name; ///< lower case in responses
    std::string value;
};

struct byte_range {
    std::uint64_t first = 0; ///< inclusive, as in RFC 9110 "bytes=first-last"
    std::uint64_t last  = 0; ///< inclusive
};

struct http_request {
    std::string url;
    std::vector<http_header> headers;
    std::optional<byte_range> range;
    /// Body bytes kept; the transfer stops there (a server that ignores Range never sends a whole file).
    std::uint64_t max_body_bytes = 16u << 20;
    std::chrono::milliseconds timeout{10000}; ///< connect, and the longest wait without a byte
};

struct http_response {
    long status = 0;
    std::vector<http_header> headers;
    std::string body;
    std::string redirect_url;         ///< a 3xx's Location, resolved against the request URL
    bool body_cut      = false;       ///< the body went past max_body_bytes and was cut there
    bool range_ignored = false;       ///< a ranged request answered 200: body holds the requested slice of the whole
    std::uint64_t bytes_received = 0; ///< body bytes read from the wire (more than body.size() when range_ignored)

    /// The first header of that name (case-insensitive), nullptr when absent.
    [[nodiscard]] const std::string* header(std::string_view name) const;
};

class http_transport {
  public:
    virtual ~http_transport() = default;
    /// One GET. Transport failures give error_code::network (no connection), timed_out, or
    /// connection_lost (the answer stopped part way; worth retrying).
    virtual result<http_response> get(const http_request& req) = 0;
};

/// libcurl (TLS verified by libcurl's defaults; no content encoding asked for).
std::shared_ptr<http_transport> make_curl_transport();

} // namespace llmplan
