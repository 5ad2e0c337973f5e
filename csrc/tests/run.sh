#!/bin/sh
# Build and run the C core tests twice: -O2 with every warning an error, then under
# AddressSanitizer + UndefinedBehaviorSanitizer. Exits non-zero on any failure.
# CC_TEST_ITERS scales the random hands (default 200000); CC (default gcc) picks the
# compiler. Called from CI; about 30 s on two cores.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
out=${TMPDIR:-/tmp}/chinchon-ctest.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT INT TERM
cc=${CC:-gcc}
: "${CC_TEST_ITERS:=200000}"
export CC_TEST_ITERS

files="$here/test_core.c $src/src/hand.c $src/src/melds.c"
warn="-std=c99 -Wall -Wextra -Wpedantic -Werror -I$src/include -I$src/src"

echo "== $cc -O2 $warn"
$cc $warn -O2 -o "$out/test_core" $files
"$out/test_core"

echo "== $cc -fsanitize=address,undefined"
$cc $warn -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
    -fno-omit-frame-pointer -o "$out/test_core_san" $files
# the sanitized run is ~3x slower: a quarter of the hands
CC_TEST_ITERS=$((CC_TEST_ITERS / 4 + 1)) "$out/test_core_san"

echo "== bench builds"
$cc $warn -O2 -o "$out/bench_core" "$here/bench_core.c" "$src/src/hand.c" "$src/src/melds.c"
sh "$here/run_settle.sh"
echo "ok"
