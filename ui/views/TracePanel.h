#pragma once
// The Trace dock: every kernel a tritonparse trace compiled, one row each (label, config,
// target, IR stages, launches, grid, autotune role). Activating a row asks for that kernel.
#include "trace/TritonParseTrace.h"

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace strata {

class TracePanel : public QWidget {
    Q_OBJECT
public:
    explicit TracePanel(QWidget *parent = nullptr);

    void setTrace(const trace::TraceIndex &index);
    void setCurrentKernel(int index);  // marks the row of the kernel shown in the panes
    int kernelCount() const;
    QTreeWidget *tree() const { return m_tree; }

signals:
    void kernelActivated(int index);

private:
    QLabel *m_summary;
    QTreeWidget *m_tree;
};

} // namespace strata
