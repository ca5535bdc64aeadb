#!/usr/bin/env bash
# Sets up the virtual environment and runs every check: ruff, mypy, the
# client's node tests and the whole pytest suite, browser and PostgreSQL
# suites included; then the engine, loader, solver, Keke and gym tests again
# on the mypyc-compiled build (scripts/test_compiled.sh, docs/compiled.md).
#
#   bash scripts/test.sh            everything (what CI runs)
#   bash scripts/test.sh --quick    the inner loop: ruff and the engine, pack,
#                                   solver and server tests (no browser, no
#                                   PostgreSQL, nothing marked slow)
#   bash scripts/test.sh ARGS...    everything, ARGS passed on to pytest
#
# The browser suite needs Debian's Chromium and an emoji font, the store
# suite's second backend needs PostgreSQL. When they are missing this script
# installs them with apt-get if it runs as root, and otherwise stops and
# lists them. To run without them, say so by name:
#   MIAU_SKIP=browser,postgres bash scripts/test.sh
# The compiled build needs a C compiler (gcc); MIAU_SKIP=compiled leaves it out.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=false
if [[ "${1:-}" == "--quick" ]]; then
    quick=true
    shift
fi

skipping() { [[ ",${MIAU_SKIP:-}," == *",$1,"* ]]; }

missing_packages() {
    # Debian package names of what the full suite drives and this machine lacks.
    local missing=()
    if ! skipping browser; then
        [[ -x "${MIAU_CHROMIUM:-/usr/bin/chromium}" ]] || missing+=(chromium)
        dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || missing+=(fonts-noto-color-emoji)
    fi
    if ! skipping postgres; then
        compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null \
            || missing+=(postgresql)
    fi
    if ! skipping compiled; then
        command -v gcc >/dev/null || missing+=(gcc)
    fi
    echo "${missing[@]}"
}

if ! $quick; then
    missing=$(missing_packages)
    if [[ -n "$missing" ]]; then
        if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
            echo "Installing what the tests drive: $missing"
            apt-get update -q
            # shellcheck disable=SC2086  # one word per package
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
        else
            cat >&2 <<MSG
The full test suite needs these Debian packages, which are not installed:
    $missing
Install them (sudo apt-get install -y $missing) and run this again, or
leave their suites out by name: MIAU_SKIP=browser,postgres bash scripts/test.sh
MSG
            exit 2
        fi
    fi
fi

# The venv is rebuilt only when pyproject.toml (the dependencies) or the lock changed.
# Every version comes from constraints.txt (refreshed by scripts/lock.sh), so a fresh
# machine tests on the versions this command was last run green on.
stamp=.venv/.miau-installed
wanted=$(cat pyproject.toml constraints.txt | sha256sum | cut -d' ' -f1)
if [[ ! -x .venv/bin/python ]] || [[ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]]; then
    python3 -m venv .venv
    .venv/bin/python -m pip install -q --constraint constraints.txt --upgrade pip setuptools
    # A venv made before the distribution was renamed still holds the old "miau".
    .venv/bin/python -m pip uninstall -q -y miau 2>/dev/null || true
    .venv/bin/python -m pip install -q --constraint constraints.txt -e '.[dev]'
    echo "$wanted" >"$stamp"
fi

.venv/bin/ruff check src tests benchmarks scripts
.venv/bin/ruff format --check src tests benchmarks scripts
if $quick; then
    # Three workers (pytest-xdist) on the two cores: the quick selection is many short
    # tests, a few of which wait on a server's timeouts; a third worker fills those
    # waits, so the run fits in a minute.
    exec .venv/bin/python -m pytest -m "not browser and not postgres and not slow" -n 3 "$@"
fi
.venv/bin/mypy
if compgen -G "tests/web/*.test.js" >/dev/null || compgen -G "tests/web/*.test.mjs" >/dev/null; then
    node --test tests/web/
fi
export MIAU_SKIP="${MIAU_SKIP:-}"
.venv/bin/python -m pytest "$@"
# The same sources compiled: built once per change of them (1 to 2 minutes), then tested.
if ! skipping compiled; then
    bash scripts/test_compiled.sh
fi
