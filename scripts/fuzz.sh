#!/usr/bin/env bash
# Fuzzes the C++ core with libFuzzer and AddressSanitizer: builds build/fuzz
# with clang (installing Debian's clang-22 and its runtime if missing), makes a
# seed corpus of every program in test/ (and the directories given), and runs
# tools/stablehlo-to-tvm-fuzz on it. Each input is imported as the Python API
# imports it (see the tool's source); a crash, sanitizer report or hang stops
# the run and is written to fuzz-findings/.
#
#   scripts/fuzz.sh                      # 1,000,000 inputs
#   scripts/fuzz.sh --runs 20000 --seed 1   # a short, reproducible run (the tests')
#   scripts/fuzz.sh --runs 0 ../shared/conformance/stablehlo/testdata
#                                        # only the seeds, this corpus included
#   scripts/fuzz.sh --runs 0 --mutations 20000 --seed 3
#                                        # the seeds and 20,000 edits of them
#
# --mutations N adds N seeds made by stablehlo_tvm.fuzz's edits (a number,
# an array, a dimension or an op name changed, lines dropped or swapped):
# edits byte-level mutation rarely makes, each run under AddressSanitizer,
# which reports the out-of-bounds reads an uninstrumented run may survive.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=1000000
SEED=0  # libFuzzer's: 0 picks one
MUTATIONS=0
SEEDS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS="$2"; shift 2 ;;
    --seed) SEED="$2"; shift 2 ;;
    --mutations) MUTATIONS="$2"; shift 2 ;;
    *) SEEDS+=("$1"); shift ;;
  esac
done

source scripts/debian.sh
install_missing_debian_packages fuzz clang-22 libclang-rt-22-dev

CMAKE=cmake; [ -x .venv/bin/cmake ] && CMAKE=.venv/bin/cmake
NINJA=(); command -v ninja >/dev/null || [ ! -x .venv/bin/ninja ] || NINJA=(-DCMAKE_MAKE_PROGRAM="$PWD/.venv/bin/ninja")
export CCACHE_BASEDIR="$PWD"
if [ ! -f build/fuzz/build.ninja ]; then
  "$CMAKE" -S . -B build/fuzz -G Ninja "${NINJA[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DSTABLEHLO_TVM_ENABLE_FUZZER=ON -DSTABLEHLO_TVM_ENABLE_PYTHON=OFF
fi
"$CMAKE" --build build/fuzz --target stablehlo-to-tvm-fuzz

# Seeds: each `// -----` piece of each .mlir file, one file apiece.
corpus=build/fuzz/corpus
rm -rf "$corpus" && mkdir -p "$corpus"
.venv/bin/python - "$corpus" "$MUTATIONS" "$SEED" test "${SEEDS[@]}" <<'EOF'
import hashlib, pathlib, sys
from stablehlo_tvm import fuzz
out, mutations, seed, roots = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
pieces = fuzz.seeds(roots)
edited = list(fuzz.mutations(pieces, mutations, seed)) if mutations else []
count = 0
for piece in pieces + edited:
    data = piece.encode()
    if len(data) <= 65536:
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
        count += 1
print(f"fuzz: {count} seeds ({len(edited)} of them edits)")
EOF

mkdir -p fuzz-findings
# LLVM and MLIR are not instrumented: the poisoning their headers do in our
# code (BumpPtrAllocator) is not undone by their library code, so it is off.
ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0:detect_container_overflow=0 build/fuzz/bin/stablehlo-to-tvm-fuzz \
  -runs="$RUNS" -seed="$SEED" -max_len=65536 -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix=fuzz-findings/ "$corpus"
