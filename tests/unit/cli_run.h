// Run the built CLI (LLMPLAN_CLI) with arguments: its stdout, its stderr and its exit status.
#pragma once

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace llmplan::test {

struct run_result {
    int status = -1;
    std::string out; ///< stdout
    std::string err; ///< stderr
};

/// The environment every CLI run of the tests gets: offline, with a cache and Hub folder of the build's
/// own (LLMPLAN_TEST_HOME), and no token, so that no answer depends on the developer's Hub cache,
/// network or login (issue 27). A test that needs the Hub runs against the stand-in (label hub).
inline std::string isolated_env() {
    const std::string home = LLMPLAN_TEST_HOME;
    return "env -u HF_TOKEN -u HUGGING_FACE_HUB_TOKEN -u HF_ENDPOINT -u HF_HUB_CACHE -u HUGGINGFACE_HUB_CACHE "
           "HF_HUB_OFFLINE=1 HF_HOME='" +
           home + "/hf' HF_TOKEN_PATH='" + home + "/hf/no-token' XDG_CACHE_HOME='" + home + "/cache' ";
}

/// `args` is shell text (quotes and `< file` work), run with `env` in front (isolated_env() for the
/// unit tests; the Hub tests pass "" to keep the stand-in Hub's address and caches they set). stderr
/// goes to a private temporary file that is read back and removed.
inline run_result run_cli_with(const std::string& env, const std::string& args) {
    run_result r;
    const char* tmp      = std::getenv("TMPDIR");
    std::string err_path = std::string(tmp && *tmp ? tmp : "/tmp") + "/llmplan_cli_err_XXXXXX";
    const int fd         = ::mkstemp(err_path.data());
    if (fd < 0) return r;
    ::close(fd);
    const std::string cmd = env + std::string(LLMPLAN_CLI) + " " + args + " 2>'" + err_path + "'";
    FILE* f               = ::popen(cmd.c_str(), "r");
    if (f) {
        std::array<char, 4096> buf{};
        while (std::size_t n = std::fread(buf.data(), 1, buf.size(), f))
            r.out.append(buf.data(), n);
        const int s = ::pclose(f);
        r.status    = WIFEXITED(s) ? WEXITSTATUS(s) : -1;
    }
    std::ifstream e(err_path, std::ios::binary);
    r.err.assign(std::istreambuf_iterator<char>(e), std::istreambuf_iterator<char>());
    ::unlink(err_path.c_str());
    return r;
}

inline run_result run_cli(const std::string& args) {
    return run_cli_with(isolated_env(), args);
}

/// Bad input as ../shared/cli-contract.md fixes it: exit 2, nothing on stdout, and one line on stderr
/// that names what was wrong (`names`: the option, file or field, e.g. "--ctx").
inline void expect_refused(const std::string& args, const std::string& names) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_TRUE(r.out.empty()) << args << "\nstdout: " << r.out;
    EXPECT_FALSE(r.err.empty()) << args << ": nothing on stderr";
    if (r.err.empty()) return;
    // One line: a single newline, at the end.
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << args << ": stderr is not one line:\n" << r.err;
    EXPECT_NE(r.err.find(names), std::string::npos) << args << ": the message does not name " << names << ":\n"
                                                    << r.err;
}

} // namespace llmplan::test
