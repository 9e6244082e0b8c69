"""Prints the coefficients of the f64 digamma in lib/Conversion/
StableHLOToTVM/Math.cpp: Chebyshev fits, made at 150 bits, as polynomials
in a variable s in [-1, 1] (lowest degree first), of

  psi(x) / (x - x0) on [1, 2], s = 2x - 3, x0 = 1.46163... the positive
    zero of psi (factored out to keep psi's relative accuracy next to it;
    printed as a sum of two doubles);
  g(t) = psi(1/t) - log(1/t) + t/2 for y = 1/t >= 2, s = 4t - 1 (what
    the asymptotic series sums, to the ULP from 2 on).

    python scripts/fit_digamma.py
"""

import mpmath

mpmath.mp.prec = 150

if __name__ == "__main__":
    x0 = mpmath.findroot(mpmath.digamma, 1.46)
    high = float(x0)
    low = float(x0 - high)
    quotient = lambda s: mpmath.digamma((s + 3) / 2) / ((s + 3) / 2 - x0)  # noqa: E731
    poly, error = mpmath.chebyfit(quotient, [-1, 1], 29, error=True)
    print(f"// psi(x) / (x - x0) on [1, 2], degree 28, fit error {float(error):.1e}")
    print(f"static constexpr double kDigammaZeroHigh = {high!r};")
    print(f"static constexpr double kDigammaZeroLow = {low!r};")
    print("static constexpr double kDigammaOverZero[] = {")
    coefficients = [float(c) for c in reversed(poly)]
    for i in range(0, len(coefficients), 3):
        print("    " + ", ".join(f"{c!r}" for c in coefficients[i : i + 3]) + ",")
    print("};")
    g = lambda s: (lambda t: mpmath.digamma(1 / t) - mpmath.log(1 / t) + t / 2 if t else mpmath.mpf(0))((s + 1) / 4)  # noqa: E731
    poly, error = mpmath.chebyfit(g, [-1, 1], 19, error=True)
    print(f"// g(t) on [0, 1/2], degree 18, fit error {float(error):.1e}")
    print("static constexpr double kDigammaAsymptotic[] = {")
    coefficients = [float(c) for c in reversed(poly)]
    for i in range(0, len(coefficients), 3):
        print("    " + ", ".join(f"{c!r}" for c in coefficients[i : i + 3]) + ",")
    print("};")
