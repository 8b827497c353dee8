#pragma once
// The Diagnosis dock: the ladder run on the compile the window shows (static levels: L3 IR
// facts and L4 pass attribution; L1 and counterfactuals need the agent, L2 a GPU host, so
// `strata-cli diagnose` goes further), shown as a tree of ranked findings, their evidence and
// the escalation log. Activating a finding or a span goes to that source line; an ir_op item
// goes to that line of its stage. The ladder runs off the UI thread; a newer compile drops an
// older run's result.
#include "compile/LoadedCompile.h"
#include "jobs/JobTracker.h"

#include <QWidget>
#include <memory>

class QLabel;
class QTreeView;

namespace strata {

class DiagnosisTreeModel;

class DiagnosisPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosisPanel(QWidget *parent = nullptr);

    void diagnose(std::shared_ptr<const LoadedCompile> compile);
    void clear(const QString &message);
    void waitForIdle() { m_runs.waitForIdle(); }  // tests and shutdown

    DiagnosisTreeModel *model() const { return m_model; }
    QTreeView *tree() const { return m_tree; }
    QString statusText() const;

signals:
    void diagnosed();                                            // the tree holds a new result
    void sourceLineRequested(int sourceLine);                    // 1-based
    void stageLineRequested(const QString &stage, int irLine);   // 0-based in the stage listing

private:
    void follow(const QModelIndex &index);

    DiagnosisTreeModel *m_model;
    QTreeView *m_tree;
    QLabel *m_status;
    std::shared_ptr<const LoadedCompile> m_compile;  // kept alive while the ladder reads it
    JobTracker m_runs{this};
};

} // namespace strata
