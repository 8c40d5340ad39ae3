// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/fabric/GeneratorField.hpp"
#include "model/fabric/GeneratorParams.hpp"
#include "views/panels/GeneratorPreview.hpp"

#include <QDialog>
#include <QTimer>

#include <map>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;

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
    /// The widget of the field with this key; nullptr when no kind reads such a field.
    QWidget* fieldWidget(std::string_view key) const;
    template <class Widget> Widget* fieldBox(std::string_view key) const {
        return qobject_cast<Widget*>(fieldWidget(key));
    }

    QFormLayout* m_form = nullptr;
    QComboBox* m_kind = nullptr;
    /// A widget per generator field (model::allGeneratorFields), named after its key.
    std::vector<std::pair<const model::GeneratorField*, QWidget*>> m_fields;
    /// The rail checkbox as the user left it while a rail-only kind shows it forced on.
    std::optional<bool> m_railChoice;
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
