// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/report/PagedReport.hpp"

#include <QFont>
#include <QFontMetricsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextLayout>

#include <algorithm>
#include <variant>

namespace fabriclab::views {
namespace {

/// Points per inch: font sizes and spacing below are in points, as print is measured.
constexpr double kPointsPerInch = 72;
/// Device pixels per inch: fine enough that text metrics match what the reader draws.
constexpr int kResolution = 300;
constexpr double kMarginMm = 18;

const QColor kText(0x20, 0x24, 0x28);
const QColor kMuted(0x5f, 0x66, 0x6d);
const QColor kAccent(0x0b, 0x55, 0x63);
const QColor kRule(0xc5, 0xcd, 0xd3);
const QColor kHeaderFill(0xe3, 0xec, 0xef);
const QColor kStripe(0xf5, 0xf7, 0xf8);

double pt(double points) {
    return points * kResolution / kPointsPerInch;
}

QFont font(double points, bool bold = false) {
    QFont f;
    f.setPointSizeF(points);
    f.setBold(bold);
    return f;
}

/// Text laid out once in a width, wrapped at word boundaries or, for a word longer than
/// the width, anywhere in it: never wider than the width, so never clipped.
class WrappedText {
public:
    WrappedText(const QString& text, const QFont& font, QPaintDevice* device, double width,
                Qt::Alignment align = Qt::AlignLeft)
        : m_layout(std::make_shared<QTextLayout>(text, font, device)) {
        QTextOption option;
        option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        option.setAlignment(align);
        m_layout->setTextOption(option);
        m_layout->beginLayout();
        for (QTextLine line = m_layout->createLine(); line.isValid();
             line = m_layout->createLine()) {
            line.setLineWidth(width);
            line.setPosition(QPointF(0, m_height));
            m_height += line.height();
        }
        m_layout->endLayout();
    }
    double height() const { return m_height; }
    void draw(QPainter& painter, const QPointF& at, const QColor& color) const {
        painter.setPen(color);
        m_layout->draw(&painter, at);
    }

private:
    std::shared_ptr<QTextLayout> m_layout; // shared: slices are copied
    double m_height = 0;
};

/// A piece of the document that is never split across pages.
struct Slice {
    double height = 0;
    double spaceBefore = 0; ///< dropped at the top of a page
    bool breakBefore = false;
    bool keepWithNext = false;
    /// The table header to repeat above this row when it starts a page; -1 for none.
    int header = -1;
    std::function<void(QPainter&, const QRectF&)> paint;
};

} // namespace

struct PagedReport::Block {
    struct Title {
        QString title;
        QStringList subtitle;
    };
    struct Heading {
        QString text;
        bool newPage;
        bool sub;
    };
    struct Text {
        QString text;
        bool note;
    };
    struct Bullets {
        QStringList items;
    };
    struct Table {
        QList<Column> columns;
        QList<QStringList> rows;
        bool totalRow;
        bool header;
    };
    struct Figure {
        double aspect;
        Paint paint;
        double maxPageShare;
    };
    std::variant<Title, Heading, Text, Bullets, Table, Figure> content;
};

PagedReport::PagedReport(QString runningTitle, QString footer)
    : m_runningTitle(std::move(runningTitle)), m_footer(std::move(footer)) {}

PagedReport::~PagedReport() = default;

void PagedReport::addTitle(const QString& title, const QStringList& subtitle) {
    m_blocks.push_back(std::make_unique<Block>(Block{Block::Title{title, subtitle}}));
}

void PagedReport::addHeading(const QString& text, bool newPage) {
    m_blocks.push_back(std::make_unique<Block>(Block{Block::Heading{text, newPage, false}}));
}

void PagedReport::addSubheading(const QString& text) {
    m_blocks.push_back(std::make_unique<Block>(Block{Block::Heading{text, false, true}}));
}

void PagedReport::addParagraph(const QString& text) {
    m_blocks.push_back(std::make_unique<Block>(Block{Block::Text{text, false}}));
}

void PagedReport::addNote(const QString& text) {
    m_blocks.push_back(std::make_unique<Block>(Block{Block::Text{text, true}}));
}

void PagedReport::addBullets(const QStringList& items) {
    if (!items.isEmpty())
        m_blocks.push_back(std::make_unique<Block>(Block{Block::Bullets{items}}));
}

void PagedReport::addTable(const QList<Column>& columns, const QList<QStringList>& rows,
                           bool totalRow) {
    m_blocks.push_back(std::make_unique<Block>(Block{Block::Table{columns, rows, totalRow, true}}));
}

void PagedReport::addFacts(const QList<QPair<QString, QString>>& facts) {
    QList<QStringList> rows;
    for (const auto& [label, value] : facts)
        rows.append({label, value});
    m_blocks.push_back(std::make_unique<Block>(
        Block{Block::Table{{{QString(), 1.2, false}, {QString(), 2, false}}, rows, false, false}}));
}

void PagedReport::addFigure(double aspect, Paint paint, double maxPageShare) {
    if (!(aspect > 0) || !paint)
        return;
    m_blocks.push_back(
        std::make_unique<Block>(Block{Block::Figure{aspect, std::move(paint), maxPageShare}}));
}

namespace {

/// Turns blocks into slices measured on `device`, `width` wide, pages `pageHeight` high.
class SliceBuilder {
public:
    SliceBuilder(QPaintDevice* device, double width, double pageHeight)
        : m_device(device), m_width(width), m_pageHeight(pageHeight) {}

    std::vector<Slice> slices;

    void operator()(const PagedReport::Block::Title& title) {
        const WrappedText big(title.title, font(26, true), m_device, m_width);
        add({big.height(), pt(90), false, false, -1,
             [big](QPainter& p, const QRectF& r) { big.draw(p, r.topLeft(), kAccent); }});
        for (const QString& line : title.subtitle) {
            const WrappedText text(line, font(12), m_device, m_width);
            add({text.height(), pt(6), false, false, -1,
                 [text](QPainter& p, const QRectF& r) { text.draw(p, r.topLeft(), kMuted); }});
        }
        // A rule under the title block.
        add({pt(1), pt(14), false, false, -1, [](QPainter& p, const QRectF& r) {
                 p.fillRect(QRectF(r.left(), r.top(), r.width(), pt(1)), kAccent);
             }});
    }

    void operator()(const PagedReport::Block::Heading& heading) {
        const WrappedText text(heading.text, font(heading.sub ? 11.5 : 15, true), m_device,
                               m_width);
        add({text.height(), pt(heading.sub ? 12 : 18), heading.newPage, true, -1,
             [text](QPainter& p, const QRectF& r) { text.draw(p, r.topLeft(), kAccent); }});
    }

    void operator()(const PagedReport::Block::Text& paragraph) {
        const WrappedText text(paragraph.text, font(paragraph.note ? 8 : 9.5), m_device, m_width);
        const QColor color = paragraph.note ? kMuted : kText;
        add({text.height(), pt(paragraph.note ? 4 : 6), false, false, -1,
             [text, color](QPainter& p, const QRectF& r) { text.draw(p, r.topLeft(), color); }});
    }

    void operator()(const PagedReport::Block::Bullets& bullets) {
        const double indent = pt(12);
        bool first = true;
        for (const QString& item : bullets.items) {
            const WrappedText text(item, font(9.5), m_device, m_width - indent);
            const WrappedText dot(QStringLiteral("•"), font(9.5), m_device, indent);
            add({text.height(), first ? pt(6) : pt(2), false, false, -1,
                 [text, dot, indent](QPainter& p, const QRectF& r) {
                     dot.draw(p, r.topLeft() + QPointF(pt(3), 0), kAccent);
                     text.draw(p, r.topLeft() + QPointF(indent, 0), kText);
                 }});
            first = false;
        }
    }

    void operator()(const PagedReport::Block::Table& table) {
        if (table.columns.isEmpty())
            return;
        const double pad = pt(3);
        const double vpad = pt(2);
        const QList<double> widths = columnWidths(table, pad);

        // One row of cells: each wrapped in its column, the row as tall as its tallest.
        const auto row = [&](const QStringList& cells, const QFont& f) {
            QList<WrappedText> texts;
            double height = 0;
            for (int c = 0; c < table.columns.size(); ++c) {
                const Qt::Alignment align =
                    table.columns[c].numeric ? Qt::AlignRight : Qt::AlignLeft;
                texts.append(WrappedText(c < cells.size() ? cells[c] : QString(), f, m_device,
                                         widths[c] - 2 * pad, align));
                height = std::max(height, texts.back().height());
            }
            return std::pair{texts, height + 2 * vpad};
        };
        const auto paintRow = [widths, pad, vpad](const QList<WrappedText>& texts, QPainter& p,
                                                  const QRectF& r, const QColor& color) {
            double x = r.left();
            for (int c = 0; c < texts.size(); ++c) {
                texts[c].draw(p, QPointF(x + pad, r.top() + vpad), color);
                x += widths[c];
            }
        };

        int header = -1;
        if (table.header) {
            QStringList titles;
            for (const auto& column : table.columns)
                titles.append(column.title);
            auto [texts, height] = row(titles, font(8, true));
            header = static_cast<int>(slices.size());
            add({height, pt(6), false, true, -1, [texts, paintRow](QPainter& p, const QRectF& r) {
                     p.fillRect(r, kHeaderFill);
                     paintRow(texts, p, r, kText);
                 }});
        }
        for (int i = 0; i < table.rows.size(); ++i) {
            const bool isTotal = table.totalRow && i == table.rows.size() - 1;
            auto [texts, height] = row(table.rows[i], font(8, isTotal));
            const bool stripe = i % 2 == 1;
            const bool firstOfHeaderless = !table.header && i == 0;
            add({height, firstOfHeaderless ? pt(6) : 0, false, false, header,
                 [texts, paintRow, stripe, isTotal](QPainter& p, const QRectF& r) {
                     if (stripe && !isTotal)
                         p.fillRect(r, kStripe);
                     if (isTotal)
                         p.fillRect(QRectF(r.left(), r.top(), r.width(), pt(0.8)), kText);
                     paintRow(texts, p, r, kText);
                 }});
        }
        // A hairline closing the table.
        add({pt(0.6), 0, false, false, -1, [](QPainter& p, const QRectF& r) {
                 p.fillRect(QRectF(r.left(), r.top(), r.width(), pt(0.6)), kRule);
             }});
    }

    void operator()(const PagedReport::Block::Figure& figure) {
        double width = m_width;
        double height = width / figure.aspect;
        const double most = m_pageHeight * std::clamp(figure.maxPageShare, 0.1, 1.0);
        if (height > most) {
            height = most;
            width = height * figure.aspect;
        }
        const double inset = (m_width - width) / 2;
        add({height, pt(8), false, false, -1,
             [paint = figure.paint, inset, width](QPainter& p, const QRectF& r) {
                 p.save();
                 const QRectF target(r.left() + inset, r.top(), width, r.height());
                 p.setClipRect(target.adjusted(-pt(1), -pt(1), pt(1), pt(1)));
                 paint(p, target);
                 p.restore();
             }});
    }

private:
    /// Each column's share of the width by weight, but never narrower than its widest word
    /// (a number must not break across lines): such columns take what they need and the
    /// others share the rest by weight.
    QList<double> columnWidths(const PagedReport::Block::Table& table, double pad) const {
        const int n = static_cast<int>(table.columns.size());
        QList<double> least(n, 0);
        const QFontMetricsF bold(font(8, true), m_device);
        const auto widestWord = [](const QFontMetricsF& metrics, const QString& text) {
            double widest = 0;
            for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
                widest = std::max(widest, metrics.horizontalAdvance(word));
            return widest;
        };
        for (int c = 0; c < n; ++c) {
            least[c] = widestWord(bold, table.columns[c].title);
            for (const QStringList& row : table.rows)
                if (c < row.size())
                    least[c] = std::max(least[c], widestWord(bold, row[c]));
            least[c] += 2 * pad + pt(1);
        }
        QList<bool> fixed(n, false);
        QList<double> widths(n, 0);
        // Settle the columns that need more than their share, then share out the rest.
        for (bool changed = true; changed;) {
            changed = false;
            double room = m_width;
            double weights = 0;
            for (int c = 0; c < n; ++c) {
                if (fixed[c])
                    room -= least[c];
                else
                    weights += std::max(table.columns[c].weight, 0.01);
            }
            for (int c = 0; c < n; ++c) {
                if (fixed[c]) {
                    widths[c] = least[c];
                    continue;
                }
                widths[c] = std::max(room, 0.0) * std::max(table.columns[c].weight, 0.01) /
                            std::max(weights, 0.01);
                if (widths[c] < least[c]) {
                    fixed[c] = true;
                    changed = true;
                }
            }
        }
        return widths;
    }

    void add(Slice slice) {
        slices.push_back(std::move(slice));
    }

    QPaintDevice* m_device;
    double m_width;
    double m_pageHeight;
};

struct Placed {
    int slice;
    double y;
};

/// Pages of placed slices: a slice goes on the next page when it does not fit, with what
/// it is kept with; a table row that starts a page has its header above it.
std::vector<std::vector<Placed>> paginate(const std::vector<Slice>& slices, double top,
                                          double bottom) {
    std::vector<std::vector<Placed>> pages(1);
    double y = top;
    const auto newPage = [&] {
        pages.emplace_back();
        y = top;
    };
    for (int i = 0; i < static_cast<int>(slices.size()); ++i) {
        const Slice& s = slices[i];
        if (s.breakBefore && !pages.back().empty())
            newPage();
        double need = (pages.back().empty() ? 0 : s.spaceBefore) + s.height;
        for (int k = i; slices[k].keepWithNext && k + 1 < static_cast<int>(slices.size()); ++k)
            need += slices[k + 1].spaceBefore + slices[k + 1].height;
        if (y + need > bottom && !pages.back().empty())
            newPage();
        if (pages.back().empty() && s.header >= 0 && s.header != i) {
            pages.back().push_back({s.header, y});
            y += slices[s.header].height;
        }
        if (!pages.back().empty())
            y += s.spaceBefore;
        pages.back().push_back({i, y});
        y += s.height;
    }
    return pages;
}

} // namespace

bool PagedReport::write(const QString& path, const QString& documentTitle, const QString& creator,
                        QString* error, const std::function<void(int, int)>& progress) {
    const auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(file.errorString());
    QPdfWriter writer(&file);
    writer.setResolution(kResolution);
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                     QMarginsF(kMarginMm, kMarginMm, kMarginMm, kMarginMm),
                                     QPageLayout::Millimeter));
    writer.setTitle(documentTitle);
    writer.setCreator(creator);

    const QRectF area = writer.pageLayout().paintRectPixels(kResolution);
    const double width = area.width();
    const WrappedText running(m_runningTitle, font(8), &writer, width);
    const double top = running.height() + pt(10);
    const double bottom = area.height() - pt(18);

    SliceBuilder builder(&writer, width, bottom - top);
    for (const auto& block : m_blocks)
        std::visit(builder, block->content);
    const auto pages = paginate(builder.slices, top, bottom);
    m_pages = static_cast<int>(pages.size());

    QPainter painter;
    if (!painter.begin(&writer))
        return fail(QObject::tr("the PDF could not be started"));
    painter.setRenderHint(QPainter::Antialiasing);
    for (int page = 0; page < m_pages; ++page) {
        if (page > 0 && !writer.newPage()) {
            painter.end();
            return fail(QObject::tr("the PDF could not take another page"));
        }
        if (page > 0) {
            running.draw(painter, QPointF(0, 0), kMuted);
            painter.fillRect(QRectF(0, running.height() + pt(3), width, pt(0.6)), kRule);
        }
        for (const Placed& placed : pages[page]) {
            const Slice& slice = builder.slices[placed.slice];
            slice.paint(painter, QRectF(0, placed.y, width, slice.height));
        }
        const WrappedText footer(m_footer, font(8), &writer, width * 0.7);
        const WrappedText number(QObject::tr("Page %1 of %2").arg(page + 1).arg(m_pages), font(8),
                                 &writer, width * 0.3, Qt::AlignRight);
        painter.fillRect(QRectF(0, bottom + pt(6), width, pt(0.6)), kRule);
        footer.draw(painter, QPointF(0, bottom + pt(9)), kMuted);
        number.draw(painter, QPointF(width * 0.7, bottom + pt(9)), kMuted);
        if (progress)
            progress(page + 1, m_pages);
    }
    if (!painter.end())
        return fail(QObject::tr("the PDF could not be finished"));
    if (!file.commit())
        return fail(file.errorString());
    return true;
}

} // namespace fabriclab::views
