#!/usr/bin/env bash
# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
#
# FabricLab's one entry point for people and CI:
#   scripts/dev.sh run [DESIGN]   install what is missing, build, open the design in the app
#   scripts/dev.sh cli [DESIGN]   the same, but print fabriclab-cli's report instead
#   scripts/dev.sh test           install what is missing, build, run every test suite; then
#                                 the whole suite again under ASan + UBSan, and each fuzzer
#                                 for a minute (FABRICLAB_FUZZ_SECONDS)
#   scripts/dev.sh quick          only the first part of test: the optimised build's suites
#   scripts/dev.sh fuzz [SECONDS] build the libFuzzer targets and run each SECONDS (60)
# Safe to repeat: packages already present are skipped and the build is incremental.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian 12 packages the build, the tests and the GUI need.
PACKAGES=(build-essential cmake ninja-build pkg-config dpkg-dev file
          qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev libgl-dev
          libboost-graph-dev nlohmann-json3-dev libcli11-dev libjemalloc-dev
          libsimgrid-dev libbenchmark-dev
          xvfb xauth fonts-dejavu-core poppler-utils python3 python3-jsonschema desktop-file-utils
          clang libclang-rt-14-dev)
PRESET=ci
SAMPLE=samples/spectrum-x-1024gpu-rail.fabric.json

install_missing() {
    local missing=() package
    for package in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$package")
    done
    ((${#missing[@]} == 0)) && return 0
    echo "FabricLab: installing ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
    # Configure once; after that CMake re-configures itself when a CMakeLists changes.
    [ -f "build/$PRESET/build.ninja" ] || cmake --preset "$PRESET"
    cmake --build --preset "$PRESET" "$@"
}

# Each libFuzzer target with the seeds it starts from (fuzz/corpus/KIND, plus the samples
# for designs) for $1 seconds. New inputs go to build/fuzz/corpus/TARGET, so later runs
# start where earlier ones stopped; a crash lands in build/fuzz/crashes/TARGET/ and fails
# the run: turn it into a regression test.
# The built-in catalogs as FuzzCatalogReader seeds: a byte choosing the document
# (0 fabrics, 1 GPUs, 2 models, 3 prices), then the document, made from resources/ each
# run so the seeds follow the catalogs. Prints the folder.
builtin_catalog_seeds() {
    local folder=build/fuzz/seeds/catalog index=0 name
    mkdir -p "$folder"
    for name in fabrics gpus models prices; do
        { printf "\\$(printf '%03o' "$index")"; cat "resources/catalog/$name.json"; } \
            > "$folder/builtin-$name"
        index=$((index + 1))
    done
    echo "$folder"
}

# The shipped figure files as FuzzFiguresReader seeds: a byte choosing the kind (0 nccl-tests,
# 1 step times, 2 reference architectures), then the file. Prints the folder.
builtin_figure_seeds() {
    local folder=build/fuzz/seeds/figures index=0 name
    mkdir -p "$folder"
    for name in nccl-tests step-time reference-architectures; do
        { printf "\\$(printf '%03o' "$index")"; cat "resources/validation/$name.json"; } \
            > "$folder/builtin-$name"
        index=$((index + 1))
    done
    echo "$folder"
}

run_fuzzers() {
    local seconds=$1 target kind seeds
    PRESET=fuzz build
    for target in FuzzDesignReader:design FuzzCatalogReader:catalog FuzzFiguresReader:figures \
        FuzzFabricImport:import FuzzNcclTestsLog:nccl-tests FuzzCliArguments:cli; do
        kind=${target#*:}
        target=${target%%:*}
        seeds=("fuzz/corpus/$kind")
        [ "$kind" = design ] && seeds+=(samples)
        [ "$kind" = catalog ] && seeds+=("$(builtin_catalog_seeds)")
        [ "$kind" = figures ] && seeds+=("$(builtin_figure_seeds)")
        mkdir -p "build/fuzz/corpus/$target" "build/fuzz/crashes/$target"
        echo "FabricLab: fuzzing $target for ${seconds}s" >&2
        "build/fuzz/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
            -dict=fuzz/formats.dict -artifact_prefix="build/fuzz/crashes/$target/" \
            -print_final_stats=1 "build/fuzz/corpus/$target" "${seeds[@]}" 2> "build/fuzz/$target.log" ||
            { tail -n 40 "build/fuzz/$target.log" >&2; return 1; }
        grep -E "^(Done|stat::number_of_executed_units)" "build/fuzz/$target.log" >&2 || true
    done
}

case "${1:-}" in
run)
    install_missing
    build --target fabriclab
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
        echo "FabricLab: no display found (DISPLAY is not set). Run under a desktop, or" >&2
        echo "  xvfb-run -a bash scripts/dev.sh run   for a virtual one." >&2
        exit 1
    fi
    exec "build/$PRESET/app/fabriclab" "${2:-$SAMPLE}"
    ;;
cli)
    install_missing
    build --target fabriclab-cli
    exec "build/$PRESET/app/fabriclab-cli" run "${2:-$SAMPLE}"
    ;;
quick)
    install_missing
    build
    exec ctest --preset "$PRESET" -j "$(nproc)"
    ;;
test)
    install_missing
    build
    # The same suites under AddressSanitizer and UBSan (the dev preset), the fuzzers, and
    # last the optimised build's suites, whose summary closes the run.
    PRESET=dev build
    ctest --preset dev -j "$(nproc)"
    run_fuzzers "${FABRICLAB_FUZZ_SECONDS:-60}"
    exec ctest --preset "$PRESET" -j "$(nproc)"
    ;;
fuzz)
    install_missing
    run_fuzzers "${2:-60}"
    ;;
*)
    echo "usage: scripts/dev.sh run [DESIGN] | cli [DESIGN] | test | quick | fuzz [SECONDS]" >&2
    exit 2
    ;;
esac
