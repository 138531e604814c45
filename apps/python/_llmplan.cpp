// The Python module's native part: the library's front door (api.h) and its option table, nothing
// else. llmplan/__init__.py turns keyword arguments into the option pairs and the JSON answer into
// dicts, so that Python, the CLI's --json and the web API give the same document.
#include "llmplan/api.h"
#include "llmplan/options.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace {

std::string_view kind_name(llmplan::value_kind k) {
    using llmplan::value_kind;
    switch (k) {
    case value_kind::flag:
        return "flag";
    case value_kind::text:
        return "text";
    case value_kind::choice:
        return "choice";
    case value_kind::uint:
        return "uint";
    case value_kind::sint:
        return "sint";
    case value_kind::number:
        return "number";
    case value_kind::size:
        return "size";
    case value_kind::count:
        return "count";
    case value_kind::list:
        return "list";
    case value_kind::positive:
        return "positive";
    }
    return "text";
}

py::list option_rows() {
    py::list rows;
    for (const auto& o : llmplan::option_table()) {
        py::list commands, positional;
        for (const auto c : llmplan::all_commands) {
            if (llmplan::applies_to(o, c)) commands.append(std::string(llmplan::command_name(c)));
            if ((o.positional & llmplan::command_bit(c)) != 0) positional.append(std::string(llmplan::command_name(c)));
        }
        py::dict row;
        row["name"]       = std::string(o.name);
        row["kind"]       = std::string(kind_name(o.kind));
        row["values"]     = std::string(o.values);
        row["default"]    = std::string(o.default_text);
        row["help"]       = std::string(o.help);
        row["commands"]   = commands;
        row["positional"] = positional;
        rows.append(row);
    }
    return rows;
}

py::list command_rows() {
    py::list rows;
    for (const auto c : llmplan::all_commands)
        rows.append(py::make_tuple(std::string(llmplan::command_name(c)), std::string(llmplan::command_help(c))));
    return rows;
}

} // namespace

PYBIND11_MODULE(_llmplan, m) {
    m.doc() = "llmplan's native library: answer(command, options) and the option table";
    m.def(
        "answer",
        [](const std::string& command, const std::vector<std::pair<std::string, std::string>>& options) {
            llmplan::load_options sources; // paths allowed: the module runs as the user who calls it
            sources.progress = false;
            llmplan::api_response r;
            {
                py::gil_scoped_release unlocked; // a Hub read may wait on the network
                r = llmplan::answer(command, options, sources);
            }
            return py::make_tuple(r.status, py::bytes(r.body));
        },
        py::arg("command"), py::arg("options"),
        "(status, body): 200 and the --json document, or 400 and {\"error\": message}");
    m.def("option_table", &option_rows, "every option: name, kind, values, default, help, commands, positional");
    m.def("commands", &command_rows, "(name, help) of each command");
}
