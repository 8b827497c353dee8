#include "report/DocumentReport.h"

#include "report/HtmlReport.h"

#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgRenderer>
#include <QTextDocument>
#include <QUrl>
#include <QtMath>

namespace strata::report {

namespace {

std::unique_ptr<QTextDocument> documentFrom(const QString &html, const QVector<Chart> &charts)
{
    auto document = std::make_unique<QTextDocument>();
    for (const Chart &chart : charts) {
        // Logical size stays the chart's; the image is drawn larger for sharp print output.
        document->addResource(QTextDocument::ImageResource, QUrl(chartUrl(chart.id)), chartImage(chart));
    }
    document->setHtml(html);
    return document;
}

} // namespace

QImage chartImage(const Chart &chart, double scale)
{
    QSvgRenderer renderer(chart.svg.toUtf8());
    if (!renderer.isValid())
        return {};
    QImage image(qRound(chart.width * scale), qRound(chart.height * scale), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    renderer.render(&painter);
    painter.end();
    image.setDevicePixelRatio(scale);
    return image;
}

std::unique_ptr<QTextDocument> suiteDocument(const SuiteReport &report, const QString &generator)
{
    const HtmlOptions options{HtmlOptions::Charts::ImageReferences, generator};
    return documentFrom(suiteHtml(report, options), suiteCharts(report));
}

std::unique_ptr<QTextDocument> kernelDocument(const KernelReport &report, const QString &generator)
{
    const HtmlOptions options{HtmlOptions::Charts::ImageReferences, generator};
    return documentFrom(kernelHtml(report, options), {});
}

Expected<int> writePdf(QTextDocument &document, const QString &path, const QString &title)
{
    QFile probe(path);
    if (!probe.open(QIODevice::WriteOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot write the PDF: %1").arg(probe.errorString())};
    probe.close();
    QPdfWriter writer(path);
    writer.setTitle(title);
    writer.setCreator(QStringLiteral("Strata"));
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(12, 12, 12, 12),
                                     QPageLayout::Millimeter));
    writer.setResolution(144);
    // Paginate at the page's size in points first: print() then uses this document (not a
    // clone), so pageCount() below is the PDF's.
    document.setPageSize(writer.pageLayout().paintRectPoints().size());
    document.print(&writer);
    const int pages = document.pageCount();
    if (pages < 1)
        return ReadError{path, 0, 0, QStringLiteral("the report laid out to no pages")};
    return pages;
}

QImage renderImage(QTextDocument &document, int width)
{
    document.setPageSize(QSizeF(width, -1));
    document.setTextWidth(width);
    const QSizeF size = document.documentLayout()->documentSize();
    QImage image(width, qMax(1, qCeil(size.height())), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    document.drawContents(&painter);
    painter.end();
    return image;
}

} // namespace strata::report
