// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace fabriclab::model {

/// The GPU generation NCCL keys its tuning constants by (Volta SM70, Ampere SM80, Hopper
/// SM90, Blackwell SM100).
enum class GpuArchitecture { Volta, Ampere, Hopper, Blackwell };

std::string_view toString(GpuArchitecture architecture);
std::optional<GpuArchitecture> gpuArchitectureFromString(std::string_view text);

/// Compute and scale-up figures of one accelerator.
struct GpuSpec {
    std::string id;
    std::string name;
    double bf16Tflops = 0; ///< dense peak
    double fp8Tflops = 0;  ///< dense peak
    double hbmGB = 0;
    double scaleUpGBps = 0; ///< scale-up bandwidth per GPU per direction, GB/s
    int scaleUpDomain = 8;  ///< GPUs per scale-up domain
    /// Share of the scale-up line rate NCCL's topology counts (20.6 of 25 GB/s per NVLink 4
    /// link): the per-GPU scale-up bandwidth its channel search works with.
    double scaleUpEfficiency = 0.82;
    double scaleUpStepLatencyUs = 1.25; ///< per collective step inside the domain
    double defaultMfuBf16 = 0.4;
    double defaultMfuFp8 = 0.3;
    double powerWatts = 0;
    GpuArchitecture architecture = GpuArchitecture::Hopper;
    bool nvSwitch = true; ///< GPUs of a server meet in an NVSwitch (not a point-to-point mesh)
    bool nvlsMulticast = false; ///< NVSwitch multicast: NCCL's NVLS and NVLS-tree algorithms
    double pcieGBps = 48;       ///< GPU and NIC PCIe link as NCCL counts it (Gen5 x16 = 48)

    friend bool operator==(const GpuSpec&, const GpuSpec&) = default;
};

} // namespace fabriclab::model
