#pragma once
// Test access to tests/fixtures/<sample>/<variant>/ (real triton 3.6.0 output, see
// tests/fixtures/generate_fixtures.py): the kernel's artifacts, the path the compiler recorded
// for its source, and source lines found by their text so tests do not hard-code line numbers.
#include "core/StageListing.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QString>
#include <QStringList>

namespace strata::testing {

struct Fixture {
    QString dir;
    QString kernel;      // "add_kernel"
    QString kernelFile;  // the path the IR names: compile.json's source_path
    QStringList sourceLines;

    bool isValid() const { return !kernel.isEmpty() && !sourceLines.isEmpty(); }
    QString artifact(const QString &suffix) const { return dir + QLatin1Char('/') + kernel + suffix; }

    // 1-based line of the first source line containing `needle`; 0 when none does.
    int lineOf(const QString &needle) const
    {
        for (int i = 0; i < sourceLines.size(); ++i) {
            if (sourceLines[i].contains(needle))
                return i + 1;
        }
        return 0;
    }
};

inline QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

inline QString fixturesDir()
{
    return QStringLiteral(STRATA_FIXTURES_DIR);
}

inline Fixture loadFixture(const QString &sample, const QString &variant)
{
    Fixture fixture;
    fixture.dir = fixturesDir() + QLatin1Char('/') + sample + QLatin1Char('/') + variant;
    const QJsonObject compile = QJsonDocument::fromJson(
        readText(fixture.dir + QStringLiteral("/compile.json")).toUtf8()).object();
    fixture.kernel = compile.value(QStringLiteral("kernel")).toString();
    fixture.kernelFile = compile.value(QStringLiteral("source_path")).toString();
    fixture.sourceLines = readText(fixture.dir + QStringLiteral("/source.py")).split(QLatin1Char('\n'));
    return fixture;
}

// Every "<sample>/<variant>" folder that holds a compile.json of the NVIDIA fixtures (these
// tests read LLVM IR, PTX and SASS). tests/fixtures/ascend holds another backend's compiles,
// read by that plugin's tests.
inline QStringList allFixtures()
{
    QStringList found;
    const QDir root(fixturesDir());
    for (const QString &sample : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        if (sample == QLatin1String("ascend"))
            continue;
        const QDir sampleDir(root.filePath(sample));
        for (const QString &variant : sampleDir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            if (QFile::exists(sampleDir.filePath(variant + QStringLiteral("/compile.json"))))
                found.append(sample + QLatin1Char('/') + variant);
        }
    }
    return found;
}

// Opcodes of the instruction lines whose innermost frame in `file` is on `line`.
inline QSet<QString> opcodesAtSourceLine(const StageListing &listing, const QString &file, int line)
{
    QSet<QString> opcodes;
    for (const ListingLine &l : listing.lines) {
        if (l.kind != LineKind::Instruction)
            continue;
        const SourceLocation loc = frameInFile(l.frames, file);
        if (loc.line == line)
            opcodes.insert(l.opcode);
    }
    return opcodes;
}

inline bool anyStartsWith(const QSet<QString> &values, const QString &prefix)
{
    for (const QString &value : values) {
        if (value.startsWith(prefix))
            return true;
    }
    return false;
}

// QCOMPARE cannot print locations (strata::toString returns a QString, QTest wants char*), so
// locations are compared through this, which prints both sides on failure.
inline QByteArray describe(const SourceLocation &loc)
{
    return toString(loc).toUtf8();
}

inline QByteArray describe(const LocationChain &chain)
{
    QStringList frames;
    for (const SourceLocation &frame : chain)
        frames.append(toString(frame));
    return frames.join(QStringLiteral(" <- ")).toUtf8();
}

} // namespace strata::testing

#define STRATA_COMPARE_LOCATION(actual, expected)                                                  \
    QVERIFY2((actual) == (expected),                                                               \
             (QByteArray("got ") + strata::testing::describe(actual) + ", expected "              \
              + strata::testing::describe(expected)).constData())
