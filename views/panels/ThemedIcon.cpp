// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/panels/ThemedIcon.hpp"

#include <QFile>
#include <QGuiApplication>
#include <QIconEngine>
#include <QImage>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QPixmapCache>
#include <QSvgRenderer>

namespace fabriclab::views {
namespace {

class ThemedSvgEngine : public QIconEngine {
public:
    explicit ThemedSvgEngine(const QString& path) : m_path(path) {
        QFile file(path);
        if (file.open(QIODevice::ReadOnly))
            m_svg = file.readAll();
    }

    void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode,
               QIcon::State state) override {
        QByteArray svg = m_svg;
        svg.replace("currentColor", colorFor(mode, state).name().toLatin1());
        QSvgRenderer renderer(svg);
        if (!renderer.isValid())
            return;
        // Keep the icon's aspect inside whatever rectangle a style asks for.
        QSizeF size = renderer.defaultSize();
        size.scale(rect.size(), Qt::KeepAspectRatio);
        QRectF target(QPointF(), size);
        target.moveCenter(QRectF(rect).center());
        renderer.render(painter, target);
    }

    QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override {
        // Toolbars repaint on every hover; cache per size, state and colour.
        const QString key = QStringLiteral("fabriclab-icon:%1:%2x%3:%4")
                                .arg(m_path)
                                .arg(size.width())
                                .arg(size.height())
                                .arg(colorFor(mode, state).name());
        QPixmap pixmap;
        if (QPixmapCache::find(key, &pixmap))
            return pixmap;
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            paint(&painter, QRect(QPoint(), size), mode, state);
        }
        pixmap = QPixmap::fromImage(image);
        QPixmapCache::insert(key, pixmap);
        return pixmap;
    }

    QIconEngine* clone() const override { return new ThemedSvgEngine(*this); }
    QString key() const override { return QStringLiteral("FabricLabThemedSvg"); }
    bool isNull() override { return m_svg.isEmpty(); }

private:
    static QColor colorFor(QIcon::Mode mode, QIcon::State) {
        const QPalette palette = QGuiApplication::palette();
        switch (mode) {
        case QIcon::Disabled:
            return palette.color(QPalette::Disabled, QPalette::ButtonText);
        case QIcon::Selected:
            return palette.color(QPalette::Active, QPalette::HighlightedText);
        case QIcon::Normal:
        case QIcon::Active:
            break;
        }
        return palette.color(QPalette::Active, QPalette::ButtonText);
    }

    QString m_path;
    QByteArray m_svg;
};

} // namespace

QIcon ThemedIcon::fromResource(const QString& name) {
    return QIcon(new ThemedSvgEngine(QStringLiteral(":/icons/") + name));
}

} // namespace fabriclab::views
