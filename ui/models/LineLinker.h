#pragma once
// Compiler Explorer style linking between the source and every stage, without widgets. A pane
// reports a click with activate(sender, stage, line); the linker answers every pane with one
// LinkSelection that names the sender, so the pane that was clicked can ignore its own echo
// (it highlights but does not scroll). Lookups go through the LocationMap's indices.
#include "locmap/LocationMap.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QVector>

namespace strata {

inline const QString kSourceStageId = QStringLiteral("source");

struct LinkSelection {
    const QObject *sender = nullptr;  // the pane that was clicked (nullptr: programmatic)
    QString originStage;              // "source" or a stage id
    int originLine = -1;              // 0-based line in originStage
    int sourceLine = 0;               // 1-based kernel line; 0 when the line has no location
    QHash<QString, QVector<int>> linesByStage;  // 0-based lines to highlight ("source" included)

    bool isEmpty() const { return linesByStage.isEmpty(); }
    QVector<int> lines(const QString &stage) const { return linesByStage.value(stage); }
};

class LineLinker : public QObject {
    Q_OBJECT
public:
    explicit LineLinker(QObject *parent = nullptr);

    void setMap(LocationMap map);
    const LocationMap &map() const { return m_map; }

    // Pure lookups (the tests and the pass panel use them directly).
    LinkSelection selectionForSourceLine(int sourceLine) const;
    LinkSelection selectionForStageLine(const QString &stage, int line) const;

    // A click: computes the selection, remembers it, and emits linked().
    void activate(const QObject *sender, const QString &stage, int line);
    void clearSelection();
    const LinkSelection &current() const { return m_current; }

signals:
    void linked(const strata::LinkSelection &selection);

private:
    LocationMap m_map;
    LinkSelection m_current;
};

} // namespace strata

Q_DECLARE_METATYPE(strata::LinkSelection)
