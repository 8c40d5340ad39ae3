// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/charts/ChartPanel.hpp"

#include "model/io/Csv.hpp"
#include "views/models/NumberFormat.hpp"

#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QPalette>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QXYSeries>

#include <algorithm>
#include <cmath>

namespace fabriclab::views {
namespace {

/// Exports of a chart that was never shown (headless export) are drawn at this size.
constexpr QSize kExportSize(960, 540);
/// Small enough for three charts abreast under the canvas on a 1280 x 720 laptop screen;
/// a shorter dock scrolls rather than squeezing the axes into dots.
constexpr QSize kMinimumChart(220, 220);
/// Lines of caption the panel keeps room for whatever the text, so a new result rarely
/// lays the grid out again; a longer caption gets the lines it needs.
constexpr int kCaptionLines = 4;

void fail(QString* error, const QString& text) {
    if (error)
        *error = text;
}

} // namespace

QString toCsv(const ChartTable& table) {
    // The writer every CSV of FabricLab's goes through (RFC 4180: quoted where needed, CRLF).
    const auto fields = [](const QStringList& cells) {
        std::vector<std::string> out;
        for (const QString& cell : cells)
            out.push_back(cell.toStdString());
        return out;
    };
    model::CsvWriter csv(fields(table.header));
    for (const QStringList& row : table.rows)
        csv.row(fields(row));
    return QString::fromStdString(csv.text());
}

QString csvNumber(double value, int decimals) {
    const double scale = std::pow(10.0, decimals);
    return QString::number(std::round(value * scale) / scale, 'g', 15);
}

ChartPanel::ChartPanel(const QString& name, const QString& title, QWidget* parent)
    : QWidget(parent), m_name(name), m_chart(new QChart), m_view(new QChartView(m_chart, this)),
      m_caption(new QLabel(this)), m_placeholder(new QLabel(this)) {
    setObjectName(name);
    m_chart->setTitle(title);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    // No series animations: on every result they re-laid out six charts 60 times a
    // second for 400 ms on the GUI thread. Bars grow with playback instead, driven by
    // the playback clock.
    m_chart->setAnimationOptions(QChart::NoAnimation);
    // Axis labels as every other figure is written: "8,000", not "8000".
    m_chart->setLocale(numberLocale());
    m_chart->setLocalizeNumbers(true);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(kMinimumChart);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &ChartPanel::showContextMenu);
    m_caption->setWordWrap(true);
    // Its height is fitCaption()'s to set: not one the layouts ask for its width, which
    // would make the panel as tall as its caption wants rather than as its grid row.
    QSizePolicy fixedText = m_caption->sizePolicy();
    fixedText.setHeightForWidth(false);
    m_caption->setSizePolicy(fixedText);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_caption->setObjectName(QStringLiteral("caption"));
    m_placeholder->setMinimumHeight(kMinimumChart.height());
    m_caption->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setText(tr("Waiting for the simulation…"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_placeholder, 1);
    layout->addWidget(m_caption);
    m_view->hide();
    applyTheme();
    fitCaption();
}

ChartPanel::~ChartPanel() = default;

void ChartPanel::showNothing(const QString& reason) {
    clear();
    setPlaceholder(reason);
}

void ChartPanel::showRunReport(const RunFeed&) {}

void ChartPanel::setPlaybackTime(double, double) {}

QString ChartPanel::title() const {
    return m_chart->title();
}

QString ChartPanel::caption() const {
    return m_caption->text();
}

void ChartPanel::clear() {
    m_chart->removeAllSeries();
    for (QAbstractAxis* axis : m_chart->axes()) {
        m_chart->removeAxis(axis);
        delete axis;
    }
}

QValueAxis* ChartPanel::addValueAxis(Qt::Alignment alignment, const QString& title,
                                     const QString& labelFormat) {
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setLabelFormat(labelFormat);
    m_chart->addAxis(axis, alignment);
    return axis;
}

QCategoryAxis* ChartPanel::addMessageSizeAxis(double firstBytes, double lastBytes) {
    auto* axis = new QCategoryAxis;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    const double first = std::log2(std::max(1.0, firstBytes));
    const double last = std::max(first, std::log2(std::max(1.0, lastBytes)));
    for (double e = std::ceil(first); e <= last; e += 1)
        if (static_cast<long long>(e) % 5 == 3 || e == first || e == last) // 8 B, 256 B, 8 KiB
            axis->append(bytesText(std::exp2(e)), e);
    if (axis->count() == 0) // a single size between two powers of two
        axis->append(bytesText(firstBytes), first);
    axis->setRange(first, last > first ? last : first + 1);
    axis->setTitleText(tr("message size"));
    m_chart->addAxis(axis, Qt::AlignBottom);
    return axis;
}

QBarCategoryAxis* ChartPanel::addCategoryAxis(Qt::Alignment alignment,
                                              const QStringList& categories) {
    auto* axis = new QBarCategoryAxis;
    axis->append(categories);
    m_chart->addAxis(axis, alignment);
    return axis;
}

void ChartPanel::addSeries(QAbstractSeries* series, const QList<QAbstractAxis*>& axes) {
    m_chart->addSeries(series);
    for (QAbstractAxis* axis : axes)
        series->attachAxis(axis);
}

void ChartPanel::setBarTooltip(QAbstractBarSeries* series,
                               std::function<QString(const QString&, int, double)> text) {
    connect(series, &QAbstractBarSeries::hovered, this,
            [text = std::move(text)](bool on, int index, QBarSet* set) {
                if (on)
                    QToolTip::showText(QCursor::pos(), text(set->label(), index, set->at(index)));
                else
                    QToolTip::hideText();
            });
}

void ChartPanel::setPointTooltip(QXYSeries* series, std::function<QString(const QPointF&)> text) {
    connect(series, &QXYSeries::hovered, this,
            [text = std::move(text)](const QPointF& point, bool on) {
                if (on)
                    QToolTip::showText(QCursor::pos(), text(point));
                else
                    QToolTip::hideText();
            });
}

void ChartPanel::setCaption(const QString& text) {
    m_caption->setText(text);
    fitCaption();
}

void ChartPanel::fitCaption() {
    // A caption as tall as its text would resize the chart above it, and with it every
    // chart of the grid, each time a result arrives: room for kCaptionLines lines is kept
    // whatever the text, and more given only to a caption that needs them at this width
    // and size of type (presentation mode's larger type, a narrow column), so none is cut.
    // Measured from the text (plain, as every chart words it): QLabel::heightForWidth()
    // never answers less than the label's height, so a caption once fitted to a narrow
    // panel would keep that height.
    const QFontMetrics metrics = m_caption->fontMetrics();
    const QMargins margins = m_caption->contentsMargins();
    const int frame = margins.top() + margins.bottom() + 2 * m_caption->margin() + 4;
    const int textWidth = width() - margins.left() - margins.right() - 2 * m_caption->margin();
    int needed = 0;
    if (textWidth > 0 && !m_caption->text().isEmpty())
        needed = metrics
                     .boundingRect(QRect(0, 0, textWidth, QWIDGETSIZE_MAX), Qt::TextWordWrap,
                                   m_caption->text())
                     .height() +
                 frame;
    m_caption->setFixedHeight(std::max(metrics.lineSpacing() * kCaptionLines + 4, needed));
}

void ChartPanel::setHasData(bool hasData) {
    m_hasData = hasData;
    m_view->setVisible(hasData);
    m_placeholder->setVisible(!hasData);
    // New series and axes ask the chart for a layout in a later turn, after the scene has
    // already drawn them where the old ones were: laid out now, the chart is drawn once,
    // in its final place.
    if (hasData && m_chart->layout())
        m_chart->layout()->activate();
}

void ChartPanel::setPlaceholder(const QString& text) {
    m_placeholder->setText(text);
    m_caption->clear();
    setHasData(false);
}

QColor ChartPanel::routingColor(model::Routing routing) {
    switch (routing) {
    case model::Routing::Adaptive:
        return QColor(60, 160, 90);
    case model::Routing::Spray:
        return QColor(140, 90, 190);
    case model::Routing::Valiant:
        return QColor(200, 70, 110);
    case model::Routing::Ugal:
        return QColor(40, 150, 170);
    case model::Routing::Ecmp:
        break;
    }
    return QColor(230, 130, 30);
}

QColor ChartPanel::capacityColor() {
    return QColor(70, 130, 200);
}

void ChartPanel::applyTheme() {
    // Follow the window's palette (FabricLab's light and dark themes) rather than a fixed
    // chart theme, so a chart never sits white in a dark window.
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    const auto theme = dark ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (m_chart->theme() != theme) {
        m_chart->setTheme(theme); // series added later take the theme's colours as they come
        applySeriesColors();      // the theme recoloured the series there are
    }
    m_chart->setBackgroundBrush(palette().color(QPalette::Base));
    m_chart->setTitleBrush(palette().color(QPalette::Text));
    m_chart->legend()->setLabelColor(palette().color(QPalette::Text));
    QFont title = font(); // the window's font, whether sized in points or pixels
    title.setBold(true);
    m_chart->setTitleFont(title);
}

bool ChartPanel::event(QEvent* event) {
    if (event->type() == QEvent::PaletteChange)
        applyTheme();
    const bool handled = QWidget::event(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::Resize)
        fitCaption();
    return handled;
}

void ChartPanel::showContextMenu(const QPoint& position) {
    QMenu menu(this);
    menu.addAction(tr("Export as PNG…"), this, [this] { exportWithDialog(QStringLiteral("png")); });
    menu.addAction(tr("Export as SVG…"), this, [this] { exportWithDialog(QStringLiteral("svg")); });
    menu.addAction(tr("Export data as CSV…"), this,
                   [this] { exportWithDialog(QStringLiteral("csv")); });
    menu.exec(m_view->mapToGlobal(position));
}

void ChartPanel::exportWithDialog(const QString& suffix) {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export %1").arg(title()), m_name + QLatin1Char('.') + suffix,
        tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = suffix == QLatin1String("png")   ? exportPng(path, &error)
                    : suffix == QLatin1String("svg") ? exportSvg(path, &error)
                                                     : exportCsv(path, &error);
    if (!ok)
        QToolTip::showText(QCursor::pos(), error);
}

void ChartPanel::layOutForExport() const {
    if (m_view->isVisible())
        return; // export what the user sees
    // A chart never shown (a tab behind, a headless export) has not been laid out: give
    // it the export size by hand, as QChartView's resize event would.
    m_view->resize(kExportSize);
    m_chart->resize(kExportSize);
    m_view->setSceneRect(QRectF(QPointF(0, 0), QSizeF(kExportSize)));
}

bool ChartPanel::exportPng(const QString& path, QString* error) const {
    layOutForExport();
    // Twice the pixels on screen: sharp on slides and in documents.
    constexpr qreal kScale = 2;
    QPixmap pixmap(m_view->size() * kScale);
    pixmap.fill(palette().color(QPalette::Window));
    {
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        // The scene drawn into the larger target: QGraphicsView scales it once (the
        // widget's own render() would apply a painter scale twice).
        m_view->render(&painter, QRectF(QPointF(0, 0), QSizeF(pixmap.size())),
                       m_view->viewport()->rect());
    }
    if (pixmap.isNull() || !pixmap.save(path, "PNG")) {
        fail(error, tr("could not write the PNG file %1").arg(path));
        return false;
    }
    return true;
}

bool ChartPanel::exportSvg(const QString& path, QString* error) const {
    layOutForExport();
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(m_view->size());
    svg.setViewBox(QRect(QPoint(0, 0), m_view->size()));
    svg.setTitle(title());
    svg.setDescription(caption());
    QPainter painter;
    if (!painter.begin(&svg)) {
        fail(error, tr("could not write the SVG file %1").arg(path));
        return false;
    }
    m_view->render(&painter);
    painter.end();
    if (!QFileInfo(path).exists() || QFileInfo(path).size() == 0) {
        fail(error, tr("could not write the SVG file %1").arg(path));
        return false;
    }
    return true;
}

void ChartPanel::render(QPainter& painter, const QRectF& target) const {
    layOutForExport();
    m_view->render(&painter, target, m_view->viewport()->rect(), Qt::KeepAspectRatio);
}

double ChartPanel::aspect() const {
    layOutForExport();
    const QSize size = m_view->viewport()->size();
    return size.height() > 0 ? static_cast<double>(size.width()) / size.height() : 1.6;
}

bool ChartPanel::exportCsv(const QString& path, QString* error) const {
    QSaveFile file(path);
    // Binary: the records end with CRLF already, as RFC 4180 has them.
    if (!file.open(QIODevice::WriteOnly)) {
        fail(error, tr("could not open %1 for writing: %2").arg(path, file.errorString()));
        return false;
    }
    file.write(toCsv(table()).toUtf8());
    if (!file.commit()) {
        fail(error, tr("could not write %1: %2").arg(path, file.errorString()));
        return false;
    }
    return true;
}

} // namespace fabriclab::views
