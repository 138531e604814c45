// `llmplan serve`: routes, security headers and limits around the API and the embedded page.
#include "server.h"

#include "api_routes.h"
#include "assets.h"

#include <atomic>
#include <exception>
#include <fmt/format.h>
#include <httplib.h>

namespace llmplan::web {
namespace {

// Every response: the page loads only its own scripts, styles and API (no inline script, no other
// origin, no frames); no MIME sniffing; no referrer. No Access-Control-Allow-Origin header at all,
// so other sites' pages cannot read the API's answers.
const httplib::Headers security_headers{
    {"Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"},
    {"X-Content-Type-Options",  "nosniff"                                                                                                       },
    {"Referrer-Policy",         "no-referrer"                                                                                                   },
    {"X-Frame-Options",         "DENY"                                                                                                          },
};

constexpr std::string_view json_type = "application/json";

query to_query(const httplib::Params& params) {
    query q;
    for (const auto& [k, v] : params)
        q.emplace_back(k, v);
    return q;
}

void reply(httplib::Response& res, const api_reply& r) {
    res.status = r.status;
    res.set_header("Cache-Control", "no-store");
    res.set_content(r.body, std::string(json_type));
}

// The Host a browser sent, without its port.
std::string_view host_name(std::string_view host) {
    if (!host.empty() && host.front() == '[') return host.substr(0, host.find(']') + 1);
    return host.substr(0, host.rfind(':'));
}

} // namespace

bool run_server(const server_options& o, const std::function<void(int port)>& on_listen) {
    httplib::Server svr;
    const std::size_t threads = o.threads;
    svr.new_task_queue        = [threads] { return new httplib::ThreadPool(threads); };
    svr.set_payload_max_length(o.max_body_bytes);
    svr.set_read_timeout(o.io_timeout);
    svr.set_write_timeout(o.io_timeout);
    svr.set_keep_alive_timeout(o.io_timeout.count());
    svr.set_keep_alive_max_count(o.keep_alive_max_requests);
    svr.set_default_headers(security_headers);
    // Headers and body leave in separate writes: with Nagle's algorithm the body waits for the
    // client's delayed ACK (40 ms on Linux) on every keep-alive request. Measured: 44 ms per estimate
    // under wrk with it, bench/README.md.
    svr.set_tcp_nodelay(true);

    // On a loopback bind, only a Host naming this machine: another site's page resolving its own
    // name to 127.0.0.1 (DNS rebinding) gets 403 instead of the API.
    const bool loopback = is_loopback(o.host);
    svr.set_pre_routing_handler([loopback](const httplib::Request& req, httplib::Response& res) {
        if (!loopback) return httplib::Server::HandlerResponse::Unhandled;
        const std::string host = req.get_header_value("Host");
        if (is_loopback(host_name(host))) return httplib::Server::HandlerResponse::Unhandled;
        reply(res, {403, error_body(fmt::format("Host: \"{}\"; expected 127.0.0.1, localhost or [::1]", host))});
        return httplib::Server::HandlerResponse::Handled;
    });

    const api_policy policy = o.api;
    svr.Get(R"(/api/([a-z-]+))", [policy](const httplib::Request& req, httplib::Response& res) {
        const std::string command = req.matches[1];
        if (!is_api_command(command)) return reply(res, {404, error_body("no such API: /api/" + command)});
        reply(res, answer_get(command, to_query(req.params), policy));
    });
    svr.Post(R"(/api/([a-z-]+))", [policy](const httplib::Request& req, httplib::Response& res) {
        const std::string command = req.matches[1];
        if (!is_api_command(command)) return reply(res, {404, error_body("no such API: /api/" + command)});
        // A form body would be parsed into options by cpp-httplib: the body must be the file's bytes.
        if (req.get_header_value("Content-Type").starts_with("application/x-www-form-urlencoded"))
            return reply(res, {400, error_body("Content-Type: a form; expected the bytes of a config.json or a .gguf "
                                               "(application/octet-stream or application/json)")});
        reply(res, answer_post(command, to_query(req.params), req.body, policy));
    });
    svr.Get(R"(/([A-Za-z0-9_./-]*))", [](const httplib::Request& req, httplib::Response& res) {
        std::string path = req.matches[1];
        if (path.empty()) path = "index.html";
        const embedded_file* f = path.find("..") == std::string::npos ? find_asset(path) : nullptr;
        if (!f) return reply(res, {404, error_body("not found: /" + path)});
        res.set_header("Cache-Control", "no-cache");
        res.set_content(reinterpret_cast<const char*>(f->data), f->size, std::string(content_type(path)));
    });

    // 404 for anything no route matched, 413 over the body cap, 400 for what cpp-httplib refused:
    // each as {"error": ...} (a handler's own error body is kept).
    svr.set_error_handler(httplib::Server::HandlerWithResponse(
        [max = o.max_body_bytes](const httplib::Request& req, httplib::Response& res) {
            if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
            std::string message;
            if (res.status == 404)
                message = fmt::format("not found: {} {}", req.method, req.path);
            else if (res.status == 413)
                message = fmt::format("request body over {} bytes; expected a config.json or a GGUF header", max);
            else
                message = fmt::format("HTTP {}", res.status);
            reply(res, {res.status, error_body(message)});
            return httplib::Server::HandlerResponse::Handled;
        }));
    svr.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "unknown exception";
        try {
            std::rethrow_exception(ep);
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
        reply(res, {500, error_body("internal error: " + what)});
    });

    const int port = o.port == 0 ? svr.bind_to_any_port(o.host) : (svr.bind_to_port(o.host, o.port) ? o.port : -1);
    if (port < 0) return false;
    on_listen(port);
    return svr.listen_after_bind();
}

} // namespace llmplan::web
