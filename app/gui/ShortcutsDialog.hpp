// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

namespace fabriclab::app {

/// Help > Keyboard shortcuts: every command with a key, as the window defines them.
class ShortcutsDialog : public QDialog {
    Q_OBJECT

public:
    ShortcutsDialog(const QWidget& window, QWidget* parent = nullptr);
};

} // namespace fabriclab::app
