// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QPainter;
class QPaintDevice;
class QRectF;
QT_END_NAMESPACE

namespace fabriclab::views {

/// A document of headings, paragraphs, tables and figures, laid out on A4 pages and written
/// as a PDF with Qt's own QPdfWriter: text stays text (a reader can search and copy it,
/// `pdftotext` extracts it), figures stay vectors. Every page carries a running title and
/// "Page N of M". Text wraps at word boundaries, or anywhere in a word longer than its
/// column, so nothing is ever clipped; a table that runs over a page repeats its header; a
/// heading never ends a page. Blocks are only recorded until write() lays them out.
class PagedReport {
public:
    /// `runningTitle` heads every page after the first; `footer` sits left of the page
    /// number on every page.
    PagedReport(QString runningTitle, QString footer);
    ~PagedReport();
    PagedReport(const PagedReport&) = delete;
    PagedReport& operator=(const PagedReport&) = delete;

    /// The first page's large title, and the lines under it.
    void addTitle(const QString& title, const QStringList& subtitle);
    /// A section: starts a page when `newPage`.
    void addHeading(const QString& text, bool newPage = false);
    void addSubheading(const QString& text);
    void addParagraph(const QString& text);
    /// Smaller, muted text: notes under a table or figure.
    void addNote(const QString& text);
    void addBullets(const QStringList& items);

    struct Column {
        QString title;
        double weight = 1;    ///< share of the table's width, relative to the other columns
        bool numeric = false; ///< right-aligned
    };
    /// A table; with `totalRow` its last row is set apart as the total.
    void addTable(const QList<Column>& columns, const QList<QStringList>& rows,
                  bool totalRow = false);
    /// Pairs of label and value, as a two-column table without a header.
    void addFacts(const QList<QPair<QString, QString>>& facts);

    /// Draws a figure into a rectangle of the page (device units).
    using Paint = std::function<void(QPainter& painter, const QRectF& target)>;
    /// A figure as wide as the text, its height from `aspect` (width / height), but never
    /// more than `maxPageShare` of a page: then narrower, centred.
    void addFigure(double aspect, Paint paint, double maxPageShare = 0.55);

    /// Lays the blocks out and writes the PDF to `path` atomically (a temporary file
    /// renamed when complete). `progress(page, pages)` after each page drawn. False and
    /// `error` saying why (the caller names the file) when it cannot be written.
    bool write(const QString& path, const QString& documentTitle, const QString& creator,
               QString* error, const std::function<void(int, int)>& progress = {});
    /// Pages of the last write().
    int pageCount() const { return m_pages; }

    struct Block;

private:
    QString m_runningTitle;
    QString m_footer;
    std::vector<std::unique_ptr<Block>> m_blocks;
    int m_pages = 0;
};

} // namespace fabriclab::views
