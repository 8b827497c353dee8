#pragma once
// Reports laid out by QTextDocument: PDF (QPdfWriter) and PNG previews. The HTML is the same as
// the self-contained file except that charts are <img src="chart:ID"/> references (QTextDocument
// has no SVG): the document's image handler draws each chart from its SVG with QSvgRenderer, as
// vectors into a PDF; the charts are also image resources of the document, for anything that
// reads those. Needs a QGuiApplication (fonts); headless use runs with QT_QPA_PLATFORM=offscreen.
#include "core/Expected.h"
#include "report/KernelReport.h"
#include "report/SuiteReport.h"
#include "report/SvgCharts.h"

#include <QImage>
#include <QString>
#include <QVector>
#include <memory>

class QTextDocument;

namespace strata::report {

// The suite report as one document, laid out for an A4 landscape page (charts split so that
// none is taller than a page). For in-memory reports and previews; writeSuitePdf streams.
std::unique_ptr<QTextDocument> suiteDocument(const SuiteReport &report, const QString &generator = {});
std::unique_ptr<QTextDocument> kernelDocument(const KernelReport &report, const QString &generator = {});

// Writes `document` as an A4 portrait PDF to `path`; returns the page count.
Expected<int> writePdf(QTextDocument &document, const QString &path, const QString &title);

// Writes the suite report as an A4 landscape PDF, laying out a few hundred task rows at a time
// so that memory does not grow with the suite (each part starts a page). Returns the page count.
Expected<int> writeSuitePdf(const SuiteReport &report, const QString &path, const QString &generator = {});

// The document laid out `width` pixels wide, as one image as tall as the content.
QImage renderImage(QTextDocument &document, int width = 900);

// Each chart drawn from its SVG at `scale` times its size (an invalid image for SVG Qt rejects).
QImage chartImage(const Chart &chart, double scale = 2.0);

} // namespace strata::report
