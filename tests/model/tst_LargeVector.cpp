// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The simulator's big arrays (model/core/LargeVector): small ones come from the heap,
// middling ones from populated mappings, from half a huge page up from 2 MiB-aligned
// blocks. Whichever, a vector must keep what is written to it through growth, copies and
// shrinking, and hand memory back the way it took it (the ASan build checks the pairing).
#include <QTest>

#ifndef Q_MOC_RUN
#include "model/core/LargeVector.hpp"

#include <cstdint>
#endif

using fabriclab::model::LargeVector;

class tst_LargeVector : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void keepsItsContents_data();
    void keepsItsContents();
    void refusesAnImpossibleSize();
};

void tst_LargeVector::keepsItsContents_data() {
    QTest::addColumn<qsizetype>("count"); // of 8-byte elements
    QTest::newRow("empty") << qsizetype{0};
    QTest::newRow("one") << qsizetype{1};
    QTest::newRow("a populated mapping (64 KiB)") << qsizetype{(64 << 10) / 8};
    QTest::newRow("just under half a huge page") << qsizetype{(1 << 20) / 8 - 1};
    QTest::newRow("half a huge page") << qsizetype{(1 << 20) / 8};
    QTest::newRow("not a multiple of 2 MiB (3 MiB + 8 bytes)") << qsizetype{3 * (1 << 20) / 8 + 1};
}

void tst_LargeVector::keepsItsContents() {
    QFETCH(qsizetype, count);
    const auto n = static_cast<std::size_t>(count);
    LargeVector<std::uint64_t> grown;
    for (std::size_t i = 0; i < n; ++i) // grows through every size class on the way
        grown.push_back(i * 2654435761u);
    QCOMPARE(grown.size(), n);
    LargeVector<std::uint64_t> copy = grown;
    for (std::size_t i = 0; i < n; ++i)
        QCOMPARE(copy[i], i * 2654435761u);
    copy.resize(n / 2);
    copy.shrink_to_fit(); // from a large block back to a small one for the larger rows
    for (std::size_t i = 0; i < n / 2; ++i)
        QCOMPARE(copy[i], grown[i]);
}

void tst_LargeVector::refusesAnImpossibleSize() {
    fabriclab::model::LargePageAllocator<std::uint64_t> allocator;
    QVERIFY_THROWS_EXCEPTION(std::bad_array_new_length,
                             (void)allocator.allocate(static_cast<std::size_t>(-1) / 4));
}

QTEST_APPLESS_MAIN(tst_LargeVector)
#include "tst_LargeVector.moc"
