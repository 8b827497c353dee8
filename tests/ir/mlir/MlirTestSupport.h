#pragma once
// Shared helpers of the MLIR reader tests: fixture paths and small lookups.
#include "ir/mlir/MlirReader.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QTest>

namespace strata::ir::test {

inline QString fixturesDir() { return QStringLiteral(STRATA_FIXTURES_DIR); }
inline QString fixture(const QString &relative) { return fixturesDir() + QLatin1Char('/') + relative; }
inline QString dataFile(const QString &name)
{
    return QStringLiteral(STRATA_MLIR_TEST_DATA) + QLatin1Char('/') + name;
}

inline QString readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

// The compile-time kernel path that every IR location of a fixture names.
inline QString kernelPathOf(const QString &variantDir)
{
    const QJsonObject compile = QJsonDocument::fromJson(readText(variantDir + QStringLiteral("/compile.json")).toUtf8()).object();
    return compile.value(QStringLiteral("source_path")).toString();
}

// 1-based line of the first source line containing `needle`, 0 when none does.
inline int sourceLineOf(const QString &variantDir, const QString &needle)
{
    const QStringList lines = readText(variantDir + QStringLiteral("/source.py")).split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].contains(needle))
            return i + 1;
    }
    return 0;
}

inline QVector<const MlirOp *> opsNamed(const MlirModule &module, const QString &name)
{
    QVector<const MlirOp *> found;
    for (const MlirOp &op : module.ops) {
        if (op.name == name)
            found.append(&op);
    }
    return found;
}

inline MlirModule readOrFail(const QString &path, bool *ok)
{
    const Expected<MlirModule> module = readMlir(readText(path), path);
    *ok = bool(module);
    if (!module) {
        qWarning("%s", qPrintable(module.error().toString()));
        return {};
    }
    return *module;
}

} // namespace strata::ir::test

#define STRATA_SKIP_WITHOUT_FIXTURES()                                                              \
    do {                                                                                            \
        if (!QDir(strata::ir::test::fixturesDir()).exists())                                        \
            QSKIP("tests/fixtures is missing: run tests/fixtures/generate_fixtures.py");            \
    } while (false)

#define READ_MODULE(var, path)                                                                      \
    bool var##Ok = false;                                                                           \
    const strata::ir::MlirModule var = strata::ir::test::readOrFail(path, &var##Ok);                \
    QVERIFY2(var##Ok, qPrintable(QStringLiteral("could not read ") + (path)))
