// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/Bisection.hpp"

#include <QFuture>
#include <QObject>

#include <optional>
#include <stop_token>

namespace fabriclab::views {

class TopologyDocument;

/// The theoretical bisection of the document's current design, worked out once per edit
/// on the engine's threads and shared: the status bar's figures and the simulation both
/// need it, and on a 16K-GPU design it is about 115 ms of max-flow each time.
///
/// One per document (SharedBisection::of), a child of it. An edit stops the computation
/// of the design it replaced.
class SharedBisection : public QObject {
    Q_OBJECT

public:
    /// The document's, made on first use.
    static SharedBisection& of(TopologyDocument& document);
    ~SharedBisection() override;

    /// Nothing when the edit it was computed for has been superseded and it stopped.
    using Result = std::optional<model::BisectionResult>;

    /// The current design's, started at the first call after an edit. GUI thread only.
    QFuture<Result> current();
    /// Waits for `future` on a worker (running it there if no thread has started it
    /// yet); throws model::Cancelled when it stopped for a newer edit, or as soon as
    /// `stop` is requested while it is still being worked out elsewhere (Esc on a run
    /// must not wait for a max-flow the status bar still wants).
    static model::BisectionResult await(QFuture<Result> future, std::stop_token stop = {});
    /// How many computations have been started: one per edit that asked for one.
    int started() const { return m_count; }

private:
    explicit SharedBisection(TopologyDocument& document);

    TopologyDocument& m_document;
    QFuture<Result> m_future;
    bool m_started = false; ///< m_future is the current design's
    int m_count = 0;
    std::stop_source m_stop;
};

} // namespace fabriclab::views
