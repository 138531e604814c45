// llmplan's public API in one include: what a front end (the CLI, the web page, a Python module)
// needs to ask a question and print the answer. Everything a front end calls is here:
//   - options.h:   the one table of options (names, value sets, defaults, help) to build a parser/form
//   - request.h:   name/value pairs -> a validated request, one value type per question
//   - document.h:  run(request) -> a document of typed values; to_json / to_text render it
//   - api.h:       answer(command, options) -> the contract's JSON in one call (what the web API serves)
//   - sweep.h:     the page's charts and its "why" panel
//   - check.h:     `llmplan check`: does a setup of the user's own fit, and what to change
//   - load_bytes.h: a model sent as bytes (a dropped config.json or GGUF header) instead of a name
// The other headers under include/llmplan are the types those documents carry (model_desc,
// estimate, plan, hardware ...); front ends read them but need not include them one by one.
#pragma once

#include "llmplan/api.h"
#include "llmplan/check.h"
#include "llmplan/document.h"
#include "llmplan/error.h"
#include "llmplan/load.h"
#include "llmplan/load_bytes.h"
#include "llmplan/mcp.h"
#include "llmplan/options.h"
#include "llmplan/request.h"
#include "llmplan/sweep.h"
