"""Quantized StableHLO (`!quant.uniform` tensors), generated per op, storage
type and quantization, against XLA:CPU on the same program (StableHLO's own
stablehlo-legalize-quant-to-math lowers it for XLA, as for the StableHLO
interpreter). Where that lowering departs from the spec's
dequantize-op-quantize definition, the spec, written in numpy, is the oracle
(named in each such test)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import stablehlo_tvm

QUANT_PROBE = """func.func @main(%a: tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 1.0>> {
  %0 = stablehlo.uniform_quantize %a : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return %0 : tensor<2x!quant.uniform<i8:f32, 1.0>>
}"""


def xla(text: str, args: list[np.ndarray]) -> list[np.ndarray]:
    """`text` compiled and run by XLA:CPU after StableHLO's quantized-to-math
    lowering."""
    import jax
    from jax._src import compiler
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib import xla_client
    from jaxlib.mlir import ir, passmanager
    from jaxlib.mlir.dialects import stablehlo

    stablehlo.register_stablehlo_passes()
    context = jax_mlir.make_ir_context()
    # jaxlib's Python contexts lack the quant dialect; reading a portable
    # artifact that uses a quantized type loads it.
    stablehlo.deserialize_portable_artifact(
        context, stablehlo.serialize_portable_artifact_str(QUANT_PROBE, stablehlo.get_current_version())
    )
    with context:
        module = ir.Module.parse(text)
        passmanager.PassManager.parse("builtin.module(func.func(stablehlo-legalize-quant-to-math))").run(module.operation)
        lowered = str(module)
    device = jax.devices("cpu")[0]
    options = compiler.get_compile_options(num_replicas=1, num_partitions=1)
    executable = device.client.compile_and_load(lowered, xla_client.DeviceList((device,)), options)
    outs = executable.execute_sharded([jax.device_put(a, device) for a in args]).disassemble_into_single_device_arrays()
    return [np.asarray(o[0]) for o in outs]


def tvm(text: str, args: list[np.ndarray]) -> np.ndarray:
    out = stablehlo_tvm.build(text)(*args)
    return np.asarray(out[0] if isinstance(out, (list, tuple)) else out)


def t(shape, element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{element}>" if shape else f"tensor<{element}>"


def program(args: list[tuple], quantized: list[str], body: list[str], result: tuple, result_type: str, float_type: str = "f32") -> str:
    """@main quantizing each float argument (shape, ...) to its type in
    `quantized`, computing `body` (which defines %r of shape `result` and
    type `result_type`), and returning %r dequantized."""
    params = ", ".join(f"%a{i}: {t(shape, float_type)}" for i, shape in enumerate(args))
    lines = [f"func.func @main({params}) -> {t(result, float_type)} {{"]
    for i, (shape, q) in enumerate(zip(args, quantized)):
        lines.append(f"  %q{i} = stablehlo.uniform_quantize %a{i} : ({t(shape, float_type)}) -> {t(shape, q)}")
    lines += [f"  {line}" for line in body]
    lines.append(f"  %d = stablehlo.uniform_dequantize %r : ({t(result, result_type)}) -> {t(result, float_type)}")
    lines += [f"  return %d : {t(result, float_type)}", "}"]
    return "\n".join(lines)


def inputs(shapes, seed=0, low=-3.0, high=3.0):
    rng = np.random.default_rng(seed)
    return [rng.uniform(low, high, shape).astype(np.float32) for shape in shapes]


def assert_close(got, want):
    # The check the quantized corpus uses: |difference| <= 1e-4.
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=0, atol=1e-4)


QUANTIZATIONS = {
    "i8": "!quant.uniform<i8:f32, 0.05:-3>",
    "i16": "!quant.uniform<i16:f32, 0.001:5>",
    "i4": "!quant.uniform<i4:f32, 0.5:1>",
    "narrow_range": "!quant.uniform<i8<-127:127>:f32, 0.04>",
}
OTHER = "!quant.uniform<i8:f32, 0.021:7>"
UNARY = [
    "abs", "cbrt", "ceil", "cosine", "exponential", "exponential_minus_one", "floor", "log", "log_plus_one",
    "logistic", "negate", "round_nearest_afz", "round_nearest_even", "rsqrt", "sign", "sine", "sqrt", "tan", "tanh",
]
POSITIVE_ONLY = {"log", "log_plus_one", "rsqrt", "sqrt", "power"}
# add: XLA's lowering requantizes both operands to the result's scale and adds
# integers (two roundings); the spec's add is tested against numpy below.
BINARY = ["subtract", "multiply", "divide", "maximum", "minimum", "power", "remainder", "atan2"]
S = (3, 4)


def _positive(op, args):
    return [np.abs(a) + 0.1 for a in args] if op in POSITIVE_ONLY else args


@pytest.mark.parametrize("q", sorted(QUANTIZATIONS))
@pytest.mark.parametrize("op", UNARY)
def test_unary_op_matches_xla(op, q):
    qt = QUANTIZATIONS[q]
    text = program([S], [qt], [f"%r = stablehlo.{op} %q0 : {t(S, qt)}"], S, qt)
    args = _positive(op, inputs([S]))
    assert_close(tvm(text, args), xla(text, args)[0])


@pytest.mark.parametrize("q", sorted(QUANTIZATIONS))
@pytest.mark.parametrize("op", BINARY)
def test_binary_op_with_another_result_quantization_matches_xla(op, q):
    qt = QUANTIZATIONS[q]
    out = OTHER if q == "i8" else qt
    text = program([S, S], [qt, qt], [f"%r = stablehlo.{op} %q0, %q1 : ({t(S, qt)}, {t(S, qt)}) -> {t(S, out)}"], S, out)
    args = _positive(op, inputs([S, S], seed=1))
    assert_close(tvm(text, args), xla(text, args)[0])


DATA_MOVEMENT = {
    "transpose": ([S], ["%r = stablehlo.transpose %q0, dims = [1, 0] : ({a}) -> {r}"], (4, 3)),
    "reshape": ([S], ["%r = stablehlo.reshape %q0 : ({a}) -> {r}"], (12,)),
    "broadcast_in_dim": ([S], ["%r = stablehlo.broadcast_in_dim %q0, dims = [0, 1] : ({a}) -> {r}"], (3, 4, 2)),
    "slice": ([S], ["%r = stablehlo.slice %q0 [1:3, 0:4:2] : ({a}) -> {r}"], (2, 2)),
    "concatenate": ([S, S], ["%r = stablehlo.concatenate %q0, %q1, dim = 0 : ({a}, {a}) -> {r}"], (6, 4)),
    "clamp": ([S, S], ["%r = stablehlo.clamp %q1, %q0, %q1 : {a}"], S),
    "requantize": ([S], [f"%r = stablehlo.uniform_quantize %q0 : ({{a}}) -> {t(S, OTHER)}"], S),
    "pad": (
        [S],
        [
            "%z = stablehlo.slice %q0 [0:1, 0:1] : ({a}) -> {one}",
            "%p = stablehlo.reshape %z : ({one}) -> {scalar}",
            "%r = stablehlo.pad %q0, %p, low = [1, 0], high = [0, 2], interior = [0, 1] : ({a}, {scalar}) -> {r}",
        ],
        (4, 9),
    ),
    "compare_select": (
        [S, S],
        [
            f"%c = stablehlo.compare GT, %q0, %q1 : ({{a}}, {t(S, OTHER)}) -> tensor<3x4xi1>",
            "%r = stablehlo.select %c, %q0, %q0 : tensor<3x4xi1>, {a}",
        ],
        S,
    ),
}


@pytest.mark.parametrize("name", sorted(DATA_MOVEMENT))
def test_data_movement_and_selection_match_xla(name):
    qt = QUANTIZATIONS["i8"]
    shapes, body, result = DATA_MOVEMENT[name]
    result_type = OTHER if name == "requantize" else qt
    quantized = [qt, OTHER] if name == "compare_select" else [qt] * len(shapes)
    fill = dict(a=t(S, qt), r=t(result, qt), one=t((1, 1), qt), scalar=t((), qt))
    text = program(shapes, quantized, [line.format(**fill) for line in body], result, result_type)
    args = inputs(shapes, seed=2)
    assert_close(tvm(text, args), xla(text, args)[0])


# Sums scaled by lhs_scale * rhs_scale / 0.001, whole numbers here: XLA's
# lowering truncates the scaled sums where the spec rounds them.
I32 = "!quant.uniform<i32:f32, 0.001>"
PER_AXIS_RHS = "!quant.uniform<i8:f32:1, {0.1,0.2,0.3,0.04}>"


@pytest.mark.parametrize("rhs", ["per_tensor", "per_axis"])
def test_dot_general_into_i32_matches_xla(rhs):
    lhs_q, rhs_q = QUANTIZATIONS["i8"], PER_AXIS_RHS if rhs == "per_axis" else QUANTIZATIONS["narrow_range"]
    a, b = (2, 5, 4), (2, 4, 4)
    body = [
        f"%r = stablehlo.dot_general %q0, %q1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : "
        f"({t(a, lhs_q)}, {t(b, rhs_q.replace(':1,', ':2,'))}) -> {t((2, 5, 4), I32)}"
    ]
    text = program([a, b], [lhs_q, rhs_q.replace(":1,", ":2,")], body, (2, 5, 4), I32)
    args = inputs([a, b], seed=3)
    assert_close(tvm(text, args), xla(text, args)[0])


def test_dot_general_with_batch_after_free_dimensions_matches_xla():
    # rhs [K, N, batch]: lhs's zero point takes its share from rhs summed over
    # K, moved to the result's (batch, ..., N) order.
    lhs_q, rhs_q = QUANTIZATIONS["i8"], QUANTIZATIONS["narrow_range"]
    a, b = (5, 2, 4), (4, 3, 2)
    body = [
        f"%r = stablehlo.dot_general %q0, %q1, batching_dims = [1] x [2], contracting_dims = [2] x [0] : "
        f"({t(a, lhs_q)}, {t(b, rhs_q)}) -> {t((2, 5, 3), I32)}"
    ]
    text = program([a, b], [lhs_q, rhs_q], body, (2, 5, 3), I32)
    args = inputs([a, b], seed=10)
    assert_close(tvm(text, args), xla(text, args)[0])


def test_per_axis_convolution_into_i32_matches_xla():
    lhs_q, rhs_q = QUANTIZATIONS["i8"], "!quant.uniform<i8:f32:2, {0.1,0.2,0.04}>"
    x, w, out = (2, 7, 4), (3, 4, 3), (2, 7, 3)
    body = [
        f"%r = stablehlo.convolution(%q0, %q1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], "
        "window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
        f"({t(x, lhs_q)}, {t(w, rhs_q)}) -> {t(out, I32)}"
    ]
    text = program([x, w], [lhs_q, rhs_q], body, out, I32)
    args = inputs([x, w], seed=4)
    assert_close(tvm(text, args), xla(text, args)[0])


def test_per_axis_quantize_matches_xla():
    per_axis = "!quant.uniform<i8:f32:1, {0.1:-2,0.2:3,0.3:0,0.05:1}>"
    text = program([S], [per_axis], [f"%r = stablehlo.uniform_quantize %q0 : ({t(S, per_axis)}) -> {t(S, OTHER)}"], S, OTHER)
    args = inputs([S], seed=5)
    assert_close(tvm(text, args), xla(text, args)[0])


# -- The spec's definitions, where XLA's lowering departs from them ----------


def quantize(x, scale, zero_point, low, high):
    return np.clip(np.round(np.float32(x) / np.float32(scale) + np.float32(zero_point)), low, high)


def dequantize(q, scale, zero_point):
    return (q.astype(np.float32) - np.float32(zero_point)) * np.float32(scale)


def test_add_is_dequantize_add_quantize():
    # XLA rounds each operand to the result's scale before adding; the spec
    # adds the dequantized values and rounds once.
    qa, qr = "!quant.uniform<i8:f32, 0.05:-3>", OTHER
    text = program([S, S], [qa, qa], [f"%r = stablehlo.add %q0, %q1 : ({t(S, qa)}, {t(S, qa)}) -> {t(S, qr)}"], S, qr)
    a, b = inputs([S, S], seed=1)
    da, db = (dequantize(quantize(v, 0.05, -3, -128, 127), 0.05, -3) for v in (a, b))
    want = dequantize(quantize(da + db, 0.021, 7, -128, 127), 0.021, 7)
    assert_close(tvm(text, [a, b]), want)


def test_unsigned_storage_round_trip():
    # XLA's lowering reads u8 storage as signed; the spec's meaning is kept.
    qt = "!quant.uniform<u8:f32, 0.03:128>"
    text = program([S], [qt], [f"%r = stablehlo.negate %q0 : {t(S, qt)}"], S, qt)
    (x,) = inputs([S], seed=6, low=-5, high=5)
    stored = quantize(x, 0.03, 128, 0, 255)
    want = dequantize(quantize(-dequantize(stored, 0.03, 128), 0.03, 128, 0, 255), 0.03, 128)
    assert_close(tvm(text, [x]), want)


def test_dot_general_into_i8_rounds_and_clamps():
    # XLA's lowering truncates the rescaled sums and wraps them into i8; the
    # spec rounds to nearest even and clamps to the storage range.
    lhs_q, rhs_q, out_q = "!quant.uniform<i8:f32, 0.04:-2>", "!quant.uniform<i8:f32, 0.04>", "!quant.uniform<i8:f32, 0.3:7>"
    body = [f"%r = stablehlo.dot_general %q0, %q1, contracting_dims = [1] x [0] : ({t((4, 4), lhs_q)}, {t((4, 4), rhs_q)}) -> {t((4, 4), out_q)}"]
    text = program([(4, 4), (4, 4)], [lhs_q, rhs_q], body, (4, 4), out_q)
    a, b = inputs([(4, 4), (4, 4)], seed=7)
    sums = dequantize(quantize(a, 0.04, -2, -128, 127), 0.04, -2).astype(np.float64) @ dequantize(
        quantize(b, 0.04, 0, -128, 127), 0.04, 0
    ).astype(np.float64)
    want = dequantize(quantize(sums.astype(np.float32), 0.3, 7, -128, 127), 0.3, 7)
    assert_close(tvm(text, [a, b]), want)


def test_reduce_body_on_quantized_values():
    # The body's add runs on quantized scalars: each step dequantizes, adds
    # and quantizes again, in order.
    qt = QUANTIZATIONS["i8"]
    body = [
        f"%z = stablehlo.slice %q0 [0:1, 0:1] : ({t(S, qt)}) -> {t((1, 1), qt)}",
        f"%p = stablehlo.reshape %z : ({t((1, 1), qt)}) -> {t((), qt)}",
        f"%r = stablehlo.reduce(%q0 init: %p) applies stablehlo.add across dimensions = [1] : ({t(S, qt)}, {t((), qt)}) -> {t((3,), qt)}",
    ]
    text = program([S], [qt], body, (3,), qt)
    (x,) = inputs([S], seed=8, low=-1, high=1)
    stored = quantize(x, 0.05, -3, -128, 127)
    want = []
    for row in stored:
        acc = stored[0, 0]
        for v in row:
            acc = quantize(dequantize(acc, 0.05, -3) + dequantize(v, 0.05, -3), 0.05, -3, -128, 127)
        want.append(dequantize(acc, 0.05, -3))
    assert_close(tvm(text, [x]), np.array(want, np.float32))


@pytest.mark.parametrize("expressed", ["bf16", "f16"])
def test_half_precision_expressed_type(expressed):
    qt = f"!quant.uniform<i8:{expressed}, 0.05:2>"
    text = program([S], [qt], [f"%r = stablehlo.tanh %q0 : {t(S, qt)}"], S, qt, float_type=expressed)
    dtype = ml_dtypes.bfloat16 if expressed == "bf16" else np.float16
    (x,) = inputs([S], seed=9)
    x = x.astype(dtype)
    stored = np.clip(np.round((x / dtype(0.05)).astype(dtype) + dtype(2)), -128, 127)
    values = ((stored - 2).astype(dtype) * dtype(0.05)).astype(dtype)
    again = np.clip(np.round((np.tanh(values.astype(np.float32)).astype(dtype) / dtype(0.05)).astype(dtype) + dtype(2)), -128, 127)
    want = ((again - 2).astype(dtype) * dtype(0.05)).astype(np.float32)
    np.testing.assert_allclose(tvm(text, [x]).astype(np.float32), want, atol=0.05 + 1e-3)


def test_quantized_arguments_and_results_are_storage_integers():
    qt = "!quant.uniform<i8:f32, 0.5:-3>"
    text = f"""func.func @main(%x: {t(S, qt)}) -> {t(S, qt)} {{
  %r = stablehlo.transpose %x, dims = [0, 1] : ({t(S, qt)}) -> {t(S, qt)}
  return %r : {t(S, qt)}
}}"""
    x = np.arange(12, dtype=np.int8).reshape(S) - 6
    got = tvm(text, [x])
    assert got.dtype == np.int8
    np.testing.assert_array_equal(got, x)


def test_quantized_constant_operand():
    # A quantized constant (storage values in its attribute) added to a
    # quantized argument.
    text = """func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = stablehlo.constant() <{value = dense<[1, -4, 100]> : tensor<3xi8>}> : () -> tensor<3x!quant.uniform<i8:f32, 5.000000e-01:-3>>
  %q = stablehlo.uniform_quantize %x : (tensor<3xf32>) -> tensor<3x!quant.uniform<i8:f32, 5.000000e-01:-3>>
  %s = stablehlo.add %q, %c : tensor<3x!quant.uniform<i8:f32, 5.000000e-01:-3>>
  %d = stablehlo.uniform_dequantize %s : (tensor<3x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<3xf32>
  return %d : tensor<3xf32>
}"""
    x = np.array([1.0, -2.25, 7.0], np.float32)
    np.testing.assert_array_equal(tvm(text, [x]), xla(text, [x])[0])
