#include "views/SpeedupPlot.h"

#include <QFileInfo>
#include <QSvgGenerator>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <qcustomplot.h>

namespace strata {

using optimize::TaskOutcome;

namespace {

const QColor kWinColor(46, 139, 87);
const QColor kLossColor(150, 150, 150);
const QColor kFailureColor(200, 40, 40);
const QColor kSelectionColor(255, 165, 0);
constexpr double kClickRadiusPx = 10.0;
const QString kSelectionLayer = QStringLiteral("selection");

QString percent(const std::optional<double> &value)
{
    return value ? QStringLiteral("%1%").arg(*value, 0, 'f', 1) : QStringLiteral("-");
}

QString ms(const std::optional<double> &value)
{
    return value ? QStringLiteral("%1 ms").arg(*value, 0, 'g', 4) : QStringLiteral("-");
}

} // namespace

SpeedupPlot::SpeedupPlot(QWidget *parent) : QWidget(parent), m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMouseTracking(true);
    m_plot->setMinimumHeight(220);
    connect(m_plot, &QCustomPlot::mouseMove, this, &SpeedupPlot::onMouseMove);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &SpeedupPlot::onMouseRelease);
    // The selection marker gets a buffered layer of its own: moving it repaints that layer only,
    // not the 10,000 bars beneath it.
    m_plot->addLayer(kSelectionLayer, m_plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    m_plot->layer(kSelectionLayer)->setMode(QCPLayer::lmBuffered);
    rebuild();
}

void SpeedupPlot::setSuite(const optimize::SuiteOutcome &suite)
{
    m_suite = suite;
    m_selected = -1;
    rebuild();
}

void SpeedupPlot::setMode(Mode mode)
{
    m_mode = mode;
    rebuild();
}

double SpeedupPlot::speedupForPlot(int taskIndex) const
{
    const std::optional<double> speedup = m_suite.tasks[taskIndex].speedup();
    return speedup && *speedup > 0 ? *speedup : 1.0;
}

void SpeedupPlot::rebuild()
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_selectionBar = nullptr;
    m_selectionPoint = nullptr;
    m_order.clear();
    m_keyOfTask.clear();
    m_scatterIds.clear();
    m_pointCoords.clear();

    // Follow the widget palette so the chart reads in a dark theme too.
    const QColor text = palette().color(QPalette::WindowText);
    m_plot->setBackground(palette().brush(QPalette::Base));
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
    }
    setUpAxes();
    if (m_mode == Mode::SortedBars)
        drawBars();
    else if (m_mode == Mode::RooflineScatter)
        drawScatter();
    else
        drawCdf();
    makeSelectionMarkers();
    drawSelection();
    m_plot->replot();
}

// Speedups go on a log axis: y in the bars and the scatter, x in the CDF.
void SpeedupPlot::setUpAxes()
{
    QCPAxis *speedupAxis = m_mode == Mode::SpeedupCdf ? m_plot->xAxis : m_plot->yAxis;
    QCPAxis *otherAxis = m_mode == Mode::SpeedupCdf ? m_plot->yAxis : m_plot->xAxis;
    speedupAxis->setScaleType(QCPAxis::stLogarithmic);
    speedupAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    speedupAxis->setNumberFormat(QStringLiteral("g"));
    speedupAxis->setTickLabelRotation(0);
    speedupAxis->setLabel(tr("speedup vs initial (log)"));
    otherAxis->setScaleType(QCPAxis::stLinear);
    otherAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    otherAxis->setNumberFormat(QStringLiteral("gb"));
    otherAxis->setTickLabelRotation(0);
    otherAxis->setLabel(QString());
}

void SpeedupPlot::drawBars()
{
    const int count = int(m_suite.tasks.size());
    m_order.resize(count);
    std::iota(m_order.begin(), m_order.end(), 0);
    // Tasks without a speedup first (they are the ones to look at), then ascending speedup.
    std::stable_sort(m_order.begin(), m_order.end(), [&](int a, int b) {
        const bool hasA = m_suite.tasks[a].speedup().has_value();
        const bool hasB = m_suite.tasks[b].speedup().has_value();
        if (hasA != hasB)
            return !hasA;
        return speedupForPlot(a) < speedupForPlot(b);
    });
    m_keyOfTask.resize(count);
    for (int key = 0; key < count; ++key)
        m_keyOfTask[m_order[key]] = key;

    auto *wins = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    auto *losses = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    auto *failures = new QCPGraph(m_plot->xAxis, m_plot->yAxis);
    wins->setName(tr("faster"));
    losses->setName(tr("no gain"));
    failures->setName(tr("failed / no time"));
    for (QCPBars *bars : {wins, losses}) {
        bars->setBaseValue(1.0);  // bars grow from 1x: wins up, slowdowns down
        bars->setWidth(0.75);
    }
    wins->setBrush(kWinColor);
    wins->setPen(QPen(kWinColor.darker()));
    losses->setBrush(kLossColor);
    losses->setPen(QPen(kLossColor.darker()));
    failures->setLineStyle(QCPGraph::lsNone);
    failures->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(kFailureColor, 2), Qt::NoBrush, 12));

    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    double low = 0.8, high = 2.5;  // the 1x and 2x lines always show; the data widens it
    for (int key = 0; key < count; ++key) {
        const TaskOutcome &task = m_suite.tasks[m_order[key]];
        const std::optional<double> speedup = task.speedup();
        // A bar's value is its height above the base value, not its top.
        if (!speedup)
            failures->addData(key, 1.0);
        else if (*speedup > 1.0)
            wins->addData(key, *speedup - 1.0);
        else
            losses->addData(key, std::max(*speedup, 1e-3) - 1.0);
        if (speedup) {
            low = std::min(low, *speedup * 0.8);
            high = std::max(high, *speedup * 1.3);
        }
        if (count <= 80)  // beyond that the names overlap; the tooltip names each bar
            ticker->addTick(key, task.taskId);
    }
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setTickLabelRotation(60);
    m_plot->xAxis->setLabel(QString());
    m_plot->xAxis->setRange(-0.7, std::max(count, 1) - 0.3);
    m_plot->yAxis->setRange(low, high);

    addLevelLine(1.0, QStringLiteral("1x"), palette().color(QPalette::WindowText), Qt::SolidLine);
    addLevelLine(2.0, QStringLiteral("2x"), QColor(120, 120, 120), Qt::DotLine);
    addLevelLine(5.0, QStringLiteral("5x"), QColor(120, 120, 120), Qt::DotLine);
    if (count > 0) {
        addLevelLine(m_suite.geomeanSpeedup(), tr("geomean %1x").arg(m_suite.geomeanSpeedup(), 0, 'f', 2),
                     QColor(30, 100, 200), Qt::DashLine, Qt::AlignLeft);
        addLevelLine(m_suite.medianSpeedup(), tr("median %1x").arg(m_suite.medianSpeedup(), 0, 'f', 2),
                     QColor(220, 120, 0), Qt::DashDotLine, Qt::AlignLeft);
    }
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
}

void SpeedupPlot::drawScatter()
{
    auto *points = new QCPGraph(m_plot->xAxis, m_plot->yAxis);
    points->setName(tr("tasks"));
    points->setLineStyle(QCPGraph::lsNone);
    points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, kWinColor, 8));
    double low = 0.8, high = 2.5;  // the 1x and 2x lines always show; the data widens it
    int notDrawn = 0;
    for (int i = 0; i < m_suite.tasks.size(); ++i) {
        const TaskOutcome &task = m_suite.tasks[i];
        if (task.speedup() && task.rooflinePct)
            m_scatterIds.append(i);
        else
            ++notDrawn;
    }
    // Added in key order, so the graph's data keeps the order of m_scatterIds.
    std::stable_sort(m_scatterIds.begin(), m_scatterIds.end(),
                     [&](int a, int b) { return *m_suite.tasks[a].rooflinePct < *m_suite.tasks[b].rooflinePct; });
    for (int taskIndex : m_scatterIds) {
        const TaskOutcome &task = m_suite.tasks[taskIndex];
        m_pointCoords.insert(taskIndex, QPointF(*task.rooflinePct, *task.speedup()));
        points->addData(*task.rooflinePct, *task.speedup());
        low = std::min(low, *task.speedup() * 0.8);
        high = std::max(high, *task.speedup() * 1.3);
    }
    m_plot->xAxis->setLabel(tr("best kernel, % of roofline"));
    m_plot->xAxis->setRange(0, 105);
    m_plot->yAxis->setRange(low, high);
    addLevelLine(1.0, QStringLiteral("1x"), palette().color(QPalette::WindowText), Qt::SolidLine);
    if (notDrawn > 0) {
        auto *note = new QCPItemText(m_plot);
        note->position->setType(QCPItemPosition::ptAxisRectRatio);
        note->position->setCoords(0.01, 0.01);
        note->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        note->setColor(kFailureColor);
        note->setText(tr("%n task(s) without a speedup or roofline figure are not drawn", nullptr, notDrawn));
    }
    m_plot->legend->setVisible(false);
}

void SpeedupPlot::drawCdf()
{
    const int count = int(m_suite.tasks.size());
    m_scatterIds.resize(count);
    std::iota(m_scatterIds.begin(), m_scatterIds.end(), 0);
    std::stable_sort(m_scatterIds.begin(), m_scatterIds.end(),
                     [&](int a, int b) { return speedupForPlot(a) < speedupForPlot(b); });
    auto *curve = new QCPGraph(m_plot->xAxis, m_plot->yAxis);
    auto *failures = new QCPGraph(m_plot->xAxis, m_plot->yAxis);
    curve->setName(tr("tasks"));
    curve->setLineStyle(QCPGraph::lsStepLeft);
    curve->setPen(QPen(kWinColor, 2));
    curve->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, kWinColor, 5));
    failures->setName(tr("failed / no time"));
    failures->setLineStyle(QCPGraph::lsNone);
    failures->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(kFailureColor, 2), Qt::NoBrush, 12));
    double low = 0.8, high = 2.5;  // the 1x and 2x lines always show; the data widens it
    for (int rank = 0; rank < count; ++rank) {
        const int taskIndex = m_scatterIds[rank];
        const QPointF at(speedupForPlot(taskIndex), double(rank + 1) / count);
        m_pointCoords.insert(taskIndex, at);
        curve->addData(at.x(), at.y());  // keys ascend with rank: the data keeps this order
        if (!m_suite.tasks[taskIndex].speedup())
            failures->addData(at.x(), at.y());
        low = std::min(low, at.x() * 0.8);
        high = std::max(high, at.x() * 1.3);
    }
    m_plot->xAxis->setRange(low, high);
    m_plot->yAxis->setRange(0, 1.02);
    m_plot->yAxis->setLabel(tr("share of tasks at or below"));
    for (const auto &[value, label] : {std::pair{1.0, "1x"}, std::pair{2.0, "2x"}, std::pair{5.0, "5x"}}) {
        auto *line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(value, 0);
        line->point2->setCoords(value, 1);
        line->setPen(QPen(QColor(120, 120, 120), 1, value == 1.0 ? Qt::SolidLine : Qt::DotLine));
        auto *text = new QCPItemText(m_plot);
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(value, 0.0);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setText(QString::fromLatin1(label));
        text->setColor(palette().color(QPalette::WindowText));
    }
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
}

void SpeedupPlot::addLevelLine(double value, const QString &label, const QColor &color, Qt::PenStyle style,
                               Qt::Alignment side)
{
    if (!(value > 0))
        return;
    auto *line = new QCPItemStraightLine(m_plot);
    line->point1->setCoords(0, value);
    line->point2->setCoords(1, value);
    line->setPen(QPen(color, 1, style));
    auto *text = new QCPItemText(m_plot);
    text->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    text->position->setTypeY(QCPItemPosition::ptPlotCoords);
    // Left-side labels start right of the legend, which sits in the top-left corner.
    text->position->setCoords(side == Qt::AlignLeft ? 0.18 : 0.995, value);
    text->setPositionAlignment(side | Qt::AlignBottom);
    text->setColor(color);
    text->setText(label);
}

void SpeedupPlot::selectTask(int taskIndex)
{
    m_selected = taskIndex >= 0 && taskIndex < m_suite.tasks.size() ? taskIndex : -1;
    drawSelection();
    m_plot->layer(kSelectionLayer)->replot();
}

// The highlight is one bar and one point made once per rebuild, on their own layer: a new
// selection changes their data only, so that the layer repaints alone.
void SpeedupPlot::makeSelectionMarkers()
{
    m_selectionBar = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_selectionBar->setLayer(kSelectionLayer);
    m_selectionBar->setName(QStringLiteral("selection"));
    m_selectionBar->removeFromLegend();
    m_selectionBar->setBaseValue(1.0);
    m_selectionBar->setWidth(0.9);
    m_selectionBar->setPen(QPen(kSelectionColor, 3));
    m_selectionBar->setBrush(Qt::NoBrush);
    m_selectionPoint = new QCPGraph(m_plot->xAxis, m_plot->yAxis);
    m_selectionPoint->setLayer(kSelectionLayer);
    m_selectionPoint->setName(QStringLiteral("selection"));
    m_selectionPoint->removeFromLegend();
    m_selectionPoint->setLineStyle(QCPGraph::lsNone);
    m_selectionPoint->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kSelectionColor, 3), Qt::NoBrush, 16));
}

void SpeedupPlot::drawSelection()
{
    m_selectionBar->data()->clear();
    m_selectionPoint->data()->clear();
    if (m_selected < 0)
        return;
    if (m_mode == Mode::SortedBars)
        m_selectionBar->addData(m_keyOfTask.value(m_selected, -1), speedupForPlot(m_selected) - 1.0);
    else if (m_pointCoords.contains(m_selected))
        m_selectionPoint->addData(m_pointCoords.value(m_selected).x(), m_pointCoords.value(m_selected).y());
}

QPoint SpeedupPlot::taskPosition(int taskIndex) const
{
    if (taskIndex < 0 || taskIndex >= m_suite.tasks.size())
        return {};
    if (m_mode == Mode::SortedBars) {
        const int key = m_keyOfTask.value(taskIndex, -1);
        // The middle of the bar on the log axis (the marker itself for tasks drawn at 1x).
        const double middle = std::sqrt(speedupForPlot(taskIndex));
        return QPointF(m_plot->xAxis->coordToPixel(key), m_plot->yAxis->coordToPixel(middle)).toPoint();
    }
    if (!m_pointCoords.contains(taskIndex))
        return {};
    const QPointF at = m_pointCoords.value(taskIndex);
    return QPointF(m_plot->xAxis->coordToPixel(at.x()), m_plot->yAxis->coordToPixel(at.y())).toPoint();
}

int SpeedupPlot::taskAt(const QPoint &position) const
{
    if (!m_plot->axisRect()->rect().contains(position))
        return -1;
    if (m_mode == Mode::SortedBars) {
        // The whole column counts: bars near 1x are too short to aim at.
        const double key = m_plot->xAxis->pixelToCoord(position.x());
        const int nearest = int(std::lround(key));
        if (nearest < 0 || nearest >= m_order.size() || std::abs(key - nearest) > 0.45)
            return -1;
        return m_order[nearest];
    }
    int best = -1;
    double bestDistance = kClickRadiusPx;
    for (int taskIndex : m_scatterIds) {
        const QPoint at = taskPosition(taskIndex);
        const double distance = std::hypot(at.x() - position.x(), at.y() - position.y());
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = taskIndex;
        }
    }
    return best;
}

QString SpeedupPlot::tooltipFor(int taskIndex) const
{
    const TaskOutcome &task = m_suite.tasks[taskIndex];
    const std::optional<double> speedup = task.speedup();
    QString text = QStringLiteral("<b>%1</b> (%2)<br>").arg(task.taskId.toHtmlEscaped(), task.category.toHtmlEscaped());
    text += tr("status: %1").arg(task.status) + QStringLiteral("<br>");
    text += tr("initial %1, best %2").arg(ms(task.initialMs), ms(task.bestMs)) + QStringLiteral("<br>");
    text += tr("speedup %1, roofline %2")
                .arg(speedup ? QStringLiteral("%1x").arg(*speedup, 0, 'f', 2) : QStringLiteral("-"),
                     percent(task.rooflinePct));
    if (!task.failure.isEmpty())
        text += QStringLiteral("<br>") + task.failure.toHtmlEscaped();
    return text;
}

void SpeedupPlot::onMouseMove(QMouseEvent *event)
{
    const int taskIndex = taskAt(event->pos());
    if (taskIndex < 0)
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tooltipFor(taskIndex), m_plot);
}

void SpeedupPlot::onMouseRelease(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const int taskIndex = taskAt(event->pos());
    if (taskIndex < 0)
        return;
    selectTask(taskIndex);
    emit taskClicked(taskIndex);
}

QString SpeedupPlot::exportTo(const QString &path, int width, int height)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool written = false;
    if (suffix == QLatin1String("png")) {
        written = m_plot->savePng(path, width, height);
    } else if (suffix == QLatin1String("pdf")) {
        written = m_plot->savePdf(path, width, height);
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(QSize(width, height));
        generator.setViewBox(QRect(0, 0, width, height));
        generator.setTitle(tr("Strata speedups: %1").arg(m_suite.suite));
        QCPPainter painter;
        written = painter.begin(&generator);
        if (written) {
            m_plot->toPainter(&painter, width, height);
            written = painter.end();
        }
    } else {
        return tr("%1: unknown chart format '%2' (png, svg or pdf)").arg(path, suffix);
    }
    if (!written || QFileInfo(path).size() == 0)
        return tr("%1: could not write the chart").arg(path);
    return {};
}

} // namespace strata
