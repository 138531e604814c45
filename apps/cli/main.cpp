// llmplan: what it takes to run or train a language model. Thin front end: argv -> request ->
// document -> print. The parser is built from the library's option table (options.h); parsing the
// values, defaults, validation, the work and the rendering are the library's (request.h, document.h).
#include "llmplan/llmplan.h"
#include "mcp_command.h"
#include "serve.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <exception>
#include <list>
#include <string>
#include <vector>

namespace {

using namespace llmplan;

/// Exit status for errors the user can fix (bad input, unreadable model): ../shared/cli-contract.md.
constexpr int exit_user_error = 2;

/// CLI11's parse errors in a person's words (one line, naming the option or argument): the parser is this
/// front end's, so its messages are reworded here; every other message is the library's.
std::string parse_error_words(const CLI::ParseError& e, const CLI::App& app) {
    const std::string what = e.what();
    const int code         = e.get_exit_code(); // the kind (a subcommand's errors carry its name, not the kind's)
    auto starts            = [&](const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; };
    if (code == static_cast<int>(CLI::ExitCodes::ArgumentMismatch)) {
        // "--ctx: At Most 1 required but received 2", "--ctx: 1 required TEXT missing"
        const auto colon      = what.find(':');
        const std::string opt = colon == std::string::npos ? std::string() : what.substr(0, colon);
        if (what.find("At Most") != std::string::npos) return opt + ": given more than once; expected it once";
        if (what.find("missing") != std::string::npos) return opt + ": expected a value after it";
        return what;
    }
    if (code == static_cast<int>(CLI::ExitCodes::ExtrasError)) {
        // "The following argument was not expected: --foo" (or "arguments were ...: a b")
        const auto colon         = what.find(": ");
        const std::string extras = colon == std::string::npos ? what : what.substr(colon + 2);
        // Of several, an unknown option is the likelier cause of the others (its value left over).
        std::string first, option;
        for (std::size_t at = 0; at < extras.size();) {
            const auto end         = std::min(extras.find(' ', at), extras.size());
            const std::string word = extras.substr(at, end - at);
            if (first.empty()) first = word;
            if (option.empty() && starts(word, "-")) option = word;
            at = end + 1;
        }
        std::string command = "llmplan";
        for (const auto* sub : app.get_subcommands())
            if (sub->parsed()) command += " " + sub->get_name();
        if (!option.empty()) return option + ": not an option here; `" + command + " --help` lists them";
        return first + ": one argument too many (a value goes after its option, e.g. --ctx 8192)";
    }
    if (code == static_cast<int>(CLI::ExitCodes::RequiredError)) {
        if (starts(what, "A subcommand"))
            return "expected a command, e.g. estimate or plan; `llmplan --help` lists them";
        if (starts(what, "MODEL"))
            return "expected a model: a Hub id (Qwen/Qwen2.5-7B), a catalog name, a folder or a file";
    }
    return what;
}

/// One subcommand's parser: each table option bound to a string (or a list of them).
struct command_parser {
    command_kind kind{};
    CLI::App* app = nullptr;
    struct bound {
        const option_spec* spec = nullptr;
        CLI::Option* option     = nullptr;
        std::vector<std::string> values; ///< list options and flags collect here
        std::string value;
    };
    std::list<bound> options; ///< stable addresses: CLI11 writes into them
    bool json = false;
    // `hardware list [WORDS...]` and `hardware show NAME`
    CLI::App *list = nullptr, *show = nullptr;
    std::vector<std::string> list_words;
    std::string show_name;
};

std::string help_of(const option_spec& o) {
    std::string h(o.help);
    if (o.kind == value_kind::choice) h += ": " + std::string(o.values);
    if (!o.default_text.empty()) h += " [" + std::string(o.default_text) + "]";
    return h;
}

std::string positional_label(const option_spec& o) {
    std::string s(o.name);
    for (auto& c : s)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

/// Bind the table's options of `p.kind` to `p.app`: those of every command on the top-level app
/// only (`global`), where CLI11's fallthrough finds them before or after the subcommand.
void bind_options(command_parser& p, bool global) {
    for (const auto& o : option_table()) {
        if (!applies_to(o, p.kind) || (o.commands == every_command) != global) continue;
        auto& b           = p.options.emplace_back();
        b.spec            = &o;
        const bool is_pos = (o.positional & command_bit(p.kind)) != 0;
        const auto name   = is_pos ? positional_label(o) : "--" + std::string(o.name);
        if (o.kind == value_kind::flag)
            b.option = p.app->add_flag(name)->description(help_of(o));
        else if (o.kind == value_kind::list)
            b.option = p.app->add_option(name, b.values, help_of(o))->delimiter(',');
        else
            b.option = p.app->add_option(name, b.value, help_of(o));
        if (is_pos && (o.id == option_id::model || o.id == option_id::log)) b.option->required();
    }
}

void add_command(CLI::App& app, command_parser& p) {
    p.app = app.add_subcommand(std::string(command_name(p.kind)), std::string(command_help(p.kind)));
    bind_options(p, false);
    p.app->add_flag("--json", p.json, "print JSON: every figure, for scripts");
    if (p.kind != command_kind::hardware) return;
    p.app->require_subcommand(0, 1);
    p.list = p.app->add_subcommand("list", "List the catalog (GPUs, CPUs, machines, cloud instances)");
    p.list->add_option("FILTER", p.list_words, "words every listed name must contain (e.g. h100, aws, apple)");
    p.list->add_flag("--json", p.json, "print JSON");
    p.show = p.app->add_subcommand("show", "One catalog row by name, with its sources");
    p.show->add_option("NAME", p.show_name, "hardware name, e.g. 'H100 SXM 80GB', rtx-4090, g5.xlarge")->required();
    p.show->add_flag("--json", p.json, "print JSON");
    for (auto* sub : {p.list, p.show})
        for (auto& b : p.options)
            if (b.spec->id == option_id::hardware_file) sub->add_option("--hardware-file", b.value, help_of(*b.spec));
}

/// The options the user gave, as the name/value pairs the library parses (the web API's form too).
option_values given(const command_parser& p) {
    option_values out;
    for (const auto& b : p.options) {
        if (b.spec->kind == value_kind::flag) {
            if (b.option->count() > 0) out.emplace_back(b.spec->name, "1");
        } else if (b.spec->kind == value_kind::list) {
            for (const auto& v : b.values)
                out.emplace_back(b.spec->name, v);
        } else if (b.option->count() > 0 || !b.value.empty()) {
            out.emplace_back(b.spec->name, b.value);
        }
    }
    if (p.list && p.list->parsed()) {
        out.emplace_back("list", "1");
        for (const auto& w : p.list_words)
            out.emplace_back("filter", w);
    }
    if (p.show && p.show->parsed()) out.emplace_back("name", p.show_name);
    return out;
}

/// `check LOG`: the library reads no file for it; hand it the log's bytes (at most max_log_bytes + 1,
/// so that a larger one is refused without being held) and the file's name for its messages.
void read_log(option_values& options) {
    for (auto& [name, value] : options) {
        if (name != "log") continue;
        const std::string path = value;
        std::FILE* f           = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
        if (f == nullptr) throw std::invalid_argument(path + ": cannot open the log file");
        std::string text;
        char buf[65536];
        std::size_t n = 0;
        while (text.size() <= max_log_bytes && (n = std::fread(buf, 1, sizeof buf, f)) > 0)
            text.append(buf, n);
        const bool failed = std::ferror(f) != 0;
        if (f != stdin) std::fclose(f);
        if (failed) throw std::invalid_argument(path + ": cannot read the log file");
        value = std::move(text);
        options.insert(options.begin(), {"log-name", path == "-" ? std::string("stdin") : path});
        return;
    }
}

int run_command(const command_parser& p, const command_parser& global) {
    auto options = given(global);
    for (auto& o : given(p))
        options.push_back(std::move(o));
    if (p.kind == command_kind::check) read_log(options);
    auto r = parse_request(p.kind, options);
    if (!r) throw std::invalid_argument(r.error().what());
    auto d = run(*r);
    if (!d) throw std::invalid_argument(d.error().what());
    const std::string out = p.json ? to_json(*d) : to_text(*d);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"llmplan: disk, memory, hardware, speed and cost to run or train a language model"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "llmplan 0.1.0");
    app.fallthrough();
    command_parser global;
    global.app = &app;
    bind_options(global, true);
    std::list<command_parser> commands;
    for (const command_kind c : all_commands) {
        auto& p = commands.emplace_back();
        p.kind  = c;
        add_command(app, p);
    }
    llmplan::web::add_serve_command(app); // apps/web: runs the server from its callback
    llmplan::cli::add_mcp_command(app);   // the MCP server on stdio, from its callback
    try {
        app.parse(argc, argv);
        for (const auto& p : commands)
            if (p.app->parsed()) return run_command(p, global);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // One line on stderr naming what was wrong; nothing on stdout (cli-contract.md).
        std::fprintf(stderr, "llmplan: %s\n", parse_error_words(e, app).c_str());
        return exit_user_error;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "llmplan: %s\n", e.what());
        return exit_user_error;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "llmplan: internal error: %s\n", e.what());
        return 3;
    }
    return 0;
}
