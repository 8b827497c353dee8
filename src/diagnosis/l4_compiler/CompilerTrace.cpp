#include "diagnosis/l4_compiler/CompilerTrace.h"

#include <QFile>
#include <QRegularExpression>
#include <algorithm>

namespace strata::diagnosis {

namespace {

QVector<int> integers(const QString &list)
{
    QVector<int> values;
    for (const QString &item : list.split(u',', Qt::SkipEmptyParts))
        values.append(item.trimmed().toInt());
    return values;
}

} // namespace

bool pointerTensorOf(const QString &opText, QString *shape, QString *element)
{
    static const QRegularExpression tensor(QStringLiteral("tensor<((?:\\d+x)*\\d+)x!tt\\.ptr<(\\w+)>"));
    const QRegularExpressionMatch match = tensor.match(opText);
    if (!match.hasMatch())
        return false;
    *shape = match.captured(1);
    *element = match.captured(2);
    return true;
}

const TracedAccess *CompilerTrace::access(const QString &op, const QString &shape, const QString &element) const
{
    for (const TracedAccess &traced : accesses)
        if (traced.op == op && traced.shape == shape && traced.element == element)
            return &traced;
    return nullptr;
}

const TracedPipelineLoad *CompilerTrace::pipelineLoad(const QString &shape, const QString &element) const
{
    for (const TracedPipelineLoad &load : pipelineLoads)
        if (load.shape == shape && load.element == element)
            return &load;
    return nullptr;
}

CompilerTrace parseCompilerTrace(const QString &text)
{
    static const QRegularExpression considering(
        QStringLiteral("^\\[tritongpu-coalesce\\]: Considering op: (?:(%[\\w.#]+) = )?(tt\\.\\w+) (.*)$"));
    static const QRegularExpression axisInfo(
        QStringLiteral("^\\[tritongpu-coalesce\\]: axis info of pointer: contiguity = \\[([\\d, ]*)\\], divisibility = \\[([\\d, ]*)\\]"));
    static const QRegularExpression perThread(QStringLiteral("^\\[tritongpu-coalesce\\]: perThread: (\\d+)$"));
    static const QRegularExpression maskAlignment(
        QStringLiteral("^\\[axis-info\\]: getMaskAlignment .* alignment (\\d+)$"));
    static const QRegularExpression pipelineLoad(
        QStringLiteral("^\\[triton-loop-pipeline\\]: Load (%[\\w.#]+) = tt\\.load (.*>>) (.*)$"));
    static const QRegularExpression width(QStringLiteral("^has width (\\d+)$"));

    CompilerTrace trace;
    for (const QString &line : text.split(u'\n')) {
        if (const QRegularExpressionMatch m = considering.match(line); m.hasMatch()) {
            TracedAccess access;
            access.value = m.captured(1);
            access.op = m.captured(2);
            pointerTensorOf(m.captured(3), &access.shape, &access.element);
            trace.accesses.append(access);
        } else if (const QRegularExpressionMatch m = axisInfo.match(line); m.hasMatch() && !trace.accesses.isEmpty()) {
            trace.accesses.last().contiguity = integers(m.captured(1));
            trace.accesses.last().divisibility = integers(m.captured(2));
        } else if (const QRegularExpressionMatch m = perThread.match(line); m.hasMatch() && !trace.accesses.isEmpty()) {
            trace.accesses.last().perThread = m.captured(1).toInt();
        } else if (const QRegularExpressionMatch m = maskAlignment.match(line); m.hasMatch()) {
            trace.maskAlignments.append(m.captured(1).toInt());
        } else if (const QRegularExpressionMatch m = pipelineLoad.match(line); m.hasMatch()) {
            // Each load is reported on several lines ("has width N", then a verdict): one entry each.
            auto it = std::find_if(trace.pipelineLoads.begin(), trace.pipelineLoads.end(),
                                   [&](const TracedPipelineLoad &load) { return load.value == m.captured(1); });
            if (it == trace.pipelineLoads.end()) {
                TracedPipelineLoad load;
                load.value = m.captured(1);
                pointerTensorOf(m.captured(2), &load.shape, &load.element);
                trace.pipelineLoads.append(load);
                it = trace.pipelineLoads.end() - 1;
            }
            const QString said = m.captured(3).trimmed();
            if (const QRegularExpressionMatch w = width.match(said); w.hasMatch())
                it->widthBits = w.captured(1).toInt();
            else
                it->verdict = said;
        }
    }
    return trace;
}

Expected<CompilerTrace> readCompilerTrace(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot read the compiler's debug trace: ") + file.errorString()};
    return parseCompilerTrace(QString::fromUtf8(file.readAll()));
}

} // namespace strata::diagnosis
