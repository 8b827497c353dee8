#pragma once
// One entry point for every stage reader: pick the reader by the stage's format.
// Backends declare formats (core/Stage.h); they never parse text themselves.
#include "core/Expected.h"
#include "core/Stage.h"
#include "core/StageListing.h"

namespace strata::ir {

// Reads `text` (the whole stage) into a listing. `path` is only used for error messages and
// StageListing::path. Errors name the file and the line where reading failed, and their kind
// (ProblemKind): text that is empty, not the format, cut short or unparsable is refused; defects
// a reader reads past (junk lines) are in StageListing::problems.
Expected<StageListing> readStageText(StageFormat format, const QString &stageId,
                                     const QString &text, const QString &path = {});

// Reads a stage from a file on disk (errors for a missing or unreadable file name it).
Expected<StageListing> readStageFile(StageFormat format, const QString &stageId, const QString &path);

// Whether text of `format` can carry source locations at all (a backend still says, per stage,
// whether its compiler kept them: StageDescriptor::carriesLocations).
bool formatCarriesLocations(StageFormat format);

// After every stage of one compile is read (`listings` parallel to `formats`, pipeline order): a
// reader whose format loses what an earlier stage still knows completes its listing from that
// stage. Today: SASS lines take the inlined call sites and PTX-text frames from the PTX (ptxas
// drops the call sites of inlined helpers). Other formats are left as read.
void completeFromEarlierStages(const QVector<StageFormat> &formats, QVector<StageListing> &listings);

} // namespace strata::ir
