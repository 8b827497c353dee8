#pragma once
// One stage (or the source) in a titled pane: a CodeView fed from a StageListingModel and wired
// to the LineLinker. A click is reported to the linker; the linker's answer highlights the
// lines here, and scrolls here unless this pane sent the click (its own echo).
#include "core/Stage.h"
#include "models/LineLinker.h"
#include "models/StageListingModel.h"

#include <QFrame>

class QLabel;

namespace strata {

class CodeView;

class StagePane : public QFrame {
    Q_OBJECT
public:
    StagePane(const StageDescriptor &stage, LineLinker *linker, QWidget *parent = nullptr);

    QString stageId() const { return m_stage.id; }
    const StageDescriptor &stage() const { return m_stage; }
    CodeView *view() const { return m_view; }
    StageListingModel *model() const { return m_model; }

    void setListing(const StageListing &listing, const QString &kernelFile);
    void showMessage(const QString &message);  // empty pane that says why (not produced, error)
    void setMarkedLines(const QSet<int> &lines);

    QVector<int> highlightedLines() const;
    // Same as a click on `line` (tests and the remarks list use it).
    void activateLine(int line);

private:
    void onLinked(const LinkSelection &selection);
    void updateTitle(int highlighted);
    void updateLinkedCount(int highlighted);

    StageDescriptor m_stage;
    LineLinker *m_linker;
    StageListingModel *m_model;
    CodeView *m_view;
    QLabel *m_title;
    QLabel *m_linkedCount;
};

} // namespace strata
