// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/Oversubscription.hpp"
#include "model/fabric/GeneratorParams.hpp"
#include "views/models/TopologySummary.hpp"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <optional>

namespace fabriclab::views {

/// What a generator request would build, computed with model::generate off the GUI
/// thread: a small request takes a millisecond, a million-GPU one seconds, and neither
/// may freeze a dialog or a slider. Requests coalesce: while one runs only the newest
/// waiting request is kept, and ready() reports only results for the newest request.
/// The request is a value copy; the worker never sees the document (STYLE.md §4).
class GeneratorPreview : public QObject {
    Q_OBJECT

public:
    struct Outcome {
        model::GeneratorParams params;
        std::optional<TopologySummary> summary; ///< what it builds; empty when refused
        /// The leaf oversubscription it builds (model::worstLeaf), which whole cables spread
        /// evenly can leave below the ratio asked; empty without leaves with uplinks.
        std::optional<model::LeafRatio> leafRatio;
        QString refusal; ///< the generator's reason, when refused
        QString field;   ///< GeneratorError::field(); empty if none
    };

    explicit GeneratorPreview(QObject* parent = nullptr);
    /// Cancels and waits for a running preview.
    ~GeneratorPreview() override;

    /// Starts previewing `params` (or queues it behind the running preview).
    void request(const model::GeneratorParams& params);
    /// The same computation on the calling thread, for a caller that cannot wait.
    static Outcome compute(const model::GeneratorParams& params);

Q_SIGNALS:
    void ready(const fabriclab::views::GeneratorPreview::Outcome& outcome);

private:
    void start(const model::GeneratorParams& params);

    QFutureWatcher<Outcome> m_watcher;
    model::GeneratorParams m_newest;
    bool m_waiting = false; ///< m_newest arrived while a preview ran
};

} // namespace fabriclab::views
