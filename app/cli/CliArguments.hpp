// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/report/NcclTests.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace fabriclab::app {

/// A command line that cannot be understood; main() prints it and exits with 2.
class UsageError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// The parsed command line of fabriclab-cli.
struct CliArguments {
    /// run, compare, sweep, nccl-tests, validate, bom, cabling, export, import, report, catalog,
    /// completion, help, version
    std::string command;
    std::string helpText; ///< help: one command's own (COMMAND --help); empty for the whole
    std::string design;   ///< path of the design file
    std::optional<std::string> fabric;     ///< run --fabric
    std::vector<std::string> fabrics;      ///< compare/sweep --fabrics
    std::vector<int> servers;              ///< sweep --servers
    std::optional<std::string> pricesFile; ///< --prices
    std::optional<double> months;          ///< --months
    std::optional<std::string> ownership;  ///< --ownership owned|rented
    std::optional<std::uint64_t> seed;     ///< --seed: ECMP hashes and traffic permutation
    std::optional<double> trainTokens;     ///< --train-tokens
    bool json = false;
    bool csv = false;                  ///< bom and cabling --csv
    std::optional<std::string> format; ///< export --format dot|slurm|ibnetdiscover
    std::optional<std::string> out;    ///< export, report, import --out FILE
    // import: what the fabric's file cannot say
    std::optional<std::string> gpu;   ///< --gpu ID
    std::optional<int> gpusPerServer; ///< --gpus-per-server N
    std::optional<int> nicsPerServer; ///< --nics-per-server N (slurm)
    std::optional<std::string> name;  ///< --name: the design's name
    std::optional<std::string> shard; ///< sweep --shard I/N (checked by parseShard)
    bool merge = false;               ///< sweep --merge FILES...
    int top = 10;                     ///< plan --top N: splits to list
    std::vector<std::string> files;   ///< sweep --merge: the shards' outputs
    // nccl-tests, its flags with their own meanings and defaults (32 MiB, one size)
    std::string collective = "allreduce"; ///< all_reduce_perf as a word, or --op
    bool collectiveNamed = false;         ///< named (validate: for a log's runs)
    double minBytes = 32.0 * (1 << 20);   ///< -b
    double maxBytes = 32.0 * (1 << 20);   ///< -e
    /// -f; without it sizes step by -i bytes (1 MiB by default), as nccl-tests steps them
    std::optional<double> stepFactor;
    std::optional<double> stepBytes; ///< -i
    /// -d -o -r, and the flags no simulated figure depends on, echoed in the header:
    /// -t -g -w -n -m -c -G (-z -a -C -p -R -T -N -S -M -I are accepted alike).
    model::NcclTestsOptions ncclTests;
    std::optional<std::string> outputFile; ///< -J: nccl-tests' JSON file, written as it writes it
    bool explain = false;                  ///< --explain: algorithm, protocol and who chose them
    std::optional<std::string> algorithm;  ///< --algo (NCCL_ALGO)
    std::optional<std::string> protocol;   ///< --proto (NCCL_PROTO)
    std::string figureSet = "all";         ///< validate --set: all, fit or check
    /// validate --figures: the user's own figures (FabricLab's format), or nccl-tests output
    /// (the printed table or a -J file) measured on the DESIGN named beside it
    std::optional<std::string> figuresFile;
};

/// Throws UsageError naming the bad argument.
CliArguments parseArguments(const std::vector<std::string>& args);

/// The text `fabriclab-cli --help` prints.
std::string usageText();

/// The bash completion script (`fabriclab-cli completion`): commands, each command's options,
/// and the values of --fabric, --fabrics, --format, --ownership and --set.
std::string bashCompletion(const std::vector<std::string>& fabricIds);

} // namespace fabriclab::app
