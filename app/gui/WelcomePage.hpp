// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>
#include <QWidget>

#include <utility>

namespace fabriclab::app {

/// The page a first start shows instead of an empty canvas and charts with nothing to
/// say: what FabricLab does, and where to start: a sample, the generator, a design file
/// or an empty canvas. It only asks; MainWindow and FileActions do the opening.
class WelcomePage : public QWidget {
    Q_OBJECT

public:
    /// `samples`: (path, what the sample is for), as FileActions::samples() lists them.
    explicit WelcomePage(const QList<std::pair<QString, QString>>& samples,
                         QWidget* parent = nullptr);

Q_SIGNALS:
    void sampleRequested(const QString& path);
    void generateRequested();
    void openRequested();
    void emptyCanvasRequested();
};

} // namespace fabriclab::app
