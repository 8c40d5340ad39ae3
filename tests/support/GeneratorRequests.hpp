// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Building generator requests and checking what the generators do with them, shared by
// the leaf-spine, fat-tree and bisection suites so that a new GeneratorParams field or a
// change to GeneratorError is followed in one place rather than in three copies.
#pragma once

#include "model/fabric/GeneratorError.hpp"
#include "model/fabric/GeneratorParams.hpp"
#include "model/topology/Topology.hpp"

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QTest>

#include <source_location>
#include <stdexcept>
#include <string>
#include <utility>

// Every suite that includes this puts GeneratorParams in a QTest data column, which needs
// the type registered; declaring it here keeps the declaration from being repeated per suite.
Q_DECLARE_METATYPE(fabriclab::model::GeneratorParams)

namespace fabriclab::testing {

/// A request for 8-GPU servers with 400G NICs; every number a sizing rule reads is an
/// argument, so each data row states the whole request it checks.
inline model::GeneratorParams generatorRequest(std::string kind, int servers, int nics, bool rail,
                                               int leafRadix, int spineRadix, int coreRadix,
                                               double oversubscription,
                                               double spineOversubscription) {
    model::GeneratorParams p;
    p.kind = std::move(kind);
    p.servers = servers;
    p.gpusPerServer = 8;
    p.nicsPerServer = nics;
    p.nicSpeed = model::Gbps(400);
    p.railOptimized = rail;
    p.leafRadix = leafRadix;
    p.spineRadix = spineRadix;
    p.coreRadix = coreRadix;
    p.oversubscription = oversubscription;
    p.spineOversubscription = spineOversubscription;
    return p;
}

/// Runs `generate`, failing the current test with the generator's message if it refuses.
/// QTest's macros only return from the function they are written in, so this records the
/// failure (at the caller's line) and hands back an empty topology; callers return when
/// QTest::currentTestFailed().
template <typename Generate>
model::Topology generateOrFail(Generate generate, const model::GeneratorParams& params,
                               std::source_location where = std::source_location::current()) {
    try {
        return generate(params);
    } catch (const std::invalid_argument& e) {
        QTest::qFail(
            qPrintable(QStringLiteral("refused: %1").arg(QString::fromStdString(e.what()))),
            where.file_name(), static_cast<int>(where.line()));
        return {};
    }
}

/// The refusal contract of every generator: it throws GeneratorError, names the offending
/// field, and the message mentions each of `mentions` (the limit and the numbers). Meant
/// as the last statement of a test function, since a failed check only leaves this helper.
template <typename Generate>
void verifyRefusal(Generate generate, const model::GeneratorParams& params, const QString& field,
                   const QStringList& mentions) {
    QVERIFY_THROWS_EXCEPTION(model::GeneratorError, generate(params));
    try {
        generate(params);
    } catch (const model::GeneratorError& e) {
        QCOMPARE(QString::fromStdString(e.field()), field);
        const QString message = QString::fromStdString(e.what());
        for (const QString& part : mentions)
            QVERIFY2(
                message.contains(part),
                qPrintable(QStringLiteral("\"%1\" does not mention \"%2\"").arg(message, part)));
    }
}

} // namespace fabriclab::testing
