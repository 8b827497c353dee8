#pragma once
// Drawing helpers the SVG charts share (SvgCharts.cpp, SvgDistributions.cpp): a log axis with
// "nice" 1-2-5 ends, text and lines in plain SVG Tiny, the colours of bars and bounds.
#include "report/SuiteReport.h"

#include <QString>
#include <QVector>

namespace strata::report::svg {

QString num(double value);  // one decimal, for coordinates

// A log10 axis mapping [low, high] onto [left, right] pixels.
struct LogAxis {
    double low, high;
    double left, right;
    double x(double value) const;
};

// Range that holds every value and the 1x/2x/5x lines, widened to 1-2-5 ends.
LogAxis logAxisFor(QVector<double> values, double left, double right);
QVector<double> ticksOf(const LogAxis &axis);
QString tickLabel(double tick);  // "2x"

QString open(int width, int height, const QString &title);  // <svg ...><title/><rect background/>
QString text(double x, double y, const QString &content, const QString &attributes = {}, int fontSize = 11);
QString line(double x1, double y1, double x2, double y2, const QString &stroke, const QString &extra = {});
QString rect(double x, double y, double width, double height, const QString &fill, const QString &extra = {});
// A vertical reference line across the plot with its label above it, `labelRow` rows up.
QString marker(const LogAxis &axis, double value, double top, double bottom, const QString &colour,
               const QString &label, int labelRow);
// The 1x line and the 2x, 5x, geomean and median markers of a speedup plot.
QString speedupMarkers(const LogAxis &axis, const SuiteSummary &summary, double top, double bottom);

QString barColour(const SpeedupBar &bar);
QString boundColour(const QString &bound);

} // namespace strata::report::svg
