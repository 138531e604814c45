// The front door: one call that answers a question the way `llmplan <command> ... --json` does.
// The web API (`llmplan serve`) serves what this returns; a Python module can call it too.
#pragma once

#include "llmplan/load.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmplan {

struct api_response {
    int status = 200; ///< 200: the contract JSON; 400: {"error": "<the CLI's one-line message>"}; 500: a bug
    std::string body; ///< 200: byte-identical to `llmplan <command> MODEL <options> --json` (ends in "\n")
};

/// command: inspect|estimate|plan|fit|models|hardware|check (check's "log" is the log's text). options: CLI option
/// names without dashes
/// ("ctx", "engine", "gpu-memory-utilization", flags as "offline"="1") plus "model" (and "filter" for
/// models and hardware, "name" for fit/hardware, "list"="1" for `hardware list`). MODEL is never
/// read as a file-system path here, and --hardware-file is refused: a caller over the network
/// names catalog ids and hub repos only.
api_response answer(std::string_view command, const std::vector<std::pair<std::string, std::string>>& options);

/// The same with paths allowed or not (the CLI allows them: it runs as the user who typed them).
api_response answer(std::string_view command, const std::vector<std::pair<std::string, std::string>>& options,
                    const load_options& sources);

} // namespace llmplan
