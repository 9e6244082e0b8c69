//===- NativeLapack.cpp - LAPACK calls without the interpreter ------------===//
//
// The real f32/f64 forms of `stablehlo_tvm.lapack.getrf`, `.potrf` and
// `.trsm` (the routines of jnp.linalg.solve, cholesky and triangular solves)
// as native TVM FFI functions calling LAPACK through function pointers.
// Through Python (lapack.py) each call cost ~30 us of interpreter and
// wrapper work; a solve inside a loop kernel made three of them per
// iteration. The calling conventions (operands, int options, outputs; 1-based
// pivots, info codes) are lapack.py's; any other element type or argument
// list goes to the Python routine, registered as
// `stablehlo_tvm.lapack.python.<routine>`.
//
// The pointers are those SciPy's cython_lapack/cython_blas export (Fortran
// conventions: every argument by address, column-major matrices); Python
// passes their addresses. Row-major memory is the transpose in column-major
// order, so potrf and trsm solve the transposed problem in place and getrf
// works on a transposed copy.
//
//===----------------------------------------------------------------------===//

#include "NativeLapack.h"

#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/function.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace mlir::stablehlo_tvm::python {
namespace {

namespace ffi = tvm::ffi;

using Getrf = void (*)(int *m, int *n, void *a, int *lda, int *ipiv,
                       int *info);
using Potrf = void (*)(char *uplo, int *n, void *a, int *lda, int *info);
using Trsm = void (*)(char *side, char *uplo, char *trans, char *diag, int *m,
                      int *n, void *alpha, void *a, int *lda, void *b,
                      int *ldb);

/// One routine in single ([0]) and double ([1]) precision.
template <typename F> struct Precisions {
  F of[2] = {nullptr, nullptr};
};

Precisions<Getrf> getrfs;
Precisions<Potrf> potrfs;
Precisions<Trsm> trsms;

/// 0 for f32, 1 for f64, -1 for anything else.
int precision(const ffi::TensorView &t) {
  DLDataType type = t.dtype();
  if (type.code != kDLFloat || type.lanes != 1)
    return -1;
  return type.bits == 32 ? 0 : type.bits == 64 ? 1 : -1;
}

bool compactOnCpu(const ffi::TensorView &t) {
  return t.device().device_type == kDLCPU && t.IsContiguous();
}

char *bytes(const ffi::TensorView &t) {
  return static_cast<char *>(t.data_ptr()) + t.byte_offset();
}

int64_t batchCount(const ffi::TensorView &t, int matrixRank) {
  int64_t count = 1;
  for (int k = 0; k + matrixRank < t.ndim(); ++k)
    count *= t.shape()[k];
  return count;
}

/// The tensor arguments of `args` (of which `tensors` are), or false where
/// one is not a compact CPU tensor of the same float type as the first.
bool tensorsOf(ffi::PackedArgs args, std::initializer_list<int> tensors,
               std::vector<ffi::TensorView> &out, int &which) {
  for (int k : tensors) {
    auto view = args[k].try_cast<ffi::TensorView>();
    if (!view || !compactOnCpu(*view))
      return false;
    out.push_back(*view);
  }
  which = precision(out[0]);
  return which >= 0;
}

/// The row-major `rows` x `cols` matrix at `rowMajor` copied to or from
/// its column-major form at `columnMajor`.
void transposedCopy(char *rowMajor, char *columnMajor, int64_t rows,
                    int64_t cols, size_t element, bool toColumnMajor) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      char *row = rowMajor + (i * cols + j) * element;
      char *column = columnMajor + (j * rows + i) * element;
      std::memcpy(toColumnMajor ? column : row, toColumnMajor ? row : column,
                  element);
    }
}

// getrf(a) -> lu, ipiv (1-based), info.
bool getrf(ffi::PackedArgs args) {
  std::vector<ffi::TensorView> t;
  int which;
  if (args.size() != 4 || !tensorsOf(args, {0, 1, 2, 3}, t, which) ||
      !getrfs.of[which] || t[0].ndim() < 2 || t[2].dtype().bits != 32)
    return false;
  const ffi::TensorView &a = t[0];
  int64_t rows = a.shape()[a.ndim() - 2], cols = a.shape()[a.ndim() - 1];
  int64_t pivots = std::min(rows, cols), batches = batchCount(a, 2);
  size_t element = which ? 8 : 4, matrix = rows * cols * element;
  std::vector<char> scratch(std::max<size_t>(matrix, 1));
  int m = rows, n = cols, lda = std::max<int>(1, m);
  for (int64_t b = 0; b < batches; ++b) {
    transposedCopy(bytes(a) + b * matrix, scratch.data(), rows, cols, element,
                   /*toColumnMajor=*/true);
    int *ipiv = reinterpret_cast<int *>(bytes(t[2])) + b * pivots;
    int *info = reinterpret_cast<int *>(bytes(t[3])) + b;
    getrfs.of[which](&m, &n, scratch.data(), &lda, ipiv, info);
    transposedCopy(bytes(t[1]) + b * matrix, scratch.data(), rows, cols,
                   element, /*toColumnMajor=*/false);
  }
  return true;
}

// potrf(a, lower) -> factor, info.
bool potrf(ffi::PackedArgs args) {
  std::vector<ffi::TensorView> t;
  int which;
  if (args.size() != 4 || !tensorsOf(args, {0, 2, 3}, t, which) ||
      !potrfs.of[which] || t[0].ndim() < 2 || t[2].dtype().bits != 32)
    return false;
  auto lower = args[1].try_cast<int64_t>();
  if (!lower)
    return false;
  const ffi::TensorView &a = t[0], &factor = t[1];
  int64_t size = a.shape()[a.ndim() - 1], batches = batchCount(a, 2);
  size_t matrix = size * size * (which ? 8 : 4);
  if (bytes(factor) != bytes(a))
    std::memcpy(bytes(factor), bytes(a), matrix * batches);
  // The memory holds A's transpose: its upper triangle is A's lower one.
  char uplo = *lower ? 'U' : 'L';
  int n = size, lda = std::max<int>(1, n);
  for (int64_t b = 0; b < batches; ++b)
    potrfs.of[which](&uplo, &n, bytes(factor) + b * matrix, &lda,
                     reinterpret_cast<int *>(bytes(t[2])) + b);
  return true;
}

// trsm(a, b, left, lower, transpose, unit_diagonal) -> x with op(A) X = B
// (left) or X op(A) = B.
bool trsm(ffi::PackedArgs args) {
  std::vector<ffi::TensorView> t;
  int which;
  if (args.size() != 7 || !tensorsOf(args, {0, 1, 6}, t, which) ||
      !trsms.of[which] || t[1].ndim() < 2 || precision(t[1]) != which ||
      precision(t[2]) != which)
    return false;
  int64_t options[4];
  for (int k = 0; k < 4; ++k) {
    auto option = args[2 + k].try_cast<int64_t>();
    if (!option)
      return false;
    options[k] = *option;
  }
  const ffi::TensorView &a = t[0], &b = t[1], &x = t[2];
  int64_t rows = b.shape()[b.ndim() - 2], cols = b.shape()[b.ndim() - 1];
  int64_t order = options[0] ? rows : cols, batches = batchCount(b, 2);
  bool aBatched = batchCount(a, 2) == batches;
  size_t element = which ? 8 : 4;
  size_t matrixB = rows * cols * element, matrixA = order * order * element;
  if (bytes(x) != bytes(b))
    std::memcpy(bytes(x), bytes(b), matrixB * batches);
  // In column-major order the memory holds X^T, B^T and A^T: X^T op(A)^T =
  // B^T, with op(A)^T = op(A^T), is the other side and the other triangle.
  char side = options[0] ? 'R' : 'L', uplo = options[1] ? 'U' : 'L';
  char trans = options[2] == 0 ? 'N' : options[2] == 1 ? 'T' : 'C';
  char diag = options[3] ? 'U' : 'N';
  int m = cols, n = rows, lda = std::max<int64_t>(1, order),
      ldb = std::max<int>(1, m);
  double one64 = 1.0;
  float one32 = 1.0f;
  void *alpha = which ? static_cast<void *>(&one64) : &one32;
  if (m == 0 || n == 0)
    return true;
  for (int64_t k = 0; k < batches; ++k)
    trsms.of[which](&side, &uplo, &trans, &diag, &m, &n, alpha,
                    bytes(a) + (aBatched ? k : 0) * matrixA, &lda,
                    bytes(x) + k * matrixB, &ldb);
  return true;
}

/// `native`, or where it declines the arguments, the Python routine.
ffi::Function withFallback(const std::string &routine,
                           bool (*native)(ffi::PackedArgs)) {
  ffi::Function python = ffi::Function::GetGlobalRequired(
      "stablehlo_tvm.lapack.python." + routine);
  return ffi::Function::FromPacked(
      [python, native](ffi::PackedArgs args, ffi::Any *result) {
        if (!native(args))
          python.CallPacked(args.data(), args.size(), result);
      });
}

} // namespace

void registerNativeLapack(const std::map<std::string, uintptr_t> &addresses) {
  auto address = [&](const char *name) -> void * {
    auto it = addresses.find(name);
    return it == addresses.end() ? nullptr
                                 : reinterpret_cast<void *>(it->second);
  };
  getrfs.of[0] = reinterpret_cast<Getrf>(address("sgetrf"));
  getrfs.of[1] = reinterpret_cast<Getrf>(address("dgetrf"));
  potrfs.of[0] = reinterpret_cast<Potrf>(address("spotrf"));
  potrfs.of[1] = reinterpret_cast<Potrf>(address("dpotrf"));
  trsms.of[0] = reinterpret_cast<Trsm>(address("strsm"));
  trsms.of[1] = reinterpret_cast<Trsm>(address("dtrsm"));
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.getrf",
                           withFallback("getrf", getrf), /*override=*/true);
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.potrf",
                           withFallback("potrf", potrf), /*override=*/true);
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.trsm",
                           withFallback("trsm", trsm), /*override=*/true);
}

} // namespace mlir::stablehlo_tvm::python
