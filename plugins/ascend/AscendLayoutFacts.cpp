#include "AscendLayoutFacts.h"
#include "tasks/TaskRun.h"
#include "diagnosis/model/ElementTypes.h"

#include "AscendFacts.h"
#include "AscendParts.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <cmath>

namespace strata::ascend {

using diagnosis::Evidence;
using diagnosis::Finding;
using diagnosis::GapShare;
using diagnosis::Level;
using diagnosis::Severity;
using diagnosis::SourceSpan;

namespace {

constexpr int kUbAlignBytes = 32;        // UB/L1 alignment of a tile's tail axis (ASCEND-NOTES.md 2)
constexpr double kBlockPtrSlowdown = 5.4;  // triton-ascend#1673: runtime vs constexpr block-pointer strides

SourceSpan spanOf(const ListingLine &line, const QString &sourcePath)
{
    const SourceLocation loc = frameInFile(line.frames, sourcePath);
    return loc.isValid() ? SourceSpan{sourcePath, loc.line, loc.column, loc.line, 0} : SourceSpan{};
}

QString opcodeOf(const ListingLine &line)
{
    if (!line.opcode.isEmpty())
        return line.opcode;
    static const QRegularExpression op(QStringLiteral("^(?:[%\\w#:, ]+=\\s*)?([a-z_]+\\.[a-z_.]+)"));
    return op.match(line.text.trimmed()).captured(1);
}

Evidence irEvidence(const StageListing &listing, int irLine, const QString &note)
{
    const ListingLine &line = listing.lines[irLine];
    return Evidence::irOp(listing.stage, irLine, opcodeOf(line), line.text.trimmed(), note);
}

QString percent(double share)
{
    return QStringLiteral("%1%").arg(qRound(share * 100));
}

} // namespace

// UB buffers (memref.alloc) and tensors (tensor.empty) of two or more static dimensions whose last
// axis is not a multiple of 32 bytes: the vector unit's buffers are padded to 32 B per row, so the
// padding is moved and computed on with every row.
QVector<Finding> unalignedTailFindings(const StageListing &ttadapter, const QString &sourcePath)
{
    static const QRegularExpression buffer(
        QStringLiteral("(?:memref\\.alloc\\(\\)|tensor\\.empty\\(\\))[^:]*:\\s*(?:memref|tensor)<((?:\\d+x)+)([a-z]+\\d+)>"));
    struct Site {
        int irLine = 0;
        QString shape;
        int tailBytes = 0;
    };
    QMap<int, QVector<Site>> bySource;
    for (int i = 0; i < ttadapter.lines.size(); ++i) {
        const QRegularExpressionMatch match = buffer.match(ttadapter.lines[i].text);
        if (!match.hasMatch())
            continue;
        const QStringList dims = match.captured(1).split(QLatin1Char('x'), Qt::SkipEmptyParts);
        const int bytes = diagnosis::mlirElementBytes(match.captured(2));
        // A 1-D tile pads once, not per row; an Nx1 tensor is a column being broadcast (`x[:, None]`).
        if (dims.size() < 2 || bytes == 0 || dims.last() == QLatin1String("1"))
            continue;
        const int tail = dims.last().toInt() * bytes;
        if (tail % kUbAlignBytes == 0)
            continue;
        bySource[spanOf(ttadapter.lines[i], sourcePath).line].append(
            {i, match.captured(1) + match.captured(2), tail});
    }
    QVector<Finding> findings;
    for (auto it = bySource.cbegin(); it != bySource.cend(); ++it) {
        const Site &first = it->first();
        const int padded = (first.tailBytes + kUbAlignBytes - 1) / kUbAlignBytes * kUbAlignBytes;
        const double waste = 1.0 - double(first.tailBytes) / padded;
        Finding finding = diagnosis::newFinding(
            QString::fromLatin1(kUnalignedTailRule), Level::L3,
            QStringLiteral("Tile's last axis is %1 bytes, padded to %2 (%3)").arg(first.tailBytes).arg(padded).arg(first.shape),
            waste >= 0.5 ? Severity::Medium : Severity::Low, 0.8, spanOf(ttadapter.lines[first.irLine], sourcePath),
            QStringLiteral("the NPU's unified buffer holds a tile row by row in 32-byte units, so a last (contiguous) axis of %1 "
                           "bytes takes %2: %3 of the buffer, of each row's copy and of the vector work on it is padding. A "
                           "block whose last axis is a multiple of 32 bytes (more elements along it, or that axis swapped "
                           "with a longer one) wastes none")
                .arg(first.tailBytes).arg(padded).arg(percent(waste)));
        for (const Site &site : it->mid(0, 3))
            finding.evidence.append(irEvidence(ttadapter, site.irLine, QStringLiteral("a buffer with a %1-byte last axis").arg(site.tailBytes)));
        finding.evidence.append(Evidence::metric(QStringLiteral("tail_axis_bytes"), first.tailBytes, QStringLiteral("bytes")));
        finding.evidence.append(Evidence::metric(QStringLiteral("padded_tail_bytes"), padded, QStringLiteral("bytes"),
                                                 QStringLiteral("32-byte UB alignment")));
        finding.gapShare = GapShare{waste, true};   // the padded share of the tile's traffic and vector work
        findings.append(finding);
    }
    return findings;
}

// tt.make_tensor_ptr whose strides are not all constants: triton-ascend cannot specialise the block
// copy, and triton-ascend#1673 measured such a kernel 5.4x slower than with constexpr strides.
QVector<Finding> runtimeBlockPtrFindings(const StageListing &ttir, const QString &sourcePath)
{
    static const QRegularExpression makePtr(
        QStringLiteral("tt\\.make_tensor_ptr\\s+%[\\w]+,\\s*\\[[^\\]]*\\],\\s*\\[([^\\]]*)\\]"));
    static const QRegularExpression definition(QStringLiteral("^\\s*(%[\\w]+)\\s*=\\s*([a-z_]+\\.[a-z_]+)"));
    QMap<QString, QString> definedBy;   // SSA value -> the op that defines it
    for (const ListingLine &line : ttir.lines) {
        const QRegularExpressionMatch match = definition.match(line.text);
        if (match.hasMatch())
            definedBy.insert(match.captured(1), match.captured(2));
    }
    QVector<Finding> findings;
    QMap<int, int> seen;   // source line -> findings index
    for (int i = 0; i < ttir.lines.size(); ++i) {
        const QRegularExpressionMatch match = makePtr.match(ttir.lines[i].text);
        if (!match.hasMatch())
            continue;
        QStringList runtime;
        for (const QString &operand : match.captured(1).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QString value = operand.trimmed();
            if (definedBy.value(value) != QLatin1String("arith.constant"))
                runtime.append(value);
        }
        if (runtime.isEmpty())
            continue;
        const SourceSpan span = spanOf(ttir.lines[i], sourcePath);
        if (seen.contains(span.line)) {
            findings[seen[span.line]].evidence.append(irEvidence(ttir, i, QStringLiteral("another block pointer")));
            continue;
        }
        const double share = 1.0 - 1.0 / kBlockPtrSlowdown;
        Finding finding = diagnosis::newFinding(
            QString::fromLatin1(kRuntimeBlockPtrRule), Level::L3,
            QStringLiteral("Block pointer with runtime strides (%1)").arg(runtime.join(QStringLiteral(", "))),
            Severity::Medium, 0.7, span,
            QStringLiteral("tl.make_block_ptr gets a stride that is only known at launch, so triton-ascend cannot lay out "
                           "the block copy at compile time; triton-ascend#1673 measured one such kernel 5.4x slower than "
                           "with constexpr strides (the estimate here is that kernel's share, not a measurement of this "
                           "one). Passing the stride as a tl.constexpr (one compile per distinct stride) removes it"));
        finding.evidence.append(irEvidence(ttir, i, QStringLiteral("strides not all constants")));
        finding.gapShare = GapShare{share, true};
        seen.insert(span.line, findings.size());
        findings.append(finding);
    }
    return findings;
}

// The captured launch's programs against the AI cores the kernel runs on: the vector cores for an
// "aiv" kernel, the cube cores (1 AIC : 2 AIV groups) for a "mix" one. Beyond them the programs run
// in rounds: each round a scheduling cost, and the last one leaves cores idle.
std::optional<Finding> gridOverCoresFinding(const BackendIrInput &input, const QString &mixMode, const SourceSpan &kernelSpan)
{
    const qint64 programs = launchPrograms(input.launch);
    const CoreCounts counts = coreCounts(input.result->target);
    if (programs <= 0 || !counts.isKnown())
        return std::nullopt;
    const bool mix = mixMode == QLatin1String("mix");
    const int fewest = mix ? counts.minCube : counts.minVector;
    const int most = mix ? counts.maxCube : counts.maxVector;
    if (programs <= fewest)
        return std::nullopt;
    const bool always = programs > most;
    const qint64 rounds = (programs + most - 1) / most;
    const double idle = 1.0 - double(programs) / double(rounds * most);   // the last round's idle cores
    const QString unit = mix ? QStringLiteral("AI cube cores (mix kernel)") : QStringLiteral("AI vector cores");
    const QString coreText = fewest == most ? QString::number(most) : QStringLiteral("%1-%2").arg(fewest).arg(most);
    Finding finding = diagnosis::newFinding(
        QString::fromLatin1(kGridOverCoresRule), Level::L3,
        QStringLiteral("Grid of %1 programs on %2 %3: %4").arg(programs).arg(coreText, unit,
                                                               always ? QStringLiteral("%1 rounds").arg(rounds)
                                                                      : QStringLiteral("rounds on the smaller parts")),
        always && rounds > 2 ? Severity::Medium : Severity::Low, always ? 0.8 : 0.5, kernelSpan,
        QStringLiteral("the launch asks for %1 programs and %2 has %3 %4, so they run in %5: each program beyond the cores "
                       "waits for a free one and pays its start-up again (triton-ascend's guidance: Block Dim > cores is "
                       "scheduling overhead), and the last round leaves %6 of the cores idle. A grid of the core count "
                       "(triton-ascend's driver reports num_vectorcore / num_aicore) with a persistent loop "
                       "`for i in range(pid, n, tl.num_programs(0))` inside runs one program per core. The estimated share "
                       "counts only the idle cores of the last round: the start-up cost per program is not published")
            .arg(programs).arg(input.result->target, coreText, unit)
            .arg(always ? QStringLiteral("%1 rounds").arg(rounds) : QStringLiteral("rounds on the parts with fewer cores"))
            .arg(percent(idle)));
    finding.evidence.append(Evidence::metric(QStringLiteral("programs"), double(programs), QString(), QStringLiteral("grid of the captured launch")));
    finding.evidence.append(Evidence::metric(mix ? QStringLiteral("ai_cube_cores") : QStringLiteral("ai_vector_cores"), most, QString(),
                                             counts.isExact() ? QStringLiteral("published for the part")
                                                              : QStringLiteral("the largest published part; smallest %1").arg(fewest)));
    finding.evidence.append(Evidence::metric(QStringLiteral("rounds"), double(rounds), QString()));
    // Only the last round's idle cores are estimated; the per-program start-up is not published.
    finding.gapShare = GapShare{idle, true};
    return finding;
}

} // namespace strata::ascend
