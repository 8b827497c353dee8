#include "report/DocumentReport.h"

#include "report/HtmlReport.h"
#include "report/PdfPages.h"

#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QHash>
#include <QSvgRenderer>
#include <QTextDocument>
#include <QTextObjectInterface>
#include <QUrl>
#include <QtMath>

namespace strata::report {

namespace {

// Replaces the document's image handler: a chart is drawn from its SVG only when its page is
// drawn, and only then rasterised (at twice its size, for print). Vectors would be smaller for
// the shapes, but QtSvg's text reaches a PDF as glyph outlines, ~350 KB a chart.
class ChartImages : public QObject, public QTextObjectInterface {
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)

public:
    ChartImages(const QVector<Chart> &charts, QObject *parent) : QObject(parent)
    {
        for (const Chart &chart : charts)
            m_charts.insert(chartUrl(chart.id), chart);
    }
    QSizeF intrinsicSize(QTextDocument *, int, const QTextFormat &format) override
    {
        const QTextImageFormat image = format.toImageFormat();
        return {image.width(), image.height()};
    }
    void drawObject(QPainter *painter, const QRectF &rect, QTextDocument *, int, const QTextFormat &format) override
    {
        // The layout asks for every object of a block it draws, on whichever page; a chart off
        // this page would still be written into the page's PDF stream (clipped away, ~100 KB).
        if (painter->hasClipping() && !painter->clipBoundingRect().intersects(rect))
            return;
        const auto chart = m_charts.constFind(format.toImageFormat().name());
        if (chart == m_charts.constEnd())
            return;
        painter->drawImage(rect, chartImage(*chart, kPrintScale));
    }

private:
    static constexpr double kPrintScale = 2.0;
    QHash<QString, Chart> m_charts;
};

constexpr int kPdfResolution = 144;

} // namespace

std::unique_ptr<QTextDocument> chartDocument(const QString &html, const QVector<Chart> &charts)
{
    auto document = std::make_unique<QTextDocument>();
    document->documentLayout()->registerHandler(QTextFormat::ImageObject, new ChartImages(charts, document.get()));
    // Also as resources, at their own size, for readers of the document's resources.
    for (const Chart &chart : charts)
        document->addResource(QTextDocument::ImageResource, QUrl(chartUrl(chart.id)), chartImage(chart, 1.0));
    document->setHtml(html);
    return document;
}

PdfPages::PdfPages(const QString &path, const QString &title, QPageLayout::Orientation orientation) : m_path(path)
{
    QFile probe(path);
    if (!probe.open(QIODevice::WriteOnly)) {
        m_openError = probe.errorString();
        return;
    }
    probe.close();
    m_writer = std::make_unique<QPdfWriter>(path);
    m_writer->setTitle(title);
    m_writer->setCreator(QStringLiteral("Strata"));
    m_writer->setPageLayout(QPageLayout(QPageSize(QPageSize::A4), orientation, QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter));
    m_writer->setResolution(kPdfResolution);
    m_pageSize = m_writer->pageLayout().paintRectPoints().size();
    if (!m_painter.begin(m_writer.get()))
        m_openError = QStringLiteral("the PDF writer did not start");
}

void PdfPages::add(QTextDocument &document)
{
    if (!m_openError.isEmpty())
        return;
    document.setPageSize(m_pageSize);
    const int count = document.pageCount();
    // As QTextDocument::print: document units scaled onto the page, one page-high view at a time.
    const qreal scaleX = m_writer->width() / m_pageSize.width(), scaleY = m_writer->height() / m_pageSize.height();
    for (int page = 0; page < count; ++page) {
        if (m_pages > 0)
            m_writer->newPage();
        m_painter.save();
        m_painter.scale(scaleX, scaleY);
        m_painter.translate(0, -page * m_pageSize.height());
        const QRectF view(0, page * m_pageSize.height(), m_pageSize.width(), m_pageSize.height());
        m_painter.setClipRect(view);
        QAbstractTextDocumentLayout::PaintContext context;
        context.clip = view;
        context.palette.setColor(QPalette::Text, Qt::black);
        document.documentLayout()->draw(&m_painter, context);
        m_painter.restore();
        ++m_pages;
    }
}

Expected<int> PdfPages::finish()
{
    if (!m_openError.isEmpty())
        return ReadError{m_path, 0, 0, QStringLiteral("cannot write the PDF: %1").arg(m_openError)};
    m_painter.end();
    if (m_pages < 1)
        return ReadError{m_path, 0, 0, QStringLiteral("the report laid out to no pages")};
    return m_pages;
}

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

std::unique_ptr<QTextDocument> kernelDocument(const KernelReport &report, const QString &generator)
{
    const HtmlOptions options{HtmlOptions::Charts::ImageReferences, generator};
    return chartDocument(kernelHtml(report, options), {});
}

Expected<int> writePdf(QTextDocument &document, const QString &path, const QString &title)
{
    PdfPages pdf(path, title, QPageLayout::Portrait);
    pdf.add(document);
    return pdf.finish();
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

#include "DocumentReport.moc"
