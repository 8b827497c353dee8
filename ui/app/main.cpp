// strata: the desktop app. Opens a compile, a kernel + spec, or a bundled sample from the
// command line; everything else from the menus.
#include "app/Language.h"
#include "app/MainWindow.h"
#include "app/Samples.h"
#include "app/ScreenshotMode.h"
#include "app/Theme.h"
#include "trace/TritonParseTrace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QLocale>
#include <QTimer>


int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Strata"));
    QApplication::setApplicationVersion(QStringLiteral(STRATA_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/strata/icons/strata.svg")));
    // --lang is read before the parser runs: the parser's own texts are translated too.
    QString language;
    for (int i = 1; i + 1 < argc; ++i)
        if (qstrcmp(argv[i], "--lang") == 0)
            language = QString::fromLocal8Bit(argv[i + 1]);
    strata::installTranslations(app, strata::chosenLocale(language));

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Explains why a Triton kernel is slow."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("path"),
                                 QApplication::translate("main", "compile.json (or its folder), a kernel .py, or a tritonparse trace (.ndjson, .ndjson.gz)"));
    const QCommandLineOption specOption(QStringLiteral("spec"),
                                        QApplication::translate("main", "Spec file for a kernel .py."),
                                        QStringLiteral("file"));
    const QCommandLineOption sampleOption(QStringLiteral("sample"),
                                          QApplication::translate("main", "Compile a bundled sample, e.g. matmul.default."),
                                          QStringLiteral("name"));
    const QCommandLineOption kernelOption(QStringLiteral("kernel"),
                                          QApplication::translate("main", "With a trace: the kernel to show first (NAME, NAME#N or a hash prefix)."),
                                          QStringLiteral("name"));
    const QCommandLineOption resultsOption(QStringLiteral("results"),
                                           QApplication::translate("main", "Open suite results from strata-cli bench --json, or the newest complete results of a folder of them."),
                                           QStringLiteral("file"));
    const QCommandLineOption langOption(QStringLiteral("lang"),
                                        QApplication::translate("main", "Language for this run, e.g. zh_CN or en (default: Settings > Language, else the system's)."),
                                        QStringLiteral("code"));
    const QCommandLineOption targetOption(QStringLiteral("target"),
                                          QApplication::translate("main", "Compile kernels and samples for this target instead of their spec's (File > Compile Target), e.g. ascend910_95."),
                                          QStringLiteral("target"));
    const QCommandLineOption darkOption(QStringLiteral("dark"), QApplication::translate("main", "Use a dark palette."));
    parser.addOptions({specOption, sampleOption, kernelOption, resultsOption, langOption, targetOption, darkOption});
    const QCommandLineOption screenshot = strata::screenshotOption();
    parser.addOption(screenshot);
    parser.process(app);

    if (parser.isSet(darkOption)) {
        strata::applyDarkTheme();
    }

    strata::MainWindow window;
    window.show();
    if (parser.isSet(targetOption) && !window.setCompileTarget(parser.value(targetOption)))
        qWarning("strata: no backend plugin offers the target %s", qPrintable(parser.value(targetOption)));

    const QString path = parser.positionalArguments().value(0);
    if (parser.isSet(screenshot))
        strata::writeScreenshotAndQuit(window, parser.value(screenshot), parser.isSet(sampleOption) || !path.isEmpty());
    QTimer::singleShot(0, &window, [&] {
        if (parser.isSet(resultsOption))
            window.openSuiteResults(parser.value(resultsOption));
        if (parser.isSet(sampleOption)) {
            const strata::SampleVariant sample =
                strata::findSample(strata::defaultSamplesDir(), parser.value(sampleOption));
            if (sample.kernelPath.isEmpty())
                qWarning("strata: no sample named %s in %s", qPrintable(parser.value(sampleOption)),
                         qPrintable(strata::defaultSamplesDir()));
            else
                window.compileKernel(sample.kernelPath, sample.specPath);
        } else if (path.endsWith(QLatin1String(".py"))) {
            const QStringList specs = strata::specsForKernel(path);
            const QString spec = parser.isSet(specOption) ? parser.value(specOption) : specs.value(0);
            window.compileKernel(path, spec);
        } else if (strata::trace::looksLikeTrace(path)) {
            window.openTrace(path, parser.value(kernelOption));
        } else if (!path.isEmpty()) {
            window.openCompile(path);
        }
    });
    return app.exec();
}
