#include "report/ReportFiles.h"

#include "core/AtomicFile.h"
#include "report/DataReport.h"
#include "report/DocumentReport.h"
#include "report/HtmlReport.h"
#include "report/MarkdownReport.h"
#include "report/SarifReport.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTextDocument>

namespace strata::report {

QString reportFormatForPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("htm"))
        return QStringLiteral("html");
    if (suffix == QLatin1String("markdown"))
        return QStringLiteral("md");
    for (const char *format : {"html", "md", "json", "csv", "pdf", "sarif"})
        if (suffix == QLatin1String(format))
            return suffix;
    return {};
}

std::optional<ReadError> writeSuiteReportText(const SuiteReport &report, const QString &format, const QString &generator,
                                              TextSink &out)
{
    if (format == QLatin1String("html"))
        return writeSuiteHtml(report, {HtmlOptions::Charts::InlineSvg, generator}, out);
    if (format == QLatin1String("md"))
        return writeSuiteMarkdown(report, out);
    if (format == QLatin1String("json"))
        return writeSuiteJson(report, out);
    if (format == QLatin1String("csv"))
        return writeSuiteCsv(report, out);
    if (format == QLatin1String("sarif"))
        return ReadError{{}, 0, 0, QStringLiteral("SARIF holds findings: a suite report has none (write a task's report with its diagnosis)")};
    return ReadError{{}, 0, 0, QStringLiteral("unknown report format \"%1\" (html, md, json, csv, pdf)").arg(format)};
}

Expected<QString> suiteReportText(const SuiteReport &report, const QString &format, const QString &generator)
{
    StringSink sink;
    if (std::optional<ReadError> error = writeSuiteReportText(report, format, generator, sink))
        return *error;
    return sink.take();
}

namespace {

Expected<QString> writeText(const QString &path, const QString &text)
{
    if (const QString error = writeFileAtomically(path, text.toUtf8()); !error.isEmpty())
        return ReadError{path, 0, 0, QStringLiteral("cannot write the report: %1").arg(error)};
    return path;
}

} // namespace

Expected<QString> kernelReportText(const KernelReport &report, const QString &format, const QString &generator,
                                   const QString &version)
{
    if (format == QLatin1String("html"))
        return kernelHtml(report, {HtmlOptions::Charts::InlineSvg, generator});
    if (format == QLatin1String("md"))
        return kernelMarkdown(report);
    if (format == QLatin1String("json"))
        return QString::fromUtf8(QJsonDocument(kernelJson(report)).toJson(QJsonDocument::Indented));
    if (format == QLatin1String("csv"))
        return kernelCsv(report);
    if (format == QLatin1String("sarif")) {
        if (!report.diagnosis)
            return ReadError{{}, 0, 0, QStringLiteral("SARIF holds findings: this report has no diagnosis")};
        return QString::fromUtf8(QJsonDocument(sarifLog(*report.diagnosis, {version, {}})).toJson(QJsonDocument::Indented));
    }
    return ReadError{{}, 0, 0, QStringLiteral("unknown report format \"%1\" (html, md, json, csv, sarif, pdf)").arg(format)};
}

Expected<QString> writeKernelReport(const KernelReport &report, const QString &format, const QString &path,
                                    const QString &generator, const QString &version)
{
    if (format == QLatin1String("pdf")) {
        Expected<int> pages = writePdf(*kernelDocument(report, generator), path, report.title);
        if (!pages)
            return pages.error();
        return path;
    }
    Expected<QString> text = kernelReportText(report, format, generator, version);
    if (!text)
        return ReadError{path, 0, 0, text.error().message};
    return writeText(path, *text);
}

Expected<QString> writeSuiteReport(const SuiteReport &report, const QString &format, const QString &path,
                                   const QString &generator)
{
    if (format == QLatin1String("pdf")) {
        Expected<int> pages = writeSuitePdf(report, path, generator);
        if (!pages)
            return pages.error();
        return path;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot write the report: %1").arg(file.errorString())};
    DeviceSink sink(&file);
    if (std::optional<ReadError> error = writeSuiteReportText(report, format, generator, sink)) {
        file.cancelWriting();
        return error->file.isEmpty() ? ReadError{path, 0, 0, error->message} : *error;
    }
    if (!sink.flush() || !file.commit())
        return ReadError{path, 0, 0, QStringLiteral("cannot write the report: %1")
                                         .arg(sink.error().isEmpty() ? file.errorString() : sink.error())};
    return path;
}

} // namespace strata::report
