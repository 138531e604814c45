// The API of `llmplan serve`: /api/<command>?<options> -> the library's answer, as bytes.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmplan::web {

using query = std::vector<std::pair<std::string, std::string>>;

struct api_reply {
    int status = 200;
    std::string body;
};

/// What the operator allowed when starting the server.
struct api_policy {
    /// MODEL (and `from`) may be a Hub name (hf:ORG/NAME, ms:ORG/NAME, ORG/NAME), read from the Hub
    /// (HF_ENDPOINT) or the local Hub caches; otherwise catalog ids only, and no network at all.
    bool hub = false;
};

/// true for the commands the API answers (inspect estimate plan fit models hardware sweep why).
bool is_api_command(std::string_view command);

/// GET /api/<command>?<query>: the CLI's `--json` bytes, or 400 {"error": ...}.
api_reply answer_get(std::string_view command, const query& q, const api_policy& policy = {});

/// POST /api/<command>?<query> with a config.json or the first bytes of a .gguf as the body
/// (inspect, estimate, plan, sweep, why): parsed in memory; `file-name` and `file-size` in the query
/// name the file and give the whole .gguf's size.
api_reply answer_post(std::string_view command, const query& q, std::string_view body, const api_policy& policy = {});

/// {"error": message} as the API writes it.
std::string error_body(std::string_view message);

} // namespace llmplan::web
