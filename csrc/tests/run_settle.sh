#!/bin/sh
# Build and run the settlement tests (test_settle.c) twice: -O2 with every warning an
# error, then under AddressSanitizer + UndefinedBehaviorSanitizer. SETTLE_TEST_DEALS
# scales the random deals (default 20000). CC (default gcc) picks the compiler.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
out=${TMPDIR:-/tmp}/chinchon-settle-test.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT INT TERM
cc=${CC:-gcc}
deals=${SETTLE_TEST_DEALS:-20000}
files="$here/test_settle.c $src/src/settle.c $src/src/hand.c $src/src/melds.c" # settle uses the core
warn="-std=c99 -Wall -Wextra -Wpedantic -Werror -I$src/include -I$src/src"

echo "== settle: $cc -O2 $warn"
$cc $warn -O2 -o "$out/test_settle" $files
"$out/test_settle" "$deals"

echo "== settle: $cc -fsanitize=address,undefined"
$cc $warn -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
    -fno-omit-frame-pointer -o "$out/test_settle_san" $files
"$out/test_settle_san" $((deals / 4 + 1))
echo "settle ok"
