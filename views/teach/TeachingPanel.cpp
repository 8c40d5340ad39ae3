// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/teach/TeachingPanel.hpp"

#include "model/core/Units.hpp"
#include "model/design/CollectiveSpec.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/models/NumberFormat.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <stdexcept>

namespace fabriclab::views {
namespace {

/// Long enough to read a caption aloud, short enough to keep a room's attention.
constexpr int kPlayStepMs = 2500;

constexpr teach::Lesson kLessons[] = {teach::Lesson::RingAllReduce, teach::Lesson::TreeAllReduce,
                                      teach::Lesson::SharpAllReduce, teach::Lesson::AllToAll};

QString chunkLabel(const std::vector<int>& chunks) {
    QStringList names;
    for (const int chunk : chunks)
        names << QStringLiteral("c%1").arg(chunk);
    return names.join(QLatin1Char(' '));
}

} // namespace

TeachingPanel::TeachingPanel(TopologyDocument& document, QWidget* parent)
    : QWidget(parent), m_document(document), m_lessonBox(new QComboBox(this)),
      m_sizeBox(new QComboBox(this)), m_startButton(new QPushButton(tr("Start"), this)),
      m_backButton(new QPushButton(tr("◀ Back"), this)),
      m_nextButton(new QPushButton(tr("Next ▶"), this)),
      m_playButton(new QPushButton(tr("Play"), this)), m_stepLabel(new QLabel(this)),
      m_caption(new QLabel(this)), m_moves(new QLabel(this)), m_figures(new QLabel(this)) {
    setObjectName(QStringLiteral("TeachingPanel"));
    for (const teach::Lesson lesson : kLessons)
        m_lessonBox->addItem(engineText(teach::title(lesson)), static_cast<int>(lesson));
    for (const double mib : {1.0, 16.0, 64.0, 256.0, 1024.0})
        m_sizeBox->addItem(bytesText(mib * 1024 * 1024), mib * 1024 * 1024);
    m_sizeBox->setCurrentIndex(3);
    m_playButton->setCheckable(true);
    m_caption->setWordWrap(true);
    m_moves->setWordWrap(true);
    m_figures->setWordWrap(true);
    QFont big = m_caption->font();
    big.setPointSizeF(big.pointSizeF() * 1.15);
    m_caption->setFont(big);
    QFont bold = m_stepLabel->font();
    bold.setBold(true);
    m_stepLabel->setFont(bold);
    m_caption->setText(introduction());

    // One row of controls: the dock is wide and short, under the canvas.
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(new QLabel(tr("Collective"), this));
    buttons->addWidget(m_lessonBox);
    buttons->addWidget(new QLabel(tr("Buffer per server"), this));
    buttons->addWidget(m_sizeBox);
    buttons->addWidget(m_startButton);
    buttons->addWidget(m_backButton);
    buttons->addWidget(m_nextButton);
    buttons->addWidget(m_playButton);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_stepLabel);
    layout->addWidget(m_caption);
    layout->addWidget(m_moves);
    layout->addWidget(m_figures);
    layout->addStretch(1);

    m_timer.setInterval(kPlayStepMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_run && m_step + 1 < stepCount())
            next();
        else
            setPlaying(false);
    });
    connect(m_startButton, &QPushButton::clicked, this, [this] { start(); });
    connect(m_backButton, &QPushButton::clicked, this, &TeachingPanel::back);
    connect(m_nextButton, &QPushButton::clicked, this, &TeachingPanel::next);
    connect(m_playButton, &QPushButton::toggled, this, &TeachingPanel::setPlaying);
    connect(m_lessonBox, &QComboBox::currentIndexChanged, this, [this] {
        if (m_active)
            start();
    });
    connect(m_sizeBox, &QComboBox::currentIndexChanged, this, [this] {
        if (m_active)
            start();
    });
    // Another design (opened, loaded, new) is not the one the lesson was about: the lesson
    // and what it drew on the canvas go with the old design. (Connected before `changed`,
    // which the document emits next, so that change does not start the lesson again.)
    connect(&m_document, &TopologyDocument::designReset, this, [this](DesignReset how) {
        if (how == DesignReset::Opened && (m_active || m_run))
            stop();
    });
    // An edit, a failure or another fabric changes what each step costs: work it out again.
    connect(&m_document, &TopologyDocument::changed, this, [this] {
        if (m_active)
            start();
    });
    connect(&m_watcher, &QFutureWatcher<LessonOutcome>::finished, this,
            &TeachingPanel::lessonArrived);
    showStep(-1);
}

TeachingPanel::~TeachingPanel() {
    m_watcher.waitForFinished();
}

int TeachingPanel::stepCount() const {
    return m_run ? static_cast<int>(m_run->steps.size()) : 0;
}

void TeachingPanel::start(std::optional<teach::Lesson> lesson) {
    if (lesson) {
        const int index = m_lessonBox->findData(static_cast<int>(*lesson));
        const QSignalBlocker block(m_lessonBox);
        m_lessonBox->setCurrentIndex(index);
    }
    m_active = true;
    const auto chosen = static_cast<teach::Lesson>(m_lessonBox->currentData().toInt());
    const double bytes = m_sizeBox->currentData().toDouble();
    m_stepLabel->setText(tr("Working out the lesson…"));
    ++m_asked;
    // The design is copied: the worker must not see later edits.
    m_watcher.setFuture(QtConcurrent::run([design = m_document.design(), chosen, bytes,
                                           &catalog = m_document.catalog()]() -> LessonOutcome {
        try {
            return {std::make_shared<const teach::LessonRun>(
                        teach::teach(design, chosen, bytes, catalog)),
                    {}};
        } catch (const std::exception& e) {
            return {nullptr, QString::fromUtf8(e.what())};
        }
    }));
}

void TeachingPanel::waitForLesson() {
    m_watcher.waitForFinished();
    lessonArrived();
}

void TeachingPanel::lessonArrived() {
    // Called by the watcher and by waitForLesson: take each lesson in once.
    if (m_taken == m_asked || !m_watcher.future().isValid() || !m_watcher.isFinished())
        return;
    m_taken = m_asked;
    const LessonOutcome outcome = m_watcher.result();
    if (!outcome.run)
        return refuse(outcome.error);
    const bool sameLesson = m_run && m_run->lesson == outcome.run->lesson;
    const int keep =
        sameLesson ? std::min(m_step, static_cast<int>(outcome.run->steps.size()) - 1) : 0;
    m_run = outcome.run;
    showStep(std::max(0, keep));
    Q_EMIT lessonReady();
}

void TeachingPanel::refuse(const QString& reason) {
    m_run.reset();
    setPlaying(false);
    showStep(-1);
    m_stepLabel->setText(tr("No lesson"));
    m_caption->setText(reason);
    Q_EMIT linksCleared();
    Q_EMIT lessonReady();
}

void TeachingPanel::stop() {
    m_active = false;
    m_taken = m_asked; // a lesson still being worked out is for what was stopped
    m_run.reset();
    setPlaying(false);
    showStep(-1);
    m_caption->setText(introduction());
    Q_EMIT linksCleared();
}

QString TeachingPanel::introduction() {
    return tr("Pick a collective and press Start to walk through it step by step on this "
              "design (up to %1 GPUs).")
        .arg(numberText(teach::kMaxTeachingGpus));
}

void TeachingPanel::next() {
    if (m_run && m_step + 1 < stepCount())
        showStep(m_step + 1);
}

void TeachingPanel::back() {
    if (m_run && m_step > 0)
        showStep(m_step - 1);
}

void TeachingPanel::setPlaying(bool playing) {
    if (playing && !m_run)
        playing = false;
    if (playing && m_step + 1 >= stepCount())
        showStep(0); // play from the start once the end is reached
    const QSignalBlocker block(m_playButton);
    m_playButton->setChecked(playing);
    m_playButton->setText(playing ? tr("Pause") : tr("Play"));
    if (playing)
        m_timer.start();
    else
        m_timer.stop();
}

void TeachingPanel::showStep(int step) {
    m_step = m_run ? step : -1;
    m_backButton->setEnabled(m_run && m_step > 0);
    m_nextButton->setEnabled(m_run && m_step + 1 < stepCount());
    m_playButton->setEnabled(m_run != nullptr);
    if (!m_run || m_step < 0) {
        m_stepLabel->clear();
        m_moves->clear();
        m_figures->clear();
        return;
    }
    const teach::LessonStep& s = m_run->steps[static_cast<std::size_t>(m_step)];
    m_stepLabel->setText(tr("%1 · step %2 of %3 · %4 per server in %5 chunks")
                             .arg(engineText(teach::title(m_run->lesson)))
                             .arg(m_step + 1)
                             .arg(stepCount())
                             .arg(bytesText(m_run->bytes))
                             .arg(m_run->chunks));
    m_caption->setText(engineText(s.caption));
    QStringList moves;
    const auto& topology = m_document.topology();
    const auto name = [&](model::NodeId id) {
        return topology.contains(id) ? engineText(topology.node(id).name)
                                     : QStringLiteral("#%1").arg(id.value);
    };
    for (const teach::ChunkMove& move : s.moves)
        moves << QStringLiteral("%1 → %2 c%3%4")
                     .arg(name(move.from), name(move.to))
                     .arg(move.chunk)
                     .arg(move.reduce ? QStringLiteral(" (+)") : QString());
    m_moves->setText(tr("Moves: %1").arg(moves.join(QStringLiteral(", "))));
    // Every figure is the lesson's, and the lesson's clock is the engine's: say so, with
    // what NCCL runs, so the last step's figure can be checked against nccl-tests.
    const model::NcclTestsRow& engine = m_run->engine;
    m_figures->setText(
        tr("This step %1 · elapsed %2 · bus bandwidth so far %3\n"
           "NCCL runs this as %4 with its %5 protocol over %6 GPUs: %7, bus bandwidth %8, as "
           "fabriclab-cli nccl-tests reports it; the steps drawn here share that time.")
            .arg(durationText(s.seconds), durationText(s.elapsedSeconds),
                 busBandwidthText(s.busBwGBps), engineText(model::toString(engine.algorithm)),
                 engineText(model::toString(engine.protocol)), numberText(m_run->ranks),
                 durationText(model::microseconds(engine.timeUs).value),
                 busBandwidthText(engine.busBwGBps)));
    std::unordered_map<std::uint32_t, QString> notes;
    for (const auto& [link, chunks] : s.linkChunks)
        notes.emplace(link, chunkLabel(chunks));
    Q_EMIT linksShown(s.linkLoad, notes);
}

} // namespace fabriclab::views
