// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/PlaybackClock.hpp"

#include <algorithm>

namespace fabriclab::views {

PlaybackClock::PlaybackClock(QObject* parent) : QObject(parent) {
    m_timer.setInterval(kFrameIntervalMs);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &PlaybackClock::tick);
}

void PlaybackClock::setTimeline(double seconds, std::vector<double> frameStarts) {
    pause();
    m_duration = std::max(0.0, seconds);
    m_frames = std::move(frameStarts);
    std::sort(m_frames.begin(), m_frames.end());
    m_time = 0;
    Q_EMIT timelineChanged();
    Q_EMIT timeChanged(m_time);
}

void PlaybackClock::clear() {
    setTimeline(0, {});
}

void PlaybackClock::play() {
    if (m_duration <= 0 || isPlaying())
        return;
    if (m_time >= m_duration)
        m_time = 0; // play from the start again
    m_wall.start();
    m_timer.start();
    Q_EMIT playingChanged(true);
}

void PlaybackClock::pause() {
    if (!isPlaying())
        return;
    m_timer.stop();
    Q_EMIT playingChanged(false);
}

void PlaybackClock::togglePlaying() {
    isPlaying() ? pause() : play();
}

void PlaybackClock::step() {
    pause();
    const auto next = std::upper_bound(m_frames.begin(), m_frames.end(), m_time * (1 + 1e-12));
    seek(next == m_frames.end() || m_time >= m_duration ? 0.0 : *next);
}

void PlaybackClock::seek(double seconds) {
    m_time = std::clamp(seconds, 0.0, m_duration);
    if (isPlaying())
        m_wall.restart();
    Q_EMIT timeChanged(m_time);
}

void PlaybackClock::setSpeed(double speed) {
    if (!(speed > 0) || speed == m_speed)
        return;
    m_speed = speed;
    Q_EMIT speedChanged(speed);
}

void PlaybackClock::tick() {
    // Advance by the wall time that really passed, so a late timer does not slow playback.
    const double wall = static_cast<double>(m_wall.restart()) / 1000.0;
    m_time = std::min(m_duration, m_time + wall * simulatedPerSecond());
    Q_EMIT timeChanged(m_time);
    if (m_time >= m_duration)
        pause();
}

} // namespace fabriclab::views
