# shellcheck shell=bash
# The start that .ci/wheel_check.sh and .ci/fallback_check.sh share; each sources it:
#   source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh" NAME
# Sets repo (the checkout), py (the interpreter: PYTHON, else python3) and work (a temp
# dir chinchon-NAME.XXXXXX, removed at exit; CHINCHON_CHECK_KEEP=1 keeps it, logs and
# venvs, for a look after a failure); pip without its version check, never asking; step
# and fail.

# shellcheck disable=SC2034  # repo, py and work are for the script that sources this
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
py=${PYTHON:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/chinchon-$1.XXXXXX")
if [ -n "${CHINCHON_CHECK_KEEP:-}" ]; then echo "keeping $work"; else trap 'rm -rf "$work"' EXIT; fi
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

step() { printf '\n== [%3ss] %s\n' "$SECONDS" "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
