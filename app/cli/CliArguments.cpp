// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/cli/CliArguments.hpp"

#include "app/cli/SweepShards.hpp"
#include "model/design/CollectiveSpec.hpp"
#include "model/report/FabricExport.hpp"
#include "model/report/NcclTests.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string_view>

namespace fabriclab::app {
namespace {

std::vector<std::string> splitList(const std::string& option, const std::string& text) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto comma = text.find(',', start);
        const auto item =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item.empty())
            throw UsageError(option +
                             " expects a comma-separated list without empty items, got \"" + text +
                             "\"");
        items.push_back(item);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return items;
}

/// The whole text read as a T, or nothing when it is not one (or has anything after it).
template <typename T> std::optional<T> parseExact(const std::string& text) {
    T value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

int parseCount(const std::string& option, const std::string& text) {
    const auto value = parseExact<int>(text);
    if (!value || *value < 1)
        throw UsageError(option + " expects positive whole numbers, got \"" + text + "\"");
    return *value;
}

double parseMonths(const std::string& option, const std::string& text) {
    const auto value = parseExact<double>(text);
    if (!value || !std::isfinite(*value) || *value < 1 || *value > 600)
        throw UsageError(option + " expects a number of months from 1 to 600, got \"" + text +
                         "\"");
    return *value;
}

std::uint64_t parseSeed(const std::string& option, const std::string& text) {
    const auto value = parseExact<std::uint64_t>(text);
    if (!value)
        throw UsageError(option + " expects a whole number, got \"" + text + "\"");
    return *value;
}

double parseTokens(const std::string& option, const std::string& text) {
    const auto value = parseExact<double>(text);
    if (!value || !std::isfinite(*value) || *value < 1 || *value > 1e16)
        throw UsageError(option + " expects a token count from 1 to 1e16, got \"" + text + "\"");
    return *value;
}

/// A size as nccl-tests reads it: a whole number of bytes, optionally K, M or G (powers of
/// 1024), e.g. 8, 256K, 8G.
double parseSize(const std::string& option, const std::string& text) {
    std::string digits = text;
    double scale = 1;
    if (!digits.empty()) {
        const char unit =
            static_cast<char>(std::toupper(static_cast<unsigned char>(digits.back())));
        const double scales[] = {1024.0, 1024.0 * 1024, 1024.0 * 1024 * 1024};
        if (const auto at = std::string_view("KMG").find(unit); at != std::string_view::npos) {
            scale = scales[at];
            digits.pop_back();
        }
    }
    const auto value = parseExact<long long>(digits);
    if (!value || *value < 1 || *value * scale > 1e15)
        throw UsageError(option +
                         " expects a size in bytes from 1 to 1e15, with an optional K, M "
                         "or G, got \"" +
                         text + "\"");
    return static_cast<double>(*value) * scale;
}

double parseFactor(const std::string& option, const std::string& text) {
    const auto value = parseExact<double>(text);
    if (!value || !std::isfinite(*value) || *value < 1.01 || *value > 1024)
        throw UsageError(option + " expects a factor from 1.01 to 1024, got \"" + text + "\"");
    return *value;
}

/// nccl-tests' operation names (all_reduce, sendrecv_perf, ...) or FabricLab's (allreduce).
/// nccl-tests' reductions (-o, or its own --op).
bool isReduction(const std::string& text) {
    return text == "sum" || text == "prod" || text == "min" || text == "max" || text == "avg" ||
           text == "mulsum" || text == "all";
}

/// A whole number of at least `least`, as nccl-tests' integer flags take.
int parseWhole(const std::string& option, const std::string& text, int least) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < least)
        throw UsageError(option + " expects a whole number of at least " + std::to_string(least) +
                         ", got \"" + text + "\"");
    return value;
}

std::string parseOperation(const std::string& option, const std::string& text) {
    std::string name = text;
    if (name.ends_with("_perf"))
        name.resize(name.size() - 5);
    if (const auto op = model::collectiveOpFromString(name))
        return std::string(model::toString(*op));
    throw UsageError(option +
                     " expects all_reduce, all_gather, reduce_scatter, alltoall, broadcast or "
                     "sendrecv, got \"" +
                     text + "\"");
}

} // namespace

std::string usageText() {
    return R"(fabriclab-cli: evaluate GPU-cluster fabric designs headless

Usage:
  fabriclab-cli run DESIGN [--fabric ID] [--json | --csv]
                                                        full report for one design
  fabriclab-cli compare DESIGN --fabrics ID,ID,... [--ownership owned|rented] [--json | --csv]
                                                        the same design on several fabrics,
                                                        each built with its own switches,
                                                        and the verdict
  fabriclab-cli sweep DESIGN --servers N,N,... [--fabrics ID,...] [--json | --csv]
                [--shard I/N]                           regenerate at several sizes
  fabriclab-cli sweep --merge FILE...  [--json | --csv] join the shards' lines into one table
  fabriclab-cli nccl-tests DESIGN [all_reduce_perf | --op OP] [-b 32M] [-e 32M]
                [-f 2 | -i 1M] [--servers N] [-J FILE.json] [--explain] [--json]
                                                        nccl-tests' table for the design, in
                                                        its own layout
  fabriclab-cli validate [--set all|fit|check] [--figures FILE] [--json]
                                                        the published figures FabricLab is held
                                                        to (or your own), against the engine
  fabriclab-cli validate DESIGN --figures LOG [--op OP] [--fabric ID] [--json | --csv]
                                                        your nccl-tests output (the printed
                                                        table, several runs in one log, or the
                                                        -J JSON file) row by row against
                                                        FabricLab on the design it ran on
  fabriclab-cli bom DESIGN [--csv | --json]             the bill of materials: one row per
                                                        part, priced, with power and sources
  fabriclab-cli plan DESIGN [--top N] [--json]          the design's training job split every way
                                                        that fits its GPUs' memory, ranked by
                                                        step time predicted on its fabric
  fabriclab-cli cabling DESIGN [--csv | --json]         the cabling plan: every cable once,
                                                        both ends' device and port, medium,
                                                        length class and part
  fabriclab-cli report DESIGN --out FILE.pdf [--fabrics ID,ID,...]
                                                        the design report as a PDF: summary and
                                                        verdict, topology, every chart, the
                                                        fabric comparison, bill, cabling and
                                                        the catalog values behind them (drawn by
                                                        the fabriclab app beside this program)
  fabriclab-cli import --format ibnetdiscover|slurm FILE --out DESIGN [--fabric ID]
                [--gpu ID] [--gpus-per-server N] [--nics-per-server N] [--name NAME]
                                                        a real fabric as a design: tiers read
                                                        from the structure (servers' switches
                                                        are leaves, then spines, cores); the
                                                        GPU and what the file cannot say from
                                                        the options (h100-sxm, 8 per server)
  fabriclab-cli export DESIGN --format dot|slurm|ibnetdiscover [--out FILE]
                                                        the fabric for other tools: Graphviz
                                                        (port-annotated edges, as NVIDIA Air
                                                        reads them), Slurm's topology.conf, or
                                                        an InfiniBand design as ibnetdiscover
                                                        prints it
  fabriclab-cli catalog [--json]                        list fabric, GPU and model ids
  fabriclab-cli completion                              the bash completion script
  fabriclab-cli COMMAND --help                          that command's options
  fabriclab-cli --help | --version

Options take GNU forms: --fabric ID or --fabric=ID, -b 8 or -b8; -- ends the options.
A single-valued option is given once; options are not abbreviated.

Options:
  --fabric ID        evaluate on this fabric instead of the design's own
  --fabrics ID,...   fabrics to compare (compare: required; sweep: default the design's);
                     compare also takes FABRIC@KIND, the design rebuilt as another
                     generator kind on that fabric (ib-ndr@dragonfly,ib-ndr@fat-tree)
  --shard I/N        sweep: run only the I-th of N disjoint slices of the points (point k
                     when k mod N = I - 1) and print one JSON line per point; run the N
                     slices anywhere (GNU parallel, a Slurm array) and join them with --merge
  --servers N,...    server counts to sweep; the design needs a "generator"
  --prices FILE      price catalog to cost with (same format as resources/catalog/prices.json)
  --months N         amortization period for $/GPU-hour (default from the price catalog: 36)
  --ownership MODE   owned (servers, fabric and energy over --months; the default) or rented
                     (every GPU-hour at the GPU's on-demand price); a cloud's own fabric
                     (efa) is always priced as that cloud rents it
  --seed N           seed for static-ECMP hashing and the bisection traffic permutation (default 1)
  --train-tokens N   token budget for time, GPU-hours and cost to train (default 1e12)
  --json             machine-readable output: one object that opens with the output head
                     (schemaVersion, kind, fabriclabVersion, design, fabric, seed, prices);
                     tables (compare, sweep, nccl-tests) under "rows" (docs/output-contract.md)
  --format FORMAT    export: dot, slurm or ibnetdiscover
  --out FILE         export: write FILE (all or nothing) instead of printing;
                     report: the PDF to write (all or nothing)
  --csv              RFC 4180 CSV. run, compare, sweep: one row per design, fabric or
                     point, a column per figure of --json (nested names joined by dots,
                     "bisection.effectiveGbps"; the bill of materials is bom's); bom: one
                     row per part and a total row; cabling: one row per cable
  --set SET          validate: every figure (all, the default), the fit set (figures a
                     constant was calibrated to) or the check set (figures never tuned to)
  --figures FILE     validate: run the nccl-tests figures in FILE instead of FabricLab's
                     (the format of resources/validation/nccl-tests.json: your cluster's
                     measurements, each with its servers, NICs, fabric, GPU, op and size),
                     or set nccl-tests output (as all_reduce_perf prints it, or its -J file)
                     against the DESIGN it ran on: each run on as many of the design's
                     servers as it had hosts; --op names the collective of a log that does
                     not (an old log without "# Collective test starting")

nccl-tests options (as all_reduce_perf and its siblings take them, same meanings):
  all_reduce_perf    the collective, as the binary is named (or --op): all_reduce_perf,
                     all_gather_perf, reduce_scatter_perf, alltoall_perf, broadcast_perf,
                     sendrecv_perf; --op also reads all_reduce, allreduce, all-reduce
  -b, -e SIZE        smallest and largest size in bytes, K/M/G allowed (default 32M and 32M)
  -f FACTOR, -i BYTES  each size FACTOR times the last, or BYTES more (default: -i 1M)
  -d TYPE            data type: float (default), double, half, bfloat16, int8, ... (sizes are
                     whole elements, and for all_gather, reduce_scatter and alltoall whole
                     elements per rank, as nccl-tests rounds them)
  -o OP              reduction shown in the redop column (sum; --op sum is read alike)
  -r N               broadcast's root
  -t -g -w -n -m -c -G N   threads, GPUs per thread, warm-up, iterations, aggregation,
                     checking, CUDA graphs: echoed in the header, as no simulated figure
                     depends on them; -z -a -C -p -R -T -N -S -M -y -x -D -V -I are
                     accepted alike
  --servers N        run on the design's first N servers (default all)
  --algo NAME        as NCCL_ALGO: ring, tree, nvls, nvls-tree, collnet-direct, collnet-chain,
                     pat, sharp (default: NCCL's own choice per size)
  --proto NAME       as NCCL_PROTO: LL, LL128, Simple (default: NCCL's own choice)
  -J FILE.json       also write the JSON file nccl-tests' -J writes (an existing file is
                     kept: FILE.json.0, .1, ... as nccl-tests does)
  --explain          after nccl-tests' 13 columns: the algorithm, the protocol, and who
                     chose them (NCCL's model, a tuner, or "forced" by --algo/--proto)
  --fabric ID, --seed N   as for run

DESIGN is a *.fabric.json file (format "fabriclab-design", version 1). The report gives
GPU and switch counts; bisection bandwidth, theoretical (max-flow min-cut over the worst
natural halving, as Gb/s and as a ratio of half the injection bandwidth; 1.0 = non-blocking)
and effective (what the flow-level simulator delivers for random permutation traffic under
the fabric's routing); the design's collective timed as NCCL runs it (time, algbw, busbw as
nccl-tests defines them; all-reduce of 1 GiB when the design names none); the training step
of the design's workload (compute, communication, exposed communication, tokens/s, and the
time and cost to train a token budget); and the fabric's bill of materials, capex, power and
$/GPU-hour.

Exit status: 0 on success; 2 on bad input (an argument, a file, a key: named on one line on
stderr, nothing on stdout, no file half-written); 3 when the design is beyond what this
machine can evaluate (out of memory); 4 on an internal error.
)";
}

namespace {

/// One option of fabriclab-cli: its names as CLI11 takes them ("-b,--minbytes"), whether it
/// takes a value, the commands that accept it, and its help line. One table, so every
/// command's --help, its parser and the bash completion agree.
struct OptionSpec {
    const char* names;
    const char* value; ///< the value's name in help ("N", "FILE"); nullptr for a flag
    std::vector<std::string> commands;
    const char* help;
};

const std::vector<OptionSpec>& optionSpecs() {
    static const std::vector<OptionSpec> specs = {
        {"--json",
         nullptr,
         {"run", "compare", "sweep", "nccl-tests", "validate", "bom", "cabling", "catalog", "plan"},
         "machine-readable output (docs/output-contract.md)"},
        {"--top", "N", {"plan"}, "how many splits to list, fastest first (default 10)"},
        {"--csv",
         nullptr,
         {"run", "compare", "sweep", "validate", "bom", "cabling"},
         "RFC 4180 CSV: a row per design, fabric, point, part or cable"},
        {"--fabric",
         "ID",
         {"run", "nccl-tests", "validate", "import"},
         "evaluate on this fabric instead of the design's own"},
        {"--fabrics", "ID,ID,...", {"compare", "sweep", "report"}, "the fabrics to compare"},
        {"--servers",
         "N,...",
         {"sweep", "nccl-tests"},
         "sweep: server counts; nccl-tests: run on the design's first N servers"},
        {"--shard", "I/N", {"sweep"}, "run only the I-th of N disjoint slices of the points"},
        {"--merge", nullptr, {"sweep"}, "join the shards' JSON lines (FILE...) into one sweep"},
        {"--prices",
         "FILE",
         {"run", "compare", "sweep", "nccl-tests", "bom", "cabling"},
         "the price list to cost with (the format of resources/catalog/prices.json)"},
        {"--months",
         "N",
         {"run", "compare", "sweep", "bom", "cabling"},
         "amortization period, 1 to 600 months (default: the price list's, 36)"},
        {"--ownership", "MODE", {"run", "compare", "sweep"}, "owned (the default) or rented"},
        {"--seed",
         "N",
         {"run", "compare", "sweep", "nccl-tests", "validate"},
         "seed for ECMP hashing and the bisection permutation (default 1)"},
        {"--train-tokens",
         "N",
         {"run", "compare", "sweep"},
         "token budget for time and cost to train, 1 to 1e16 (default 1e12)"},
        {"--format",
         "FORMAT",
         {"export", "import"},
         "export: dot, slurm or ibnetdiscover; import: ibnetdiscover or slurm"},
        {"--out", "FILE", {"export", "report", "import"}, "the file to write, all or nothing"},
        {"--gpu", "ID", {"import"}, "the servers' GPU (default h100-sxm)"},
        {"--gpus-per-server", "N", {"import"}, "GPUs per server (default 8)"},
        {"--nics-per-server", "N", {"import"}, "NICs per server (slurm)"},
        {"--name", "NAME", {"import"}, "the design's name"},
        {"--set", "SET", {"validate"}, "all (the default), fit or check"},
        {"--figures",
         "FILE",
         {"validate"},
         "your figures, or nccl-tests output measured on DESIGN"},
        // nccl-tests' own flags, with its meanings, as its src/common.cu lists them (-o and
        // --op are one option there, the reduction; here --op may also name the collective).
        {"--op",
         "OP",
         {"nccl-tests", "validate"},
         "the collective (all_reduce, all_gather_perf, ...); nccl-tests: or the reduction"},
        {"-g,--ngpus",
         "N",
         {"nccl-tests", "validate"},
         "nccl-tests: GPUs per thread (echoed); validate: the collective"},
        {"-b,--minbytes", "SIZE", {"nccl-tests"}, "smallest size, K/M/G allowed (default 32M)"},
        {"-e,--maxbytes", "SIZE", {"nccl-tests"}, "largest size (default 32M)"},
        {"-f,--stepfactor", "FACTOR", {"nccl-tests"}, "each size FACTOR times the last"},
        {"-i,--stepbytes", "BYTES", {"nccl-tests"}, "each size BYTES more (default 1M)"},
        {"-d,--datatype", "TYPE", {"nccl-tests"}, "float (default), double, half, bfloat16, ..."},
        {"-o", "OP", {"nccl-tests"}, "the reduction shown (sum, prod, min, max, avg, mulsum)"},
        {"-r,--root", "N", {"nccl-tests"}, "broadcast's root"},
        {"-t,--nthreads", "N", {"nccl-tests"}, "threads per process (echoed)"},
        {"-w,--warmup_iters", "N", {"nccl-tests"}, "warm-up iterations (echoed)"},
        {"-n,--iters", "N", {"nccl-tests"}, "iterations (echoed)"},
        {"-m,--agg_iters", "N", {"nccl-tests"}, "aggregated iterations (echoed)"},
        {"-c,--check", "N", {"nccl-tests"}, "check results (echoed)"},
        {"-G,--cudagraph", "N", {"nccl-tests"}, "CUDA graph launches (echoed)"},
        {"-z,--blocking", "N", {"nccl-tests"}, "accepted as nccl-tests takes it"},
        {"-a,--average", "N", {"nccl-tests"}, "accepted as nccl-tests takes it"},
        {"-C,--report_cputime", "N", {"nccl-tests"}, "accepted as nccl-tests takes it"},
        {"-p,--parallel_init", "N", {"nccl-tests"}, "accepted as nccl-tests takes it"},
        {"-R,--local_register", "N", {"nccl-tests"}, "accepted as nccl-tests takes it"},
        {"-T,--timeout", "N", {"nccl-tests"}, "accepted as nccl-tests takes it"},
        {"-N,--run_cycles", "N", {"nccl-tests"}, "accepted as nccl-tests takes it"},
        {"-S,--report_timestamps", "N", {"nccl-tests"}, "accepted as nccl-tests takes it"},
        {"-M,--memory_report", "N", {"nccl-tests"}, "accepted as nccl-tests takes it"},
        {"-y,--stream_null", "N", {"nccl-tests"}, "accepted as nccl-tests takes it"},
        {"-x,--cta_policy", "N", {"nccl-tests"}, "accepted as nccl-tests takes it"},
        {"-D,--device_implementation", "N", {"nccl-tests"}, "accepted as nccl-tests takes it"},
        {"-V,--device_cta_count", "N", {"nccl-tests"}, "accepted as nccl-tests takes it"},
        {"-I,--report_iterations", "N", {"nccl-tests"}, "accepted as nccl-tests takes it"},
        {"-J,--output_file", "FILE.json", {"nccl-tests"}, "also write nccl-tests' JSON file"},
        {"--explain", nullptr, {"nccl-tests"}, "the algorithm, protocol and who chose them"},
        {"--algo", "NAME", {"nccl-tests"}, "as NCCL_ALGO: ring, tree, nvls, ..."},
        {"--proto", "NAME", {"nccl-tests"}, "as NCCL_PROTO: LL, LL128, Simple"},
    };
    return specs;
}

struct CommandSpec {
    const char* name;
    const char* positional; ///< "DESIGN", "DESIGN [TEST]", "FILE"...; nullptr for none
    const char* help;
};

const std::vector<CommandSpec>& commandSpecs() {
    static const std::vector<CommandSpec> commands = {
        {"run", "DESIGN", "full report for one design"},
        {"compare", "DESIGN", "the design on several fabrics, each with its own switches"},
        {"sweep", "DESIGN", "the design regenerated at several sizes (or --merge FILE...)"},
        {"nccl-tests", "DESIGN", "nccl-tests' table for the design ([all_reduce_perf] after it)"},
        {"validate", "DESIGN", "published figures, or your nccl-tests log, against the engine"},
        {"bom", "DESIGN", "the bill of materials"},
        {"cabling", "DESIGN", "the cabling plan"},
        {"plan", "DESIGN", "the training job's splits that fit, ranked on this fabric"},
        {"report", "DESIGN", "the design report as a PDF"},
        {"import", "FILE", "a real fabric (ibnetdiscover, Slurm) as a design"},
        {"export", "DESIGN", "the fabric for other tools"},
        {"catalog", nullptr, "list fabric, GPU and model ids"},
        {"completion", nullptr, "print the bash completion script"},
    };
    return commands;
}

/// The first name of a spec, the key its value is kept under: "--minbytes" for
/// "-b,--minbytes" (the long one when there is one).
std::string keyOf(const OptionSpec& spec) {
    const std::string names = spec.names;
    const auto comma = names.find(',');
    return comma == std::string::npos ? names : names.substr(comma + 1);
}

/// An option CLI11 refused as not this command's, told as FabricLab tells it: what the
/// command takes when that is short to say, else where to read it.
std::string notTakenBy(const std::string& command, const std::string& extras) {
    constexpr int kListedAtMost = 10;
    std::string takes;
    int count = 0;
    for (const OptionSpec& spec : optionSpecs())
        if (std::find(spec.commands.begin(), spec.commands.end(), command) != spec.commands.end()) {
            takes += (takes.empty() ? "" : ", ") + keyOf(spec);
            ++count;
        }
    const std::string help = "fabriclab-cli " + command + " --help";
    if (count == 0)
        return command + " takes no options; not " + extras + " (" + help + ")";
    if (count > kListedAtMost)
        return command + " does not take " + extras + " (" + help + " lists what it takes)";
    return command + " does not take " + extras + "; it takes " + takes + " (" + help + ")";
}

/// What CLI11 read: each option's text by key, and the words that are not options.
struct RawLine {
    std::string command;
    std::map<std::string, std::string> values;
    std::set<std::string> givenKeys; ///< the command's options that were given
    std::vector<std::string> words;
    std::string help; ///< the command's own --help, when asked for

    bool given(const std::string& key) const { return givenKeys.count(key) > 0; }
    const std::string& text(const std::string& key) const { return values.at(key); }
};

RawLine readLine(const std::vector<std::string>& args) {
    RawLine raw;
    CLI::App app{"fabriclab-cli"};
    std::map<std::string, CLI::Option*> options; // "command key": owned by `app`
    app.require_subcommand(1, 1);
    app.set_help_flag(); // the top-level --help is usageText()
    std::vector<std::pair<CLI::App*, std::string>> subcommands;
    for (const CommandSpec& command : commandSpecs()) {
        CLI::App* sub = app.add_subcommand(command.name, command.help);
        sub->set_help_flag("-h,--help", "this command's options");
        subcommands.emplace_back(sub, command.name);
        if (command.positional)
            sub->add_option(command.positional, raw.words, command.help)->type_name("FILE");
        for (const OptionSpec& spec : optionSpecs()) {
            if (std::find(spec.commands.begin(), spec.commands.end(), command.name) ==
                spec.commands.end())
                continue;
            CLI::Option* option =
                spec.value ? sub->add_option(spec.names, raw.values[keyOf(spec)], spec.help)
                                 ->type_name(spec.value)
                           : sub->add_flag(spec.names, spec.help);
            options[std::string(command.name) + " " + keyOf(spec)] = option;
        }
    }
    std::vector<std::string> reversed(args.rbegin(), args.rend()); // as CLI11 reads them
    try {
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        for (const auto& [sub, name] : subcommands)
            if (sub->parsed()) {
                raw.command = name;
                raw.help = sub->help();
            }
        return raw;
    } catch (const CLI::ExtrasError& e) {
        std::string extras = e.what();
        if (const auto colon = extras.find(": "); colon != std::string::npos)
            extras = extras.substr(colon + 2);
        for (const auto& [sub, name] : subcommands)
            if (sub->parsed())
                throw UsageError(notTakenBy(name, extras));
        throw UsageError(e.what());
    } catch (const CLI::ArgumentMismatch& e) {
        // CLI11 says so for an option given twice (which one should win is the user's
        // call), for one given without its value, and for a flag given a value.
        const std::string what = e.what();
        const std::string name = what.substr(0, what.find(':'));
        if (what.find(": At Most ") != std::string::npos)
            throw UsageError(name + " given more than once; give it once");
        throw UsageError(name + " needs a value (" + what.substr(what.find(':') + 2) + ")");
    } catch (const CLI::ParseError& e) {
        throw UsageError(e.what());
    }
    for (const auto& [sub, name] : subcommands)
        if (sub->parsed())
            raw.command = name;
    // What was given, noted while the options still exist: they die with `app` on return.
    for (const auto& [key, option] : options)
        if (key.starts_with(raw.command + " ") && option->count() > 0)
            raw.givenKeys.insert(key.substr(raw.command.size() + 1));
    return raw;
}

} // namespace

CliArguments parseArguments(const std::vector<std::string>& args) {
    CliArguments parsed;
    if (args.empty())
        throw UsageError("no command given (try fabriclab-cli --help)");
    const std::string& first = args.front();
    if (first == "--help" || first == "-h" || first == "help") {
        parsed.command = "help";
        return parsed;
    }
    if (first == "--version") {
        parsed.command = "version";
        return parsed;
    }
    if (std::none_of(commandSpecs().begin(), commandSpecs().end(),
                     [&](const CommandSpec& c) { return first == c.name; }))
        throw UsageError("unknown command \"" + first +
                         "\" (expected run, compare, sweep, nccl-tests, validate, bom, cabling, "
                         "export, report, import, catalog or completion)");
    const RawLine raw = readLine(args);
    parsed.command = raw.command;
    if (!raw.help.empty()) {
        parsed.helpText = raw.help;
        parsed.command = "help";
        return parsed;
    }
    const bool ncclTests = parsed.command == "nccl-tests";
    const auto given = [&](const char* key) { return raw.given(key); };
    const auto text = [&](const char* key) -> const std::string& { return raw.text(key); };
    // An option taken as it was typed, when it was given.
    const auto verbatim = [&](const char* key) -> std::optional<std::string> {
        return given(key) ? std::optional<std::string>(text(key)) : std::nullopt;
    };

    parsed.json = given("--json");
    parsed.csv = given("--csv");
    parsed.merge = given("--merge");
    parsed.explain = given("--explain");
    if (given("--format")) {
        parsed.format = text("--format");
        if (parsed.command == "import" && *parsed.format != "slurm" &&
            *parsed.format != "ibnetdiscover")
            throw UsageError("--format: expected ibnetdiscover or slurm, got \"" + *parsed.format +
                             "\"");
        if (parsed.command == "export" && !model::exportFormatFromString(*parsed.format))
            throw UsageError("--format: expected dot, slurm or ibnetdiscover, got \"" +
                             *parsed.format + "\"");
    }
    parsed.gpu = verbatim("--gpu");
    if (given("--gpus-per-server"))
        parsed.gpusPerServer = parseCount("--gpus-per-server", text("--gpus-per-server"));
    if (given("--nics-per-server"))
        parsed.nicsPerServer = parseCount("--nics-per-server", text("--nics-per-server"));
    parsed.name = verbatim("--name");
    parsed.out = verbatim("--out");
    if (given("--shard")) {
        parsed.shard = text("--shard");
        try {
            parseShard(*parsed.shard); // refused here, before any point runs
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
    }
    if (given("--set")) {
        parsed.figureSet = text("--set");
        if (parsed.figureSet != "all" && parsed.figureSet != "fit" && parsed.figureSet != "check")
            throw UsageError("--set: expected all, fit or check, got \"" + parsed.figureSet + "\"");
    }
    parsed.figuresFile = verbatim("--figures");
    parsed.fabric = verbatim("--fabric");
    if (given("--fabrics"))
        parsed.fabrics = splitList("--fabrics", text("--fabrics"));
    if (given("--servers")) {
        if (ncclTests)
            parsed.servers = {parseCount("--servers", text("--servers"))};
        else
            for (const auto& item : splitList("--servers", text("--servers")))
                parsed.servers.push_back(parseCount("--servers", item));
    }
    if (parsed.command == "validate") {
        for (const char* key : {"--ngpus", "--op"})
            if (given(key)) {
                parsed.collective = parseOperation(key, text(key));
                parsed.collectiveNamed = true;
            }
    }
    if (ncclTests) {
        model::NcclTestsOptions& o = parsed.ncclTests;
        if (given("--op")) {
            // The collective (all_gather_perf, all_gather), or, as nccl-tests' own --op, the
            // reduction (sum, prod, min, max, avg, mulsum, all).
            if (isReduction(text("--op"))) {
                o.redop = text("--op");
            } else {
                parsed.collective = parseOperation("--op", text("--op"));
                parsed.collectiveNamed = true;
            }
        }
        if (given("-o")) {
            o.redop = text("-o");
            if (!isReduction(o.redop))
                throw UsageError("-o: expected sum, prod, min, max, avg, mulsum or all, got \"" +
                                 o.redop + "\"");
        }
        if (given("--datatype")) {
            o.dataType = text("--datatype");
            if (!model::ncclTestsTypeBytes(o.dataType))
                throw UsageError("-d: unknown data type \"" + o.dataType +
                                 "\" (expected int8, uint8, int32, uint32, int64, uint64, half, "
                                 "float, double, bfloat16, fp8_e4m3 or fp8_e5m2)");
        }
        if (given("--root"))
            o.root = parseWhole("-r", text("--root"), 0);
        if (given("--stepbytes"))
            parsed.stepBytes = parseSize("-i", text("--stepbytes"));
        const struct {
            const char* key;
            const char* shortName;
            int* field;
            int least;
        } echoed[] = {
            {"--nthreads", "-t", &o.threads, 1},         {"--ngpus", "-g", &o.gpusPerThread, 1},
            {"--warmup_iters", "-w", &o.warmupIters, 0}, {"--iters", "-n", &o.iters, 1},
            {"--agg_iters", "-m", &o.aggIters, 1},       {"--check", "-c", &o.check, 0},
            {"--cudagraph", "-G", &o.graph, 0}};
        for (const auto& flag : echoed)
            if (given(flag.key))
                *flag.field = parseWhole(flag.shortName, text(flag.key), flag.least);
        for (const char* key :
             {"--blocking", "--average", "--report_cputime", "--parallel_init", "--local_register",
              "--timeout", "--run_cycles", "--report_timestamps", "--memory_report",
              "--report_iterations", "--stream_null", "--cta_policy", "--device_implementation",
              "--device_cta_count"})
            if (given(key))
                (void)parseWhole(key, text(key), 0); // no simulated figure depends on it
        if (given("--output_file")) {
            parsed.outputFile = text("--output_file");
            std::string suffix = parsed.outputFile->size() >= 5
                                     ? parsed.outputFile->substr(parsed.outputFile->size() - 5)
                                     : std::string();
            for (char& c : suffix)
                c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (suffix != ".json")
                throw UsageError(
                    "-J " + *parsed.outputFile +
                    ": nccl-tests writes its JSON file only to a name ending in .json");
        }
        if (given("--minbytes"))
            parsed.minBytes = parseSize("-b", text("--minbytes"));
        if (given("--maxbytes"))
            parsed.maxBytes = parseSize("-e", text("--maxbytes"));
        if (given("--stepfactor"))
            parsed.stepFactor = parseFactor("-f", text("--stepfactor"));
        parsed.algorithm = verbatim("--algo");
        parsed.protocol = verbatim("--proto");
    }
    parsed.pricesFile = verbatim("--prices");
    if (given("--ownership")) {
        parsed.ownership = text("--ownership");
        if (*parsed.ownership != "owned" && *parsed.ownership != "rented")
            throw UsageError("--ownership expects owned or rented, got \"" + *parsed.ownership +
                             "\"");
    }
    if (given("--months"))
        parsed.months = parseMonths("--months", text("--months"));
    if (given("--top")) {
        parsed.top = parseCount("--top", text("--top"));
        if (parsed.top > 1000)
            throw UsageError("--top expects at most 1000 splits, got " + text("--top"));
    }
    if (given("--seed"))
        parsed.seed = parseSeed("--seed", text("--seed"));
    if (given("--train-tokens"))
        parsed.trainTokens = parseTokens("--train-tokens", text("--train-tokens"));

    for (const std::string& word : raw.words) {
        if (parsed.merge) {
            parsed.files.push_back(word);
        } else if (ncclTests && word.ends_with("_perf")) {
            // The binary's name, as one types it: nccl-tests DESIGN all_gather_perf -b 8.
            parsed.collective = parseOperation("the test", word);
            parsed.collectiveNamed = true;
        } else if (parsed.design.empty()) {
            parsed.design = word;
        } else {
            throw UsageError("unexpected argument \"" + word + "\" (one design per call)");
        }
    }

    if (parsed.merge) {
        if (parsed.files.empty())
            throw UsageError("sweep --merge needs the shards' files");
        if (parsed.shard || !parsed.servers.empty() || !parsed.fabrics.empty())
            throw UsageError("sweep --merge takes only the shards' files (and --json or --csv)");
        if (parsed.csv && parsed.json)
            throw UsageError("--csv and --json: choose one");
        return parsed;
    }
    if (parsed.command == "validate") {
        // FabricLab's figures name their own clusters; a log names the design it ran on.
        if (!parsed.fabrics.empty() || !parsed.servers.empty() || parsed.pricesFile ||
            parsed.months || parsed.trainTokens || parsed.ownership)
            throw UsageError("validate takes --set, --figures, --json or --csv, and with a log "
                             "a DESIGN, --op, --fabric and --seed");
        if (!parsed.figuresFile &&
            (!parsed.design.empty() || parsed.fabric || parsed.collectiveNamed || parsed.seed))
            throw UsageError("a DESIGN, --op, --fabric and --seed go with --figures LOG (your "
                             "nccl-tests output, measured on that design)");
        if (parsed.csv && !parsed.figuresFile)
            throw UsageError("validate --csv is for --figures LOG: one row per size of the log");
        if (parsed.csv && parsed.json)
            throw UsageError("--csv and --json: choose one");
        return parsed;
    }
    if (parsed.command == "completion")
        return parsed;
    if (parsed.command != "catalog" && parsed.design.empty())
        throw UsageError(parsed.command + " needs a DESIGN file");
    if (parsed.csv && parsed.json)
        throw UsageError("--csv and --json: choose one");
    if (parsed.csv && parsed.shard)
        throw UsageError("--shard writes JSON lines; --csv belongs on sweep --merge");
    if (parsed.command == "export" && !parsed.format)
        throw UsageError("export needs --format dot, slurm or ibnetdiscover");
    if (parsed.command == "export" && (parsed.json || parsed.pricesFile || parsed.months))
        throw UsageError("export takes --format and --out");
    if ((parsed.command == "bom" || parsed.command == "cabling" || parsed.command == "export") &&
        (parsed.fabric || !parsed.fabrics.empty() || !parsed.servers.empty() || parsed.seed ||
         parsed.trainTokens || parsed.ownership))
        throw UsageError(parsed.command + " takes --csv or --json, --prices and --months");
    if (parsed.command == "import") {
        if (!parsed.format)
            throw UsageError("import needs --format ibnetdiscover or slurm");
        if (!parsed.out)
            throw UsageError("import needs --out DESIGN.fabric.json");
        if (parsed.json || parsed.csv || !parsed.fabrics.empty() || !parsed.servers.empty() ||
            parsed.pricesFile || parsed.months || parsed.seed || parsed.trainTokens ||
            parsed.ownership)
            throw UsageError("import takes --format, --out, --fabric, --gpu, --gpus-per-server, "
                             "--nics-per-server and --name");
        return parsed;
    }
    if (parsed.command == "report" && !parsed.out)
        throw UsageError("report needs --out FILE.pdf");
    if (parsed.command == "report" &&
        (parsed.json || parsed.csv || parsed.fabric || !parsed.servers.empty() ||
         parsed.pricesFile || parsed.months || parsed.seed || parsed.trainTokens ||
         parsed.ownership))
        throw UsageError("report takes --out FILE.pdf and --fabrics ID,ID,...");
    if (parsed.command == "run" && !parsed.fabrics.empty())
        throw UsageError("run takes --fabric ID; use compare for --fabrics");
    if (parsed.command == "compare" && parsed.fabrics.empty())
        throw UsageError("compare needs --fabrics ID,ID,...");
    if (parsed.command == "sweep" && parsed.servers.empty())
        throw UsageError("sweep needs --servers N,N,...");
    if (parsed.command != "run" && !ncclTests && parsed.fabric)
        throw UsageError("--fabric is for run; use --fabrics with " + parsed.command);
    if (parsed.command != "sweep" && !ncclTests && !parsed.servers.empty())
        throw UsageError("--servers is for sweep and nccl-tests");
    if (ncclTests && !parsed.fabrics.empty())
        throw UsageError("nccl-tests takes --fabric ID");
    if (parsed.minBytes > parsed.maxBytes)
        throw UsageError("-b must not be larger than -e");
    return parsed;
}

} // namespace fabriclab::app

namespace fabriclab::app {

std::string bashCompletion(const std::vector<std::string>& fabricIds) {
    const auto joined = [](const std::vector<std::string>& words) {
        std::string text;
        for (const std::string& word : words)
            text += (text.empty() ? "" : " ") + word;
        return text;
    };
    std::vector<std::string> commands;
    for (const CommandSpec& command : commandSpecs())
        commands.emplace_back(command.name);
    std::string script =
        R"(# bash completion for fabriclab-cli, written by `fabriclab-cli completion`.
# Commands, each command's options, fabric ids and the values of the options that take a
# few words; design files (*.fabric.json) where a design goes.
_fabriclab_cli() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" opts=""
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W ")" +
        joined(commands) + R"( --help --version" -- "$cur"))
        return
    fi
    case "$prev" in
        --fabric) COMPREPLY=($(compgen -W ")" +
        joined(fabricIds) + R"(" -- "$cur")); return ;;
        --fabrics)
            local done="" last="$cur"
            [[ "$cur" == *,* ]] && done="${cur%,*}," && last="${cur##*,}"
            COMPREPLY=($(compgen -P "$done" -W ")" +
        joined(fabricIds) + R"(" -- "$last"))
            compopt -o nospace 2>/dev/null
            return ;;
        --format)
            if [[ "${COMP_WORDS[1]}" == import ]]; then
                COMPREPLY=($(compgen -W "ibnetdiscover slurm" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "dot slurm ibnetdiscover" -- "$cur"))
            fi
            return ;;
        --ownership) COMPREPLY=($(compgen -W "owned rented" -- "$cur")); return ;;
        --set) COMPREPLY=($(compgen -W "all fit check" -- "$cur")); return ;;
        --prices|--out|--figures|-J|--output_file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
    case "${COMP_WORDS[1]}" in
)";
    for (const CommandSpec& command : commandSpecs()) {
        std::vector<std::string> options;
        for (const OptionSpec& spec : optionSpecs())
            if (std::find(spec.commands.begin(), spec.commands.end(), command.name) !=
                spec.commands.end()) {
                std::string names = spec.names;
                std::replace(names.begin(), names.end(), ',', ' ');
                options.push_back(names);
            }
        options.emplace_back("--help");
        script +=
            std::string("        ") + command.name + ") opts=\"" + joined(options) + "\" ;;\n";
    }
    script += R"(    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [[ "${COMP_WORDS[1]}" == nccl-tests && "$cur" == *_* ]]; then
        COMPREPLY=($(compgen -W "all_reduce_perf all_gather_perf reduce_scatter_perf alltoall_perf broadcast_perf sendrecv_perf" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _fabriclab_cli fabriclab-cli
)";
    return script;
}

} // namespace fabriclab::app
