#!/usr/bin/env bash
# Packs strata-cli for a GPU host that has Python, torch and triton but no Qt or LLVM: the binary
# (LLVM linked statically), the NVIDIA backend plugin, Qt's SQLite driver and every shared library
# they need, glibc and its loader included, plus a launcher. The launcher starts the binary through
# the bundled loader with --library-path, not LD_LIBRARY_PATH, so the host's glibc version does not
# matter and the agent's Python (a child process, started by the host's own loader) never picks up
# the bundled libraries.
#   packaging/host-bundle.sh [OUT.tar.xz]      (default out/host-bundle.tar.xz)
# On the host:  tar xJf host-bundle.tar.xz && STRATA_AGENT_DIR=<repo>/agent host-bundle/strata-cli ...
# BUNDLE_BUILD_DIR / BUNDLE_BUILD_TYPE reuse an existing build (only strata-cli is relinked).
set -euo pipefail
cd "$(dirname "$0")/.."
ARCHIVE="$(realpath -m "${1:-out/host-bundle.tar.xz}")"
BUILD="${BUNDLE_BUILD_DIR:-build-bundle}"
LAUNCHER=()
command -v ccache >/dev/null && LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)

cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE="${BUNDLE_BUILD_TYPE:-Release}" -DSTRATA_LLVM_STATIC=ON "${LAUNCHER[@]}" >/dev/null
cmake --build "$BUILD" -j "$(nproc)" --target strata-cli strata_nvidia

STAGE="$(mktemp -d)"
trap 'rm -rf "$STAGE"' EXIT
ROOT="$STAGE/host-bundle"
mkdir -p "$ROOT/bin" "$ROOT/lib" "$ROOT/plugins/sqldrivers" "$ROOT/plugins/strata"
cp "$BUILD/bin/strata-cli" "$ROOT/bin/" 2>/dev/null || cp "$(find "$BUILD" -name strata-cli -type f -perm -u+x | head -1)" "$ROOT/bin/"
cp "$(find "$BUILD" -name 'libstrata_nvidia.so' | head -1)" "$ROOT/plugins/strata/"
QT_PLUGINS="$(qtpaths6 --query QT_INSTALL_PLUGINS 2>/dev/null || echo /usr/lib/x86_64-linux-gnu/qt6/plugins)"
cp "$QT_PLUGINS/sqldrivers/libqsqlite.so" "$ROOT/plugins/sqldrivers/"

# Every library the three need, glibc included, and the loader that goes with that glibc.
for binary in "$ROOT/bin/strata-cli" "$ROOT/plugins/strata/libstrata_nvidia.so" "$ROOT/plugins/sqldrivers/libqsqlite.so"; do
    ldd "$binary" | awk '/=> \// {print $3}'
done | sort -u | while read -r lib; do
    cp -L "$lib" "$ROOT/lib/"
done
strip --strip-unneeded "$ROOT/bin/strata-cli" "$ROOT/lib/"*.so* "$ROOT/plugins/"*/*.so 2>/dev/null || true
# The loader last: it is used as shipped, never stripped.
cp -L /lib64/ld-linux-x86-64.so.2 "$ROOT/lib/ld-linux-x86-64.so.2"

cat > "$ROOT/strata-cli" <<'LAUNCH'
#!/bin/sh
# Runs the bundled strata-cli with its own libraries (see packaging/host-bundle.sh).
HERE="$(cd "$(dirname "$0")" && pwd)"
export QT_PLUGIN_PATH="$HERE/plugins"
export STRATA_PLUGIN_DIR="${STRATA_PLUGIN_DIR:-$HERE/plugins/strata}"
exec "$HERE/lib/ld-linux-x86-64.so.2" --library-path "$HERE/lib" "$HERE/bin/strata-cli" "$@"
LAUNCH
chmod +x "$ROOT/strata-cli"
mkdir -p "$(dirname "$ARCHIVE")"
tar -C "$STAGE" -cf - host-bundle | xz -T0 -6 > "$ARCHIVE"
echo "host-bundle: $ARCHIVE ($(du -h "$ARCHIVE" | cut -f1)): $(ls "$ROOT/lib" | wc -l) libraries"
