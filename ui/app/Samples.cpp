#include "app/Samples.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <algorithm>

namespace strata {

namespace {
const QString kSpecSuffix = QStringLiteral(".spec.json");
}

QString defaultSamplesDir()
{
    const QString fromEnv = qEnvironmentVariable("STRATA_SAMPLES_DIR");
    if (!fromEnv.isEmpty())
        return fromEnv;
    const QString installed = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/strata/samples");
    if (QFileInfo(installed).isDir())
        return QDir(installed).canonicalPath();
#ifdef STRATA_SAMPLES_DIR
    return QStringLiteral(STRATA_SAMPLES_DIR);
#else
    return installed;
#endif
}

QVector<SampleVariant> findSamples(const QString &dir)
{
    QVector<SampleVariant> samples;
    const QDir folder(dir);
    for (const QString &specFile : folder.entryList({QStringLiteral("*") + kSpecSuffix}, QDir::Files)) {
        // NAME.VARIANT.spec.json: the name is up to the first dot.
        const QString stem = specFile.left(specFile.size() - kSpecSuffix.size());
        const int dot = stem.indexOf(QLatin1Char('.'));
        if (dot <= 0)
            continue;
        SampleVariant sample;
        sample.name = stem.left(dot);
        sample.variant = stem.mid(dot + 1);
        sample.kernelPath = folder.absoluteFilePath(sample.name + QStringLiteral(".py"));
        sample.specPath = folder.absoluteFilePath(specFile);
        if (QFileInfo::exists(sample.kernelPath))
            samples.append(sample);
    }
    std::sort(samples.begin(), samples.end(),
              [](const SampleVariant &a, const SampleVariant &b) { return a.title() < b.title(); });
    return samples;
}

SampleVariant findSample(const QString &dir, const QString &title)
{
    const QVector<SampleVariant> samples = findSamples(dir);
    const int dot = title.indexOf(QLatin1Char('.'));
    const QString name = dot < 0 ? title : title.left(dot);
    const QString variant = dot < 0 ? QStringLiteral("default") : title.mid(dot + 1);
    const SampleVariant *firstOfName = nullptr;
    for (const SampleVariant &sample : samples) {
        if (sample.name != name)
            continue;
        if (sample.variant == variant)
            return sample;
        if (!firstOfName)
            firstOfName = &sample;
    }
    return (dot < 0 && firstOfName) ? *firstOfName : SampleVariant{};
}

QStringList specsForKernel(const QString &kernelPath)
{
    const QFileInfo kernel(kernelPath);
    const QDir folder = kernel.absoluteDir();
    QStringList specs;
    for (const QString &file : folder.entryList({kernel.completeBaseName() + QStringLiteral(".*") + kSpecSuffix},
                                                QDir::Files, QDir::Name))
        specs.append(folder.absoluteFilePath(file));
    return specs;
}

} // namespace strata
