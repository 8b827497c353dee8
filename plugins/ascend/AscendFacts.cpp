#include "AscendFacts.h"

#include "AscendLayoutFacts.h"

#include <QMap>
#include <QRegularExpression>

namespace strata::ascend {

using diagnosis::Evidence;
using diagnosis::Finding;
using diagnosis::GapShare;
using diagnosis::Level;
using diagnosis::Severity;
using diagnosis::SourceSpan;

namespace {

const QString kStage = QStringLiteral("ttadapter");
constexpr int kMaxEvidenceLines = 3;
constexpr double kPublishedScalarShare = 0.35;   // triton-ascend#1220: scalar share of an AWQ kernel

// One ttadapter line and the kernel source line it came from.
struct Site {
    int irLine = -1;        // 0-based in the listing
    SourceSpan span;        // invalid when the op has no location in the kernel file
};

class Rules {
public:
    Rules(const StageListing &listing, const QString &sourcePath)
        : m_listing(listing), m_sourcePath(sourcePath) {}

    QVector<Finding> run() const
    {
        QVector<Finding> findings;
        if (std::optional<Finding> mix = coreMix())
            findings.append(*mix);
        findings += discreteAccess();
        findings += scalarFallbackRisks();
        findings += paddingFills();
        return findings;
    }

private:
    QString text(int irLine) const { return m_listing.lines[irLine].text.trimmed(); }

    QString opcode(int irLine) const
    {
        const ListingLine &line = m_listing.lines[irLine];
        if (!line.opcode.isEmpty())
            return line.opcode;
        // A line the reader kept without an op name: the dialect.op word after any results.
        static const QRegularExpression op(QStringLiteral("^(?:[%\\w#:, ]+=\\s*)?([a-z_]+\\.[a-z_.]+)"));
        return op.match(line.text.trimmed()).captured(1);
    }

    SourceSpan spanOf(int irLine) const
    {
        const SourceLocation loc = frameInFile(m_listing.lines[irLine].frames, m_sourcePath);
        if (!loc.isValid())
            return {};
        return SourceSpan{m_sourcePath, loc.line, loc.column, loc.line, 0};
    }

    Evidence evidence(int irLine, const QString &note) const
    {
        return Evidence::irOp(kStage, irLine, opcode(irLine), text(irLine), note);
    }

    // A region's closing line (`} {ExtractedLoadOrStore} loc(#loc5)`) carries the attributes of
    // the op that opened it, printed at the same indentation: that op's line, which the reader
    // maps. Other lines are their own op.
    int opOf(int irLine) const
    {
        const QString &line = m_listing.lines[irLine].text;
        if (!line.trimmed().startsWith(QLatin1Char('}')))
            return irLine;
        for (int i = irLine - 1; i >= 0; --i) {
            const QString &candidate = m_listing.lines[i].text;
            if (indentOf(candidate) == indentOf(line) && !candidate.trimmed().startsWith(QLatin1Char('}')))
                return i;
        }
        return irLine;
    }

    static qsizetype indentOf(const QString &line)
    {
        qsizetype indent = 0;
        while (indent < line.size() && line[indent] == QLatin1Char(' '))
            ++indent;
        return indent;
    }

    // Ops whose line (or region's closing line) holds `needle`, grouped by the kernel line they
    // came from (0: no location).
    QMap<int, QVector<int>> linesBySource(const QString &needle) const
    {
        QMap<int, QVector<int>> groups;
        for (int i = 0; i < m_listing.lines.size(); ++i) {
            if (!m_listing.lines[i].text.contains(needle))
                continue;
            const int op = opOf(i);
            QVector<int> &group = groups[spanOf(op).line];
            if (!group.contains(op))
                group.append(op);
        }
        return groups;
    }

    // `func.func @k(...) attributes {...}`: a kernel's header holds every argument with its
    // location (kilobytes); the attributes are the evidence.
    QString functionHeader(int irLine) const
    {
        const QString line = text(irLine);
        const qsizetype open = line.indexOf(QLatin1Char('('));
        const qsizetype attributes = line.lastIndexOf(QLatin1String(") attributes {"));
        if (open < 0 || attributes < open)
            return line;
        return line.left(open) + QStringLiteral("(...)") + line.mid(attributes + 1);
    }

    // The trip count of `scf.for %i = %c0 to %cN step %c1` (constants print with their value in
    // the name); 0 when it is not such a loop.
    int tripCount(int irLine) const
    {
        static const QRegularExpression loop(QStringLiteral("scf\\.for\\s+%\\w+\\s*=\\s*%c0\\s+to\\s+%c(\\d+)\\s+step\\s+%c1\\b"));
        return loop.match(m_listing.lines[irLine].text).captured(1).toInt();
    }

    // Whole-block copies between global memory and the buffers.
    int blockCopies() const
    {
        int copies = 0;
        for (int i = 0; i < m_listing.lines.size(); ++i) {
            const QString op = opcode(i);
            copies += op == QLatin1String("memref.copy") || op == QLatin1String("bufferization.materialize_in_destination");
        }
        return copies;
    }

    std::optional<Finding> coreMix() const;
    QVector<Finding> discreteAccess() const;
    QVector<Finding> scalarFallbackRisks() const;
    QVector<Finding> paddingFills() const;

    const StageListing &m_listing;
    QString m_sourcePath;
};

// mix_mode on the kernel function: "mix" when a tl.dot became linalg.matmul for the cube cores.
std::optional<Finding> Rules::coreMix() const
{
    static const QRegularExpression modeAttr(QStringLiteral("mix_mode = \"(\\w+)\""));
    for (int i = 0; i < m_listing.lines.size(); ++i) {
        const QRegularExpressionMatch mode = modeAttr.match(m_listing.lines[i].text);
        if (!mode.hasMatch())
            continue;
        const QString value = mode.captured(1);
        QVector<int> matmuls;
        for (int j = 0; j < m_listing.lines.size(); ++j)
            if (opcode(j) == QLatin1String("linalg.matmul"))
                matmuls.append(j);
        const SourceSpan span = matmuls.isEmpty() ? spanOf(i) : spanOf(matmuls.first());
        Finding finding = value == QLatin1String("mix")
            ? diagnosis::newFinding(QString::fromLatin1(kCoreMixRule), Level::L3,
                                    QStringLiteral("Runs on cube and vector cores (mix_mode \"mix\")"), Severity::Info, 1.0,
                                    span,
                                    QStringLiteral("the kernel's tl.dot became linalg.matmul for the cube cores (AIC) and the "
                                                   "rest runs on the vector cores (AIV); a mix kernel's programs are "
                                                   "scheduled on AI cores, so a grid near the AIC count fits it"))
            : diagnosis::newFinding(QString::fromLatin1(kCoreMixRule), Level::L3,
                                    QStringLiteral("Runs on the vector cores only (mix_mode \"%1\")").arg(value),
                                    Severity::Info, 1.0, span,
                                    QStringLiteral("no tl.dot: the kernel runs on the vector cores (AIV) alone; programs "
                                                   "beyond the AIV count run in batches, so a grid near that count with a "
                                                   "loop over the rest fits it"));
        finding.evidence.append(Evidence::irOp(kStage, i, opcode(i), functionHeader(i),
                                               QStringLiteral("the kernel function's mix_mode")));
        for (int j = 0; j < std::min<qsizetype>(matmuls.size(), kMaxEvidenceLines); ++j)
            finding.evidence.append(evidence(matmuls[j], QStringLiteral("a tl.dot as a cube matmul")));
        return finding;
    }
    return std::nullopt;
}

// triton-to-unstructure's marks: a loop over the block's elements ({ExtractedLoadOrStore}) around
// scalar accesses ({DiscreteMemAccess}), for addresses it cannot express as one strided copy.
QVector<Finding> Rules::discreteAccess() const
{
    QVector<Finding> findings;
    const QMap<int, QVector<int>> loops = linesBySource(QStringLiteral("ExtractedLoadOrStore"));
    const QMap<int, QVector<int>> accesses = linesBySource(QStringLiteral("DiscreteMemAccess"));
    QList<int> sourceLines = loops.keys() + accesses.keys();
    std::sort(sourceLines.begin(), sourceLines.end());
    sourceLines.erase(std::unique(sourceLines.begin(), sourceLines.end()), sourceLines.end());
    for (const int sourceLine : sourceLines) {
        const QVector<int> loopLines = loops.value(sourceLine);
        const QVector<int> accessLines = accesses.value(sourceLine);
        const int first = !accessLines.isEmpty() ? accessLines.first() : loopLines.first();
        Finding finding = diagnosis::newFinding(
            QString::fromLatin1(kDiscreteAccessRule), Level::L3,
            QStringLiteral("Load/store split into one access per element (discrete memory access)"), Severity::High, 0.9,
            spanOf(first),
            QStringLiteral("triton-ascend could not express this access as one strided block copy (its address "
                           "depends on loaded data or is not affine in the block's offsets), so it loops over the "
                           "block's elements and moves one element per iteration instead of one DMA for the block"));
        for (const int line : accessLines.mid(0, kMaxEvidenceLines))
            finding.evidence.append(evidence(line, QStringLiteral("an element-wise access ({DiscreteMemAccess})")));
        for (const int line : loopLines.mid(0, 1))
            finding.evidence.append(evidence(line, QStringLiteral("the loop over the block ({ExtractedLoadOrStore})")));
        // Estimate: each element moved costs about what one block copy does (a DMA's latency), so
        // of the kernel's copies the loop's elements are this share. A model, not a measurement.
        const int trip = loopLines.isEmpty() ? 0 : tripCount(loopLines.first());
        if (trip > 0) {
            const int copies = blockCopies();
            finding.evidence.append(Evidence::metric(QStringLiteral("elements_per_loop"), trip, QStringLiteral("elements")));
            finding.evidence.append(Evidence::metric(QStringLiteral("block_copies"), copies, QString(),
                                                     QStringLiteral("memref.copy / materialize_in_destination in ttadapter")));
            finding.gapShare = GapShare{double(trip) / (trip + copies), true};
        }
        findings.append(finding);
    }
    return findings;
}

// Integer vector ops the NPU's vector unit lacks for these types: shifts and bitwise ops (issue
// #1220), compares of int32/int64 and int64 add/sub/mul (performance_guidelines.md) may run on the
// scalar unit. The fallback itself shows only in HIVM (hivm-lower-to-loops), which needs CANN.
QVector<Finding> Rules::scalarFallbackRisks() const
{
    static const QRegularExpression tensorInt(QStringLiteral(":\\s*tensor<[^>]*x(i\\d+)>"));
    static const QStringList bitwise{"arith.shrsi", "arith.shrui", "arith.shli", "arith.andi", "arith.ori", "arith.xori"};
    static const QStringList wideMath{"arith.addi", "arith.subi", "arith.muli"};
    QMap<int, QVector<int>> bySource;
    for (int i = 0; i < m_listing.lines.size(); ++i) {
        const QString op = opcode(i);
        const QString type = tensorInt.match(m_listing.lines[i].text).captured(1);
        if (type.isEmpty() || type == QLatin1String("i1"))
            continue;   // scalar index math, or mask logic on i1
        const bool risky = bitwise.contains(op) || op == QLatin1String("arith.cmpi")
            || (wideMath.contains(op) && type == QLatin1String("i64"));
        if (risky)
            bySource[spanOf(i).line].append(i);
    }
    QVector<Finding> findings;
    for (auto it = bySource.cbegin(); it != bySource.cend(); ++it) {
        const int first = it->first();
        Finding finding = diagnosis::newFinding(
            QString::fromLatin1(kScalarFallbackRule), Level::L3,
            QStringLiteral("Integer vector op that may run on the scalar unit (%1)").arg(opcode(first)), Severity::Medium, 0.5,
            spanOf(first),
            QStringLiteral("the NPU's vector unit has no instruction for some integer tensor ops (shifts and bitwise "
                           "ops, int32/int64 compares, int64 arithmetic): bishengir lowers them to scalar loops. "
                           "Whether it did here shows only in HIVM, which needs CANN; floating-point or narrower "
                           "integer math avoids the risk"));
        for (const int line : it->mid(0, kMaxEvidenceLines))
            finding.evidence.append(evidence(line, QStringLiteral("an integer op on a whole tensor")));
        // Estimate: the one published figure, a ~35% scalar share where it happened (triton-ascend#1220).
        finding.gapShare = GapShare{kPublishedScalarShare, true};
        findings.append(finding);
    }
    return findings;
}

// A masked tl.load fills its buffer with the padding value first (scf.if {linalg.fill}
// {hivm.unlikely_condition}) before the copy: a vector write the load's copy must wait for.
QVector<Finding> Rules::paddingFills() const
{
    QVector<Finding> findings;
    const QMap<int, QVector<int>> fills = linesBySource(QStringLiteral("hivm.unlikely_condition"));
    for (auto it = fills.cbegin(); it != fills.cend(); ++it) {
        // The fill is the op inside the scf.if (it->first()) whose closing line carries the attribute.
        int fill = -1;
        for (int i = it->first() + 1; i < m_listing.lines.size() && i <= it->first() + 3 && fill < 0; ++i)
            if (opcode(i) == QLatin1String("linalg.fill"))
                fill = i;
        const int cited = fill >= 0 ? fill : it->first();
        Finding finding = diagnosis::newFinding(
            QString::fromLatin1(kPaddingFillRule), Level::L3,
            QStringLiteral("Masked load fills its padding before the copy"), Severity::Low, 0.6, spanOf(cited),
            QStringLiteral("the masked tl.load first writes the padding value over its whole buffer when the block "
                           "runs past the mask, and the copy from global memory waits for that write; if the kernel "
                           "never reads the masked lanes and the load has no `other`, "
                           "tl.load(..., care_padding=False) drops the fill"));
        finding.evidence.append(evidence(cited, QStringLiteral("the padding fill")));
        findings.append(finding);
    }
    return findings;
}

} // namespace

// The kernel function's mix_mode ("aiv", "mix") and the source span of its header line.
std::pair<QString, SourceSpan> kernelMode(const StageListing &ttadapter, const QString &sourcePath)
{
    static const QRegularExpression modeAttr(QStringLiteral("mix_mode = \"(\\w+)\""));
    for (const ListingLine &line : ttadapter.lines) {
        const QRegularExpressionMatch mode = modeAttr.match(line.text);
        if (!mode.hasMatch())
            continue;
        const SourceLocation loc = frameInFile(line.frames, sourcePath);
        return {mode.captured(1), loc.isValid() ? SourceSpan{sourcePath, loc.line, loc.column, loc.line, 0} : SourceSpan{}};
    }
    return {};
}

QVector<Finding> irFindings(const BackendIrInput &input)
{
    const StageListing *ttadapter = input.listing(kStage);
    if (!ttadapter || !input.result)
        return {};
    const QString &source = input.result->sourcePath;
    QVector<Finding> findings = Rules(*ttadapter, source).run();
    findings += unalignedTailFindings(*ttadapter, source);
    if (const StageListing *ttir = input.listing(QStringLiteral("ttir")))
        findings += runtimeBlockPtrFindings(*ttir, source);
    const auto [mode, kernelSpan] = kernelMode(*ttadapter, source);
    if (std::optional<Finding> grid = gridOverCoresFinding(input, mode, kernelSpan))
        findings.append(*grid);
    return findings;
}

} // namespace strata::ascend
