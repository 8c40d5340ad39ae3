// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/PlaybackBar.hpp"

#include "views/models/NumberFormat.hpp"
#include "views/sim/ElidedLabel.hpp"
#include "views/sim/PlaybackClock.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

namespace fabriclab::views {
namespace {
constexpr int kSeekSteps = 1000;
}

PlaybackBar::PlaybackBar(PlaybackClock& clock, QWidget* parent)
    : QWidget(parent), m_clock(clock), m_play(new QToolButton(this)), m_step(new QToolButton(this)),
      m_seek(new QSlider(Qt::Horizontal, this)), m_speed(new QComboBox(this)),
      m_time(new QLabel(this)), m_rate(new ElidedLabel(this)) {
    m_play->setObjectName(QStringLiteral("play"));
    m_play->setToolTip(tr("Play or pause the simulated timeline (Space)"));
    m_step->setObjectName(QStringLiteral("step"));
    m_step->setIcon(style()->standardIcon(QStyle::SP_MediaSkipForward));
    m_step->setToolTip(tr("Step to the next change of rates (F4)"));
    m_seek->setObjectName(QStringLiteral("seek"));
    m_seek->setRange(0, kSeekSteps);
    // Squeezed by a narrow window, a slider still reads as one (the labels elide first).
    m_seek->setMinimumWidth(80);
    m_seek->setToolTip(tr("Seek in simulated time"));
    m_speed->setObjectName(QStringLiteral("speed"));
    for (const double speed : {0.25, 0.5, 1.0, 2.0, 4.0})
        m_speed->addItem(numberText(speed) + QStringLiteral("×"), speed);
    m_speed->setCurrentIndex(2);
    m_speed->setToolTip(tr("Playback speed: 1× plays the whole timeline in %1 s")
                            .arg(numberText(PlaybackClock::kWallSecondsAtSpeed1)));
    m_time->setObjectName(QStringLiteral("simulatedTime"));
    m_rate->setObjectName(QStringLiteral("playbackRate"));

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_play);
    layout->addWidget(m_step);
    layout->addWidget(m_seek, 1);
    layout->addWidget(m_time);
    layout->addWidget(m_speed);
    layout->addWidget(m_rate);

    connect(m_play, &QToolButton::clicked, &m_clock, &PlaybackClock::togglePlaying);
    connect(m_step, &QToolButton::clicked, &m_clock, &PlaybackClock::step);
    connect(m_speed, &QComboBox::currentIndexChanged, this,
            [this](int index) { m_clock.setSpeed(m_speed->itemData(index).toDouble()); });
    connect(m_seek, &QSlider::valueChanged, this, [this](int value) {
        if (!m_seeking)
            m_clock.seek(m_clock.duration() * value / kSeekSteps);
    });
    connect(&m_clock, &PlaybackClock::timeChanged, this, &PlaybackBar::showTime);
    connect(&m_clock, &PlaybackClock::speedChanged, this, &PlaybackBar::showSpeed);
    connect(&m_clock, &PlaybackClock::timelineChanged, this, &PlaybackBar::timelineChanged);
    connect(&m_clock, &PlaybackClock::playingChanged, this, [this](bool playing) {
        m_play->setIcon(
            style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    });
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    timelineChanged();
}

void PlaybackBar::timelineChanged() {
    const bool any = m_clock.duration() > 0;
    for (QWidget* w : std::initializer_list<QWidget*>{m_play, m_step, m_seek, m_speed})
        w->setEnabled(any);
    showTime(m_clock.time());
    showSpeed();
}

void PlaybackBar::showTime(double seconds) {
    m_seeking = true;
    m_seek->setValue(m_clock.duration() > 0
                         ? static_cast<int>(kSeekSteps * seconds / m_clock.duration() + 0.5)
                         : 0);
    m_seeking = false;
    m_time->setText(
        m_clock.duration() > 0
            ? tr("%1 of %2 simulated").arg(durationText(seconds), durationText(m_clock.duration()))
            : tr("no timeline"));
}

void PlaybackBar::showSpeed() {
    m_rate->setFullText(
        m_clock.duration() > 0
            ? tr("1 s of playback shows %1").arg(durationText(m_clock.simulatedPerSecond()))
            : QString());
}

} // namespace fabriclab::views
