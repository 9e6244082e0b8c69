//===- NativeLapack.cpp - LAPACK calls without the interpreter ------------===//
//
// The real f32/f64 forms of `stablehlo_tvm.lapack.getrf`, `.potrf`, `.trsm`
// (jnp.linalg.solve, cholesky and triangular solves), `.geqrf`, `.orgqr`,
// `.ormqr` (qr; QR least squares), `.gtsv` (tridiagonal solves), `.syevd`
// (eigh), `.gesdd` (svd), `.geev` (eig), `.gees` (Schur) and `.gehrd`
// (Hessenberg) as native TVM FFI functions
// calling LAPACK through function pointers.
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
// works on a transposed copy, as do the QR, eigen- and singular value
// routines (their results are transposed back).
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

using Geqrf = void (*)(int *m, int *n, void *a, int *lda, void *tau,
                       void *work, int *lwork, int *info);
using Orgqr = void (*)(int *m, int *n, int *k, void *a, int *lda, void *tau,
                       void *work, int *lwork, int *info);
using Ormqr = void (*)(char *side, char *trans, int *m, int *n, int *k, void *a,
                       int *lda, void *tau, void *c, int *ldc, void *work,
                       int *lwork, int *info);
using Gtsv = void (*)(int *n, int *nrhs, void *dl, void *d, void *du, void *b,
                      int *ldb, int *info);
using Syevd = void (*)(char *jobz, char *uplo, int *n, void *a, int *lda,
                       void *w, void *work, int *lwork, int *iwork,
                       int *liwork, int *info);
using Gesdd = void (*)(char *jobz, int *m, int *n, void *a, int *lda, void *s,
                       void *u, int *ldu, void *vt, int *ldvt, void *work,
                       int *lwork, int *iwork, int *info);
using Geev = void (*)(char *jobvl, char *jobvr, int *n, void *a, int *lda,
                      void *wr, void *wi, void *vl, int *ldvl, void *vr,
                      int *ldvr, void *work, int *lwork, int *info);
/// LAPACK's LOGICAL is a Fortran integer; `select` is not called unsorted.
using Select = int (*)(void *re, void *im);
using Gees = void (*)(char *jobvs, char *sort, Select select, int *n, void *a,
                      int *lda, int *sdim, void *wr, void *wi, void *vs,
                      int *ldvs, void *work, int *lwork, int *bwork, int *info);
/// The complex form: w complex, a real workspace of n.
using ComplexGees = void (*)(char *jobvs, char *sort, Select select, int *n,
                             void *a, int *lda, int *sdim, void *w, void *vs,
                             int *ldvs, void *work, int *lwork, void *rwork,
                             int *bwork, int *info);
using Gehrd = void (*)(int *n, int *ilo, int *ihi, void *a, int *lda,
                       void *tau, void *work, int *lwork, int *info);

/// One routine in single ([0]) and double ([1]) precision.
template <typename F> struct Precisions {
  F of[2] = {nullptr, nullptr};
};

Precisions<Getrf> getrfs;
Precisions<Potrf> potrfs;
Precisions<Trsm> trsms;
Precisions<Geqrf> geqrfs;
Precisions<Orgqr> orgqrs;
Precisions<Ormqr> ormqrs;
Precisions<Gtsv> gtsvs;
Precisions<Syevd> syevds;
Precisions<Gesdd> gesdds;
Precisions<Geev> geevs;
Precisions<Gees> geess;
Precisions<ComplexGees> complexGeess;
Precisions<Gehrd> gehrds;

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

/// The tensor arguments of `args` at `positions` into `out`, or false where
/// one is not a compact CPU tensor, the first is not f32/f64 (`which`: 0 or
/// 1), one at `floats` (indices into `out`) has not the first's type, or
/// one at `ints` is not 32-bit.
bool tensorsOf(ffi::PackedArgs args, std::initializer_list<int> positions,
               std::initializer_list<int> floats,
               std::initializer_list<int> ints,
               std::vector<ffi::TensorView> &out, int &which) {
  for (int k : positions) {
    auto view = args[k].try_cast<ffi::TensorView>();
    if (!view || !compactOnCpu(*view))
      return false;
    out.push_back(*view);
  }
  which = precision(out[0]);
  if (which < 0 || out[0].ndim() < 2)
    return false;
  for (int k : floats)
    if (precision(out[k]) != which)
      return false;
  for (int k : ints)
    if (out[k].dtype().bits != 32)
      return false;
  return true;
}

/// The integer options of `args` at `positions` into `out`, or false.
bool optionsOf(ffi::PackedArgs args, std::initializer_list<int> positions,
               int64_t *out) {
  for (int k : positions) {
    auto option = args[k].try_cast<int64_t>();
    if (!option)
      return false;
    *out++ = *option;
  }
  return true;
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

/// For each of the `batches` rows x cols matrices of `in`: copies it
/// column-major into `scratch`, calls `routine(b)` (LAPACK on scratch, for
/// batch b) and copies scratch back row-major to `out`.
template <typename Routine>
void onColumnMajorCopies(char *in, char *out, int64_t batches, int64_t rows,
                         int64_t cols, size_t element, char *scratch,
                         Routine routine) {
  size_t matrix = rows * cols * element;
  for (int64_t b = 0; b < batches; ++b) {
    transposedCopy(in + b * matrix, scratch, rows, cols, element,
                   /*toColumnMajor=*/true);
    routine(b);
    transposedCopy(out + b * matrix, scratch, rows, cols, element,
                   /*toColumnMajor=*/false);
  }
}

// getrf(a) -> lu, ipiv (1-based), info.
bool getrf(ffi::PackedArgs args) {
  std::vector<ffi::TensorView> t;
  int which;
  if (args.size() != 4 || !tensorsOf(args, {0, 1, 2, 3}, {}, {2}, t, which) ||
      !getrfs.of[which])
    return false;
  const ffi::TensorView &a = t[0];
  int64_t rows = a.shape()[a.ndim() - 2], cols = a.shape()[a.ndim() - 1];
  int64_t pivots = std::min(rows, cols), batches = batchCount(a, 2);
  size_t element = which ? 8 : 4, matrix = rows * cols * element;
  std::vector<char> scratch(std::max<size_t>(matrix, 1));
  int m = rows, n = cols, lda = std::max<int>(1, m);
  onColumnMajorCopies(
      bytes(a), bytes(t[1]), batches, rows, cols, element, scratch.data(),
      [&](int64_t b) {
        int *ipiv = reinterpret_cast<int *>(bytes(t[2])) + b * pivots;
        int *info = reinterpret_cast<int *>(bytes(t[3])) + b;
        getrfs.of[which](&m, &n, scratch.data(), &lda, ipiv, info);
      });
  return true;
}

// potrf(a, lower) -> factor, info.
bool potrf(ffi::PackedArgs args) {
  std::vector<ffi::TensorView> t;
  int which;
  int64_t lower[1];
  if (args.size() != 4 || !tensorsOf(args, {0, 2, 3}, {}, {2}, t, which) ||
      !potrfs.of[which] || !optionsOf(args, {1}, lower))
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
  int64_t options[4];
  if (args.size() != 7 || !tensorsOf(args, {0, 1, 6}, {1, 2}, {}, t, which) ||
      !trsms.of[which] || t[1].ndim() < 2 ||
      !optionsOf(args, {2, 3, 4, 5}, options))
    return false;
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

/// LAPACK's workspace: the size a query (lwork = -1) wrote into `query`,
/// in elements of the routine's precision.
struct Workspace {
  std::vector<double> storage;
  int size = 0;
  Workspace(const double &query, bool isDouble) {
    double wanted = isDouble ? query
                             : static_cast<double>(
                                   *reinterpret_cast<const float *>(&query));
    size = std::max(1, static_cast<int>(wanted));
    storage.resize(size); // doubles: room for `size` of either precision
  }
  void *data() { return storage.data(); }
};

// geqrf(a) -> qr, tau: Householder QR, R above the diagonal, reflectors
// below.
bool geqrf(ffi::PackedArgs args) {
  std::vector<ffi::TensorView> t;
  int which;
  if (args.size() != 3 || !tensorsOf(args, {0, 1, 2}, {1, 2}, {}, t, which) ||
      !geqrfs.of[which])
    return false;
  const ffi::TensorView &a = t[0];
  int64_t rows = a.shape()[a.ndim() - 2], cols = a.shape()[a.ndim() - 1];
  int64_t reflectors = std::min(rows, cols), batches = batchCount(a, 2);
  size_t element = which ? 8 : 4, matrix = rows * cols * element;
  if (matrix == 0)
    return true;
  std::vector<char> scratch(matrix);
  int m = rows, n = cols, lda = std::max<int>(1, m), info = 0, query = -1;
  double size = 0;
  geqrfs.of[which](&m, &n, scratch.data(), &lda, nullptr, &size, &query,
                   &info);
  Workspace work(size, which);
  onColumnMajorCopies(bytes(a), bytes(t[1]), batches, rows, cols, element,
                      scratch.data(), [&](int64_t b) {
                        geqrfs.of[which](&m, &n, scratch.data(), &lda,
                                         bytes(t[2]) + b * reflectors * element,
                                         work.data(), &work.size, &info);
                      });
  return true;
}

// orgqr(a, tau) -> q: the first columns of Q from geqrf's reflectors.
bool orgqr(ffi::PackedArgs args) {
  std::vector<ffi::TensorView> t;
  int which;
  if (args.size() != 3 || !tensorsOf(args, {0, 1, 2}, {1, 2}, {}, t, which) ||
      !orgqrs.of[which] || t[1].ndim() < 1)
    return false;
  const ffi::TensorView &a = t[0], &tau = t[1];
  int64_t rows = a.shape()[a.ndim() - 2], cols = a.shape()[a.ndim() - 1];
  int64_t reflectors = tau.shape()[tau.ndim() - 1], batches = batchCount(a, 2);
  if (reflectors > std::min(rows, cols) || cols > rows)
    return false;
  size_t element = which ? 8 : 4, matrix = rows * cols * element;
  if (matrix == 0)
    return true;
  std::vector<char> scratch(matrix);
  int m = rows, n = cols, k = reflectors, lda = std::max<int>(1, m), info = 0,
      query = -1;
  double size = 0;
  orgqrs.of[which](&m, &n, &k, scratch.data(), &lda, bytes(tau), &size,
                   &query, &info);
  Workspace work(size, which);
  onColumnMajorCopies(bytes(a), bytes(t[2]), batches, rows, cols, element,
                      scratch.data(), [&](int64_t b) {
                        orgqrs.of[which](&m, &n, &k, scratch.data(), &lda,
                                         bytes(tau) + b * reflectors * element,
                                         work.data(), &work.size, &info);
                      });
  return true;
}

// ormqr(a, tau, c, left, transpose) -> op(Q) C (left) or C op(Q), Q the
// product of geqrf's reflectors in `a` and `tau`.
bool ormqr(ffi::PackedArgs args) {
  std::vector<ffi::TensorView> t;
  int which;
  int64_t options[2];
  if (args.size() != 6 ||
      !tensorsOf(args, {0, 1, 2, 5}, {1, 2, 3}, {}, t, which) ||
      !ormqrs.of[which] || t[1].ndim() < 1 || t[2].ndim() < 2 ||
      !optionsOf(args, {3, 4}, options))
    return false;
  const ffi::TensorView &a = t[0], &tau = t[1], &c = t[2];
  int64_t rows = c.shape()[c.ndim() - 2], cols = c.shape()[c.ndim() - 1];
  int64_t aRows = a.shape()[a.ndim() - 2], aCols = a.shape()[a.ndim() - 1];
  int64_t reflectors = tau.shape()[tau.ndim() - 1], batches = batchCount(c, 2);
  int64_t order = options[0] ? rows : cols;
  if (aRows != order || reflectors > std::min(aRows, aCols) ||
      batchCount(a, 2) != batches || tau.numel() != batches * reflectors ||
      t[3].numel() != c.numel())
    return false;
  size_t element = which ? 8 : 4, matrix = rows * cols * element;
  size_t matrixA = aRows * aCols * element;
  if (matrix == 0)
    return true;
  std::vector<char> scratch(matrix), scratchA(std::max<size_t>(matrixA, 1));
  char side = options[0] ? 'L' : 'R', trans = options[1] ? 'T' : 'N';
  int m = rows, n = cols, k = reflectors, lda = std::max<int64_t>(1, aRows),
      ldc = std::max<int>(1, m), info = 0, query = -1;
  double size = 0;
  ormqrs.of[which](&side, &trans, &m, &n, &k, scratchA.data(), &lda,
                   bytes(tau), scratch.data(), &ldc, &size, &query, &info);
  Workspace work(size, which);
  onColumnMajorCopies(
      bytes(c), bytes(t[3]), batches, rows, cols, element, scratch.data(),
      [&](int64_t b) {
        transposedCopy(bytes(a) + b * matrixA, scratchA.data(), aRows, aCols,
                       element, /*toColumnMajor=*/true);
        ormqrs.of[which](&side, &trans, &m, &n, &k, scratchA.data(), &lda,
                         bytes(tau) + b * reflectors * element, scratch.data(),
                         &ldc, work.data(), &work.size, &info);
      });
  return true;
}

// gtsv(dl, d, du, b) -> dl', d', du', x, info: tridiagonal solves. The
// diagonals have n elements each (dl[0] and du[n - 1] are not read and are
// passed through); LAPACK overwrites them with its factorization.
bool gtsv(ffi::PackedArgs args) {
  std::vector<ffi::TensorView> t;
  int which;
  if (args.size() != 9 ||
      !tensorsOf(args, {3, 0, 1, 2, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7},
                 {8}, t, which) ||
      !gtsvs.of[which])
    return false;
  const ffi::TensorView &b = t[0];
  int64_t size = b.shape()[b.ndim() - 2], rhs = b.shape()[b.ndim() - 1];
  int64_t batches = batchCount(b, 2);
  for (int k = 1; k < 4; ++k)
    if (t[k].numel() != batches * size || t[k + 3].numel() != t[k].numel())
      return false;
  if (t[7].numel() != b.numel() || t[8].numel() != batches)
    return false;
  size_t element = which ? 8 : 4, matrix = size * rhs * element;
  for (int k = 1; k < 4; ++k)
    if (bytes(t[k + 3]) != bytes(t[k]))
      std::memcpy(bytes(t[k + 3]), bytes(t[k]), t[k].numel() * element);
  if (matrix == 0) {
    std::memset(bytes(t[8]), 0, batches * sizeof(int));
    return true;
  }
  std::vector<char> scratch(matrix);
  int n = size, nrhs = rhs, ldb = std::max<int>(1, n);
  onColumnMajorCopies(
      bytes(b), bytes(t[7]), batches, size, rhs, element, scratch.data(),
      [&](int64_t k) {
        size_t diagonal = k * size * element;
        gtsvs.of[which](&n, &nrhs, bytes(t[4]) + diagonal + element,
                        bytes(t[5]) + diagonal, bytes(t[6]) + diagonal,
                        scratch.data(), &ldb,
                        reinterpret_cast<int *>(bytes(t[8])) + k);
      });
  return true;
}

// syevd(a, compute_vectors, lower) -> v, w, info: eigenvalues ascending,
// eigenvectors in v's columns (v is a itself without them).
bool syevd(ffi::PackedArgs args) {
  std::vector<ffi::TensorView> t;
  int which;
  int64_t options[2];
  if (args.size() != 6 ||
      !tensorsOf(args, {0, 3, 4, 5}, {1, 2}, {3}, t, which) ||
      !syevds.of[which] || !optionsOf(args, {1, 2}, options))
    return false;
  const int64_t *vectors = &options[0], *lower = &options[1];
  const ffi::TensorView &a = t[0];
  int64_t size = a.shape()[a.ndim() - 1], batches = batchCount(a, 2);
  size_t element = which ? 8 : 4, matrix = size * size * element;
  if (matrix == 0)
    return true;
  std::vector<char> scratch(matrix);
  char jobz = *vectors ? 'V' : 'N', uplo = *lower ? 'L' : 'U';
  int n = size, lda = std::max<int>(1, n), info = 0, query = -1, iquery = 0;
  double lworkSize = 0;
  syevds.of[which](&jobz, &uplo, &n, scratch.data(), &lda, nullptr,
                   &lworkSize, &query, &iquery, &query, &info);
  Workspace work(lworkSize, which);
  std::vector<int> iwork(std::max(1, iquery));
  int liwork = iwork.size();
  for (int64_t b = 0; b < batches; ++b) {
    transposedCopy(bytes(a) + b * matrix, scratch.data(), size, size, element,
                   /*toColumnMajor=*/true);
    syevds.of[which](&jobz, &uplo, &n, scratch.data(), &lda,
                     bytes(t[2]) + b * size * element, work.data(), &work.size,
                     iwork.data(), &liwork,
                     reinterpret_cast<int *>(bytes(t[3])) + b);
    if (*vectors)
      transposedCopy(bytes(t[1]) + b * matrix, scratch.data(), size, size,
                     element, /*toColumnMajor=*/false);
    else if (bytes(t[1]) != bytes(a))
      std::memcpy(bytes(t[1]) + b * matrix, bytes(a) + b * matrix, matrix);
  }
  return true;
}

// gesdd(a, vectors) -> a, s, u, vt, info; vectors: 0 none (u and vt are
// zeros), 1 the first min(m, n) columns of U and rows of Vt, 2 all.
bool gesdd(ffi::PackedArgs args) {
  std::vector<ffi::TensorView> t;
  int which;
  int64_t vectors[1];
  if (args.size() != 7 ||
      !tensorsOf(args, {0, 2, 3, 4, 5, 6}, {1, 2, 3, 4}, {5}, t, which) ||
      !gesdds.of[which] || !optionsOf(args, {1}, vectors) || *vectors < 0 ||
      *vectors > 2)
    return false;
  const ffi::TensorView &a = t[0], &u = t[3], &vt = t[4];
  int64_t rows = a.shape()[a.ndim() - 2], cols = a.shape()[a.ndim() - 1];
  int64_t k = std::min(rows, cols), batches = batchCount(a, 2);
  int64_t uCols = *vectors == 2 ? rows : k, vtRows = *vectors == 2 ? cols : k;
  size_t element = which ? 8 : 4, matrix = rows * cols * element;
  size_t uMatrix = rows * uCols * element, vtMatrix = vtRows * cols * element;
  if (*vectors &&
      (u.numel() != batches * rows * uCols || vt.numel() != batches * vtRows * cols))
    return false;
  if (bytes(t[1]) != bytes(a))
    std::memcpy(bytes(t[1]), bytes(a), matrix * batches);
  if (!*vectors) {
    std::memset(bytes(u), 0, u.numel() * element);
    std::memset(bytes(vt), 0, vt.numel() * element);
  }
  if (matrix == 0)
    return true;
  std::vector<char> scratch(matrix), uScratch(*vectors ? uMatrix : element),
      vtScratch(*vectors ? vtMatrix : element);
  char jobz = *vectors == 0 ? 'N' : *vectors == 1 ? 'S' : 'A';
  int m = rows, n = cols, lda = std::max<int>(1, m),
      ldu = std::max<int>(1, m), ldvt = std::max<int>(1, vtRows), info = 0,
      query = -1;
  std::vector<int> iwork(8 * std::max<int64_t>(1, k));
  double size = 0;
  gesdds.of[which](&jobz, &m, &n, scratch.data(), &lda, nullptr,
                   uScratch.data(), &ldu, vtScratch.data(), &ldvt, &size,
                   &query, iwork.data(), &info);
  Workspace work(size, which);
  for (int64_t b = 0; b < batches; ++b) {
    transposedCopy(bytes(a) + b * matrix, scratch.data(), rows, cols, element,
                   /*toColumnMajor=*/true);
    gesdds.of[which](&jobz, &m, &n, scratch.data(), &lda,
                     bytes(t[2]) + b * k * element, uScratch.data(), &ldu,
                     vtScratch.data(), &ldvt, work.data(), &work.size,
                     iwork.data(), reinterpret_cast<int *>(bytes(t[5])) + b);
    if (*vectors) {
      transposedCopy(bytes(u) + b * uMatrix, uScratch.data(), rows, uCols,
                     element, /*toColumnMajor=*/false);
      transposedCopy(bytes(vt) + b * vtMatrix, vtScratch.data(), vtRows, cols,
                     element, /*toColumnMajor=*/false);
    }
  }
  return true;
}

/// A real geev's eigenvectors (column-major n x n at `packed`) as the real
/// and imaginary parts of complex row-major columns: for a conjugate pair
/// (imag[j] > 0) columns j and j + 1 hold the real and imaginary parts of
/// the first, the second is its conjugate.
template <typename T>
void unpackEigenvectors(const T *packed, const T *imag, int64_t n, T *re,
                        T *im) {
  for (int64_t j = 0; j < n; ++j) {
    bool pair = imag[j] != 0 && j + 1 < n;
    for (int64_t i = 0; i < n; ++i) {
      T a = packed[j * n + i], b = pair ? packed[(j + 1) * n + i] : T(0);
      re[i * n + j] = a;
      im[i * n + j] = b;
      if (pair) {
        re[i * n + j + 1] = a;
        im[i * n + j + 1] = -b;
      }
    }
    j += pair;
  }
}

// geev(a, compute_left, compute_right) -> w, vl, vr (each as real and
// imaginary parts), info; eigenvectors not asked for are zeros.
bool geev(ffi::PackedArgs args) {
  std::vector<ffi::TensorView> t;
  int which;
  int64_t options[2];
  if (args.size() != 10 ||
      !tensorsOf(args, {0, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 4, 5, 6}, {7}, t,
                 which) ||
      !geevs.of[which] || !optionsOf(args, {1, 2}, options))
    return false;
  const int64_t *left = &options[0], *right = &options[1];
  const ffi::TensorView &a = t[0];
  int64_t size = a.shape()[a.ndim() - 1], batches = batchCount(a, 2);
  size_t element = which ? 8 : 4, matrix = size * size * element;
  if (t[3].numel() != batches * size * size || t[5].numel() != t[3].numel())
    return false;
  for (int k = 3; k < 7; ++k)
    std::memset(bytes(t[k]), 0, t[k].numel() * element);
  if (matrix == 0)
    return true;
  std::vector<char> scratch(matrix), vl(*left ? matrix : element),
      vr(*right ? matrix : element);
  char jobvl = *left ? 'V' : 'N', jobvr = *right ? 'V' : 'N';
  int n = size, lda = std::max<int>(1, n), ldvl = *left ? lda : 1,
      ldvr = *right ? lda : 1, info = 0, query = -1;
  double lworkSize = 0;
  geevs.of[which](&jobvl, &jobvr, &n, scratch.data(), &lda, nullptr, nullptr,
                  vl.data(), &ldvl, vr.data(), &ldvr, &lworkSize, &query,
                  &info);
  Workspace work(lworkSize, which);
  for (int64_t b = 0; b < batches; ++b) {
    transposedCopy(bytes(a) + b * matrix, scratch.data(), size, size, element,
                   /*toColumnMajor=*/true);
    char *wr = bytes(t[1]) + b * size * element;
    char *wi = bytes(t[2]) + b * size * element;
    geevs.of[which](&jobvl, &jobvr, &n, scratch.data(), &lda, wr, wi,
                    vl.data(), &ldvl, vr.data(), &ldvr, work.data(),
                    &work.size, reinterpret_cast<int *>(bytes(t[7])) + b);
    auto unpack = [&](const std::vector<char> &vectors, int re, int im) {
      if (which)
        unpackEigenvectors(reinterpret_cast<const double *>(vectors.data()),
                           reinterpret_cast<const double *>(wi), size,
                           reinterpret_cast<double *>(bytes(t[re]) + b * matrix),
                           reinterpret_cast<double *>(bytes(t[im]) + b * matrix));
      else
        unpackEigenvectors(reinterpret_cast<const float *>(vectors.data()),
                           reinterpret_cast<const float *>(wi), size,
                           reinterpret_cast<float *>(bytes(t[re]) + b * matrix),
                           reinterpret_cast<float *>(bytes(t[im]) + b * matrix));
    };
    if (*left)
      unpack(vl, 3, 4);
    if (*right)
      unpack(vr, 5, 6);
  }
  return true;
}

int selectNone(void *, void *) { return 0; }

// gees(a, compute_vectors) -> t, q, w (real and imaginary parts), sdim,
// info: the real Schur form T = Q^T A Q (unsorted: sdim is 0); Q is zeros
// when not asked for.
bool gees(ffi::PackedArgs args) {
  std::vector<ffi::TensorView> t;
  int which;
  int64_t computeVectors;
  if (args.size() != 8 ||
      !tensorsOf(args, {0, 2, 3, 4, 5, 6, 7}, {1, 2, 3, 4}, {5, 6}, t, which) ||
      !geess.of[which] || !optionsOf(args, {1}, &computeVectors))
    return false;
  const ffi::TensorView &a = t[0];
  int64_t size = a.shape()[a.ndim() - 1], batches = batchCount(a, 2);
  size_t element = which ? 8 : 4, matrix = size * size * element;
  if (t[1].numel() != a.numel() || t[2].numel() != a.numel() ||
      t[3].numel() != batches * size || t[4].numel() != batches * size ||
      t[5].numel() != batches || t[6].numel() != batches)
    return false;
  std::memset(bytes(t[2]), 0, t[2].numel() * element);
  std::memset(bytes(t[5]), 0, batches * sizeof(int));
  if (matrix == 0) {
    std::memset(bytes(t[6]), 0, batches * sizeof(int));
    return true;
  }
  std::vector<char> scratch(matrix), vs(computeVectors ? matrix : element);
  char jobvs = computeVectors ? 'V' : 'N', sort = 'N';
  int n = size, lda = std::max<int>(1, n), ldvs = computeVectors ? lda : 1,
      sdim = 0, bwork = 0, info = 0, query = -1;
  double lworkSize = 0;
  geess.of[which](&jobvs, &sort, selectNone, &n, scratch.data(), &lda, &sdim,
                  nullptr, nullptr, vs.data(), &ldvs, &lworkSize, &query,
                  &bwork, &info);
  Workspace work(lworkSize, which);
  onColumnMajorCopies(
      bytes(a), bytes(t[1]), batches, size, size, element, scratch.data(),
      [&](int64_t b) {
        geess.of[which](&jobvs, &sort, selectNone, &n, scratch.data(), &lda,
                        reinterpret_cast<int *>(bytes(t[5])) + b,
                        bytes(t[3]) + b * size * element,
                        bytes(t[4]) + b * size * element, vs.data(), &ldvs,
                        work.data(), &work.size, &bwork,
                        reinterpret_cast<int *>(bytes(t[6])) + b);
        if (computeVectors)
          transposedCopy(bytes(t[2]) + b * matrix, vs.data(), size, size,
                         element, /*toColumnMajor=*/false);
      });
  return true;
}

/// The row-major complex matrix with parts `re` and `im` (`rows` x
/// `cols`, elements of `element` bytes) to or from its interleaved
/// column-major form at `columnMajor`.
void partsTransposed(char *re, char *im, char *columnMajor, int64_t rows,
                     int64_t cols, size_t element, bool toColumnMajor) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      char *at = columnMajor + 2 * (j * rows + i) * element;
      size_t offset = (i * cols + j) * element;
      if (toColumnMajor) {
        std::memcpy(at, re + offset, element);
        std::memcpy(at + element, im + offset, element);
      } else {
        std::memcpy(re + offset, at, element);
        std::memcpy(im + offset, at + element, element);
      }
    }
}

// The complex form of gees: a as (re, im), then t, q and w as (re, im),
// sdim, info. jax.scipy.linalg.sqrtm takes the complex Schur form of any
// matrix.
bool complexGees(ffi::PackedArgs args) {
  // t: a (re, im), T (re, im), Q (re, im), w (re, im), sdim, info.
  std::vector<ffi::TensorView> t;
  int which;
  int64_t computeVectors;
  if (args.size() != 11 ||
      !tensorsOf(args, {0, 1, 3, 4, 5, 6, 7, 8, 9, 10},
                 {1, 2, 3, 4, 5, 6, 7}, {8, 9}, t, which) ||
      !complexGeess.of[which] || !optionsOf(args, {2}, &computeVectors))
    return false;
  const ffi::TensorView &a = t[0];
  int64_t size = a.shape()[a.ndim() - 1], batches = batchCount(a, 2);
  size_t element = which ? 8 : 4, matrix = size * size * element,
         row = size * element;
  for (int k = 1; k < 6; ++k)
    if (t[k].numel() != a.numel())
      return false;
  if (t[6].numel() != batches * size || t[7].numel() != batches * size ||
      t[8].numel() != batches || t[9].numel() != batches)
    return false;
  std::memset(bytes(t[4]), 0, t[4].numel() * element);
  std::memset(bytes(t[5]), 0, t[5].numel() * element);
  std::memset(bytes(t[8]), 0, batches * sizeof(int));
  if (matrix == 0) {
    std::memset(bytes(t[9]), 0, batches * sizeof(int));
    return true;
  }
  std::vector<char> scratch(2 * matrix),
      vs(computeVectors ? 2 * matrix : 2 * element), w(2 * row),
      rwork(row);
  char jobvs = computeVectors ? 'V' : 'N', sort = 'N';
  int n = size, lda = std::max<int>(1, n), ldvs = computeVectors ? lda : 1,
      sdim = 0, bwork = 0, info = 0, query = -1;
  double lworkSize[2] = {0, 0}; // room for a complex value
  complexGeess.of[which](&jobvs, &sort, selectNone, &n, scratch.data(), &lda,
                         &sdim, w.data(), vs.data(), &ldvs, lworkSize, &query,
                         rwork.data(), &bwork, &info);
  Workspace work(lworkSize[0], which);
  work.storage.resize(2 * work.size); // complex elements
  for (int64_t b = 0; b < batches; ++b) {
    size_t at = b * matrix;
    partsTransposed(bytes(a) + at, bytes(t[1]) + at, scratch.data(), size,
                    size, element, /*toColumnMajor=*/true);
    complexGeess.of[which](&jobvs, &sort, selectNone, &n, scratch.data(),
                           &lda, reinterpret_cast<int *>(bytes(t[8])) + b,
                           w.data(), vs.data(), &ldvs, work.data(), &work.size,
                           rwork.data(), &bwork,
                           reinterpret_cast<int *>(bytes(t[9])) + b);
    partsTransposed(bytes(t[2]) + at, bytes(t[3]) + at, scratch.data(), size,
                    size, element, /*toColumnMajor=*/false);
    if (computeVectors)
      partsTransposed(bytes(t[4]) + at, bytes(t[5]) + at, vs.data(), size,
                      size, element, /*toColumnMajor=*/false);
    // w as a 1 x n matrix: its column-major form is the interleaved row.
    partsTransposed(bytes(t[6]) + b * row, bytes(t[7]) + b * row, w.data(), 1,
                    size, element, /*toColumnMajor=*/false);
  }
  return true;
}

// gehrd(a, ilo, ihi) -> h, tau, info: the Hessenberg reduction, H above
// the first subdiagonal and the reflectors below it; ilo and ihi 1-based.
bool gehrd(ffi::PackedArgs args) {
  std::vector<ffi::TensorView> t;
  int which;
  int64_t range[2];
  if (args.size() != 6 ||
      !tensorsOf(args, {0, 3, 4, 5}, {1, 2}, {3}, t, which) ||
      !gehrds.of[which] || !optionsOf(args, {1, 2}, range))
    return false;
  const ffi::TensorView &a = t[0];
  int64_t size = a.shape()[a.ndim() - 1], batches = batchCount(a, 2);
  int64_t reflectors = std::max<int64_t>(size - 1, 0);
  size_t element = which ? 8 : 4, matrix = size * size * element;
  if (t[1].numel() != a.numel() || t[2].numel() != batches * reflectors ||
      t[3].numel() != batches)
    return false;
  std::memset(bytes(t[2]), 0, t[2].numel() * element);
  if (matrix == 0) {
    std::memset(bytes(t[3]), 0, batches * sizeof(int));
    return true;
  }
  std::vector<char> scratch(matrix), tau(std::max<int64_t>(reflectors, 1) * element);
  int n = size, ilo = range[0], ihi = range[1], lda = std::max<int>(1, n),
      info = 0, query = -1;
  double lworkSize = 0;
  gehrds.of[which](&n, &ilo, &ihi, scratch.data(), &lda, tau.data(),
                   &lworkSize, &query, &info);
  Workspace work(lworkSize, which);
  onColumnMajorCopies(
      bytes(a), bytes(t[1]), batches, size, size, element, scratch.data(),
      [&](int64_t b) {
        gehrds.of[which](&n, &ilo, &ihi, scratch.data(), &lda, tau.data(),
                         work.data(), &work.size,
                         reinterpret_cast<int *>(bytes(t[3])) + b);
        std::memcpy(bytes(t[2]) + b * reflectors * element, tau.data(),
                    reflectors * element);
      });
  return true;
}

/// The OpenBLAS behind the LAPACK pointers, held to one thread on the
/// calling thread for the length of a call. Its own workers, woken by a
/// call made from TVM's kernels, spun beside TVM's on the same cores: a
/// Gaussian process posterior (a Cholesky factor and two solves) took
/// 16-55 ms a call instead of 0.3, in about one process out of three.
int (*setThreadsLocal)(int) = nullptr;

struct OneThread {
  int previous = setThreadsLocal ? setThreadsLocal(1) : 0;
  ~OneThread() {
    if (setThreadsLocal && previous > 0)
      setThreadsLocal(previous);
  }
};

/// `native`, or where it declines the arguments, the Python routine.
ffi::Function withFallback(const std::string &routine,
                           bool (*native)(ffi::PackedArgs)) {
  ffi::Function python = ffi::Function::GetGlobalRequired(
      "stablehlo_tvm.lapack.python." + routine);
  return ffi::Function::FromPacked(
      [python, native](ffi::PackedArgs args, ffi::Any *result) {
        bool done;
        {
          OneThread serial;
          done = native(args);
        }
        if (!done)
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
  geqrfs.of[0] = reinterpret_cast<Geqrf>(address("sgeqrf"));
  geqrfs.of[1] = reinterpret_cast<Geqrf>(address("dgeqrf"));
  orgqrs.of[0] = reinterpret_cast<Orgqr>(address("sorgqr"));
  orgqrs.of[1] = reinterpret_cast<Orgqr>(address("dorgqr"));
  ormqrs.of[0] = reinterpret_cast<Ormqr>(address("sormqr"));
  ormqrs.of[1] = reinterpret_cast<Ormqr>(address("dormqr"));
  gtsvs.of[0] = reinterpret_cast<Gtsv>(address("sgtsv"));
  gtsvs.of[1] = reinterpret_cast<Gtsv>(address("dgtsv"));
  syevds.of[0] = reinterpret_cast<Syevd>(address("ssyevd"));
  syevds.of[1] = reinterpret_cast<Syevd>(address("dsyevd"));
  gesdds.of[0] = reinterpret_cast<Gesdd>(address("sgesdd"));
  gesdds.of[1] = reinterpret_cast<Gesdd>(address("dgesdd"));
  geevs.of[0] = reinterpret_cast<Geev>(address("sgeev"));
  geevs.of[1] = reinterpret_cast<Geev>(address("dgeev"));
  geess.of[0] = reinterpret_cast<Gees>(address("sgees"));
  geess.of[1] = reinterpret_cast<Gees>(address("dgees"));
  complexGeess.of[0] = reinterpret_cast<ComplexGees>(address("cgees"));
  complexGeess.of[1] = reinterpret_cast<ComplexGees>(address("zgees"));
  gehrds.of[0] = reinterpret_cast<Gehrd>(address("sgehrd"));
  gehrds.of[1] = reinterpret_cast<Gehrd>(address("dgehrd"));
  setThreadsLocal =
      reinterpret_cast<int (*)(int)>(address("openblas_set_num_threads_local"));
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.getrf",
                           withFallback("getrf", getrf), /*override=*/true);
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.potrf",
                           withFallback("potrf", potrf), /*override=*/true);
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.trsm",
                           withFallback("trsm", trsm), /*override=*/true);
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.geqrf",
                           withFallback("geqrf", geqrf), /*override=*/true);
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.orgqr",
                           withFallback("orgqr", orgqr), /*override=*/true);
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.ormqr",
                           withFallback("ormqr", ormqr), /*override=*/true);
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.gtsv",
                           withFallback("gtsv", gtsv), /*override=*/true);
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.syevd",
                           withFallback("syevd", syevd), /*override=*/true);
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.gesdd",
                           withFallback("gesdd", gesdd), /*override=*/true);
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.geev",
                           withFallback("geev", geev), /*override=*/true);
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.gees",
                           withFallback("gees", gees), /*override=*/true);
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.gehrd",
                           withFallback("gehrd", gehrd), /*override=*/true);
  ffi::Function::SetGlobal("stablehlo_tvm.lapack.complex.gees",
                           withFallback("complex.gees", complexGees),
                           /*override=*/true);
}

} // namespace mlir::stablehlo_tvm::python
