#pragma once
// How the ops of one stage resolve to the kernel's source lines, and why the rest do not: a
// location naming a file that does not exist, a line past the end of the kernel, only another
// file (library code no call site ties to the kernel), or no location at all. A stage whose
// locations point elsewhere maps nothing, and must say so rather than look clean.
#include "core/Expected.h"
#include "core/StageListing.h"

#include <QString>
#include <QVector>

namespace strata {

struct LocationStats {
    QString stage;
    int ops = 0;           // instruction lines
    int mapped = 0;        // with a frame on a line of the kernel source
    int noLocation = 0;    // no location at all (loc(unknown), code the compiler made up)
    int missingFile = 0;   // innermost frame in a file that does not exist (and no kernel frame)
    int beyondSource = 0;  // a frame in the kernel's file past its last line
    int otherFile = 0;     // frames only in other files that exist

    int unusable() const { return ops - mapped; }
    // "120 of 166 ops mapped; 30 without a location, 16 in a missing file (/x/k.py)"
    QString summary() const;
    QString firstMissingFile;  // an example for the message
    QString firstOtherFile;
};

// Counts `listing`'s ops by how their locations resolve against the kernel file (`kernelLines`
// lines long), and drops kernel-file frames past its end, so nothing attributes code to a line
// the kernel does not have.
LocationStats checkLocations(StageListing &listing, const QString &kernelFile, int kernelLines);

// The warnings a stage's counts call for: NoMappedLines when it has ops but none maps,
// UnresolvedLocations when locations point past the kernel's end, or a quarter of the ops only
// into other (or missing) files.
QVector<ReadError> locationProblems(const LocationStats &stats, const QString &path);

} // namespace strata
