// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/CollectiveContext.hpp"

#include <vector>

/// The collectives NCCL runs as grouped sends and receives, which its tuning model does not
/// cost: all-to-all and nccl-tests' sendrecv, simulated flow by flow. Engine-internal.
namespace fabriclab::sim::detail {

/// Every server to every other: one transfer per rail with PXN (the server's share moves
/// to the NIC of its rail first), else one per pair of GPUs from NIC to NIC.
std::vector<Transfer> allToAllTransfers(const Context& c, bool pxn, double bytes);

/// Flows an all-to-all's transfers make, direct or through PXN.
double allToAllFlows(const Context& c, bool pxn);

/// Flows sendRecv's transfers make between servers.
double sendRecvFlows(const Context& c);

/// Every rank sends bytes/n to every other rank, direct or through PXN.
CollectiveResult allToAll(const Context& group, double bytes, bool pxn);

/// Every rank sends `bytes` to the next rank and receives as much from the previous one.
CollectiveResult sendRecv(const Context& group, double bytes);

} // namespace fabriclab::sim::detail
