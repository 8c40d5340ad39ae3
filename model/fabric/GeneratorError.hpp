// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <stdexcept>
#include <string>

namespace fabriclab::model {

/// A generator request that cannot be built. `field` names the parameter at fault
/// ("leafRadix") or is empty when the request as a whole exceeds a limit; the message
/// says which limit and by how much.
class GeneratorError : public std::invalid_argument {
public:
    GeneratorError(std::string field, const std::string& message)
        : std::invalid_argument(message), m_field(std::move(field)) {}
    const std::string& field() const { return m_field; }

private:
    std::string m_field;
};

} // namespace fabriclab::model
