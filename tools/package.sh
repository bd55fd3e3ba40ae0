#!/usr/bin/env bash
# Builds ViT Visualizer's Debian package for this machine's release (Debian 12
# or 13): installs the build dependencies with dpkg-dev and file (tools/install-deps.sh --package),
# builds vitviz and vitviz-cli portably (the architecture's baseline
# instruction set, no -march=native) with /usr as prefix in build-package/, and packs them with
# their assets, menu entry and icon (app/package) into
# build-package/vitviz_<version>~deb<N>_<arch>.deb with CPack, whose Depends
# dpkg-shlibdeps computes. Prints the package's path.
#   bash tools/package.sh     (PACKAGE_JOBS=N: N compiles at once; default: one per core)
# Then, on a machine of the same release: sudo apt install ./vitviz_<version>_<arch>.deb
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  "") ;;
  --help|-h) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "tools/package.sh: unknown option '$1' (--help says what it does)" >&2; exit 2 ;;
esac
out=build-package

bash tools/install-deps.sh --package

# CMAKE_SKIP_INSTALL_ALL_DEPENDENCY: CPack installs the two binaries without building the tests.
cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=Release -DVITVIZ_NATIVE=OFF -DVITVIZ_BLAS=openblas \
      -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON >/dev/null
cmake --build "$out" -j"${PACKAGE_JOBS:-$(nproc)}" --target vitviz vitviz-cli
rm -f "$out"/vitviz_*.deb
(cd "$out" && cpack -G DEB >/dev/null)
ls "$out"/vitviz_*.deb
