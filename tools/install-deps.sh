#!/usr/bin/env bash
# Installs ViT Visualizer's build dependencies from the packages of Debian 12 or 13
# (through sudo when not root), the font the app draws with (DejaVu, whose
# arrows, dashes and Greek letters a minimal install lacks) and what downloads
# from the Hugging Face Hub need (libcurl, OpenSSL's hashes, the certificates). `--tests` adds what the tests need: a virtual
# display with Mesa's llvmpipe (OpenGL 4.5 on the CPU), PyTorch and PIL for the
# reference fixtures and the benchmark (with OpenBLAS, not the reference BLAS, behind it;
# onnx for the benchmark's ONNX export, which PyTorch 2.6 needs),
# and Chromium, which opens the lesson hand-outs headless. `--ort DIR` installs
# ONNX Runtime for vitviz-bench instead: npm's onnxruntime-node (its prebuilt
# library, no install scripts) into DIR (build/ort, never committed); with no
# registry it says so and exits 0, and the benchmark goes on without it. `--fuzz`
# and `--package` add what tools/fuzz.sh and tools/package.sh need.
set -euo pipefail
if [ "${1:-}" = "--ort" ]; then
  dir="${2:?--ort DIR}"
  [ -f "$dir/node_modules/onnxruntime-node/package.json" ] && exit 0
  mkdir -p "$dir"
  if ! command -v npm >/dev/null || ! timeout 300 npm install --prefix "$dir" --ignore-scripts --no-audit --no-fund \
       --no-save onnxruntime-node >/dev/null 2>&1; then
    echo "ONNX Runtime: not installed (npm could not install onnxruntime-node into $dir)"
  fi
  exit 0
fi
packages=(build-essential cmake pkg-config libglfw3-dev libegl-dev libimgui-dev python3-glad libeigen3-dev
          libstb-dev libjpeg62-turbo-dev catch2 nlohmann-json3-dev zlib1g-dev libgl1-mesa-dri libopenblas-openmp-dev
          fonts-dejavu-core libcurl4-openssl-dev libssl-dev ca-certificates)
if [ "${1:-}" = "--fuzz" ]; then  # tools/fuzz.sh: clang with libFuzzer and the sanitizers, its OpenMP
  packages+=(clang libclang-rt-dev libomp-dev)  # the versions of Debian's default clang
fi
if [ "${1:-}" = "--package" ]; then  # tools/package.sh: CPack's dependency list (dpkg-shlibdeps, and file to find binaries)
  packages+=(dpkg-dev file)
fi
if [ "${1:-}" = "--tests" ]; then
  packages+=(xvfb xauth python3-torch python3-numpy python3-pil python3-onnx libopenblas0-openmp chromium)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
