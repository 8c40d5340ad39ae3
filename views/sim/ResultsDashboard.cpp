// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/ResultsDashboard.hpp"

#include "views/canvas/CanvasPalette.hpp"
#include "views/canvas/TopologyScene.hpp"
#include "views/charts/BisectionChart.hpp"
#include "views/charts/ChartRegistry.hpp"
#include "views/charts/RunFeed.hpp"
#include "views/charts/ScalingChart.hpp"
#include "views/models/NumberFormat.hpp"
#include "views/sim/ElidedLabel.hpp"
#include "views/sim/EnginePool.hpp"
#include "views/sim/PlaybackBar.hpp"
#include "views/sim/PlaybackClock.hpp"

#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLinearGradient>
#include <QPainter>
#include <QPixmap>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace fabriclab::views {
namespace {

constexpr int kChartColumns = 3;

/// The canvas's heat scale as a small picture for the legend.
QPixmap heatScale(int width, int height) {
    QPixmap pixmap(width, height);
    QPainter painter(&pixmap);
    for (int x = 0; x < width; ++x) {
        painter.setPen(CanvasPalette::heatColor(static_cast<double>(x) / (width - 1)));
        painter.drawLine(x, 0, x, height - 1);
    }
    return pixmap;
}

/// Draws `fabriclab-cli run` averages the effective bisection over.
int cliBisectionDraws() {
    return model::RunOptions{}.bisectionSeeds;
}

} // namespace

ResultsDashboard::ResultsDashboard(QWidget* parent)
    : QWidget(parent), m_state(new QLabel(this)), m_summary(new QLabel(this)),
      m_legend(new ElidedLabel(this)), m_clock(new PlaybackClock(this)), m_grid(new QWidget(this)) {
    for (const ChartKind& kind : chartKinds())
        if (kind.places.testFlag(ChartPlace::Dashboard))
            m_charts << kind.create(this);
    // The two the dashboard drives itself: the full bisection pass and the scaling study.
    for (ChartPanel* chart : std::as_const(m_charts)) {
        if (auto* bisection = qobject_cast<BisectionChart*>(chart))
            m_bisection = bisection;
        if (auto* scaling = qobject_cast<ScalingChart*>(chart))
            m_scaling = scaling;
    }
    m_state->setObjectName(QStringLiteral("runState"));
    m_stagger.setSingleShot(true);
    m_stagger.setInterval(0);
    connect(&m_stagger, &QTimer::timeout, this, &ResultsDashboard::updateNextChart);
    m_fullWatcher.setObjectName(QStringLiteral("fullBisection"));
    connect(&m_fullWatcher, &QFutureWatcher<FullBisection>::finished, this,
            &ResultsDashboard::fullBisectionArrived);
    m_summary->setObjectName(QStringLiteral("summary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    fixLabelSizes();
    auto* legendScale = new QLabel(this);
    legendScale->setPixmap(heatScale(90, 10));
    // The first thing to give up width in a narrow window: elided, whole in its tooltip.
    m_legend->setFullText(tr("link utilization 0% … 100%; thick red: bottleneck"));
    m_legend->setToolTip(tr("During playback the canvas colours each link by its busiest "
                            "direction; links at 99% or more limit the flows crossing them."));

    auto* header = new QHBoxLayout;
    header->addWidget(m_state);
    header->addWidget(new PlaybackBar(*m_clock, this), 1);
    header->addWidget(legendScale);
    header->addWidget(m_legend);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(header);
    layout->addWidget(m_summary);
    // Charts keep a readable size and scroll when the dock is short, rather than shrink
    // until their axes are dots.
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_grid);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(scroll, 1);
    layoutCharts();

    connect(m_clock, &PlaybackClock::timeChanged, this, &ResultsDashboard::showFrame);
    const QString waiting = tr("Waiting for the first simulation…");
    for (const QString& id : chartIds(ChartPlace::FollowsRun))
        if (ChartPanel* chart = findChild<ChartPanel*>(id))
            chart->showNothing(waiting);
    showState(SimulationController::State::Idle);
}

ResultsDashboard::~ResultsDashboard() {
    stopFullBisection();
    m_fullWatcher.waitForFinished(); // the engine lets go within milliseconds
}

void ResultsDashboard::fixLabelSizes() {
    // The state changes many times a run; a label that kept its text's width would lay
    // the whole dashboard, charts and all, out again each time.
    m_state->setFixedWidth(m_state->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 44);
    // Fixed room (two lines and a warning) so new results never lay the charts out again.
    m_summary->setFixedHeight(m_summary->fontMetrics().lineSpacing() * 3 + 4);
}

void ResultsDashboard::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    // Presentation mode enlarges the type: the fixed room grows with it.
    if (event->type() == QEvent::FontChange)
        fixLabelSizes();
}

void ResultsDashboard::setScene(TopologyScene* scene) {
    m_scene = scene;
}

QList<ChartPanel*> ResultsDashboard::charts() const {
    return m_charts;
}

void ResultsDashboard::showScaling(const ScalingStudyPtr& study) {
    m_scaling->showStudy(*study);
}

void ResultsDashboard::showScalingPending() {
    if (!m_scaling->hasData())
        m_scaling->showNothing(tr("Running the design at other sizes…"));
}

void ResultsDashboard::showScalingFailed(const QString& reason) {
    m_scaling->showNothing(tr("The scaling study could not run: %1").arg(reason));
}

void ResultsDashboard::layoutCharts() {
    delete m_grid->layout();
    auto* grid = new QGridLayout(m_grid);
    grid->setContentsMargins(0, 0, 0, 0);
    QList<ChartPanel*> shown;
    for (const QString& name : m_focus)
        for (ChartPanel* chart : charts())
            if (chart->name() == name && !shown.contains(chart))
                shown << chart;
    if (shown.isEmpty())
        for (ChartPanel* chart : charts())
            if (!onlyWithData(chart->name()) || chart->hasData())
                shown << chart;
    for (ChartPanel* chart : charts())
        chart->setVisible(shown.contains(chart));
    for (int i = 0; i < shown.size(); ++i)
        grid->addWidget(shown[i], i / kChartColumns, i % kChartColumns);
    // Columns of one width: a chart's preferred size must not squeeze its neighbour and
    // the neighbour's caption into a narrow, tall column.
    for (int column = 0; column < std::min<int>(static_cast<int>(shown.size()), kChartColumns);
         ++column)
        grid->setColumnStretch(column, 1);
}

void ResultsDashboard::focusCharts(const QStringList& names) {
    if (names == m_focus)
        return;
    m_focus = names;
    layoutCharts();
}

void ResultsDashboard::showResult(const RunResultPtr& result) {
    stopFullBisection();
    m_full.reset();
    m_shown = result;
    m_frame = static_cast<std::size_t>(-1);
    if (m_scene)
        m_scene->clearLinkHeat();
    if (!result->ok()) {
        m_pending.clear();
        m_stagger.stop();
        // The engine's refusals already say what could not be done ("cannot evaluate this
        // design: it has no servers"): shown as a sentence, not behind a second prefix.
        QString why = result->error;
        if (!why.startsWith(QStringLiteral("cannot evaluate this design")))
            why = tr("cannot evaluate this design: %1").arg(why);
        why[0] = why[0].toUpper();
        for (ChartPanel* chart : std::as_const(m_charts))
            chart->showNothing(why);
        m_clock->clear();
        m_summary->setText(why);
        return;
    }
    const model::RunReport& r = result->report;
    // Each chart in its own turn of the event loop, so input and painting get in between;
    // the lambdas hold the result, and a newer result drops the updates not yet made.
    m_pending.clear();
    for (const QString& id : chartIds(ChartPlace::FollowsRun))
        if (ChartPanel* chart = findChild<ChartPanel*>(id))
            m_pending.push_back([this, chart, result] {
                const bool wasShown = chart->isVisibleTo(this);
                chart->showRunReport(
                    {result->report, m_full && m_shown == result ? &*m_full : nullptr});
                // A chart shown only with figures comes and goes with them.
                if (onlyWithData(chart->name()) && m_focus.isEmpty() &&
                    wasShown != chart->hasData())
                    layoutCharts();
            });
    // The playback clock follows the timeline the throughput chart draws.
    m_pending.push_back([this, result] {
        const model::RunReport& report = result->report;
        if (report.collectiveRefusal.empty() && report.playback)
            m_clock->setTimeline(report.playback->seconds, report.playback->times);
        else
            m_clock->clear();
    });
    // Not even the first chart here: the result's arrival stays a short event.
    m_stagger.start();
    m_summary->setText(summaryFor(r));
    startFullBisection();
    showState(m_runState);
}

namespace {

/// A share of time spent training, to a tenth of a percent: DiLoCo's 99.7 % is not 100 %.
QString trainingShare(double fraction) {
    return QStringLiteral("%1%").arg(numberText(fraction * 100, 1));
}

} // namespace

QString ResultsDashboard::summaryFor(const model::RunReport& r) const {
    const sim::EffectiveBisection& effective = m_full ? m_full->effective : r.effective;
    QString delivered =
        tr("%1 delivered").arg(bandwidthSpreadText(effective.gbps, effective.stddevGbps));
    if (effective.seeds > 0 && effective.seeds < cliBisectionDraws())
        delivered += tr(", a %1-draw preview").arg(numberText(effective.seeds));
    QString text =
        tr("%1 GPUs on %2 servers · bisection %3 (%4 of half the injection "
           "bandwidth; %5)")
            .arg(numberText(r.gpus), numberText(r.servers), bandwidthText(r.bisection.minCut.value),
                 percentText(r.bisection.ratio), delivered);
    if (r.collectiveRefusal.empty()) {
        text += tr(" · %1 in %2, busbw %3")
                    .arg(collectiveName(r), durationText(r.collective.seconds),
                         busBandwidthText(r.collective.busBwGBps));
        // Only where hashes had a choice to make: the engine times one draw otherwise.
        if (r.collective.ecmpDraws > 1)
            text += tr(" (%1 over %2 ECMP draws)")
                        .arg(busBandwidthRangeText(r.collective.busBwMinGBps,
                                                   r.collective.busBwMaxGBps),
                             numberText(r.collective.ecmpDraws));
    }
    if (r.step)
        text += tr(" · step %1, communication %2 of compute")
                    .arg(durationText(r.step->stepSeconds), percentText(r.step->commToCompute));
    if (r.memory)
        text += tr(" · memory %1 of %2 GB a GPU")
                    .arg(numberText(r.memory->total / 1e9, 1), numberText(r.memory->hbm / 1e9, 0));
    if (r.serving)
        text +=
            tr(" · serving: first token %1, %2 a token, %3 tokens/s a GPU%4")
                .arg(durationText(r.serving->ttftSeconds), durationText(r.serving->tpotSeconds),
                     numberText(r.serving->outputTokensPerSecondPerGpu, 0),
                     r.serving->usesFabric ? tr(" (KV hand-over %1 on the fabric)")
                                                 .arg(durationText(r.serving->kvTransferSeconds))
                                           : tr(" (inside each server's NVLink)"));
    if (r.sites)
        text += tr(" · %1 sites: synchronous step %2 (%3 training), DiLoCo %4 (%5)")
                    .arg(numberText(r.sites->sites.count),
                         durationText(r.sites->synchronous.stepSeconds),
                         trainingShare(r.sites->synchronous.utilization),
                         durationText(r.sites->diloco.stepSeconds),
                         trainingShare(r.sites->diloco.utilization));
    text += tr(" · capex %1").arg(usdText(r.cost.capex.value));
    QStringList warnings;
    for (const std::string* refusal : {&r.collectiveRefusal, &r.stepRefusal, &r.servingRefusal})
        if (!refusal->empty() &&
            std::find(r.warnings.begin(), r.warnings.end(), *refusal) == r.warnings.end())
            warnings << engineSentence(*refusal);
    for (const std::string& warning : r.warnings)
        warnings << QString::fromStdString(warning);
    for (const QString& warning : warnings)
        text +=
            QStringLiteral("<br><font color='#c07000'>⚠ %1</font>").arg(warning.toHtmlEscaped());
    return text;
}

void ResultsDashboard::startFullBisection() {
    const RunResultPtr result = m_shown;
    if (!result || !result->ok() || !result->design)
        return;
    const model::RunReport& r = result->report;
    if (r.effective.seeds <= 0 || r.effective.seeds >= cliBisectionDraws())
        return;
    // What `fabriclab-cli run` reports: its draws and seed, with the other routings too when
    // the preview had them.
    m_fullStop = std::stop_source();
    model::RunOptions options;
    options.detail = !r.otherRoutings.empty();
    options.stop = m_fullStop.get_token();
    m_fullWatcher.setFuture(QtConcurrent::run(&enginePool(), [result, options]() -> FullBisection {
        enterEngineThread();
        FullBisection full{result, std::nullopt};
        try {
            full.figures = model::effectiveBisections(*result->design, result->report.fabric,
                                                      result->report.bisection, options);
        } catch (const std::exception&) {
            // Stopped (model::Cancelled) for a newer design, or refused: the preview,
            // labelled as one, stays.
        }
        return full;
    }));
}

void ResultsDashboard::stopFullBisection() {
    m_fullStop.request_stop();
}

void ResultsDashboard::fullBisectionArrived() {
    if (m_fullWatcher.future().resultCount() == 0)
        return;
    FullBisection full = m_fullWatcher.result();
    if (!full.figures || !m_shown || full.result != m_shown)
        return; // stopped, or for a result no longer shown
    m_full = std::move(full.figures);
    m_bisection->showReport(m_shown->report, &*m_full);
    m_summary->setText(summaryFor(m_shown->report));
    Q_EMIT fullBisectionShown(m_shown);
}

bool ResultsDashboard::showsBisectionPreview() const {
    return m_bisection->isPreview();
}

void ResultsDashboard::updateNextChart() {
    if (m_pending.empty())
        return;
    const std::function<void()> update = std::move(m_pending.front());
    m_pending.pop_front();
    update();
    if (!m_pending.empty())
        m_stagger.start();
    else
        Q_EMIT chartsShown(m_shown);
}

void ResultsDashboard::finishChartUpdates() {
    m_stagger.stop();
    while (!m_pending.empty())
        updateNextChart();
}

void ResultsDashboard::showState(SimulationController::State state) {
    m_runState = state;
    // The design changed: the full bisection of the shown result would come too late to
    // matter, and the new run wants the processor.
    if (state == SimulationController::State::Running ||
        state == SimulationController::State::Stale)
        stopFullBisection();
    using State = SimulationController::State;
    QString text;
    switch (state) {
    case State::Idle:
        text = tr("Not simulated yet");
        break;
    case State::Stale:
        text = tr("<font color='#c07000'>Stale: the design changed</font>");
        break;
    case State::Running:
        text = m_shown ? tr("<font color='#c07000'>Stale: simulating the change…</font>")
                       : tr("Simulating…");
        break;
    case State::Current:
        text = m_shown ? tr("<font color='#208040'>Current</font> (simulated in %1)")
                             .arg(durationText(m_shown->wallMilliseconds / 1000))
                       : tr("Current");
        break;
    case State::Failed:
        text = tr("<font color='#d04040'>Refused</font>");
        break;
    case State::Cancelled:
        text = tr("<font color='#c07000'>Stopped: the results are of an earlier version</font>");
        break;
    }
    m_state->setText(QStringLiteral("<b>%1</b>").arg(text));
    // Link colours name today's links only when the result is today's.
    if (state != State::Current && m_scene)
        m_scene->clearLinkHeat();
}

void ResultsDashboard::showProgress(int permille, const QString& stage) {
    if (m_runState == SimulationController::State::Running)
        m_state->setText(
            tr("<b>Simulating: %1 (%2)</b>").arg(stage, percentText(permille / 1000.0)));
}

QString ResultsDashboard::summaryText() const {
    return m_summary->text();
}

void ResultsDashboard::showFrame(double seconds) {
    const double duration = m_clock->duration();
    const double fraction =
        duration > 0 && (m_clock->isPlaying() || seconds > 0) ? seconds / duration : 1.0;
    for (ChartPanel* chart : std::as_const(m_charts))
        chart->setPlaybackTime(seconds, fraction);
    if (!m_shown || !m_shown->ok() || !m_shown->report.playback || !m_scene ||
        m_runState != SimulationController::State::Current)
        return;
    const sim::Playback& p = *m_shown->report.playback;
    // Links take their colours while the timeline plays or is paused part way; at rest
    // (before and after) the canvas shows the design as drawn.
    if (p.frameCount() == 0 || !(m_clock->isPlaying() || (seconds > 0 && seconds < duration))) {
        m_scene->clearLinkHeat();
        m_frame = static_cast<std::size_t>(-1);
        return;
    }
    const std::size_t frame = p.frameAt(seconds);
    if (frame == m_frame)
        return;
    m_frame = frame;
    std::unordered_map<std::uint32_t, float> utilization;
    utilization.reserve(p.links.size());
    for (std::size_t l = 0; l < p.links.size(); ++l)
        utilization.emplace(p.links[l].value, p.utilizationAt(frame, l));
    m_scene->setLinkHeat(utilization, sim::Playback::kSaturated);
}

} // namespace fabriclab::views
