#pragma once
// The bundled sample kernels (suites/samples): NAME.py with one NAME.VARIANT.spec.json per
// launch specialisation.
#include <QString>
#include <QVector>

namespace strata {

struct SampleVariant {
    QString name;        // "matmul"
    QString variant;     // "default"
    QString kernelPath;  // .../matmul.py
    QString specPath;    // .../matmul.default.spec.json
    QString title() const { return name + QLatin1Char('.') + variant; }
};

// $STRATA_SAMPLES_DIR, else <exe>/../share/strata/samples, else the source tree's suites/samples.
QString defaultSamplesDir();
// Every NAME.VARIANT.spec.json in `dir` whose NAME.py exists, sorted by title.
QVector<SampleVariant> findSamples(const QString &dir);
// "matmul" or "matmul.default" -> the variant ("default" when only the name is given, else the
// first). Not found: an empty SampleVariant.
SampleVariant findSample(const QString &dir, const QString &title);
// Spec files next to a kernel file (NAME.*.spec.json), for "open kernel".
QStringList specsForKernel(const QString &kernelPath);

} // namespace strata
