// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/validation/PublishedArchitectures.hpp"

#include "model/catalog/EmbeddedCatalogs.hpp"
#include "model/validation/FigureFile.hpp"

namespace fabriclab::model {

namespace {

constexpr const char* kOrigin = "published reference architectures";
constexpr long long kMaxCount = 10'000'000;

ArchitectureFigure readArchitecture(const JsonCursor& c) {
    c.allowOnly({"id", "set", "source", "reliability", "note", "generator", "published"});
    ArchitectureFigure f;
    f.id = c["id"].string();
    if (c["set"].string() != "check")
        c["set"].fail("every reference architecture is a check");
    f.source = figures::requiredSource(c);
    f.reliability = c.has("reliability") ? c["reliability"].string() : std::string();
    f.note = c.has("note") ? c["note"].string() : std::string();
    const JsonCursor generator = c["generator"];
    if (!generator.isObject())
        generator.fail("expected the design file's generator object");
    f.generator = generator.value();
    const JsonCursor p = c["published"];
    p.allowOnly({"leaf", "spine", "core", "nodeLeafCables", "leafSpineCables", "spineCoreCables"});
    f.switches.leaf = static_cast<int>(p["leaf"].integer(0, kMaxCount));
    f.switches.spine = static_cast<int>(p["spine"].integer(0, kMaxCount));
    f.switches.core = static_cast<int>(p["core"].integer(0, kMaxCount));
    f.cables.server = p["nodeLeafCables"].integer(0, kMaxCount);
    f.cables.leafSpine = p["leafSpineCables"].integer(0, kMaxCount);
    f.cables.spineCore = p["spineCoreCables"].integer(0, kMaxCount);
    return f;
}

} // namespace

std::vector<ArchitectureFigure> readArchitectureFigures(std::string_view json) {
    return figures::readCases<ArchitectureFigure>(json, kOrigin, readArchitecture);
}

const std::vector<ArchitectureFigure>& builtinArchitectureFigures() {
    static const std::vector<ArchitectureFigure> figures =
        readArchitectureFigures(embedded::publishedArchitecturesJson());
    return figures;
}

ArchitectureCheck checkArchitectureFigure(const ArchitectureFigure& f, const Catalog& catalog) {
    const double speed = f.generator.value("nicGbps", 400.0);
    const Design design =
        figures::generatedDesign(f.id, speed >= 800 ? "ib-xdr" : "ib-ndr", f.generator, catalog);
    ArchitectureCheck check;
    check.switches = design.topology.switchCounts();
    check.cables = design.topology.cableCounts();
    check.exact =
        check.switches.leaf == f.switches.leaf && check.switches.spine == f.switches.spine &&
        check.switches.core == f.switches.core && check.cables.server == f.cables.server &&
        check.cables.leafSpine == f.cables.leafSpine &&
        check.cables.spineCore == f.cables.spineCore && check.cables.other == 0;
    return check;
}

} // namespace fabriclab::model
