// Each question's options as a JSON Schema (mcp.h tool_input_schema): the agent-facing form of the
// option table, as the CLI's parser and the web API's query are (options.h).
#include "llmplan/mcp.h"

#include <nlohmann/json.hpp>
#include <string>

namespace llmplan {
namespace {

/// "gpu-memory-utilization" -> "gpu_memory_utilization": the name an argument has in Python and in
/// most agents' tool calls (the MCP server takes both spellings).
std::string argument_name(std::string_view option) {
    std::string s(option);
    for (auto& c : s)
        if (c == '-') c = '_';
    return s;
}

std::vector<std::string> words(std::string_view s) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at < s.size()) {
        const auto end = std::min(s.find(' ', at), s.size());
        if (end > at) out.emplace_back(s.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

nlohmann::json property_of(const option_spec& o, command_kind c) {
    nlohmann::json p;
    std::string description(o.help);
    if (o.id == option_id::log && c == command_kind::check)
        description = "the engine's start-up log, as text (llama.cpp, llama-server, vLLM, transformers)";
    switch (o.kind) {
    case value_kind::flag:
        p["type"] = "boolean";
        break;
    case value_kind::text:
        p["type"] = "string";
        if (!o.values.empty()) description += "; e.g. " + std::string(o.values);
        break;
    case value_kind::choice:
        p["type"] = "string";
        p["enum"] = words(o.values);
        break;
    case value_kind::uint:
        p["type"]    = "integer";
        p["minimum"] = 0;
        break;
    case value_kind::positive:
        p["type"]    = "integer";
        p["minimum"] = 1;
        break;
    case value_kind::sint:
        p["type"] = "integer";
        break;
    case value_kind::number:
        p["type"] = "number";
        break;
    case value_kind::size:
        p["type"] = "string";
        description += " (a size with its unit: 24GiB, 80GB, 81121MiB)";
        break;
    case value_kind::count:
        p["type"] = "string";
        description += " (a count: 100M, 2B, 5e8)";
        break;
    case value_kind::list:
        p["type"]  = "array";
        p["items"] = nlohmann::json{
            {"type", "string"}
        };
        if (!o.values.empty()) p["items"]["examples"] = words(o.values);
        break;
    }
    if (!o.default_text.empty()) description += " (default: " + std::string(o.default_text) + ")";
    p["description"] = description;
    return p;
}

} // namespace

nlohmann::json tool_input_schema(command_kind c) {
    nlohmann::json props    = nlohmann::json::object();
    nlohmann::json required = nlohmann::json::array();
    for (const auto& o : option_table()) {
        if (!applies_to(o, c)) continue;
        if (o.id == option_id::log_name) continue; // the CLI's file name for messages; a call has no file
        const auto name = argument_name(o.name);
        if (props.contains(name)) continue; // one row a command (the table's rows are per command)
        props[name]           = property_of(o, c);
        const bool positional = (o.positional & command_bit(c)) != 0;
        if (positional && (o.id == option_id::model || o.id == option_id::log)) required.push_back(name);
    }
    nlohmann::json schema{
        {"type",                 "object"},
        {"properties",           props   },
        {"additionalProperties", false   },
    };
    if (!required.empty()) schema["required"] = required;
    return schema;
}

} // namespace llmplan
