"""Fits the rational approximations stablehlo_tvm/cpu/fastmath.py evaluates
(and the f32 erfc of the import) and prints their coefficients and error.

Each is R(v) = P(v) / Q(v) with Q(0) = 1 over v = x or v = x^2, fitted for
least relative error on [lo, hi] (Loeb's reweighting for the denominator,
Lawson's for the worst nodes), in a variable scaled to [0, 1] and rescaled
afterwards.

    .venv/bin/python scripts/fit_fastmath.py
"""

from __future__ import annotations

import numpy as np
from scipy import special

FITS = {
    # name: (g, lo, hi, variable, degree of P, degree of Q); g is what R approximates.
    # The small-argument forms fit the correction c (f(x) = x + x^3 c, and
    # erf(x) = x (2/sqrt(pi) + x^2 c)): its rounding is scaled down by x^2.
    "tanh_small": (lambda x: (np.tanh(x) / x - 1) / (x * x), 0.01, 0.625, "x2", 2, 1),
    "erf_small": (lambda x: (special.erf(x) / x - 2 / np.sqrt(np.pi)) / (x * x), 0.01, 1.0, "x2", 3, 2),
    "erfc_scaled": (special.erfcx, 1.0, 4.0, "x", 4, 3),
    # f32 erfc in the import (lib/Conversion/StableHLOToTVM/Math.cpp), evaluated in f64.
    "erfcx_wide": (special.erfcx, 0.0, 10.1, "x", 6, 5),
}


def fit(g, lo: float, hi: float, variable: str, p_degree: int, q_degree: int, nodes: int = 4000, rounds: int = 16):
    x = lo + (hi - lo) * (1 - np.cos(np.linspace(0, np.pi, nodes))) / 2
    x = np.where(x == 0, 1e-9, x)
    v = x * x if variable == "x2" else x
    top = v.max()
    s, target = v / top, g(x)
    emphasis = np.ones_like(s)
    for _ in range(rounds):
        q_prev = np.ones_like(s)
        for _ in range(6):
            weight = emphasis / np.abs(target * q_prev)
            columns = [s**k for k in range(p_degree + 1)] + [-target * s**k for k in range(1, q_degree + 1)]
            solution = np.linalg.lstsq(np.stack(columns, axis=1) * weight[:, None], target * weight, rcond=None)[0]
            p, q = solution[: p_degree + 1], np.concatenate([[1.0], solution[p_degree + 1 :]])
            q_prev = np.polyval(q[::-1], s)
        error = np.abs(np.polyval(p[::-1], s) / q_prev / target - 1)
        emphasis *= 1 + error / error.max()
    powers = top ** -np.arange(max(p_degree, q_degree) + 1, dtype=np.float64)
    return p * powers[: p_degree + 1], q * powers[: q_degree + 1], float(error.max())


if __name__ == "__main__":
    for name, (g, lo, hi, variable, pd, qd) in FITS.items():
        p, q, error = fit(g, lo, hi, variable, pd, qd)
        print(f"{name}: relative error {error:.2e} on [{lo}, {hi}] in {variable}")
        print(f"    P = {tuple(float(c) for c in p)}")
        print(f"    Q = {tuple(float(c) for c in q)}")
