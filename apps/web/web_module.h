// The web server lives in a module of its own (llmplan-web.so: cpp-httplib, OpenSSL, zlib, brotli and
// the page), loaded by `llmplan serve` only: the other commands do not pay the dynamic loader for
// those libraries at every start (bench/README.md, start-up).
#pragma once

#include "server.h"

namespace llmplan::web {

/// The module's one entry point (C linkage, so that dlsym finds it by this name).
using module_entry = bool(const server_options& o, void (*on_listen)(int port, void* ctx), void* ctx);
inline constexpr const char* module_entry_name = "llmplan_web_run_server";
inline constexpr const char* module_file_name  = "llmplan-web.so";

/// Loads the module and runs its server (run_server); on a missing module, prints why and exits 3.
bool run_server_module(const server_options& o, const std::function<void(int port)>& on_listen);

} // namespace llmplan::web
