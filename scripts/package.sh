#!/usr/bin/env bash
# Builds the release package: a stripped Release build in build-release/ (no tests, no
# benchmarks), then `cpack -G DEB` into out/package/strata_<version>_<arch>.deb.
# With --check it then installs the package with apt-get (its Depends come from the archive),
# runs the installed programs from outside the checkout, and removes the package again:
#   strata-cli --version, strata-cli info (the installed agent is the one found, python3 without
#   STRATA_PYTHON),
#   a compile of the installed sample vector_add.py with the installed agent,
#   the app offscreen: --version, its zh_CN catalogue, and a screenshot of a compiled sample;
#   after apt-get remove nothing of it may be left.
# The agent needs a python with triton 3.6.0: $STRATA_PYTHON, else the checkout's .venv.
# Needs the Debian packages of scripts/bootstrap.sh (scripts/strata.sh installs them).
#   bash scripts/package.sh [--check]
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
for arg in "$@"; do
  case "$arg" in
    --check) check=1 ;;
    *) echo "package: unknown argument '$arg' (usage: package.sh [--check])" >&2; exit 2 ;;
  esac
done
command -v cmake >/dev/null && command -v dpkg-shlibdeps >/dev/null ||
  { echo "package: cmake or dpkg-dev is missing: run bash scripts/bootstrap.sh first" >&2; exit 2; }

BUILD=build-release
OUT="$PWD/out/package"
LAUNCHER=()
command -v ccache >/dev/null && LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)

# Debian's hardening flags (what dpkg-buildflags adds, less -g: the package is stripped anyway).
HARDENING="-fstack-protector-strong -fstack-clash-protection -fcf-protection -D_FORTIFY_SOURCE=2"
LINK_HARDENING="-Wl,-z,relro -Wl,-z,now"

echo "== Release build in $BUILD/"
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DSTRATA_BUILD_TESTS=OFF -DSTRATA_BUILD_BENCH=OFF "${LAUNCHER[@]}" \
  -DCMAKE_CXX_FLAGS="$HARDENING" -DCMAKE_EXE_LINKER_FLAGS="$LINK_HARDENING" \
  -DCMAKE_SHARED_LINKER_FLAGS="$LINK_HARDENING" -DCMAKE_MODULE_LINKER_FLAGS="$LINK_HARDENING" >/dev/null
cmake --build "$BUILD" -j "$(nproc)"

echo "== cpack -G DEB"
rm -f "$OUT"/strata_*.deb
(cd "$BUILD" && cpack -G DEB -B "$OUT" >/dev/null)
deb="$(ls "$OUT"/strata_*.deb)"
echo "package: $deb, $(du -h "$deb" | cut -f1) ($(stat -c %s "$deb") bytes), $(dpkg-deb -c "$deb" | wc -l) entries"
dpkg-deb -f "$deb" Package Version Architecture Installed-Size Depends Recommends
if command -v lintian >/dev/null; then  # informative: where lintian is installed
  echo "== lintian"
  lintian --tag-display-limit 0 "$deb" || true
fi

[ "$check" = 1 ] || exit 0

echo "== check: apt-get install ./$(basename "$deb")"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
python="${STRATA_PYTHON:-$PWD/.venv/bin/python}"
"$python" -c "import triton, sys; sys.exit(triton.__version__ != '3.6.0')" ||
  { echo "package: $python has no triton 3.6.0 (set STRATA_PYTHON)" >&2; exit 2; }
work="$(mktemp -d)"
cleanup() {  # a failed check still leaves the machine as it found it
  echo "== check failed: apt-get remove strata"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get remove -y -q strata >/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# apt's sandbox user reads the file from a world-readable place, not from a private checkout.
cp "$deb" "$work/" && chmod 0755 "$work" && chmod 0644 "$work/$(basename "$deb")"
(cd "$work" && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "./$(basename "$deb")" | tail -3)

# From outside the checkout, with none of the development overrides, so only the installed
# fallbacks (<exe>/../lib/strata/plugins, <exe>/../share/strata/{agent,samples}) can be found.
# Python may write the agent's bytecode, as a user's would: the package's prerm must clear it.
mkdir -m 0700 "$work/runtime"
run() { (cd "$work" && env -u STRATA_AGENT_DIR -u STRATA_PLUGIN_DIR -u STRATA_SAMPLES_DIR -u PYTHONDONTWRITEBYTECODE \
  XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_RUNTIME_DIR="$work/runtime" \
  QT_QPA_PLATFORM=offscreen "$@"); }
expect() {  # expect WHAT PATTERN TEXT: fails the check when TEXT lacks PATTERN
  grep -q -- "$2" <<<"$3" || { echo "package: check failed: $1 (no '$2' in: $3)" >&2; exit 1; }
  echo "ok: $1"
}
samples=/usr/share/strata/samples

echo "== check: the installed programs"
expect "strata-cli --version" "^strata-cli " "$(run strata-cli --version)"
info="$(run env STRATA_PYTHON="$python" strata-cli info)"
expect "strata-cli info: the installed agent" "(agent: /usr/share/strata/agent)" "$info"
expect "strata-cli info: triton 3.6.0" "^triton: 3.6.0" "$info"
expect "without STRATA_PYTHON the installed agent runs on python3" "^agent: local: python3 " \
  "$(run env -u STRATA_PYTHON strata-cli info 2>&1 || true)"
run env STRATA_PYTHON="$python" strata-cli compile "$samples/vector_add.py" --kernel add_kernel \
  --spec "$samples/vector_add.aligned.spec.json" --target sm_90 --out "$work/vector_add" --db "$work/strata.db" \
  --json >"$work/compile.json"
# Every stage the sample should produce, each non-empty.
stages="$("$python" -c 'import json, sys
artifacts = json.load(open(sys.argv[1]))["artifacts"]
print(" ".join("%s:%d" % (s, artifacts[s]["size"]) for s in ("ttir", "ttgir", "llir", "ptx", "sass") if artifacts.get(s, {}).get("size")))' "$work/compile.json")"
expect "compile of the installed sample vector_add.py with the installed agent" "ttir:.* ttgir:.* llir:.* ptx:.* sass:" "$stages"
echo "   stages (bytes): $stages"
expect "the app offscreen: --version" "^Strata " "$(run strata --version)"
expect "the app's zh_CN catalogue" "解释 Triton 内核为何变慢" "$(run strata --lang zh_CN --help)"
shot="$(run env STRATA_PYTHON="$python" strata --sample vector_add.aligned --screenshot "$work/app.png")"
expect "the app offscreen: the sample compiled and drawn" "screenshot .*app.png (.*add_kernel" "$shot"
cp "$work/app.png" "$OUT/strata-offscreen.png"
echo "   $shot, $(stat -c %s "$work/app.png") bytes, kept as $OUT/strata-offscreen.png"

echo "== check: apt-get remove strata"
trap 'rm -rf "$work"' EXIT
DEBIAN_FRONTEND=noninteractive $SUDO apt-get remove -y -q strata >/dev/null
left="$(ls -d /usr/bin/strata /usr/bin/strata-cli /usr/lib/strata /usr/share/strata 2>/dev/null || true)"
[ -z "$left" ] || { echo "package: check failed: left after apt-get remove: $left" >&2; exit 1; }
echo "ok: removed, nothing left behind"
echo "package: check passed ($deb)"
