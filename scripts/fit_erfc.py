"""Prints the coefficients of the f64 erfc in lib/Conversion/StableHLOToTVM/
Math.cpp: Chebyshev fits, made at 150 bits, of the scaled complementary
error function erfcx(y) = exp(y^2) erfc(y), each as a polynomial in a
variable s in [-1, 1] (lowest degree first):

  y in [0.5, 2]:  erfcx(y),          s = (2y - 2.5) / 1.5
  y in [2, 4]:    erfcx(y),          s = y - 3
  y >= 4:         y erfcx(y) at t = 1/y in (0, 1/4], s = 8t - 1

    python scripts/fit_erfc.py
"""

import mpmath

mpmath.mp.prec = 150


def erfcx(y):
    return mpmath.exp(y * y) * mpmath.erfc(y)


def fit(f, lo, hi, degree):
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    poly, error = mpmath.chebyfit(lambda s: f(lo + (hi - lo) * (s + 1) / 2), [-1, 1], degree + 1, error=True)
    return [float(c) for c in reversed(poly)], float(error)


PIECES = [
    ("kErfcxHalfToTwo", erfcx, 0.5, 2, 24),
    ("kErfcxTwoToFour", erfcx, 2, 4, 22),
    ("kErfcxTimesYBeyondFour", lambda t: erfcx(1 / t) / t if t > 0 else 1 / mpmath.sqrt(mpmath.pi), 0, 0.25, 18),
]

if __name__ == "__main__":
    for name, f, lo, hi, degree in PIECES:
        coefficients, error = fit(f, lo, hi, degree)
        print(f"// [{lo}, {hi}], degree {degree}, fit error {error:.1e}")
        print(f"static constexpr double {name}[] = {{")
        for i in range(0, len(coefficients), 3):
            print("    " + ", ".join(f"{c!r}" for c in coefficients[i : i + 3]) + ",")
        print("};")
