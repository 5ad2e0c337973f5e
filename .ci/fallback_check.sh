#!/usr/bin/env bash
# The pure-Python fallback of a source install, checked end to end.
#
# Where the C build fails, `pip install chinchon` (from the sdist) must still succeed and
# give a package that runs on chinchon.reference and says so with a RuntimeWarning; with
# CHINCHON_REQUIRE_NATIVE=1 (what cibuildwheel sets) the same failure must stay an error.
# Three installs of the sdist, each into a throwaway venv:
#   1. the C compile fails (a -fsanitize= value no compiler knows)  -> pure wheel, works
#   2. there is no working C compiler at all (CC=false)             -> pure wheel, works
#   3. as 1, with CHINCHON_REQUIRE_NATIVE=1                          -> pip install fails
# Self-contained: its venvs and files live in a temp dir, removed at the end.
# Usage: .ci/fallback_check.sh   (PYTHON=python3.X to pick the interpreter)
set -euo pipefail
# repo, py, work (CHINCHON_CHECK_KEEP=1 keeps it), step, fail
# shellcheck source=SCRIPTDIR/check_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh" fallback
unset CHINCHON_REQUIRE_NATIVE CHINCHON_IMPLEMENTATION CMAKE_ARGS

step "sdist of $repo"
"$py" -m venv "$work/tools"
"$work/tools/bin/python" -m pip install build >"$work/pip-tools.log" 2>&1 \
  || { tail -40 "$work/pip-tools.log"; fail "pip install build"; }
"$work/tools/bin/python" -m build --sdist --outdir "$work/dist" "$repo" >"$work/sdist.log" 2>&1 \
  || { tail -40 "$work/sdist.log"; fail "python -m build --sdist"; }
sdist=$(ls "$work"/dist/chinchon-*.tar.gz)
echo "$sdist"

# What a user gets after a fallback install: the import works, says 'python', warns.
cat >"$work/smoke.py" <<'EOF'
import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import chinchon

assert chinchon.IMPLEMENTATION == "python", chinchon.IMPLEMENTATION
warned = [w for w in caught if issubclass(w.category, RuntimeWarning)
          and "pure-Python implementation" in str(w.message)]
assert warned, [str(w.message) for w in caught]
assert "it is not installed" in str(warned[0].message), str(warned[0].message)
assert chinchon.deadwood("7o 7c 7b 9e 10e 11e 4o") == 4
assert chinchon.best_melds("3e 4e 5e 6e 7e 8e 9e").points == 0
print(f"chinchon {chinchon.__version__} from {chinchon.__file__}: "
      f"IMPLEMENTATION={chinchon.IMPLEMENTATION!r}, warned: {warned[0].message}")
EOF

# install_sdist NAME [ENV=VALUE...]: a fresh venv, then pip install the sdist under the
# given environment. --no-cache-dir: pip caches the wheel it builds from an sdist, and a
# cached pure wheel from one case would hide the next case's build.
install_sdist() {
  local name=$1; shift
  "$py" -m venv "$work/$name"
  env "$@" "$work/$name/bin/python" -m pip install -v --no-cache-dir "$sdist" \
    >"$work/$name.log" 2>&1
}

check_fallback() {
  local name=$1
  grep -q "retrying due to override" "$work/$name.log" \
    || { tail -40 "$work/$name.log"; fail "$name: no retry after the failed build"; }
  grep -q "pure-Python fallback" "$work/$name.log" \
    || fail "$name: the fallback message was not printed"
  if find "$work/$name/lib" -path '*chinchon/_core/*.so' | grep -q .; then
    fail "$name: a compiled _core was installed, but the build was meant to fail"
  fi
  grep -q "Created wheel for chinchon: filename=chinchon-.*-py3-none-any.whl" "$work/$name.log" \
    || fail "$name: the wheel built is not the pure py3-none-any one"
  (cd "$work" && "$work/$name/bin/python" smoke.py) || fail "$name: the fallback does not work"
  # the CLI too, on the fallback (forced, so it does not warn)
  CHINCHON_IMPLEMENTATION=python "$work/$name/bin/chinchon" hint "1o 2o 3o 5c 5e 5b 12o 7e" \
    >/dev/null || fail "$name: the chinchon command failed"
}

step "1. the C compile fails -> the install falls back to pure Python"
install_sdist compile-fails CMAKE_ARGS="-DCHINCHON_SANITIZE=no-such-sanitizer" \
  || { tail -60 "$work/compile-fails.log"; fail "pip install failed instead of falling back"; }
grep -q "no-such-sanitizer" "$work/compile-fails.log" \
  || fail "the forced compile error did not happen (CHINCHON_SANITIZE unused?)"
check_fallback compile-fails

step "2. no working C compiler (CC=false) -> the install falls back to pure Python"
install_sdist no-compiler CC=false \
  || { tail -60 "$work/no-compiler.log"; fail "pip install failed instead of falling back"; }
check_fallback no-compiler

step "3. the C compile fails with CHINCHON_REQUIRE_NATIVE=1 -> pip install must fail"
if install_sdist required CMAKE_ARGS="-DCHINCHON_SANITIZE=no-such-sanitizer" \
  CHINCHON_REQUIRE_NATIVE=1; then
  fail "CHINCHON_REQUIRE_NATIVE=1 still installed a fallback"
fi
grep -q "retrying due to override" "$work/required.log" \
  && fail "CHINCHON_REQUIRE_NATIVE=1 retried the build"
echo "pip install failed, as it must"

step "fallback check passed in ${SECONDS}s"
