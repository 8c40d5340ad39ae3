// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace fabriclab::views {

class ElidedLabel;
class PlaybackClock;

/// Play/pause, step, speed and a seek slider for a PlaybackClock, with the simulated time
/// and the playback speed shown apart ("0.42 ms of 1.8 ms simulated" / "1 s shows 0.23 ms").
class PlaybackBar : public QWidget {
    Q_OBJECT

public:
    explicit PlaybackBar(PlaybackClock& clock, QWidget* parent = nullptr);

private:
    void showTime(double seconds);
    void showSpeed();
    void timelineChanged();

    PlaybackClock& m_clock;
    QToolButton* m_play;
    QToolButton* m_step;
    QSlider* m_seek;
    QComboBox* m_speed;
    QLabel* m_time;
    ElidedLabel* m_rate;    ///< gives up its width first in a narrow window
    bool m_seeking = false; ///< the slider follows the clock, not the other way round
};

} // namespace fabriclab::views
