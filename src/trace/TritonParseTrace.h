#pragma once
// A tritonparse trace (https://github.com/meta-pytorch/tritonparse), read into an index of its
// compiled kernels. Formats read: the raw trace tritonparse writes while a program runs (plain
// .ndjson, or .bin.ndjson of gzip members / zstd frames), and the `tritonparse parse` output
// (*_mapped.ndjson.gz). Events used:
//   compilation  payload.metadata (name, hash, target, num_warps, src_constants, ...),
//                payload.file_content ("K.ttir", "K.ttgir", "K.llir", "K.ptx", "K.sass", ...),
//                payload.python_source (file_path, start_line, code), stack
//   launch       name, grid, compilation_metadata.hash, extracted_args, stack
//   autotune_analysis (parse output) winner_compilation_hash
// Other events (ir_analysis, launch_diff, roofline, ...) are skipped. The index keeps only
// summaries; importKernel() (TraceImport.h) re-reads one compilation event in full.
#include "core/Expected.h"
#include "trace/TraceSpec.h"

#include <QJsonObject>
#include <QStringList>
#include <QVector>

namespace strata::trace {

struct TraceLaunches {
    int count = 0;            // launches outside the autotuner's benchmarking
    int benchmarkCount = 0;   // launches from triton/runtime/autotuner.py:_bench
    QVector<qint64> grid;     // of the first launch counted in `count` (else of the first benchmark one)
    QJsonObject args;         // that launch's extracted_args (shapes, dtypes, scalar values)
    int firstLine = 0;        // its line in the trace
};

struct TraceKernel {
    int line = 0;             // 1-based line of the compilation event
    QString name;             // "matmul_kernel"
    QString hash;             // metadata.hash: what launches name
    QString target;           // "sm_90"
    int numWarps = 0;
    int numStages = 0;
    QStringList stages;       // IR stages present: "ttir", "ttgir", "llir", "ptx", "sass", ...
    QString sourceFile;       // python_source.file_path: the path every IR location names
    bool wholeFileSource = false;  // python_source holds the whole file, not only the function
    bool cacheHit = false;
    QJsonObject spec;         // rebuilt from the event (TraceSpec.h), with the launch's grid; empty if it could not be
    QString specProblem;      // why `spec` is empty
    QJsonObject config;       // constexpr values, num_warps, num_stages: what an autotuner varies
    bool autotuneBenchmarked = false;  // compiled or launched while the autotuner benchmarked configs
    bool autotuneWinner = false;       // launched by the autotuner after tuning, or named winner by parse
    TraceLaunches launches;

    // "autotuned_add_kernel#2" when several compiles share the name, else the name.
    QString label;
    // "BLOCK=1024 num_warps=4 num_stages=3"
    QString configText() const;
};

struct TraceIndex {
    QString path;
    int lines = 0;
    int compilationEvents = 0;
    int launchEvents = 0;
    int otherEvents = 0;
    QVector<TraceKernel> kernels;    // in trace order
    QStringList notes;               // e.g. launches of a kernel whose compilation is not in the trace
};

// Reads the whole trace. A line that is not JSON, a compilation event without the fields above,
// or corrupt/truncated compressed data fails the read with an error naming the file and line.
// Targets are named by `namer` (PluginRegistry::targetFromTriton; TraceSpec.h).
Expected<TraceIndex> readTrace(const QString &path, const TargetNamer &namer);

// The compilation event at `line` (as TraceKernel::line), re-read from the file.
Expected<QJsonObject> readTraceEvent(const QString &path, int line);

// Picks a kernel: "NAME", "NAME#N" (N-th compile of NAME, from 1), or a hash prefix (6+ hex
// digits). A NAME compiled several times resolves to the autotuner's winner, else the only one
// launched; otherwise the error lists the labels to choose from. An empty selector picks the
// only kernel of a one-kernel trace.
Expected<int> findKernel(const TraceIndex &trace, const QString &selector);

// True for paths that name a trace rather than a compile folder or a kernel file.
bool looksLikeTrace(const QString &path);

} // namespace strata::trace
