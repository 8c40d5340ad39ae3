// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <string_view>

// The JSON text of resources/catalog/*.json and resources/validation/*.json, compiled in by
// cmake/EmbedCatalogs.cmake. Each is put together on first use (the files are compiled in
// pieces, since compilers need not accept one literal of their size) and lives as long as
// the program.
namespace fabriclab::model::embedded {
std::string_view fabricsJson();
std::string_view gpusJson();
std::string_view modelsJson();
std::string_view pricesJson();
std::string_view publishedNcclTestsJson();
std::string_view publishedStepTimesJson();
std::string_view publishedServingJson();
std::string_view publishedArchitecturesJson();
std::string_view publishedBuildOutsJson();
} // namespace fabriclab::model::embedded
