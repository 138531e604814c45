// llmplan check LOGFILE|- [--model MODEL] [--weights TYPE] [--json]: an engine's log beside llmplan's estimate.
#include "commands.h"
#include "llmplan/check.h"
#include "llmplan/load.h"

#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>

namespace llmplan::cli {
namespace {

constexpr std::size_t max_log_bytes = 64ull << 20; // a start-up log is kilobytes; refuse what cannot be one

std::string read_log(const std::string& path) {
    std::string text;
    auto slurp = [&](std::istream& in) {
        char buf[65536];
        while (in.read(buf, sizeof buf) || in.gcount() > 0) {
            text.append(buf, static_cast<std::size_t>(in.gcount()));
            if (text.size() > max_log_bytes)
                fail(fmt::format("{}: more than {} MiB; expected an engine's start-up log", path, max_log_bytes >> 20));
        }
    };
    if (path == "-") {
        slurp(std::cin);
        return text;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) fail(fmt::format("{}: cannot open the log file", path));
    slurp(in);
    return text;
}

} // namespace

void add_check_command(CLI::App& app) {
    struct options {
        std::string log, model, weights;
        bool json = false;
    };
    auto opt  = std::make_shared<options>();
    auto* cmd = app.add_subcommand("check", "Read an engine's log (llama.cpp, vLLM, transformers) and set llmplan's "
                                            "estimate beside the engine's own figures, part by part");
    cmd->add_option("LOGFILE", opt->log, "the log, or - for standard input")->required();
    cmd->add_option("--model", opt->model, "the model, when the log does not name one llmplan knows");
    cmd->add_option("--weights", opt->weights, "the weights type, when the log's file type is not a standard one");
    cmd->add_flag("--json", opt->json, "print JSON");
    cmd->callback([opt] {
        const std::string text = read_log(opt->log);
        auto facts             = parse_engine_log(text, opt->log == "-" ? "stdin" : opt->log);
        if (!facts) fail(facts.error());
        auto m = opt->model.empty() ? model_from_log(*facts) : load_model(opt->model);
        if (!m) fail(m.error());
        if (!opt->weights.empty()) {
            auto w = parse_weight_choice(opt->weights);
            if (!w) fail(w.error());
            if (w->format == weight_format::gguf) facts->gguf_ftype = w->gguf_ftype;
        }
        auto r = check_against_log(*facts, *m);
        if (!r) fail(r.error());
        if (opt->json)
            print_json(check_to_json(*m, *r));
        else
            std::fputs(check_to_text(*m, *r).c_str(), stdout);
    });
}

} // namespace llmplan::cli
