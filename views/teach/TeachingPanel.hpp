// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/teach/Lesson.hpp"

#include <QFutureWatcher>
#include <QString>
#include <QTimer>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>

class QComboBox;
class QLabel;
class QPushButton;

namespace fabriclab::views {

class TopologyDocument;

/// A lesson worked out on a worker thread, or why there is none.
struct LessonOutcome {
    std::shared_ptr<const teach::LessonRun> run;
    QString error;
};

/// Teaching: a collective on the current (small) design, one step at a time. The lesson
/// comes from teach::teach on a worker thread; the panel shows the step's caption, its
/// moves, its time and the bus bandwidth so far, and hands the canvas what each link
/// carries (linksShown). Back / Next / Play walk the steps; a design edit recomputes; another
/// design opened ends the lesson and clears what it drew.
class TeachingPanel : public QWidget {
    Q_OBJECT

public:
    explicit TeachingPanel(TopologyDocument& document, QWidget* parent = nullptr);
    ~TeachingPanel() override;

    /// Starts a lesson (the one picked, or `lesson`) on the current design.
    void start(std::optional<teach::Lesson> lesson = std::nullopt);
    /// Stops the lesson and clears what it drew.
    void stop();
    void next();
    void back();
    void setPlaying(bool playing);
    /// The step shown, 0-based; -1 before a lesson is ready.
    int currentStep() const { return m_step; }
    int stepCount() const;
    const teach::LessonRun* lesson() const { return m_run.get(); }
    /// Blocks until a lesson being computed is in (headless captures and tests).
    void waitForLesson();

Q_SIGNALS:
    /// What the canvas draws for the step: link loads 0-1 and labels, by LinkId value.
    void linksShown(const std::unordered_map<std::uint32_t, float>& load,
                    const std::unordered_map<std::uint32_t, QString>& notes);
    /// The lesson ended or failed: the canvas drops what it drew.
    void linksCleared();
    /// A lesson is ready (or refused, with the reason in the caption).
    void lessonReady();

private:
    /// What the panel says before a lesson starts.
    static QString introduction();
    void lessonArrived();
    void showStep(int step);
    void refuse(const QString& reason);

    TopologyDocument& m_document;
    QComboBox* m_lessonBox;
    QComboBox* m_sizeBox;
    QPushButton* m_startButton;
    QPushButton* m_backButton;
    QPushButton* m_nextButton;
    QPushButton* m_playButton;
    QLabel* m_stepLabel;
    QLabel* m_caption;
    QLabel* m_moves;
    QLabel* m_figures;
    QTimer m_timer;
    QFutureWatcher<LessonOutcome> m_watcher;
    std::shared_ptr<const teach::LessonRun> m_run;
    int m_step = -1;
    bool m_active = false;
    int m_asked = 0; ///< lessons started
    int m_taken = 0; ///< lessons taken in (the latest one asked for, once)
};

} // namespace fabriclab::views
