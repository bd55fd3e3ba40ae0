#!/usr/bin/env bash
# Installs the dependencies, builds (Release, optimised for this machine) and
# opens the app on its built-in model and image. Extra arguments go to vitviz.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target vitviz
exec ./build/app/vitviz "$@"
