// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"
#include "model/design/Design.hpp"

#include <QFutureWatcher>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointF>
#include <QString>
#include <QThreadPool>
#include <QUndoStack>

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace fabriclab::views {

/// What a design reset was: a different design, or the same one rebuilt. Views keep their
/// per-design state (collapsed groups, items to reuse) across a replacement.
enum class DesignReset { Opened, Replaced };

/// The design a window edits: the single writer of the model, its undo stack and its
/// file. Views observe it through id-based signals and change it only through the edit
/// API below, each call one undo step (STYLE.md §3). Lives on the GUI thread.
class TopologyDocument : public QObject {
    Q_OBJECT

public:
    explicit TopologyDocument(const model::Catalog& catalog, QObject* parent = nullptr);

    const model::Catalog& catalog() const { return m_catalog; }
    const model::Design& design() const { return m_design; }
    /// The current design as an immutable copy for workers (simulation, status figures,
    /// bisection): made at the first request after a change and shared by every later
    /// one, so an edit of a 16K-GPU design is copied once, not once per worker.
    std::shared_ptr<const model::Design> snapshot() const;
    /// How many copies snapshot() has made, on the GUI thread: a design built by
    /// replaceDesignLater() comes with its copy and needs none.
    int snapshotsMade() const { return m_snapshotsMade; }
    const model::Topology& topology() const { return m_design.topology; }
    QUndoStack* undoStack() { return &m_undo; }
    /// Empty for a design never saved.
    QString filePath() const { return m_path; }
    /// File name, or the design's name for an unsaved one.
    QString displayName() const;
    bool isModified() const { return !m_undo.isClean(); }

    // --- Whole designs: these clear the undo history. ---
    /// An empty design on the fabric's default (InfiniBand NDR).
    void newDesign();
    /// Reads a design file. On failure throws model::JsonError (file, JSON path, problem)
    /// and leaves the current design, its history and its path untouched.
    void load(const QString& path);
    /// Reads an autosave by the same rules as load() and adopts it as unsaved changes to
    /// `origin` (empty for an untitled design). Throws as load() does.
    void recover(const QString& autosave, const QString& origin);
    /// Writes atomically and marks the history clean. Throws std::runtime_error.
    void save(const QString& path);
    /// Adopts a design (samples) as if it had been loaded from `path`.
    /// `unsaved` marks it modified, as a recovered autosave is.
    void adopt(model::Design design, const QString& path, bool unsaved = false);

    // --- Edits as a user makes them: each one undo step. ---
    /// A node of `kind` at `position`, named after its kind ("leaf-3"), sized like the
    /// design's generator. Without one, a server is one scale-up domain of the workload's
    /// GPU (the catalog's H100 without a workload) with one NIC per GPU at the fabric's
    /// port speed, and a switch has the fabric's radix and port speed.
    /// With `rackScale`, a server is one NVLink rack: the workload's GPU if its scale-up
    /// domain spans a rack, else the catalog's GB200 NVL72.
    model::NodeId addNode(model::NodeKind kind, QPointF position, bool rackScale = false);
    /// Moves several nodes in one step (a drag). Positions in scene units.
    void moveNodes(const QHash<model::NodeId, QPointF>& positions);
    /// Deletes nodes (with their links) and links in one step.
    void remove(const QList<model::NodeId>& nodes, const QList<model::LinkId>& links);
    /// Cables `a` to `b` at the slower port's speed. Refuses, with a sentence in
    /// `refusal`, self links, server-to-server links and exhausted ports.
    std::optional<model::LinkId> connect(model::NodeId a, model::NodeId b,
                                         QString* refusal = nullptr);
    /// Replaces a node's or link's properties (inspector edits). Throws
    /// std::invalid_argument, naming the field, for a value a design file would refuse
    /// or a name already taken; nothing changes then.
    void editNode(model::NodeId id, const model::Node& node);
    void editLink(model::LinkId id, const model::Link& link);
    /// Adds copies of `nodes` and the links among them, shifted by `offset`; returns the
    /// copies. Used by duplicate and paste.
    QList<model::NodeId> duplicate(const QList<model::NodeId>& nodes, QPointF offset);
    /// Replaces the whole design in one step: generate, fabric and oversubscription
    /// changes. `text` names the step in the Edit menu.
    void replaceDesign(model::Design design, const QString& text);
    /// Makes a whole design from the current one (an immutable copy of it). Refuses by
    /// throwing a std::exception whose what() says why, as the generator does.
    using DesignBuild = std::function<model::Design(const model::Design& current)>;
    /// replaceDesign(build(design()), text) without holding up the window: `build` runs on
    /// a worker thread (a 16,384-GPU fabric takes tens of milliseconds to generate), which
    /// also makes the copy the simulation and the figures will read, and the GUI thread
    /// only swaps the result in, as one undo step, once it is ready. Builds apply in the
    /// order asked, each to the design the one before left. An edit made while a build runs
    /// stands: the build runs again on the design with that edit. Opening another design
    /// drops the builds not applied yet. A refusal changes nothing and is reported by
    /// designBuildRefused().
    void replaceDesignLater(DesignBuild build, const QString& text);
    /// Builds asked for and neither applied nor refused yet.
    int pendingBuilds() const { return static_cast<int>(m_builds.size()); }
    /// Replaces the design's what-if failures in one undo step named `text`.
    void setFailures(std::vector<model::Failure> failures, const QString& text);
    /// Replaces the presentation's story steps, one undo step.
    void setStory(std::vector<model::StoryStep> story, const QString& text);

    /// Ports a node has left: radix (or NICs) minus ports in use.
    int freePorts(model::NodeId id) const;

    // --- Used only by undo commands: apply a change without recording it. ---
    void applyInsertNode(model::NodeId id, const model::Node& node);
    void applyRemoveNode(model::NodeId id);
    void applyUpdateNode(model::NodeId id, const model::Node& node);
    void applyInsertLink(model::LinkId id, const model::Link& link);
    void applyRemoveLink(model::LinkId id);
    void applyUpdateLink(model::LinkId id, const model::Link& link);
    /// Swaps the whole design with `other`, and their immutable copies with it:
    /// `otherSnapshot` is `other`'s copy (or null) and receives the one of the design it
    /// replaces (or null), so that a step undone or redone is not copied again.
    void swapDesign(model::Design& other, std::shared_ptr<const model::Design>& otherSnapshot);

Q_SIGNALS:
    void nodeAdded(fabriclab::model::NodeId id);
    void nodeRemoved(fabriclab::model::NodeId id);
    void nodeChanged(fabriclab::model::NodeId id);
    void linkAdded(fabriclab::model::LinkId id);
    void linkRemoved(fabriclab::model::LinkId id);
    void linkChanged(fabriclab::model::LinkId id);
    /// Everything may have changed: a design was opened (load, new, recovery), or the
    /// current one was replaced by another version of itself (regenerated at another
    /// oversubscription or fabric, or such a step undone).
    void designReset(fabriclab::views::DesignReset how);
    /// Any change at all: figures and results are stale.
    void changed();
    void filePathChanged(const QString& path);
    /// A replaceDesignLater() build refused: `text` names the step, `why` is its reason.
    void designBuildRefused(const QString& text, const QString& why);

private:
    /// The design file at `path`, by the document's reading rules. Throws model::JsonError.
    model::Design read(const QString& path) const;
    void setPath(const QString& path);
    /// "<kind>-N" with the smallest N free in the design and not in `taken`.
    QString uniqueName(model::NodeKind kind, const std::set<std::string>& taken = {}) const;

    /// A replaceDesignLater() request.
    struct PendingBuild {
        DesignBuild build;
        QString text;
    };
    /// What a build hands back: the design and its copy for the workers, or a refusal.
    struct BuiltDesign {
        model::Design design;
        std::shared_ptr<const model::Design> snapshot;
        QString refusal;
    };
    /// Runs the first pending build on the current design, unless one is running.
    void startBuild();
    void buildFinished();

    const model::Catalog& m_catalog;
    model::Design m_design;
    mutable std::shared_ptr<const model::Design> m_snapshot; ///< of m_design; reset on change
    mutable int m_snapshotsMade = 0;
    QUndoStack m_undo;
    QString m_path;
    std::deque<PendingBuild> m_builds;                 ///< in the order asked; the first one runs
    std::shared_ptr<const model::Design> m_buildInput; ///< the snapshot the running build reads
    bool m_buildRunning = false;
    QFutureWatcher<std::shared_ptr<BuiltDesign>> m_building;
    /// One thread: builds apply in order, and its destructor waits for the running one.
    QThreadPool m_builder;
};

} // namespace fabriclab::views

// Ids travel through signals, spies and queued connections.
Q_DECLARE_METATYPE(fabriclab::model::NodeId)
Q_DECLARE_METATYPE(fabriclab::model::LinkId)
Q_DECLARE_METATYPE(fabriclab::views::DesignReset)

/// Lets QHash key on ids.
namespace fabriclab::model {
inline size_t qHash(NodeId id, size_t seed = 0) noexcept {
    return ::qHash(id.value, seed);
}
inline size_t qHash(LinkId id, size_t seed = 0) noexcept {
    return ::qHash(id.value, seed);
}
} // namespace fabriclab::model
