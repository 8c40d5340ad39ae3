// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Design.hpp"
#include "views/models/CompareResult.hpp"

#include <QFutureWatcher>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <stop_token>

namespace fabriclab::views {

class TopologyDocument;

/// Runs the document's design on every fabric the comparison covers (InfiniBand NDR and
/// XDR, Spectrum-X, RoCEv2 tuned and untuned, TCP Ethernet; a cloud's own fabric such as
/// EFA only when asked for, or when the design is on it; ids the catalog lacks are
/// skipped), each built like for like (model::compareOnFabric) on the engine pool, so they
/// run in parallel on the cores available. A fabric the design cannot run on becomes a row
/// with the engine's reason; the comparison goes on without it.
///
/// Every document change bumps the revision: a comparison shown becomes stale, and one in
/// flight is stopped through its stop token and dropped. A result is only delivered for
/// the revision it was taken at. Lives on the GUI thread; the workers see only a snapshot.
class CompareController : public QObject {
    Q_OBJECT

public:
    /// Every fabric a comparison can cover, in the order rows come out.
    static QStringList fabricIds();

    explicit CompareController(TopologyDocument& document, QObject* parent = nullptr);
    /// Stops the runs in flight and waits for them (each lets go within milliseconds).
    ~CompareController() override;

    /// How many times the document has changed since the controller was made.
    quint64 revision() const { return m_revision; }
    /// From compare() until its runs' end has been handled on the GUI thread (the workers
    /// may be done earlier: small designs take milliseconds).
    bool isRunning() const { return m_busy; }
    /// True when a comparison was shown or started and the design changed since.
    bool isStale() const { return m_stale; }
    /// The newest comparison delivered (null before the first); check isStale().
    const CompareResultPtr& result() const { return m_result; }
    /// The fabric ids of fabricIds() that the document's catalog holds and this comparison
    /// covers: cloud fabrics only with includeCloudFabrics() or when the design is on one.
    QStringList fabricsToRun() const;
    /// Whether a cloud's own fabric (EFA), which cannot be bought, is compared, priced as
    /// that cloud rents it. Off by default.
    bool includeCloudFabrics() const { return m_includeCloud; }
    model::OwnershipMode ownershipMode() const { return m_mode; }
    /// A generator kind each fabric's row is also rebuilt as, beside the design's own
    /// topology (a dragonfly+ beside its fat-tree); empty for none. Only a generated design
    /// of another kind gets the extra rows, and then its own rows name its kind too.
    const QString& alsoKind() const { return m_alsoKind; }

public Q_SLOTS:
    /// Compares the current revision. A run in flight for an older revision is stopped
    /// first; one for the current revision is left to finish.
    void compare();
    /// Stops the runs in flight; nothing is delivered and the result shown stays.
    void cancel();
    /// Changing either makes the comparison shown stale.
    void setIncludeCloudFabrics(bool include);
    void setOwnershipMode(fabriclab::model::OwnershipMode mode);
    /// Compares exactly these catalog fabrics, in this order (ids the catalog lacks are
    /// skipped); empty goes back to the default set.
    void setChosenFabrics(const QStringList& ids);
    /// Sets alsoKind(); a change makes the comparison shown stale.
    void setAlsoKind(const QString& kind);

Q_SIGNALS:
    void started();
    /// `done` of `total` fabrics have finished (also refused ones).
    void progress(int done, int total);
    /// A comparison of the current revision.
    void finished(const fabriclab::views::CompareResultPtr& result);
    /// A run ended without a result: cancelled, or overtaken by an edit.
    void cancelled();
    void staleChanged(bool stale);

private:
    void edited();
    void start();
    void runFinished();
    void setStale(bool stale);

    TopologyDocument& m_document;
    QFutureWatcher<CompareRow> m_watcher;
    std::stop_source m_stop; ///< of the runs in flight
    quint64 m_revision = 0;  ///< bumped by every document change
    quint64 m_running = 0;   ///< revision of the runs in flight
    bool m_restart = false;  ///< start again once the runs in flight have stopped
    bool m_busy = false;     ///< a comparison started and its end not yet handled
    bool m_stale = false;
    bool m_includeCloud = false;
    QString m_alsoKind;
    QStringList m_chosen;
    model::OwnershipMode m_mode = model::OwnershipMode::Owned;
    CompareResultPtr m_result;
    std::shared_ptr<const model::Design> m_snapshot; ///< what the runs in flight run
};

} // namespace fabriclab::views
