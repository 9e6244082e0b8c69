#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs every test: lit + FileCheck on the C++
# tool, pytest (numerics against jax.jit, the Python API, the CLI), then a
# short, seeded libFuzzer run of the C++ core under AddressSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/.venv/bin:$PATH"
echo "== lit (build/py/test)"
lit -sv build/py/test
echo "== pytest (test/python)"
python -m pytest -q test/python "$@"
echo "== fuzz (scripts/fuzz.sh, 20,000 inputs)"
bash scripts/fuzz.sh --runs 20000 --seed 1
