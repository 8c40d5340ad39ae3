// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/sim/RunResult.hpp"

#include <QElapsedTimer>
#include <QFuture>
#include <QObject>
#include <QTimer>

#include <stop_token>

namespace fabriclab::views {

class TopologyDocument;

/// Runs the whole engine (runDesign with detail: routing, max-min solves, collective,
/// step time, cost, playback) on a worker thread for the document's design.
///
/// Every edit bumps the revision and makes the shown result stale. In live mode a lone
/// edit runs at once and a burst of edits once it pauses; a run in flight is stopped through its
/// stop token (the engine polls it in routing and in the solver), and the newest revision runs once
/// it has let go. A result reaches the views only if it is for the current revision. A run that
/// takes over `kLiveLimitMs` turns live mode off, so a huge design does not keep a core busy on
/// every keystroke; run() (F5) then starts one by hand. Lives on the GUI thread.
class SimulationController : public QObject {
    Q_OBJECT

public:
    enum class State {
        Idle,      ///< nothing run yet (or nothing to run)
        Stale,     ///< the design changed since the result shown
        Running,   ///< a run for the current revision is under way
        Current,   ///< the result shown is for the current revision
        Failed,    ///< the engine refused the current revision (error says why)
        Cancelled, ///< the user stopped the run; the result shown is stale
    };
    Q_ENUM(State)

    /// Pause after the last edit before a live run starts (a slider drag, a burst of undos).
    static constexpr int kDebounceMs = 150;
    /// Runs slower than this switch live mode off.
    static constexpr int kLiveLimitMs = 1000;

    explicit SimulationController(TopologyDocument& document, QObject* parent = nullptr);
    ~SimulationController() override;

    State state() const { return m_state; }
    bool isLive() const { return m_live; }
    quint64 revision() const { return m_revision; }
    /// The newest result for any revision; check result()->revision against revision().
    const RunResultPtr& result() const { return m_result; }
    bool isRunning() const { return m_busy; }

public Q_SLOTS:
    /// Runs the current revision now (F5), whatever the live mode.
    void run();
    /// Stops the run in flight (Esc). The result shown stays, marked stale.
    void cancel();
    void setLive(bool live);

Q_SIGNALS:
    void stateChanged(fabriclab::views::SimulationController::State state);
    /// The stage the worker is in and how far the run is, 0-1000.
    void progress(int permille, const QString& stage);
    /// A result for the current revision (also a refusal: check ok()).
    void resultReady(const fabriclab::views::RunResultPtr& result);
    void liveChanged(bool live);
    /// A sentence for the status bar (live mode switched off, a refusal).
    void message(const QString& text);

private:
    void edited();
    void start();
    /// The run in flight is over: its result, or none if it was stopped.
    void finished(RunResultPtr result);
    void setState(State state);

    TopologyDocument& m_document;
    QTimer m_debounce;
    QElapsedTimer m_lastEdit; ///< since the last edit, for the debounce's leading edge
    QFuture<void> m_task;     ///< the run in flight, waited for on destruction
    bool m_busy = false;      ///< a run is in flight, until its result (or none) is delivered
    bool m_cancelled = false; ///< the run in flight was stopped by cancel()
    std::stop_source m_stop;  ///< of the run in flight
    quint64 m_revision = 1;   ///< bumped by every edit
    quint64 m_running = 0;    ///< revision of the run in flight
    bool m_restart = false;   ///< start again once the run in flight has stopped
    bool m_live = true;
    State m_state = State::Idle;
    RunResultPtr m_result;
};

} // namespace fabriclab::views
