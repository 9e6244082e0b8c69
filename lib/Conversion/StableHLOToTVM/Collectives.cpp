//===- Collectives.cpp - Device ids and collectives on one device ---------===//
//
// The import runs a program on one device: the replica and the partition
// are both 0, and a collective whose every process group is that one
// process moves nothing. A reduction over one operand is the operand, a
// gather or an exchange of one part is the part, a broadcast from the only
// process is its operand; a permute delivers the operand where a pair
// sends process 0 to itself, and zeros where no pair targets it (the
// spec's value for a process nothing is sent to). A program written for
// more processes (groups naming other ids, a module of several replicas
// or partitions) is declined with the reason: running it on one device
// would not compute what it says. JAX writes these for shard_map and pmap
// on a one-device mesh.
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::stablehlo_tvm {
namespace {

/// Why `op`'s module is not a one-device program, or an empty string.
std::string moduleDevices(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  for (StringRef name : {"mhlo.num_replicas", "mhlo.num_partitions"}) {
    auto count = module ? module->getAttrOfType<IntegerAttr>(name) : IntegerAttr();
    if (count && count.getInt() > 1)
      return ("the module runs on " + Twine(count.getInt()) + " " +
              (name.ends_with("replicas") ? "replicas" : "partitions"))
          .str();
  }
  return "";
}

/// Whether every process id in `ids` is 0 (negative ids pad groups).
bool onlyProcessZero(DenseIntElementsAttr ids) {
  return llvm::all_of(ids.getValues<APInt>(),
                      [](const APInt &id) { return id.getSExtValue() <= 0; });
}

/// Why `op` (with process groups `groups`) is not a one-device collective.
std::string notOneDevice(Operation *op, DenseIntElementsAttr groups) {
  std::string devices = moduleDevices(op);
  if (!devices.empty())
    return devices;
  if (!onlyProcessZero(groups))
    return "its process groups name processes other than 0 (the import runs one device)";
  if (op->getResultTypes() != op->getOperandTypes())
    return "its results are not its operands' shapes (groups of one process)";
  return "";
}

/// all_reduce, all_gather, reduce_scatter, all_to_all and
/// collective_broadcast: on one process, the operands themselves.
template <typename Op>
struct OneProcessCollective : TVMTypedPattern<Op> {
  using TVMTypedPattern<Op>::TVMTypedPattern;

  LogicalResult
  rewrite(Op op, typename Op::Adaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    std::string why = notOneDevice(op, op.getReplicaGroups());
    if constexpr (std::is_same_v<Op, stablehlo::AllToAllOp>)
      if (why.empty() && op.getSplitCount() != 1)
        why = "it splits among more than one process";
    if (!why.empty())
      return decline(rewriter, op, why);
    rewriter.replaceOp(op, adaptor.getOperands());
    return success();
  }
};

/// collective_permute from process 0 to itself is the operand; with no
/// pair targeting process 0, zeros.
struct OneProcessPermute : TVMTypedPattern<stablehlo::CollectivePermuteOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(stablehlo::CollectivePermuteOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    std::string why = notOneDevice(op, op.getSourceTargetPairs());
    if (!why.empty())
      return decline(rewriter, op, why);
    if (!op.getSourceTargetPairs().empty()) {
      rewriter.replaceOp(op, adaptor.getOperand());
      return success();
    }
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.hasStaticShape())
      return decline(rewriter, op, "zeros of a dynamic shape");
    rewriter.replaceOp(op, splatConstant(rewriter, op.getLoc(), type,
                                         cast<TypedAttr>(rewriter.getZeroAttr(
                                             type.getElementType()))));
    return success();
  }
};

/// On one device, the replica and the partition are both 0.
template <typename Op>
struct DeviceIdConversion : TVMTypedPattern<Op> {
  using TVMTypedPattern<Op>::TVMTypedPattern;

  LogicalResult
  rewrite(Op op, typename Op::Adaptor,
          ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    rewriter.replaceOp(op, splatConstant(rewriter, op.getLoc(), type,
                                         rewriter.getIntegerAttr(
                                             type.getElementType(), 0)));
    return success();
  }
};

} // namespace

void populateCollectivePatterns(MLIRContext *context,
                                RewritePatternSet &patterns) {
  patterns.add<OneProcessCollective<stablehlo::AllReduceOp>,
               OneProcessCollective<stablehlo::AllGatherOp>,
               OneProcessCollective<stablehlo::ReduceScatterOp>,
               OneProcessCollective<stablehlo::AllToAllOp>,
               OneProcessCollective<stablehlo::CollectiveBroadcastOp>,
               OneProcessPermute, DeviceIdConversion<stablehlo::ReplicaIdOp>,
               DeviceIdConversion<stablehlo::PartitionIdOp>>(context);
}

} // namespace mlir::stablehlo_tvm
