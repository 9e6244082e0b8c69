//===- Passes.td - Transformations of the import pipeline ---*- tablegen -*-===//

#ifndef STABLEHLO_TVM_TRANSFORMS_PASSES
#define STABLEHLO_TVM_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def InlinePrivateFunctions : Pass<"stablehlo-inline-private-functions",
                                  "ModuleOp"> {
  let summary = "Inline the private helper functions JAX emits, then drop them";
  let description = [{
    JAX outlines pieces of a program into private functions (`@relu`,
    `@_where`, `@closed_call`, ...) and calls them with `func.call`. The import
    wants one flat function per entry point, so every call to a private
    function is inlined, innermost first, and private functions left without
    uses are erased. Public functions are never inlined nor erased.

    ```mlir
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = call @relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }
    func.func private @relu(%x: tensor<4xf32>) -> tensor<4xf32> { ... }
    ```
    becomes `@main` with the body of `@relu` in place of the call.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def Simplify : Pass<"stablehlo-simplify", "ModuleOp"> {
  let summary = "Rewrite ops into the equivalent forms the conversion handles";
  let description = [{
    Preprocessing before the conversion to tvm, each rewrite exact:
    - `composite` calls its `decomposition` (`func.call`);
    - `get_tuple_element` of a `tuple` is the element; unused tuples go;
    - `dynamic_broadcast_in_dim`, `dynamic_reshape`, `dynamic_pad`,
      `dynamic_iota`, `real_dynamic_slice`, `dynamic_gather` and
      `dynamic_conv` whose shape operands are constants and whose result
      type is static become their static forms, and `get_dimension_size` of
      a static dimension a constant (the patterns stablehlo-refine-shapes
      shares);
    - `real` of a real tensor is the tensor, `imag` of one is zeros;
    - float `power` by a constant 0, 1, 2, 3 or -1 (the constant may be a
      converted integer) is 1, x, x * x, (x * x) * x or 1 / x (exact but
      for 3, which XLA rewrites the same way but in bf16; C's pow does not
      vectorize);
    - a `convolution` with `batch_group_count` G becomes one with
      `feature_group_count` G over the lhs with its G batch slices moved
      next to its features;
    - `chlo.scan` becomes a `while` over the positions of its dimension,
      slicing the inputs and writing the outputs with dynamic slices;
    - a `map` whose body is elementwise ops becomes those ops on the whole
      tensors (any op the conversion handles then works in a body, complex
      ones included, which stablehlo-lower-complex splits in tensors);
    - float `x - x` becomes `x * 0 + 0` (TVM folds x - x to 0, losing the
      NaN of NaN and infinite x; it keeps x * 0);
    - f16, f32 and f64 `x / c` for a constant c (splat, broadcast or any
      constant tensor, every element and its reciprocal normal) becomes
      `x * (1 / c)`, the reciprocal rounded to the element type: XLA's
      rewrite, which changes the last bit of a third of the quotients (a
      mean's division by its count); bf16 is divided.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::stablehlo::StableHLODialect"];
}

def WidenBF16Results : Pass<"stablehlo-widen-bf16-results", "ModuleOp"> {
  let summary = "Compute in f32 the bf16 arithmetic whose result is converted to f32";
  let description = [{
    A `convert` from bf16 to f32 of bf16 arithmetic (add, subtract,
    multiply, divide, exp, log, tanh, sqrt, rsqrt, sine, cosine, atan2)
    becomes that arithmetic on its operands converted to f32. XLA computes
    bf16 arithmetic in f32, rounding each result to bf16, and cancels a
    rounding that a conversion back to f32 follows: measured against
    jax.jit, `convert(x * y)` is the unrounded f32 product, while the
    operations before the last one and explicit f32 -> bf16 -> f32 round
    trips keep their rounding. A `dot_general` or `convolution` of bf16
    operands with a bf16 result converted to f32 gets the f32 result type
    instead (the accumulation read unrounded, as jax.jit gives it). Runs
    once, after inlining (the operands' conversions it makes must keep
    theirs).
  }];
  let dependentDialects = ["::mlir::stablehlo::StableHLODialect"];
}

def TreeReduceHalfFloats : Pass<"stablehlo-tree-reduce-half-floats",
                                "ModuleOp"> {
  let summary = "Reduce and scan f16 and bf16 tensors in blocks, as XLA's CPU compiler does";
  let description = [{
    Each application of a reduce body rounds in f16 and bf16, so the order
    of the fold decides the result's bits; the spec leaves it to the
    implementation. A single-input `reduce` of a statically shaped f16 or
    bf16 tensor with a reduced dimension longer than 32, whose body is not
    a maximum or minimum, first folds windows of min(size, 32) along every
    reduced dimension (stride = window, "same" padding: split evenly, the
    extra element after) with a `reduce_window`, then reduces the windows'
    results as before; repeated until no reduced dimension is longer than
    32. Together with the conversion's sequential fold of each window
    (row-major, each step rounded), this is XLA:CPU's order, and its sums
    agree with jax.jit bit for bit.

    A forward cumulative `reduce_window` (cumsum, cumprod: the window spans
    one dimension of more than 16 and reaches back to its start) whose body
    is one binary op is scanned likewise: padded with the init value to
    blocks of 16, each block scanned, the blocks' totals scanned (again in
    blocks while longer than 16) and shifted by one, and the body applied
    to each running value and the total before its block.

    ```mlir
    %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0]
        : (tensor<33x8xbf16>, tensor<bf16>) -> tensor<8xbf16>
    ```
    becomes a `reduce_window` with `window_dimensions = [32, 1]`,
    `padding = [[15, 16], [0, 0]]` to `tensor<2x8xbf16>` (17 rows, then 16),
    reduced over dimension 0.
  }];
  let dependentDialects = ["::mlir::stablehlo::StableHLODialect"];
}

def SplitDilatedConvolutions : Pass<"stablehlo-split-dilated-convolutions",
                                    "ModuleOp"> {
  let summary = "Convolve an lhs-dilated input one output phase at a time";
  let description = [{
    A convolution with lhs dilation (the input gradient of a strided
    convolution, a transposed convolution), stride 1, no rhs dilation,
    window reversal or batch groups, over static shapes, becomes one
    convolution per output phase (the output index modulo the dilation, in
    every spatial dimension): output m * d + r reads the undilated input
    only through the kernel taps k = k0 + d * t of one residue class k0, so
    the phase is a stride-1 convolution of the input with those taps (a
    strided slice of the kernel), padded so it reads input m + t + shift.
    The phases' results are joined along unit dimensions after the spatial
    ones and reshaped into place, the last rounding cut off. The input's
    zeros are then never gathered or multiplied: dilation 2 x 2 did four
    times the products needed.

    ```mlir
    %y = stablehlo.convolution(%dy, %w) ... lhs_dilate = [2, 2] ...
    ```
    becomes four convolutions of %dy with 2x2, 2x1, 1x2 and 1x1 slices of a
    3x3 %w, concatenated and reshaped to %y's shape.
  }];
  let dependentDialects = ["::mlir::stablehlo::StableHLODialect"];
}

def FoldConvolutionDepth : Pass<"stablehlo-fold-convolution-depth",
                                "ModuleOp"> {
  let summary = "Write a 3-D convolution as a sum of 2-D ones over depth-folded batches";
  let description = [{
    A convolution with three spatial dimensions, f32 or f64, over static
    shapes, without lhs dilation, window reversal or batch groups, is the
    sum over its kernel's depth taps t of a 2-D convolution: the input
    (padded in depth as the op pads it) sliced at depth t * rhs_dilation
    with the op's depth stride, transposed to [batch, depth, rows, columns,
    features] and reshaped so that every output depth is a batch element,
    convolved with the tap's [rows, columns, in, out] kernel (the op's
    padding, strides and dilation in the other two dimensions, its feature
    groups and precision), reshaped back and transposed to the op's output
    layout. 2-D convolutions become matrix products in the CPU build; 3-D
    ones ran as a direct loop nest (a 3-D CNN's gradient at a quarter of
    XLA's speed).

    ```mlir
    %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f] ...
    ```
    becomes, for a kernel of depth 3, three slices of %x and of %w, three
    2-D convolutions and their sum.
  }];
  let dependentDialects = ["::mlir::stablehlo::StableHLODialect"];
}

def SplitLongSums : Pass<"stablehlo-split-long-sums", "ModuleOp"> {
  let summary = "Sum long float reductions in blocks, then the blocks' sums";
  let description = [{
    A float `reduce` whose body adds (f32 or wider: f16 and bf16 sums keep
    the order of stablehlo-tree-reduce-half-floats), over statically shaped dimensions
    holding at least 256 elements per result, becomes sums of sums, each
    the original's init value only at the last (the others start from -0):
    - reduced dimensions in separate runs: the last run first;
    - one run across rows (the last dimension kept): its dimensions one at
      a time, the last first; a single long one as [blocks, ~32] (a divisor
      of its length in [16, 64], else padded with -0 to blocks of 32);
    - everything reduced: all but the first dimension first; a vector of
      2048 or more as rows of a few hundred (a divisor that is a multiple of
      16, else padded to rows of 512);
    each sum made is split again while long enough. Rows summed along
    memory with a leading dimension kept stay one sum: the CPU build sums
    them by vector lanes. XLA's CPU compiler sums in blocks of 32; summed
    in one sequence of N additions, batch statistics and bias gradients
    were measured 20-75x further from the exact sum than XLA's.
  }];
  let dependentDialects = ["::mlir::stablehlo::StableHLODialect"];
}

def SinkBroadcasts : Pass<"stablehlo-sink-broadcasts", "ModuleOp"> {
  let summary = "Compute elementwise ops on the values their operands broadcast";
  let description = [{
    An elementwise op (select and clamp included) whose operands are all
    `broadcast_in_dim`s of equally shaped values with one dimension
    mapping, or splat constants, becomes
    the op on those values, broadcast once: the same elements, each
    computed once. JAX writes such ops wherever a loop counter or a scalar
    meets a tensor (`broadcast(i) % broadcast(2)`); in a loop body each was
    a kernel over the whole tensor per iteration. Runs after private
    functions are inlined (jnp's helpers are private functions) and shapes
    are refined (static shapes only).
  }];
  let dependentDialects = ["::mlir::stablehlo::StableHLODialect"];
}

def RefineShapes : Pass<"stablehlo-refine-shapes", "ModuleOp"> {
  let summary = "Make dynamic shapes static where the program determines them";
  let description = [{
    Shape-polymorphic programs (what `jax.export` writes for symbolic
    dimensions) compute their shapes: `get_dimension_size` of an argument,
    or a dimension passed as a leading scalar argument, flows through small
    integer arithmetic (`convert`, `reshape`, `concatenate`, `multiply`,
    `compare`, `select`, ...) into the shape operands of
    `dynamic_broadcast_in_dim`, `dynamic_reshape`, `dynamic_iota`,
    `dynamic_pad`, `real_dynamic_slice`, `dynamic_gather` and
    `dynamic_conv`. This pass evaluates that arithmetic where its inputs are
    known, infers every op's result shape from its operands' (each op's shape
    rule from the spec) and so makes shapes static, then rewrites dynamic ops
    whose shape operands became constants into their static forms (JAX's
    `custom_call @stablehlo.dynamic_reduce_window`, which cumulative sums
    over symbolic shapes use, into `reduce_window` with its callee's body).
    A `custom_call @shape_assertion` whose predicate is known is removed when
    it holds and is an error with JAX's message when it does not.

    Options specialize the entry function (`entry`, default `main` or the
    only public function) first: `arg-shapes` gives one shape per argument
    (`3x4`, `scalar` for rank 0), and `arg-values` fixes scalar integer
    arguments to values (`0=3`: argument 0 is 3), as the dimension
    arguments of older exports need. With either option, a shape the pass
    cannot make static is an error at the op that has it.

    ```mlir
    func.func @main(%n: tensor<i64>, %x: tensor<?x4xf32>) -> tensor<?x4xf32>
    ```
    with `arg-shapes=scalar,3x4 arg-values=0=3` becomes a function of
    `tensor<3x4xf32>` whose dynamic ops are static ones.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"\"",
           "Function to specialize (default: main, or the only public one)">,
    ListOption<"argShapes", "arg-shapes", "std::string",
               "Static shape of each entry argument (3x4, scalar for rank 0)">,
    ListOption<"argValues", "arg-values", "std::string",
               "Values of scalar integer entry arguments (index=value)">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::stablehlo::StableHLODialect"];
}

def SymbolizeShapes : Pass<"stablehlo-symbolize-shapes", "ModuleOp"> {
  let summary = "Keep dynamic shapes as symbolic sizes: one build for all sizes";
  let description = [{
    Runs after stablehlo-refine-shapes, on what it left dynamic. The small
    integer tensors JAX computes shapes with (from `get_dimension_size`
    through `convert`, `reshape`, `concatenate`, `broadcast_in_dim`,
    `slice`, arithmetic, `compare`, `select`) become scalar `index` and
    `i1` values: `tvm.dim` for a dynamic dimension, `arith` ops for the
    arithmetic, which the emitter writes as Relax's symbolic expressions.
    `dynamic_broadcast_in_dim`, `dynamic_reshape` and `dynamic_iota` become
    `tvm.broadcast_to`, `tvm.reshape` and `tvm.arange` with those sizes as
    operands; a `get_dimension_size` used as data becomes
    `tvm.size_tensor`; a `custom_call @shape_assertion` that does not fold
    to true becomes `tvm.shape_assertion` (JAX's message, checked when the
    function runs), threaded through the first dynamic argument. Argument
    dimensions an assertion equates share one symbol: the function's
    `tvm.dim_symbols` attribute lists each argument's dimensions (a symbol
    name where dynamic). Shapes computed from data are left as they are;
    the legality check reports them.

    ```mlir
    %0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %zero, %2, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x4xf32>
    ```
    becomes
    ```mlir
    %0 = tvm.dim %x {dim = 0 : i64} : (tensor<?x4xf32>) -> index
    %1 = tvm.reshape %zero {shape = array<i64: 1, 1>} : (tensor<f32>) -> tensor<1x1xf32>
    %2 = tvm.broadcast_to %1, %0 {shape = array<i64: -1, 4>} : (tensor<1x1xf32>, index) -> tensor<?x4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tvm::TVMDialect"];
}

def WidenSubByteIntegers : Pass<"stablehlo-widen-sub-byte-integers",
                                "ModuleOp"> {
  let summary = "Hold 2- and 4-bit integers in 8 bits, wrapping where needed";
  let description = [{
    TVM has no sub-byte integers. Tensors of i2/i4/ui2/ui4 become i8/ui8
    holding the same values (sign- or zero-extended; constants and function
    signatures too); arithmetic that can leave the narrow range (add,
    subtract, multiply, negate, abs, divide, power, shifts) wraps its result
    back, and logical right shifts, popcnt and count_leading_zeros read the
    narrow bit pattern (arithmetic right shifts copy its top bit, also for
    unsigned types). bitcast_convert, whose meaning is the bit layout, is
    left alone. Public functions with narrow results list their element types
    in `tvm.narrow_results` (one string per result, "" for the others), so
    callers get results of the declared types.
  }];
  let dependentDialects = ["::mlir::stablehlo::StableHLODialect"];
}

def LowerSmallFloats : Pass<"stablehlo-lower-small-floats", "ModuleOp"> {
  let summary = "Hold f8/f6/f4 values in f32, rounding where values are made";
  let description = [{
    TVM has no arithmetic on the float types narrower than 16 bits. Every
    tensor of one becomes an f32 tensor of the same (exactly representable)
    values. `convert` to a small type rounds to it with the format's own
    rules (round to nearest even, subnormals, overflow to infinity, or NaN
    without infinity, or the largest value without either; no negative
    zero in the FNUZ types; no zero or negative values in f8E8M0FNU), and
    every op computing new values (arithmetic, math, products) computes in
    f32 and rounds its result; ops that move or select values do not.
    Constants are widened exactly. Public functions list the small types of
    their results in `tvm.small_float_results` (one string per result, ""
    for the others), so callers get results of the declared types.
    bitcast_convert and reduce_precision, which read the bit layout, are
    left to the legality check.
  }];
  let dependentDialects = ["::mlir::stablehlo::StableHLODialect"];
}

def LowerQuantized : Pass<"stablehlo-lower-quantized", "ModuleOp"> {
  let summary = "Lower quantized tensors to integer code on their storage type";
  let description = [{
    A `!quant.uniform<storage:expressed, scale:zero_point>` tensor (per
    tensor or per axis) holds storage integers q meaning
    (q - zero_point) * scale. `uniform_quantize` becomes
    clamp(round_nearest_even(x / scale + zero_point)) converted to the
    storage type; `uniform_dequantize` becomes (q - zero_point) * scale, the
    difference taken in f32 (exact for storage of 16 bits or fewer) or i64
    so it cannot wrap. `dot_general` and
    `convolution` of quantized operands multiply storage values minus zero
    points in i32 and scale the sums once, by lhs_scale * rhs_scale /
    result_scale per output channel, into the result's storage type. Other
    computing ops follow the spec's dequantize-op-quantize definition. Data
    movement ops and ops with regions keep storage values as they are (the
    ops in their bodies are lowered like any other). Last, every quantized
    type (values, block arguments, signatures) becomes its storage type, so
    a quantized argument or result is passed as its storage integers.

    ```mlir
    %1 = stablehlo.uniform_quantize %0 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
    ```
    becomes a divide by 0.5, an add of -3, round_nearest_even, a clamp to
    [-128, 127] and a convert to `tensor<4xi8>`.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::stablehlo::StableHLODialect"];
}

def DropSharding : Pass<"stablehlo-drop-sharding", "ModuleOp"> {
  let summary = "Remove Shardy (sdy) sharding ops, meaningless on one device";
  let description = [{
    JAX code written for a mesh carries Shardy annotations: `sdy.mesh`
    symbols, and `sdy.sharding_constraint` / `sdy.reshard` ops that pass
    their operand through. A single-device import drops the meshes and
    replaces those ops by their operand. Sharding attributes on arguments and
    results stay; nothing reads them.

    ```mlir
    %2 = sdy.sharding_constraint %1 <@mesh, ...> : tensor<4xf32>
    ```
    becomes a use of `%1`.
  }];
}

def ExposeEffects : Pass<"stablehlo-expose-effects", "ModuleOp"> {
  let summary = "Give result-less host callbacks results the entry returns";
  let description = [{
    jax.debug.print and jax.debug.callback lower to
    `stablehlo.custom_call @xla_ffi_python_cpu_callback` with no results,
    which a dataflow import would drop as dead. Each such call directly in a
    public function's body gets one `tensor<0xi8>` result, appended to the
    function's results; `tvm.effect_results` on the function counts them,
    and callers drop them. Calls inside loops and branches are left as they
    are (the import reports them).

    ```mlir
    stablehlo.custom_call @xla_ffi_python_cpu_callback(%x) {...} : (tensor<f32>) -> ()
    return %y : tensor<f32>
    ```
    becomes
    ```mlir
    %t = stablehlo.custom_call @xla_ffi_python_cpu_callback(%x) {...} : (tensor<f32>) -> tensor<0xi8>
    return %y, %t : tensor<f32>, tensor<0xi8>
    ```
  }];
}

def ExposeChecks : Pass<"stablehlo-expose-checks", "ModuleOp"> {
  let summary = "Turn a self-checking test program into one that returns its checks";
  let description = [{
    Self-checking programs compute values and state what they expect of them,
    either as `stablehlo.custom_call @check.expect_*(%actual, %expected)` or
    with ops of the `check` dialect. This pass makes such a program runnable
    by a harness. The entry is `@main`, or else every function without
    arguments that checks (a program without either is left as it is). Every check in an entry's body is removed and its
    two values (a `*_const` check's constant materialized) are appended to the
    entry's results; the attribute `stablehlo_tvm.checks` lists, in order, how
    each pair is judged: `{kind, tolerance, min_ulp_difference,
    max_ulp_difference}` as the check states them (the custom_call forms: 1e-3
    for `expect_almost_eq`, 1e-4 for `eq`, 0 to 3 ULP for `expect_close`;
    a check's own i1 verdict, which at most the entry returns, is dropped from
    the results, as the harness judges in its place). A
    `call @inputs()` becomes arguments of the entry and `@inputs` becomes
    public, so the harness feeds the inputs at run time and nothing is folded
    at compile time.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::stablehlo::StableHLODialect"];
}

def DecomposeFft : Pass<"stablehlo-decompose-fft", "ModuleOp"> {
  let summary = "Write Fourier transforms as products with constant matrices";
  let description = [{
    Every `stablehlo.fft` (FFT, IFFT, RFFT, IRFFT; one to three axes; f32
    and f64) becomes complex stablehlo ops that stablehlo-lower-complex
    splits into real ones. Up to 64 points (a leading axis: 256; prime
    lengths up to 1024) a transform is one `dot_general` with its DFT
    matrix. A longer composite
    length N = N1 N2 (N1 the divisor nearest sqrt(N) from below) is the
    four-step factorization: N1-point transforms over a reshape, twiddle
    factors, N2-point transforms, one transpose; recursively, so the work
    is N (N1 + N2) per axis instead of N^2. A longer prime length is
    Bluestein's chirp convolution through power-of-two transforms. An
    inverse's 1/N is folded into a constant. A long RFFT of even length
    is one N/2-point complex transform (even samples as the real parts, odd
    ones as the imaginary parts) unfolded into bins 0..N/2 by two constant
    products; a long IRFFT of even length is the same backwards. Odd
    lengths use the complex transform (IRFFT: of the Hermitian spectrum,
    keeping the real part). Constants are computed in
    extended precision and rounded once.

    ```mlir
    %0 = stablehlo.fft %x, type = FFT, length = [4096] : (tensor<4096xcomplex<f32>>) -> tensor<4096xcomplex<f32>>
    ```
    becomes a reshape to 64x64, two products with a 64x64 DFT matrix, a
    multiply by a 64x64 constant and a transpose.

    With `library-points` N > 0, an f32/f64 transform of at least N points
    (the product of its lengths) becomes instead
    `stablehlo.custom_call @stablehlo_tvm.fft` with its type and rank in
    `mhlo.backend_config`: the runtime's radix transform (about 5 log2 N
    flops a point), called from kernels and the VM alike.
  }];
  let options = [
    Option<"libraryPoints", "library-points", "int64_t", /*default=*/"0",
           "Transforms of at least this many points call the library "
           "(0: none)">,
  ];
  let dependentDialects = ["::mlir::stablehlo::StableHLODialect"];
}

def LowerComplex : Pass<"stablehlo-lower-complex", "ModuleOp"> {
  let summary = "Lower complex tensors to pairs of real tensors";
  let description = [{
    TVM has no complex dtype. Each `tensor<...xcomplex<fN>>` becomes two
    `tensor<...xfN>`, the real and the imaginary part, in function signatures
    as well (a complex argument or result becomes two, real part first; the
    attributes `tvm.complex_arguments` and `tvm.complex_results` list the
    original positions that were complex, so a caller can split and join).
    Ops become their definitions over the parts, as stablehlo/chlo ops on
    real tensors: arithmetic (Smith's division), exp/expm1/log/log1p/pow,
    sqrt/rsqrt, sin/cos/tanh, abs (a scaled hypot), real/imag/complex,
    compare EQ/NE, convert, dot_general (four real products), sums, and the
    data movement ops part by part. A function with a complex op that has no
    definition here is left unchanged, for tvm-check-legality to report.

    ```mlir
    %0 = stablehlo.multiply %x, %y : tensor<4xcomplex<f32>>
    ```
    becomes `(a c - b d, a d + b c)` over the parts `a, b` of `%x` and `c, d`
    of `%y`.
  }];
  // Its definitions are stablehlo and chlo ops, which the input may lack.
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::stablehlo::StableHLODialect",
                           "::mlir::chlo::CHLODialect"];
}

def UnrollShortLoops : Pass<"stablehlo-unroll-short-loops", "ModuleOp"> {
  let summary = "Write a counted loop of a few trips as its body once per trip";
  let description = [{
    A `stablehlo.while` counted by one carried integer (the condition only
    compares it with a constant; it starts at a constant; the body adds a
    constant to it) whose trips are at most 8, whose copies hold at most
    1024 ops and whose body updates no slices (`dynamic_update_slice`,
    `scatter`: a scan's stacked outputs, which a loop updates in place and
    copies would copy whole) is replaced by its body once per trip, the
    counter a constant in each copy and the carried values threaded
    through. JAX's
    threefry hash (every `jax.random` draw with the default implementation)
    is a `fori_loop` of 5 trips of elementwise integer ops: unrolled, its
    trips fuse into a few kernels, where the loop ran each trip's kernels in
    turn. Inner loops are unrolled first; a loop of zero trips is its
    operands.

    ```mlir
    %r:2 = stablehlo.while(%i = %c0, %x = %x0) ... cond {
      %p = stablehlo.compare LT, %i, %c2 ...
      stablehlo.return %p
    } do {
      %y = stablehlo.multiply %x, %x ...
      %j = stablehlo.add %i, %c1 ...
      stablehlo.return %j, %y
    }
    ```
    becomes `%y0 = multiply %x0, %x0; %y1 = multiply %y0, %y0`, and `%r#1`
    is `%y1`.
  }];
}

def FoldSmallConstants : Pass<"stablehlo-fold-small-constants",
                               "ModuleOp"> {
  let summary = "Compute small ops on constants at import time";
  let description = [{
    An op whose result has at most 16 elements and whose operands are
    constants becomes the constant it computes when it is `reshape` or
    `slice` (of a constant of up to 4096 elements) of any integer or float
    type, or, on integers (not i1) of at most 16 elements,
    `broadcast_in_dim` of one element, `convert` between integer types,
    `add`, `subtract`, `multiply`, `and`, `or` or `xor` (wrapping as the op
    does). A float scalar's broadcast stays: the build keeps it a scalar,
    where a folded tensor would be a weight.
    These are coefficients and index or shift-amount computations: a
    polynomial's coefficients sliced one by one out of a constant table
    (jax.scipy.special's ndtri, zeta, polygamma) would otherwise be
    computed and allocated on every call, and an unrolled threefry hash's
    rotation amounts as constants need no out-of-range test (see the shift
    conversions). Folded ops left without uses are erased.

    ```mlir
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %s = stablehlo.slice %c [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %r = stablehlo.reshape %s : (tensor<1xui32>) -> tensor<ui32>
    ```
    makes `%r` the constant `dense<15> : tensor<ui32>`.
  }];
}

def HoistLoopInvariants : Pass<"stablehlo-hoist-loop-invariants",
                               "ModuleOp"> {
  let summary = "Compute what a while loop's iterations share once, before it";
  let description = [{
    A value the body hands on unchanged (JAX carries every value a loop
    closes over: a model's weights in a decoding loop) is the loop's operand
    in every iteration: its uses in both regions read the operand, and the
    position is dropped from the loop. Then an op of the body or condition
    whose operands are all defined outside the loop, and which has no
    effects, computes the same value in every iteration and moves before
    the loop, in order, so that chains move whole (a weight's slice, its
    reshape, a transpose of an embedding), when it is worth a buffer made
    per call and handed in: it reads or writes 1024 elements or more
    (smaller ops cost less inside a loop than that buffer). Broadcasts are
    not: they cost nothing where they fuse into their users and a whole
    tensor where they do not. A transcendental function per element (exp,
    log, trigonometric, tanh, logistic, cbrt, atan2, power) is worth it
    from 16 elements (a solver's constant phases), and moves with every
    invariant op it reads, broadcasts and small ops included. Never moved:
    ops without operands (constants, iotas: copied where a moved op reads
    them); loops and branches, which need not end or be taken.

    ```mlir
    %r:2 = stablehlo.while(%i = %c0, %w = %weights) ... do {
      %t = stablehlo.transpose %w, dims = [1, 0] ...
      ...
      stablehlo.return %next, %w
    }
    ```
    becomes a loop over `%i` alone that reads a transpose of `%weights`
    computed before it. Runs before stablehlo-isolate-loops.
  }];
}

def IsolateLoops : Pass<"stablehlo-isolate-loops", "ModuleOp"> {
  let summary = "Make the values a while loop uses from outside loop-carried";
  let description = [{
    A `stablehlo.while` may use values defined outside its regions. Each such
    value becomes an extra operand, an extra argument of both regions and an
    extra result (the body returns it unchanged), so that the loop's regions
    are isolated and can become functions. Inner loops are isolated first.
  }];
}

def UpdateLoopSlicesInPlace : Pass<"stablehlo-update-loop-slices-in-place",
                                   "ModuleOp"> {
  let summary = "Mark the slice updates of loop-carried arrays that can write in place";
  let description = [{
    A scan's stacked output is a loop-carried array that each iteration
    updates with `stablehlo.dynamic_update_slice` and hands on; `x.at[i]`
    updates in a loop do the same with a single-input `stablehlo.scatter`. Copying the
    whole array per iteration makes the loop quadratic. Where the body's
    argument goes through a chain of such updates to the yield in the same
    position (and nowhere else), and every other reader of each old value
    runs before the update that replaces it (the update depends on what it
    computed, as a key/value cache's next entry depends on the attention
    that read the cache; views of the old value are followed to their
    readers), nothing can see the old value after it is overwritten: each
    update is marked `tvm.in_place` (a slice update becomes
    `tvm.update_slice_in_place`, a scatter a `tvm.kernel` that writes the
    operand's buffer) and the loop's position is listed in
    `tvm.copied_inits` (the loop starts from a copy of the initial value,
    which the caller may still hold).

    ```mlir
    %r:2 = stablehlo.while(%i = %c0, %out = %zeros) ... do {
      %u = stablehlo.dynamic_update_slice %out, %row, %i, %c0 ...
      stablehlo.return %next, %u
    }
    ```
    gets `tvm.in_place` on `%u` and `tvm.copied_inits = array<i64: 1>` on
    the loop. Runs after stablehlo-isolate-loops.
  }];
}

def CheckTVMLegality : Pass<"tvm-check-legality", "ModuleOp"> {
  let summary = "Report every op the import could not turn into the tvm dialect";
  let description = [{
    The last step of the import: after legalization, only `tvm`, `func` and
    `builtin` ops may remain. Every other op is reported with its location, all
    of them in one diagnostic (a note per op), and the pass fails. The Python
    emitter therefore never sees a half-converted module.
  }];
}

#endif // STABLEHLO_TVM_TRANSFORMS_PASSES
