#!/usr/bin/env bash
# The GPU check, in one call on a machine with a GPU and no display: the CLI's
# --backend gpu (which device and driver EGL gave), the GPU tests (every GPU
# stage against the CPU core's, the PyTorch fixtures among them) and the table
# of vitviz-gpu-bench (tests/bench/bench_gpu.cpp: the attention stage at 197,
# 1,025 and 4,097 tokens, the ViT-B/16 pass and, on a real GPU, a ViT-L/14 at
# 518 px; GPU timer and wall time beside the CPU core's, the largest
# |GPU − CPU| of each stage).
#
# A GPU machine is bare and offline: no compiler for this project's
# dependencies, nothing to install them from. So the check travels as a bundle
# made where they are installed (tools/install-deps.sh):
#   bash tools/gpu-check.sh --bundle DIR   build the three programs for any
#        x86-64-v3 processor, on Eigen's own products (OpenBLAS alone would fill
#        the device call's 64 MiB), and pack them in DIR/bundle.tar.gz with the
#        shared libraries they load, from this machine's Debian packages
#        (MANIFEST names each library's package and version);
#   bash tools/gpu-check.sh --from DIR     unpack there and run the check. The
#        bundle's libraries come first, except EGL's loader (GLVND's libEGL and
#        libGLdispatch) and the C++ runtime: the machine's own are used where it
#        has them, so its GPU driver finds the loader it was installed with;
#        NVIDIA's driver mounted under /usr/local/nvidia is found there.
#   bash tools/gpu-check.sh [--build DIR]  both at once, on this machine (Mesa's
#        llvmpipe here and in CI, .ci/run); the build folder is build-gpu-check.
# On llvmpipe the bench runs its smaller set (no ViT-B at 512 or ViT-L: minutes
# on the CPU cores); the whole check takes about 3 minutes there after the build.
# Exits 1 when a step fails, 2 on a wrong option.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
programs=(app/vitviz-cli tests/gpu_tests tests/vitviz-gpu-bench)
runtime_first=(libEGL.so.1 libGLdispatch.so.0 libstdc++.so.6 libgcc_s.so.1)  # the machine's own where it has them

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
fail() { echo "tools/gpu-check.sh: $*" >&2; exit 1; }

# build DIR: the three programs, portable across x86-64-v3 processors.
build() {
  local dir=$1
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DVITVIZ_BLAS=OFF -DVITVIZ_NATIVE=OFF \
        -DCMAKE_CXX_FLAGS=-march=x86-64-v3 >/dev/null || fail "cmake could not configure $dir (run tools/install-deps.sh)"
  cmake --build "$dir" -j"$(nproc)" --target vitviz-cli gpu_tests vitviz-gpu-bench >/dev/null ||
    fail "the build in $dir failed (cmake --build $dir --target gpu_tests shows why)"
}

# bundle BUILD_DIR OUT_DIR: OUT_DIR/bundle.tar.gz with the programs, their libraries and MANIFEST.
bundle() {
  local dir=$1 out=$2 stage lib real package count=0
  stage=$(mktemp -d)
  mkdir -p "$stage/bin" "$stage/lib/runtime-first" "$out"
  for p in "${programs[@]}"; do strip -o "$stage/bin/$(basename "$p")" "$dir/$p" || fail "could not copy $dir/$p"; done
  : > "$stage/MANIFEST"
  for lib in $(ldd "$stage"/bin/* | awk '$3 ~ /^\// {print $3}' | sort -u); do
    case $(basename "$lib") in libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|libresolv.so.*|ld-linux*) continue ;; esac
    real=$(readlink -f "$lib")
    local place=lib
    [[ " ${runtime_first[*]} " == *" $(basename "$lib") "* ]] && place=lib/runtime-first
    cp "$real" "$stage/$place/$(basename "$lib")" || fail "could not copy $real"
    package=$(dpkg -S "$real" 2>/dev/null | head -1 | cut -d: -f1 || true)
    [ -n "$package" ] || package=$(dpkg -S "$lib" 2>/dev/null | head -1 | cut -d: -f1 || true)
    echo "$(basename "$lib") ${package:-?} $(dpkg-query -W -f='${Version}' "${package:-none}" 2>/dev/null || echo ?)" \
      >> "$stage/MANIFEST"
    count=$((count + 1))
  done
  tar -czf "$out/bundle.tar.gz.part" -C "$stage" . && mv "$out/bundle.tar.gz.part" "$out/bundle.tar.gz" ||
    fail "could not write $out/bundle.tar.gz"
  rm -rf "$stage"
  echo "tools/gpu-check.sh: $out/bundle.tar.gz, $(du -h "$out/bundle.tar.gz" | cut -f1) (the programs and $count libraries)"
}

# library_path ROOT: the bundle's libraries, the machine's loader and C++ runtime first, NVIDIA's driver folder.
library_path() {
  local root=$1 path=$1/lib name
  mkdir -p "$root/lib/missing-here"
  for name in "${runtime_first[@]}"; do
    [ -f "$root/lib/runtime-first/$name" ] || continue
    ldconfig -p 2>/dev/null | grep -q " $name " || ln -sf "../runtime-first/$name" "$root/lib/missing-here/$name"
  done
  path=$path:$root/lib/missing-here
  for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do [ -d "$d" ] && path=$path:$d; done
  echo "$path${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}

# nvidia_vendor_file: GLVND's vendor file for NVIDIA's EGL when only the driver's mount has it.
nvidia_vendor_file() {
  local mounted=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
  ls /usr/share/glvnd/egl_vendor.d/*nvidia* /etc/glvnd/egl_vendor.d/*nvidia* >/dev/null 2>&1 && return 0
  [ -f "$mounted" ] && echo "$mounted"
  return 0
}

# run_check DIR: unpack DIR/bundle.tar.gz and run the check from it.
run_check() {
  local root vendor device status=0 bench_args=()
  [ -f "$1/bundle.tar.gz" ] || fail "no $1/bundle.tar.gz (make it with: bash tools/gpu-check.sh --bundle $1)"
  root=$(mktemp -d)
  tar -xzf "$1/bundle.tar.gz" -C "$root" || fail "could not unpack $1/bundle.tar.gz"
  export LD_LIBRARY_PATH
  LD_LIBRARY_PATH=$(library_path "$root")
  vendor=$(nvidia_vendor_file)
  [ -z "$vendor" ] || export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor
  unset DISPLAY WAYLAND_DISPLAY
  echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "== vitviz-cli --backend gpu, no display"
  device=$(timeout 120 "$root/bin/vitviz-cli" --model toy-4x4 --backend gpu --top 1 2>&1) || status=1
  echo "$device"
  echo "== GPU tests"
  VITVIZ_FIXTURES=$repo/tests/fixtures timeout 300 "$root/bin/gpu_tests" || status=1
  echo "== vitviz-gpu-bench"
  grep -q llvmpipe <<< "$device" || bench_args=(--full-sizes 224,512 --large)
  timeout 420 "$root/bin/vitviz-gpu-bench" "${bench_args[@]}" || status=1
  rm -rf "$root"
  [ "$status" -eq 0 ] || fail "a step failed (above)"
  echo "tools/gpu-check.sh: passed"
}

case "${1:-}" in
  --help|-h) usage; exit 0 ;;
  --bundle)
    [ -n "${2:-}" ] || { echo "tools/gpu-check.sh: --bundle needs a folder" >&2; exit 2; }
    build build-gpu-check
    bundle build-gpu-check "$2" ;;
  --from)
    [ -n "${2:-}" ] || { echo "tools/gpu-check.sh: --from needs a folder" >&2; exit 2; }
    run_check "$2" ;;
  ""|--build)
    dir=build-gpu-check
    if [ "${1:-}" = --build ]; then dir=${2:?--build needs a folder}; fi
    build "$dir"
    out=$(mktemp -d)
    bundle "$dir" "$out"
    run_check "$out"
    rm -rf "$out" ;;
  *) echo "tools/gpu-check.sh: unknown option '$1' (--bundle DIR, --from DIR, --build DIR; --help says more)" >&2; exit 2 ;;
esac
