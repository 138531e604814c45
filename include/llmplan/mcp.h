// The Model Context Protocol (revision 2025-06-18) for agents: one tool per question (inspect,
// models, estimate, plan, fit, hardware, check), each tool's input schema built from the option
// table, each call answered by the same front door as the CLI's --json (api.h). The transport is
// the caller's (`llmplan mcp` reads and writes newline-delimited JSON-RPC on stdio); this holds the
// protocol: one message in, at most one message out.
#pragma once

#include "llmplan/load.h"
#include "llmplan/options.h"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace llmplan {

/// The protocol revision spoken (modelcontextprotocol.io/specification/2025-06-18).
inline constexpr std::string_view mcp_protocol_version = "2025-06-18";

/// A tool's JSON Schema (draft 2020-12 subset) for command c, from the option table: one property a
/// table option (types by value kind, enums from choices, the default and help as description), the
/// positional MODEL/LOG required where the CLI requires it.
nlohmann::json tool_input_schema(command_kind c);

/// One MCP session: initialize, then tools/list and tools/call (and ping). Not thread-safe; one a
/// connection.
class mcp_session {
  public:
    /// sources: how MODEL is read (the stdio server runs as the user who started it, so local paths
    /// are allowed as on the command line; a fuzzer passes offline sources).
    explicit mcp_session(load_options sources = {}) : sources_(std::move(sources)) {}

    /// One JSON-RPC message (a line without its newline) -> the response line, or nothing for a
    /// notification or a response. Never throws; malformed input gets a JSON-RPC error.
    std::optional<std::string> handle(std::string_view message);

    /// True once the client sent notifications/initialized (the end of the lifecycle's handshake).
    [[nodiscard]] bool initialized() const { return initialized_; }

  private:
    load_options sources_;
    bool initialized_ = false;
};

} // namespace llmplan
