// answer(): parse -> run -> JSON, with the CLI's messages as errors.
#include "llmplan/api.h"

#include "llmplan/document.h"

#include <exception>
#include <nlohmann/json.hpp>

namespace llmplan {
namespace {

api_response failure(int status, const std::string& message) {
    // A message may quote what was typed, which need not be UTF-8 (an option name from a query string):
    // invalid bytes become U+FFFD rather than an exception.
    return {status,
            nlohmann::json{{"error", message}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"};
}

} // namespace

api_response answer(std::string_view command, const std::vector<std::pair<std::string, std::string>>& options,
                    const load_options& sources) {
    command_kind c{};
    if (!command_from_name(command, c))
        return failure(400, std::string(command) + ": unknown command; expected inspect, models, estimate, plan, fit, "
                                                   "hardware or check");
    try {
        auto r = parse_request(c, options, sources);
        if (!r) return failure(400, r.error().what());
        auto d = run(*r);
        if (!d) return failure(400, d.error().what());
        return {200, to_json(*d)};
    } catch (const std::exception& e) {
        return failure(500, std::string("internal error: ") + e.what());
    }
}

api_response answer(std::string_view command, const std::vector<std::pair<std::string, std::string>>& options) {
    load_options sources;
    sources.allow_paths = false;
    return answer(command, options, sources);
}

} // namespace llmplan
