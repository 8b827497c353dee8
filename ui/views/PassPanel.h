#pragma once
// The pass pipeline of a compile: a table of passes (marked when they changed the selected
// source line's ops) and, for the selected pass, the IR before it and its diff against the IR
// after it (the next pass's dump; past the pipeliner's location-free internal snapshots; for a
// dump taken after its pass, the previous one or the stage's input). Dumps are read and diffed
// off the UI thread.
#include "models/PassDiff.h"
#include "models/PassListModel.h"
#include "models/PassOpIndex.h"
#include "jobs/JobTracker.h"

#include <QHash>
#include <QWidget>
#include <memory>

class QLabel;
class QTableView;
class QTabWidget;

namespace strata {

class CodeView;

class PassPanel : public QWidget {
    Q_OBJECT
public:
    explicit PassPanel(QWidget *parent = nullptr);

    void setPasses(const QVector<PassDumpRef> &passes);
    // For after-pass dumps (PassDumpRef::after): stage id -> the IR file its first pass was given
    // (the previous stage's artifact), the "before" of that first pass.
    void setStageInputs(const QHash<QString, QString> &inputs) { m_stageInputs = inputs; }
    void setPassIndex(std::shared_ptr<const PassOpIndex> index);  // enables the marks
    void setSelectedSourceLine(int sourceLine);                   // 0 clears the marks

    bool selectPass(int row);
    int selectedPass() const { return m_selectedRow; }
    bool hasPassIndex() const { return bool(m_index); }

    PassListModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    CodeView *beforeView() const { return m_before; }
    CodeView *diffView() const { return m_diffView; }
    const PassDiff &currentDiff() const { return m_diff; }

signals:
    void passShown(int row);  // the IR and diff of `row` are on screen

private:
    void onCurrentRowChanged(int row);
    void show(int row, const QString &beforeText, const PassDiff &diff, int afterRow, const QString &error);
    void showAfterDump(int row);   // an after-pass dump: compared with the IR the pass was given
    void updateMarks();
    void fitColumns();

    PassListModel *m_model;
    QTableView *m_table;
    QTabWidget *m_tabs;
    CodeView *m_before;
    CodeView *m_diffView;
    QLabel *m_summary;
    std::shared_ptr<const PassOpIndex> m_index;
    QHash<QString, QString> m_stageInputs;
    PassDiff m_diff;
    int m_sourceLine = 0;
    int m_selectedRow = -1;
    JobTracker m_dumpLoads{this};
};

} // namespace strata
