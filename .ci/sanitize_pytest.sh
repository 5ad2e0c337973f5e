#!/usr/bin/env bash
# The Python test suite through an AddressSanitizer + UBSan build of the extension:
# catches memory and UB errors in the C core and the binding as the tests drive them.
# Self-contained: its own venv in a temp dir. Linux + gcc.
# Usage: .ci/sanitize_pytest.sh   (CHINCHON_TEST_SCALE, 0.3 here by default)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
py=${PYTHON:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/chinchon-asan.XXXXXX")
trap 'rm -rf "$work"' EXIT
export PIP_DISABLE_PIP_VERSION_CHECK=1 CHINCHON_REQUIRE_NATIVE=1
"$py" -m venv "$work/venv"
# the test extra alone, and the server's modules not compiled (they would be half of
# the compile, and they never reach the core): the server's tests that need no extra
# run its source here, and the one test that a native build compiles them is left out
"$work/venv/bin/python" -m pip install --quiet "${repo}[test]" \
  -C cmake.define.CHINCHON_SANITIZE=address,undefined -C cmake.define.CHINCHON_WERROR=ON \
  -C cmake.define.CHINCHON_COMPILED_SERVER=OFF \
  -C cmake.build-type=RelWithDebInfo -C build-dir="$work/build"
# the interpreter is not built with ASan: its runtime must be loaded first. The tests'
# process pools spawn their workers (tests/conftest.py): a worker forked beside a
# thread inside ASan's allocator hangs on its lock
LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)" \
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
CHINCHON_IMPLEMENTATION=native CHINCHON_TEST_SCALE=${CHINCHON_TEST_SCALE:-0.3} \
CHINCHON_TEST_START_METHOD=spawn \
  "$work/venv/bin/python" -m pytest -q -p no:cacheprovider --rootdir "$repo" "$repo/tests" \
  --deselect tests/server/test_views.py::test_the_servers_modules_run_compiled_where_the_core_is_native
