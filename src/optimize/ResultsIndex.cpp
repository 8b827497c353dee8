// The results index: a byte scanner that follows the JSON structure (strings, nesting, keys at
// the top level and in each task) without building values, so that 200 MB of candidate sources
// pass at memory speed. What it keeps per task, the summary fields, is parsed by QJsonDocument
// and checked by taskFromJson. Any problem found on the fast path is reported through the
// streaming reader (optimize/ResultsFile.h), which names the line and column precisely.
#include "optimize/ResultsIndex.h"

#include "optimize/OutcomeJson.h"
#include "optimize/ResultsFile.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

#include <algorithm>
#include <functional>
#include <optional>

namespace strata::optimize {

namespace {

constexpr qint64 kChunkBytes = 1 << 20;
constexpr int kMaxDepth = 64;

// Task fields the index leaves in the file: their values are replaced by [] in the summary.
bool isHeavyTaskKey(const QByteArray &key)
{
    return key == "candidates" || key == "rounds";
}

bool isWhitespace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// One pass over the bytes of a results file, fed in chunks. Calls `onTask` with each task's span
// and its summary text; collects the top-level fields other than "tasks" as one object's text.
class StructureScanner {
public:
    using TaskCallback = std::function<bool(const TaskSpan &span, const QByteArray &summary)>;

    explicit StructureScanner(TaskCallback onTask) : m_onTask(std::move(onTask)) {}

    bool feed(const char *data, qint64 size)
    {
        for (qint64 i = 0; i < size && m_error.isEmpty();) {
            if (m_inString)
                i = scanString(data, size, i);
            else
                i = scanStructure(data, i);
        }
        m_consumed += size;
        return m_error.isEmpty();
    }
    bool finish()
    {
        if (m_error.isEmpty() && (!m_sawTop || !m_stack.isEmpty() || m_inString))
            m_error = QStringLiteral("not valid JSON: the file ends inside a value");
        if (m_error.isEmpty() && !m_sawTasks)
            m_error = QStringLiteral("results.tasks is missing: a results file lists its tasks");
        return m_error.isEmpty();
    }
    QByteArray headerObject() const { return '{' + m_headerPieces.join(',') + '}'; }
    const QString &error() const { return m_error; }
    int line() const { return m_line; }

private:
    enum class Capture { None, HeaderPiece, Task };
    struct Level {
        bool isObject;
        bool expectKey;
    };

    void put(const char *data, qint64 size)
    {
        if (m_skipDepth || m_capture == Capture::None)
            return;
        (m_capture == Capture::Task ? m_task : m_piece).append(data, size);
    }
    void put(char c) { put(&c, 1); }

    // Inside a string: copies the run up to the next quote or backslash at once.
    qint64 scanString(const char *data, qint64 size, qint64 i)
    {
        if (m_escape) {
            emitStringByte(data[i]);
            m_escape = false;
            return i + 1;
        }
        const char *begin = data + i;
        const char *end = std::find_if(begin, data + size, [](char c) { return c == '"' || c == '\\'; });
        emitStringBytes(begin, end - begin);
        i = end - data;
        if (i == size)
            return i;
        emitStringByte(data[i]);
        if (data[i] == '\\') {
            m_escape = true;
        } else {
            m_inString = false;
            if (m_inKey)
                keyEnded();
        }
        return i + 1;
    }
    void emitStringBytes(const char *data, qint64 size)
    {
        if (m_inKey)
            m_key.append(data, size);
        put(data, size);
    }
    void emitStringByte(char c)
    {
        if (m_inKey && c != '"')
            m_key.append(c);
        put(c);
    }

    qint64 scanStructure(const char *data, qint64 i)
    {
        const char c = data[i];
        if (c == '\n')
            ++m_line;
        if (isWhitespace(c)) {
            put(c);
            return i + 1;
        }
        if (m_stack.isEmpty() && (m_sawTop || c != '{')) {
            fail(m_sawTop ? QStringLiteral("not valid JSON: text after the results object")
                          : QStringLiteral("not a JSON object: a results file is one object"));
            return i + 1;
        }
        valueStarts(c);
        switch (c) {
        case '"': stringStarts(); break;
        case '{': case '[': open(c == '{', m_consumed + i); break;
        case '}': case ']': close(c == '}', m_consumed + i); break;
        case ':':
            put(c);
            break;
        case ',':
            if (!m_stack.isEmpty() && m_stack.last().isObject)
                m_stack.last().expectKey = true;
            if (m_stack.size() == 1)
                endHeaderPiece();
            else
                put(c);
            break;
        default:
            put(c);
        }
        return i + 1;
    }

    // The first byte of a value where the structure demands one kind of value.
    void valueStarts(char c)
    {
        if (c == ':' || c == ',' || c == '}' || c == ']')
            return;
        if (m_expectTasksArray) {
            m_expectTasksArray = false;
            if (c != '[')
                fail(QStringLiteral("results.tasks is not an array"));
        } else if (m_inTasks && m_stack.size() == 2 && c != '{') {
            fail(QStringLiteral("tasks[%1] is not an object").arg(m_taskCount));
        } else if (m_heavyValueNext) {
            m_heavyValueNext = false;
            if (c == '[') {  // left in the file; the summary says []
                put("[]", 2);
                m_skipDepth = m_stack.size() + 1;
            }
        }
    }

    void stringStarts()
    {
        m_inString = true;
        m_inKey = !m_stack.isEmpty() && m_stack.last().isObject && m_stack.last().expectKey;
        if (m_inKey) {
            m_stack.last().expectKey = false;
            m_key.clear();
            if (m_stack.size() == 1) {  // a top-level field: captured unless it is "tasks"
                m_piece.clear();
                m_capture = Capture::HeaderPiece;
            }
        }
        put('"');
    }

    void keyEnded()
    {
        m_inKey = false;
        if (m_stack.size() == 1 && m_key == "tasks") {
            m_capture = Capture::None;
            m_piece.clear();
            m_expectTasksArray = true;
            m_sawTasks = true;
        } else if (m_capture == Capture::Task && m_stack.size() == 3 && isHeavyTaskKey(m_key)) {
            m_heavyValueNext = true;
        }
    }

    void open(bool isObject, qint64 offset)
    {
        if (m_stack.isEmpty()) {
            if (!isObject)
                return fail(QStringLiteral("not a JSON object: a results file is one object"));
            m_sawTop = true;
        } else if (m_stack.size() == 1 && m_capture == Capture::None && !isObject) {
            m_inTasks = true;  // the "tasks" array (checked in valueStarts)
        } else if (m_inTasks && m_stack.size() == 2) {
            m_capture = Capture::Task;
            m_task.clear();
            m_span = TaskSpan{offset, 0, m_line};
        }
        if (m_stack.size() >= kMaxDepth)
            return fail(QStringLiteral("nested deeper than %1 levels").arg(kMaxDepth));
        m_stack.append({isObject, isObject});
        if (m_stack.size() > 1)
            put(isObject ? '{' : '[');
    }

    void close(bool isObject, qint64 offset)
    {
        if (m_stack.isEmpty() || m_stack.last().isObject != isObject)
            return fail(QStringLiteral("not valid JSON: '%1' closes nothing it opened").arg(isObject ? u'}' : u']'));
        m_stack.removeLast();
        const qsizetype depth = m_stack.size();
        if (m_skipDepth && depth + 1 == m_skipDepth) {
            m_skipDepth = 0;  // the heavy array ends; "[]" stands for it
            return;
        }
        if (depth == 0) {
            endHeaderPiece();
            return;
        }
        put(isObject ? '}' : ']');
        if (depth == 2 && m_capture == Capture::Task) {
            m_span.length = offset + 1 - m_span.offset;
            m_capture = Capture::None;
            ++m_taskCount;
            if (!m_onTask(m_span, m_task))
                fail(QStringLiteral("tasks[%1] is not valid").arg(m_taskCount - 1));
        } else if (depth == 1 && m_inTasks) {
            m_inTasks = false;
        }
    }

    void endHeaderPiece()
    {
        if (m_capture == Capture::HeaderPiece)
            m_headerPieces.append(m_piece);
        m_capture = Capture::None;
        m_piece.clear();
    }

    void fail(const QString &message)
    {
        if (m_error.isEmpty())
            m_error = message;
    }

    TaskCallback m_onTask;
    QVector<Level> m_stack;
    qint64 m_consumed = 0;
    int m_line = 1;
    bool m_inString = false, m_escape = false, m_inKey = false;
    bool m_sawTop = false, m_sawTasks = false, m_inTasks = false, m_expectTasksArray = false;
    bool m_heavyValueNext = false;
    qsizetype m_skipDepth = 0;  // inside a heavy value: the depth of its array, else 0
    Capture m_capture = Capture::None;
    QByteArray m_key, m_piece, m_task;
    QByteArrayList m_headerPieces;
    TaskSpan m_span;
    int m_taskCount = 0;
    QString m_error;
};

// The precise error for a file the fast path refused: the streaming reader's, when it finds one.
ReadError preciseError(const QString &path, const QString &fastMessage, int fastLine)
{
    Expected<SuiteOutcome> checked = readResultsFile(path, [](TaskOutcome &&) {});
    if (!checked)
        return checked.error();
    return ReadError{path, fastLine, 0, fastMessage};
}

Expected<TaskOutcome> parseTask(const QByteArray &text, int taskIndex, const QString &path, int line)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(text, &parseError);
    const QString where = QStringLiteral("tasks[%1]").arg(taskIndex);
    if (parseError.error != QJsonParseError::NoError)
        return ReadError{path, line + int(text.left(parseError.offset).count('\n')), 0,
                         QStringLiteral("%1 is not valid JSON: %2").arg(where, parseError.errorString())};
    if (!document.isObject())
        return ReadError{path, line, 0, where + QStringLiteral(" is not an object")};
    JsonProblem problem;
    TaskOutcome task = taskFromJson(document.object(), where, &problem);
    if (!problem.isEmpty())
        return ReadError{path, line, 0, problem.text()};
    return task;
}

} // namespace

TaskOutcome taskSummary(TaskOutcome task)
{
    task.candidates.clear();
    task.candidates.squeeze();
    task.rounds.clear();
    task.rounds.squeeze();
    return task;
}

Expected<ResultsIndex> ResultsIndex::open(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot read: %1").arg(file.errorString())};
    ResultsIndex index;
    index.m_path = path;
    std::optional<ReadError> taskError;
    StructureScanner scanner([&](const TaskSpan &span, const QByteArray &summary) {
        Expected<TaskOutcome> task = parseTask(summary, int(index.m_spans.size()), path, span.line);
        if (!task) {
            taskError = task.error();
            return false;
        }
        index.m_summary.tasks.append(std::move(*task));
        index.m_spans.append(span);
        return true;
    });
    QByteArray chunk(kChunkBytes, Qt::Uninitialized);
    while (true) {
        const qint64 got = file.read(chunk.data(), kChunkBytes);
        if (got < 0)
            return ReadError{path, 0, 0, QStringLiteral("cannot read: %1").arg(file.errorString())};
        if (got == 0 || !scanner.feed(chunk.constData(), got))
            break;
    }
    if (taskError)
        return preciseError(path, taskError->message, taskError->line);
    if (!scanner.finish())
        return preciseError(path, scanner.error(), scanner.line());
    JsonProblem problem;
    QJsonParseError parseError;
    const QJsonDocument header = QJsonDocument::fromJson(scanner.headerObject(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return preciseError(path, QStringLiteral("not valid JSON: %1").arg(parseError.errorString()), 0);
    Expected<SuiteOutcome> suite = suiteHeaderFromJson(header.object(), path, &problem);
    if (!suite || !problem.isEmpty())
        return preciseError(path, suite ? problem.text() : suite.error().message, 0);
    suite->tasks = std::move(index.m_summary.tasks);
    index.m_summary = std::move(*suite);
    index.rememberFileState();
    return index;
}

void ResultsIndex::rememberFileState()
{
    const QFileInfo info(m_path);
    m_fileSize = info.size();
    m_fileModified = info.lastModified();
}

QString ResultsIndex::changedOnDisk() const
{
    const QFileInfo info(m_path);
    if (!info.exists())
        return QStringLiteral("%1 no longer exists").arg(m_path);
    if (info.size() != m_fileSize || info.lastModified() != m_fileModified)
        return QStringLiteral("%1 changed on disk since it was opened; open it again").arg(m_path);
    return {};
}

Expected<TaskOutcome> ResultsIndex::loadTask(int task) const
{
    if (task < 0 || task >= m_spans.size())
        return ReadError{m_path, 0, 0, QStringLiteral("no task %1 in this file").arg(task)};
    if (const QString changed = changedOnDisk(); !changed.isEmpty())
        return ReadError{m_path, 0, 0, changed};
    QFile file(m_path);
    const TaskSpan span = m_spans[task];
    if (!file.open(QIODevice::ReadOnly) || !file.seek(span.offset))
        return ReadError{m_path, 0, 0, QStringLiteral("cannot read: %1").arg(file.errorString())};
    const QByteArray text = file.read(span.length);
    if (text.size() != span.length)
        return ReadError{m_path, span.line, 0, QStringLiteral("cannot read tasks[%1]: the file ends early").arg(task)};
    return parseTask(text, task, m_path, span.line);
}

namespace {

// Copies bytes [from, from + size) of `source` into `target`, in chunks.
bool copyRange(QFile &source, qint64 from, qint64 size, QSaveFile &target)
{
    if (!source.seek(from))
        return false;
    QByteArray chunk;
    while (size > 0) {
        chunk = source.read(std::min(size, kChunkBytes));
        if (chunk.isEmpty() || target.write(chunk) != chunk.size())
            return false;
        size -= chunk.size();
    }
    return true;
}

} // namespace

QString ResultsIndex::replaceTask(int task, const TaskOutcome &whole)
{
    if (task < 0 || task >= m_spans.size())
        return QStringLiteral("no task %1 in %2").arg(task).arg(m_path);
    if (const QString changed = changedOnDisk(); !changed.isEmpty())
        return changed;
    const TaskSpan old = m_spans[task];
    QByteArray text = QJsonDocument(toJson(whole, true)).toJson(QJsonDocument::Compact);
    QFile source(m_path);
    if (!source.open(QIODevice::ReadOnly))
        return source.errorString();
    if (!source.seek(old.offset))
        return source.errorString();
    const qint64 oldLines = source.read(old.length).count('\n');
    // Atomic: the new file is written beside the old and renamed over it.
    QSaveFile target(m_path);
    if (!target.open(QIODevice::WriteOnly) || !copyRange(source, 0, old.offset, target) || target.write(text) != text.size()
        || !copyRange(source, old.offset + old.length, source.size() - old.offset - old.length, target)) {
        target.cancelWriting();
        return target.errorString().isEmpty() ? source.errorString() : target.errorString();
    }
    if (!target.commit())
        return target.errorString();
    const qint64 byteShift = text.size() - old.length;
    const int lineShift = -int(oldLines);  // the compact text is one line
    m_spans[task].length = text.size();
    for (int later = task + 1; later < m_spans.size(); ++later) {
        m_spans[later].offset += byteShift;
        m_spans[later].line += lineShift;
    }
    m_summary.tasks[task] = taskSummary(whole);
    rememberFileState();
    return {};
}

} // namespace strata::optimize
