"""Prints the polynomial coefficients of the f64 special functions in
lib/Conversion/StableHLOToTVM/Math.cpp: Chebyshev fits made with mpmath at
150 bits, each as a polynomial in a variable s in [-1, 1], lowest degree
first (the variable each function maps its argument to is in its table's
comment).

  erfc     erfcx(y) = exp(y^2) erfc(y) on [0.5, 2] (s = (2y - 2.5) / 1.5)
           and [2, 4] (s = y - 3); y erfcx(y) in t = 1/y on (0, 1/4]
           (s = 8t - 1).
  lgamma   lgamma(2 + t) / t on [-1/2, 1/2] (s = 2t): the zero at 2
           factored out.
  digamma  psi(x) / (x - x0) on [1, 2] (s = 2x - 3), x0 = 1.46163... the
           positive zero of psi, factored out to keep psi's relative
           accuracy next to it (printed as a sum of two doubles); and
           g(t) = psi(1/t) - log(1/t) + t/2 on (0, 1/2] (s = 4t - 1), what
           the asymptotic series sums.
  i1e      bessel_i1e(y) / y on [0, 8] (s = y/4 - 1), used up to 6 (its
           Horner sum rounds to 6 ULP beyond 7); sqrt(y) bessel_i1e(y) in
           t = 6/y on (0, 1] (s = 2t - 1).

    python scripts/fit_float64_special.py erfc|lgamma|digamma|i1e
"""

import sys

import mpmath

mpmath.mp.prec = 150


def fit(f, lo, hi, degree):
    """Coefficients in s of f(lo + (hi - lo) (s + 1) / 2), and the fit's
    error estimate. (An odd number of nodes: mpmath's estimate is wrong
    for some even ones.)"""
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    poly, error = mpmath.chebyfit(lambda s: f(lo + (hi - lo) * (s + 1) / 2), [-1, 1], degree + 1, error=True)
    return [float(c) for c in reversed(poly)], float(error)


def table(name, description, f, lo, hi, degree):
    coefficients, error = fit(f, lo, hi, degree)
    print(f"// {description} on [{lo}, {hi}], degree {degree}, fit error {error:.1e}")
    print(f"static constexpr double {name}[] = {{")
    for i in range(0, len(coefficients), 3):
        print("    " + ", ".join(f"{c!r}" for c in coefficients[i : i + 3]) + ",")
    print("};")


def erfcx(y):
    return mpmath.exp(y * y) * mpmath.erfc(y)


def erfc():
    table("kErfcxHalfToTwo", "erfcx(y)", erfcx, 0.5, 2, 24)
    table("kErfcxTwoToFour", "erfcx(y)", erfcx, 2, 4, 22)
    scaled = lambda t: erfcx(1 / t) / t if t > 0 else 1 / mpmath.sqrt(mpmath.pi)  # noqa: E731
    table("kErfcxTimesYBeyondFour", "y erfcx(y) in t = 1/y", scaled, 0, 0.25, 18)


def lgamma():
    quotient = lambda t: mpmath.loggamma(2 + t) / t if t else 1 - mpmath.euler  # noqa: E731
    table("kLgammaAroundTwo", "lgamma(2 + t) / t", quotient, -0.5, 0.5, 20)


def digamma():
    x0 = mpmath.findroot(mpmath.digamma, 1.46)
    print(f"static constexpr double kDigammaZeroHigh = {float(x0)!r};")
    print(f"static constexpr double kDigammaZeroLow = {float(x0 - float(x0))!r};")
    table("kDigammaOverZero", "psi(x) / (x - x0)", lambda x: mpmath.digamma(x) / (x - x0), 1, 2, 28)
    asymptotic = lambda t: mpmath.digamma(1 / t) - mpmath.log(1 / t) + t / 2 if t else mpmath.mpf(0)  # noqa: E731
    table("kDigammaAsymptotic", "g(t) = psi(1/t) - log(1/t) + t/2", asymptotic, 0, 0.5, 18)


def i1e():
    scaled = lambda y: mpmath.besseli(1, y) * mpmath.exp(-abs(y))  # noqa: E731
    table("kI1eOverY", "bessel_i1e(y) / y", lambda y: scaled(y) / y if y else mpmath.mpf(0.5), 0, 8, 30)
    tail = lambda t: mpmath.sqrt(6 / t) * scaled(6 / t) if t else 1 / mpmath.sqrt(2 * mpmath.pi)  # noqa: E731
    table("kI1eTimesRootY", "sqrt(y) bessel_i1e(y) in t = 6/y", tail, 0, 1, 32)


if __name__ == "__main__":
    {"erfc": erfc, "lgamma": lgamma, "digamma": digamma, "i1e": i1e}[sys.argv[1]]()
