#pragma once
// Building blocks the HTML renderers share: escaping, the page frame, tables, code blocks.
#include "report/KernelReport.h"

#include <QString>
#include <QStringList>

namespace strata::report::html {

QString escaped(const QString &text);  // for character data and attribute values

QString pageStart(const QString &title, const QString &extraStyle = {});
QString pageEnd(const QString &generator);

QString heading(int level, const QString &text, const QString &id = {});
QString paragraph(const QString &text, const QString &cssClass = {});

// A table with a header row; cells are plain text (escaped here). `rowClass` and `rowKey`, when
// given, become each row's class and data-key attribute (tests and styles find rows by them).
struct Table {
    QString cssClass;
    QStringList header;
    QVector<QStringList> rows;
    QStringList rowClasses;  // parallel to rows, optional
    QStringList rowKeys;     // parallel to rows, optional
};
QString table(const Table &table);
// The same table a row at a time, for tables too long to hold (a suite's tasks).
QString tableStart(const QString &cssClass, const QStringList &header);
QString tableRow(const QStringList &header, const QStringList &cells, const QString &rowClass = {}, const QString &rowKey = {});
QString tableEnd();

// Two-column "name | value" table.
QString keyValueTable(const QString &cssClass, const QVector<QPair<QString, QString>> &pairs);

// Numbered lines in a <pre>; focused lines are marked.
QString codeBlock(const QString &cssClass, const QVector<ExcerptLine> &lines);

} // namespace strata::report::html
