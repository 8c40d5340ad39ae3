// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/fabric/GeneratorParams.hpp"

#include <optional>
#include <string_view>
#include <variant>

namespace fabriclab::model {

/// One parameter a generator kind asks for, as every reader of it names it: the design
/// file's key (also the dialog widget's name and GeneratorError::field()), the dialog's
/// label and help, its type and floor. A kind lists its fields on its registry entry
/// (Generators.hpp); the design reader and writer and the Generate dialog loop over them.
/// The floors are wide on purpose: the generator, not a clamping spin box, says what the
/// real limit is.
struct GeneratorField {
    enum class Type {
        Count, ///< a whole number
        Speed, ///< Gb/s
        Ratio, ///< downlink : uplink bandwidth
        Flag,  ///< yes or no
    };
    /// Where the value lives: a member of the shared Clos vocabulary, or (monostate) the
    /// request's `extra` map under `key`, for a kind's own parameters.
    using Member = std::variant<std::monostate, int GeneratorParams::*, double GeneratorParams::*,
                                bool GeneratorParams::*, Gbps GeneratorParams::*,
                                std::optional<int> GeneratorParams::*>;

    std::string_view key{};
    std::string_view label{};
    std::string_view help{};
    Type type = Type::Count;
    Member member{};
    double minimum = 1;
    /// A file must state it.
    bool required = false;
    /// For a field that may be left out: what leaving it out means (shown by the dialog
    /// at the value 0). Empty: the field always has a value.
    std::string_view whenAbsent{};
    /// The value of an `extra` field the file leaves out.
    double fallback = 0;

    /// The field's value in a request; nullopt when an optional field is absent.
    std::optional<double> get(const GeneratorParams& params) const;
    /// Sets the field; nullopt clears an optional field.
    void set(GeneratorParams& params, std::optional<double> value) const;
    /// A kind's own parameter, kept in `extra`. A request read from a file or the dialog
    /// holds each of its kind's own fields (stated, or at the fallback) and no other kind's,
    /// so two requests for the same fabric compare equal however they were made.
    bool ownedByKind() const { return std::holds_alternative<std::monostate>(member); }
};

/// The fields the Clos kinds share, defined once (GeneratorParams names each).
namespace generator_fields {

inline constexpr GeneratorField kServers{
    .key = "servers",
    .label = "Servers",
    .help = "How many servers the fabric connects.",
    .type = GeneratorField::Type::Count,
    .member = &GeneratorParams::servers,
    .required = true,
};
inline constexpr GeneratorField kGpusPerServer{
    .key = "gpusPerServer",
    .label = "GPUs per server",
    .help = "GPUs in each server's scale-up domain.",
    .type = GeneratorField::Type::Count,
    .member = &GeneratorParams::gpusPerServer,
};
inline constexpr GeneratorField kNicsPerServer{
    .key = "nicsPerServer",
    .label = "NICs per server",
    .help = "Scale-out NICs (and cables) per server.",
    .type = GeneratorField::Type::Count,
    .member = &GeneratorParams::nicsPerServer,
};
inline constexpr GeneratorField kNicGbps{
    .key = "nicGbps",
    .label = "NIC speed",
    .help = "Line rate of each NIC and of the switch ports; unstated: the fabric's port speed.",
    .type = GeneratorField::Type::Speed,
    .member = &GeneratorParams::nicSpeed,
};
inline constexpr GeneratorField kRailOptimized{
    .key = "railOptimized",
    .label = "Rail-optimized",
    .help = "NIC r of every server on rail leaf r",
    .type = GeneratorField::Type::Flag,
    .member = &GeneratorParams::railOptimized,
};
inline constexpr GeneratorField kLeafRadix{
    .key = "leafRadix",
    .label = "Leaf radix",
    .help = "Ports per leaf switch; unstated: what the fabric's leaf offers at the NIC speed.",
    .type = GeneratorField::Type::Count,
    .member = &GeneratorParams::leafRadix,
};
inline constexpr GeneratorField kSpineRadix{
    .key = "spineRadix",
    .label = "Spine radix",
    .help = "Ports per spine switch; unstated: what the fabric's spine offers at the NIC speed.",
    .type = GeneratorField::Type::Count,
    .member = &GeneratorParams::spineRadix,
};
inline constexpr GeneratorField kCoreRadix{
    .key = "coreRadix",
    .label = "Core radix",
    .help = "Fat tree only: ports per core switch; unstated: the spine radix when that is stated, "
            "else what the fabric's core offers.",
    .type = GeneratorField::Type::Count,
    .member = &GeneratorParams::coreRadix,
};
inline constexpr GeneratorField kOversubscription{
    .key = "oversubscription",
    .label = "Oversubscription",
    .help = "Leaf downlink : uplink bandwidth; 2:1 halves the spine tier.",
    .type = GeneratorField::Type::Ratio,
    .member = &GeneratorParams::oversubscription,
    .minimum = 0.01,
};
inline constexpr GeneratorField kSpineOversubscription{
    .key = "spineOversubscription",
    .label = "Spine oversubscription",
    .help = "Fat tree only: spine downlink : uplink bandwidth.",
    .type = GeneratorField::Type::Ratio,
    .member = &GeneratorParams::spineOversubscription,
    .minimum = 0.01,
};
inline constexpr GeneratorField kServersPerPod{
    .key = "serversPerPod",
    .label = "Servers per pod",
    .help = "Fat tree only: servers under one pod's spines.",
    .type = GeneratorField::Type::Count,
    .member = &GeneratorParams::serversPerPod,
    .whenAbsent = "Largest that fits",
};
inline constexpr GeneratorField kPlanes{
    .key = "planes",
    .label = "Planes",
    .help = "Rail-optimized leaf-spine or fat-tree: independent fabrics, each with switches "
            "of its own above the leaves for an equal group of rails (8 planes on 8 rails: "
            "one plane per NIC, as DeepSeek's multi-plane fat-tree). Traffic crosses planes "
            "only inside a server, over NVLink.",
    .type = GeneratorField::Type::Count,
    .member = &GeneratorParams::planes,
    .whenAbsent = "Fewest that fit",
};
inline constexpr GeneratorField kPortsPerNic{
    .key = "portsPerNic",
    .label = "Ports per NIC",
    .help = "Multiplane NICs: each NIC's ports go to planes of their own at the NIC speed "
            "divided by the ports (an 800G ConnectX-8 as 4 planes of 200G), every plane "
            "holding every rail; a flow is sprayed evenly over the planes. Switch radixes "
            "count ports at that lower speed.",
    .type = GeneratorField::Type::Count,
    .member = &GeneratorParams::portsPerNic,
    .whenAbsent = "One port per NIC",
};

} // namespace generator_fields
} // namespace fabriclab::model
