#!/usr/bin/env bash
# Runs the engine, loader, solver, Keke and gym tests again on the compiled
# build (docs/compiled.md): builds the wheel (scripts/build_compiled.sh, reused
# while its sources are unchanged), unpacks it into .compiled/ and puts that
# first on the import path of .venv's Python, so every import of miau (and of
# the processes the tests start) finds the compiled modules.
#
#   bash scripts/test_compiled.sh [PYTEST ARGS...]
#
# scripts/test.sh runs it after the pure suite.
set -euo pipefail
cd "$(dirname "$0")/.."

wheel=$(bash scripts/build_compiled.sh | tail -n 1)
site=.compiled/site
rm -rf "$site"
mkdir -p "$site"
.venv/bin/python -m zipfile -e "$wheel" "$site"

export PYTHONPATH="$PWD/$site"
# Refuse to report a pure run as a compiled one.
.venv/bin/python -c 'import sys; from miau.compiled import build_name, is_compiled
print("testing the build:", build_name()); sys.exit(0 if is_compiled() else 1)'
exec .venv/bin/python -m pytest tests/engine tests/packs tests/solver tests/keke tests/gym \
    tests/compiled -m "not browser and not postgres" -n 2 -p no:cacheprovider "$@"
