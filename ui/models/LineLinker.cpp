#include "models/LineLinker.h"

namespace strata {

LineLinker::LineLinker(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<strata::LinkSelection>();
}

void LineLinker::setMap(LocationMap map)
{
    m_map = std::move(map);
    clearSelection();
}

LinkSelection LineLinker::selectionForSourceLine(int sourceLine) const
{
    LinkSelection selection;
    selection.originStage = kSourceStageId;
    selection.originLine = sourceLine - 1;
    selection.sourceLine = sourceLine;
    if (sourceLine <= 0)
        return selection;
    selection.linesByStage.insert(kSourceStageId, {sourceLine - 1});
    for (const QString &stage : m_map.stages()) {
        const QVector<int> lines = m_map.linesForSource(stage, sourceLine);
        if (!lines.isEmpty())
            selection.linesByStage.insert(stage, lines);
    }
    return selection;
}

LinkSelection LineLinker::selectionForStageLine(const QString &stage, int line) const
{
    if (stage == kSourceStageId)
        return selectionForSourceLine(line + 1);
    const SourceLocation loc = m_map.sourceForLine(stage, line);
    if (!loc.isValid()) {
        // A line without a location links to nothing, but still shows as selected.
        LinkSelection selection;
        selection.originStage = stage;
        selection.originLine = line;
        selection.linesByStage.insert(stage, {line});
        return selection;
    }
    // Same answer as clicking the source line, with the clicked stage showing the siblings.
    LinkSelection selection = selectionForSourceLine(loc.line);
    selection.originStage = stage;
    selection.originLine = line;
    selection.linesByStage.insert(stage, m_map.siblingLines(stage, line));
    return selection;
}

void LineLinker::activate(const QObject *sender, const QString &stage, int line)
{
    m_current = selectionForStageLine(stage, line);
    m_current.sender = sender;
    emit linked(m_current);
}

void LineLinker::clearSelection()
{
    m_current = {};
    emit linked(m_current);
}

} // namespace strata
