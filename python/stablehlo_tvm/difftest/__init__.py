"""A differential tester: StableHLO programs generated per op from the
spec's constraints run on XLA:CPU and through the import, and their results
are compared with the corpus's check semantics.

    python -m stablehlo_tvm.difftest --count 2000 --jobs 2 --out difftest-out

Seeded and reproducible (case i of seed s is the same program everywhere);
each unexplained difference is reduced and written as a self-checking file
in the corpus's form, which `python -m stablehlo_tvm.conformance` replays.
"""

from .ops import FAMILIES, Case, generate
from .runner import judge, mismatches, run, run_cases

__all__ = ["FAMILIES", "Case", "generate", "judge", "mismatches", "run", "run_cases"]
