// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/fabric/GeneratorParams.hpp"
#include "views/panels/GeneratorPreview.hpp"

#include <QDialog>
#include <QTimer>

#include <map>
#include <optional>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QSpinBox;

namespace fabriclab::views {

class TopologyDocument;

/// "Generate…": a form for every generator parameter, prefilled from the design's
/// generator or, for a hand-drawn design, from its fabric (NIC speed, switch radix). A
/// preview of what the request builds (GPUs, servers, switches and cables per tier) is
/// recomputed with model::generate shortly after each change, off the GUI thread (see
/// GeneratorPreview); when the generator refuses, a red line gives its reason, the field
/// at fault is marked and OK is disabled.
///
/// The dialog only asks: the caller applies the parameters (one undo step).
class GenerateDialog : public QDialog {
    Q_OBJECT

public:
    explicit GenerateDialog(const TopologyDocument& document, QWidget* parent = nullptr);
    ~GenerateDialog() override;

    /// The form's request when the generator accepts it; nullopt when it refuses.
    std::optional<model::GeneratorParams> params() const;
    /// The form as it stands, whether or not the generator accepts it.
    model::GeneratorParams request() const;
    void setRequest(const model::GeneratorParams& params);

    /// Runs the dialog modally; the accepted parameters, or nullopt when cancelled.
    static std::optional<model::GeneratorParams> ask(QWidget* parent,
                                                     const TopologyDocument& document);

    /// Checks the request now (not after the preview delay) and closes only if accepted.
    void accept() override;

private:
    void buildForm();
    void buildPreview();
    void schedulePreview();
    void showOutcome(const GeneratorPreview::Outcome& outcome);
    void updateKindFields();
    void markField(const QString& field);

    QFormLayout* m_form = nullptr;
    QComboBox* m_kind = nullptr;
    QSpinBox* m_servers = nullptr;
    QSpinBox* m_gpus = nullptr;
    QSpinBox* m_nics = nullptr;
    QDoubleSpinBox* m_nicSpeed = nullptr;
    QCheckBox* m_rail = nullptr;
    /// The rail checkbox as the user left it while a rail-only kind shows it forced on.
    std::optional<bool> m_railChoice;
    QSpinBox* m_leafRadix = nullptr;
    QSpinBox* m_spineRadix = nullptr;
    QSpinBox* m_coreRadix = nullptr;
    QDoubleSpinBox* m_ratio = nullptr;
    QDoubleSpinBox* m_spineRatio = nullptr;
    QSpinBox* m_serversPerPod = nullptr;  ///< 0: the largest pod that fits
    std::map<QString, QLabel*> m_figures; ///< preview values by name ("spines")
    QLabel* m_refusal = nullptr;
    QLabel* m_planes = nullptr; ///< says when the spines form separate rail planes
    QDialogButtonBox* m_buttons = nullptr;
    QTimer m_previewDelay;
    GeneratorPreview m_preview;
    /// The last request the generator accepted; OK applies it only while it is the form's.
    std::optional<model::GeneratorParams> m_accepted;
};

} // namespace fabriclab::views
