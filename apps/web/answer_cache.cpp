// A small least-recently-used cache of API answers with an expiry (answer_cache.h).
#include "answer_cache.h"

#include <future>
#include <list>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace llmplan::web {
namespace {

using clock = std::chrono::steady_clock;

struct entry {
    std::string key;
    api_reply reply;
    clock::time_point made;
};

struct cache {
    std::mutex m;
    std::list<entry> order;                                                 ///< most recently used first
    std::unordered_map<std::string_view, std::list<entry>::iterator> index; ///< keys view into `order`
    std::size_t bytes = 0;
    /// Requests being answered now: the same request arriving meanwhile waits for that answer
    /// instead of computing it again (64 clients asking one expired plan at once would otherwise
    /// make 64 plans at the same moment; bench/README.md).
    std::unordered_map<std::string, std::shared_future<api_reply>> in_flight;

    void drop(std::list<entry>::iterator it) {
        bytes -= it->key.size() + it->reply.body.size();
        index.erase(it->key);
        order.erase(it);
    }
};

cache& the_cache() {
    static cache c;
    return c;
}

// command, then each name and value, separated by bytes a query cannot hold after decoding in a way
// that would make two different queries meet (lengths first).
std::string key_of(std::string_view command, const query& q) {
    std::string k(command);
    for (const auto& [name, value] : q) {
        k += '\n';
        k += std::to_string(name.size()) + ':' + name + '=' + std::to_string(value.size()) + ':' + value;
    }
    return k;
}

} // namespace

api_reply cached_answer(std::string_view command, const query& q, const std::function<api_reply()>& make,
                        const answer_cache_limits& limits) {
    const std::string key = key_of(command, q);
    cache& c              = the_cache();
    std::promise<api_reply> mine;
    {
        std::unique_lock<std::mutex> lock(c.m);
        if (const auto it = c.index.find(key); it != c.index.end()) {
            if (clock::now() - it->second->made < limits.ttl) {
                c.order.splice(c.order.begin(), c.order, it->second);
                return it->second->reply;
            }
            c.drop(it->second);
        }
        if (const auto it = c.in_flight.find(key); it != c.in_flight.end()) {
            const auto pending = it->second;
            lock.unlock();
            return pending.get(); // rethrows what the first asker's make() threw
        }
        c.in_flight.emplace(key, mine.get_future().share());
    }
    api_reply r;
    try {
        r = make();
    } catch (...) {
        std::lock_guard<std::mutex> lock(c.m);
        mine.set_exception(std::current_exception());
        c.in_flight.erase(key);
        throw;
    }
    std::lock_guard<std::mutex> lock(c.m);
    mine.set_value(r);
    c.in_flight.erase(key);
    const std::size_t size = key.size() + r.body.size();
    if (r.status != 200 || size > limits.max_bytes / 4) return r;
    c.order.push_front({key, r, clock::now()});
    c.index.emplace(c.order.front().key, c.order.begin());
    c.bytes += size;
    while (!c.order.empty() && (c.order.size() > limits.max_entries || c.bytes > limits.max_bytes))
        c.drop(std::prev(c.order.end()));
    return r;
}

} // namespace llmplan::web
