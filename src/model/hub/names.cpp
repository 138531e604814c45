// Hub names (hf:ORG/NAME[@REV][:QUANT], ms:..., bare ORG/NAME) and the environment that
// huggingface_hub and modelscope read (hub-api.md §3, §7).
#include "model/hub/hub.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace llmplan::hub {
namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

std::string trim(std::string s) {
    const auto ws = [](unsigned char c) { return std::isspace(c) != 0; };
    s.erase(s.begin(), std::find_if_not(s.begin(), s.end(), ws));
    s.erase(std::find_if_not(s.rbegin(), s.rend(), ws).base(), s.end());
    return s;
}

/// huggingface_hub's truthy values (constants.py _is_true): 1, ON, YES, TRUE, any case.
bool truthy(std::string v) {
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return v == "1" || v == "ON" || v == "YES" || v == "TRUE";
}

std::string expand_home(std::string p) {
    if (p.starts_with("~/") || p == "~") p = env("HOME") + p.substr(1);
    return p;
}

/// Repo id rules of huggingface_hub utils/_validators.py: 1-96 characters of [A-Za-z0-9._-] per
/// part, ORG/NAME, no "--" or "..", not ending in ".git".
bool valid_repo_id(std::string_view id) {
    const auto slash = id.find('/');
    if (slash == std::string_view::npos || id.find('/', slash + 1) != std::string_view::npos) return false;
    const std::string_view org = id.substr(0, slash), name = id.substr(slash + 1);
    for (auto part : {org, name}) {
        if (part.empty() || part.size() > 96) return false;
        for (char c : part)
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') return false;
    }
    return id.find("--") == std::string_view::npos && id.find("..") == std::string_view::npos && !id.ends_with(".git");
}

} // namespace

bool is_commit(std::string_view rev) {
    return rev.size() == 40 &&
           std::all_of(rev.begin(), rev.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::string url_encode(std::string_view s, bool keep_slash) {
    std::string out;
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || (keep_slash && c == '/'))
            out += static_cast<char>(c);
        else
            out += fmt::format("%{:02X}", c);
    }
    return out;
}

bool safe_repo_path(std::string_view p) {
    if (p.empty() || p.size() > 1024 || p.front() == '/' || p.find('\\') != std::string_view::npos ||
        p.find('\0') != std::string_view::npos)
        return false;
    std::size_t start = 0;
    while (start <= p.size()) {
        const auto end           = std::min(p.find('/', start), p.size());
        const std::string_view c = p.substr(start, end - start);
        if (c.empty() || c == "." || c == "..") return false;
        start = end + 1;
    }
    return true;
}

std::optional<result<model_name>> parse_model_name(std::string_view spec) {
    model_name n;
    std::string_view rest                    = spec;
    constexpr std::string_view prefixes[][2] = {
        {"hf:",                     "hf"},
        {"ms:",                     "ms"},
        {"hf.co/",                  "hf"}, // Ollama's and docker model's spelling (hub-api.md §6)
        {"huggingface.co/",         "hf"},
        {"https://huggingface.co/", "hf"},
    };
    for (const auto& p : prefixes)
        if (rest.starts_with(p[0])) {
            rest.remove_prefix(p[0].size());
            n.kind     = p[1] == "ms" ? hub_kind::modelscope : hub_kind::hf;
            n.prefixed = true;
            break;
        }
    const auto slash = rest.find('/');
    if (slash == std::string_view::npos) {
        if (!n.prefixed) return std::nullopt;
        return result<model_name>(make_error(
            error_code::bad_value, "expected ORG/NAME[@REVISION][:QUANT] after the prefix", std::string(spec)));
    }
    const auto stop = rest.find_first_of("@:", slash);
    n.repo          = std::string(rest.substr(0, stop));
    if (stop != std::string_view::npos) {
        std::string_view tail = rest.substr(stop);
        if (tail.front() == '@') {
            const auto colon = tail.find(':');
            n.revision       = std::string(tail.substr(1, colon == std::string_view::npos ? colon : colon - 1));
            tail             = colon == std::string_view::npos ? std::string_view() : tail.substr(colon);
            if (n.revision.empty() || n.revision.size() > 256)
                return result<model_name>(
                    make_error(error_code::bad_value, "empty or overlong revision after '@'", std::string(spec)));
        }
        if (!tail.empty()) {
            n.quant = std::string(tail.substr(1));
            if (n.quant.empty() || n.quant.size() > 256 || n.quant.find(':') != std::string::npos)
                return result<model_name>(make_error(error_code::bad_value,
                                                     "expected one QUANT (e.g. Q4_K_M) or file name after ':'",
                                                     std::string(spec)));
        }
    }
    if (!valid_repo_id(n.repo)) {
        if (!n.prefixed) return std::nullopt;
        return result<model_name>(make_error(
            error_code::bad_value,
            fmt::format("\"{}\" is not a repo id; expected ORG/NAME of letters, digits, '.', '_' or '-'", n.repo),
            std::string(spec)));
    }
    return result<model_name>(std::move(n));
}

environment read_environment() {
    environment e;
    e.endpoint = env("HF_ENDPOINT");
    if (e.endpoint.empty()) e.endpoint = "https://huggingface.co";
    while (e.endpoint.ends_with('/'))
        e.endpoint.pop_back();
    const std::string home = env("HOME");
    std::string xdg        = env("XDG_CACHE_HOME");
    if (xdg.empty() && !home.empty()) xdg = home + "/.cache";
    std::string hf_home = expand_home(env("HF_HOME"));
    if (hf_home.empty() && !xdg.empty()) hf_home = xdg + "/huggingface";
    e.hf_hub_cache = expand_home(env("HF_HUB_CACHE"));
    if (e.hf_hub_cache.empty()) e.hf_hub_cache = expand_home(env("HUGGINGFACE_HUB_CACHE"));
    if (e.hf_hub_cache.empty() && !hf_home.empty()) e.hf_hub_cache = hf_home + "/hub";
    if (!xdg.empty()) e.llmplan_cache = xdg + "/llmplan";

    // Token: HF_TOKEN (legacy HUGGING_FACE_HUB_TOKEN), else the token file (utils/_auth.py).
    e.token = trim(env("HF_TOKEN"));
    if (e.token.empty()) e.token = trim(env("HUGGING_FACE_HUB_TOKEN"));
    if (e.token.empty()) {
        std::string path = expand_home(env("HF_TOKEN_PATH"));
        if (path.empty() && !hf_home.empty()) path = hf_home + "/token";
        if (!path.empty()) {
            std::ifstream in(path);
            std::string line;
            if (in && std::getline(in, line) && line.size() < 4096) e.token = trim(line);
        }
    }
    e.offline = truthy(env("HF_HUB_OFFLINE")) || truthy(env("TRANSFORMERS_OFFLINE"));

    // ModelScope: MODELSCOPE_DOMAIN is a bare domain (hub/utils/utils.py get_domain); a scheme given is kept.
    std::string domain = env("MODELSCOPE_DOMAIN");
    if (domain.empty()) domain = "www.modelscope.cn";
    e.ms_endpoint = domain.find("://") == std::string::npos ? "https://" + domain : domain;
    while (e.ms_endpoint.ends_with('/'))
        e.ms_endpoint.pop_back();
    e.ms_token = trim(env("MODELSCOPE_API_TOKEN"));
    e.ms_cache = expand_home(env("MODELSCOPE_CACHE"));
    if (e.ms_cache.empty() && !home.empty()) e.ms_cache = home + "/.cache/modelscope/hub";
    return e;
}

} // namespace llmplan::hub
