// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/Oversubscription.hpp"
#include "model/design/Failures.hpp"
#include "model/topology/Topology.hpp"

#include <QFuture>
#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

namespace fabriclab::views {

class TopologyDocument;

/// What the panels show of the current design that takes a pass over every cable: the
/// worst leaf's ratio and what each failure scenario would fail. Worked out once per
/// change on a thread of its own and shared: on a 16K-GPU design these passes held the GUI
/// thread 15-25 ms on every edit, about half of what applying the edit took there.
struct DesignFactsResult {
    std::optional<model::LeafRatio> worstLeaf; ///< model::worstLeaf
    std::vector<model::Failure> loseOneSpine;  ///< model::loseOneSpine
    std::vector<model::Failure> loseOneRail;   ///< model::loseOneRail
    std::vector<model::Failure> loseOnePlane;  ///< model::loseOnePlane
    model::TierCounts tiers;
    long long switchCables = 0; ///< the cables "lose 5% of links" draws from

    static DesignFactsResult of(const model::Topology& topology);
};

/// One per document (DesignFacts::of), a child of it. Changes that come together (an edit's
/// designReset and changed) are worked out once; a result an edit overtook is dropped.
/// A panel calls of() before it connects to the document's changed(): current() is then
/// already null when the panel's own handler runs.
class DesignFacts : public QObject {
    Q_OBJECT

public:
    /// The document's, made on first use.
    static DesignFacts& of(TopologyDocument& document);
    ~DesignFacts() override;

    /// The current design's facts, or null while they are being worked out.
    const DesignFactsResult* current() const { return m_current ? &*m_current : nullptr; }
    /// Waits for the current design's facts (tests, and a press that needs them now).
    const DesignFactsResult& awaitCurrent();

Q_SIGNALS:
    /// current() holds the current design's facts.
    void ready();

private:
    /// Where a pass leaves its facts: read by awaitCurrent() once the pass is over, or
    /// handed to passDone() through the event queue.
    using Slot = std::shared_ptr<std::optional<DesignFactsResult>>;

    explicit DesignFacts(TopologyDocument& document);
    void start();
    void passDone(const Slot& slot);

    TopologyDocument& m_document;
    /// One thread: the work is short, and on Qt's global pool it would hold up the
    /// painter's parallel fills, on the engine's it would queue behind a simulation.
    QThreadPool m_pool;
    QTimer m_coalesce;
    QFuture<void> m_task; ///< the running pass, waited for by awaitCurrent() and on destruction
    Slot m_slot;          ///< the running pass's; null when none runs
    std::optional<DesignFactsResult> m_current;
    quint64 m_generation = 0; ///< changes seen
    quint64 m_running = 0;    ///< the generation the running pass belongs to
};

} // namespace fabriclab::views
