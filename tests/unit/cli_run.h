// Run the built CLI (LLMPLAN_CLI) with arguments: its stdout and exit status (stderr dropped).
#pragma once

#include <array>
#include <cstdio>
#include <gtest/gtest.h>
#include <string>
#include <sys/wait.h>

namespace llmplan::test {

struct run_result {
    int status = -1;
    std::string out;
};

inline run_result run_cli(const std::string& args) {
    run_result r;
    const std::string cmd = std::string(LLMPLAN_CLI) + " " + args + " 2>/dev/null";
    FILE* f               = ::popen(cmd.c_str(), "r");
    if (!f) return r;
    std::array<char, 4096> buf{};
    while (std::size_t n = std::fread(buf.data(), 1, buf.size(), f))
        r.out.append(buf.data(), n);
    const int s = ::pclose(f);
    r.status    = WIFEXITED(s) ? WEXITSTATUS(s) : -1;
    return r;
}

/// Bad input: the CLI exits 2 with nothing on stdout (the error goes to stderr).
inline void expect_refused(const std::string& args) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_TRUE(r.out.empty()) << args;
}

} // namespace llmplan::test
