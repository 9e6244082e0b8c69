"""The body of a ``tvm.kernel`` op, written out as a TIR PrimFunc.

Each op of the body becomes one TIR statement or expression: loops become
``For``, ``memref.load``/``memref.store`` become buffer accesses, every scalar
result is bound once (``Bind``) where the op stands, so evaluation order is
the body's. Values are held in the dtype of their MLIR type (signless
integers as signed TIR integers); the ops whose meaning depends on
signedness (``divui``, ``cmpi ult``, ``extui``, ...) reinterpret their
operands as the op says, and loads/stores convert from/to the buffer's
dtype, which is the tensor's (``uint32`` for ``ui32``). The table below is
arith's and math's semantics, op by op; the C++ pipeline decided what to
compute.
"""

from __future__ import annotations

from typing import Any, Callable

from .errors import EmitError


def _tir():
    from tvm import tirx

    return tirx


def _unsigned(dtype: str) -> str:
    return "u" + dtype if dtype.startswith("int") else dtype


def _dtype(x) -> str:
    return str(x.ty)


def _as(dtype: str, x):
    tir = _tir()
    return x if _dtype(x) == dtype else tir.Cast(dtype, x)


def _as_unsigned(x):
    """`x`'s bits read as the unsigned type of its width. A constant is
    converted here: TVM's folder refuses a negative value for an unsigned
    type instead of wrapping it."""
    tir = _tir()
    dtype = _dtype(x)
    u = _unsigned(dtype)
    if u == dtype:
        return x
    if isinstance(x, tir.IntImm):
        return tir.IntImm(u, int(x.value) & ((1 << int(dtype[3:])) - 1))
    return tir.Cast(u, x)


_WRAPPING = {
    "add": lambda a, b: a + b,
    "subtract": lambda a, b: a - b,
    "multiply": lambda a, b: a * b,
    "negative": lambda a: -a,
    "abs": lambda a: _tir().abs(a),
}


def flagged_integer(dtype) -> bool:
    """Whether `dtype` is a scalar integer type whose add, subtract and
    multiply TVM compiles with LLVM's no-wrap flags: 32 bits or more."""
    import tvm

    d = tvm.DataType(str(dtype))
    return d.type_code in (tvm.DataTypeCode.INT, tvm.DataTypeCode.UINT) and d.bits >= 32 and d.lanes == 1


def wrapping(op: str, *operands):
    """`op` (a _WRAPPING key) on integer TIR values of one type, wrapping as
    StableHLO's integer arithmetic does (abs(INT_MIN) is INT_MIN). TVM
    compiles 32- and 64-bit integer arithmetic with LLVM's no-wrap flags
    (nsw, nuw), under which LLVM folds what does wrap (an unsigned 0 - x to
    0, x >= x + y to y == 0, x * x to a non-negative value): computed in the
    integer twice as wide, where nothing wraps (signed; unsigned for an
    unsigned product), and truncated. LLVM narrows that back to one
    instruction of the type, without the flags. Narrower types, which TVM
    compiles without the flags, get `op` itself."""
    tir = _tir()
    fn = _WRAPPING[op]
    dtype = _dtype(operands[0])
    if not flagged_integer(dtype):
        return fn(*operands)
    import tvm

    bits = tvm.DataType(dtype).bits
    wide = f"{'uint' if op == 'multiply' and dtype.startswith('u') else 'int'}{2 * bits}"
    # 32-bit operands are widened unsigned, then read as the wide type:
    # TVM's canonical simplifier does not look through the reinterpretation
    # into the operands' bound expressions (along Philox's rounds of 32-bit
    # words that took 10 s of a build). TVM's code generator takes
    # reinterpret(0) for a null pointer: an operand the simplifier folds to
    # 0 is made a literal before code generation (cpu/literal_reinterprets.py);
    # a constant, and a 64-bit operand (a counter, which a loop of one
    # iteration makes 0), are cast alone here, as before that pass.
    unsigned_wide = wide if wide.startswith("u") else "u" + wide

    def widened(x):
        if isinstance(x, tir.IntImm) or bits > 32:
            return tir.Cast(wide, x)
        return tir.call_intrin(wide, "tirx.reinterpret", tir.Cast(unsigned_wide, x))

    return tir.Cast(dtype, fn(*[widened(x) for x in operands]))


def _in_unsigned(fn, fold=None):
    """An integer op computed on the operands' bits read as unsigned: it
    wraps on overflow (TIR's signed arithmetic may not) and gives the
    unsigned meaning where that matters. Constant operands are folded here
    (`fold` on Python ints), since TVM's folder rejects unsigned underflow."""

    def op(args, attrs, dtype):
        tir = _tir()
        if dtype == "bool":
            return fn(*args)
        if fold is not None and all(isinstance(a, tir.IntImm) for a in args):
            bits = int(dtype[3:])
            value = fold(*[int(a.value) & ((1 << bits) - 1) for a in args]) & ((1 << bits) - 1)
            return tir.IntImm(dtype, value - (1 << bits) if value >= 1 << (bits - 1) else value)
        return _as(dtype, fn(*[_as_unsigned(a) for a in args]))

    return op


def _wrapping_unless_marked(op: str):
    """arith.addi or arith.muli: wrapping (see `wrapping`), unless the op
    carries arith's no-wrap flags (a product of values widened from half
    the width, which cannot wrap), which LLVM's then rightly state."""
    fn = _WRAPPING[op]
    marked = _in_unsigned(fn, fn)
    wraps = _in_unsigned(lambda a, b: wrapping(op, a, b), fn)

    def emit(args, attrs, dtype):
        flags = str(attrs.get("overflowFlags", ""))
        return (marked if "nuw" in flags or "nsw" in flags else wraps)(args, attrs, dtype)

    return emit


def _subi(args, attrs, dtype):
    """Wrapping subtraction (see `wrapping`); from zero, the two's
    complement ~b + 1, which needs no constant of the unsigned type's
    negative values."""
    tir = _tir()
    a, b = args
    if isinstance(a, tir.IntImm) and a.value == 0 and not isinstance(b, tir.IntImm) and dtype != "bool":
        u = _unsigned(dtype)
        return _as(dtype, wrapping("add", tir.bitwise_not(_as(u, b)), tir.IntImm(u, 1)))
    return _in_unsigned(lambda x, y: wrapping("subtract", x, y), lambda x, y: x - y)(args, attrs, dtype)


def _signed(fn):
    def op(args, attrs, dtype):
        return fn(*args)

    return op


def _float(fn):
    def op(args, attrs, dtype):
        return fn(*args)

    return op


def _cmpi(args, attrs, dtype):
    tir = _tir()
    pred = attrs["predicate"]
    a, b = args
    if _dtype(a) == "bool":  # TIR compares no booleans: compare them as bytes
        a, b = _as("uint8", a), _as("uint8", b)
    if pred in ("eq", "ne"):
        return tir.EQ(a, b) if pred == "eq" else tir.NE(a, b)
    if pred[0] == "u":
        a, b = _unsigned_order(a), _unsigned_order(b)
    compare = {"lt": tir.LT, "le": tir.LE, "gt": tir.GT, "ge": tir.GE}[pred[1:]]
    return compare(a, b)


def _unsigned_order(x):
    """A value ordered as `x`'s bits read unsigned. Below 64 bits: those bits
    in a signed int64, so no unsigned type reaches TVM's simplifier, whose
    constraint bookkeeping can fail on nested unsigned-cast comparisons
    (an abort from LowerIntrin, in a kernel clamping uint16)."""
    from tvm import DataType

    tir = _tir()
    bits = DataType(_dtype(x)).bits
    if bits >= 64:
        return _as_unsigned(x)
    if isinstance(x, tir.IntImm):
        return tir.IntImm("int64", int(x.value) & ((1 << bits) - 1))
    return tir.bitwise_and(_as("int64", x), tir.IntImm("int64", (1 << bits) - 1))


def _isnan(x):
    # TIR's isnan takes no half types; widening keeps NaN-ness.
    if _dtype(x) in ("float16", "bfloat16"):
        x = _tir().Cast("float32", x)
    return _tir().isnan(x)


def _cmpf(args, attrs, dtype):
    tir = _tir()
    pred = attrs["predicate"]
    a, b = args
    if pred in ("false", "true"):
        return tir.IntImm("bool", int(pred == "true"))
    unordered = tir.Or(_isnan(a), _isnan(b))
    if pred == "ord":
        return tir.Not(unordered)
    if pred == "uno":
        return unordered
    base = {
        "eq": tir.EQ, "gt": tir.GT, "ge": tir.GE, "lt": tir.LT, "le": tir.LE,
        "ne": lambda x, y: tir.Not(tir.EQ(x, y)),
    }[pred[1:]](a, b)
    if pred[0] == "o":
        return tir.And(tir.Not(unordered), base)
    return tir.Or(unordered, base)


def _select(args, attrs, dtype):
    return _tir().Select(*args)


def _int_cast(signed: bool):
    def op(args, attrs, dtype):
        tir = _tir()
        (x,) = args
        if _dtype(x) == "bool":
            if signed:  # i1 true sign-extends to all ones
                return tir.Select(x, tir.IntImm(dtype, -1), tir.IntImm(dtype, 0))
            return tir.Cast(dtype, x)
        if dtype == "bool":  # trunci to i1 keeps the lowest bit
            return tir.NE(tir.bitwise_and(x, tir.IntImm(_dtype(x), 1)), tir.IntImm(_dtype(x), 0))
        source = _dtype(x) if signed else _unsigned(_dtype(x))
        target = dtype if signed else _unsigned(dtype)
        return _as(dtype, tir.Cast(target, _as(source, x)))

    return op


def _to_float(signed: bool):
    def op(args, attrs, dtype):
        (x,) = args
        if _dtype(x) != "bool" and not signed:
            x = _as(_unsigned(_dtype(x)), x)
        return _tir().Cast(dtype, x)

    return op


def _fp_to_int(signed: bool):
    def op(args, attrs, dtype):
        tir = _tir()
        (x,) = args
        return _as(dtype, tir.Cast(dtype if signed else _unsigned(dtype), x))

    return op


def _cast(args, attrs, dtype):
    return _tir().Cast(dtype, args[0])


def _bitcast(args, attrs, dtype):
    tir = _tir()
    (x,) = args
    # bfloat16 values are held in f32 (see _KernelWriter.bind): their bits
    # are the f32's upper half.
    if dtype == "float32" and _dtype(x) in ("int16", "uint16"):
        wide = tir.Cast("uint32", _as("uint16", x))
        return tir.reinterpret("float32", tir.shift_left(wide, tir.IntImm("uint32", 16)))
    if _dtype(x) == "float32" and dtype in ("int16", "uint16"):
        high = tir.shift_right(tir.reinterpret("uint32", x), tir.IntImm("uint32", 16))
        return _as(dtype, tir.Cast("uint16", high))
    return tir.reinterpret(dtype, x)


def round_to_bfloat16(x):
    """An f32 rounded to the nearest bfloat16 (ties to even), still in f32;
    NaN stays NaN."""
    tir = _tir()
    u32 = lambda v: tir.IntImm("uint32", v)  # noqa: E731
    bits = tir.reinterpret("uint32", x)
    lsb = tir.bitwise_and(tir.shift_right(bits, u32(16)), u32(1))
    rounded = tir.bitwise_and(bits + u32(0x7FFF) + lsb, u32(0xFFFF0000))
    quiet = tir.bitwise_or(tir.bitwise_and(bits, u32(0xFFFF0000)), u32(0x00400000))
    return tir.reinterpret("float32", tir.Select(tir.isnan(x), quiet, rounded))


def _shift(kind: str):
    def op(args, attrs, dtype):
        tir = _tir()
        a, b = args
        if kind == "shli":
            return _as(dtype, tir.shift_left(_as_unsigned(a), _as_unsigned(b)))
        if kind == "shrui":
            return _as(dtype, tir.shift_right(_as_unsigned(a), _as_unsigned(b)))
        return tir.shift_right(a, b)

    return op


def _logical(int_fn, bool_fn):
    def op(args, attrs, dtype):
        return bool_fn(*args) if dtype == "bool" else int_fn(*args)

    return op


def _math(name: str):
    def op(args, attrs, dtype):
        tir = _tir()
        if dtype in ("float16", "bfloat16") and name not in ("abs", "floor", "ceil", "trunc", "nearbyint", "copysign"):
            # Computed in f32 and rounded once (TVM lowers no f16 atan2).
            return tir.Cast(dtype, getattr(tir, name)(*[tir.Cast("float32", a) for a in args]))
        return getattr(tir, name)(*args)

    return op


def _table() -> dict[str, Callable[[list, dict, str], Any]]:
    tir = _tir()
    return {
        "arith.addi": _wrapping_unless_marked("add"),
        "arith.subi": _subi,
        "arith.muli": _wrapping_unless_marked("multiply"),
        "arith.divsi": _signed(tir.truncdiv),
        "arith.remsi": _signed(tir.truncmod),
        "arith.divui": _in_unsigned(tir.truncdiv),
        "arith.remui": _in_unsigned(tir.truncmod),
        "arith.maxsi": _signed(tir.max),
        "arith.minsi": _signed(tir.min),
        "arith.maxui": _in_unsigned(tir.max),
        "arith.minui": _in_unsigned(tir.min),
        "arith.andi": _logical(tir.bitwise_and, tir.And),
        "arith.ori": _logical(tir.bitwise_or, tir.Or),
        # TVM compiles == and != on booleans as float compares: spelled out.
        "arith.xori": _logical(tir.bitwise_xor, lambda a, b: tir.Or(tir.And(a, tir.Not(b)), tir.And(tir.Not(a), b))),
        "arith.shli": _shift("shli"),
        "arith.shrsi": _shift("shrsi"),
        "arith.shrui": _shift("shrui"),
        "arith.cmpi": _cmpi,
        "arith.cmpf": _cmpf,
        "arith.select": _select,
        "arith.extsi": _int_cast(True),
        "arith.extui": _int_cast(False),
        "arith.trunci": _int_cast(True),
        "arith.index_cast": _int_cast(True),
        "arith.index_castui": _int_cast(False),
        "arith.sitofp": _to_float(True),
        "arith.uitofp": _to_float(False),
        "arith.fptosi": _fp_to_int(True),
        "arith.fptoui": _fp_to_int(False),
        "arith.extf": _cast,
        "arith.truncf": _cast,
        "arith.bitcast": _bitcast,
        "arith.addf": _float(lambda a, b: a + b),
        "arith.subf": _float(lambda a, b: a - b),
        "arith.mulf": _float(lambda a, b: a * b),
        "arith.divf": _float(tir.Div),
        # C's fmod (LLVM's frem): TVM lowers no tirx.fmod intrinsic for f64.
        "arith.remf": _float(tir.truncmod),
        "arith.negf": _float(lambda a: -a),
        # Not NaN-propagating: bodies use them on operands known not NaN.
        "arith.maxnumf": _float(tir.max),
        "arith.minnumf": _float(tir.min),
        "math.absf": _math("abs"),
        "math.absi": _math("abs"),
        "math.sqrt": _math("sqrt"),
        "math.rsqrt": _math("rsqrt"),
        "math.exp": _math("exp"),
        "math.log": _math("log"),
        "math.log1p": _math("log1p"),
        "math.tanh": _math("tanh"),
        "math.sin": _math("sin"),
        "math.cos": _math("cos"),
        "math.tan": _math("tan"),
        "math.trunc": _math("trunc"),
        "math.atan2": _math("atan2"),
        "math.powf": _math("pow"),
        "math.floor": _math("floor"),
        "math.ceil": _math("ceil"),
        "math.roundeven": _math("nearbyint"),
        "math.copysign": _math("copysign"),
        "math.ctpop": _math("popcount"),
        "math.ctlz": _math("clz"),
    }


def _seq(stmts: list):
    """One statement of a list (TIR rejects a SeqStmt of one)."""
    tir = _tir()
    if not stmts:
        return tir.Evaluate(0)
    return stmts[0] if len(stmts) == 1 else tir.SeqStmt(stmts)


_INDEX_TABLE = {
    "arith.addi": _signed(lambda a, b: a + b),
    "arith.subi": _signed(lambda a, b: a - b),
    "arith.muli": _signed(lambda a, b: a * b),
}


def _constant(value: Any, dtype: str):
    tir = _tir()
    if dtype == "bool":
        return tir.IntImm("bool", int(bool(value)))
    if dtype == "bfloat16":  # held in f32, see _KernelWriter.bind
        return tir.FloatImm("float32", float(value))
    if dtype.startswith("float"):
        return tir.FloatImm(dtype, float(value))
    bits = int(dtype[3:])
    value = int(value) & ((1 << bits) - 1)  # the attribute's bits, as signed
    if value >= 1 << (bits - 1):
        value -= 1 << bits
    return tir.IntImm(dtype, value)


# What TVM's simplifier takes in reasonable time once Binds are substituted
# (build time of one chain of values, each read three times: plain
# arithmetic, 0.4 s at 6,600 nodes and 6 s at 59,000; with a select in each
# step, whose branches are re-simplified under its condition, 0.4 s at 40
# selects and 20 s at 364).
_SUBSTITUTED_NODES = 2048
_SUBSTITUTED_SELECTS = 12


class _KernelWriter:
    def __init__(self, name: str):
        self.name = name
        self.values: dict[int, Any] = {}
        self.sizes: dict[int, tuple[int, int]] = {}  # see `substituted`
        self.buffers: dict[int, tuple[Any, str, bool]] = {}
        self.table = _table()
        self.count = 0

    def fresh(self, hint: str) -> str:
        self.count += 1
        return f"{hint}{self.count}"

    def buffer(self, value_id: int, shape, dtype: str, value_dtype: str, scope: str = "global"):
        tir = _tir()
        scalar = len(shape) == 0 and scope == "local"
        if scope == "local" and dtype == "bfloat16":
            dtype = value_dtype = "float32"  # bfloat16 values are held in f32
        # A dynamic dimension (-1) is a variable the buffer binds when called.
        dims = [tir.IntImm("int64", d) if d != -1 else tir.Var(self.fresh("n"), "int64") for d in (shape if not scalar else (1,))]
        buf = tir.decl_buffer(dims, dtype, self.fresh("buf" if scope == "global" else "local"), scope=scope)
        self.buffers[value_id] = (buf, value_dtype, scalar)
        return buf

    def access(self, op, buffer_operand: int, index_operands: list[int]):
        buf, value_dtype, scalar = self.buffers[buffer_operand]
        indices = [self.values[i] for i in index_operands]
        if scalar:
            indices = [_tir().IntImm("int64", 0)]
        return buf, value_dtype, indices

    def block(self, block: dict) -> list:
        tir = _tir()
        stmts: list = []
        for op in block["ops"]:
            name = op["name"]
            where = f"{op['location']}: {name}"
            operands = op["operands"]
            if name in ("scf.yield", "scf.reduce"):
                continue
            if name == "arith.constant":
                value_id, (_, dtype, _) = op["results"][0]
                self.values[value_id] = _constant(op["attributes"]["value"], dtype)
            elif name == "memref.alloca":
                value_id, (shape, dtype, _) = op["results"][0]
                buf = self.buffer(value_id, shape, dtype, dtype, scope="local")
                stmts.append(tir.AllocBuffer(buf))
            elif name == "memref.dim":
                buf, _, _ = self.buffers[operands[0]]
                value_id, _ = op["results"][0]
                self.values[value_id] = buf.shape[int(self.values[operands[1]])]
            elif name == "memref.load":
                buf, value_dtype, indices = self.access(op, operands[0], operands[1:])
                value_id, _ = op["results"][0]
                load = _as(value_dtype, tir.BufferLoad(buf, indices))
                if buf.dtype == "bfloat16":
                    # TVM's bfloat16 legalization rewrites loads in stores but
                    # not in Binds: widen through a local f32 slot.
                    slot = tir.decl_buffer([tir.IntImm("int64", 1)], "float32", self.fresh("widened"), scope="local")
                    zero = [tir.IntImm("int64", 0)]
                    stmts += [tir.AllocBuffer(slot), tir.BufferStore(slot, tir.Cast("float32", load), zero)]
                    load = tir.BufferLoad(slot, zero)
                stmts.append(self.bind(value_id, load))
            elif name == "memref.store":
                buf, _, indices = self.access(op, operands[1], operands[2:])
                value = _as(buf.dtype, self.values[operands[0]])
                stmts.append(tir.BufferStore(buf, value, indices))
            elif name == "scf.for":
                stmts.append(self.loop(op, [operands[0]], [operands[1]], [operands[2]], tir.ForKind.SERIAL))
            elif name == "scf.parallel":
                n = len(operands) // 3
                stmts.append(self.loop(op, operands[:n], operands[n : 2 * n], operands[2 * n :], tir.ForKind.PARALLEL))
            elif name == "scf.if":
                cond = self.values[operands[0]]
                then_blocks, else_blocks = op["regions"]
                then_case = _seq(self.block(then_blocks[0]))
                else_case = _seq(self.block(else_blocks[0])) if else_blocks and else_blocks[0]["ops"][:-1] else None
                stmts.append(tir.IfThenElse(cond, then_case, else_case))
            elif name in self.table:
                value_id, (_, dtype, type_text) = op["results"][0]
                # Index arithmetic (addresses, loop bounds) cannot overflow:
                # signed, so TVM's simplifier may fold and reason about it.
                table = _INDEX_TABLE if type_text == "index" and name in _INDEX_TABLE else self.table
                # bfloat16 is computed in f32 and rounded (see bind).
                compute = "float32" if dtype == "bfloat16" else dtype
                try:
                    expr = table[name]([self.values[i] for i in operands], op["attributes"], compute)
                except Exception as error:  # noqa: BLE001 - TVM raises many kinds
                    raise EmitError(f"{where}: {error}") from error
                expr = _as(compute, expr)
                if dtype == "bfloat16":
                    stmts.append(self.bind(value_id, expr))
                    expr = round_to_bfloat16(self.values[value_id])
                grown = self.substituted(value_id, name, operands, rounded=dtype == "bfloat16")
                if grown and type_text != "index" and _dtype(expr) != "bool":
                    stmts += self.hold(value_id, expr)
                    self.sizes[value_id] = (1, 0)
                else:
                    stmts.append(self.bind(value_id, expr))
            else:
                raise EmitError(f"{where}: no TIR equivalent for this op in a tvm.kernel body")
        return stmts

    def substituted(self, value_id: int, name: str, operands, rounded: bool) -> bool:
        """Records the size of `value_id`'s expression with every Bound
        value substituted, and the selects in it, as TVM's simplifier makes
        it: it replaces a Bind's variable by its value wherever it meets
        it, in every analyzer-based pass. Returns whether that grew past
        what those passes take in reasonable time, so the value is better
        held in a buffer (see `hold`)."""
        size = 1 + sum(self.sizes.get(i, (1, 0))[0] for i in operands)
        selects = (name == "arith.select") + sum(self.sizes.get(i, (1, 0))[1] for i in operands)
        if rounded:  # round_to_bfloat16 reads the value four times, in a select
            size, selects = size * 4, selects * 4 + 1
        self.sizes[value_id] = (size, selects)
        return size > _SUBSTITUTED_NODES or selects > _SUBSTITUTED_SELECTS

    def hold(self, value_id: int, expr) -> list:
        """`expr` computed into a one-element local buffer that later reads
        load, which ends the substitution (see `substituted`). A map body of
        12 selects, each on the previous result three times, did not finish
        building as Binds. Only such chains are held: a buffer hides the
        value from TVM's simplifier and vectorizer, and held everywhere,
        ODE solver loops ran 2x slower."""
        tir = _tir()
        slot = tir.decl_buffer([tir.IntImm("int64", 1)], _dtype(expr), self.fresh("r"), scope="local")
        zero = [tir.IntImm("int64", 0)]
        self.values[value_id] = tir.BufferLoad(slot, zero)
        return [tir.AllocBuffer(slot), tir.BufferStore(slot, expr, zero)]

    def bind(self, value_id: int, expr):
        tir = _tir()
        if _dtype(expr) == "bfloat16":
            # TIR computes nothing in bfloat16 before its storage is lowered:
            # kernels hold bfloat16 values in f32, rounded after every op.
            expr = tir.Cast("float32", expr)
        var = tir.Var(self.fresh("v"), _dtype(expr))
        self.values[value_id] = var
        return tir.Bind(var, expr)

    def loop(self, op, lbs, ubs, steps, kind):
        """Loops with unit-stride TIR counters; each induction variable is
        bound to lb + counter * step."""
        tir = _tir()
        (block,) = op["regions"][0]
        ivs = [arg_id for arg_id, _ in block["arguments"]]
        counters = []
        prologue = []
        for iv, lb, ub, step in zip(ivs, lbs, ubs, steps):
            lb, ub, step = self.values[lb], self.values[ub], self.values[step]
            counter = tir.Var(self.fresh("i"), "int64")
            extent = tir.max(tir.truncdiv(ub - lb + step - tir.IntImm("int64", 1), step), tir.IntImm("int64", 0))
            counters.append((counter, lb, extent))
            prologue.append(self.bind(iv, lb + counter * step))
        body = _seq(prologue + self.block(block))
        for depth, (counter, _, extent) in reversed(list(enumerate(counters))):
            loop_kind = kind if depth == 0 else tir.ForKind.SERIAL
            body = tir.For(counter, tir.IntImm("int64", 0), extent, loop_kind, body)
        return body


def kernel_primfunc(op: dict, operand_types: list[tuple], result_types: list[tuple], in_place: list[int] = ()):
    """The PrimFunc of one tvm.kernel op (as the C++ walk gives it). A
    result written into an input's buffer (`in_place[i] >= 0`) has no
    parameter: relax.call_tir_inplace passes only the inputs, and the body
    writes the input's buffer (its own is unused)."""
    writer = _KernelWriter(op["attributes"]["name"])
    (block,) = op["regions"][0]
    aliased = {len(operand_types) + result for result, operand in enumerate(in_place) if operand >= 0}
    params = []
    for k, ((arg_id, (shape, value_dtype, _)), (_, dtype, _)) in enumerate(zip(block["arguments"], operand_types + result_types)):
        buffer = writer.buffer(arg_id, shape, dtype, value_dtype)
        if k not in aliased:
            params.append(buffer)
    func = _primfunc(params, _seq(writer.block(block)))
    if not aliased:
        # Results are buffers of their own, apart from every input (read
        # only): LLVM may then vectorize a scatter's window loop, whose
        # stores it otherwise assumed might change the updates it reads.
        func = func.with_attr("tirx.noalias", True)
    return func


def update_slice_primfunc(shape: tuple, update_shape: tuple, dtype: str):
    """`operand[starts + i] = update[i]` over the update's window only: the
    PrimFunc of tvm.update_slice_in_place, called with
    relax.call_tir_inplace (the operand is the result)."""
    tir = _tir()
    operand = tir.decl_buffer(_dims(shape), dtype, "operand")
    update = tir.decl_buffer(_dims(update_shape), dtype, "update")
    starts = [tir.decl_buffer([], "int64", f"start{axis}") for axis in range(len(shape))]
    counters = [tir.Var(f"i{axis}", "int64") for axis in range(len(shape))]
    # The starts are read once, before the loops: loaded inside, through
    # buffers LLVM cannot prove unchanged by the stores, they kept the
    # innermost loop scalar.
    offsets = [tir.Var(f"s{axis}", "int64") for axis in range(len(shape))]
    indices = [offset + counter for offset, counter in zip(offsets, counters)]
    store = tir.BufferStore(operand, tir.BufferLoad(update, counters), indices)
    reads = [tir.Bind(offset, tir.BufferLoad(start, [])) for offset, start in zip(offsets, starts)]
    loops = _loop_nest(store, counters, _dims(update_shape), parallel=False)
    return _primfunc([operand, update, *starts], tir.SeqStmt([*reads, loops]))


def copy_primfunc(shape: tuple, dtype: str, parallel: bool = True):
    """A fresh copy of a tensor, as plain loops (the outer one parallel
    unless asked not to, or the tensor has one axis):
    an element-wise block that only loads would be taken for a reshape and
    become a view of its source (relax.transform.RewriteDataflowReshape)."""
    tir = _tir()
    source = tir.decl_buffer(_dims(shape), dtype, "source")
    copy = tir.decl_buffer(_dims(shape), dtype, "copy")
    counters = [tir.Var(f"i{axis}", "int64") for axis in range(len(shape))]
    store = tir.BufferStore(copy, tir.BufferLoad(source, counters), counters)
    return _loop_nest_primfunc([source, copy], store, counters, _dims(shape), parallel=parallel and len(shape) > 1)


def _dims(sizes) -> list:
    tir = _tir()
    return [tir.IntImm("int64", int(d)) for d in sizes]


def _loop_nest_primfunc(params: list, body, counters: list, extents: list, parallel: bool):
    """A PrimFunc of `params` running `body` under one loop per counter
    (the outermost parallel when asked)."""
    return _primfunc(params, _loop_nest(body, counters, extents, parallel))


def _loop_nest(body, counters: list, extents: list, parallel: bool):
    """`body` under one loop per counter (the outermost parallel when asked)."""
    tir = _tir()
    for depth, (counter, extent) in reversed(list(enumerate(zip(counters, extents)))):
        kind = tir.ForKind.PARALLEL if parallel and depth == 0 else tir.ForKind.SERIAL
        body = tir.For(counter, tir.IntImm("int64", 0), extent, kind, body)
    return body


def _primfunc(params: list, body):
    """A PrimFunc whose body sits in the root block schedules expect."""
    from tvm import s_tir

    return _tir().PrimFunc(params, s_tir.SBlockRealize([], True, s_tir.SBlock([], [], [], "root", body)))


def rounded_products_matmul_primfunc(lhs_shape, rhs_shape, dtype: str):
    """tvm.matmul with `rounded_products`: C[.., i, j] = sum over k in order
    of A[.., i, k] * B[.., k, j], each product rounded to `dtype` first. TVM's
    LLVM target fuses a multiply into the add that takes it (one rounding);
    llvm.arithmetic.fence keeps them apart. The sum is an ordinary reduction
    block, which the CPU rules schedule as a matmul (the order over k per
    element kept)."""
    from tvm import te

    tir = _tir()
    *batch, m, k = lhs_shape
    n = rhs_shape[-1]
    a = te.placeholder(lhs_shape, dtype, "A")
    b = te.placeholder(rhs_shape, dtype, "B")
    r = te.reduce_axis((0, k), "k")

    def element(*index):
        *at, i, j = index
        product = a[(*at, i, r)] * b[(*at, r, j)]
        return te.sum(tir.call_llvm_pure_intrin(dtype, "llvm.arithmetic.fence", product), axis=r)

    c = te.compute((*batch, m, n), element, name="matmul")
    return te.create_prim_func([a, b, c]).without_attr("global_symbol")
