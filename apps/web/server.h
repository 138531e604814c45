// `llmplan serve`: the HTTP server for the page and its API (cpp-httplib).
#pragma once

#include "api_routes.h"
#include "llmplan/llmplan.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace llmplan::web {

struct server_options {
    std::string host = "127.0.0.1"; ///< loopback unless the user says otherwise
    int port         = 8080;        ///< 0: any free port (tests)
    /// Worker threads: cpp-httplib 0.11 serves one connection per thread, so each open keep-alive
    /// connection holds one. 64 carries wrk's 64 connections, or ten pages of a browser's 6 each,
    /// without a connection waiting for a worker (an idle thread costs only stack address space).
    std::size_t threads = 64;
    /// Largest request body: a model upload (max_model_bytes) plus room for nothing else (413 past it).
    std::size_t max_body_bytes = static_cast<std::size_t>(max_model_bytes);
    /// Longest wait for a request's bytes, or to write a response, before the connection is dropped.
    std::chrono::seconds io_timeout{5};
    /// Most requests one keep-alive connection may carry before it is closed (cpp-httplib's default is
    /// 5; a page that follows a slider sends many). Measured with wrk at 64 connections (bench/README.md):
    /// closing after 100 gave 12 requests past wrk's 2 s timeout in every 10 s run (each about a
    /// reconnect), after 100,000 none. 10,000 keeps reconnects rare; an idle connection still frees
    /// its worker after io_timeout.
    std::size_t keep_alive_max_requests = 10000;
    api_policy api; ///< --hub: Hub names as MODEL
};

/// true for the addresses only this machine can reach: 127.0.0.0/8, ::1, localhost.
inline bool is_loopback(std::string_view host) {
    return host == "localhost" || host == "::1" || host == "[::1]" || host.starts_with("127.");
}

/// Runs the server until it is stopped; calls `on_listen(port)` once it accepts connections.
/// Returns false when it could not bind. Defined in the web module (llmplan-web.so, with cpp-httplib
/// and the page); the CLI reaches it through run_server_module (web_module.h).
bool run_server(const server_options& o, const std::function<void(int port)>& on_listen);

} // namespace llmplan::web
