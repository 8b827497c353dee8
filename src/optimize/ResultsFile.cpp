// The streaming results reader: nlohmann::json's SAX parser (Debian's nlohmann-json3-dev) reads
// the file through a buffered byte stream that counts lines; each task is gathered into a
// QJsonObject and checked by taskFromJson (OutcomeJsonRead.cpp), then handed on and dropped.
#include "optimize/ResultsFile.h"

#include "optimize/OutcomeJson.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>

#include <nlohmann/json.hpp>

#include <iterator>

namespace strata::optimize {

namespace {

constexpr int kMaxDepth = 64;  // results nest 4 deep; deeper input is refused, not recursed into

// The file in 64 KiB reads, with the line and column of the next byte.
class ByteStream {
public:
    explicit ByteStream(QFile *file) : m_file(file) {}

    bool atEnd()
    {
        if (m_pos < m_buffer.size())
            return false;
        m_consumed += m_buffer.size();
        m_buffer = m_file->read(64 * 1024);
        m_pos = 0;
        return m_buffer.isEmpty();
    }
    char current() const { return m_buffer[m_pos]; }
    void advance()
    {
        if (m_buffer[m_pos] == '\n') {
            ++m_line;
            m_lineStart = m_consumed + m_pos + 1;
        }
        ++m_pos;
    }
    int line() const { return m_line; }
    int column() const { return int(m_consumed + m_pos - m_lineStart) + 1; }

private:
    QFile *m_file;
    QByteArray m_buffer;
    qsizetype m_pos = 0;
    qint64 m_consumed = 0, m_lineStart = 0;
    int m_line = 1;
};

// The input iterator nlohmann's parser reads through; copies share the stream.
struct ByteIterator {
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char *;
    using reference = char;

    ByteStream *stream = nullptr;  // null: the end

    char operator*() const { return stream->current(); }
    ByteIterator &operator++()
    {
        stream->advance();
        return *this;
    }
    ByteIterator operator++(int)
    {
        ByteIterator before = *this;
        stream->advance();
        return before;
    }
    bool atEnd() const { return !stream || stream->atEnd(); }
    bool operator==(const ByteIterator &other) const { return atEnd() == other.atEnd(); }
};

// Builds one JSON value from SAX events, remembering the line of each key and array element by
// its JSON path so that a problem found later can say where it is.
class ValueBuilder {
public:
    void start(const QString &path, int line)
    {
        m_frames.clear();
        m_lines.clear();
        m_root = {};
        m_rootPath = path;
        m_lines.append({path, line});
    }
    bool open(bool isObject, int line)
    {
        if (!m_frames.isEmpty())
            noteElement(line);
        m_frames.append({isObject, {}, {}, {}, m_frames.isEmpty() ? m_rootPath : childPath()});
        return m_frames.size() <= kMaxDepth;
    }
    void key(const QString &key, int line)
    {
        m_frames.last().key = key;
        m_lines.append({m_frames.last().path + u'.' + key, line});
    }
    // Adds a finished value to the open container (or makes it the root); true when the root is done.
    bool add(QJsonValue value, int line)
    {
        if (m_frames.isEmpty()) {
            m_root = std::move(value);
            return true;
        }
        noteElement(line);
        insert(std::move(value));
        return false;
    }
    bool close()
    {
        Frame frame = m_frames.takeLast();
        QJsonValue value = frame.isObject ? QJsonValue(std::move(frame.object)) : QJsonValue(std::move(frame.array));
        if (m_frames.isEmpty()) {
            m_root = std::move(value);
            return true;
        }
        insert(std::move(value));
        return false;
    }
    const QJsonValue &root() const { return m_root; }
    // The line of `path`, or of the nearest enclosing value whose line is known.
    int lineOf(QString path) const
    {
        while (true) {
            for (const auto &[known, line] : m_lines)
                if (known == path)
                    return line;
            const qsizetype cut = std::max(path.lastIndexOf(u'.'), path.lastIndexOf(u'['));
            if (cut <= 0)
                return m_lines.isEmpty() ? 0 : m_lines.first().second;
            path.truncate(cut);
        }
    }

private:
    struct Frame {
        bool isObject;
        QJsonObject object;
        QJsonArray array;
        QString key;
        QString path;
    };
    QString childPath() const
    {
        const Frame &parent = m_frames.last();
        return parent.isObject ? parent.path + u'.' + parent.key : QStringLiteral("%1[%2]").arg(parent.path).arg(parent.array.size());
    }
    void noteElement(int line)
    {
        if (!m_frames.last().isObject)
            m_lines.append({childPath(), line});
    }
    void insert(QJsonValue value)
    {
        Frame &parent = m_frames.last();
        if (parent.isObject)
            parent.object.insert(parent.key, std::move(value));
        else
            parent.array.append(std::move(value));
    }
    QVector<Frame> m_frames;
    QVector<QPair<QString, int>> m_lines;
    QJsonValue m_root;
    QString m_rootPath;
};

const QStringList kHeaderKeys{QStringLiteral("schema"), QStringLiteral("version"), QStringLiteral("suite"),
                              QStringLiteral("device"), QStringLiteral("driver"), QStringLiteral("triton"),
                              QStringLiteral("torch"), QStringLiteral("commit"), QStringLiteral("date"),
                              QStringLiteral("merged_from"), QStringLiteral("coverage"), QStringLiteral("backend"),
                              QStringLiteral("target")};

// Routes SAX events: header fields into one small object, each element of "tasks" through a
// ValueBuilder into a checked TaskOutcome, anything else (summary, fields of later writers) skipped.
class ResultsSax : public nlohmann::json_sax<nlohmann::json> {
public:
    ResultsSax(const QString &path, ByteStream *stream, const TaskVisitor &onTask)
        : m_path(path), m_stream(stream), m_onTask(onTask) {}

    bool null() override { return scalar(QJsonValue(QJsonValue::Null)); }
    bool boolean(bool value) override { return scalar(value); }
    bool number_integer(number_integer_t value) override { return scalar(qint64(value)); }
    bool number_unsigned(number_unsigned_t value) override
    {
        return scalar(value > quint64(std::numeric_limits<qint64>::max()) ? QJsonValue(double(value)) : QJsonValue(qint64(value)));
    }
    bool number_float(number_float_t value, const string_t &) override { return scalar(value); }
    bool string(string_t &value) override { return scalar(QString::fromStdString(value)); }
    bool binary(binary_t &) override { return true; }
    bool start_object(std::size_t) override { return open(true); }
    bool start_array(std::size_t) override { return open(false); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t &value) override
    {
        const QString key = QString::fromStdString(value);
        if (m_depth == 1) {
            m_topKey = key;
            m_topKeyLine = m_stream->line();
            m_mode = key == QLatin1String("tasks") ? Mode::TasksArray : kHeaderKeys.contains(key) ? Mode::Header : Mode::Skip;
            if (m_mode == Mode::Header)
                m_headerLines.insert(key, m_topKeyLine);
            return true;
        }
        if (m_mode == Mode::Task || m_mode == Mode::Header)
            m_builder.key(key, m_stream->line());
        return true;
    }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &error) override
    {
        // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..." -> "syntax error ..."
        QString message = QString::fromUtf8(error.what());
        message = message.mid(message.indexOf(QLatin1String(": ")) + 2);
        fail(QStringLiteral("not valid JSON: %1").arg(message), m_stream->line(), m_stream->column());
        return false;
    }

    // After the parse: the header, checked, or the first error.
    Expected<SuiteOutcome> result() const
    {
        if (m_error)
            return *m_error;
        JsonProblem problem;
        Expected<SuiteOutcome> suite = suiteHeaderFromJson(m_header, m_path, &problem);
        if (!suite)
            return ReadError{m_path, m_headerLines.value(QStringLiteral("schema")), 0, suite.error().message};
        if (!problem.isEmpty())
            return ReadError{m_path, m_headerLines.value(problem.path.section(u'.', 1, 1)), 0, problem.text()};
        if (!m_sawTasks)
            return ReadError{m_path, 0, 0, QStringLiteral("results.tasks is missing: a results file lists its tasks")};
        return suite;
    }

private:
    enum class Mode { Top, Header, Skip, TasksArray, Tasks, Task };

    bool fail(const QString &message, int line, int column = 0)
    {
        if (!m_error)
            m_error = ReadError{m_path, line, column, message};
        return false;
    }
    QString taskPath() const { return QStringLiteral("tasks[%1]").arg(m_taskIndex); }

    bool open(bool isObject)
    {
        ++m_depth;
        const int line = m_stream->line();
        if (m_depth == 1)
            return isObject || fail(QStringLiteral("not a JSON object: a results file is one object"), line);
        if (m_depth == 2 && m_mode == Mode::TasksArray) {
            if (isObject)
                return fail(QStringLiteral("results.tasks is not an array"), m_topKeyLine);
            m_mode = Mode::Tasks;
            m_sawTasks = true;
            return true;
        }
        if (m_depth == 3 && m_mode == Mode::Tasks) {
            if (!isObject)
                return fail(taskPath() + QStringLiteral(" is not an object"), line);
            m_mode = Mode::Task;
            m_builder.start(taskPath(), line);
        } else if (m_depth == 2 && m_mode == Mode::Header) {
            m_builder.start(QStringLiteral("results.") + m_topKey, line);
        }
        if ((m_mode == Mode::Task || m_mode == Mode::Header) && !m_builder.open(isObject, line))
            return fail(QStringLiteral("nested deeper than %1 levels").arg(kMaxDepth), line);
        return true;
    }

    bool close()
    {
        --m_depth;
        if (m_mode == Mode::Tasks && m_depth == 1) {
            m_mode = Mode::Top;
            return true;
        }
        if (m_mode != Mode::Task && m_mode != Mode::Header)
            return true;
        if (!m_builder.close())
            return true;
        if (m_mode == Mode::Header) {
            m_header.insert(m_topKey, m_builder.root());
            m_mode = Mode::Top;
            return true;
        }
        m_mode = Mode::Tasks;
        return finishTask();
    }

    bool scalar(QJsonValue value)
    {
        const int line = m_stream->line();
        if (m_depth == 0)
            return fail(QStringLiteral("not a JSON object: a results file is one object"), line);
        switch (m_mode) {
        case Mode::Header:
            if (m_depth == 1) {
                m_header.insert(m_topKey, value);
                m_mode = Mode::Top;
            } else {
                m_builder.add(std::move(value), line);
            }
            return true;
        case Mode::TasksArray:
            return fail(QStringLiteral("results.tasks is not an array"), m_topKeyLine);
        case Mode::Tasks:
            return fail(taskPath() + QStringLiteral(" is not an object"), line);
        case Mode::Task:
            m_builder.add(std::move(value), line);
            return true;
        case Mode::Skip:
            if (m_depth == 1)
                m_mode = Mode::Top;
            return true;
        case Mode::Top:
            return true;
        }
        return true;
    }

    bool finishTask()
    {
        JsonProblem problem;
        TaskOutcome task = taskFromJson(m_builder.root().toObject(), taskPath(), &problem);
        if (!problem.isEmpty())
            return fail(problem.text(), m_builder.lineOf(problem.path));
        ++m_taskIndex;
        m_onTask(std::move(task));
        return true;
    }

    QString m_path;
    ByteStream *m_stream;
    const TaskVisitor &m_onTask;
    int m_depth = 0;
    Mode m_mode = Mode::Top;
    QString m_topKey;
    int m_topKeyLine = 0;
    QJsonObject m_header;
    QHash<QString, int> m_headerLines;
    ValueBuilder m_builder;
    qsizetype m_taskIndex = 0;
    bool m_sawTasks = false;
    std::optional<ReadError> m_error;
};

// Stops at the top-level "schema" value; everything else is only counted.
class SchemaSax : public nlohmann::json_sax<nlohmann::json> {
public:
    SchemaSax(const QString &path, ByteStream *stream) : m_path(path), m_stream(stream) {}

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t &) override { return value(); }
    bool string(string_t &text) override
    {
        if (m_depth == 1 && m_atSchema) {
            m_schema = QString::fromStdString(text);
            return false;  // found: stop reading
        }
        return value();
    }
    bool binary(binary_t &) override { return true; }
    bool start_object(std::size_t) override
    {
        ++m_depth;
        m_atSchema = false;
        return true;
    }
    bool start_array(std::size_t) override
    {
        m_atSchema = false;
        return ++m_depth > 1 || notAnObject();
    }
    bool end_object() override { return end(); }
    bool end_array() override { return end(); }
    bool key(string_t &text) override
    {
        m_atSchema = m_depth == 1 && text == "schema";
        return true;
    }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &error) override
    {
        QString message = QString::fromUtf8(error.what());
        message = message.mid(message.indexOf(QLatin1String(": ")) + 2);
        m_error = ReadError{m_path, m_stream->line(), m_stream->column(), QStringLiteral("not valid JSON: %1").arg(message)};
        return false;
    }
    Expected<QString> result() const
    {
        if (m_error)
            return *m_error;
        return m_schema;
    }

private:
    bool value()
    {
        m_atSchema = false;
        return m_depth > 0 || notAnObject();
    }
    bool end()
    {
        --m_depth;
        m_atSchema = false;
        return true;
    }
    bool notAnObject()
    {
        m_error = ReadError{m_path, m_stream->line(), 0, QStringLiteral("not a JSON object")};
        return false;
    }
    QString m_path;
    ByteStream *m_stream;
    int m_depth = 0;
    bool m_atSchema = false;
    QString m_schema;
    std::optional<ReadError> m_error;
};

} // namespace

Expected<QString> readSchemaName(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot read: %1").arg(file.errorString())};
    ByteStream stream(&file);
    SchemaSax sax(path, &stream);
    nlohmann::json::sax_parse(ByteIterator{&stream}, ByteIterator{}, &sax);
    return sax.result();
}

Expected<SuiteOutcome> readResultsFile(const QString &path, const TaskVisitor &onTask)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot read: %1").arg(file.errorString())};
    ByteStream stream(&file);
    ResultsSax sax(path, &stream, onTask);
    nlohmann::json::sax_parse(ByteIterator{&stream}, ByteIterator{}, &sax);
    if (file.error() != QFileDevice::NoError)
        return ReadError{path, 0, 0, QStringLiteral("cannot read: %1").arg(file.errorString())};
    return sax.result();
}

Expected<SuiteOutcome> readSuiteOutcomeFile(const QString &path)
{
    QVector<TaskOutcome> tasks;
    Expected<SuiteOutcome> suite = readResultsFile(path, [&tasks](TaskOutcome &&task) {
        tasks.append(std::move(task));
    });
    if (suite)
        suite->tasks = std::move(tasks);
    return suite;
}

} // namespace strata::optimize
