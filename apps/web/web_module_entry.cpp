// The web module's entry point (web_module.h): run_server with a C-callable callback.
#include "web_module.h"

extern "C" __attribute__((visibility("default"))) bool
llmplan_web_run_server(const llmplan::web::server_options& o, void (*on_listen)(int port, void* ctx), void* ctx) {
    return llmplan::web::run_server(o, [&](int port) { on_listen(port, ctx); });
}
