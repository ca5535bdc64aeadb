#!/usr/bin/env bash
# Builds the mypyc-compiled wheel of Miau: the engine, the pack loader and the
# solver compiled to C extension modules from the same .py files
# (docs/compiled.md). Prints the wheel's path.
#
#   bash scripts/build_compiled.sh        build into dist/compiled/ (reused while
#                                         src/, setup.py, pyproject.toml, mypy and
#                                         Python are unchanged)
#
# It compiles with the mypy of .venv (pinned in constraints.txt) and a C
# compiler (gcc) with the Python headers; about 1 to 2 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${MIAU_PYTHON:-.venv/bin/python}
out=dist/compiled
stamp=$out/.sources

# What the wheel holds and how it was made: every file under src/ (the wheel
# carries the interpreted packages, the client and the worlds too), the build
# files and the compiler's version.
wanted=$(
    {
        cat setup.py pyproject.toml
        find src -type f -not -name '*.pyc' -not -path '*.egg-info*' -print0 | sort -z \
            | xargs -0 sha256sum
        "$python" -m mypy --version
        "$python" -c 'import sys; print(sys.version)'
    } | sha256sum | cut -d' ' -f1
)
if [[ "$(cat "$stamp" 2>/dev/null)" == "$wanted" ]] && compgen -G "$out/*.whl" >/dev/null; then
    ls "$out"/*.whl
    exit 0
fi

rm -rf "$out" build/compiled
mkdir -p "$out"
# No build isolation: the compiler is the project's own pinned mypy, already in .venv.
MIAU_COMPILE=1 "$python" -m pip wheel -q --no-build-isolation --no-deps --wheel-dir "$out" . >&2
echo "$wanted" >"$stamp"
ls "$out"/*.whl
