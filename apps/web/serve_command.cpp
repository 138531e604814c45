// llmplan serve [--host 127.0.0.1] [--port 8080]: the page and its API on this machine.
#include "serve.h"
#include "server.h"
#include "web_module.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace llmplan::web {

void add_serve_command(CLI::App& app) {
    auto o    = std::make_shared<server_options>();
    auto* cmd = app.add_subcommand("serve", "A local web page and its JSON API, offline");
    cmd->add_option("--host", o->host, "address to listen on; anything but loopback lets other machines in")
        ->capture_default_str();
    cmd->add_option("--port", o->port, "TCP port; 0 picks a free one")
        ->check(CLI::Range(0, 65535))
        ->capture_default_str();
    cmd->add_option("--threads", o->threads, "worker threads (each open connection holds one)")
        ->check(CLI::Range(1, 256))
        ->capture_default_str();
    cmd->add_flag("--hub", o->api.hub,
                  "MODEL over the API may also be a Hub name (hf:ORG/NAME, ms:ORG/NAME), read with this "
                  "machine's Hub settings and caches; otherwise catalog ids only, and no network");
    cmd->callback([o] {
        if (!is_loopback(o->host))
            std::fprintf(stderr,
                         "llmplan: warning: listening on %s, not loopback: any machine that reaches this address "
                         "can use the API\n",
                         o->host.c_str());
        const bool ok = run_server_module(*o, [&](int port) {
            const bool v6 = o->host.find(':') != std::string::npos;
            std::printf("llmplan: serving http://%s%s%s:%d/ (Ctrl-C stops)\n", v6 ? "[" : "", o->host.c_str(),
                        v6 ? "]" : "", port);
            std::fflush(stdout);
        });
        if (!ok) {
            // The CLI's user-error status (../shared/cli-contract.md): a one-line message, exit 2.
            std::fprintf(stderr,
                         "llmplan: --host/--port: cannot listen on %s:%d (in use, or not this machine's address)\n",
                         o->host.c_str(), o->port);
            std::exit(2);
        }
    });
}

} // namespace llmplan::web
