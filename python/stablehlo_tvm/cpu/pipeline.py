"""The Relax pipeline `build` compiles with on CPUs: convolutions as matrix
products, TVM's legalization and operator fusion, every fused PrimFunc
scheduled by this package's rules (or from a tuning database), then TVM's
usual lowering to the VM. (TVM's own default for CPUs neither fuses nor
schedules.)"""

from __future__ import annotations

import contextlib

import tvm
from tvm import relax

from .bindings import module_bound_values, operators_called


def fusion_passes(blas="loops") -> list:
    """Up to the fused PrimFuncs that schedules (and tuning) apply to.
    `blas`: which large float products run on a BLAS: "loops" (those inside
    loops), "all" or True, False (none); see `blas.MatmulOnBlas`."""
    from .bfloat16 import legalizations as bfloat16_legalizations
    from .blas import MatmulOnBlas
    from .conv_as_matmul import ConvAsMatmul
    from .elementwise_groups import ElementwiseGroups
    from .int8_matmul import Int8MatmulOnVnni
    from .legalize_once import LegalizeOnce
    from .masks_per_consumer import MasksPerConsumer
    from .scalar_operands import ScalarOperands
    from .shared_primfuncs import ShareEqualPrimFuncs
    from .trailing_reshapes import TrailingReshapesAsViews
    from .wrapping_integers import legalizations as wrapping_legalizations

    products = {"relax.matmul", "relax.nn.conv2d"}  # convolutions become products
    return [
        _WhereCalled(
            [
                (relax.backend.DispatchSampling(), {"relax.multinomial_from_uniform"}),
                (relax.backend.DispatchSortScan(), {f"relax.{name}" for name in _SORT_SCAN}),
                (ConvAsMatmul, {"relax.nn.conv2d"}),
                (Int8MatmulOnVnni, products),
                *([(MatmulOnBlas("all" if blas is True else blas), products)] if blas else []),
            ]
        ),
        ScalarOperands,
        MasksPerConsumer,
        relax.transform.DeadCodeElimination(),  # the transposes a product, and broadcasts an operator, no longer read
        LegalizeOnce(wrapping_legalizations(bfloat16_legalizations())),
        relax.transform.AnnotateTIROpPattern(),
        TrailingReshapesAsViews,
        _fuse_ops_bounded,
        ElementwiseGroups,
        relax.transform.FuseTIR(),
        relax.transform.DeadCodeElimination(),
        ShareEqualPrimFuncs,
    ]


_SORT_SCAN = ("sort", "argsort", "topk", "cumsum", "cumprod", "bucketize")


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.WhereCalled")
class _WhereCalled:
    """Runs each of `passes` ((pass, operator names) pairs, in order) on a
    module that calls one of its operators. Each is a Python mutator that
    visits every binding to rewrite only those operators: a tenth of a
    second apiece on a large module, for most modules to no effect. The
    module's operators are listed once, in one walk."""

    def __init__(self, passes: list):
        self.passes = passes

    def transform_module(self, mod: tvm.IRModule, _ctx) -> tvm.IRModule:
        called = operators_called(mod)
        for each, operators in self.passes:
            if called & operators:
                mod = each(mod)
        return mod


# The most operators one fused function holds (TVM's default is 256). A
# function is one expression per output element: TVM's simplifier and LLVM
# take superlinear time in its size, and identical groups of a long chain
# become one function. A JAX chain of 1,750 element-wise ops built in 24 s
# with 256, 19 s with 128, 6 s with 96, 7 s with 64; but 64 split exact
# GELU's erfc formula, which then ran 4-5x slower (0.65 -> 3-4.6 ms).
MAX_FUSED_OPS = 96


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.FuseOpsBounded")
def _fuse_ops_bounded(mod: tvm.IRModule, ctx) -> tvm.IRModule:
    config = dict(ctx.config)
    config["relax.FuseOps.max_depth"] = MAX_FUSED_OPS
    with tvm.transform.PassContext(
        opt_level=ctx.opt_level, config=config, required_pass=ctx.required_pass, disabled_pass=ctx.disabled_pass
    ):
        return relax.transform.FuseOps()(mod)


def fuse(mod: tvm.IRModule, target, blas="loops") -> tvm.IRModule:
    from .fastmath import register

    register()
    with target:
        return tvm.transform.Sequential(fusion_passes(blas))(mod)


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.RecordPackedCalls")
class _RecordPackedCalls:
    """Puts in `outcome["packed_functions"]` the packed functions the Relax
    functions call, before some of those calls move into PrimFuncs, where
    the VM's code no longer shows them."""

    def __init__(self, outcome: dict | None):
        self.outcome = outcome

    def transform_module(self, mod: tvm.IRModule, _ctx) -> tvm.IRModule:
        if self.outcome is None:
            return mod
        names = {
            str(value.args[0].global_symbol)
            for value in module_bound_values(mod)
            if isinstance(value, relax.Call) and isinstance(value.op, tvm.ir.Op) and value.args and isinstance(value.args[0], relax.ExternFunc)
        }
        self.outcome["packed_functions"] = sorted(names)
        return mod


def cpu_pipeline(target, database=None, fused: bool = False, blas="loops", outcome: dict | None = None):
    """`database`: a MetaSchedule database whose best schedules take
    precedence over the rules. `fused`: the module has been through `fuse`
    already (tuning needs the fused functions first). `blas`: as in
    `fusion_passes`. `outcome`: gets "loops_left", the loops that still run
    by recursion (see `loops.LoopsAsKernels`), and "packed_functions", the
    packed functions the compiled code calls."""
    from .fastmath import register
    from .grain import SerialSmallParallelLoops
    from .loops import LoopsAsKernels
    from .sequences import SequencesAsKernels
    from .unused_outputs import AllocateUnusedOutputs
    from .schedule import ScheduleFunctions

    register()

    @tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.CPUPipeline")
    def pipeline(mod: tvm.IRModule, _ctx) -> tvm.IRModule:
        with target, database if database is not None else contextlib.nullcontext():
            tuned = [] if database is None else [relax.transform.MetaScheduleApplyDatabase()]
            passes = [
                *([] if fused else fusion_passes(blas)),
                *tuned,
                ScheduleFunctions(target),
                _RecordPackedCalls(outcome),
                LoopsAsKernels(outcome),
                SequencesAsKernels,
                AllocateUnusedOutputs,
                SerialSmallParallelLoops,
                relax.transform.RewriteDataflowReshape(),
                relax.transform.ToNonDataflow(),
                relax.transform.RemovePurityChecking(),
                relax.transform.CallTIRRewrite(),
                relax.transform.StaticPlanBlockMemory(),
                relax.transform.LowerAllocTensor(),
                relax.transform.KillAfterLastUse(),
                relax.transform.LowerRuntimeBuiltin(),
                relax.transform.ComputePrimValue(),
                relax.transform.VMShapeLower(),
                relax.transform.AttachGlobalSymbol(),
            ]
            return tvm.transform.Sequential(passes)(mod)

    return pipeline
