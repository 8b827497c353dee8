#pragma once
// What the reader fuzz targets share: a scratch file per process (the results reader and
// loadCompile read files, as the CLI and the app do, so the input goes through a file rather than
// through a memory shortcut the product never takes), and a real compile folder with one stage
// swapped for the fuzz input, loaded by loadCompile and then queried the way the GUI panes and
// `strata-cli map` query it.
#include "compile/LoadedCompile.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>

namespace strata::fuzz {

// Writes `data` to this process's scratch file named `name` (under /dev/shm when it exists, so
// the write costs no disk I/O) and returns its path. The file is rewritten on every call.
QString writeScratchFile(const QString &name, const uint8_t *data, size_t size);

// The vector_add/aligned fixture compile (real triton 3.6.0 output) as its compile.json states it,
// read once. The fixture is small, so the stages kept beside the fuzzed one cost little per input.
const CompileResult &fixtureCompile();

// Loads the fixture compile with `stage`'s artifact replaced by `data` (written to a scratch
// file) and only the artifacts named in `keptStages` (plus the source) left beside it, then runs
// every query a user's click makes on the result (exerciseLoadedCompile).
void loadCompileWithStage(const QString &stage, const uint8_t *data, size_t size,
                          const QStringList &keptStages = {});

// Every lookup the GUI and `map` make on a loaded compile: the location map both ways for every
// stage and source line, sibling lines, the problems' and location counts' texts, and the
// inlined callers. Results are discarded; the sanitizers judge the code on the way.
void exerciseLoadedCompile(const LoadedCompile &loaded);

} // namespace strata::fuzz
