// This machine's memory read bandwidth, measured: what decode on a CPU is bound by when the CPU is
// not in the catalog. A STREAM-like read (sum of 64-bit words) by every hardware thread over a
// buffer far larger than any last-level cache; the best of a few passes.
#include "detail/checked_number.h"
#include "llmplan/hardware.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <new>
#include <thread>
#include <vector>

namespace llmplan {

std::optional<std::uint64_t> measure_memory_read_bandwidth(std::uint64_t buffer_bytes, unsigned threads,
                                                           unsigned passes) {
    const std::uint64_t words = buffer_bytes / sizeof(std::uint64_t);
    threads                   = std::clamp(threads, 1u, 256u);
    if (words < threads * 1024ull || passes == 0) return std::nullopt;
    std::unique_ptr<std::uint64_t[]> buf(new (std::nothrow) std::uint64_t[words]);
    if (!buf) return std::nullopt;
    // Touch every page first (first-touch faults are not bandwidth), in parallel so each thread's
    // slice lands on its own NUMA node.
    const std::uint64_t slice = words / threads;
    auto run                  = [&](auto&& body) {
        std::vector<std::thread> pool;
        pool.reserve(threads);
        for (unsigned t = 0; t < threads; ++t)
            pool.emplace_back([&, t] { body(buf.get() + t * slice, slice, t); });
        for (auto& th : pool)
            th.join();
    };
    run([](std::uint64_t* p, std::uint64_t n, unsigned t) {
        for (std::uint64_t i = 0; i < n; ++i)
            p[i] = i ^ t;
    });
    std::vector<std::uint64_t> sums(threads);
    double best = 0;
    for (unsigned pass = 0; pass < passes; ++pass) {
        const auto t0 = std::chrono::steady_clock::now();
        run([&sums](const std::uint64_t* p, std::uint64_t n, unsigned t) {
            // Four independent accumulators keep the adds off the critical path: the loads bound it.
            std::uint64_t a = 0, b = 0, c = 0, d = 0;
            std::uint64_t i = 0;
            for (; i + 4 <= n; i += 4) {
                a += p[i];
                b += p[i + 1];
                c += p[i + 2];
                d += p[i + 3];
            }
            for (; i < n; ++i)
                a += p[i];
            sums[t] += a + b + c + d;
        });
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (s > 0) best = std::max(best, static_cast<double>(slice * threads * sizeof(std::uint64_t)) / s);
    }
    // The sums are the result the compiler must keep; fold them into a check that is always true.
    std::uint64_t all = 0;
    for (auto v : sums)
        all += v;
    if (best <= 0 || all == 0x5eed5eed5eed5eedull) return std::nullopt;
    return detail::saturate<std::uint64_t>(best, detail::rounding::toward_zero);
}

} // namespace llmplan
