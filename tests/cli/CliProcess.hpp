// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace fabriclab::testing {

/// What one run of fabriclab-cli left: how it ended, its exit code and both streams.
struct Outcome {
    QProcess::ExitStatus status = QProcess::CrashExit;
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

/// Runs fabriclab-cli (FABRICLAB_CLI) with `arguments`, stdin closed, as a script would.
inline Outcome runCli(const QStringList& arguments) {
    QProcess process;
    process.setProgram(QStringLiteral(FABRICLAB_CLI));
    process.setArguments(arguments);
    process.start();
    Outcome outcome;
    if (!process.waitForStarted(30000))
        return outcome;
    process.closeWriteChannel();
    if (!process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished();
        return outcome;
    }
    outcome.status = process.exitStatus();
    outcome.exitCode = process.exitCode();
    outcome.out = process.readAllStandardOutput();
    outcome.err = process.readAllStandardError();
    return outcome;
}

/// The run, for a failed check's message.
inline QString diagnostics(const Outcome& o) {
    return QStringLiteral("exit %1 (%2)\nstdout: %3\nstderr: %4")
        .arg(o.exitCode)
        .arg(QString::fromLatin1(o.status == QProcess::NormalExit ? "normal" : "crash/timeout"))
        .arg(QString::fromUtf8(o.out.left(2000)), QString::fromUtf8(o.err.left(2000)));
}

} // namespace fabriclab::testing
