#!/usr/bin/env bash
# ViT Visualizer as a web page (app/web), built with Debian's Emscripten:
#   bash tools/web.sh --build   installs what it needs and writes the static site build-web/site/
#                               (index.html, index.js, index.wasm, index.data): any static host serves it
#   bash tools/web.sh --build --with-model hf-hub:ORG/NAME[@REVISION] [--with-model …]
#                               the same, with those models from this computer's Hugging Face cache
#                               inside the site (tools/web_bundle.sh): they open with no Hub
#   bash tools/web.sh [PORT]    builds, then serves it at http://127.0.0.1:8000 (or PORT)
#   bash tools/web.sh --test    builds, then runs the core's tests as WebAssembly under node, the
#                               page tests in headless Chromium and the lessons at a laptop's
#                               window sizes (tests/web)
#   bash tools/web.sh --bench   builds, then the page's benchmark beside onnxruntime-web (tests/web)
# Dependencies come from Debian's packages; the sources Emscripten compiles (zlib,
# libjpeg-turbo, Dear ImGui, Catch2) from Debian's source packages of the
# machine's own release (Debian 12 or 13), fetched through a private sources list
# under build-web/apt that leaves the machine's apt configuration alone; the test and benchmark tools (puppeteer-core,
# onnxruntime-web) from npm into build-web/npm.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build-web
mode="${1:-serve}"
case "$mode" in
  --build|--test|--bench|serve|[0-9]*) ;;
  --help|-h) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "tools/web.sh: unknown option '$mode' (--help lists them)" >&2; exit 2 ;;
esac
with_models=()
[ $# -gt 0 ] && shift
while [ $# -gt 0 ]; do
  [ "$mode" = "--build" ] && [ "$1" = "--with-model" ] && [ $# -ge 2 ] ||
    { echo "tools/web.sh: '$*' after $mode: only --build takes --with-model hf-hub:ORG/NAME" >&2; exit 2; }
  with_models+=("$2")
  shift 2
done

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

install_packages() {
  local packages=(emscripten cmake make nodejs libeigen3-dev nlohmann-json3-dev libstb-dev fonts-dejavu-core
                  xz-utils bzip2)  # the last two unpack the source packages
  case "$mode" in
    --test|--bench) packages+=(chromium python3-torch python3-numpy); command -v npm >/dev/null || packages+=(npm) ;;
  esac
  case "$mode" in  # the benchmark's ONNX export: PyTorch 2.6 (Debian 13) needs the onnx module for it
    --bench) packages+=(python3-onnx) ;;
  esac
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# The first Debian mirror the machine's own sources name (deb.debian.org when none is found).
debian_mirror() {
  local uri
  uri=$(grep -hoE '^(URIs:[[:space:]]*|deb[[:space:]]+(\[[^]]*\][[:space:]]+)?)https?://[^[:space:]]+' \
          /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null |
        grep -v security | grep -oE 'https?://[^[:space:]]+' | head -1 || true)
  echo "${uri:-http://deb.debian.org/debian}"
}

# The upstream tarballs of Debian's source packages of zlib, libjpeg-turbo, imgui and catch2 (the
# build compiles nothing else of them) for this machine's release, unpacked into build-web/sources
# (emptied first when they are another release's). apt reads the signed index; apt-helper
# downloads each tarball and checks it against the index's SHA256.
fetch_sources() {
  local apt="$out/apt" sources="$out/sources" release uri name hash
  release=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  if [ "$(cat "$sources/release" 2>/dev/null)" = "$release" ]; then return 0; fi
  rm -rf "$apt" "$sources"
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$sources"
  echo "deb-src $(debian_mirror) $release main" > "$apt/sources.list"
  local opts=(-o "Dir::Etc::SourceList=$PWD/$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
              -o "Dir::State::Lists=$PWD/$apt/lists" -o "Dir::Cache=$PWD/$apt/cache" -o APT::Sandbox::User=root)
  apt-get -qq "${opts[@]}" update
  apt-get -qq "${opts[@]}" source --print-uris imgui zlib libjpeg-turbo catch2 | grep '\.orig\.tar\.' |
    while read -r uri name _ hash; do
      /usr/lib/apt/apt-helper -qq "${opts[@]}" download-file "${uri//\'/}" "$sources/$name" "$hash" >/dev/null
      tar -xf "$sources/$name" -C "$sources"
    done
  echo "$release" > "$sources/release"
}

build() {
  install_packages
  fetch_sources
  export NODE_PATH=/usr/share/nodejs  # Emscripten's tools need Debian's acorn, whatever node is first on PATH
  local launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  emcmake cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=Release -DVITVIZ_WEB_SOURCES="$PWD/$out/sources" \
    "${launcher[@]}" >/dev/null
  local targets=(vitviz)
  [ "$mode" = "--test" ] && targets+=(core_tests)
  [ "$mode" = "--bench" ] && targets+=(web_bench)  # the benchmark's own module (build-web/bench)
  cmake --build "$out" -j"$(nproc)" --target "${targets[@]}"
  echo "web: the site is in $out/site ($(du -sh "$out/site" | cut -f1))"
}

# A second build of an unchanged tree, its configure step included, compiles nothing.
rebuild_compiles_nothing() {
  local log
  log=$(build 2>&1)
  if grep -q "Building" <<<"$log"; then
    echo "web: a second build of an unchanged tree compiled again:"
    grep "Building" <<<"$log" | head -5
    return 1
  fi
  echo "web: a second build of an unchanged tree compiles nothing"
}

npm_tools() {
  local dir="$out/npm"
  grep -qs '"version": "24\.' "$dir/node_modules/puppeteer-core/package.json" && [ -f "$dir/node_modules/onnxruntime-web/package.json" ] && return 0
  mkdir -p "$dir"
  # puppeteer-core 24: its last major line that runs on Debian 12's Node.js 18 (25 needs 22; Debian 13 has 20)
  npm install --prefix "$dir" --no-audit --no-fund --no-save --ignore-scripts puppeteer-core@24 onnxruntime-web >/dev/null
}

build
case "$mode" in
  --build) [ ${#with_models[@]} -eq 0 ] || bash tools/web_bundle.sh "$out/site" "${with_models[@]}" ;;
  --test)
    rebuild_compiles_nothing
    bash tests/web/run_core_tests.sh "$out"
    npm_tools
    node tests/web/page_tests.mjs "$out"
    node tests/web/page_sizes.mjs "$out"
    ;;
  --bench)
    npm_tools
    node tests/web/bench_web.mjs "$out"
    ;;
  *) exec node tests/web/serve.mjs "$out/site" "${mode/serve/8000}" ;;
esac
