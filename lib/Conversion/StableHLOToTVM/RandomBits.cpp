//===- RandomBits.cpp - rng_bit_generator as counter-based generators ----===//
//
// stablehlo.rng_bit_generator leaves its bits to the implementation; these
// are XLA:CPU's, bit for bit. Both algorithms are counter-based block
// functions of 32-bit words (Salmon et al., "Parallel random numbers: as
// easy as 1, 2, 3"): Threefry-2x32 (20 rounds) gives 2 words a block,
// Philox-4x32 (10 rounds) 4. With the state s (ui64):
//   THREE_FRY (s[2]): key = s[0], block i's counter = s[1] + i;
//   PHILOX (s[2]): key = s[0], counter = (s[1] + i, s[0]) as 128 bits;
//   PHILOX (s[3]): key = s[0], counter = (s[1] + i, s[2]) as 128 bits;
// each 64-bit value split into (low, high) words. DEFAULT is PHILOX, as on
// XLA:CPU. The output takes the words in order, one per element of 32 bits
// or fewer (its low bits) and two per 64-bit element (low word first); the
// new state is the old with the counter advanced by the blocks used (a
// 3-value state's high part takes the carry; a 2-value state's s[0] stays).
// Threefry's narrow outputs of rank 2 or more pair words along one
// dimension instead (storeThreefryPair).
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::stablehlo_tvm {
namespace {

struct Words {
  OpBuilder &b;
  Location loc;
  /// A local buffer the words pass through after each round: as SSA values
  /// each word reads the previous ones twice, and TVM's analyses, which
  /// substitute bound values, would see expressions growing as 2^rounds.
  Value spill = {};

  SmallVector<Value> spilled(ArrayRef<Value> words) {
    if (!spill)
      spill = memref::AllocaOp::create(
          b, loc, MemRefType::get({4}, b.getI32Type()));
    SmallVector<Value> reloaded;
    for (auto [i, word] : llvm::enumerate(words)) {
      Value at = indexValue(b, loc, i);
      memref::StoreOp::create(b, loc, word, spill, ValueRange{at});
      reloaded.push_back(memref::LoadOp::create(b, loc, spill, ValueRange{at}));
    }
    return reloaded;
  }

  Value u32(uint64_t value) {
    return arith::ConstantOp::create(b, loc, b.getI32Type(),
                                     b.getI32IntegerAttr(static_cast<int32_t>(value)));
  }
  Value u64(uint64_t value) {
    return arith::ConstantOp::create(
        b, loc, b.getI64Type(), b.getI64IntegerAttr(static_cast<int64_t>(value)));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  /// A sum or product of 64-bit values widened from 32 bits, which cannot
  /// wrap: marked so, it is compiled as one instruction, not widened again.
  Value addNoWrap(Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y, arith::IntegerOverflowFlags::nuw);
  }
  Value mulNoWrap(Value x, Value y) {
    return arith::MulIOp::create(b, loc, x, y, arith::IntegerOverflowFlags::nuw);
  }
  Value xorOp(Value x, Value y) { return arith::XOrIOp::create(b, loc, x, y); }
  Value rotl(Value x, unsigned r) {
    return arith::OrIOp::create(b, loc, arith::ShLIOp::create(b, loc, x, u32(r)),
                                arith::ShRUIOp::create(b, loc, x, u32(32 - r)));
  }
  Value low(Value x) { return arith::TruncIOp::create(b, loc, b.getI32Type(), x); }
  Value high(Value x) {
    return low(arith::ShRUIOp::create(b, loc, x, u64(32)));
  }
  /// 1 where `counter + n` (n small and not negative) passes 2^64, else 0,
  /// from 32-bit halves summed in 64 bits: TVM's simplifier takes integer
  /// addition as exact and folds the usual `counter + n < counter`.
  Value carry(Value counter, Value n) {
    Type i64 = b.getI64Type();
    auto half = [&](Value x) { return arith::ExtUIOp::create(b, loc, i64, x); };
    Value lowSum = addNoWrap(half(low(counter)), half(low(n)));
    Value highSum =
        addNoWrap(addNoWrap(half(high(counter)), half(high(n))),
                  arith::ShRUIOp::create(b, loc, lowSum, u64(32)));
    return arith::ShRUIOp::create(b, loc, highSum, u64(32));
  }

  /// The high and low words of the 64-bit product of two words.
  std::pair<Value, Value> mulHiLo(uint64_t m, Value x) {
    Value wide =
        mulNoWrap(u64(m), arith::ExtUIOp::create(b, loc, b.getI64Type(), x));
    return {high(wide), low(wide)};
  }

  SmallVector<Value> threefry(Value k0, Value k1, Value x0, Value x1) {
    static constexpr unsigned rotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
    Value ks[3] = {k0, k1, xorOp(xorOp(k0, k1), u32(0x1BD11BDA))};
    x0 = add(x0, ks[0]);
    x1 = add(x1, ks[1]);
    for (unsigned i = 0; i < 5; ++i) {
      for (unsigned r = 0; r < 4; ++r) {
        x0 = add(x0, x1);
        x1 = xorOp(rotl(x1, rotations[(i % 2) * 4 + r]), x0);
        SmallVector<Value> words = spilled({x0, x1});
        x0 = words[0];
        x1 = words[1];
      }
      x0 = add(x0, ks[(i + 1) % 3]);
      x1 = add(add(x1, ks[(i + 2) % 3]), u32(i + 1));
    }
    return {x0, x1};
  }

  SmallVector<Value> philox(Value k0, Value k1, SmallVector<Value> x) {
    for (unsigned round = 0; round < 10; ++round) {
      auto [hi0, lo0] = mulHiLo(0xD2511F53, x[0]);
      auto [hi1, lo1] = mulHiLo(0xCD9E8D57, x[2]);
      x = spilled({xorOp(xorOp(hi1, x[1]), k0), lo1, xorOp(xorOp(hi0, x[3]), k1), lo0});
      k0 = add(k0, u32(0x9E3779B9));
      k1 = add(k1, u32(0xBB67AE85));
    }
    return x;
  }
};

/// The element of a 64-bit or narrower type made of `bits` (i64 or i32).
Value elementOf(OpBuilder &b, Location loc, Type element, Value bits) {
  unsigned width = element.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(width);
  if (bits.getType() != intType)
    bits = arith::TruncIOp::create(b, loc, intType, bits);
  Type target = signlessType(element);
  return target == intType ? bits
                           : Value(arith::BitcastOp::create(b, loc, target, bits));
}

/// The dimension along which a Threefry block's two words lie (see
/// storeThreefryPair).
int64_t pairedDimension(ArrayRef<int64_t> shape) {
  auto even = llvm::find_if(shape, [](int64_t n) { return n % 2 == 0; });
  if (even != shape.end())
    return even - shape.begin();
  auto longer = llvm::find_if(shape, [](int64_t n) { return n > 1; });
  return longer != shape.end() ? longer - shape.begin() : 0;
}

/// Where XLA puts a Threefry block's two words in an output of 32-bit or
/// narrower elements: along the first dimension of even size (else the
/// first longer than 1), word w of block h (h row-major over the shape with
/// that dimension halved, rounded up) goes to index 2 * h[d] + w there.
/// A 1-D output reads the words in order.
void storeThreefryPair(OpBuilder &b, Location loc, ArrayRef<Value> words,
                       Value block, ArrayRef<int64_t> shape, Value out,
                       Type element) {
  int64_t rank = shape.size();
  int64_t d = pairedDimension(shape);
  SmallVector<Value> position(rank);
  Value rest = block;
  for (int64_t k = rank - 1; k >= 0; --k) {
    int64_t extent = k == d ? (shape[k] + 1) / 2 : shape[k];
    Value e = indexValue(b, loc, extent);
    position[k] = arith::RemSIOp::create(b, loc, rest, e);
    rest = arith::DivSIOp::create(b, loc, rest, e);
  }
  if (rank == 0)
    return;
  for (int64_t w = 0; w < 2; ++w) {
    SmallVector<Value> at(position);
    at[d] = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, position[d], indexValue(b, loc, 2)),
        indexValue(b, loc, w));
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                         at[d], indexValue(b, loc, shape[d]));
    auto guard = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
    OpBuilder::InsertionGuard insertion(b);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    memref::StoreOp::create(b, loc, elementOf(b, loc, element, words[w]), out,
                            at);
  }
}

struct RngBitGeneratorConversion
    : TVMTypedPattern<stablehlo::RngBitGeneratorOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(stablehlo::RngBitGeneratorOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    auto stateType = cast<RankedTensorType>(op.getInitialState().getType());
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    if (!stateType.getElementType().isInteger(64) || stateType.getRank() != 1 ||
        !outType.hasStaticShape())
      return decline(rewriter, op, "a 64-bit state and a static output");
    bool threefry = op.getRngAlgorithm() == stablehlo::RngAlgorithm::THREE_FRY;
    int64_t stateSize = stateType.getDimSize(0);
    if (stateSize != 2 && (threefry || stateSize != 3))
      return decline(rewriter, op, "a state of 2 values (3 for PHILOX)");
    Type element = outType.getElementType();
    unsigned width = element.getIntOrFloatBitWidth();
    if (width > 64 || width == 1)
      return decline(rewriter, op, "an output of 8 to 64 bits");
    int64_t perElement = width == 64 ? 2 : 1;
    int64_t perBlock = threefry ? 2 : 4;
    int64_t elements = outType.getNumElements();
    int64_t blocks = (elements * perElement + perBlock - 1) / perBlock;
    ArrayRef<int64_t> shape = outType.getShape();
    bool paired = threefry && perElement == 1 && !shape.empty() && elements > 0;
    if (paired) {
      // One block per pair along the paired dimension (rounded up).
      int64_t d = pairedDimension(shape);
      blocks = elements / shape[d] * ((shape[d] + 1) / 2);
    }

    SmallVector<Value> results = buildKernel(
        rewriter, op.getLoc(), "rng_bit_generator", adaptor.getInitialState(),
        TypeRange{op.getOutputState().getType(), outType},
        [&](OpBuilder &b, Location loc, ValueRange in, ValueRange out) {
          Words w{b, loc};
          auto load = [&](int64_t i) {
            return memref::LoadOp::create(b, loc, in[0],
                                          ValueRange{indexValue(b, loc, i)})
                .getResult();
          };
          Value key = load(0), counter = load(1);
          Value counterHigh = stateSize == 3 ? load(2) : key;
          // The new state: the counter advanced (with its carry, when it
          // has a high part of its own).
          Value advanced = w.add(counter, w.u64(blocks));
          memref::StoreOp::create(b, loc, key, out[0],
                                  ValueRange{indexValue(b, loc, 0)});
          memref::StoreOp::create(b, loc, advanced, out[0],
                                  ValueRange{indexValue(b, loc, 1)});
          if (stateSize == 3) {
            Value high = w.add(counterHigh, w.carry(counter, w.u64(blocks)));
            memref::StoreOp::create(b, loc, high, out[0],
                                    ValueRange{indexValue(b, loc, 2)});
          }
          buildLoopNest(b, loc, {blocks}, /*parallel=*/true,
                        [&](OpBuilder &b, Location loc, ValueRange ivs) {
            Words w{b, loc};
            Value block = arith::IndexCastOp::create(b, loc, b.getI64Type(), ivs[0]);
            Value c = w.add(counter, block);
            SmallVector<Value> words;
            if (threefry) {
              words = w.threefry(w.low(key), w.high(key), w.low(c), w.high(c));
            } else {
              Value high = w.add(counterHigh, w.carry(counter, block));
              words = w.philox(w.low(key), w.high(key),
                               {w.low(c), w.high(c), w.low(high), w.high(high)});
            }
            if (paired) {
              storeThreefryPair(b, loc, words, ivs[0], shape, out[1], element);
              return;
            }
            for (int64_t j = 0; j < perBlock / perElement; ++j) {
              // Element `first + j` of the output, when there is one.
              Value index = arith::AddIOp::create(
                  b, loc,
                  arith::MulIOp::create(b, loc, ivs[0],
                                        indexValue(b, loc, perBlock / perElement)),
                  indexValue(b, loc, j));
              // Indices are never negative: signed index arithmetic, which
              // TVM's simplifier reasons about (it folds unsigned forms of
              // these bounds into negative unsigned constants and fails).
              Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                                   index, indexValue(b, loc, elements));
              auto guard = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
              OpBuilder::InsertionGuard insertion(b);
              b.setInsertionPointToStart(&guard.getThenRegion().front());
              Value bits = words[j * perElement];
              if (perElement == 2) {
                Value lo = arith::ExtUIOp::create(b, loc, b.getI64Type(), bits);
                Value hi = arith::ExtUIOp::create(b, loc, b.getI64Type(),
                                                  words[j * perElement + 1]);
                bits = arith::OrIOp::create(
                    b, loc, lo, arith::ShLIOp::create(b, loc, hi, w.u64(32)));
              }
              // Row-major position of the element.
              SmallVector<Value> position(shape.size());
              Value rest = index;
              for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
                Value extent = indexValue(b, loc, shape[d]);
                position[d] = arith::RemSIOp::create(b, loc, rest, extent);
                rest = arith::DivSIOp::create(b, loc, rest, extent);
              }
              memref::StoreOp::create(b, loc, elementOf(b, loc, element, bits),
                                      out[1], position);
            }
          });
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void populateRandomBitsPatterns(MLIRContext *context,
                                RewritePatternSet &patterns) {
  patterns.add<RngBitGeneratorConversion>(context);
}

} // namespace mlir::stablehlo_tvm
