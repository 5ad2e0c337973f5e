#!/bin/sh
# The C core's tests, built by CMake (csrc/CMakeLists.txt, standalone: only cmake and a C
# compiler needed) and run by ctest twice: a Release build with every warning an error,
# then a build under AddressSanitizer + UndefinedBehaviorSanitizer with a quarter of the
# random cases. ctest also reads the library's call graph (csrc/tools/callgraph.py: no
# cycle between units or folders, nothing calls up into api.c, no internal symbol
# visible). Exits non-zero on any failure. Called from .ci/run; about a minute on two
# cores.
#   CC_TEST_ITERS      random hands of test_core_random and test_variants (default 200000;
#                      test_outlook takes a hundredth)
#   SETTLE_TEST_DEALS  random deals of test_settle_house (default 20000; a quarter of them
#                      under the variants in test_settle_variants)
#   CC_ENGINE_GAMES    games per table of test_engine (default 300; sanitized 100)
#   CHINCHON_EXHAUSTIVE=1  also the ctest label "exhaustive" in the plain build: every
#                      7-card hand of the 40-card deck under conga against the brute
#                      force (test_variants_exhaustive; ~40 s of CPU on this machine),
#                      and the batches on each SIMD path this CPU runs (scalar, avx2,
#                      avx512 / neon) over every hand of test_simd.c's sets: the 73.6M
#                      7-card hands of the 48-card deck, 24M two-deck hands, the 377M
#                      8-card hands' hints (test_simd exhaustive; ~30 s of CPU here)
#   CHINCHON_SIMD      one SIMD path for test_simd (default: every path the CPU runs)
#   CC                 the compiler (CMake's default otherwise)
#   CHINCHON_CTEST_DIR where to build (default: a temporary directory, removed after)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
if [ -n "${CHINCHON_CTEST_DIR:-}" ]; then
  out=$CHINCHON_CTEST_DIR
else
  out=$(mktemp -d "${TMPDIR:-/tmp}/chinchon-ctest.XXXXXX")
  trap 'rm -rf "$out"' EXIT INT TERM
fi
: "${CC_TEST_ITERS:=200000}" "${SETTLE_TEST_DEALS:=20000}"
export CC_TEST_ITERS SETTLE_TEST_DEALS
gen=""
if command -v ninja >/dev/null 2>&1; then gen="-G Ninja"; fi
jobs=${CMAKE_BUILD_PARALLEL_LEVEL:-2}

# configure + build + ctest one configuration: run NAME CMAKE-ARGS...
run() {
  name=$1
  shift
  echo "== $name: cmake $*"
  # shellcheck disable=SC2086
  cmake -S "$src" -B "$out/$name" $gen "$@" >"$out/$name.configure.log" 2>&1 ||
    { cat "$out/$name.configure.log"; exit 1; }
  cmake --build "$out/$name" --parallel "$jobs"
  (cd "$out/$name" && ctest --output-on-failure --parallel "$jobs" -LE exhaustive)
}

run plain -DCMAKE_BUILD_TYPE=Release -DCHINCHON_WERROR=ON
if [ "${CHINCHON_EXHAUSTIVE:-0}" = 1 ]; then
  echo "== plain: ctest -L exhaustive"
  (cd "$out/plain" && ctest --output-on-failure -L exhaustive)
fi
# the sanitized programs run ~3x slower (the engine's games ~10x): a quarter of the
# random cases, a third of the games
CC_ENGINE_GAMES=$(( ${CC_ENGINE_GAMES:-300} / 3 + 1)) \
CC_TEST_ITERS=$((CC_TEST_ITERS / 4 + 1)) SETTLE_TEST_DEALS=$((SETTLE_TEST_DEALS / 4 + 1)) \
  run sanitized -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCHINCHON_WERROR=ON \
  -DCHINCHON_SANITIZE=address,undefined
echo "ok"
