#!/usr/bin/env bash
# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
#
# FabricLab's one entry point for people and CI:
#   scripts/dev.sh run [DESIGN]   install what is missing, build, open the design in the app
#   scripts/dev.sh cli [DESIGN]   the same, but print fabriclab-cli's report instead
#   scripts/dev.sh test           install what is missing, build, run every test suite
# Safe to repeat: packages already present are skipped and the build is incremental.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian 12 packages the build, the tests and the GUI need.
PACKAGES=(build-essential cmake ninja-build pkg-config
          qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev libgl-dev
          libboost-graph-dev nlohmann-json3-dev
          libsimgrid-dev libbenchmark-dev
          xvfb xauth fonts-dejavu-core)
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
test)
    install_missing
    build
    exec ctest --preset "$PRESET" -j "$(nproc)"
    ;;
*)
    echo "usage: scripts/dev.sh run [DESIGN] | cli [DESIGN] | test" >&2
    exit 2
    ;;
esac
