// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace ridgeline::core {

// What went wrong, coarsely: callers map these to exit codes and dialogs.
enum class ErrorCode {
    InvalidArgument, // the caller asked for something impossible
    NotFound, // a file or record that is not there
    BadFile, // the input is not a valid session / trace (corrupt, hostile, wrong type)
    NewerSchema, // a session written by a newer Ridgeline
    Io, // reading or writing failed (permissions, disk full)
    Internal, // a bug or an unexpected library failure
};

struct Error {
    ErrorCode code = ErrorCode::Internal;
    std::string message; // one sentence a user can act on
};

inline Error makeError(ErrorCode code, std::string message)
{
    return Error { code, std::move(message) };
}

// A value or an Error. No implicit bool: callers must say ok() or hasError().
template <typename T> class [[nodiscard]] Result {
public:
    Result(T value)
        : m_data(std::in_place_index<0>, std::move(value))
    { }
    Result(Error error)
        : m_data(std::in_place_index<1>, std::move(error))
    { }

    bool ok() const { return m_data.index() == 0; }
    bool hasError() const { return !ok(); }
    explicit operator bool() const = delete;

    T& value() & { return std::get<0>(m_data); }
    const T& value() const& { return std::get<0>(m_data); }
    // By value from a temporary: `for (auto& x : f().value())` must not bind to a dead Result.
    T value() && { return std::get<0>(std::move(m_data)); }
    const Error& error() const { return std::get<1>(m_data); }

private:
    std::variant<T, Error> m_data;
};

template <> class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error)
        : m_error(std::move(error))
        , m_ok(false)
    { }

    bool ok() const { return m_ok; }
    bool hasError() const { return !m_ok; }
    explicit operator bool() const = delete;
    const Error& error() const { return m_error; }

private:
    Error m_error;
    bool m_ok = true;
};

using Status = Result<void>;

} // namespace ridgeline::core

// Early return of the error of a Result/Status expression.
#define RIDGELINE_TRY(expr)                                                                                            \
    do {                                                                                                               \
        auto&& ridgelineTryResult_ = (expr);                                                                           \
        if (ridgelineTryResult_.hasError())                                                                            \
            return ridgelineTryResult_.error();                                                                        \
    } while (false)
