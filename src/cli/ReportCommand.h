#pragma once
// strata-cli report: a suite or kernel report from a results file or a diagnosis file, in HTML,
// Markdown, JSON, CSV, SARIF or PDF.

namespace strata::cli {

// Runs before main() makes its QCoreApplication: a PDF is laid out by QTextDocument, which needs
// a QGuiApplication (fonts); this makes one (offscreen unless QT_QPA_PLATFORM says otherwise).
int runReportMain(int argc, char **argv);

} // namespace strata::cli
