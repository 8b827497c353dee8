#pragma once
// Fallible results: a value or a ReadError that names the file, line and what went wrong.
// (LLVM's Expected<T> idea, without its must-check machinery.)
#include <QString>
#include <QtGlobal>
#include <optional>
#include <utility>
#include <variant>

namespace strata {

// What is wrong with an input, for callers that react by kind: a stage file that is not what its
// name says is refused, one with junk lines is read with a warning (docs/diagnosis.md lists them).
enum class ProblemKind : quint8 {
    Other,                // any other error (I/O of non-stage files, protocol, specs)
    Missing,              // the file does not exist
    Unreadable,           // it exists but cannot be opened
    Empty,                // nothing but whitespace
    NotAStage,            // text without the format's structure (/etc/passwd, prose as TTGIR)
    WrongStage,           // another stage's text (TTIR in the TTGIR file)
    Truncated,            // cut short: an open region or body, a missing table or terminator
    Syntax,               // the format's parser rejects it (LLVM's own messages for LLVM IR)
    JunkLines,            // lines that are not the format's syntax, or absurdly long: dropped
    UnresolvedLocations,  // ops whose locations point nowhere usable (counted by reason)
    NoMappedLines,        // a stage with code but no line mapped to the kernel source
};

// "not-a-stage", "junk-lines", ...: stable names for JSON, warnings and docs.
QString problemKindName(ProblemKind kind);

struct ReadError {
    QString file;     // the file being read (or the kernel source for compile errors)
    int line = 0;     // 1-based; 0 when the error is not tied to a line
    int column = 0;
    QString message;  // one sentence a user can act on
    ProblemKind kind = ProblemKind::Other;

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
