// What the Hub and ModelScope answer: model info, tree pages, Link headers, file listings, error
// answers (hub-api.md §1, §2, §7). Every parser bounds what it keeps and never throws.
#include "model/hub/hub.h"
#include "model/safetensors_detail.h"

#include <charconv>
#include <fmt/format.h>

namespace llmplan::hub {
namespace {

using json = nlohmann::ordered_json;

/// A non-negative integer JSON number (sizes, counts).
std::optional<std::uint64_t> as_size(const json& v) {
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    if (v.is_number_integer() && v.get<std::int64_t>() >= 0) return static_cast<std::uint64_t>(v.get<std::int64_t>());
    return std::nullopt;
}

std::optional<std::uint64_t> parse_u64(std::string_view s) {
    std::uint64_t v = 0;
    const auto* end = s.data() + s.size();
    auto [p, ec]    = std::from_chars(s.data(), end, v);
    if (ec != std::errc() || p != end || s.empty()) return std::nullopt;
    return v;
}

std::string trim_view(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return std::string(s);
}

std::string label_of(const request_what& w) {
    std::string s = w.repo;
    if (!w.revision.empty()) s += "@" + w.revision;
    if (!w.file.empty()) s += "/" + w.file;
    return s;
}

/// The server's own words: X-Error-Message, else the JSON body's "error" (hub-api.md §2).
std::string server_message(const http_response& r) {
    if (const auto* m = r.header("x-error-message")) return detail::printable(*m, 200);
    auto doc = json::parse(r.body.substr(0, 4096), nullptr, false);
    if (doc.is_object()) {
        const auto e = doc.find("error");
        if (e != doc.end() && e->is_string()) return detail::printable(e->get<std::string>(), 200);
    }
    return {};
}

/// Field names of one listing's entries: the Hub's tree ("type", "path", "size"; files are
/// "file") or ModelScope's ("Type", "Path", "Size"; files are "blob").
struct entry_keys {
    const char *type, *path, *size, *file;
};

/// One listing entry: a file (path checked, size read), nullopt for a folder, or an error at `at`.
result<std::optional<repo_file>> file_entry(const json& e, const entry_keys& k, const std::string& at) {
    if (!e.is_object()) return make_error(error_code::bad_value, "listing entry is not an object", at);
    const auto type = e.find(k.type);
    const auto path = e.find(k.path);
    if (type == e.end() || !type->is_string() || path == e.end() || !path->is_string())
        return make_error(error_code::missing_field,
                          fmt::format("entry without \"{}\" and \"{}\" strings", k.type, k.path), at);
    if (type->get_ref<const std::string&>() != k.file) return std::optional<repo_file>();
    const auto& p = path->get_ref<const std::string&>();
    if (!safe_repo_path(p))
        return make_error(error_code::bad_value,
                          fmt::format("path \"{}\" is not a relative path inside the repo", detail::printable(p)), at);
    std::optional<std::uint64_t> size;
    if (const auto s = e.find(k.size); s != e.end()) size = as_size(*s);
    // Hub tree entries of LFS files carry the file's size in lfs.size too (hub-api.md §1.3).
    if (const auto lfs = e.find("lfs"); lfs != e.end() && lfs->is_object())
        if (const auto s = lfs->find("size"); s != lfs->end() && as_size(*s)) size = as_size(*s);
    if (!size)
        return make_error(error_code::missing_field, fmt::format("entry without a non-negative \"{}\"", k.size), at);
    return std::optional<repo_file>(repo_file{p, *size});
}

/// The Hub's JSON answer `text`, which must be an object (or an array with `array`); `what` names it.
result<json> parse_answer(std::string_view text, std::string_view label, std::string_view what, bool array) {
    auto doc = detail::parse_json_strict(text, label, 0);
    if (!doc) return doc.error();
    if (array ? !doc->is_array() : !doc->is_object())
        return make_error(
            error_code::bad_value,
            fmt::format("{} is a JSON {}; expected an {}", what, doc->type_name(), array ? "array" : "object"),
            std::string(label));
    return doc;
}

} // namespace

result<model_info> parse_model_info(std::string_view text, std::string_view label) {
    auto doc = parse_answer(text, label, "model info", false);
    if (!doc) return doc.error();
    model_info out;
    const json& root = *doc;
    if (const auto sha = root.find("sha"); sha != root.end() && sha->is_string()) out.sha = sha->get<std::string>();
    if (const auto g = root.find("gated"); g != root.end()) {
        if (g->is_string())
            out.gated = detail::printable(g->get<std::string>(), 32);
        else if (g->is_boolean() && g->get<bool>())
            out.gated = "true";
    }
    if (const auto st = root.find("safetensors"); st != root.end() && st->is_object())
        if (const auto t = st->find("total"); t != st->end()) out.safetensors_total = as_size(*t).value_or(0);
    return out;
}

result<std::vector<repo_file>> parse_tree_page(std::string_view text, std::string_view label) {
    auto doc = parse_answer(text, label, "tree listing", true);
    if (!doc) return doc.error();
    std::vector<repo_file> out;
    std::size_t i = 0;
    for (const auto& e : *doc) {
        auto f = file_entry(e, {"type", "path", "size", "file"}, fmt::format("{}:/{}", label, i++));
        if (!f) return f.error();
        if (*f) out.push_back(std::move(**f));
    }
    return out;
}

std::string link_next(std::string_view link) {
    // RFC 8288: "<url>; rel=\"next\", <url2>; rel=\"prev\"" (hub-api.md §1.3)
    while (!link.empty()) {
        const auto open  = link.find('<');
        const auto close = link.find('>', open == std::string_view::npos ? 0 : open);
        if (open == std::string_view::npos || close == std::string_view::npos) return {};
        const std::string_view url    = link.substr(open + 1, close - open - 1);
        auto params_end               = link.find('<', close);
        const std::string_view params = link.substr(
            close + 1, params_end == std::string_view::npos ? std::string_view::npos : params_end - close - 1);
        if (params.find("rel=\"next\"") != std::string_view::npos || params.find("rel=next") != std::string_view::npos)
            return std::string(url);
        if (params_end == std::string_view::npos) break;
        link.remove_prefix(params_end);
    }
    return {};
}

result<std::vector<repo_file>> parse_ms_files(std::string_view text, std::string_view label) {
    auto doc = detail::parse_json_strict(text, label, 0);
    if (!doc) return doc.error();
    const json& root = *doc;
    if (!root.is_object())
        return make_error(error_code::bad_value, "file listing is not a JSON object", std::string(label));
    // Success is Code == 200 in the body (modelscope hub/errors.py raise_on_error).
    const auto code = root.find("Code");
    if (code == root.end() || as_size(*code) != std::uint64_t{200}) {
        std::string msg;
        if (const auto m = root.find("Message"); m != root.end() && m->is_string())
            msg = detail::printable(m->get<std::string>(), 200);
        return make_error(error_code::file_not_found,
                          fmt::format("ModelScope answered: {}", msg.empty() ? "no Code 200" : msg),
                          std::string(label));
    }
    const auto data = root.find("Data");
    if (data == root.end() || !data->is_object() || !data->contains("Files") || !(*data)["Files"].is_array())
        return make_error(error_code::missing_field, "no Data.Files array", std::string(label));
    std::vector<repo_file> out;
    std::size_t i = 0;
    for (const auto& e : (*data)["Files"]) {
        auto f = file_entry(e, {"Type", "Path", "Size", "blob"}, fmt::format("{}:/Data/Files/{}", label, i++));
        if (!f) return f.error();
        if (*f) out.push_back(std::move(**f));
    }
    return out;
}

std::string parse_ms_head_commit(std::string_view text) {
    const auto parsed = detail::parse_json_strict(text, "ModelScope commits", 0); // depth-bounded
    if (!parsed || !parsed->is_object()) return {};
    const json& doc = *parsed;
    const auto code = doc.find("Code");
    if (code == doc.end() || as_size(*code) != std::uint64_t{200}) return {};
    const auto data = doc.find("Data");
    if (data == doc.end() || !data->is_object()) return {};
    const auto commits = data->find("Commit");
    if (commits == data->end() || !commits->is_array() || commits->empty() || !(*commits)[0].is_object()) return {};
    const auto id = (*commits)[0].find("Id");
    if (id == (*commits)[0].end() || !id->is_string() || !is_commit(id->get<std::string>())) return {};
    return id->get<std::string>();
}

std::optional<std::uint64_t> content_range_total(std::string_view v, std::uint64_t first) {
    if (!v.starts_with("bytes ")) return std::nullopt;
    v.remove_prefix(6);
    const auto dash = v.find('-'), slash = v.find('/');
    if (dash == std::string_view::npos || slash == std::string_view::npos || dash > slash) return std::nullopt;
    const auto a = parse_u64(v.substr(0, dash)), b = parse_u64(v.substr(dash + 1, slash - dash - 1));
    const auto t = parse_u64(v.substr(slash + 1));
    if (!a || !b || !t || *a != first || *b < *a || *b >= *t) return std::nullopt;
    return t;
}

error hf_error(const http_response& r, const request_what& what, const std::string& endpoint, bool has_token) {
    const std::string code = r.header("x-error-code") ? trim_view(*r.header("x-error-code")) : "";
    const std::string said = server_message(r);
    const std::string page = endpoint + "/" + what.repo;
    const std::string ctx  = "hf:" + label_of(what);
    if (code == "GatedRepo") {
        if (r.status == 403)
            return {error_code::access_denied,
                    fmt::format("gated model: your token has not been granted access; ask for it at {}", page), ctx};
        return {error_code::access_denied,
                fmt::format("gated model: ask for access at {} and set HF_TOKEN to a token of that account", page),
                ctx};
    }
    if (code == "RepoNotFound")
        return {error_code::file_not_found,
                has_token ? fmt::format("no such model on {} (or your token cannot see it)", endpoint)
                          : fmt::format("no such model on {} (a private one needs HF_TOKEN)", endpoint),
                ctx};
    if (code == "RevisionNotFound")
        return {error_code::file_not_found, fmt::format("no revision \"{}\" in {}", what.revision, what.repo), ctx};
    if (code == "EntryNotFound")
        return {error_code::file_not_found, fmt::format("no file \"{}\" at this revision", what.file), ctx};
    if (r.status == 401)
        return {error_code::access_denied,
                has_token
                    ? "the Hub refused the token (HF_TOKEN or the token file): invalid or expired"
                    : fmt::format("authentication required; set HF_TOKEN{}", said.empty() ? "" : " (" + said + ")"),
                ctx};
    if (r.status == 403)
        return {error_code::access_denied, fmt::format("access denied{}", said.empty() ? "" : ": " + said), ctx};
    if (r.status == 404) return {error_code::file_not_found, "not found on the server", ctx};
    if (r.status == 416) return {error_code::bad_value, "the server cannot serve the byte range asked for", ctx};
    if (r.status == 429) return {error_code::rate_limited, "rate limited by the Hub; try again in a few minutes", ctx};
    return {error_code::network,
            fmt::format("the server answered HTTP {}{}", r.status, said.empty() ? "" : " (" + said + ")"), ctx};
}

error ms_error(const http_response& r, const request_what& what) {
    const std::string ctx = "ms:" + label_of(what);
    // modelscope hub/errors.py handle_http_response: 404 no such model, 403 private or not logged in.
    if (r.status == 404)
        return {error_code::file_not_found, what.file.empty() ? "no such model on ModelScope" : "no such file", ctx};
    if (r.status == 401 || r.status == 403)
        return {error_code::access_denied, "private model or not logged in; set MODELSCOPE_API_TOKEN", ctx};
    if (r.status == 429)
        return {error_code::rate_limited, "rate limited by ModelScope; try again in a few minutes", ctx};
    return {error_code::network, fmt::format("ModelScope answered HTTP {}", r.status), ctx};
}

} // namespace llmplan::hub
