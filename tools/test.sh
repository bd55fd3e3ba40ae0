#!/usr/bin/env bash
#   bash tools/test.sh [--native]
# installs the dependencies, builds everything with the core's products on
# OpenBLAS (VITVIZ_BLAS=openblas) and runs every test under a virtual display
# (xvfb-run with Mesa's llvmpipe), then builds the core and the CLI on Eigen's
# own GEMM (VITVIZ_BLAS=OFF) with AddressSanitizer + UndefinedBehaviorSanitizer
# and runs the core tests again under them, so both product paths are tested
# (not the full-size real-layout checkpoints, label `real`: ViT-B in a Debug
# sanitizer build takes minutes; nor the benchmarks' flag checks, label `bench`:
# that build makes no benchmark). That build is for this machine too
# (VITVIZ_NATIVE, on by default), so on an AVX-512 machine the core's own
# kernel (core/tensor/gemm_avx512.cpp) runs under the sanitizers. Last, the same
# build folder adds the app, and its monkey (tools/monkey.sh) feeds it random
# input for MONKEY_SECONDS (default 60) per small model from a fixed seed (the
# small built-ins and the family fixtures), and the Release app gets the same
# for each ViT-B-sized built-in; any crash, hang, assertion or sanitizer report
# fails the script. Then the browser build (tools/web.sh --test): the core's
# tests as WebAssembly under node, the page's tests in headless Chromium and
# the built-in lessons at a laptop's window sizes.
# --native stops after the first build's tests (what CI runs in its second
# Debian root, .ci/run).
set -euo pipefail
native_only=0
case "${1:-}" in
  "") ;;
  --native) native_only=1 ;;
  --help|-h) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "tools/test.sh: unknown option '$1' (--native, or none; --help says what it runs)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
bash tools/install-deps.sh --tests
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DVITVIZ_BLAS=openblas >/dev/null
cmake --build build -j"$jobs"
(cd build && xvfb-run -a -s "-screen 0 1600x1000x24" ctest -j"$jobs" --output-on-failure)
[ "$native_only" -eq 0 ] || exit 0

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DVITVIZ_SANITIZE=ON -DVITVIZ_BUILD_APP=OFF -DVITVIZ_BLAS=OFF >/dev/null
cmake --build build-asan -j"$jobs" --target core_tests vitviz-cli
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 ctest -j"$jobs" --output-on-failure -LE 'real|bench')
bash tools/monkey.sh "${MONKEY_SECONDS:-60}" 1
MONKEY_BUILD=build bash tools/monkey.sh "${MONKEY_SECONDS:-60}" 1 vit-b-random vit-s-reg4-random deit-s-distilled-random \
  vit-m-gap-random vit-b-clip-random
bash tools/web.sh --test
