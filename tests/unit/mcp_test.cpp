// The MCP session (llmplan/mcp.h) message by message, as MCP 2025-06-18 and JSON-RPC 2.0 specify
// them (modelcontextprotocol.io/specification/2025-06-18/basic, .../server/tools; jsonrpc.org error
// codes). The whole server with the SDK's own client: tests/mcp/mcp_client_test.mjs.
#include "llmplan/api.h"
#include "llmplan/mcp.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using namespace llmplan;
using nlohmann::json;

load_options offline() {
    load_options o;
    o.offline = true;
    return o;
}

json call(mcp_session& s, const json& message) {
    const auto out = s.handle(message.dump());
    EXPECT_TRUE(out.has_value()) << message.dump();
    return out ? json::parse(*out) : json();
}

TEST(mcp, initialize_answers_the_revision_and_the_tools_capability) {
    mcp_session s(offline());
    const auto r = call(s, {
                               {"jsonrpc", "2.0"                                   },
                               {"id",      1                                       },
                               {"method",  "initialize"                            },
                               {"params",
                                {{"protocolVersion", "2025-06-18"},
                                 {"capabilities", json::object()},
                                 {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}
    });
    EXPECT_EQ(r["id"], 1);
    EXPECT_EQ(r["result"]["protocolVersion"], "2025-06-18");
    EXPECT_EQ(r["result"]["serverInfo"]["name"], "llmplan");
    EXPECT_TRUE(r["result"]["capabilities"].contains("tools"));
    EXPECT_FALSE(s.initialized());
    // The client's notification ends the handshake; a notification is never answered.
    EXPECT_FALSE(s.handle(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").has_value());
    EXPECT_TRUE(s.initialized());
}

TEST(mcp, json_rpc_errors_have_their_codes) {
    mcp_session s(offline());
    EXPECT_EQ(json::parse(*s.handle("{not json"))["error"]["code"], -32700);
    EXPECT_TRUE(json::parse(*s.handle("{not json"))["id"].is_null());
    // MCP 2025-06-18 removed JSON-RPC batches: an array is an invalid request.
    EXPECT_EQ(json::parse(*s.handle(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])"))["error"]["code"], -32600);
    EXPECT_EQ(call(s,
                   {
                       {"jsonrpc", "2.0"           },
                       {"id",      "a"             },
                       {"method",  "resources/list"}
    })["error"]["code"],
              -32601);
    EXPECT_EQ(call(s,
                   {
                       {"jsonrpc", "2.0" },
                       {"id",      2     },
                       {"method",  "ping"}
    })["result"],
              json::object());
    EXPECT_EQ(call(s,
                   {
                       {"jsonrpc", "2.0" },
                       {"id",      3.5   },
                       {"method",  "ping"}
    })["error"]["code"],
              -32600);
    // A response from the client to a request of ours (we send none) is not answered.
    EXPECT_FALSE(s.handle(R"({"jsonrpc":"2.0","id":7,"result":{}})").has_value());
    const auto unknown =
        call(s, {
                    {"jsonrpc", "2.0"              },
                    {"id",      4                  },
                    {"method",  "tools/call"       },
                    {"params",  {{"name", "train"}}}
    });
    EXPECT_EQ(unknown["error"]["code"], -32602);
    EXPECT_NE(unknown["error"]["message"].get<std::string>().find("train"), std::string::npos);
}

TEST(mcp, each_tool_schema_is_the_option_table) {
    for (const command_kind c : all_commands) {
        const auto schema   = tool_input_schema(c);
        std::size_t options = 0;
        for (const auto& o : option_table())
            if (applies_to(o, c) && o.id != option_id::log_name) ++options;
        // One property per option of the command (a name has one row per command).
        EXPECT_EQ(schema["properties"].size(), options) << command_name(c);
        EXPECT_FALSE(schema["additionalProperties"].get<bool>());
    }
    const auto e = tool_input_schema(command_kind::estimate);
    EXPECT_EQ(e["required"], json::array({"model"}));
    EXPECT_EQ(e["properties"]["kv_type"]["type"], "string");
    EXPECT_EQ(e["properties"]["flash_attn"]["enum"], json::array({"on", "off"}));
    EXPECT_EQ(e["properties"]["batch"]["minimum"], 1);
    EXPECT_EQ(e["properties"]["offline"]["type"], "boolean");
    EXPECT_EQ(tool_input_schema(command_kind::check)["required"], json::array({"log"}));
    EXPECT_FALSE(tool_input_schema(command_kind::models).contains("required"));
}

TEST(mcp, a_call_is_the_front_doors_answer) {
    mcp_session s(offline());
    const auto r =
        call(s, {
                    {"jsonrpc", "2.0"                                                                           },
                    {"id",      5                                                                               },
                    {"method",  "tools/call"                                                                    },
                    {"params",
                     {{"name", "estimate"},
                      {"arguments", {{"model", "Qwen/Qwen2.5-7B-Instruct"}, {"ctx", 8192}, {"engine", "vllm"}}}}}
    });
    ASSERT_EQ(r["result"]["isError"], false) << r.dump();
    const auto want =
        answer("estimate", {
                               {"model",  "Qwen/Qwen2.5-7B-Instruct"},
                               {"ctx",    "8192"                    },
                               {"engine", "vllm"                    }
    });
    ASSERT_EQ(want.status, 200);
    EXPECT_EQ(r["result"]["structuredContent"], json::parse(want.body));
    EXPECT_EQ(r["result"]["content"][0]["text"], want.body);
}

TEST(mcp, bad_arguments_are_tool_errors_naming_the_option) {
    mcp_session s(offline());
    auto tool_error = [&](const json& args) {
        const auto r = call(s, {
                                   {"jsonrpc", "2.0"                                      },
                                   {"id",      6                                          },
                                   {"method",  "tools/call"                               },
                                   {"params",  {{"name", "estimate"}, {"arguments", args}}}
        });
        EXPECT_EQ(r["result"]["isError"], true) << args.dump();
        return r["result"]["content"][0]["text"].get<std::string>();
    };
    EXPECT_NE(tool_error({
                             {"model", "qwen2.5-7b"},
                             {"ctx",   "many"      }
    })
                  .find("--ctx"),
              std::string::npos);
    EXPECT_NE(tool_error({
                             {"model", "qwen2.5-7b"},
                             {"ctx",   1e300       }
    })
                  .find("--ctx"),
              std::string::npos);
    EXPECT_NE(tool_error({
                             {"model",  "qwen2.5-7b"},
                             {"contxt", 4096        }
    })
                  .find("'contxt'"),
              std::string::npos);
    EXPECT_NE(tool_error({
                             {"model", "qwen2.5-7b"},
                             {"ctx",   {1, 2}      }
    })
                  .find("'ctx' is a list"),
              std::string::npos);
    EXPECT_NE(tool_error({
                             {"model", "qwen2.5-7b"},
                             {"ctx",   {{"a", 1}}  }
    })
                  .find("'ctx'"),
              std::string::npos);
    EXPECT_NE(tool_error(json::array()).find("arguments must be an object"), std::string::npos);
}

} // namespace
