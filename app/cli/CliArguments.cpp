// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/cli/CliArguments.hpp"

#include "app/cli/SweepShards.hpp"
#include "model/design/CollectiveSpec.hpp"
#include "model/report/FabricExport.hpp"
#include "model/report/NcclTests.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
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
    if (!value || !std::isfinite(*value) || *value <= 0 || *value > 600)
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

/// nccl-tests flags that change how it measures, not what FabricLab simulates: accepted
/// with their value, as nccl-tests takes them.
bool isEchoOnlyFlag(const std::string& arg) {
    for (const char* flag :
         {"-z", "--blocking",         "-a", "--average",           "-C", "--report_cputime",
          "-p", "--parallel_init",    "-R", "--local_register",    "-T", "--timeout",
          "-N", "--run_cycles",       "-S", "--report_timestamps", "-M", "--memory",
          "-I", "--report_iterations"})
        if (arg == flag)
            return true;
    return false;
}

/// An nccl-tests flag echoed in the header (-t -g -w -n -m -c -G, short or long): the field
/// it sets and its least value.
struct EchoedFlag {
    int* field = nullptr;
    int least = 0;
};

EchoedFlag echoedFlag(const std::string& arg, model::NcclTestsOptions& o) {
    const struct {
        const char* shortName;
        const char* longName;
        int* field;
        int least;
    } flags[] = {
        {"-t", "--nthreads", &o.threads, 1},         {"-g", "--ngpus", &o.gpusPerThread, 1},
        {"-w", "--warmup_iters", &o.warmupIters, 0}, {"-n", "--iters", &o.iters, 1},
        {"-m", "--agg_iters", &o.aggIters, 1},       {"-c", "--check", &o.check, 0},
        {"-G", "--cudagraph", &o.graph, 0}};
    for (const auto& flag : flags)
        if (arg == flag.shortName || arg == flag.longName)
            return {flag.field, flag.least};
    return {};
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
  fabriclab-cli --help | --version

Options:
  --fabric ID        evaluate on this fabric instead of the design's own
  --fabrics ID,...   fabrics to compare (compare: required; sweep: default the design's)
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
  --json             machine-readable output: one object (run, validate, bom) or an array
                     (compare, sweep, nccl-tests: one object per size)
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
                     depends on them; -z -a -C -p -R -T -N -S -M -I are accepted alike
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

Exit status: 0 on success; 2 on bad input, with one line on stderr and nothing on stdout.
)";
}

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
    if (first != "run" && first != "compare" && first != "sweep" && first != "catalog" &&
        first != "nccl-tests" && first != "validate" && first != "bom" && first != "cabling" &&
        first != "export" && first != "report" && first != "import")
        throw UsageError("unknown command \"" + first +
                         "\" (expected run, compare, sweep, nccl-tests, validate, bom, cabling, "
                         "export, report, import or catalog)");
    const bool ncclTests = first == "nccl-tests";
    parsed.command = first;

    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size())
                throw UsageError(arg + " needs a value");
            return args[++i];
        };
        if (arg == "--help" || arg == "-h") {
            parsed.command = "help";
            return parsed;
        } else if (arg == "--json") {
            parsed.json = true;
        } else if (arg == "--format" && first == "import") {
            parsed.format = value();
            if (*parsed.format != "slurm" && *parsed.format != "ibnetdiscover")
                throw UsageError("--format: expected ibnetdiscover or slurm, got \"" +
                                 *parsed.format + "\"");
        } else if (arg == "--gpu" && first == "import") {
            parsed.gpu = value();
        } else if (arg == "--gpus-per-server" && first == "import") {
            parsed.gpusPerServer = parseCount(arg, value());
        } else if (arg == "--nics-per-server" && first == "import") {
            parsed.nicsPerServer = parseCount(arg, value());
        } else if (arg == "--name" && first == "import") {
            parsed.name = value();
        } else if (arg == "--format" && first == "export") {
            parsed.format = value();
            if (!model::exportFormatFromString(*parsed.format))
                throw UsageError("--format: expected dot, slurm or ibnetdiscover, got \"" +
                                 *parsed.format + "\"");
        } else if (arg == "--out" &&
                   (first == "export" || first == "report" || first == "import")) {
            parsed.out = value();
        } else if (arg == "--csv" &&
                   (first == "bom" || first == "cabling" || first == "run" || first == "compare" ||
                    first == "sweep" || first == "validate")) {
            parsed.csv = true;
        } else if (arg == "--shard" && first == "sweep") {
            parsed.shard = value();
            try {
                parseShard(*parsed.shard); // refused here, before any point runs
            } catch (const std::invalid_argument& e) {
                throw UsageError(e.what());
            }
        } else if (arg == "--set" && first == "validate") {
            parsed.figureSet = value();
            if (parsed.figureSet != "all" && parsed.figureSet != "fit" &&
                parsed.figureSet != "check")
                throw UsageError("--set: expected all, fit or check, got \"" + parsed.figureSet +
                                 "\"");
        } else if (arg == "--figures" && first == "validate") {
            parsed.figuresFile = value();
        } else if (arg == "--merge" && first == "sweep") {
            parsed.merge = true;
        } else if (arg == "--fabric") {
            parsed.fabric = value();
        } else if (arg == "--fabrics") {
            parsed.fabrics = splitList(arg, value());
        } else if (arg == "--servers" && ncclTests) {
            parsed.servers = {parseCount(arg, value())};
        } else if (arg == "--servers") {
            for (const auto& item : splitList(arg, value()))
                parsed.servers.push_back(parseCount(arg, item));
        } else if (first == "validate" && (arg == "-g" || arg == "--op")) {
            parsed.collective = parseOperation(arg, value());
            parsed.collectiveNamed = true;
        } else if (ncclTests && arg == "--op") {
            // The collective (all_gather_perf, all_gather), or, as nccl-tests' own --op, the
            // reduction (sum, prod, min, max, avg, mulsum, all).
            const std::string& text = value();
            if (isReduction(text)) {
                parsed.ncclTests.redop = text;
            } else {
                parsed.collective = parseOperation(arg, text);
                parsed.collectiveNamed = true;
            }
        } else if (ncclTests && (arg == "-o")) {
            parsed.ncclTests.redop = value();
            if (!isReduction(parsed.ncclTests.redop))
                throw UsageError("-o: expected sum, prod, min, max, avg, mulsum or all, got \"" +
                                 parsed.ncclTests.redop + "\"");
        } else if (ncclTests && (arg == "-d" || arg == "--datatype")) {
            parsed.ncclTests.dataType = value();
            if (!model::ncclTestsTypeBytes(parsed.ncclTests.dataType))
                throw UsageError(arg + ": unknown data type \"" + parsed.ncclTests.dataType +
                                 "\" (expected int8, uint8, int32, uint32, int64, uint64, half, "
                                 "float, double, bfloat16, fp8_e4m3 or fp8_e5m2)");
        } else if (ncclTests && (arg == "-r" || arg == "--root")) {
            parsed.ncclTests.root = parseWhole(arg, value(), 0);
        } else if (ncclTests && (arg == "-i" || arg == "--stepbytes")) {
            parsed.stepBytes = parseSize(arg, value());
        } else if (const EchoedFlag echoed =
                       ncclTests ? echoedFlag(arg, parsed.ncclTests) : EchoedFlag{};
                   echoed.field) {
            *echoed.field = parseWhole(arg, value(), echoed.least);
        } else if (ncclTests && isEchoOnlyFlag(arg)) {
            (void)parseWhole(arg, value(), 0); // no simulated figure depends on it
        } else if (ncclTests && (arg == "-J" || arg == "--output_file")) {
            parsed.outputFile = value();
            std::string suffix = parsed.outputFile->size() >= 5
                                     ? parsed.outputFile->substr(parsed.outputFile->size() - 5)
                                     : std::string();
            for (char& c : suffix)
                c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (suffix != ".json")
                throw UsageError(
                    arg + " " + *parsed.outputFile +
                    ": nccl-tests writes its JSON file only to a name ending in .json");
        } else if (ncclTests && arg == "--explain") {
            parsed.explain = true;
        } else if (ncclTests && (arg == "-b" || arg == "--minbytes")) {
            parsed.minBytes = parseSize(arg, value());
        } else if (ncclTests && (arg == "-e" || arg == "--maxbytes")) {
            parsed.maxBytes = parseSize(arg, value());
        } else if (ncclTests && (arg == "-f" || arg == "--stepfactor")) {
            parsed.stepFactor = parseFactor(arg, value());
        } else if (ncclTests && arg == "--algo") {
            parsed.algorithm = value();
        } else if (ncclTests && arg == "--proto") {
            parsed.protocol = value();
        } else if (arg == "--prices") {
            parsed.pricesFile = value();
        } else if (arg == "--ownership") {
            parsed.ownership = value();
            if (*parsed.ownership != "owned" && *parsed.ownership != "rented")
                throw UsageError("--ownership expects owned or rented, got \"" + *parsed.ownership +
                                 "\"");
        } else if (arg == "--months") {
            parsed.months = parseMonths(arg, value());
        } else if (arg == "--seed") {
            parsed.seed = parseSeed(arg, value());
        } else if (arg == "--train-tokens") {
            parsed.trainTokens = parseTokens(arg, value());
        } else if (arg.starts_with("-")) {
            throw UsageError("unknown option \"" + arg + "\"");
        } else if (parsed.merge) {
            parsed.files.push_back(arg);
        } else if (ncclTests && arg.ends_with("_perf")) {
            // The binary's name, as one types it: nccl-tests DESIGN all_gather_perf -b 8.
            parsed.collective = parseOperation("the test", arg);
            parsed.collectiveNamed = true;
        } else if (parsed.design.empty()) {
            parsed.design = arg;
        } else {
            throw UsageError("unexpected argument \"" + arg + "\" (one design per call)");
        }
    }

    if (parsed.merge) {
        // `sweep A --merge B C` names A before the flag: it is a shard file too.
        if (!parsed.design.empty())
            parsed.files.insert(parsed.files.begin(), parsed.design);
        parsed.design.clear();
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
