// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace fabriclab::model {

/// Compute and scale-up figures of one accelerator.
struct GpuSpec {
    std::string id;
    std::string name;
    double bf16Tflops = 0; ///< dense peak
    double fp8Tflops = 0;  ///< dense peak
    double hbmGB = 0;
    double scaleUpGBps = 0;             ///< scale-up bandwidth per GPU per direction, GB/s
    int scaleUpDomain = 8;              ///< GPUs per scale-up domain
    double scaleUpEfficiency = 0.82;    ///< share of scale-up bandwidth collectives reach
    double scaleUpStepLatencyUs = 1.25; ///< per collective step inside the domain
    double defaultMfuBf16 = 0.4;
    double defaultMfuFp8 = 0.3;
    double powerWatts = 0;

    friend bool operator==(const GpuSpec&, const GpuSpec&) = default;
};

} // namespace fabriclab::model
