// `llmplan serve`: the HTTP server for the page and its API (cpp-httplib).
#pragma once

#include "api_routes.h"
#include "llmplan/load_bytes.h"

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
    /// Worker threads: each keep-alive connection holds one while open; 8 serves a page (which opens
    /// up to 6 connections, the browsers' per-host limit) plus a benchmark on a small machine.
    std::size_t threads = 8;
    /// Largest request body: a model upload (max_model_bytes) plus room for nothing else (413 past it).
    std::size_t max_body_bytes = static_cast<std::size_t>(max_model_bytes);
    /// Longest wait for a request's bytes, or to write a response, before the connection is dropped.
    std::chrono::seconds io_timeout{5};
    /// Most requests one keep-alive connection may carry before it is closed (cpp-httplib's default is 5;
    /// a page that follows a slider sends many).
    std::size_t keep_alive_max_requests = 10000;
    api_policy api; ///< --hub: Hub names as MODEL
};

/// true for the addresses only this machine can reach: 127.0.0.0/8, ::1, localhost.
bool is_loopback(std::string_view host);

/// Runs the server until it is stopped; calls `on_listen(port)` once it accepts connections.
/// Returns false when it could not bind.
bool run_server(const server_options& o, const std::function<void(int port)>& on_listen);

} // namespace llmplan::web
