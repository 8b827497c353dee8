#pragma once
// Internal to strata_report_document: a PDF written page by page from any number of
// QTextDocuments (each laid out at the page's size and drawn the way QTextDocument::print
// draws), and documents whose <img src="chart:ID"/> are drawn from the charts' SVG.
#include "core/Expected.h"
#include "report/SvgCharts.h"

#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>

#include <memory>

class QTextDocument;

namespace strata::report {

class PdfPages {
public:
    PdfPages(const QString &path, const QString &title, QPageLayout::Orientation orientation);
    // The reason the file cannot be written, or empty.
    QString openError() const { return m_openError; }
    QSizeF pageSize() const { return m_pageSize; }  // in the documents' units (points)
    // Lays `document` out at the page size and draws its pages, the first on a new page.
    void add(QTextDocument &document);
    // Ends the file; the page count, or the error naming `path`.
    Expected<int> finish();

private:
    QString m_path, m_openError;
    std::unique_ptr<QPdfWriter> m_writer;
    QPainter m_painter;
    QSizeF m_pageSize;
    int m_pages = 0;
};

// A document from `html` whose chart images are drawn from `charts` (vectors in a PDF).
std::unique_ptr<QTextDocument> chartDocument(const QString &html, const QVector<Chart> &charts);

} // namespace strata::report
