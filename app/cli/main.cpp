// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// fabriclab-cli: the headless face of the engine. Wiring only: parse, execute, print.
#include "app/ProcessMemory.hpp"
#include "app/cli/CliArguments.hpp"
#include "app/cli/CliCommands.hpp"
#include "app/cli/ReportCommand.hpp"

#include <algorithm>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

namespace {

/// Bad input is reported on exactly one line, whatever the message contains.
int fail(std::string message) {
    std::replace(message.begin(), message.end(), '\n', ' ');
    std::cerr << "fabriclab-cli: " << message << '\n';
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    using namespace fabriclab::app;
    returnLargeBlocksToTheSystem();
    try {
        const CliArguments args = parseArguments(std::vector<std::string>(argv + 1, argv + argc));
        if (args.command == "help") {
            std::cout << usageText();
            return 0;
        }
        if (args.command == "version") {
            std::cout << "fabriclab-cli " << FABRICLAB_VERSION << '\n';
            return 0;
        }
        if (args.command == "report")
            runReport(args);
        const std::string output = executeCommand(args);
        std::cout << output << std::flush;
        return std::cout ? 0 : 1;
    } catch (const std::bad_alloc&) {
        return fail("out of memory: the design is too large to evaluate on this machine");
    } catch (const std::exception& e) {
        return fail(e.what());
    }
}
