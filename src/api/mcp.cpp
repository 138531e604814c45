// The Model Context Protocol session (mcp.h): JSON-RPC 2.0 messages of MCP revision 2025-06-18
// (modelcontextprotocol.io/specification/2025-06-18: basic/lifecycle, server/tools), answered with
// the front door's documents (api.h). Error codes are JSON-RPC's: -32700 parse error, -32600
// invalid request, -32601 method not found, -32602 invalid params (an unknown tool, as the
// specification's tools page shows); a question the library refuses is a tool result with
// isError true and the CLI's one-line message, so the agent can read it and correct the call.
#include "llmplan/mcp.h"

#include "llmplan/api.h"
#include "llmplan/request.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmplan {
namespace {

using json = nlohmann::json;

constexpr int parse_error      = -32700;
constexpr int invalid_request  = -32600;
constexpr int method_not_found = -32601;
constexpr int invalid_params   = -32602;

std::string reply(const json& id, json result) {
    return json{
        {"jsonrpc", "2.0"            },
        {"id",      id               },
        {"result",  std::move(result)}
    }
        .dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string failure(const json& id, int code, std::string message) {
    return json{
        {"jsonrpc", "2.0"                                            },
        {"id",      id                                               },
        {"error",   {{"code", code}, {"message", std::move(message)}}}
    }
        .dump(-1, ' ', false, json::error_handler_t::replace);
}

/// A tool result the agent reads: the text, and for a document its JSON as structuredContent.
json tool_result(const std::string& text, bool is_error, const json* structured = nullptr) {
    json r{
        {"content", json::array({json{{"type", "text"}, {"text", text}}})},
        {"isError", is_error                                             }
    };
    if (structured) r["structuredContent"] = *structured;
    return r;
}

constexpr std::string_view instructions =
    "llmplan answers what it takes to run or train a language model before anything is bought, rented or "
    "downloaded: disk, RAM and VRAM as a breakdown of named parts, the machines that fit, their speed and "
    "cost, and the launch lines. Start with estimate (memory for one setup) or plan (which hardware); "
    "models lists the built-in catalog, hardware the machines it knows. MODEL is a catalog id "
    "(Qwen/Qwen2.5-7B-Instruct, qwen2.5-7b), a Hugging Face repo (hf:ORG/NAME), or a local config.json, "
    "model folder or .gguf file.";

json tools_list() {
    json tools = json::array();
    for (const command_kind c : all_commands) {
        tools.push_back(json{
            {"name",        std::string(command_name(c))                                             },
            {"title",       std::string(command_help(c))                                             },
            {"description", std::string(command_help(c)) + ". Returns the same JSON document as `llmplan " +
                                std::string(command_name(c)) + " --json`."},
            {"inputSchema", tool_input_schema(c)                                                     },
            {"annotations", {{"readOnlyHint", true}, {"openWorldHint", true}}                        },
        });
    }
    return json{
        {"tools", tools}
    };
}

/// One argument as the option parser's text: numbers as written, booleans for flags (false: not
/// given) and on/off choices, arrays as repeated values. Nothing on error, with why.
bool add_argument(option_values& out, const option_spec& o, const json& v, std::string& why) {
    const std::string name(o.name);
    if (v.is_null()) return true;
    if (v.is_boolean()) {
        if (o.kind == value_kind::flag) {
            if (v.get<bool>()) out.emplace_back(name, "1");
            return true;
        }
        if (o.kind == value_kind::choice && o.values == "on off") {
            out.emplace_back(name, v.get<bool>() ? "on" : "off");
            return true;
        }
        why = fmt::format("argument '{}' is a boolean; expected {}", name,
                          o.kind == value_kind::list ? "a list of strings" : "a string or a number");
        return false;
    }
    if (v.is_array()) {
        if (o.kind != value_kind::list) {
            why = fmt::format("argument '{}' is a list; expected one value", name);
            return false;
        }
        for (const auto& e : v) {
            if (!e.is_string() && !e.is_number()) {
                why = fmt::format("argument '{}' holds {}; expected strings", name, e.type_name());
                return false;
            }
            out.emplace_back(name, e.is_string() ? e.get<std::string>() : e.dump());
        }
        return true;
    }
    if (v.is_string()) {
        out.emplace_back(name, v.get<std::string>());
        return true;
    }
    if (v.is_number()) {
        out.emplace_back(name, v.dump()); // 8192, 0.9, 1e+20: the option parser checks the range
        return true;
    }
    why = fmt::format("argument '{}' is an {}; expected a string, a number, a boolean or a list", name, v.type_name());
    return false;
}

json call_tool(const json& params, const load_options& sources, const json& id, std::string& error_reply) {
    const auto name_it = params.find("name");
    if (name_it == params.end() || !name_it->is_string()) {
        error_reply = failure(id, invalid_params, "tools/call needs params.name, the tool's name");
        return {};
    }
    const std::string tool = name_it->get<std::string>();
    command_kind c{};
    if (!command_from_name(tool, c)) {
        error_reply = failure(id, invalid_params,
                              fmt::format("Unknown tool: {}; expected inspect, models, estimate, plan, fit, hardware "
                                          "or check",
                                          tool));
        return {};
    }
    option_values options;
    if (const auto a = params.find("arguments"); a != params.end() && !a->is_null()) {
        if (!a->is_object()) return tool_result("arguments must be an object of option names and values", true);
        for (const auto& [key, value] : a->items()) {
            std::string option = key;
            for (auto& ch : option)
                if (ch == '_') ch = '-';
            const option_spec* o = find_option(c, option);
            if (o == nullptr || o->id == option_id::log_name)
                return tool_result(fmt::format("{}: unknown argument '{}'; the tool's input schema lists its "
                                               "arguments",
                                               tool, key),
                                   true);
            std::string why;
            if (!add_argument(options, *o, value, why)) return tool_result(fmt::format("{}: {}", tool, why), true);
        }
    }
    const api_response r = answer(tool, options, sources);
    if (r.status != 200) {
        const json e = json::parse(r.body, nullptr, false);
        const std::string message =
            e.is_object() && e.contains("error") && e["error"].is_string() ? e["error"].get<std::string>() : r.body;
        return tool_result(message, true);
    }
    json doc = json::parse(r.body, nullptr, false);
    if (doc.is_discarded()) return tool_result(r.body, false);
    if (!doc.is_object())
        doc = json{
            {"result", std::move(doc)}
        }; // structuredContent is an object
    return tool_result(r.body, false, &doc);
}

} // namespace

std::optional<std::string> mcp_session::handle(std::string_view message) {
    const json m = json::parse(message.begin(), message.end(), nullptr, false);
    if (m.is_discarded()) return failure(nullptr, parse_error, "Parse error: the message is not JSON");
    if (!m.is_object())
        return failure(nullptr, invalid_request,
                       "Invalid Request: expected one JSON-RPC object (batches are not part of MCP 2025-06-18)");
    const auto id_it  = m.find("id");
    const bool has_id = id_it != m.end();
    const json id     = has_id ? *id_it : json(nullptr);
    if (has_id && !id.is_string() && !id.is_number_integer())
        return failure(nullptr, invalid_request, "Invalid Request: id must be a string or an integer");
    const auto method_it = m.find("method");
    if (method_it == m.end()) return std::nullopt; // a response to a request of ours: we send none
    if (m.value("jsonrpc", json()) != "2.0" || !method_it->is_string())
        return has_id ? std::optional(failure(id, invalid_request,
                                              "Invalid Request: expected jsonrpc \"2.0\" and a "
                                              "method name"))
                      : std::nullopt;
    const std::string method = method_it->get<std::string>();
    if (!has_id) { // a notification: never answered
        if (method == "notifications/initialized") initialized_ = true;
        return std::nullopt;
    }
    const json params = m.contains("params") && m["params"].is_object() ? m["params"] : json::object();
    try {
        if (method == "initialize") {
            return reply(id, json{
                                 {"protocolVersion", std::string(mcp_protocol_version)                                },
                                 {"capabilities",    {{"tools", {{"listChanged", false}}}}                            },
                                 {"serverInfo",      {{"name", "llmplan"}, {"title", "llmplan"}, {"version", "0.1.0"}}},
                                 {"instructions",    std::string(instructions)                                        },
            });
        }
        if (method == "ping") return reply(id, json::object());
        if (method == "tools/list") return reply(id, tools_list());
        if (method == "tools/call") {
            std::string error_reply;
            json result = call_tool(params, sources_, id, error_reply);
            if (!error_reply.empty()) return error_reply;
            return reply(id, std::move(result));
        }
    } catch (const std::exception& e) {
        return failure(id, -32603, std::string("Internal error: ") + e.what());
    }
    return failure(id, method_not_found, fmt::format("Method not found: {}", method));
}

} // namespace llmplan
