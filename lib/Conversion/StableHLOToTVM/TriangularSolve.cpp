//===- TriangularSolve.cpp - triangular_solve as a kernel -----------------===//
//
// op(a) x = b (left side) or x op(a) = b (right side), a triangular, by
// substitution: each batch in parallel, each right-hand side vector solved
// in order from the end of the triangle that has no unknowns. op(a) is a or
// its transpose (real types: ADJOINT is TRANSPOSE).
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

namespace mlir::stablehlo_tvm {
namespace {

struct TriangularSolveToKernel
    : TVMTypedPattern<stablehlo::TriangularSolveOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(stablehlo::TriangularSolveOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    if (!aType.hasStaticShape() || !bType.hasStaticShape())
      return decline(rewriter, op, "dynamic shapes");
    int64_t rank = bType.getRank();
    int64_t n = aType.getDimSize(rank - 1);
    bool left = op.getLeftSide();
    bool transposed = op.getTransposeA() != stablehlo::Transpose::NO_TRANSPOSE;
    bool unit = op.getUnitDiagonal();
    // In terms of the solved dimension of b: op(a)[i][k] multiplies x[k] in
    // equation i. For the right side, x op(a) = b is op(a)^T x^T = b^T.
    bool useTranspose = transposed != !left;
    // Forward substitution when the effective matrix is lower triangular.
    bool forward = op.getLower() != useTranspose;
    int64_t others = bType.getDimSize(left ? rank - 1 : rank - 2);
    SmallVector<int64_t> batch(bType.getShape().drop_back(2));
    batch.push_back(others);

    SmallVector<Value> results = buildKernel(
        rewriter, op.getLoc(), "triangular_solve",
        ValueRange{adaptor.getA(), adaptor.getB()}, op.getType(),
        [&](OpBuilder &b, Location loc, ValueRange in, ValueRange out) {
          buildLoopNest(b, loc, bType.getShape(), /*parallel=*/true,
                        [&](OpBuilder &b, Location loc, ValueRange ivs) {
            Value value = memref::LoadOp::create(b, loc, in[1], ivs);
            memref::StoreOp::create(b, loc, value, out[0], ivs);
          });
          buildLoopNest(b, loc, batch, /*parallel=*/true,
                        [&](OpBuilder &b, Location loc, ValueRange ivs) {
            ValueRange batchIvs = ivs.drop_back();
            Value column = ivs.back();
            // Element i of the vector being solved, in out.
            auto xAt = [&](Value i) {
              SmallVector<Value> index(batchIvs);
              if (left) {
                index.push_back(i);
                index.push_back(column);
              } else {
                index.push_back(column);
                index.push_back(i);
              }
              return index;
            };
            auto aAt = [&](Value i, Value k) {
              SmallVector<Value> index(batchIvs);
              index.push_back(useTranspose ? k : i);
              index.push_back(useTranspose ? i : k);
              return index;
            };
            buildLoopNest(b, loc, {n}, /*parallel=*/false,
                          [&](OpBuilder &b, Location loc, ValueRange step) {
              Value i = step[0];
              if (!forward) {
                Value last = indexValue(b, loc, n - 1);
                i = arith::SubIOp::create(b, loc, last, i);
              }
              auto type = cast<MemRefType>(out[0].getType());
              Value sum = memref::AllocaOp::create(
                  b, loc, MemRefType::get({}, type.getElementType()));
              Value rhs = memref::LoadOp::create(b, loc, out[0], xAt(i));
              memref::StoreOp::create(b, loc, rhs, sum);
              // The solved unknowns: k < i forward, k > i backward.
              buildLoopNest(b, loc, {n}, /*parallel=*/false,
                            [&](OpBuilder &b, Location loc, ValueRange kk) {
                Value k = kk[0];
                auto known = arith::CmpIOp::create(
                    b, loc,
                    forward ? arith::CmpIPredicate::slt
                            : arith::CmpIPredicate::sgt,
                    k, i);
                auto ifKnown = scf::IfOp::create(b, loc, known,
                                                 /*withElse=*/false);
                OpBuilder::InsertionGuard guard(b);
                b.setInsertionPoint(ifKnown.thenBlock()->getTerminator());
                Value coefficient = memref::LoadOp::create(b, loc, in[0], aAt(i, k));
                Value xk = memref::LoadOp::create(b, loc, out[0], xAt(k));
                Value product = arith::MulFOp::create(b, loc, coefficient, xk);
                Value current = memref::LoadOp::create(b, loc, sum);
                Value rest = arith::SubFOp::create(b, loc, current, product);
                memref::StoreOp::create(b, loc, rest, sum);
              });
              Value solved = memref::LoadOp::create(b, loc, sum);
              if (!unit) {
                Value diagonal = memref::LoadOp::create(b, loc, in[0], aAt(i, i));
                solved = arith::DivFOp::create(b, loc, solved, diagonal);
              }
              memref::StoreOp::create(b, loc, solved, out[0], xAt(i));
            });
          });
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void populateTriangularSolvePatterns(MLIRContext *context,
                                     RewritePatternSet &patterns) {
  patterns.add<TriangularSolveToKernel>(context);
}

} // namespace mlir::stablehlo_tvm
