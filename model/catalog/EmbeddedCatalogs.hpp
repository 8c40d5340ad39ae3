// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

// The JSON text of resources/catalog/*.json and resources/validation/*.json,
// compiled in by cmake/EmbedCatalogs.cmake.
namespace fabriclab::model::embedded {
extern const char* const fabricsJson;
extern const char* const gpusJson;
extern const char* const modelsJson;
extern const char* const pricesJson;
extern const char* const publishedNcclTestsJson;
extern const char* const publishedStepTimesJson;
extern const char* const publishedArchitecturesJson;
} // namespace fabriclab::model::embedded
