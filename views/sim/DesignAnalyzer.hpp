// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/sim/DesignFigures.hpp"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <optional>

namespace fabriclab::views {

class TopologyDocument;

/// Keeps the live figures of the document's design up to date without blocking the
/// window: edits are debounced, the design is copied on the GUI thread, and counts,
/// bisection (max-flow) and cost are computed on a worker thread. A result that an
/// edit has overtaken is dropped rather than shown.
class DesignAnalyzer : public QObject {
    Q_OBJECT

public:
    explicit DesignAnalyzer(TopologyDocument& document, QObject* parent = nullptr);
    ~DesignAnalyzer() override;

    const DesignFigures& figures() const { return m_figures; }
    /// Starts an analysis now instead of after the debounce delay.
    void refresh();

Q_SIGNALS:
    void figuresChanged(const fabriclab::views::DesignFigures& figures);

private:
    void start();

    TopologyDocument& m_document;
    QTimer m_debounce;
    /// Empty when the analysis was overtaken: the theoretical bisection it waited on was
    /// cancelled because the design moved on.
    QFutureWatcher<std::optional<DesignFigures>> m_watcher;
    DesignFigures m_figures;
    quint64 m_generation = 0; ///< edits seen
    quint64 m_running = 0;    ///< generation the running analysis belongs to
    bool m_pending = false;   ///< an edit arrived while an analysis ran
};

} // namespace fabriclab::views
