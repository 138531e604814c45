// Starts tests/hub/fake_hub.py (a stand-in Hub on 127.0.0.1) once per test process and points the
// environment at it; the server exits when this process closes its stdin (or dies).
#pragma once

#include "llmplan/http.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <spawn.h>
#include <string>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace llmplan::test {

struct fake_hub {
    int hub_port = 0, cdn_port = 0;
    pid_t pid    = -1;
    int to_child = -1;

    static fake_hub& get() {
        static fake_hub h = start();
        return h;
    }
    [[nodiscard]] std::string url() const { return "http://127.0.0.1:" + std::to_string(hub_port); }

    /// Requests and body bytes the servers sent since the last reset, per kind (api, redirect, small, cdn).
    [[nodiscard]] nlohmann::json stats() const {
        auto r = make_curl_transport()->get({url() + "/_stats"});
        return r && r->status == 200 ? nlohmann::json::parse(r->body) : nlohmann::json();
    }
    void reset() const { (void)make_curl_transport()->get({url() + "/_reset"}); }

  private:
    static fake_hub start() {
        fake_hub h;
        int in[2], out[2];
        if (::pipe(in) != 0 || ::pipe(out) != 0) std::abort();
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, in[0], 0);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        posix_spawn_file_actions_addclose(&fa, in[1]);
        posix_spawn_file_actions_addclose(&fa, out[0]);
        std::string script = std::string(LLMPLAN_SOURCE_DIR) + "/tests/hub/fake_hub.py";
        char* argv[]       = {const_cast<char*>("python3"), script.data(), nullptr};
        if (posix_spawnp(&h.pid, "python3", &fa, nullptr, argv, environ) != 0) std::abort();
        posix_spawn_file_actions_destroy(&fa);
        ::close(in[0]);
        ::close(out[1]);
        h.to_child     = in[1];
        FILE* f        = ::fdopen(out[0], "r");
        char line[256] = {};
        if (!f || !std::fgets(line, sizeof line, f)) std::abort();
        const auto ports = nlohmann::json::parse(line);
        h.hub_port       = ports["hub"];
        h.cdn_port       = ports["cdn"];
        return h;
    }
};

/// The test folders made by this process, removed when it ends (the caches hold MBs of headers).
struct temp_folders {
    std::vector<std::filesystem::path> dirs;
    ~temp_folders() {
        std::error_code ec;
        for (const auto& d : dirs)
            std::filesystem::remove_all(d, ec);
    }
};

/// A fresh, empty set of caches and the Hub endpoint pointed at the stand-in (no token, online).
inline std::filesystem::path fresh_environment() {
    static temp_folders made;
    static int n   = 0;
    const auto dir = std::filesystem::temp_directory_path() /
                     ("llmplan-hub-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    made.dirs.push_back(dir);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    ::setenv("HF_ENDPOINT", fake_hub::get().url().c_str(), 1);
    ::setenv("MODELSCOPE_DOMAIN", fake_hub::get().url().c_str(), 1);
    ::setenv("XDG_CACHE_HOME", (dir / "xdg").c_str(), 1);
    ::setenv("HF_HOME", (dir / "hf").c_str(), 1);
    ::setenv("MODELSCOPE_CACHE", (dir / "ms").c_str(), 1);
    for (const char* v : {"HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF_TOKEN_PATH", "HF_HUB_OFFLINE",
                          "TRANSFORMERS_OFFLINE", "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "MODELSCOPE_API_TOKEN"})
        ::unsetenv(v);
    fake_hub::get().reset();
    return dir;
}

} // namespace llmplan::test
