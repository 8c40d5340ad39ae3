// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/panels/DesignRegeneration.hpp"
#include "views/panels/GeneratorPreview.hpp"
#include "views/models/TopologySummary.hpp"

#include <QHash>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;

namespace fabriclab::views {

class TopologyDocument;

/// The design's fabric and leaf oversubscription. Each gesture is one undo step through
/// TopologyDocument::replaceDesignLater, rebuilt off the GUI thread: picking a fabric commits at
/// once; the slider shows a live preview of the regenerated counts while it is dragged
/// (GeneratorPreview, off the GUI thread, so dragging stays smooth on huge fabrics) and commits on
/// release (keyboard and wheel steps commit after a short pause). A refusal from the generator
/// shows in red and changes nothing. A hand-drawn design can change fabric but has no
/// generator to rebuild at another ratio, so the slider is disabled there and shows the
/// ratio the design's cabling gives (model::leafOversubscription), its tooltip saying why.
/// A generated design shows the ratio as built (model::worstLeaf), and when whole cables
/// spread evenly over the spines leave it off the ratio asked (3:1 built as 2.67:1), a
/// line under the slider says so and why.
///
/// The panel follows designReset; it holds no design state of its own.
class FabricPanel : public QWidget {
    Q_OBJECT

public:
    explicit FabricPanel(TopologyDocument& document, QWidget* parent = nullptr);

    /// Slider positions: 1:1 to 8:1 in steps of 0.5.
    static constexpr double kMinRatio = 1.0;
    static constexpr double kMaxRatio = 8.0;
    static constexpr double kRatioStep = 0.5;

private:
    void syncFromDocument();
    /// A design without generator: the slider and label show its measured ratio.
    void showMeasuredRatio();
    /// A generated design: the label shows the ratio built, with why when it is not the
    /// one asked.
    void showBuiltRatio();
    void fabricPicked(int index);
    void sliderMoved(int position);
    void showPreview(const GeneratorPreview::Outcome& outcome);
    void showIdle();
    /// A generated design whose generator has a ratio to rebuild at (not rail-only).
    bool rebuildsAtARatio() const;
    void commitRatio();
    void showRefusal(const QString& text);
    /// Regenerates the design on the document's builder thread (tens of ms at 16K GPUs) and
    /// applies it as the undo step `step`; a refusal is shown as "`refusal`: reason".
    void rebuildLater(std::function<DesignRegeneration(const model::Design&)> rebuild,
                      const QString& step, const QString& refusal);
    void buildRefused(const QString& step, const QString& why);
    void describeFabric();
    void sharpToggled(bool on);

    static double ratioAt(int position);
    static int positionOf(double ratio);

    TopologyDocument& m_document;
    QComboBox* m_fabric;
    QLabel* m_fabricInfo;
    /// In-network reduction for the job (the design's "sharp"), off by default as in NCCL;
    /// enabled only on fabrics whose switches reduce.
    QCheckBox* m_sharp;
    QSlider* m_slider;
    QLabel* m_ratio;
    QLabel* m_builtNote; ///< why the ratio built is not the one asked; hidden when it is
    QLabel* m_preview;
    GeneratorPreview m_candidates;
    /// Counts of the design as it is, for the preview's "now" column; dropped on any edit.
    std::optional<TopologySummary> m_now;
    QString m_nowRatio; ///< the ratio built now, with m_now
    QLabel* m_refusal;
    /// Keyboard and wheel steps arrive one by one; commit once they pause.
    QTimer m_commit;
    /// The steps this panel asked the builder for, each with the start of its refusal.
    QHash<QString, QString> m_refusalOf;
};

} // namespace fabriclab::views
