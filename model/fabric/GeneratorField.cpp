// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/fabric/GeneratorField.hpp"

#include <cmath>
#include <string>

namespace fabriclab::model {
namespace {

template <class... Ts> struct Overloaded : Ts... { using Ts::operator()...; };
// Clang 14 (the fuzz preset's compiler) deduces an aggregate's template arguments only
// with a guide.
template <class... Ts> Overloaded(Ts...) -> Overloaded<Ts...>;

} // namespace

std::optional<double> GeneratorField::get(const GeneratorParams& params) const {
    return std::visit(
        Overloaded{
            [&](std::monostate) -> std::optional<double> {
                const auto found = params.extra.find(key);
                return found != params.extra.end() ? std::optional(found->second)
                       : whenAbsent.empty()        ? std::optional(fallback)
                                                   : std::nullopt;
            },
            [&](int GeneratorParams::*m) -> std::optional<double> { return params.*m; },
            [&](double GeneratorParams::*m) -> std::optional<double> { return params.*m; },
            [&](bool GeneratorParams::*m) -> std::optional<double> { return params.*m ? 1 : 0; },
            [&](Gbps GeneratorParams::*m) -> std::optional<double> { return (params.*m).value; },
            [&](std::optional<int> GeneratorParams::*m) -> std::optional<double> {
                return params.*m ? std::optional<double>(*(params.*m)) : std::nullopt;
            },
        },
        member);
}

void GeneratorField::set(GeneratorParams& params, std::optional<double> value) const {
    // Whole-number fields take whole numbers: callers pass what a spin box or the design
    // reader's integer check produced.
    const auto whole = [](double v) { return static_cast<int>(std::lround(v)); };
    std::visit(Overloaded{
                   [&](std::monostate) {
                       if (value)
                           params.extra.insert_or_assign(std::string(key), *value);
                       else
                           params.extra.erase(std::string(key));
                   },
                   [&](int GeneratorParams::*m) { params.*m = whole(value.value_or(0)); },
                   [&](double GeneratorParams::*m) { params.*m = value.value_or(0); },
                   [&](bool GeneratorParams::*m) { params.*m = value.value_or(0) != 0; },
                   [&](Gbps GeneratorParams::*m) { params.*m = Gbps(value.value_or(0)); },
                   [&](std::optional<int> GeneratorParams::*m) {
                       params.*m = value ? std::optional<int>(whole(*value)) : std::nullopt;
                   },
               },
               member);
}

} // namespace fabriclab::model
