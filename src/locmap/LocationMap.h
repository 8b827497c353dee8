#pragma once
// The location map: per-stage "IR line -> source location" plus the inverse index
// "source line -> IR lines", joined on the kernel's own Python file. Lookups both ways are
// indexed (no linear scans), so a GUI click answers in microseconds.
#include "core/StageListing.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

class LocationMap {
public:
    // `kernelFile`: the Python file whose lines are "the source lines". Frames in other files
    // (triton/language/*.py helpers) resolve to the call site in this file.
    explicit LocationMap(QString kernelFile = {});

    const QString &kernelFile() const { return m_kernelFile; }

    // Adds (or replaces) a stage. The map keeps only what it indexes, not the listing.
    void addStage(const StageListing &listing);
    QStringList stages() const;  // in insertion order

    // 0-based line indices of `stage` whose code comes from 1-based `sourceLine`, ascending.
    QVector<int> linesForSource(const QString &stage, int sourceLine) const;

    // The kernel-file location of one IR line (invalid when the line has none).
    SourceLocation sourceForLine(const QString &stage, int irLine) const;

    // Sibling lines: all lines of `stage` that share `irLine`'s source line (irLine included).
    QVector<int> siblingLines(const QString &stage, int irLine) const;

    // Source lines (1-based, ascending) that have code in at least one stage / in `stage`.
    QVector<int> sourceLinesWithCode() const;
    QVector<int> sourceLinesWithCode(const QString &stage) const;

private:
    struct StageIndex {
        QVector<int> sourceLineOfIrLine;       // per IR line: 1-based source line or 0
        QVector<int> columnOfIrLine;           // per IR line: column or 0
        QHash<int, QVector<int>> irLinesOfSource;
    };
    QString m_kernelFile;
    QStringList m_order;
    QHash<QString, StageIndex> m_stages;
};

} // namespace strata
