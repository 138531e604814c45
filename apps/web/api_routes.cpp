// The API of `llmplan serve`: checks that no request names a file, then asks the library.
#include "api_routes.h"

#include "answer_cache.h"
#include "llmplan/llmplan.h"
#include "my_machine.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace llmplan::web {
namespace {

// The library's commands (the CLI's), and the two the page's charts and "why" panel add.
constexpr std::array<std::string_view, 8> commands{"inspect", "estimate", "plan",  "fit",
                                                   "models",  "hardware", "sweep", "why"};
// Commands a POSTed model (a config.json or a GGUF header as the body) can answer.
constexpr std::array<std::string_view, 5> upload_commands{"inspect", "estimate", "plan", "sweep", "why"};
// Options whose value is a model: over the API a catalog id only, never a path or a download.
constexpr std::array<std::string_view, 3> model_options{"model", "from", "draft"};
// Options that name a file on the server's disk: refused over the API. So is `probe` (hardware): it
// would make the server measure its memory bandwidth (a second of work) and write its cache file.
constexpr std::array<std::string_view, 2> file_options{"hardware-file", "mmproj"};
// Options of the request itself (the uploaded file's name and size), not of the command.
constexpr std::array<std::string_view, 2> upload_options{"file-name", "file-size"};

template <std::size_t N> bool in(const std::array<std::string_view, N>& a, std::string_view s) {
    return std::find(a.begin(), a.end(), s) != a.end();
}

// Refuses what would make the server read a file, or the network unless the Hub is enabled; nullopt
// when the query is fine. With the Hub, a MODEL outside the catalog goes to the library, which
// refuses a path (request.cpp, looks_like_path) and reads a Hub name.
std::optional<std::string> refuse(const query& q, bool uploaded, const api_policy& policy) {
    for (const auto& [k, v] : q) {
        if (k == "probe")
            return std::string("probe: measures the server's memory bandwidth; run `llmplan hardware --probe` on it");
        if (in(file_options, k))
            return fmt::format("{}: names a file on the server; the API never reads a file-system path", k);
        if (in(upload_options, k) && !uploaded) return fmt::format("{}: only with a POSTed model", k);
        if (!in(model_options, k)) continue;
        if (uploaded && k == "model") return std::string("model: not with a POSTed model (the body is the model)");
        if (!policy.hub && !find_in_catalog(v))
            return fmt::format("{}: \"{}\"; expected a catalog id (see /api/models), or a Hub name when the server "
                               "runs with --hub; the API never reads a file-system path",
                               k, v);
    }
    return std::nullopt;
}

api_reply from(api_response r) {
    return {r.status, std::move(r.body)};
}

// The library's sources for a request: never a path; the network only with --hub.
load_options sources(const api_policy& policy) {
    load_options o = api_sources();
    o.offline      = !policy.hub;
    o.progress     = false;
    return o;
}

api_reply ask(std::string_view command, const query& q, const load_options& o) {
    if (command == "sweep") return from(sweep(q, o));
    if (command == "why") return from(why(q, o));
    return from(answer(command, q, o));
}

// The described machine's row, in a file of its own for the length of one request (the library reads
// machines a person adds from a file, as --hardware-file); removed when the request ends.
class machine_file {
  public:
    explicit machine_file(const std::string& csv) {
        std::error_code ec;
        const auto dir = std::filesystem::temp_directory_path(ec);
        if (ec) return;
        std::string name = (dir / "llmplan-machine-XXXXXX").string();
        const int fd     = mkstemp(name.data());
        if (fd < 0) return;
        const bool written = ::write(fd, csv.data(), csv.size()) == static_cast<ssize_t>(csv.size());
        ::close(fd);
        if (written)
            path_ = name;
        else
            std::remove(name.c_str());
    }
    machine_file(const machine_file&)            = delete;
    machine_file& operator=(const machine_file&) = delete;
    ~machine_file() {
        if (!path_.empty()) std::remove(path_.c_str());
    }
    [[nodiscard]] const std::string& path() const { return path_; }

  private:
    std::string path_;
};

// `plan` (or `fit`) for a machine the page describes (my_machine.h): its row joins the catalog. The
// library reads that one file the server wrote; the models are still catalog ids or uploaded bytes.
api_reply ask_described(std::string_view command, query q, load_options o, const described_machine& m) {
    if (command != "plan" && command != "fit")
        return {400, error_body("my-ram-gb, my-gpu, my-chip: a described machine is answered by plan and fit")};
    for (const auto& [k, v] : q)
        if (in(model_options, k) && !find_in_catalog(v) && !(k == "model" && o.uploaded))
            return {400, error_body(fmt::format("{}: \"{}\"; a described machine is answered for catalog models "
                                                "and uploaded files",
                                                k, v))};
    const machine_file file(m.csv);
    if (file.path().empty()) return {500, error_body("could not write the described machine's row")};
    q.emplace_back("hardware-file", file.path());
    o.allow_paths = true;
    return ask(command, q, o);
}

// The page's described machine taken out of the query, then the library's answer.
api_reply ask_any(std::string_view command, query q, const load_options& o) {
    auto described = take_described_machine(q);
    if (auto* e = std::get_if<std::string>(&described)) return {400, error_body(*e)};
    if (auto* m = std::get_if<described_machine>(&described)) return ask_described(command, std::move(q), o, *m);
    return ask(command, q, o);
}

// The uploaded file's name for messages and launch lines: its last path component, printable ASCII.
std::string clean_name(std::string_view name) {
    if (const auto slash = name.find_last_of("/\\"); slash != std::string_view::npos) name.remove_prefix(slash + 1);
    std::string out;
    for (const char c : name)
        if (c > ' ' && c < 127 && c != '"') out += c;
    return out.empty() ? std::string("upload") : out.substr(0, 200);
}

// The commands with a model held in memory: MODEL names the file (for messages); load_model returns
// the uploaded description (load.h, load_options::uploaded) without reading anything.
api_reply ask_with_model(std::string_view command, query q, const std::string& name, const model_desc& m,
                         const api_policy& policy) {
    q.emplace_back("model", name);
    load_options uploaded = sources(policy);
    uploaded.uploaded     = &m;
    return ask_any(command, std::move(q), uploaded);
}

} // namespace

std::string error_body(std::string_view message) {
    return nlohmann::json{
        {"error", message}
    }
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool is_api_command(std::string_view command) {
    return in(commands, command);
}

api_reply answer_get(std::string_view command, const query& q, const api_policy& policy) {
    if (auto why_not = refuse(q, false, policy)) return {400, error_body(*why_not)};
    // With --hub an answer may read the network, which may change: only catalog answers are kept.
    if (policy.hub) return ask_any(command, q, sources(policy));
    return cached_answer(command, q, [&] { return ask_any(command, q, sources(policy)); });
}

api_reply answer_post(std::string_view command, const query& q, std::string_view body, const api_policy& policy) {
    if (!in(upload_commands, command))
        return {400, error_body(fmt::format("POST /api/{}: a model body is taken by inspect, estimate, plan, sweep "
                                            "and why",
                                            command))};
    if (auto why_not = refuse(q, true, policy)) return {400, error_body(*why_not)};
    std::string name        = "upload";
    std::uint64_t file_size = 0;
    query rest;
    for (const auto& [k, v] : q) {
        if (k == "file-name")
            name = clean_name(v);
        else if (k == "file-size") {
            const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), file_size);
            if (ec != std::errc{} || p != v.data() + v.size())
                return {400, error_body(fmt::format("file-size: \"{}\"; expected a number of bytes", v))};
        } else
            rest.emplace_back(k, v);
    }
    auto m = load_model_bytes(body, name, file_size);
    if (!m) return {400, error_body(m.error().what())};
    return ask_with_model(command, std::move(rest), name, *m, policy);
}

} // namespace llmplan::web
