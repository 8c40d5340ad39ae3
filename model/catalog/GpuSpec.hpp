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
    double hbmTBps = 3.35;      ///< HBM bandwidth, TB/s (10^12 bytes per second)
    /// Shares of peak a training step's kernels reach on this GPU, for the step time worked
    /// out from the hardware when no MFU is given (model/workload/ComputeTime): matrix
    /// products at BF16 and at FP8, the attention core (flash attention, BF16), and HBM
    /// bandwidth for the memory-bound rest. Fitted on the step-time fit set; see gpus.json.
    double gemmEfficiencyBf16 = 0.7;
    double gemmEfficiencyFp8 = 0.6;
    double attentionEfficiency = 0.5;
    double memoryEfficiency = 0.8;
    /// Routed experts' matrix products (grouped, smaller, behind a token permutation and an
    /// uneven load) reach this share of the dense ones'.
    double expertEfficiency = 0.6;
    /// Serving (model/workload/ServingCompute): the share of HBM peak decode attention reaches
    /// reading the KV cache, pages scattered over it; and what a forward pass spends per
    /// layer beyond math and memory (a dozen kernels starting and draining), microseconds.
    double kvReadEfficiency = 0.8;
    double layerOverheadUs = 0;

    friend bool operator==(const GpuSpec&, const GpuSpec&) = default;
};

} // namespace fabriclab::model
