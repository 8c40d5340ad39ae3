// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Fabric.hpp"

#include <QColor>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QAbstractBarSeries;
class QAbstractSeries;
class QBarCategoryAxis;
class QCategoryAxis;
class QChart;
class QChartView;
class QLabel;
class QPainter;
class QValueAxis;
class QXYSeries;
QT_END_NAMESPACE

namespace fabriclab::views {

struct RunFeed;

/// What a chart shows, as a table: the CSV export, and what tests compare with the engine.
struct ChartTable {
    QStringList header; ///< column names with their units, e.g. "effective (Gb/s)"
    QList<QStringList> rows;
};

/// The one place that makes a Qt Charts chart (STYLE.md §5): view, theme, axes, hover
/// tooltips, a caption in words under the chart, and export to PNG, SVG and CSV.
/// Subclasses declare their series and fill them from the engine's results; they never
/// compute results themselves.
class ChartPanel : public QWidget {
    Q_OBJECT

public:
    /// `name` is the file stem exports use ("bisection"); `title` is shown above the chart.
    ChartPanel(const QString& name, const QString& title, QWidget* parent = nullptr);
    ~ChartPanel() override;

    QString name() const { return m_name; }
    QString title() const;
    /// The caption under the chart, in words.
    QString caption() const;
    /// Whether the chart shows results (false while nothing has been computed).
    bool hasData() const { return m_hasData; }
    /// Exactly the numbers drawn, one row per point or bar, for CSV export and tests.
    virtual ChartTable table() const = 0;
    /// Nothing to draw, and why: the chart forgets its figures and shows the reason.
    virtual void showNothing(const QString& reason);
    /// A run's results: a chart the dashboard feeds (ChartRegistry.hpp) takes its figures
    /// from the report; the default ignores it.
    virtual void showRunReport(const RunFeed& feed);
    /// Playback at `seconds` of the simulated timeline, `fraction` (0-1) of the way through;
    /// the default ignores it.
    virtual void setPlaybackTime(double seconds, double fraction);

    /// Each returns false and sets `error` to a sentence naming the file on failure.
    bool exportPng(const QString& path, QString* error = nullptr) const;
    bool exportSvg(const QString& path, QString* error = nullptr) const;
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    /// Draws the chart as shown (or, never shown, at the export size) into `target` of any
    /// painter: vectors on a PDF or SVG device. The report draws the app's own charts so.
    void render(QPainter& painter, const QRectF& target) const;
    /// Width over height of what render() draws.
    double aspect() const;

    QChart* chart() const { return m_chart; }

    /// The colour of a routing mode in every chart and legend, whatever the fabric runs:
    /// static ECMP orange, adaptive routing green, packet spraying purple, Valiant rose, UGAL
    /// teal.
    static QColor routingColor(model::Routing routing);
    /// The colour of capacity (the min cut, a tier's cables) beside what routing delivers.
    static QColor capacityColor();

protected:
    /// Removes every series and axis, ready to declare them again.
    void clear();
    QValueAxis* addValueAxis(Qt::Alignment alignment, const QString& title,
                             const QString& labelFormat = QStringLiteral("%.3g"));
    QBarCategoryAxis* addCategoryAxis(Qt::Alignment alignment, const QStringList& categories);
    /// Message sizes along the bottom, as nccl-tests steps them: series plot against
    /// log2(bytes), labelled 8 B, 256 B, 8 KiB, ... and at both ends.
    QCategoryAxis* addMessageSizeAxis(double firstBytes, double lastBytes);
    /// Adds a series and attaches it to the given axes.
    void addSeries(QAbstractSeries* series, const QList<QAbstractAxis*>& axes);
    /// Hover text for a bar: `text(set label, category index, value)`.
    void setBarTooltip(QAbstractBarSeries* series,
                       std::function<QString(const QString&, int, double)> text);
    /// Hover text for a point of a line: `text(point)`.
    void setPointTooltip(QXYSeries* series, std::function<QString(const QPointF&)> text);
    void setCaption(const QString& text);
    void setHasData(bool hasData);
    /// Shown instead of the chart when there is nothing to draw, and why. The caption goes
    /// with the chart: it never describes figures no longer drawn.
    void setPlaceholder(const QString& text);
    /// Gives series the colours that carry a meaning (routingColor), after the theme has
    /// given them its own: called once the theme changes; a chart calls it after building.
    virtual void applySeriesColors() {}

private:
    void applyTheme();
    /// The caption's height: its lines of room, or all its text needs at this width.
    void fitCaption();
    void layOutForExport() const;
    void showContextMenu(const QPoint& position);
    void exportWithDialog(const QString& suffix);
    bool event(QEvent* event) override;

    QString m_name;
    QChart* m_chart;
    QChartView* m_view;
    QLabel* m_caption;
    QLabel* m_placeholder;
    bool m_hasData = false;
};

/// Writes a table as CSV: comma separated, quoted where a cell needs it.
QString toCsv(const ChartTable& table);
/// A number for CSV, rounded to `decimals` as `fabriclab-cli run --json` rounds the same
/// figure, so exported tables and the CLI agree digit for digit.
QString csvNumber(double value, int decimals = 6);

} // namespace fabriclab::views
