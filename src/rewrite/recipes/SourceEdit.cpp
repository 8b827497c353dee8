#include "rewrite/recipes/SourceEdit.h"

#include <QJsonArray>

#include <algorithm>

namespace strata::rewrite::recipes {

SourceText::SourceText(const QString &text) : m_text(text)
{
    m_lineStarts.append(0);
    for (int i = 0; i < m_text.size(); ++i) {
        if (m_text.at(i) == u'\n')
            m_lineStarts.append(i + 1);
    }
}

int SourceText::lineStart(int line) const
{
    return line >= 1 && line <= lineCount() ? m_lineStarts.at(line - 1) : -1;
}

QString SourceText::line(int line) const
{
    const int start = lineStart(line);
    if (start < 0)
        return {};
    const int end = line < lineCount() ? m_lineStarts.at(line) - 1 : int(m_text.size());
    return m_text.mid(start, end - start);
}

QString SourceText::indentOf(int lineNumber) const
{
    const QString text = line(lineNumber);
    int n = 0;
    while (n < text.size() && (text.at(n) == u' ' || text.at(n) == u'\t'))
        ++n;
    return text.left(n);
}

int SourceText::offset(int lineNumber, int byteColumn) const
{
    const int start = lineStart(lineNumber);
    if (start < 0 || byteColumn < 0)
        return -1;
    // Columns count UTF-8 bytes; convert the line's prefix back to UTF-16 units.
    const QByteArray bytes = line(lineNumber).toUtf8();
    return start + int(QString::fromUtf8(bytes.left(byteColumn)).size());
}

int SourceText::startOf(const QJsonObject &node) const
{
    return offset(node.value(QLatin1String("lineno")).toInt(-1), node.value(QLatin1String("col_offset")).toInt(-1));
}

int SourceText::endOf(const QJsonObject &node) const
{
    return offset(node.value(QLatin1String("end_lineno")).toInt(-1),
                  node.value(QLatin1String("end_col_offset")).toInt(-1));
}

int SourceText::afterLastArgument(const QJsonObject &call) const
{
    int last = -1;
    for (const char *field : {"args", "keywords"}) {
        for (const QJsonValue &item : call.value(QLatin1String(field)).toArray())
            last = std::max(last, endOf(item.toObject()));
    }
    return last;
}

QString SourceText::slice(const QJsonObject &node) const
{
    const int start = startOf(node);
    const int end = endOf(node);
    return start >= 0 && end >= start ? m_text.mid(start, end - start) : QString();
}

static bool overlaps(const TextEdit &a, const TextEdit &b)
{
    if (a.start == a.end || b.start == b.end)  // an insertion overlaps only a replacement around it
        return (a.start > b.start && a.start < b.end) || (b.start > a.start && b.start < a.end);
    return a.start < b.end && b.start < a.end;
}

bool editsCompatible(const QVector<TextEdit> &a, const QVector<TextEdit> &b)
{
    for (const TextEdit &x : a) {
        for (const TextEdit &y : b) {
            if (overlaps(x, y) || (x.start == y.start && x.end == y.end && x.start != x.end))
                return false;
        }
    }
    return true;
}

Expected<QString> applyEdits(const QString &text, QVector<TextEdit> edits)
{
    for (const TextEdit &edit : edits) {
        if (edit.start < 0 || edit.end < edit.start || edit.end > text.size())
            return ReadError{{}, 0, 0, QStringLiteral("an edit lies outside the source (%1..%2 of %3 characters)")
                                           .arg(edit.start).arg(edit.end).arg(text.size())};
    }
    std::stable_sort(edits.begin(), edits.end(), [](const TextEdit &a, const TextEdit &b) { return a.start < b.start; });
    for (int i = 1; i < edits.size(); ++i) {
        if (edits.at(i).start < edits.at(i - 1).end)
            return ReadError{{}, 0, 0, QStringLiteral("two edits overlap at character %1").arg(edits.at(i).start)};
    }
    QString result;
    int copied = 0;
    for (const TextEdit &edit : edits) {
        result += text.mid(copied, edit.start - copied);
        result += edit.replacement;
        copied = edit.end;
    }
    result += text.mid(copied);
    return result;
}

} // namespace strata::rewrite::recipes
