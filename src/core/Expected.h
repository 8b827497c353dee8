#pragma once
// Fallible results: a value or a ReadError that names the file, line and what went wrong.
// (LLVM's Expected<T> idea, without its must-check machinery.)
#include <QString>
#include <optional>
#include <utility>
#include <variant>

namespace strata {

struct ReadError {
    QString file;     // the file being read (or the kernel source for compile errors)
    int line = 0;     // 1-based; 0 when the error is not tied to a line
    int column = 0;
    QString message;  // one sentence a user can act on

    // "file:line:col: message" (parts that are unknown are left out)
    QString toString() const;
};

template <typename T>
class Expected {
public:
    Expected(T value) : m_state(std::move(value)) {}
    Expected(ReadError error) : m_state(std::move(error)) {}

    explicit operator bool() const { return std::holds_alternative<T>(m_state); }
    bool hasValue() const { return bool(*this); }

    T &value() { return std::get<T>(m_state); }
    const T &value() const { return std::get<T>(m_state); }
    T &operator*() { return value(); }
    const T &operator*() const { return value(); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }

    const ReadError &error() const { return std::get<ReadError>(m_state); }

private:
    std::variant<T, ReadError> m_state;
};

} // namespace strata
