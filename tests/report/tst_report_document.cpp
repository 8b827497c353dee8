// PDF and PNG through QTextDocument (offscreen): the PDF is a real PDF with pages, the charts are
// drawn from their SVG, and a preview PNG is left next to the test binary for a person to look at.
#include "ReportTestData.h"
#include "report/DocumentReport.h"

#include <QGuiApplication>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

using namespace strata;
using namespace strata::report;

namespace {

// Pages in a PDF file: "/Type /Page" objects (not the "/Type /Pages" tree node).
int pdfPageObjects(const QByteArray &pdf)
{
    static const QRegularExpression page(QStringLiteral("/Type\\s*/Page(?!s)"));
    return int(QString::fromLatin1(pdf).count(page));
}

// Share of pixels that are not white: a blank render has none.
double inkShare(const QImage &image)
{
    qint64 ink = 0;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2)
            ink += image.pixelColor(x, y).lightness() < 200;
    }
    return double(ink) / (qint64(image.width() / 2) * (image.height() / 2));
}

} // namespace

class ReportDocumentTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void chartsDrawFromSvg();
    void suitePdfHasPages();
    void kernelPdfAndPreview();

private:
    std::optional<LoadedCompile> m_compile;
    diagnosis::LadderResult m_ladder;
    optimize::SuiteOutcome m_suite;
    QTemporaryDir m_dir;
};

void ReportDocumentTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_compile = testing::loadFixtureCompile(QStringLiteral("vector_add/unaligned"));
    m_ladder = testing::ladderOnUnalignedAdd(*m_compile);
    m_suite = testing::suiteOutcome(m_compile->sourceText);
}

void ReportDocumentTest::chartsDrawFromSvg()
{
    const SuiteReport report = buildSuiteReport(m_suite);
    for (const Chart &chart : suiteCharts(report)) {
        const QImage image = chartImage(chart, 1.0);
        QVERIFY2(!image.isNull(), qPrintable(chart.id + QStringLiteral(": QSvgRenderer rejected the SVG")));
        QCOMPARE(image.size(), QSize(chart.width, chart.height));
        QVERIFY2(inkShare(image) > 0.01, qPrintable(chart.id));
    }
}

void ReportDocumentTest::suitePdfHasPages()
{
    const SuiteReport report = buildSuiteReport(m_suite);
    std::unique_ptr<QTextDocument> document = suiteDocument(report, QStringLiteral("tst_report_document"));
    // The charts are image resources the document resolves.
    QVERIFY(!document->resource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart:speedup"))).isNull());
    const QString path = m_dir.filePath(QStringLiteral("suite.pdf"));
    Expected<int> pages = writePdf(*document, path, QStringLiteral("suite"));
    QVERIFY2(pages, pages ? "" : qPrintable(pages.error().toString()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray pdf = file.readAll();
    QVERIFY(pdf.startsWith("%PDF-"));
    QVERIFY(pdf.trimmed().endsWith("%%EOF"));
    QVERIFY(*pages >= 1);
    QCOMPARE(pdfPageObjects(pdf), *pages);

    const QImage preview = renderImage(*suiteDocument(report), 900);
    QVERIFY(preview.height() > 900);
    QVERIFY(inkShare(preview) > 0.02);
    QVERIFY(preview.save(QCoreApplication::applicationDirPath() + QStringLiteral("/report-suite-preview.png")));
}

void ReportDocumentTest::kernelPdfAndPreview()
{
    KernelReportInputs inputs;
    inputs.task = &m_suite.tasks[0];
    inputs.diagnosis = &m_ladder;
    inputs.compile = &*m_compile;
    const KernelReport report = buildKernelReport(inputs);
    std::unique_ptr<QTextDocument> document = kernelDocument(report);
    // The source's HTML shows literally in the laid-out text.
    QVERIFY(document->toPlainText().contains(QStringLiteral("</script><b>not bold</b>")));
    const QString path = m_dir.filePath(QStringLiteral("kernel.pdf"));
    Expected<int> pages = writePdf(*document, path, report.title);
    QVERIFY2(pages, pages ? "" : qPrintable(pages.error().toString()));
    QVERIFY(*pages >= 2);  // candidates, diff, findings with IR excerpts do not fit one page
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(pdfPageObjects(file.readAll()), *pages);
    const QImage preview = renderImage(*kernelDocument(report), 900);
    QVERIFY(preview.save(QCoreApplication::applicationDirPath() + QStringLiteral("/report-kernel-preview.png")));
    // The first screenful at full size, to read without scaling.
    QVERIFY(preview.copy(0, 0, preview.width(), 1300).save(QCoreApplication::applicationDirPath()
                                                            + QStringLiteral("/report-kernel-preview-top.png")));

    Expected<int> unwritable = writePdf(*document, m_dir.filePath(QStringLiteral("no/such/dir/x.pdf")), {});
    QVERIFY(!unwritable);
    QVERIFY(unwritable.error().message.startsWith(QStringLiteral("cannot write the PDF")));
}

QTEST_MAIN(ReportDocumentTest)
#include "tst_report_document.moc"
