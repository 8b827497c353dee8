#pragma once
// Reports laid out by QTextDocument: PDF (QPdfWriter) and PNG previews. The HTML is the same as
// the self-contained file except that charts are images (QTextDocument has no SVG): each chart's
// SVG is drawn by QSvgRenderer into an image resource the <img src="chart:ID"/> refers to.
// Needs a QGuiApplication (fonts); headless use runs with QT_QPA_PLATFORM=offscreen.
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

std::unique_ptr<QTextDocument> suiteDocument(const SuiteReport &report, const QString &generator = {});
std::unique_ptr<QTextDocument> kernelDocument(const KernelReport &report, const QString &generator = {});

// Writes `document` as an A4 PDF to `path`; returns the page count.
Expected<int> writePdf(QTextDocument &document, const QString &path, const QString &title);

// The document laid out `width` pixels wide, as one image as tall as the content.
QImage renderImage(QTextDocument &document, int width = 900);

// Each chart drawn from its SVG at `scale` times its size (an invalid image for SVG Qt rejects).
QImage chartImage(const Chart &chart, double scale = 2.0);

} // namespace strata::report
