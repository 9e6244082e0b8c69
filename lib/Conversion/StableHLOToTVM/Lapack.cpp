//===- Lapack.cpp - jnp.linalg's LAPACK custom calls as library calls -----===//
//
// On CPU, JAX lowers jnp.linalg to `stablehlo.custom_call @lapack_<t><routine>_ffi`
// with the routine's options in `mhlo.backend_config` (characters as ui8:
// uplo 'L'/'U', side 'L'/'R', trans_x 'N'/'T'/'C', diag 'U'/'N', mode). Each
// becomes tvm.call_dps_packed of `stablehlo_tvm.lapack.<routine>`, the
// options as integer scalars in a fixed order per routine:
//   potrf [lower]            getrf []              geqrf []     orgqr []
//   trsm  [left, lower, transpose (0 N, 1 T, 2 C), unit_diagonal]
//   syevd [compute_vectors, lower]   gesdd [vectors (0 none, 1 reduced, 2 full)]
//   ormqr [left, transpose] (Q from geqrf's reflectors times C; booleans in
//         the backend_config)
//   geev  [compute_left, compute_right] (eigenvalues and eigenvectors are
//         complex, split into parts, for real matrices too)
//   gees  [compute_vectors] (Schur form, unsorted; eigenvalues complex)
//   gehrd [low, high] (Hessenberg reduction, LAPACK's 1-based ilo/ihi)
//   gtsv  [] (tridiagonal solve; the diagonals have n elements each)
// Complex routines (c/z; ungqr, unmqr and heevd for orgqr, ormqr and syevd)
// arrive with
// their complex values split into parts by stablehlo-lower-complex and call
// `stablehlo_tvm.lapack.complex.<routine>`.
// Results keep the custom call's: LAPACK's outputs in its conventions (1-based
// pivots, info codes), batched over the leading dimensions. stablehlo.cholesky
// is potrf too.
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Regex.h"

namespace mlir::stablehlo_tvm {
namespace {

/// The option `name` of mhlo.backend_config, if it is an `AttrT`.
template <typename AttrT>
AttrT configured(stablehlo::CustomCallOp op, StringRef name) {
  auto config = op->getAttrOfType<DictionaryAttr>("mhlo.backend_config");
  return config ? dyn_cast_or_null<AttrT>(config.get(name)) : nullptr;
}

/// A character option (a ui8), or `fallback`.
char option(stablehlo::CustomCallOp op, StringRef name, char fallback) {
  auto value = configured<IntegerAttr>(op, name);
  return value ? static_cast<char>(value.getValue().getZExtValue()) : fallback;
}

/// An integer option, or `fallback`.
int64_t number(stablehlo::CustomCallOp op, StringRef name, int64_t fallback) {
  auto value = configured<IntegerAttr>(op, name);
  return value ? value.getValue().getSExtValue() : fallback;
}

/// A boolean option, or `fallback`.
bool flag(stablehlo::CustomCallOp op, StringRef name, bool fallback) {
  auto value = configured<BoolAttr>(op, name);
  return value ? value.getValue() : fallback;
}

struct LapackCallConversion : TVMTypedPattern<stablehlo::CustomCallOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(stablehlo::CustomCallOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    static const llvm::Regex pattern(
        "^lapack_([sdcz])(potrf|getrf|trsm|geqrf|orgqr|ungqr|ormqr|unmqr|"
        "syevd|heevd|gesdd|geev|gees|gehrd|gtsv)_ffi$");
    SmallVector<StringRef, 3> match;
    if (!pattern.match(op.getCallTargetName(), &match))
      return decline(rewriter, op, "not a supported LAPACK routine");
    bool isComplex = match[1] == "c" || match[1] == "z";
    bool hasComplex = isComplex || llvm::any_of(op.getResultTypes(), [](Type t) {
                        return isa<ComplexType>(getElementTypeOrSelf(t));
                      });
    if (hasComplex && !op->hasAttr("stablehlo_tvm.complex_parts"))
      return decline(rewriter, op, "complex values not split");
    // The complex names of the real routines.
    StringRef routine = llvm::StringSwitch<StringRef>(match[2])
                            .Case("ungqr", "orgqr")
                            .Case("unmqr", "ormqr")
                            .Case("heevd", "syevd")
                            .Default(match[2]);
    SmallVector<int64_t> scalars;
    bool lower = option(op, "uplo", 'L') == 'L';
    if (routine == "potrf") {
      scalars = {lower};
    } else if (routine == "trsm") {
      char trans = option(op, "trans_x", 'N');
      scalars = {option(op, "side", 'L') == 'L', lower,
                 trans == 'N' ? 0 : (trans == 'T' ? 1 : 2),
                 option(op, "diag", 'N') == 'U'};
    } else if (routine == "syevd") {
      scalars = {option(op, "mode", 'V') == 'V', lower};
    } else if (routine == "geev") {
      scalars = {option(op, "compute_left", 'N') == 'V',
                 option(op, "compute_right", 'N') == 'V'};
    } else if (routine == "gees") {
      if (option(op, "sort", 'N') != 'N')
        return decline(rewriter, op, "sorted Schur forms unsupported");
      scalars = {option(op, "mode", 'V') == 'V'};
    } else if (routine == "gehrd") {
      auto type = cast<RankedTensorType>(op.getOperand(0).getType());
      scalars = {number(op, "low", 1), number(op, "high", type.getShape().back())};
    } else if (routine == "ormqr") {
      scalars = {flag(op, "left", true), flag(op, "transpose", false)};
    } else if (routine == "gesdd") {
      char mode = option(op, "mode", 'A');
      scalars = {mode == 'N' ? 0 : (mode == 'S' ? 1 : 2)};
    }
    std::string function = (isComplex ? "stablehlo_tvm.lapack.complex."
                                      : "stablehlo_tvm.lapack.") +
                           routine.str();
    rewriter.replaceOpWithNewOp<tvm::CallDpsPackedOp>(
        op, op.getResultTypes(), rewriter.getStringAttr(function),
        adaptor.getOperands(), rewriter.getDenseI64ArrayAttr(scalars));
    return success();
  }
};

/// stablehlo.cholesky on f32/f64: LAPACK's potrf, the other triangle zeroed
/// (the spec leaves it implementation-defined).
struct CholeskyConversion : TVMTypedPattern<stablehlo::CholeskyOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(stablehlo::CholeskyOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.getElementType().isF32() && !type.getElementType().isF64())
      return decline(rewriter, op, "LAPACK potrf here is f32/f64");
    Location loc = op.getLoc();
    bool lower = op.getLower();
    SmallVector<int64_t> batch(type.getShape().drop_back(2));
    auto info = RankedTensorType::get(batch, rewriter.getI32Type());
    auto call = tvm::CallDpsPackedOp::create(
        rewriter, loc, TypeRange{type, info},
        rewriter.getStringAttr("stablehlo_tvm.lapack.potrf"),
        adaptor.getA(), rewriter.getDenseI64ArrayAttr({lower}));
    int64_t n = type.getShape().back();
    SmallVector<bool> keep;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        keep.push_back(lower ? j <= i : j >= i);
    auto maskType = RankedTensorType::get({n, n}, rewriter.getI1Type());
    Value mask = tvm::ConstantOp::create(rewriter, loc, maskType,
                                         DenseElementsAttr::get(maskType, keep));
    mask = broadcastTo(rewriter, loc, mask, type.getShape());
    Value zero = splatConstant(rewriter, loc, type,
                               rewriter.getFloatAttr(type.getElementType(), 0));
    rewriter.replaceOpWithNewOp<tvm::WhereOp>(op, type, mask,
                                              call.getResult(0), zero);
    return success();
  }
};

} // namespace

void populateLapackPatterns(MLIRContext *context, RewritePatternSet &patterns) {
  patterns.add<LapackCallConversion, CholeskyConversion>(context);
}

} // namespace mlir::stablehlo_tvm
