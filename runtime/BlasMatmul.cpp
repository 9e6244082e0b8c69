//===- BlasMatmul.cpp - Matrix products on a BLAS, for TVM's runtime ------===//
//
// Two global functions of TVM's FFI:
//
//   stablehlo_tvm.blas.bind(path, sgemm, dgemm, set_threads, ilp64) -> bool
//     opens the shared library at `path` (already loaded: the same copy) and
//     takes its cblas_sgemm/cblas_dgemm and thread-count setter by the given
//     symbol names; `ilp64` says its integers are 64-bit.
//   stablehlo_tvm.blas.matmul(a, b, transpose_a, transpose_b, c)
//     c = op(a) op(b) for row-major a [..., M, K] (or [..., K, M] when
//     transposed), b [..., K, N] (or [..., N, K]) with the same leading
//     dimensions as c [..., M, N], or a 2-D b shared by every batch.
//
// The product is split over TVM's thread pool with the BLAS held to one
// thread, so that one pool of workers runs at a time: the BLAS's own workers
// spinning next to TVM's slowed both.
//
//===----------------------------------------------------------------------===//

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

// TVM's runtime thread pool (tvm/runtime/c_backend_api.h). The runtime library
// is loaded with global symbols before this one.
extern "C" {
typedef struct {
  void *sync_handle;
  int32_t num_task;
} TVMParallelGroupEnv;
typedef int (*FTVMParallelLambda)(int task_id, TVMParallelGroupEnv *penv,
                                  void *cdata);
int TVMBackendParallelLaunch(FTVMParallelLambda flambda, void *cdata,
                             int num_task);
}

namespace {

using tvm::ffi::TensorView;

// CBLAS's enumerators.
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

template <typename Int, typename T>
using Gemm = void (*)(int, int, int, Int, Int, Int, T, const T *, Int,
                      const T *, Int, T, T *, Int);

struct Blas {
  void *sgemm = nullptr;
  void *dgemm = nullptr;
  int (*setThreads)(int) = nullptr;
  bool ilp64 = true;
};

Blas &blas() {
  static Blas instance;
  return instance;
}

bool bind(const std::string &path, const std::string &sgemm,
          const std::string &dgemm, const std::string &setThreads,
          bool ilp64) {
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return false;
  Blas bound;
  bound.sgemm = dlsym(handle, sgemm.c_str());
  bound.dgemm = dlsym(handle, dgemm.c_str());
  bound.setThreads =
      reinterpret_cast<int (*)(int)>(dlsym(handle, setThreads.c_str()));
  bound.ilp64 = ilp64;
  if (!bound.sgemm || !bound.dgemm || !bound.setThreads)
    return false;
  blas() = bound;
  return true;
}

// One product of the batch, or a block of its rows or columns.
struct Block {
  const void *a, *b;
  void *c;
  int64_t m, n, k, lda, ldb, ldc;
};

struct Product {
  bool transA, transB, isDouble;
  int64_t batch, m, n, k;
  int64_t strideA, strideB, strideC; // elements between batches
  const char *a, *b;
  char *c;
  int64_t elementBytes;
  bool alongRows; // blocks of rows, else of columns: the longer side

  // Blocks a batch is cut into so that each of `workers` has one (none
  // thinner than 16).
  int64_t pieces(int64_t workers) const {
    int64_t extent = alongRows ? m : n;
    int64_t wanted = (workers + batch - 1) / batch;
    return std::max<int64_t>(1, std::min(wanted, extent / 16));
  }

  Block block(int64_t unit, int64_t pieces) const {
    int64_t index = unit / pieces, piece = unit % pieces;
    int64_t extent = alongRows ? m : n;
    int64_t begin = extent * piece / pieces;
    int64_t end = extent * (piece + 1) / pieces;
    int64_t lda = transA ? m : k, ldb = transB ? k : n;
    const char *a = this->a + index * strideA * elementBytes;
    const char *b = this->b + index * strideB * elementBytes;
    char *c = this->c + index * strideC * elementBytes;
    Block block{a, b, c, m, n, k, lda, ldb, n};
    if (alongRows) {
      block.m = end - begin;
      block.a = a + begin * (transA ? 1 : lda) * elementBytes;
      block.c = c + begin * n * elementBytes;
    } else {
      block.n = end - begin;
      block.b = b + begin * (transB ? ldb : 1) * elementBytes;
      block.c = c + begin * elementBytes;
    }
    return block;
  }
};

template <typename Int, typename T>
void run(const Product &product, const Block &block) {
  if (block.m == 0 || block.n == 0)
    return;
  auto gemm = reinterpret_cast<Gemm<Int, T>>(product.isDouble
                                                  ? blas().dgemm
                                                  : blas().sgemm);
  gemm(kRowMajor, product.transA ? kTrans : kNoTrans,
       product.transB ? kTrans : kNoTrans, block.m, block.n, block.k, T(1),
       static_cast<const T *>(block.a), block.lda,
       static_cast<const T *>(block.b), block.ldb, T(0),
       static_cast<T *>(block.c), block.ldc);
}

void runBlock(const Product &product, int64_t unit, int64_t pieces) {
  Block block = product.block(unit, pieces);
  if (product.isDouble)
    blas().ilp64 ? run<int64_t, double>(product, block)
                 : run<int32_t, double>(product, block);
  else
    blas().ilp64 ? run<int64_t, float>(product, block)
                 : run<int32_t, float>(product, block);
}

int runTask(int task, TVMParallelGroupEnv *env, void *data) {
  const Product &product = *static_cast<const Product *>(data);
  int64_t pieces = product.pieces(env->num_task);
  for (int64_t unit = task; unit < product.batch * pieces;
       unit += env->num_task)
    runBlock(product, unit, pieces);
  return 0;
}

int64_t batchOf(TensorView tensor) {
  int64_t batch = 1;
  for (int i = 0; i + 2 < tensor.ndim(); ++i)
    batch *= tensor.shape()[i];
  return batch;
}

bool compact(TensorView tensor) {
  if (!tensor.strides().data())
    return true;
  int64_t expected = 1;
  for (int i = tensor.ndim() - 1; i >= 0; --i) {
    if (tensor.shape()[i] != 1 && tensor.strides()[i] != expected)
      return false;
    expected *= tensor.shape()[i];
  }
  return true;
}

void matmul(TensorView a, TensorView b, int64_t transposeA, int64_t transposeB,
            TensorView c) {
  if (!blas().sgemm)
    TVM_FFI_THROW(RuntimeError) << "stablehlo_tvm.blas.matmul: no BLAS bound";
  DLDataType type = c.dtype();
  bool isFloat = type.code == kDLFloat && type.lanes == 1 &&
                 (type.bits == 32 || type.bits == 64);
  auto sameType = [&](TensorView t) {
    return t.dtype().code == type.code && t.dtype().bits == type.bits &&
           t.dtype().lanes == type.lanes;
  };
  if (!isFloat || !sameType(a) || !sameType(b))
    TVM_FFI_THROW(TypeError)
        << "stablehlo_tvm.blas.matmul: operands must be float32 or float64 "
           "of one type";
  for (TensorView t : {a, b, c})
    if (t.device().device_type != kDLCPU || t.ndim() < 2 || !compact(t))
      TVM_FFI_THROW(ValueError) << "stablehlo_tvm.blas.matmul: operands must "
                                   "be compact CPU tensors of rank 2 or more";

  Product p;
  p.transA = transposeA != 0;
  p.transB = transposeB != 0;
  p.isDouble = type.bits == 64;
  p.elementBytes = type.bits / 8;
  int ra = a.ndim(), rb = b.ndim(), rc = c.ndim();
  p.m = c.shape()[rc - 2];
  p.n = c.shape()[rc - 1];
  p.k = p.transA ? a.shape()[ra - 2] : a.shape()[ra - 1];
  int64_t am = p.transA ? a.shape()[ra - 1] : a.shape()[ra - 2];
  int64_t bk = p.transB ? b.shape()[rb - 1] : b.shape()[rb - 2];
  int64_t bn = p.transB ? b.shape()[rb - 2] : b.shape()[rb - 1];
  p.batch = batchOf(c);
  bool sharedB = rb == 2 && rc > 2;
  if (am != p.m || bk != p.k || bn != p.n || batchOf(a) != p.batch ||
      ra != rc || (!sharedB && (rb != rc || batchOf(b) != p.batch)))
    TVM_FFI_THROW(ValueError) << "stablehlo_tvm.blas.matmul: shapes do not "
                                 "form a matrix product";
  p.strideA = p.m * p.k;
  p.strideB = sharedB ? 0 : p.k * p.n;
  p.strideC = p.m * p.n;
  // Rows of a batch of row-major, untransposed products over one B are one
  // taller product.
  if (sharedB && !p.transA) {
    p.m *= p.batch;
    p.batch = 1;
  }
  p.a = static_cast<const char *>(a.data_ptr()) + a.byte_offset();
  p.b = static_cast<const char *>(b.data_ptr()) + b.byte_offset();
  p.c = static_cast<char *>(c.data_ptr()) + c.byte_offset();

  // Products too small to share run on the calling thread, still with the
  // BLAS at one thread.
  constexpr int64_t kSmall = 1 << 18;
  p.alongRows = p.m >= p.n;
  int previous = blas().setThreads(1);
  if (p.batch * p.m * p.n * p.k <= kSmall) {
    for (int64_t unit = 0; unit < p.batch; ++unit)
      runBlock(p, unit, 1);
  } else {
    // 0 tasks: as many as TVM's pool has workers.
    if (TVMBackendParallelLaunch(runTask, &p, 0) != 0) {
      blas().setThreads(previous);
      TVM_FFI_THROW(RuntimeError)
          << "stablehlo_tvm.blas.matmul: the thread pool failed";
    }
  }
  blas().setThreads(previous);
}

} // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef()
      .def("stablehlo_tvm.blas.bind", bind)
      .def("stablehlo_tvm.blas.matmul", matmul);
}
