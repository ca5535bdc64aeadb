#!/usr/bin/env bash
# Refreshes constraints.txt, the locked versions of everything the test
# command installs (the dev extra and what it pulls in, pip and setuptools
# included): a throwaway virtual environment takes the newest versions that
# pyproject.toml allows, and its `pip freeze` becomes the lock.
#
#   bash scripts/lock.sh        then run bash scripts/test.sh and commit both files
#
# Run it when pyproject.toml's dependencies change or to take newer versions
# on purpose; scripts/test.sh installs with `--constraint constraints.txt`, so
# every machine runs the tests on the same versions until then.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python3 -m venv "$scratch/venv"
"$scratch/venv/bin/python" -m pip install -q --upgrade pip setuptools
"$scratch/venv/bin/python" -m pip install -q -e '.[dev]'
{
    echo "# Locked versions for scripts/test.sh (pip --constraint). Made by bash scripts/lock.sh"
    echo "# with $("$scratch/venv/bin/python" --version) on $(uname -m); refresh with the same command."
    # Miau itself is not locked: it is the clone being tested.
    "$scratch/venv/bin/python" -m pip freeze --all --exclude-editable | grep -vi "^miau" | LC_ALL=C sort -f
} >constraints.txt
echo "constraints.txt: $(grep -vc '^#' constraints.txt) packages locked"
