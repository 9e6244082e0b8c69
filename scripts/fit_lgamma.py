"""Prints the coefficients of the f64 lgamma in lib/Conversion/
StableHLOToTVM/Math.cpp: a Chebyshev fit, made at 150 bits, of
lgamma(2 + t) / t on t in [-1/2, 1/2] (lgamma's zero at 2 factored out),
as a polynomial in s = 2t (lowest degree first).

    python scripts/fit_lgamma.py
"""

import mpmath

mpmath.mp.prec = 150


def quotient(s):
    t = s / 2
    if t == 0:
        return 1 - mpmath.euler  # the derivative psi(2)
    return mpmath.loggamma(2 + t) / t


if __name__ == "__main__":
    poly, error = mpmath.chebyfit(quotient, [-1, 1], 21, error=True)
    print(f"// lgamma(2 + t) / t on [-1/2, 1/2], degree 20, fit error {float(error):.1e}")
    print("static constexpr double kLgammaAroundTwo[] = {")
    coefficients = [float(c) for c in reversed(poly)]
    for i in range(0, len(coefficients), 3):
        print("    " + ", ".join(f"{c!r}" for c in coefficients[i : i + 3]) + ",")
    print("};")
