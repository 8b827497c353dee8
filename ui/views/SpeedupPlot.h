#pragma once
// Per-kernel speedups of a suite run as a QCustomPlot chart, in two modes:
//   Sorted bars: one bar per task, sorted by speedup, on a log axis growing from 1x (wins up,
//     slowdowns down), with 1x/2x/5x lines and the geomean and median marked. Tasks without a
//     speedup (failed, pending) are drawn as red crosses at 1x: failures are shown, not hidden.
//   Roofline scatter: speedup against the best kernel's % of roofline.
//   Speedup CDF: the share of tasks at or below each speedup (log axis), one point per task,
//     failures counted at 1x as in the geomean.
// Hovering shows a task's figures; clicking a bar or point emits taskClicked with the task's
// index in the suite (the SuiteTableModel's order). Exports PNG, SVG and PDF.
#include "optimize/Outcome.h"

#include <QHash>
#include <QPointF>
#include <QVector>
#include <QWidget>

class QCustomPlot;
class QCPBars;
class QCPGraph;
class QMouseEvent;

namespace strata {

class SpeedupPlot : public QWidget {
    Q_OBJECT
public:
    enum class Mode { SortedBars, RooflineScatter, SpeedupCdf };

    explicit SpeedupPlot(QWidget *parent = nullptr);

    void setSuite(const optimize::SuiteOutcome &suite);
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }

    void selectTask(int taskIndex);  // -1 clears; highlights the task's bar or point
    int selectedTask() const { return m_selected; }

    // Writes the chart; the format follows the suffix (.png, .svg, .pdf). Empty on success,
    // otherwise why it failed (naming the file).
    QString exportTo(const QString &path, int width = 1200, int height = 600);

    // For tests and the explorer: where a task is drawn (widget coordinates) and which task is
    // drawn at a point (-1 if none). Both follow the current mode.
    QPoint taskPosition(int taskIndex) const;
    int taskAt(const QPoint &position) const;
    QVector<int> drawnOrder() const { return m_order; }  // task indices left to right (bars)
    QCustomPlot *plot() const { return m_plot; }

signals:
    void taskClicked(int taskIndex);

private:
    void rebuild();
    void drawBars();
    void drawScatter();
    void drawCdf();
    void setUpAxes();
    // A horizontal line at `value` labelled on the given side (Qt::AlignLeft or Qt::AlignRight).
    void addLevelLine(double value, const QString &label, const QColor &color, Qt::PenStyle style,
                      Qt::Alignment side = Qt::AlignRight);
    void makeSelectionMarkers();
    void drawSelection();
    void onMouseMove(QMouseEvent *event);
    void onMouseRelease(QMouseEvent *event);
    QString tooltipFor(int taskIndex) const;
    double speedupForPlot(int taskIndex) const;  // 1.0 when the task has none

    QCustomPlot *m_plot;
    optimize::SuiteOutcome m_suite;
    Mode m_mode = Mode::SortedBars;
    QVector<int> m_order;       // bars: task index per key 0..n-1
    QVector<int> m_keyOfTask;   // bars: key per task index (the inverse of m_order)
    QVector<int> m_scatterIds;  // point modes: task index per drawn point
    QHash<int, QPointF> m_pointCoords;  // point modes: where each drawn task is, in plot coordinates
    int m_selected = -1;
    QCPBars *m_selectionBar = nullptr;
    QCPGraph *m_selectionPoint = nullptr;
};

} // namespace strata
