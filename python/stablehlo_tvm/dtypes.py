"""numpy's dtypes for TVM's dtype names: one table for the emitter (constant
data), the runtime (arguments and results) and callbacks."""

from __future__ import annotations

import numpy as np

# TVM names numpy spells differently, or lacks without ml_dtypes.
ML_DTYPES = ("bfloat16", "float8_e4m3fn", "float8_e5m2")


def numpy_dtype(name: str) -> np.dtype:
    """The numpy dtype of a TVM dtype name (bfloat16 and the float8 types
    via ml_dtypes)."""
    if name in ML_DTYPES:
        import ml_dtypes

        return np.dtype(getattr(ml_dtypes, name))
    return np.dtype(name)
