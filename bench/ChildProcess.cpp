// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "bench/ChildProcess.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fabriclab::bench {
namespace {

// The child answers with one tagged record: 'V' + count + doubles, or 'E' + length + text.
constexpr char kValues = 'V';
constexpr char kError = 'E';

bool writeAll(int fd, const void* data, std::size_t size) {
    const auto* bytes = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t written = ::write(fd, bytes, size);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return false;
        bytes += written;
        size -= static_cast<std::size_t>(written);
    }
    return true;
}

void answer(int fd, char tag, const void* data, std::uint64_t count, std::size_t itemSize) {
    writeAll(fd, &tag, 1);
    writeAll(fd, &count, sizeof count);
    writeAll(fd, data, count * itemSize);
}

[[noreturn]] void runChild(int fd, const std::function<std::vector<double>()>& body) {
    int status = 0;
    try {
        const std::vector<double> values = body();
        answer(fd, kValues, values.data(), values.size(), sizeof(double));
    } catch (const std::exception& e) {
        const std::string what = e.what();
        answer(fd, kError, what.data(), what.size(), 1);
        status = 1;
    } catch (...) {
        const std::string what = "unknown exception";
        answer(fd, kError, what.data(), what.size(), 1);
        status = 1;
    }
    ::close(fd);
    std::fflush(stdout);
    std::fflush(stderr);
    ::_exit(status);
}

} // namespace

ChildOutcome runInChild(const std::function<std::vector<double>()>& body) {
    ChildOutcome outcome;
    int fds[2];
    if (::pipe(fds) != 0) {
        outcome.error = std::string("pipe: ") + std::strerror(errno);
        return outcome;
    }
    // Anything still buffered would be written twice, once by each process.
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        outcome.error = std::string("fork: ") + std::strerror(errno);
        ::close(fds[0]);
        ::close(fds[1]);
        return outcome;
    }
    if (pid == 0) {
        ::close(fds[0]);
        runChild(fds[1], body);
    }
    ::close(fds[1]);

    // Read to the end before waiting: a large answer would otherwise fill the pipe and
    // block the child forever.
    std::string received;
    char buffer[1 << 16];
    while (true) {
        const ssize_t got = ::read(fds[0], buffer, sizeof buffer);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        received.append(buffer, static_cast<std::size_t>(got));
    }
    ::close(fds[0]);

    int status = 0;
    rusage usage{};
    while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    // wait4 gives this child's own usage; Linux reports ru_maxrss in KiB.
    outcome.peakRssMb = static_cast<double>(usage.ru_maxrss) / 1024.0;

    std::uint64_t count = 0;
    if (received.size() >= 1 + sizeof count) {
        std::memcpy(&count, received.data() + 1, sizeof count);
        const char* payload = received.data() + 1 + sizeof count;
        const std::size_t available = received.size() - 1 - sizeof count;
        if (received[0] == kValues && available == count * sizeof(double)) {
            outcome.values.resize(count);
            if (available > 0) // memcpy from or to null is undefined even for 0 bytes
                std::memcpy(outcome.values.data(), payload, available);
        } else if (received[0] == kError && available == count) {
            outcome.error.assign(payload, available);
        }
    }
    if (outcome.error.empty() && WIFSIGNALED(status))
        outcome.error = "child killed by signal " + std::to_string(WTERMSIG(status));
    else if (outcome.error.empty() && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
        outcome.error = "child exited with status " + std::to_string(WEXITSTATUS(status));
    else if (outcome.error.empty() && outcome.values.empty() && received.size() != 1 + sizeof count)
        outcome.error = "child sent a malformed answer";
    return outcome;
}

} // namespace fabriclab::bench
