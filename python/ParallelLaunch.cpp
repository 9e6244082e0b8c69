//===- ParallelLaunch.cpp - Parallel loops shared by claiming chunks ------===//
//
// A parallel loop TVM compiles calls a launcher, through a pointer its
// library holds (__TVMBackendParallelLaunch), with a lambda that runs chunk
// `task` of `count` equal chunks of the loop. TVM's runtime gives each of its
// threads one chunk and the caller waits for all of them: a thread the OS has
// not scheduled (another process busy on its core) holds the loop up for a
// time slice. Here a loop is cut into several chunks a thread, and each
// thread, the caller among them, claims the next chunk nobody has claimed
// until none is left: a thread that comes late finds the work done, and the
// caller waits only for chunks already running.
//
// One loop runs at a time. A loop launched while another runs (from another
// thread, or from inside a chunk) runs its chunks on the launching thread.
// Chunks never wait for each other: TVM's lambdas call its barrier
// (TVMBackendParallelBarrier) only under a pragma the package's schedules
// never write, parallel_barrier_when_finish.
//
//===----------------------------------------------------------------------===//

#include "ParallelLaunch.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace mlir::stablehlo_tvm::python {
namespace {

// TVM's parallel-lambda ABI (tvm/runtime/c_backend_api.h).
struct GroupEnv {
  void *syncHandle;
  int32_t taskCount;
};
using Lambda = int (*)(int task, GroupEnv *env, void *closure);

// Chunks a thread: enough that a late thread leaves most of its share to
// the others, few enough that running a chunk outweighs claiming it.
constexpr int32_t kChunksPerThread = 4;
// How long an idle worker polls for the next loop before it sleeps: a
// program's kernels follow each other within microseconds.
constexpr auto kPollTime = std::chrono::microseconds(200);

// Polls that only pause the core (a few microseconds) before a thread
// that waits yields it to whatever else is ready to run.
constexpr int kPausesBeforeYield = 128;

void pause() {
#if defined(__x86_64__)
  _mm_pause();
#endif
}

// Whether this thread runs chunks of a loop now (a worker always does).
thread_local bool runningChunks = false;

int runSerially(Lambda lambda, void *closure, int32_t count) {
  GroupEnv env{nullptr, count};
  bool outer = runningChunks;
  runningChunks = true;
  int status = 0;
  for (int32_t task = 0; task < count; ++task)
    if (lambda(task, &env, closure) != 0)
      status = -1;
  runningChunks = outer;
  return status;
}

class Pool {
public:
  static Pool &get() {
    // Never destroyed: its threads outlive static destruction at exit.
    static Pool *pool = new Pool(threadCount());
    return *pool;
  }

  int launch(Lambda lambda, void *closure, int32_t requested) {
    if (runningChunks || workers == 0 || !launching.try_lock())
      return runSerially(lambda, closure, requested > 0 ? requested : 1);
    int32_t count = requested > 0 ? requested : kChunksPerThread * (workers + 1);
    job.lambda.store(lambda, std::memory_order_relaxed);
    job.closure.store(closure, std::memory_order_relaxed);
    job.count.store(count, std::memory_order_relaxed);
    finished.store(0, std::memory_order_relaxed);
    failed.store(false, std::memory_order_relaxed);
    uint32_t generation = ++lastGeneration;
    // Sequentially consistent with the sleepers' count (waitForLoop): either
    // a worker about to sleep sees this loop, or this sees the worker.
    state.store(uint64_t(generation) << 32, std::memory_order_seq_cst);
    if (sleepers.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard<std::mutex> lock(sleepLock);
      wake.notify_all();
    }
    runningChunks = true;
    runChunks(generation);
    runningChunks = false;
    // What remains are chunks other threads claimed and run now. Soon
    // yielding: on a busy machine, one of them may wait for this core.
    for (int polls = 0; finished.load(std::memory_order_acquire) < count;
         ++polls) {
      if (polls < kPausesBeforeYield)
        pause();
      else
        std::this_thread::yield();
    }
    bool anyFailed = failed.load(std::memory_order_relaxed);
    launching.unlock();
    return anyFailed ? -1 : 0;
  }

private:
  explicit Pool(int threads) : workers(threads - 1) {
    for (int i = 0; i < workers; ++i)
      std::thread([this] { work(); }).detach();
  }

  /// Threads in all, the caller's included: TVM's own setting
  /// (TVM_NUM_THREADS, which the package sets to the physical cores).
  static int threadCount() {
    for (const char *name : {"TVM_NUM_THREADS", "OMP_NUM_THREADS"})
      if (const char *value = std::getenv(name))
        if (int n = std::atoi(value); n > 0)
          return n;
    unsigned n = std::thread::hardware_concurrency();
    return n > 0 ? int(n) : 1;
  }

  /// Runs the chunks of loop `generation` still unclaimed. The job's fields
  /// read here are that loop's even if it has ended by then: they change
  /// only once every chunk of it has run, and then no claim below succeeds.
  void runChunks(uint32_t generation) {
    Lambda lambda = job.lambda.load(std::memory_order_relaxed);
    void *closure = job.closure.load(std::memory_order_relaxed);
    int32_t count = job.count.load(std::memory_order_relaxed);
    GroupEnv env{nullptr, count};
    uint64_t current = state.load(std::memory_order_acquire);
    while (uint32_t(current >> 32) == generation &&
           int32_t(uint32_t(current)) < count) {
      if (!state.compare_exchange_weak(current, current + 1,
                                       std::memory_order_acq_rel,
                                       std::memory_order_acquire))
        continue;
      if (lambda(int(uint32_t(current)), &env, closure) != 0)
        failed.store(true, std::memory_order_relaxed);
      finished.fetch_add(1, std::memory_order_acq_rel);
      current = state.load(std::memory_order_acquire);
    }
  }

  void work() {
    runningChunks = true;
    uint32_t seen = 0;
    for (;;) {
      seen = waitForLoop(seen);
      runChunks(seen);
    }
  }

  /// The generation of the next loop after `seen`: polled for a while,
  /// then slept for.
  uint32_t waitForLoop(uint32_t seen) {
    auto generation = [&] {
      return uint32_t(state.load(std::memory_order_seq_cst) >> 32);
    };
    auto until = std::chrono::steady_clock::now() + kPollTime;
    for (int polls = 1;; ++polls) {
      if (uint32_t next = generation(); next != seen)
        return next;
      if (polls < kPausesBeforeYield) {
        pause();
        continue;
      }
      std::this_thread::yield();
      if (polls % 16 == 0 && std::chrono::steady_clock::now() > until)
        break;
    }
    std::unique_lock<std::mutex> lock(sleepLock);
    sleepers.fetch_add(1, std::memory_order_seq_cst);
    uint32_t next = seen;
    wake.wait(lock, [&] { return (next = generation()) != seen; });
    sleepers.fetch_sub(1, std::memory_order_seq_cst);
    return next;
  }

  struct Job {
    std::atomic<Lambda> lambda{nullptr};
    std::atomic<void *> closure{nullptr};
    std::atomic<int32_t> count{0};
  };

  const int workers;
  std::mutex launching;
  uint32_t lastGeneration = 0; // written under `launching`
  Job job;
  // The loop's generation (high 32 bits) and its next unclaimed chunk.
  std::atomic<uint64_t> state{0};
  std::atomic<int32_t> finished{0};
  std::atomic<bool> failed{false};
  std::atomic<int> sleepers{0};
  std::mutex sleepLock;
  std::condition_variable wake;
};

std::atomic<uint64_t> launches{0};

/// TVMBackendParallelLaunch's signature.
int parallelLaunch(Lambda lambda, void *closure, int numTask) {
  launches.fetch_add(1, std::memory_order_relaxed);
  return Pool::get().launch(lambda, closure, numTask);
}

} // namespace

uint64_t parallelLaunches() {
  return launches.load(std::memory_order_relaxed);
}

std::uintptr_t parallelLaunchAddress() {
  return reinterpret_cast<std::uintptr_t>(&parallelLaunch);
}

} // namespace mlir::stablehlo_tvm::python
