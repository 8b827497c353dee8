#pragma once
// A Slurm run's progress in the Run dock, read-only: the run folder of `strata-cli bench --slurm`
// (docs/cluster.md), each array element's Slurm state and each task's state from the element's
// store, the merge job and the results file: the text of `bench --slurm --status`. Refreshed
// every 15 s while shown; squeue, sacct and the stores are read off the GUI thread, and a tool
// that fails is a line of the text, never a dialog.
#include <QFutureWatcher>
#include <QGroupBox>

class QLineEdit;
class QPlainTextEdit;
class QTimer;

namespace strata {

class SlurmRunView : public QGroupBox {
    Q_OBJECT
public:
    explicit SlurmRunView(QWidget *parent = nullptr);
    ~SlurmRunView() override;

    void setRunDir(const QString &dir);  // and reads it at once
    QString runDir() const;
    void refresh();                       // a no-op while a read is in flight or no folder is set
    void waitForRefresh();                // tests
    QPlainTextEdit *statusView() const { return m_text; }

    // The status text of a run folder, or the error that stopped reading it. Any thread.
    static QString readStatus(const QString &runDir);

signals:
    void refreshed(const QString &text);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    QLineEdit *m_dir;
    QPlainTextEdit *m_text;
    QTimer *m_timer;
    QFutureWatcher<QString> m_watcher;
};

} // namespace strata
