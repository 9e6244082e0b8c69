#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine and builds the project: Debian's LLVM/MLIR
# 22 packages, a virtual environment in .venv with pinned Python packages, and
# an editable install of stablehlo-to-tvm (C++ library, nanobind module and the
# stablehlo-to-tvm tool). Idempotent; a second run only rebuilds what changed.
# `bash scripts/setup.sh models` also installs the model suite's libraries
# (pyproject's `models` extra, and keras-hub without its TensorFlow).
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libzstd-dev
              ccache g++ git python3 python3-venv python3-dev)
PIP_PACKAGES=("jax==0.10.2" "jaxlib==0.10.2" "apache-tvm==0.27.0.post1"
              "apache-tvm-ffi==0.1.14.post1" psutil cloudpickle xgboost-cpu "nanobind==3.1.0" flatbuffers
              "scikit-build-core>=0.10" "cmake>=3.25" ninja numpy ml_dtypes scipy mpmath lit pytest
              "flax==0.12.8" "optax==0.2.8" "equinox==0.13.8")

# A python3 on PATH that is not Debian's (pyenv, say) needs no python3 packages.
if command -v python3 >/dev/null && python3 -c "import venv, sysconfig; assert sysconfig.get_paths()['include']" 2>/dev/null \
   && [ -f "$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ]; then
  APT_PACKAGES=("${APT_PACKAGES[@]/python3-venv}"); APT_PACKAGES=("${APT_PACKAGES[@]/python3-dev}")
  APT_PACKAGES=("${APT_PACKAGES[@]/python3}")  # emptied names are skipped
fi
source scripts/debian.sh
install_missing_debian_packages setup "${APT_PACKAGES[@]}"

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  python3 -m venv .venv
fi
PY=.venv/bin/python
stamp=.venv/.requirements
if [ "$(cat "$stamp" 2>/dev/null)" != "${PIP_PACKAGES[*]}" ]; then
  echo "setup: installing Python packages"
  $PY -m pip install -q --upgrade pip
  $PY -m pip install -q "${PIP_PACKAGES[@]}"
  echo "${PIP_PACKAGES[*]}" > "$stamp"
fi

echo "setup: building stablehlo-to-tvm"
export CCACHE_BASEDIR="$PWD" CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
$PY -m pip install -q --no-build-isolation --no-deps -e . \
  -Cbuild-dir=build/py -Ccmake.define.Python_EXECUTABLE="$PWD/$PY"
if [ "${1:-}" = models ]; then
  echo "setup: installing the model suite's libraries"
  mapfile -t MODEL_PACKAGES < <($PY -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["models"]))')
  $PY -m pip install -q "${MODEL_PACKAGES[@]}"
  $PY -m pip install -q --no-deps "keras-hub==0.32.0" regex tokenizers
fi
echo "setup: done (activate with: source .venv/bin/activate)"
