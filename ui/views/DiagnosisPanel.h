#pragma once
// The Diagnosis dock: the ladder run on the compile the window shows (static levels: L3 IR
// facts and L4 pass attribution; L1 and counterfactuals need the agent, L2 a GPU host, so
// `strata-cli diagnose` goes further), shown as a tree of ranked findings, their evidence and
// the escalation log. Activating a finding or a span goes to that source line; an ir_op item
// goes to that line of its stage. GPU measurements saved from a host (`strata-cli time|profile|
// ceilings --json`) can be attached: L2 then runs, and findings are ranked by their measured share
// of the time, hot source lines first. The ladder runs off the UI thread; a newer compile drops
// an older run's result. Degraded inputs (a stage refused or read with defects, locations that
// map nothing) show as a warning banner above the tree: findings next to it are only as good as
// the stages they came from.
#include "compile/LoadedCompile.h"
#include "diagnosis/l2_profile/Measurements.h"
#include "jobs/JobTracker.h"

#include <QWidget>
#include <memory>

class QLabel;
class QTreeView;

namespace strata {

class BackendPlugin;
class DiagnosisTreeModel;

class DiagnosisPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosisPanel(QWidget *parent = nullptr);

    // `backend`: the compile's plugin (its own L3 facts for a non-NVIDIA backend); null: core rules.
    void diagnose(std::shared_ptr<const LoadedCompile> compile, const BackendPlugin *backend = nullptr);
    // Reads saved time / profile / ceilings replies (any mix, one file each) and diagnoses the
    // current compile again with them. Empty on success, else the first file's error; what was
    // attached before stays when a file fails.
    QString attachMeasurements(const QStringList &files);
    void clearMeasurements();
    const diagnosis::Measurements &measurements() const { return m_measurements; }
    void clear(const QString &message);
    void waitForIdle() { m_runs.waitForIdle(); }  // tests and shutdown

    DiagnosisTreeModel *model() const { return m_model; }
    QTreeView *tree() const { return m_tree; }
    QString statusText() const;
    // The warning banner: hidden when the diagnosis has no warnings, else one line per warning.
    QLabel *warningBanner() const { return m_warnings; }

signals:
    void diagnosed();                                            // the tree holds a new result
    void sourceLineRequested(int sourceLine);                    // 1-based
    void stageLineRequested(const QString &stage, int irLine);   // 0-based in the stage listing

private:
    void follow(const QModelIndex &index);
    void showWarnings(const QStringList &warnings);

    DiagnosisTreeModel *m_model;
    QTreeView *m_tree;
    QLabel *m_status;
    QLabel *m_warnings;
    std::shared_ptr<const LoadedCompile> m_compile;  // kept alive while the ladder reads it
    const BackendPlugin *m_backend = nullptr;        // the plugins outlive the panel (MainWindow owns both)
    diagnosis::Measurements m_measurements;
    JobTracker m_runs{this};
};

} // namespace strata
