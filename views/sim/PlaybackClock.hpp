// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <vector>

namespace fabriclab::views {

/// The playback clock: simulated time advanced by a ~30 fps timer, independent of the
/// simulator's own clock (STYLE.md §5). At speed 1 a whole timeline plays in
/// `kWallSecondsAtSpeed1` seconds whatever its simulated length, so a 40 µs ring step
/// and a 3 s all-to-all are both watchable; the speed shown beside it says how much
/// simulated time a second of playback is. Never busy-waits.
class PlaybackClock : public QObject {
    Q_OBJECT

public:
    static constexpr int kFrameIntervalMs = 33;
    static constexpr double kWallSecondsAtSpeed1 = 8;

    explicit PlaybackClock(QObject* parent = nullptr);

    /// A new timeline: `frameStarts` in simulated seconds (for step()), paused at 0.
    void setTimeline(double seconds, std::vector<double> frameStarts);
    void clear();

    bool isPlaying() const { return m_timer.isActive(); }
    double time() const { return m_time; }
    double duration() const { return m_duration; }
    double speed() const { return m_speed; }
    /// Simulated seconds that one second of playback shows at the current speed.
    double simulatedPerSecond() const { return m_duration / kWallSecondsAtSpeed1 * m_speed; }

public Q_SLOTS:
    void play();
    void pause();
    void togglePlaying();
    /// Jumps to the start of the next frame (F4); from the end, back to the start.
    void step();
    void seek(double seconds);
    /// 1 plays a timeline in kWallSecondsAtSpeed1; 2 twice as fast.
    void setSpeed(double speed);

Q_SIGNALS:
    void timeChanged(double seconds);
    void playingChanged(bool playing);
    void timelineChanged();
    void speedChanged(double speed);

private:
    void tick();

    QTimer m_timer;
    QElapsedTimer m_wall;
    double m_time = 0;
    double m_duration = 0;
    double m_speed = 1;
    std::vector<double> m_frames;
};

} // namespace fabriclab::views
