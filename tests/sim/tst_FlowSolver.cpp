// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Weighted max-min fair sharing (FlowSolver.hpp). Every case runs against both solvers:
// "heap" (the fast one) and "reference" (the slow, obviously right one). Hand-derived
// cases state their closed form in a comment; random instances check that the two solvers
// agree and that the answer is feasible and max-min fair.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers may pull in.
#ifndef Q_MOC_RUN
#include "model/sim/FlowSolver.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>
#endif

using namespace fabriclab::sim;

namespace {

// Rates come out of divisions and of capacities reduced by sums of frozen rates, so the
// two solvers (and a hand-derived value) can differ in the last few bits depending on the
// order of the floating-point summation. 1e-9 relative is far above that rounding and far
// below any real fairness error. Equal values always match, so an expected 0 or
// infinity must come out exactly.
constexpr double kRelTol = 1e-9;

bool fuzzyEqual(double actual, double expected) {
    if (actual == expected)
        return true;
    return std::abs(actual - expected) <= kRelTol * std::max(std::abs(actual), std::abs(expected));
}

#define COMPARE_REL(actual, expected)                                                              \
    QVERIFY2(fuzzyEqual((actual), (expected)), qPrintable(QStringLiteral("%1 = %2, expected %3")   \
                                                              .arg(QLatin1String(#actual))         \
                                                              .arg((actual), 0, 'g', 17)           \
                                                              .arg((expected), 0, 'g', 17)))

struct Use {
    int constraint;
    double consumption;
};

struct Flow {
    double bound = kUnbounded;
    double penalty = 1.0;
    double multiplicity = 1.0;
    std::vector<Use> uses;
};

/// A solver input plus the hand-derived answer: one rate per flow, one usage per constraint.
struct Instance {
    std::vector<double> capacities;
    std::vector<Flow> flows;
    std::vector<double> rates;
    std::vector<double> usages;
};

using Misuse = std::function<void(FlowSolver&)>;

const char* const kSolvers[] = {"heap", "reference"};

/// Adds one row per solver, named "<solver>: <name>".
template <class... Columns> void addRowForEachSolver(const char* name, const Columns&... columns) {
    for (const char* solver : kSolvers)
        (QTest::addRow("%s: %s", solver, name) << QByteArray(solver) << ... << columns);
}

std::vector<VariableId> load(FlowSolver& solver, const Instance& instance) {
    std::vector<ConstraintId> constraints;
    for (double capacity : instance.capacities)
        constraints.push_back(solver.addConstraint(capacity));
    std::vector<VariableId> variables;
    for (const Flow& flow : instance.flows) {
        const VariableId v = solver.addVariable(flow.bound, flow.penalty, flow.multiplicity);
        for (const Use& use : flow.uses)
            solver.expand(v, constraints[static_cast<std::size_t>(use.constraint)],
                          use.consumption);
        variables.push_back(v);
    }
    return variables;
}

/// Portable uniform draws: mt19937's output sequence is fixed by the standard, the
/// std::*_distribution mappings are not, so a failing seed reproduces everywhere.
class Draw {
public:
    explicit Draw(std::uint32_t seed) : m_engine(seed) {}
    /// Uniform in the open interval (0, 1).
    double unit() { return (static_cast<double>(m_engine()) + 0.5) / 4294967296.0; }
    /// Uniform in [lo, hi].
    int integer(int lo, int hi) {
        return lo + static_cast<int>(m_engine() % static_cast<std::uint32_t>(hi - lo + 1));
    }

private:
    std::mt19937 m_engine;
};

/// 40 constraints of capacity in (1, 100); 200 flows, each on 1-5 distinct constraints with
/// consumption in (0, 1), penalty in {1, 2, 3}, multiplicity in {1, 2, 3}, a bound in
/// (1, 10) half of the time (else none), and one flow in ten inactive. `plain` flows keep
/// the bounds but have consumption, penalty and multiplicity 1 and are all active: the
/// heap solver's plain-flow set-up.
struct RandomInstance {
    Instance instance;
    std::vector<char> active;
};

RandomInstance randomInstance(std::uint32_t seed, bool plain = false) {
    constexpr int kConstraints = 40;
    constexpr int kFlows = 200;
    Draw draw(seed);
    RandomInstance r;
    for (int c = 0; c < kConstraints; ++c)
        r.instance.capacities.push_back(1.0 + 99.0 * draw.unit());
    for (int f = 0; f < kFlows; ++f) {
        Flow flow;
        flow.penalty = draw.integer(1, 3);
        flow.multiplicity = draw.integer(1, 3);
        flow.bound = draw.unit() < 0.5 ? kUnbounded : 1.0 + 9.0 * draw.unit();
        const int uses = draw.integer(1, 5);
        std::vector<int> picked;
        while (static_cast<int>(picked.size()) < uses) {
            const int c = draw.integer(0, kConstraints - 1);
            if (std::find(picked.begin(), picked.end(), c) == picked.end())
                picked.push_back(c);
        }
        for (int c : picked)
            flow.uses.push_back({c, draw.unit()});
        const bool active = draw.unit() >= 0.1;
        if (plain) {
            flow.penalty = 1;
            flow.multiplicity = 1;
            for (Use& use : flow.uses)
                use.consumption = 1;
        }
        r.instance.flows.push_back(flow);
        r.active.push_back(plain || active);
    }
    return r;
}

} // namespace

Q_DECLARE_METATYPE(Instance)
Q_DECLARE_METATYPE(Misuse)

class tst_FlowSolver : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void handDerived_data();
    void handDerived();
    void inactiveAndResolve_data();
    void inactiveAndResolve();
    void randomCrossCheck_data();
    void randomCrossCheck();
    void plainFlowsLoadedInBulk_data();
    void plainFlowsLoadedInBulk();
    void refusedPathsAddNothing();
    void invalidArgument_data();
    void invalidArgument();
    void unknownSolverName();
};

void tst_FlowSolver::handDerived_data() {
    QTest::addColumn<QByteArray>("solver");
    QTest::addColumn<Instance>("instance");

    // One 100 link, two equal flows: x + x = 100 -> 50 each.
    addRowForEachSolver(
        "two flows on one 100G link",
        Instance{
            {100}, {{kUnbounded, 1, 1, {{0, 1}}}, {kUnbounded, 1, 1, {{0, 1}}}}, {50, 50}, {100}});

    // Penalties 1 and 2 share one level lambda = 1*x1 = 2*x2; x1 + x2 = 100
    // -> lambda (1 + 1/2) = 100 -> lambda = 200/3: x1 = 66.67, x2 = 33.33
    // [SimGrid maxmin_test.cpp].
    addRowForEachSolver("penalties 1 and 2 on one 100G link",
                        Instance{{100},
                                 {{kUnbounded, 1, 1, {{0, 1}}}, {kUnbounded, 2, 1, {{0, 1}}}},
                                 {200.0 / 3.0, 100.0 / 3.0},
                                 {100}});

    // The link's level is 50, the NIC bound 25 comes first: x1 = 25, then x2 takes the
    // remaining 100 - 25 = 75.
    addRowForEachSolver(
        "NIC bound 25 beside an unbounded flow on a 100G link",
        Instance{{100}, {{25, 1, 1, {{0, 1}}}, {kUnbounded, 1, 1, {{0, 1}}}}, {25, 75}, {100}});

    // Parking lot: links 0-1-2 of capacity 1, flow 0 over all three, flow i+1 on link i.
    // Every link carries two flows and saturates at the same level 1/2 -> all 0.5.
    addRowForEachSolver("parking lot, capacities 1 1 1",
                        Instance{{1, 1, 1},
                                 {{kUnbounded, 1, 1, {{0, 1}, {1, 1}, {2, 1}}},
                                  {kUnbounded, 1, 1, {{0, 1}}},
                                  {kUnbounded, 1, 1, {{1, 1}}},
                                  {kUnbounded, 1, 1, {{2, 1}}}},
                                 {0.5, 0.5, 0.5, 0.5},
                                 {1, 1, 1}});

    // Same shape, capacities 1, 2, 3: link levels 1/2, 2/2, 3/2, so link 0 saturates first
    // and freezes the long flow and its short flow at 0.5. The short flows on links 1 and
    // 2 then take what is left: 2 - 0.5 = 1.5 and 3 - 0.5 = 2.5.
    addRowForEachSolver("parking lot, capacities 1 2 3",
                        Instance{{1, 2, 3},
                                 {{kUnbounded, 1, 1, {{0, 1}, {1, 1}, {2, 1}}},
                                  {kUnbounded, 1, 1, {{0, 1}}},
                                  {kUnbounded, 1, 1, {{1, 1}}},
                                  {kUnbounded, 1, 1, {{2, 1}}}},
                                 {0.5, 0.5, 1.5, 2.5},
                                 {1, 2, 3}});

    // Flow x sprayed over two parallel 100 links (a = 1/2 on each), flow y on link 0 only.
    // Both grow at level lambda: link 0 uses 0.5 lambda + lambda = 1.5 lambda, link 1 uses
    // 0.5 lambda. Link 0 saturates first at lambda = 100 / 1.5 = 66.67, freezing both;
    // link 1 then carries 0.5 x 66.67 = 33.33.
    addRowForEachSolver(
        "flow sprayed over two links beside a single-path flow",
        Instance{{100, 100},
                 {{kUnbounded, 1, 1, {{0, 0.5}, {1, 0.5}}}, {kUnbounded, 1, 1, {{0, 1}}}},
                 {200.0 / 3.0, 200.0 / 3.0},
                 {100, 100.0 / 3.0}});

    // A class of 3 identical flows (multiplicity 3) and one other flow on a 90 link: 4
    // flows, 3x + x = 90 -> each gets 22.5 (rate() is per flow of the class).
    addRowForEachSolver("class of 3 flows beside one flow on a 90G link",
                        Instance{{90},
                                 {{kUnbounded, 1, 3, {{0, 1}}}, {kUnbounded, 1, 1, {{0, 1}}}},
                                 {22.5, 22.5},
                                 {90}});

    // Link 0 has capacity 0, link 1 capacity 100. Flow 0 on link 0, flow 1 on both, flow 2
    // on link 1. Link 0's level is 0, so flows 0 and 1 stop at 0; flow 2 is alone on link
    // 1 with all 100.
    addRowForEachSolver("zero-capacity link", Instance{{0, 100},
                                                       {{kUnbounded, 1, 1, {{0, 1}}},
                                                        {kUnbounded, 1, 1, {{0, 1}, {1, 1}}},
                                                        {kUnbounded, 1, 1, {{1, 1}}}},
                                                       {0, 0, 100},
                                                       {0, 100}});

    // Nothing limits a flow with no constraint and no bound.
    addRowForEachSolver("no constraint, no bound",
                        Instance{{}, {{kUnbounded, 1, 1, {}}}, {kUnbounded}, {}});

    // With no constraint, only the bound limits: x = 40 (penalty does not matter).
    addRowForEachSolver("no constraint, bound 40", Instance{{}, {{40, 2, 1, {}}}, {40}, {}});
}

void tst_FlowSolver::handDerived() {
    QFETCH(QByteArray, solver);
    QFETCH(Instance, instance);

    const auto s = makeSolver(solver.toStdString());
    const std::vector<VariableId> variables = load(*s, instance);
    s->solve();

    QCOMPARE(variables.size(), instance.rates.size());
    for (std::size_t v = 0; v < variables.size(); ++v)
        COMPARE_REL(s->rate(variables[v]), instance.rates[v]);
    QCOMPARE(s->constraintCount(), instance.usages.size());
    for (std::size_t c = 0; c < instance.usages.size(); ++c)
        COMPARE_REL(s->usage(ConstraintId{static_cast<std::uint32_t>(c)}), instance.usages[c]);
}

void tst_FlowSolver::inactiveAndResolve_data() {
    QTest::addColumn<QByteArray>("solver");
    addRowForEachSolver("two flows on one 100G link");
}

void tst_FlowSolver::inactiveAndResolve() {
    QFETCH(QByteArray, solver);

    const auto s = makeSolver(solver.toStdString());
    const ConstraintId link = s->addConstraint(100);
    const VariableId a = s->addVariable();
    const VariableId b = s->addVariable();
    s->expand(a, link);
    s->expand(b, link);

    // Both active: 50 / 50.
    s->solve();
    COMPARE_REL(s->rate(a), 50.0);
    COMPARE_REL(s->rate(b), 50.0);

    // b out: it takes no share and reports 0; a alone gets all 100.
    s->setActive(b, false);
    s->solve();
    COMPARE_REL(s->rate(a), 100.0);
    QCOMPARE(s->rate(b), 0.0);
    COMPARE_REL(s->usage(link), 100.0);

    // b back in, expansion kept: 50 / 50 again.
    s->setActive(b, true);
    s->solve();
    COMPARE_REL(s->rate(a), 50.0);
    COMPARE_REL(s->rate(b), 50.0);

    // A second solve with nothing changed returns the very same numbers.
    const double rateA = s->rate(a);
    const double rateB = s->rate(b);
    s->solve();
    QCOMPARE(s->rate(a), rateA);
    QCOMPARE(s->rate(b), rateB);

    // ... but a change is picked up: capacity 200 -> 100 / 100; then bound b at 30 -> a 170.
    s->setCapacity(link, 200);
    s->solve();
    COMPARE_REL(s->rate(a), 100.0);
    COMPARE_REL(s->rate(b), 100.0);
    s->setBound(b, 30);
    s->solve();
    COMPARE_REL(s->rate(a), 170.0);
    COMPARE_REL(s->rate(b), 30.0);
}

void tst_FlowSolver::randomCrossCheck_data() {
    QTest::addColumn<std::uint32_t>("seed");
    QTest::addColumn<bool>("plain");
    for (std::uint32_t seed = 1; seed <= 30; ++seed) {
        QTest::addRow("seed %u", seed) << seed << false;
        QTest::addRow("plain flows, seed %u", seed) << seed << true;
    }
}

void tst_FlowSolver::randomCrossCheck() {
    QFETCH(std::uint32_t, seed);
    QFETCH(bool, plain);
    const RandomInstance r = randomInstance(seed, plain);
    const Instance& instance = r.instance;

    const auto heap = makeSolver("heap");
    const auto reference = makeSolver("reference");
    const std::vector<VariableId> variables = load(*heap, instance);
    load(*reference, instance);
    for (std::size_t v = 0; v < variables.size(); ++v) {
        heap->setActive(variables[v], r.active[v]);
        reference->setActive(variables[v], r.active[v]);
    }
    heap->solve();
    reference->solve();

    // The two solvers agree.
    for (std::size_t v = 0; v < variables.size(); ++v)
        QVERIFY2(fuzzyEqual(heap->rate(variables[v]), reference->rate(variables[v])),
                 qPrintable(QStringLiteral("flow %1: heap %2, reference %3")
                                .arg(v)
                                .arg(heap->rate(variables[v]), 0, 'g', 17)
                                .arg(reference->rate(variables[v]), 0, 'g', 17)));

    // Each answer is feasible and max-min fair, checked from the instance, not the solver.
    for (const FlowSolver* s : {heap.get(), reference.get()}) {
        const std::size_t constraints = instance.capacities.size();
        std::vector<double> usage(constraints, 0.0);
        std::vector<double> topLevel(constraints, 0.0); // largest x * p among active flows
        for (std::size_t v = 0; v < variables.size(); ++v) {
            const Flow& flow = instance.flows[v];
            const double x = s->rate(variables[v]);
            if (!r.active[v]) {
                QCOMPARE(x, 0.0);
                continue;
            }
            QVERIFY2(x >= 0 && x <= flow.bound * (1 + kRelTol),
                     qPrintable(QStringLiteral("flow %1: rate %2 outside [0, bound %3]")
                                    .arg(v)
                                    .arg(x, 0, 'g', 17)
                                    .arg(flow.bound, 0, 'g', 17)));
            for (const Use& use : flow.uses) {
                const auto c = static_cast<std::size_t>(use.constraint);
                usage[c] += flow.multiplicity * use.consumption * x;
                topLevel[c] = std::max(topLevel[c], x * flow.penalty);
            }
        }
        for (std::size_t c = 0; c < constraints; ++c) {
            QVERIFY2(usage[c] <= instance.capacities[c] * (1 + kRelTol),
                     qPrintable(QStringLiteral("constraint %1: usage %2 > capacity %3")
                                    .arg(c)
                                    .arg(usage[c], 0, 'g', 17)
                                    .arg(instance.capacities[c], 0, 'g', 17)));
            COMPARE_REL(s->usage(ConstraintId{static_cast<std::uint32_t>(c)}), usage[c]);
        }

        // Every active flow is at its bound, or crosses a saturated constraint on which its
        // penalty-weighted rate is the largest. Count both kinds so the check is not vacuous.
        int atBound = 0;
        int atConstraint = 0;
        for (std::size_t v = 0; v < variables.size(); ++v) {
            if (!r.active[v])
                continue;
            const Flow& flow = instance.flows[v];
            const double x = s->rate(variables[v]);
            if (x >= flow.bound * (1 - kRelTol)) {
                ++atBound;
                continue;
            }
            const bool limited =
                std::any_of(flow.uses.begin(), flow.uses.end(), [&](const Use& use) {
                    const auto c = static_cast<std::size_t>(use.constraint);
                    return usage[c] >= instance.capacities[c] * (1 - kRelTol) &&
                           x * flow.penalty >= topLevel[c] * (1 - kRelTol);
                });
            QVERIFY2(limited, qPrintable(QStringLiteral("flow %1 (rate %2) is limited by nothing")
                                             .arg(v)
                                             .arg(x, 0, 'g', 17)));
            ++atConstraint;
        }
        QVERIFY(atBound > 0);
        QVERIFY(atConstraint > 0);
    }
}

void tst_FlowSolver::plainFlowsLoadedInBulk_data() {
    QTest::addColumn<std::uint32_t>("seed");
    for (std::uint32_t seed = 1; seed <= 10; ++seed)
        QTest::addRow("seed %u", seed) << seed;
}

// The heap solver has two set-ups, one for plain flows and one for everything else, and
// plain flows can be loaded one call per element or all at once. All four must give the
// very same bits: the plain set-up is a shortcut, not a different model.
void tst_FlowSolver::plainFlowsLoadedInBulk() {
    QFETCH(std::uint32_t, seed);
    const Instance instance = randomInstance(seed, true).instance;

    const auto oneByOne = makeSolver("heap");
    const std::vector<VariableId> variables = load(*oneByOne, instance);
    oneByOne->solve();

    const auto inBulk = makeSolver("heap");
    inBulk->addConstraints(instance.capacities);
    std::vector<std::uint32_t> offsets{0};
    std::vector<std::uint32_t> constraints;
    for (const Flow& flow : instance.flows) {
        for (const Use& use : flow.uses)
            constraints.push_back(static_cast<std::uint32_t>(use.constraint));
        offsets.push_back(static_cast<std::uint32_t>(constraints.size()));
    }
    QCOMPARE(inBulk->addPaths(offsets, constraints).value, 0u);
    QCOMPARE(inBulk->variableCount(), instance.flows.size());
    for (std::size_t v = 0; v < instance.flows.size(); ++v)
        inBulk->setBound(variables[v], instance.flows[v].bound);
    inBulk->solve();

    // One switched-off flow with no elements sends the rest down the general set-up.
    const auto general = makeSolver("heap");
    load(*general, instance);
    general->setActive(general->addVariable(), false);
    general->solve();

    int limited = 0;
    for (std::size_t v = 0; v < variables.size(); ++v) {
        QCOMPARE(inBulk->rate(variables[v]), oneByOne->rate(variables[v]));
        QCOMPARE(general->rate(variables[v]), oneByOne->rate(variables[v]));
        limited += oneByOne->rate(variables[v]) < instance.flows[v].bound ? 1 : 0;
    }
    QVERIFY(limited > 0); // some flow is held by a shared constraint, not only its bound
}

void tst_FlowSolver::refusedPathsAddNothing() {
    for (const char* name : kSolvers) {
        const auto s = makeSolver(name);
        s->addConstraints(std::vector<double>{10, 20});
        const std::vector<std::uint32_t> backwards{0, 2, 1};
        const std::vector<std::uint32_t> two{0, 1};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s->addPaths(backwards, two));
        const std::vector<std::uint32_t> tooShort{0, 1};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s->addPaths(tooShort, two));
        const std::vector<std::uint32_t> whole{0, 2};
        const std::vector<std::uint32_t> unknown{1, 2};
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, s->addPaths(whole, unknown));
        QCOMPARE(s->variableCount(), std::size_t{0});
        // The same flow accepted: it shares 10 with nobody.
        s->addPaths(whole, two);
        s->solve();
        QCOMPARE(s->rate(VariableId{0}), 10.0);
    }
}

void tst_FlowSolver::invalidArgument_data() {
    QTest::addColumn<QByteArray>("solver");
    QTest::addColumn<Misuse>("misuse");

    addRowForEachSolver("negative capacity", Misuse([](FlowSolver& s) { s.addConstraint(-1); }));
    addRowForEachSolver("NaN capacity", Misuse([](FlowSolver& s) {
                            s.addConstraint(std::numeric_limits<double>::quiet_NaN());
                        }));
    addRowForEachSolver("setCapacity negative",
                        Misuse([](FlowSolver& s) { s.setCapacity(s.addConstraint(1), -1); }));
    addRowForEachSolver("penalty 0", Misuse([](FlowSolver& s) { s.addVariable(kUnbounded, 0); }));
    addRowForEachSolver("multiplicity 0",
                        Misuse([](FlowSolver& s) { s.addVariable(kUnbounded, 1, 0); }));
    addRowForEachSolver("negative bound", Misuse([](FlowSolver& s) { s.addVariable(-1); }));
    addRowForEachSolver("expand with consumption 0", Misuse([](FlowSolver& s) {
                            s.expand(s.addVariable(), s.addConstraint(1), 0);
                        }));
    addRowForEachSolver("expand with negative consumption", Misuse([](FlowSolver& s) {
                            s.expand(s.addVariable(), s.addConstraint(1), -0.5);
                        }));
}

void tst_FlowSolver::invalidArgument() {
    QFETCH(QByteArray, solver);
    QFETCH(Misuse, misuse);

    const auto s = makeSolver(solver.toStdString());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, misuse(*s));
}

void tst_FlowSolver::unknownSolverName() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeSolver("nope"));
}

QTEST_APPLESS_MAIN(tst_FlowSolver)
#include "tst_FlowSolver.moc"
