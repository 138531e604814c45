// Errors at the library boundary: a value type, never an exception.
//
// `result<T>` mirrors the names of C++23 std::expected (has_value, value, error) so that moving to
// it later is a one-line change. Every reader and estimator returns one; the CLI maps the error
// group to an exit status (2 for everything the user can fix).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace llmplan {

enum class error_code {
    // io
    file_not_found,
    read_failed,
    // format
    bad_magic,
    unsupported_version,
    truncated,
    duplicate_key,
    bad_alignment,
    overflow,
    bad_value,
    bad_json,
    // model
    missing_field,
    unsupported_arch,
    inconsistent_dims,
    // estimate
    invalid_params,
    // hardware
    bad_device_file,
    unknown_name,
    // network (the Hub reader)
    network,         ///< no connection (DNS, refused, TLS)
    timed_out,       ///< no byte within the timeout
    connection_lost, ///< the answer stopped part way
    access_denied,   ///< gated, private, bad token
    rate_limited,
};

/// What went wrong, where (a file path with a byte offset or a JSON pointer), and what was expected.
struct error {
    error_code code = error_code::bad_value;
    std::string message; ///< one line: "what was found; what was expected"
    std::string context; ///< file path, plus ":offset N" or a JSON pointer when known

    /// "context: message", the one line the CLI prints.
    [[nodiscard]] std::string what() const { return context.empty() ? message : context + ": " + message; }
};

/// Marker to build an error result, like std::unexpected.
struct unexpected {
    error err;
    explicit unexpected(error e) : err(std::move(e)) {}
};

inline unexpected make_error(error_code code, std::string message, std::string context = {}) {
    return unexpected{
        error{code, std::move(message), std::move(context)}
    };
}

template <class T> class result {
  public:
    result(T v) : v_(std::move(v)) {}                                      // NOLINT(google-explicit-constructor)
    result(unexpected e) : v_(std::in_place_index<1>, std::move(e.err)) {} // NOLINT
    /// Pass an error of another result on: `if (!r) return r.error();`
    result(const llmplan::error& e) : v_(std::in_place_index<1>, e) {} // NOLINT

    [[nodiscard]] bool has_value() const { return v_.index() == 0; }
    explicit operator bool() const { return has_value(); }
    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T* operator->() { return &std::get<0>(v_); }
    const T* operator->() const { return &std::get<0>(v_); }
    T& operator*() & { return std::get<0>(v_); }
    const T& operator*() const& { return std::get<0>(v_); }
    [[nodiscard]] const llmplan::error& error() const { return std::get<1>(v_); }

  private:
    std::variant<T, llmplan::error> v_;
};

/// result<void>
struct ok_t {};
using status = result<ok_t>;
inline status ok() {
    return ok_t{};
}

namespace detail {
/// a*b, or nullopt-like failure on overflow (all size arithmetic on file-controlled values).
inline bool checked_mul(std::uint64_t a, std::uint64_t b, std::uint64_t& out) {
    return !__builtin_mul_overflow(a, b, &out);
}
inline bool checked_add(std::uint64_t a, std::uint64_t b, std::uint64_t& out) {
    return !__builtin_add_overflow(a, b, &out);
}
} // namespace detail

} // namespace llmplan
