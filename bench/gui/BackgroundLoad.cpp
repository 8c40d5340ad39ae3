// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "bench/gui/BackgroundLoad.hpp"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/prctl.h>
#endif

namespace fabriclab::bench {
namespace {

/// A child's whole life. Only async-signal-safe calls: the parent may have threads.
[[noreturn]] void spinWhenTold(int go, pid_t parent) {
#if defined(__linux__)
    // Killed with the bench, however it ends; and if it already has, leave at once.
    (void)::prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (::getppid() != parent)
        ::_exit(0);
    // A session of its own, as a program started elsewhere (a build in a terminal) has:
    // Linux shares the processor between sessions first (autogroups), then among the
    // threads of each, where the engine's threads yield to the GUI's by their nice value.
    (void)::setsid();
    char byte = 0;
    ssize_t got = 0;
    do {
        got = ::read(go, &byte, 1);
    } while (got < 0 && errno == EINTR);
    if (got != 1)
        ::_exit(0); // the bench closed the pipe without starting the load
    volatile std::uint64_t turns = 0;
    for (;;)
        turns = turns + 1;
}

} // namespace

BackgroundLoad::BackgroundLoad(int processes) {
    if (processes <= 0)
        return;
    int fds[2];
    if (::pipe(fds) != 0)
        throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    m_go = fds[1];
    // Children gone before start() make its write fail, not kill the bench.
    (void)std::signal(SIGPIPE, SIG_IGN);
    const pid_t parent = ::getpid();
    // Anything still buffered would be written twice, once by each process.
    std::fflush(stdout);
    std::fflush(stderr);
    for (int i = 0; i < processes; ++i) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            ::close(fds[1]);
            spinWhenTold(fds[0], parent);
        }
        if (pid < 0) {
            const std::string why = std::string("fork: ") + std::strerror(errno);
            ::close(fds[0]);
            stop();
            throw std::runtime_error(why);
        }
        m_children.push_back(pid);
    }
    ::close(fds[0]);
}

BackgroundLoad::~BackgroundLoad() {
    stop();
}

bool BackgroundLoad::start() {
    if (m_go < 0)
        return true;
    // One byte a child: each reads one and starts spinning.
    const std::string bytes(m_children.size(), 'g');
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(m_go, bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        written += static_cast<std::size_t>(n);
    }
    return true;
}

void BackgroundLoad::stop() {
    for (const pid_t pid : m_children)
        (void)::kill(pid, SIGKILL);
    for (const pid_t pid : m_children) {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    m_children.clear();
    if (m_go >= 0) {
        ::close(m_go);
        m_go = -1;
    }
}

} // namespace fabriclab::bench
