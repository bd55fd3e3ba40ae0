#!/usr/bin/env bash
# The core's tests as WebAssembly under node (tests/web/tests.cmake builds them
# into BUILD/tests/core_tests.js): the same claims and tolerances as the native
# core_tests, less those that need what a page has not — another process
# ([process]: vitviz-cli, the PyTorch reference script) or the operating system's
# files and limits ([os]: FIFOs, devices, file-size limits, /proc). Run from BUILD,
# where the assets are (build-web/share/vitviz/assets).
#   bash tests/web/run_core_tests.sh [BUILD (default build-web)]
set -euo pipefail
build="$(cd "${1:-build-web}" && pwd)"
cd "$build"
# Node 18+ has fetch(), which Emscripten 3.1.6's loader then takes for a file path.
exec node --no-experimental-fetch tests/core_tests.js "~[process]~[os]" --reporter compact
