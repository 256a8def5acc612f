/* npx_cuda.h: the CUDA layer of a generated .cu program, first in the file.
 * Under nvcc it is a thin layer over the real CUDA runtime and cuBLAS; under
 * any other C++17 compiler it is a host emulation of exactly the subset that
 * npxc generates, so the same .cu file builds two ways:
 *
 *   nvcc -O3 -arch=sm_90 prog.cu -o prog -lcublas          # the real GPU
 *   g++ -std=c++17 -x c++ prog.cu -o prog_emu -lpthread    # no toolkit, no GPU
 *
 * Emulation is for correctness, never for speed: it runs a kernel's blocks one
 * after another and the threads of a block as cooperative fibers that switch
 * only at barriers (a few instructions on x86-64, swapcontext elsewhere).
 * Races show as wrong answers in some thread order (NPX_EMU_ORDER below); results that are right in every order are
 * the GPU's, up to the order of floating-point atomics.
 *
 * ---- What generated code writes (both builds) -----------------------------
 *   NPX_LAUNCH(kernel, grid, block, shared_bytes, stream, args...);
 *       The only way to launch: kernel<<<grid, block, shared_bytes,
 *       stream>>>(args...), then a check of cudaGetLastError() that fails as
 *       NPX_CUDA_CHECK does, naming "kernel<<<grid, block, ...>>>". grid and
 *       block are dim3 or integers; stream is a cudaStream_t or 0. A
 *       statement (do { } while (0)). The kernel is a plain function name
 *       (no template arguments with commas).
 *   NPX_SHARED(type, name, count);        __shared__ type name[count]
 *   NPX_SHARED2(type, name, rows, cols);  __shared__ type name[rows][cols]
 *   NPX_SHARED_DYNAMIC(type, name);       type *name = the launch's
 *       shared_bytes (extern __shared__), 16-byte aligned.
 *       Shared arrays are declared only through these macros (a bare
 *       __shared__ is a compile error in emulation). Each block gets its own
 *       copy; static arrays plus shared_bytes are limited to 48 KiB.
 *   NPX_CUDA_CHECK(call);   NPX_CUBLAS_CHECK(call);
 *       On failure print
 *         PROG: error: CUDA call failed: CALL TEXT at FILE:LINE: MESSAGE
 *       ("cuBLAS call failed" for the second; MESSAGE is cudaGetErrorString's
 *       or cublasGetStatusString's text) and exit 4 (NPX_EXIT_CUDA).
 *   NPX_INLINE: defined here (unless predefined) as static inline
 *       __host__ __device__, so npx_math.h's helpers work in kernels.
 *   NPX_CUDA_EMULATION is defined (as 1) only in the emulation.
 * Rules for generated code, which the two builds enforce differently:
 *   - shared arrays only inside a kernel or __device__ function, through
 *     the macros; none left unread (nvcc -Werror all-warnings rejects a
 *     __shared__ array that is set but never used);
 *   - 64-bit integer atomics take long long / unsigned long long, and
 *     int64_t is long on Linux: cast, (long long *)p; atomicAdd has no
 *     signed 64-bit form (use unsigned long long: it wraps the same);
 *   - kernel pointer arguments point into cudaMalloc'd memory (or are null);
 *   - the real CUDA spelling of everything else, e.g. cudaMalloc(&p, bytes)
 *     with p a T * (the template overload exists in both builds).
 *
 * ---- The emulated subset ----------------------------------------------------
 * Qualifiers: __global__ __device__ __host__ __forceinline__
 *   __launch_bounds__(...). Builtins: threadIdx blockIdx blockDim gridDim
 *   (read-only), warpSize, dim3, uint3.
 * In kernels: __syncthreads() (and _count/_and/_or), __syncwarp(),
 *   __threadfence(); atomicAdd (int, unsigned, unsigned long long, float,
 *   double), atomicMax / atomicMin (int, unsigned, long long, unsigned long
 *   long), atomicCAS / atomicExch (int, unsigned, unsigned long long);
 *   __shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync (int,
 *   unsigned, long, unsigned long, long long, unsigned long long, float,
 *   double; width a power of two <= 32); __ballot_sync __any_sync
 *   __all_sync. Warp functions take the full mask 0xffffffff only; lanes
 *   that do not exist (a partial last warp) or have returned do not take
 *   part, and reading from one gives the caller's own value.
 * Runtime API: cudaMalloc cudaFree cudaMallocAsync cudaFreeAsync
 *   cudaDeviceGetDefaultMemPool cudaMemPoolSetAttribute (the release
 *   threshold) cudaMemcpy cudaMemcpyAsync cudaMemset
 *   cudaMemsetAsync cudaMemGetInfo cudaDeviceSynchronize cudaStreamCreate
 *   cudaStreamDestroy cudaStreamSynchronize cudaEventCreate
 *   cudaEventCreateWithFlags cudaEventRecord cudaEventQuery
 *   cudaEventSynchronize cudaEventElapsedTime cudaEventDestroy
 *   cudaGetLastError cudaPeekAtLastError cudaGetErrorString cudaGetErrorName
 *   cudaGetDeviceCount cudaSetDevice cudaGetDevice cudaGetDeviceProperties
 *   (a subset of cudaDeviceProp's fields) cudaDeviceGetAttribute
 *   (multiprocessor count, max threads per block, warp size, shared memory
 *   per block, compute capability), cudaStreamBeginCapture
 *   cudaStreamEndCapture cudaGraphInstantiate (and its flag
 *   cudaGraphInstantiateFlagAutoFreeOnLaunch) cudaGraphLaunch
 *   cudaGraphExecDestroy cudaGraphDestroy, with the real error codes and
 *   texts.
 * cuBLAS: cublasCreate cublasDestroy cublasSetStream cublasSetMathMode
 *   (CUBLAS_DEFAULT_MATH, CUBLAS_TF32_TENSOR_OP_MATH, ...) cublasSgemm
 *   cublasDgemm (column-major, CUBLAS_OP_N/T/C, alpha/beta, leading
 *   dimensions checked as cuBLAS does) cublasSgemmStridedBatched
 *   cublasDgemmStridedBatched (each matrix a gemm) cublasGetStatusString
 *   cublasGetStatusName. The GEMM accumulates in the matrices' type, one
 *   fused multiply-add a step, as cuBLAS's kernels do; in TF32 mode
 *   cublasSgemm first rounds A and B to TF32 as the tensor cores do.
 *
 * ---- How the emulation behaves ------------------------------------------------
 * Device memory is host memory from malloc, filled with 0xff bytes (NaN,
 *   -1) so that reading memory nobody wrote shows; the emulation keeps a
 *   table of allocations and refuses, with the real error codes, a copy in
 *   the wrong direction, a range outside an allocation, and a kernel
 *   argument that points outside device memory (a host pointer handed to a
 *   kernel): cudaErrorIllegalAddress, with a line naming the argument.
 *   cudaMalloc of more than the machine's memory fails with
 *   cudaErrorMemoryAllocation ("out of memory").
 * Everything is synchronous; streams are handles, events read
 *   CLOCK_MONOTONIC at cudaEventRecord.
 * Stream capture (one stream at a time): work on the capturing stream
 *   (launches, async copies and memsets, stream-ordered allocation, cuBLAS
 *   calls on a handle set to that stream, event records) is checked and
 *   recorded, not run; cudaGraphLaunch runs it in order. What a capture
 *   allocates is allocated at once, at the address every launch uses. As in
 *   cudaStreamCaptureModeGlobal, a call that waits for the device (cudaMalloc,
 *   cudaFree, cudaMemcpy, cudaMemset, any synchronize) or uses the legacy
 *   stream during a capture fails with the real error, names itself on
 *   stderr, and invalidates the capture.
 * The device looks like an H200 (sm_90, 132 multiprocessors), so a grid
 *   sized from cudaDevAttrMultiProcessorCount is the GPU's grid and a
 *   deterministic reduction adds in the GPU's order.
 * Shared memory is refilled with 0xff bytes for every block; under
 *   AddressSanitizer the gaps between shared arrays are poisoned, so an
 *   index past a shared array is reported.
 * Barriers: __syncthreads() waits for every thread of the block that has
 *   not returned; a shuffle is a warp barrier (all live lanes deposit their
 *   value before any lane reads). Threads stuck at different barriers
 *   (divergent warp functions) are reported as a deadlock, exit 4.
 *
 * Environment:
 *   NPX_EMU_ORDER=forward|reverse|shuffle  the order in which a block's
 *       threads run between two barriers, and the order of the blocks
 *       (default forward; shuffle draws a new order for every stretch
 *       between barriers from a fixed seed). A missing __syncthreads()
 *       shows as a wrong answer: forward catches a read before the write
 *       it needs from a later thread, reverse a write over data that a
 *       later thread has yet to read, shuffle usually both.
 *   NPX_EMU_SEED=N        the seed for shuffle (default fixed).
 *   NPX_EMU_SMS=N         multiprocessors reported (default 132).
 *   NPX_EMU_STACK_KB=N    stack of each fiber (default 64, 256 under ASan).
 *   NPX_EMU_UCONTEXT=1    switch fibers with swapcontext where the faster
 *       switch of x86-64 would do (the two give the same results).
 * Kernels are launched from one host thread at a time. The emulated device
 *   is one for the whole program (C++17 inline variables), however many
 *   files include this header.
 */
#ifndef NPX_CUDA_H
#define NPX_CUDA_H

#ifndef NPX_INLINE
#define NPX_INLINE static inline __host__ __device__ __attribute__((unused))
#endif

#include <errno.h>   /* program_invocation_short_name */
#include <stdio.h>
#include <stdlib.h>

/* ============================================================================
 * The real thing.
 * ========================================================================== */
#ifdef __CUDACC__
#include <cublas_v2.h>
#include <cuda_runtime.h>

#define NPX_SHARED(type, name, count) __shared__ type name[count]
#define NPX_SHARED2(type, name, rows, cols) __shared__ type name[rows][cols]
#define NPX_SHARED_DYNAMIC(type, name)                                         \
    extern __shared__ __align__(16) unsigned char npx_shared_dynamic[];        \
    type *name = reinterpret_cast<type *>(npx_shared_dynamic)

#define NPX_LAUNCH(kernel, grid, block, shared_bytes, stream, ...)             \
    do {                                                                       \
        kernel<<<(grid), (block), (shared_bytes), stream>>>(__VA_ARGS__);      \
        npx_cuda_check(cudaGetLastError(),                                     \
                       NPX_LAUNCH_TEXT(kernel, grid, block, shared_bytes, stream), \
                       __FILE__, __LINE__);                                    \
    } while (0)

/* ============================================================================
 * The host emulation.
 * ========================================================================== */
#else
#define NPX_CUDA_EMULATION 1

#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <type_traits>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define NPX_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NPX_EMU_ASAN 1
#endif
#endif
#ifdef NPX_EMU_ASAN
#include <dlfcn.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
/* A bare __shared__ would give every emulated thread its own array. */
#define __shared__ static_assert(false, "declare shared arrays with NPX_SHARED(type, name, count)");

/* Everything of the emulation is declared this way: free when unused. */
#define NPX_EMU_FN static inline __attribute__((unused))

/* ---- Types and constants, with the real values ---------------------------- */
struct uint3 {
    unsigned int x, y, z;
};
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};
inline constexpr int warpSize = 32; /* inline: no unused-variable warning where no kernel reads it */

/* X(name, value, cudaGetErrorString text) */
#define NPX_EMU_ERRORS(X)                                                      \
    X(cudaSuccess, 0, "no error")                                              \
    X(cudaErrorInvalidValue, 1, "invalid argument")                            \
    X(cudaErrorMemoryAllocation, 2, "out of memory")                           \
    X(cudaErrorInvalidConfiguration, 9, "invalid configuration argument")      \
    X(cudaErrorInvalidDevicePointer, 17, "invalid device pointer")             \
    X(cudaErrorInvalidMemcpyDirection, 21, "invalid copy direction for memcpy") \
    X(cudaErrorInvalidDeviceFunction, 98, "invalid device function")           \
    X(cudaErrorNoDevice, 100, "no CUDA-capable device is detected")            \
    X(cudaErrorInvalidDevice, 101, "invalid device ordinal")                   \
    X(cudaErrorInvalidResourceHandle, 400, "invalid resource handle")          \
    X(cudaErrorIllegalState, 401, "the operation cannot be performed in the present state") \
    X(cudaErrorNotReady, 600, "device not ready")                              \
    X(cudaErrorIllegalAddress, 700, "an illegal memory access was encountered") \
    X(cudaErrorLaunchOutOfResources, 701, "too many resources requested for launch") \
    X(cudaErrorLaunchFailure, 719, "unspecified launch failure")               \
    X(cudaErrorStreamCaptureUnsupported, 900, "operation not permitted when stream is capturing") \
    X(cudaErrorStreamCaptureInvalidated, 901, "operation failed due to a previous error during capture") \
    X(cudaErrorStreamCaptureUnmatched, 903, "capture was not initiated in this stream") \
    X(cudaErrorStreamCaptureImplicit, 906,                                     \
      "operation would make the legacy stream depend on a capturing blocking stream") \
    X(cudaErrorUnknown, 999, "unknown error")

enum cudaError {
#define X(name, value, text) name = value,
    NPX_EMU_ERRORS(X)
#undef X
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76
};

/* The fields of the real struct cudaDeviceProp that the emulation fills. */
struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    size_t totalConstMem;
    int major;
    int minor;
    int multiProcessorCount;
    int l2CacheSize;
    int maxThreadsPerMultiProcessor;
    size_t sharedMemPerMultiprocessor;
    size_t sharedMemPerBlockOptin;
};

struct CUstream_st {
    int unused;
};
struct CUevent_st {
    bool recorded;
    double ms;                     /* CLOCK_MONOTONIC at the last record */
};
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
struct CUmemPoolHandle_st {
    uint64_t release_threshold;
};
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2
};
enum cudaGraphInstantiateFlags { cudaGraphInstantiateFlagAutoFreeOnLaunch = 1 };
/* A captured graph: its work in stream order, and its memory (kept while
 * the graph or an instance of it exists). */
struct npx_emu_graph_memory;
struct CUgraph_st {
    std::vector<std::function<void()>> work;
    std::shared_ptr<npx_emu_graph_memory> memory;
};
struct CUgraphExec_st {
    CUgraph_st graph;
    bool auto_free, launched;
};
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
enum cudaMemPoolAttr { cudaMemPoolAttrReleaseThreshold = 4 };
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02

/* X(name, value, cublasGetStatusString text) */
#define NPX_EMU_CUBLAS_STATUSES(X)                                             \
    X(CUBLAS_STATUS_SUCCESS, 0, "success")                                     \
    X(CUBLAS_STATUS_NOT_INITIALIZED, 1, "the library was not initialized")     \
    X(CUBLAS_STATUS_ALLOC_FAILED, 3, "the resource allocation failed")         \
    X(CUBLAS_STATUS_INVALID_VALUE, 7, "an unsupported value or parameter was passed to the function") \
    X(CUBLAS_STATUS_ARCH_MISMATCH, 8, "the function requires an architectural feature absent from the device") \
    X(CUBLAS_STATUS_MAPPING_ERROR, 11, "an access to GPU memory space failed") \
    X(CUBLAS_STATUS_EXECUTION_FAILED, 13, "the function failed to launch on the GPU") \
    X(CUBLAS_STATUS_INTERNAL_ERROR, 14, "an internal operation failed")        \
    X(CUBLAS_STATUS_NOT_SUPPORTED, 15, "the requested functionality is not supported")

typedef enum {
#define X(name, value, text) name = value,
    NPX_EMU_CUBLAS_STATUSES(X)
#undef X
} cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 } cublasOperation_t;
typedef enum {
    CUBLAS_DEFAULT_MATH = 0,
    CUBLAS_TENSOR_OP_MATH = 1,
    CUBLAS_PEDANTIC_MATH = 2,
    CUBLAS_TF32_TENSOR_OP_MATH = 3
} cublasMath_t;
struct cublasContext {
    cudaStream_t stream;
    cublasMath_t math;
};
typedef struct cublasContext *cublasHandle_t;

/* ---- The emulator's state -------------------------------------------------- */
enum { NPX_EMU_SHARED_BYTES = 48 * 1024, NPX_EMU_MAX_THREADS = 1024 };
/* A thread of the block being run. */
enum { NPX_EMU_UNSTARTED, NPX_EMU_READY, NPX_EMU_RUNNING, NPX_EMU_AT_SYNC, NPX_EMU_AT_WARP, NPX_EMU_DONE };
enum { NPX_EMU_FORWARD, NPX_EMU_REVERSE, NPX_EMU_SHUFFLE };

/* Where a suspended context resumes: on x86-64 its stack pointer (the
 * registers it keeps are saved on its stack, see npx_emu_jump); elsewhere,
 * or where a shadow stack guards returns (which only swapcontext knows how
 * to switch), a ucontext. swapcontext also saves the signal mask, a system
 * call per switch that was most of an emulated barrier's cost. */
struct npx_emu_context {
    void *sp;
    ucontext_t uc;
};

/* A fiber: a stack that runs one block thread at a time. */
struct npx_emu_fiber {
    npx_emu_context ctx;           /* never moves once made */
    char *stack;
    size_t size;
    void *fake_stack;              /* AddressSanitizer's, across switches */
    int thread;                    /* the thread it runs; -1: free */
};

/* A warp's meeting point for shuffles and votes. */
struct npx_emu_warp {
    unsigned live, arrived;        /* lanes not returned; lanes waiting */
    unsigned long long round;      /* + 1 at each release */
    unsigned long long slot[32];   /* deposited values, as bits */
    unsigned long long dep[32];    /* round of each lane's deposit */
};

struct npx_emu_state {
    /* Device: allocations (address -> size), handles, last error. */
    std::map<uintptr_t, size_t> allocs;
    size_t allocated;
    std::set<const void *> handles;
    CUmemPoolHandle_st default_pool;
    cudaError_t last_error;
    int order;                     /* NPX_EMU_FORWARD ... */
    uint64_t rng;
    size_t stack_size;
    bool fast_switch;              /* npx_emu_jump, not swapcontext */
    int sms;

    /* Stream capture (one stream at a time): the stream, the graph being
     * recorded, what was allocated in it and not yet freed, and whether a
     * call broke the capture's rules. */
    cudaStream_t capturing;
    CUgraph_st *capture;
    std::map<void *, size_t> capture_allocs;
    bool capture_broken;
    /* Memory that graphs allocate and leave allocated, by address: a free
     * outside the graph ends the allocation, the graph's next launch makes
     * it again, at the same address. */
    std::map<void *, size_t> graph_kept;

    /* The launch being run. */
    bool in_kernel;
    const char *kernel;
    void (*thunk)(void *);
    void *arg;
    dim3 grid, block;
    unsigned nthreads;
    std::vector<unsigned char> tstate;   /* per thread: NPX_EMU_UNSTARTED ... */
    std::vector<int> tfiber;             /* per thread: its fiber or -1 */
    std::vector<unsigned> torder;        /* this pass's order */
    std::vector<npx_emu_warp> warps;
    unsigned pos;                  /* next index into torder */
    unsigned live, arrived, ready, done;
    int sync_acc, sync_result;     /* __syncthreads_count/and/or: true */
    int sync_n;                    /* ... out of sync_n threads */
    int cur_thread;

    /* Fibers; -1 is the host thread's own context ("main"). */
    std::vector<npx_emu_fiber *> fibers;
    std::vector<int> free_fibers;
    int cur_fiber;
    npx_emu_context main_ctx;
    void *main_fake;
    const void *main_bottom;
    size_t main_size;
    bool from_main;

    /* Shared memory of the current block. */
    unsigned long long block_serial;
    size_t shared_used;
    alignas(16) unsigned char shared[NPX_EMU_SHARED_BYTES];
};

/* The emulated device. C++17 inline variables: one for the whole program,
 * however many files include this header. Never freed, so that device
 * memory a program leaves allocated stays reachable (LeakSanitizer), as it
 * would on a GPU. */
inline npx_emu_state *npx_emu_g;
/* The builtins of the thread that runs; set at every switch. */
inline uint3 npx_emu_thread_idx;
inline uint3 npx_emu_block_idx;
inline dim3 npx_emu_block_dim;
inline dim3 npx_emu_grid_dim;
#define threadIdx (static_cast<const uint3 &>(npx_emu_thread_idx))
#define blockIdx (static_cast<const uint3 &>(npx_emu_block_idx))
#define blockDim (static_cast<const dim3 &>(npx_emu_block_dim))
#define gridDim (static_cast<const dim3 &>(npx_emu_grid_dim))

NPX_EMU_FN const char *npx_emu_prog(void)
{
#ifdef __GLIBC__
    return program_invocation_short_name;   /* what npx_main calls PROG */
#else
    return "npx";
#endif
}

/* An error in the emulated program that a GPU would not survive either:
 * "PROG: error: CUDA emulation: ...", exit 4. Safe to call from a fiber. */
NPX_EMU_FN void npx_emu_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
NPX_EMU_FN void npx_emu_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    fprintf(stderr, "%s: error: CUDA emulation: ", npx_emu_prog());
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    _exit(4);
}

/* ---- The fibers' switch -------------------------------------------------------- */
#if defined(__x86_64__) && defined(__linux__)
/* npx_emu_jump(&save, to): pushes the registers the SysV ABI says a call
 * keeps (rbx, rbp, r12-r15, the SSE and x87 control words), leaves the
 * stack pointer in save, takes `to` as the stack pointer and pops the same
 * from it; its ret returns into the context that saved `to`. A local
 * symbol: every file that includes this header has its own. */
asm(".text\n"
    ".type npx_emu_jump, @function\n"
    "npx_emu_jump:\n"
    "    pushq %rbp\n    pushq %rbx\n    pushq %r12\n    pushq %r13\n    pushq %r14\n    pushq %r15\n"
    "    subq $8, %rsp\n    stmxcsr (%rsp)\n    fnstcw 4(%rsp)\n"
    "    movq %rsp, (%rdi)\n"
    "    movq %rsi, %rsp\n"
    "    ldmxcsr (%rsp)\n    fldcw 4(%rsp)\n    addq $8, %rsp\n"
    "    popq %r15\n    popq %r14\n    popq %r13\n    popq %r12\n    popq %rbx\n    popq %rbp\n"
    "    ret\n"
    ".size npx_emu_jump, .-npx_emu_jump\n");
extern "C" void npx_emu_jump(void **save, void *to);

/* Whether this thread runs with a shadow stack (CET): rdsspq leaves 0 in
 * its register where there is none, and is a no-op on CPUs without CET. */
NPX_EMU_FN bool npx_emu_jump_usable(void)
{
    unsigned long long ssp = 0;
    asm volatile("rdsspq %0" : "+r"(ssp));
    return ssp == 0;
}

/* A stack that npx_emu_jump resumes into entry, as if called: the words it
 * pops (control words as this thread has them, six zero registers, entry),
 * then a null return address, entry's frame 16-byte aligned. */
NPX_EMU_FN void *npx_emu_jump_stack(char *stack, size_t size, void (*entry)(void))
{
    uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
    uint64_t *w = (uint64_t *)(top - 9 * sizeof(uint64_t));
    uint32_t mxcsr;
    uint16_t fpcw;
    asm volatile("stmxcsr %0\n    fnstcw %1" : "=m"(mxcsr), "=m"(fpcw));
    w[0] = mxcsr | (uint64_t)fpcw << 32;
    for (int i = 1; i <= 6; i++)
        w[i] = 0;
    w[7] = (uint64_t)(uintptr_t)entry;
    w[8] = 0;
    return w;
}
#else
NPX_EMU_FN bool npx_emu_jump_usable(void) { return false; }
NPX_EMU_FN void npx_emu_jump(void **, void *) { npx_emu_fatal("no fast fiber switch on this machine"); }
NPX_EMU_FN void *npx_emu_jump_stack(char *, size_t, void (*)(void)) { return nullptr; }
#endif

/* A note on stderr explaining an error code about to be returned. */
NPX_EMU_FN void npx_emu_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
NPX_EMU_FN void npx_emu_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    fprintf(stderr, "%s: CUDA emulation: ", npx_emu_prog());
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

NPX_EMU_FN long npx_emu_env_long(const char *name, long def, long lo, long hi)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return def;
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (*end || errno || n < lo || n > hi) {
        fprintf(stderr, "%s: error: %s must be an integer from %ld to %ld, not '%s'\n", npx_emu_prog(), name, lo,
                hi, v);
        exit(2);
    }
    return n;
}

NPX_EMU_FN npx_emu_state &npx_emu(void)
{
    if (npx_emu_g)
        return *npx_emu_g;
    npx_emu_state *s = new npx_emu_state();
    const char *order = getenv("NPX_EMU_ORDER");
    if (!order || !*order || !strcmp(order, "forward")) {
        s->order = NPX_EMU_FORWARD;
    } else if (!strcmp(order, "reverse")) {
        s->order = NPX_EMU_REVERSE;
    } else if (!strcmp(order, "shuffle")) {
        s->order = NPX_EMU_SHUFFLE;
    } else {
        fprintf(stderr, "%s: error: NPX_EMU_ORDER must be forward, reverse or shuffle, not '%s'\n",
                npx_emu_prog(), order);
        exit(2);
    }
    s->rng = (uint64_t)npx_emu_env_long("NPX_EMU_SEED", 20240601, 0, 0x7fffffffL) * 0x9E3779B97F4A7C15ull + 1;
    s->sms = (int)npx_emu_env_long("NPX_EMU_SMS", 132, 1, 100000);
#ifdef NPX_EMU_ASAN
    long kb = npx_emu_env_long("NPX_EMU_STACK_KB", 256, 16, 1L << 20);
#else
    long kb = npx_emu_env_long("NPX_EMU_STACK_KB", 64, 16, 1L << 20);
#endif
    s->stack_size = (size_t)kb * 1024;
    s->fast_switch = !npx_emu_env_long("NPX_EMU_UCONTEXT", 0, 0, 1) && npx_emu_jump_usable();
    s->cur_fiber = -1;
    s->cur_thread = -1;
    npx_emu_g = s;
    return *s;
}

NPX_EMU_FN cudaError_t npx_emu_ret(cudaError_t e)
{
    if (e != cudaSuccess)
        npx_emu().last_error = e;
    return e;
}

NPX_EMU_FN double npx_emu_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

NPX_EMU_FN size_t npx_emu_total_mem(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (size_t)pages * (size_t)page : (size_t)1 << 34;
}

/* xorshift64*: the shuffle order. */
NPX_EMU_FN uint64_t npx_emu_rand(npx_emu_state &s)
{
    s.rng ^= s.rng >> 12;
    s.rng ^= s.rng << 25;
    s.rng ^= s.rng >> 27;
    return s.rng * 0x2545F4914F6CDD1Dull;
}

/* ---- Device memory ----------------------------------------------------------- */

/* Whether [p, p + bytes) lies in one allocation (p may be one past the end
 * when bytes is 0). */
NPX_EMU_FN bool npx_emu_is_device(const void *p, size_t bytes)
{
    npx_emu_state &s = npx_emu();
    uintptr_t a = (uintptr_t)p;
    auto it = s.allocs.upper_bound(a);
    if (it == s.allocs.begin())
        return false;
    --it;
    return a - it->first <= it->second && bytes <= it->second - (a - it->first);
}

/* Whether p is inside some allocation at all. */
NPX_EMU_FN bool npx_emu_touches_device(const void *p)
{
    return npx_emu_is_device(p, 0);
}

NPX_EMU_FN cudaError_t npx_emu_capture_rules(const char *fn, cudaStream_t stream, bool waits);

NPX_EMU_FN cudaError_t npx_emu_malloc(void **p, size_t size)
{
    npx_emu_state &s = npx_emu();
    if (!p)
        return npx_emu_ret(cudaErrorInvalidValue);
    *p = nullptr;
    if (size == 0)
        return cudaSuccess;
    if (size > npx_emu_total_mem() - (s.allocated < npx_emu_total_mem() ? s.allocated : npx_emu_total_mem()))
        return npx_emu_ret(cudaErrorMemoryAllocation);
    void *m = malloc(size);
    if (!m)
        return npx_emu_ret(cudaErrorMemoryAllocation);
    memset(m, 0xff, size);         /* device memory starts as garbage */
    s.allocs[(uintptr_t)m] = size;
    s.allocated += size;
    *p = m;
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaMalloc(void **p, size_t size)
{
    cudaError_t e = npx_emu_capture_rules("cudaMalloc", 0, true);
    return e != cudaSuccess ? e : npx_emu_malloc(p, size);
}
/* As cuda_runtime.h has it: cudaMalloc(&float_pointer, bytes). */
template <class T> static inline cudaError_t cudaMalloc(T **p, size_t size)
{
    return cudaMalloc(reinterpret_cast<void **>(p), size);
}

NPX_EMU_FN cudaError_t npx_emu_free(void *p)
{
    npx_emu_state &s = npx_emu();
    if (!p)
        return cudaSuccess;
    auto it = s.allocs.find((uintptr_t)p);
    if (it == s.allocs.end()) {
        npx_emu_note("cudaFree(%p): not an address cudaMalloc returned", p);
        return npx_emu_ret(cudaErrorInvalidValue);
    }
    s.allocated -= it->second;
    s.allocs.erase(it);
    if (!s.graph_kept.count(p))    /* else the graph keeps the address */
        free(p);
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaFree(void *p)
{
    cudaError_t e = npx_emu_capture_rules("cudaFree", 0, true);
    return e != cudaSuccess ? e : npx_emu_free(p);
}

/* What a graph allocated: blocks it also frees (allocated for as long as
 * the graph exists), and blocks it leaves allocated (made again at each
 * launch if freed since). When the last graph or instance holding them goes,
 * the first are freed, the second belong to the program if still allocated. */
struct npx_emu_graph_memory {
    std::vector<void *> freed;
    std::map<void *, size_t> kept;
    int instances;                 /* a graph with memory has one at a time */
    ~npx_emu_graph_memory()
    {
        npx_emu_state &s = *npx_emu_g;
        for (void *p : freed)
            npx_emu_free(p);
        for (auto &k : kept) {
            s.graph_kept.erase(k.first);
            if (!s.allocs.count((uintptr_t)k.first))
                free(k.first);
        }
    }
};

/* At a launch: each block the graph leaves allocated is allocated again if
 * it was freed; false when one still is and the launch may not free it. */
NPX_EMU_FN bool npx_emu_graph_realloc(npx_emu_graph_memory &m, bool launched, bool auto_free)
{
    npx_emu_state &s = npx_emu();
    for (auto &k : m.kept)
        if (s.allocs.count((uintptr_t)k.first) && launched && !auto_free)
            return false;
    for (auto &k : m.kept)
        if (!s.allocs.count((uintptr_t)k.first)) {
            s.allocs[(uintptr_t)k.first] = k.second;
            s.allocated += k.second;
        }
    return true;
}

NPX_EMU_FN cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    npx_emu_state &s = npx_emu();
    size_t t = npx_emu_total_mem();
    if (!free_bytes || !total)
        return npx_emu_ret(cudaErrorInvalidValue);
    *total = t;
    *free_bytes = s.allocated < t ? t - s.allocated : 0;
    return cudaSuccess;
}

NPX_EMU_FN bool npx_emu_stream_ok(cudaStream_t st)
{
    return !st || npx_emu().handles.count(st);
}

/* ---- Stream capture -------------------------------------------------------------
 * Work on the stream being captured is recorded, not run. The rules of
 * cudaStreamCaptureModeGlobal hold for every call: nothing may wait for the
 * device, and nothing may go to the legacy stream (it would wait for the
 * capturing stream). A call that breaks them fails, names itself, and
 * invalidates the capture (cudaStreamEndCapture then fails too). */
NPX_EMU_FN bool npx_emu_recording(cudaStream_t stream)
{
    npx_emu_state &s = npx_emu();
    return s.capture && stream && stream == s.capturing;
}

NPX_EMU_FN cudaError_t npx_emu_capture_rules(const char *fn, cudaStream_t stream, bool waits)
{
    npx_emu_state &s = npx_emu();
    if (!s.capture || (!waits && stream))
        return cudaSuccess;
    s.capture_broken = true;
    npx_emu_note("%s %s while a stream is being captured", fn,
                 waits ? "waits for the device" : "uses the legacy stream");
    return npx_emu_ret(waits ? cudaErrorStreamCaptureUnsupported : cudaErrorStreamCaptureImplicit);
}

/* Checks a call's stream: it exists, and the capture's rules allow it. */
NPX_EMU_FN cudaError_t npx_emu_stream_use(const char *fn, cudaStream_t stream)
{
    if (!npx_emu_stream_ok(stream))
        return npx_emu_ret(cudaErrorInvalidResourceHandle);
    return npx_emu_capture_rules(fn, stream, false);
}

NPX_EMU_FN void npx_emu_record(std::function<void()> work)
{
    npx_emu().capture->work.push_back(std::move(work));
}

/* Work on a stream, its checks already made: done now, or, when that stream
 * is being captured, recorded for each launch of the graph. */
template <class F> static inline cudaError_t npx_emu_now_or_recorded(cudaStream_t stream, F work)
{
    if (!npx_emu_recording(stream))
        return work();
    npx_emu_record([=] { work(); });
    return cudaSuccess;
}

/* Stream-ordered allocation: with everything in order, cudaMalloc and
 * cudaFree on a stream that exists. */
/* In a capture, memory is allocated at once (a graph's allocations have
 * fixed addresses) and, when the capture frees it too, kept with the graph. */
NPX_EMU_FN cudaError_t cudaMallocAsync(void **p, size_t size, cudaStream_t stream)
{
    cudaError_t e = npx_emu_stream_use("cudaMallocAsync", stream);
    if (e == cudaSuccess)
        e = npx_emu_malloc(p, size);
    if (e == cudaSuccess && *p && npx_emu_recording(stream))
        npx_emu().capture_allocs[*p] = size;
    return e;
}
template <class T> static inline cudaError_t cudaMallocAsync(T **p, size_t size, cudaStream_t stream)
{
    return cudaMallocAsync(reinterpret_cast<void **>(p), size, stream);
}

NPX_EMU_FN cudaError_t cudaFreeAsync(void *p, cudaStream_t stream)
{
    npx_emu_state &s = npx_emu();
    cudaError_t e = npx_emu_stream_use("cudaFreeAsync", stream);
    if (e != cudaSuccess || !npx_emu_recording(stream))
        return e == cudaSuccess ? npx_emu_free(p) : e;
    if (s.capture_allocs.erase(p))
        s.capture->memory->freed.push_back(p);
    else if (p)
        npx_emu_record([p] { npx_emu_free(p); });
    return cudaSuccess;
}

/* The device's default memory pool: one handle; of its attributes only the
 * release threshold, which the emulation keeps and ignores. */
NPX_EMU_FN cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device)
{
    if (!pool || device != 0)
        return npx_emu_ret(device != 0 ? cudaErrorInvalidDevice : cudaErrorInvalidValue);
    *pool = &npx_emu().default_pool;
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value)
{
    if (pool != &npx_emu().default_pool || attr != cudaMemPoolAttrReleaseThreshold || !value)
        return npx_emu_ret(cudaErrorInvalidValue);
    pool->release_threshold = *(uint64_t *)value;
    return cudaSuccess;
}

/* Checks one side of a copy: device memory (is_dev) or host memory. */
NPX_EMU_FN bool npx_emu_copy_side(const char *fn, const char *side, const void *p, size_t n, bool is_dev)
{
    if (is_dev ? npx_emu_is_device(p, n) : !npx_emu_touches_device(p))
        return true;
    if (is_dev)
        npx_emu_note("%s: %s %p + %zu bytes is not inside one cudaMalloc allocation", fn, side, p, n);
    else
        npx_emu_note("%s: %s %p is device memory, but the copy's kind says host", fn, side, p);
    return false;
}

NPX_EMU_FN cudaError_t npx_emu_copy(const char *fn, void *dst, const void *src, size_t n, cudaMemcpyKind kind)
{
    if (n == 0)
        return cudaSuccess;
    if (!dst || !src)
        return npx_emu_ret(cudaErrorInvalidValue);
    bool ok;
    switch (kind) {
    case cudaMemcpyHostToHost:
        ok = npx_emu_copy_side(fn, "destination", dst, n, false) && npx_emu_copy_side(fn, "source", src, n, false);
        break;
    case cudaMemcpyHostToDevice:
        ok = npx_emu_copy_side(fn, "destination", dst, n, true) && npx_emu_copy_side(fn, "source", src, n, false);
        break;
    case cudaMemcpyDeviceToHost:
        ok = npx_emu_copy_side(fn, "destination", dst, n, false) && npx_emu_copy_side(fn, "source", src, n, true);
        break;
    case cudaMemcpyDeviceToDevice:
        ok = npx_emu_copy_side(fn, "destination", dst, n, true) && npx_emu_copy_side(fn, "source", src, n, true);
        break;
    case cudaMemcpyDefault:
        ok = (!npx_emu_touches_device(dst) || npx_emu_copy_side(fn, "destination", dst, n, true)) &&
             (!npx_emu_touches_device(src) || npx_emu_copy_side(fn, "source", src, n, true));
        break;
    default:
        return npx_emu_ret(cudaErrorInvalidMemcpyDirection);
    }
    if (!ok)
        return npx_emu_ret(cudaErrorInvalidValue);
    memcpy(dst, src, n);
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind)
{
    cudaError_t e = npx_emu_capture_rules("cudaMemcpy", 0, true);
    return e != cudaSuccess ? e : npx_emu_copy("cudaMemcpy", dst, src, n, kind);
}

NPX_EMU_FN cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind kind,
                                       cudaStream_t stream = 0)
{
    cudaError_t e = npx_emu_stream_use("cudaMemcpyAsync", stream);
    if (e != cudaSuccess)
        return e;
    return npx_emu_now_or_recorded(stream, [=] { return npx_emu_copy("cudaMemcpyAsync", dst, src, n, kind); });
}

NPX_EMU_FN cudaError_t npx_emu_memset(const char *fn, void *p, int value, size_t n)
{
    if (n == 0)
        return cudaSuccess;
    if (!npx_emu_copy_side(fn, "destination", p, n, true))
        return npx_emu_ret(cudaErrorInvalidValue);
    memset(p, value, n);
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaMemset(void *p, int value, size_t n)
{
    cudaError_t e = npx_emu_capture_rules("cudaMemset", 0, true);
    return e != cudaSuccess ? e : npx_emu_memset("cudaMemset", p, value, n);
}

NPX_EMU_FN cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t stream = 0)
{
    cudaError_t e = npx_emu_stream_use("cudaMemsetAsync", stream);
    if (e != cudaSuccess)
        return e;
    if (npx_emu_recording(stream) && n && !npx_emu_copy_side("cudaMemsetAsync", "destination", p, n, true))
        return npx_emu_ret(cudaErrorInvalidValue);   /* checked at the capture, as on a GPU */
    return npx_emu_now_or_recorded(stream, [=] { return npx_emu_memset("cudaMemsetAsync", p, value, n); });
}

/* ---- Device, errors, streams, events ------------------------------------------- */

NPX_EMU_FN const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
#define X(name, value, text)                                                   \
    case name:                                                                 \
        return text;
        NPX_EMU_ERRORS(X)
#undef X
    }
    return "unrecognized error code";
}

NPX_EMU_FN const char *cudaGetErrorName(cudaError_t e)
{
    switch (e) {
#define X(name, value, text)                                                   \
    case name:                                                                 \
        return #name;
        NPX_EMU_ERRORS(X)
#undef X
    }
    return "unrecognized error code";
}

NPX_EMU_FN cudaError_t cudaGetLastError(void)
{
    npx_emu_state &s = npx_emu();
    cudaError_t e = s.last_error;
    s.last_error = cudaSuccess;
    return e;
}

NPX_EMU_FN cudaError_t cudaPeekAtLastError(void)
{
    return npx_emu().last_error;
}

NPX_EMU_FN cudaError_t cudaDeviceSynchronize(void)
{
    return npx_emu_capture_rules("cudaDeviceSynchronize", 0, true);
}

NPX_EMU_FN cudaError_t cudaGetDeviceCount(int *n)
{
    if (!n)
        return npx_emu_ret(cudaErrorInvalidValue);
    *n = 1;
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaSetDevice(int d)
{
    return d == 0 ? cudaSuccess : npx_emu_ret(cudaErrorInvalidDevice);
}

NPX_EMU_FN cudaError_t cudaGetDevice(int *d)
{
    if (!d)
        return npx_emu_ret(cudaErrorInvalidValue);
    *d = 0;
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int device)
{
    npx_emu_state &s = npx_emu();
    if (!p)
        return npx_emu_ret(cudaErrorInvalidValue);
    if (device != 0)
        return npx_emu_ret(cudaErrorInvalidDevice);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "npx host emulation of an NVIDIA H200");
    p->totalGlobalMem = npx_emu_total_mem();
    p->sharedMemPerBlock = NPX_EMU_SHARED_BYTES;
    p->regsPerBlock = 65536;
    p->warpSize = 32;
    p->maxThreadsPerBlock = NPX_EMU_MAX_THREADS;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 0x7fffffff;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->totalConstMem = 65536;
    p->major = 9;
    p->minor = 0;
    p->multiProcessorCount = s.sms;
    p->l2CacheSize = 60 << 20;
    p->maxThreadsPerMultiProcessor = 2048;
    p->sharedMemPerMultiprocessor = 228 << 10;
    p->sharedMemPerBlockOptin = 227 << 10;
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    npx_emu_state &s = npx_emu();
    if (!value)
        return npx_emu_ret(cudaErrorInvalidValue);
    if (device != 0)
        return npx_emu_ret(cudaErrorInvalidDevice);
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = NPX_EMU_MAX_THREADS; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = NPX_EMU_SHARED_BYTES; break;
    case cudaDevAttrWarpSize: *value = 32; break;
    case cudaDevAttrMultiProcessorCount: *value = s.sms; break;
    case cudaDevAttrComputeCapabilityMajor: *value = 9; break;
    case cudaDevAttrComputeCapabilityMinor: *value = 0; break;
    default: return npx_emu_ret(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaStreamCreate(cudaStream_t *st)
{
    if (!st)
        return npx_emu_ret(cudaErrorInvalidValue);
    *st = new CUstream_st();
    npx_emu().handles.insert(*st);
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaStreamDestroy(cudaStream_t st)
{
    npx_emu_state &s = npx_emu();
    if (!st || !s.handles.erase(st))
        return npx_emu_ret(cudaErrorInvalidResourceHandle);
    delete st;
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaStreamSynchronize(cudaStream_t st)
{
    if (!npx_emu_stream_ok(st))
        return npx_emu_ret(cudaErrorInvalidResourceHandle);
    return npx_emu_capture_rules("cudaStreamSynchronize", st, true);
}

NPX_EMU_FN cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    if (!e)
        return npx_emu_ret(cudaErrorInvalidValue);
    *e = new CUevent_st();
    npx_emu().handles.insert(*e);
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags)
{
    if (flags & ~0x0fu)
        return npx_emu_ret(cudaErrorInvalidValue);
    return cudaEventCreate(e);
}

NPX_EMU_FN cudaError_t cudaEventCreate(cudaEvent_t *e, unsigned int flags)
{
    return cudaEventCreateWithFlags(e, flags);
}

NPX_EMU_FN bool npx_emu_event_ok(cudaEvent_t e)
{
    return e && npx_emu().handles.count(e);
}

NPX_EMU_FN cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t stream = 0)
{
    if (!npx_emu_event_ok(e))
        return npx_emu_ret(cudaErrorInvalidResourceHandle);
    cudaError_t err = npx_emu_stream_use("cudaEventRecord", stream);
    if (err != cudaSuccess)
        return err;
    e->recorded = true;
    return npx_emu_now_or_recorded(stream, [e] {
        e->ms = npx_emu_now_ms();
        return cudaSuccess;
    });
}

NPX_EMU_FN cudaError_t cudaEventQuery(cudaEvent_t e)
{
    return npx_emu_event_ok(e) ? cudaSuccess : npx_emu_ret(cudaErrorInvalidResourceHandle);
}

NPX_EMU_FN cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    cudaError_t err = cudaEventQuery(e);
    return err != cudaSuccess ? err : npx_emu_capture_rules("cudaEventSynchronize", 0, true);
}

NPX_EMU_FN cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (!ms)
        return npx_emu_ret(cudaErrorInvalidValue);
    if (!npx_emu_event_ok(start) || !npx_emu_event_ok(end) || !start->recorded || !end->recorded)
        return npx_emu_ret(cudaErrorInvalidResourceHandle);
    *ms = (float)(end->ms - start->ms);
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    npx_emu_state &s = npx_emu();
    if (!e || !s.handles.erase(e))
        return npx_emu_ret(cudaErrorInvalidResourceHandle);
    delete e;
    return cudaSuccess;
}

/* ---- Graphs ------------------------------------------------------------------------ */

NPX_EMU_FN cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode)
{
    npx_emu_state &s = npx_emu();
    if (!npx_emu_stream_ok(stream))
        return npx_emu_ret(cudaErrorInvalidResourceHandle);
    if (!stream || (int)mode < 0 || (int)mode > cudaStreamCaptureModeRelaxed)
        return npx_emu_ret(cudaErrorInvalidValue);      /* the legacy stream cannot be captured */
    if (s.capture)
        return npx_emu_ret(cudaErrorIllegalState);      /* one capture at a time (emulated) */
    s.capture = new CUgraph_st();
    s.capture->memory = std::make_shared<npx_emu_graph_memory>();
    s.capturing = stream;
    s.capture_broken = false;
    s.capture_allocs.clear();
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph)
{
    npx_emu_state &s = npx_emu();
    if (!graph)
        return npx_emu_ret(cudaErrorInvalidValue);
    *graph = nullptr;
    if (!s.capture || stream != s.capturing)
        return npx_emu_ret(s.capture ? cudaErrorStreamCaptureUnmatched : cudaErrorIllegalState);
    CUgraph_st *g = s.capture;
    g->memory->kept = s.capture_allocs;
    s.graph_kept.insert(s.capture_allocs.begin(), s.capture_allocs.end());
    s.capture = nullptr;
    s.capturing = nullptr;
    s.capture_allocs.clear();
    if (s.capture_broken) {
        delete g;
        return npx_emu_ret(cudaErrorStreamCaptureInvalidated);
    }
    s.handles.insert(g);
    *graph = g;
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags = 0)
{
    npx_emu_state &s = npx_emu();
    if (!exec || !graph || !s.handles.count(graph) || (flags & ~(unsigned long long)cudaGraphInstantiateFlagAutoFreeOnLaunch))
        return npx_emu_ret(cudaErrorInvalidValue);
    npx_emu_graph_memory &m = *graph->memory;
    if (m.instances && (!m.freed.empty() || !m.kept.empty())) {
        npx_emu_note("cudaGraphInstantiate: a graph that allocates memory has one instance at a time");
        return npx_emu_ret(cudaErrorInvalidValue);
    }
    m.instances++;
    *exec = new CUgraphExec_st{ *graph, (flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) != 0, false };
    s.handles.insert(*exec);
    return cudaSuccess;
}

/* Runs the recorded work in order. A graph that leaves memory it allocated
 * allocated can be launched again only if instantiated with
 * cudaGraphInstantiateFlagAutoFreeOnLaunch (its memory is then the same
 * each launch), as on a GPU. */
NPX_EMU_FN cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream)
{
    npx_emu_state &s = npx_emu();
    if (!exec || !s.handles.count(exec))
        return npx_emu_ret(cudaErrorInvalidResourceHandle);
    cudaError_t e = npx_emu_stream_use("cudaGraphLaunch", stream);
    if (e != cudaSuccess)
        return e;
    if (!npx_emu_graph_realloc(*exec->graph.memory, exec->launched, exec->auto_free)) {
        npx_emu_note("cudaGraphLaunch: the graph's memory from its last launch is still allocated "
                     "(instantiate it with cudaGraphInstantiateFlagAutoFreeOnLaunch)");
        return npx_emu_ret(cudaErrorInvalidValue);
    }
    exec->launched = true;
    cudaError_t before = s.last_error;
    s.last_error = cudaSuccess;
    for (auto &work : exec->graph.work)
        work();
    e = s.last_error;
    s.last_error = e != cudaSuccess ? e : before;
    return e;
}

NPX_EMU_FN cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec)
{
    if (!exec || !npx_emu().handles.erase(exec))
        return npx_emu_ret(cudaErrorInvalidResourceHandle);
    exec->graph.memory->instances--;
    delete exec;
    return cudaSuccess;
}

NPX_EMU_FN cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    if (!graph || !npx_emu().handles.erase(graph))
        return npx_emu_ret(cudaErrorInvalidResourceHandle);
    delete graph;
    return cudaSuccess;
}

/* ---- Fibers ---------------------------------------------------------------------
 * Every context that gives up the CPU calls npx_emu_dispatch, which picks
 * the next thread in this pass's order and switches straight to its fiber.
 * A thread that ends leaves its fiber free; a free fiber that runs
 * dispatch starts the next unstarted thread itself, so a kernel without
 * barriers runs all its threads on one fiber without a single switch. */

NPX_EMU_FN void npx_emu_fiber_entry(void);

/* Switches contexts with npx_emu_jump where it works, else swapcontext;
 * under AddressSanitizer libc's own swapcontext: ASan's wrapper prints a
 * warning on stderr and clears the shadow of the whole target stack at each
 * switch, neither of which is needed when every switch is announced with
 * __sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber. */
NPX_EMU_FN void npx_emu_swapcontext(npx_emu_context *from, const npx_emu_context *to)
{
    if (npx_emu_g->fast_switch) {
        npx_emu_jump(&from->sp, to->sp);
        return;
    }
    typedef int swap_fn(ucontext_t *, const ucontext_t *);
#ifdef NPX_EMU_ASAN
    static swap_fn *real;
    if (!real) {
        void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
        real = libc ? (swap_fn *)dlsym(libc, "swapcontext") : nullptr;
        if (!real)
            real = swapcontext;
    }
#else
    swap_fn *real = swapcontext;
#endif
    if (real(&from->uc, &to->uc) != 0)
        npx_emu_fatal("swapcontext failed");
}

/* Switches from the current context to fiber `to` (-1: main). Returns when
 * something switches back. */
NPX_EMU_FN void npx_emu_switch(int to)
{
    npx_emu_state &s = *npx_emu_g;
    int from = s.cur_fiber;
    npx_emu_context *from_ctx = from < 0 ? &s.main_ctx : &s.fibers[from]->ctx;
    void **from_fake = from < 0 ? &s.main_fake : &s.fibers[from]->fake_stack;
    npx_emu_context *to_ctx = to < 0 ? &s.main_ctx : &s.fibers[to]->ctx;
    s.from_main = from < 0;
    s.cur_fiber = to;
#ifdef NPX_EMU_ASAN
    if (to < 0)
        __sanitizer_start_switch_fiber(from_fake, s.main_bottom, s.main_size);
    else
        __sanitizer_start_switch_fiber(from_fake, s.fibers[to]->stack, s.fibers[to]->size);
#endif
    npx_emu_swapcontext(from_ctx, to_ctx);
#ifdef NPX_EMU_ASAN
    const void *bottom;
    size_t size;
    __sanitizer_finish_switch_fiber(*from_fake, &bottom, &size);
    if (npx_emu_g->from_main) {
        npx_emu_g->main_bottom = bottom;
        npx_emu_g->main_size = size;
    }
#else
    (void)from_fake;
#endif
}

NPX_EMU_FN int npx_emu_new_fiber(void)
{
    npx_emu_state &s = *npx_emu_g;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *mem = (char *)mmap(nullptr, s.stack_size + page, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED)
        npx_emu_fatal("cannot map a %zu KiB fiber stack", s.stack_size / 1024);
    mprotect(mem, page, PROT_NONE);   /* guard page: an overflow faults */
    npx_emu_fiber *f = new npx_emu_fiber();
    f->stack = mem + page;
    f->size = s.stack_size;
    f->thread = -1;
    if (s.fast_switch) {
        f->ctx.sp = npx_emu_jump_stack(f->stack, f->size, npx_emu_fiber_entry);
    } else {
        if (getcontext(&f->ctx.uc) != 0)
            npx_emu_fatal("getcontext failed");
        f->ctx.uc.uc_stack.ss_sp = f->stack;
        f->ctx.uc.uc_stack.ss_size = f->size;
        f->ctx.uc.uc_link = nullptr;
        makecontext(&f->ctx.uc, npx_emu_fiber_entry, 0);
    }
    s.fibers.push_back(f);
    return (int)s.fibers.size() - 1;
}

/* A new order for the next pass over the block's threads. */
NPX_EMU_FN void npx_emu_new_pass(npx_emu_state &s)
{
    s.pos = 0;
    if (s.order != NPX_EMU_SHUFFLE)
        return;
    for (unsigned i = s.nthreads; i > 1; i--) {
        unsigned j = (unsigned)(npx_emu_rand(s) % i), t = s.torder[i - 1];
        s.torder[i - 1] = s.torder[j];
        s.torder[j] = t;
    }
}

NPX_EMU_FN void npx_emu_deadlock(npx_emu_state &s)
{
    unsigned at_sync = 0, at_warp = 0;
    for (unsigned t = 0; t < s.nthreads; t++) {
        at_sync += s.tstate[t] == NPX_EMU_AT_SYNC;
        at_warp += s.tstate[t] == NPX_EMU_AT_WARP;
    }
    npx_emu_fatal("kernel %s, block (%u, %u, %u): deadlock: %u threads wait at __syncthreads() and %u at a "
                  "warp function (shuffle, vote, __syncwarp) that lanes of their warp never reach",
                  s.kernel, npx_emu_block_idx.x, npx_emu_block_idx.y, npx_emu_block_idx.z, at_sync, at_warp);
}

/* The next thread to run in this pass (starting passes as needed), or -1
 * when the block is done. */
NPX_EMU_FN int npx_emu_pick(npx_emu_state &s)
{
    for (;;) {
        while (s.pos < s.nthreads) {
            unsigned t = s.torder[s.pos++];
            if (s.tstate[t] == NPX_EMU_UNSTARTED || s.tstate[t] == NPX_EMU_READY)
                return (int)t;
        }
        if (s.done == s.nthreads)
            return -1;
        if (s.ready == 0)
            npx_emu_deadlock(s);
        npx_emu_new_pass(s);
    }
}

/* Thread t gets the CPU: its builtins. */
NPX_EMU_FN void npx_emu_begin(npx_emu_state &s, int t)
{
    s.tstate[t] = NPX_EMU_RUNNING;
    s.ready--;
    s.cur_thread = t;
    unsigned u = (unsigned)t, bx = s.block.x, by = s.block.y;
    npx_emu_thread_idx.x = u % bx;
    npx_emu_thread_idx.y = (u / bx) % by;
    npx_emu_thread_idx.z = u / (bx * by);
}

/* The current context gives up the CPU. Returns when it is picked again:
 * main when the block is done; a waiting thread's fiber when the thread is
 * released and picked; a free fiber when it is given a thread to start
 * (fibers[cur_fiber]->thread). */
NPX_EMU_FN void npx_emu_dispatch(void)
{
    npx_emu_state &s = *npx_emu_g;
    int self = s.cur_fiber;
    bool self_free = self >= 0 && s.fibers[self]->thread < 0;
    int t = npx_emu_pick(s);
    int to;
    if (t < 0) {
        to = -1;
    } else if (s.tstate[t] == NPX_EMU_READY) {
        to = s.tfiber[t];
    } else if (self_free) {
        s.fibers[self]->thread = t;      /* start it right here */
        s.tfiber[t] = self;
        npx_emu_begin(s, t);
        return;
    } else {
        if (s.free_fibers.empty()) {
            to = npx_emu_new_fiber();
        } else {
            to = s.free_fibers.back();
            s.free_fibers.pop_back();
        }
        s.fibers[to]->thread = t;
        s.tfiber[t] = to;
    }
    if (t >= 0)
        npx_emu_begin(s, t);
    if (to == self)
        return;
    if (self_free)
        s.free_fibers.push_back(self);
    npx_emu_switch(to);
}

NPX_EMU_FN void npx_emu_release_block(npx_emu_state &s)
{
    for (unsigned t = 0; t < s.nthreads; t++)
        if (s.tstate[t] == NPX_EMU_AT_SYNC)
            s.tstate[t] = NPX_EMU_READY;
    s.ready += s.arrived;
    s.arrived = 0;
    s.sync_result = s.sync_acc;
    s.sync_n = (int)s.live;
    s.sync_acc = 0;
}

NPX_EMU_FN void npx_emu_release_warp(npx_emu_state &s, unsigned w)
{
    npx_emu_warp &wp = s.warps[w];
    unsigned end = (w + 1) * 32 < s.nthreads ? (w + 1) * 32 : s.nthreads;
    for (unsigned t = w * 32; t < end; t++)
        if (s.tstate[t] == NPX_EMU_AT_WARP)
            s.tstate[t] = NPX_EMU_READY;
    s.ready += wp.arrived;
    wp.arrived = 0;
    wp.round++;
}

/* Thread t has returned from the kernel. */
NPX_EMU_FN void npx_emu_thread_done(npx_emu_state &s, int t)
{
    npx_emu_warp &wp = s.warps[(unsigned)t / 32];
    s.tstate[t] = NPX_EMU_DONE;
    s.done++;
    s.live--;
    wp.live--;
    s.fibers[s.cur_fiber]->thread = -1;
    s.cur_thread = -1;
    if (s.arrived && s.arrived == s.live)
        npx_emu_release_block(s);
    if (wp.arrived && wp.arrived == wp.live)
        npx_emu_release_warp(s, (unsigned)t / 32);
}

NPX_EMU_FN void npx_emu_fiber_entry(void)
{
#ifdef NPX_EMU_ASAN
    const void *bottom;
    size_t size;
    __sanitizer_finish_switch_fiber(nullptr, &bottom, &size);
    if (npx_emu_g->from_main) {
        npx_emu_g->main_bottom = bottom;
        npx_emu_g->main_size = size;
    }
#endif
    for (;;) {
        npx_emu_state &s = *npx_emu_g;
        s.thunk(s.arg);
        npx_emu_thread_done(s, s.cur_thread);
        npx_emu_dispatch();
    }
}

NPX_EMU_FN npx_emu_state &npx_emu_in_kernel(const char *what)
{
    npx_emu_state &s = npx_emu();
    if (!s.in_kernel || s.cur_thread < 0)
        npx_emu_fatal("%s called outside a kernel", what);
    return s;
}

/* ---- Barriers, shuffles, votes ------------------------------------------------------ */

NPX_EMU_FN void npx_emu_block_sync(int pred)
{
    npx_emu_state &s = npx_emu_in_kernel("__syncthreads()");
    s.tstate[s.cur_thread] = NPX_EMU_AT_SYNC;
    s.sync_acc += pred != 0;
    if (++s.arrived == s.live)
        npx_emu_release_block(s);
    npx_emu_dispatch();
}

NPX_EMU_FN void __syncthreads(void)
{
    npx_emu_block_sync(0);
}
NPX_EMU_FN int __syncthreads_count(int pred)
{
    npx_emu_block_sync(pred);
    return npx_emu_g->sync_result;
}
NPX_EMU_FN int __syncthreads_and(int pred)
{
    npx_emu_block_sync(pred);
    return npx_emu_g->sync_result == npx_emu_g->sync_n;
}
NPX_EMU_FN int __syncthreads_or(int pred)
{
    npx_emu_block_sync(pred);
    return npx_emu_g->sync_result != 0;
}
NPX_EMU_FN void __threadfence(void) {}
NPX_EMU_FN void __threadfence_block(void) {}

NPX_EMU_FN npx_emu_warp &npx_emu_warp_of(npx_emu_state &s, unsigned mask, const char *what)
{
    if (mask != 0xffffffffu)
        npx_emu_fatal("kernel %s: %s with mask 0x%x: only the full mask 0xffffffff is emulated", s.kernel, what,
                      mask);
    return s.warps[(unsigned)s.cur_thread / 32];
}

/* Every live lane of the current thread's warp gets here before any goes on. */
NPX_EMU_FN void npx_emu_warp_sync(npx_emu_state &s)
{
    unsigned w = (unsigned)s.cur_thread / 32;
    s.tstate[s.cur_thread] = NPX_EMU_AT_WARP;
    if (++s.warps[w].arrived == s.warps[w].live)
        npx_emu_release_warp(s, w);
    npx_emu_dispatch();
}

NPX_EMU_FN void __syncwarp(unsigned mask = 0xffffffffu)
{
    npx_emu_state &s = npx_emu_in_kernel("__syncwarp()");
    npx_emu_warp_of(s, mask, "__syncwarp");
    npx_emu_warp_sync(s);
}

/* Deposits bits, waits for the warp; after this, lane l's deposit is
 * wp.slot[l] if npx_emu_deposited(wp, l). Call npx_emu_warp_sync once more
 * when done reading. */
NPX_EMU_FN npx_emu_warp &npx_emu_exchange(npx_emu_state &s, unsigned mask, unsigned long long bits, const char *what)
{
    npx_emu_warp &wp = npx_emu_warp_of(s, mask, what);
    unsigned lane = (unsigned)s.cur_thread % 32;
    wp.slot[lane] = bits;
    wp.dep[lane] = wp.round;
    npx_emu_warp_sync(s);
    return wp;
}
NPX_EMU_FN bool npx_emu_deposited(const npx_emu_warp &wp, int lane)
{
    return lane >= 0 && lane < 32 && wp.dep[lane] + 1 == wp.round;
}

enum { NPX_EMU_SHFL_IDX, NPX_EMU_SHFL_UP, NPX_EMU_SHFL_DOWN, NPX_EMU_SHFL_XOR };

/* The lane a shuffle reads, or -1 for the caller's own value. */
NPX_EMU_FN int npx_emu_shfl_src(int kind, int lane, int arg, int width)
{
    if (width < 1 || width > 32 || (width & (width - 1)))
        width = 32;
    int base = lane & ~(width - 1), in = lane - base;
    switch (kind) {
    case NPX_EMU_SHFL_IDX: return base + (arg & (width - 1));
    case NPX_EMU_SHFL_UP: return (unsigned)in < (unsigned)arg ? -1 : lane - arg;
    case NPX_EMU_SHFL_DOWN: return (unsigned)in + (unsigned)arg >= (unsigned)width ? -1 : lane + arg;
    default: {
        int src = lane ^ arg;
        return src >= base + width || src >= 32 ? -1 : src;
    }
    }
}

template <typename T> static inline T npx_emu_shfl(unsigned mask, T v, int kind, int arg, int width, const char *what)
{
    static_assert(sizeof(T) <= sizeof(unsigned long long), "shuffle of a type wider than 8 bytes");
    npx_emu_state &s = npx_emu_in_kernel(what);
    unsigned long long bits = 0;
    memcpy(&bits, &v, sizeof v);
    npx_emu_warp &wp = npx_emu_exchange(s, mask, bits, what);
    int src = npx_emu_shfl_src(kind, s.cur_thread % 32, arg, width);
    T r = v;
    if (npx_emu_deposited(wp, src))
        memcpy(&r, &wp.slot[src], sizeof r);
    npx_emu_warp_sync(s);
    return r;
}

#define NPX_EMU_SHFL(T)                                                        \
    NPX_EMU_FN T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32) \
    {                                                                          \
        return npx_emu_shfl<T>(mask, var, NPX_EMU_SHFL_IDX, srcLane, width, "__shfl_sync"); \
    }                                                                          \
    NPX_EMU_FN T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32) \
    {                                                                          \
        return npx_emu_shfl<T>(mask, var, NPX_EMU_SHFL_UP, (int)(delta > 32 ? 32 : delta), width, \
                               "__shfl_up_sync");                              \
    }                                                                          \
    NPX_EMU_FN T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32) \
    {                                                                          \
        return npx_emu_shfl<T>(mask, var, NPX_EMU_SHFL_DOWN, (int)(delta > 32 ? 32 : delta), width, \
                               "__shfl_down_sync");                            \
    }                                                                          \
    NPX_EMU_FN T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32) \
    {                                                                          \
        return npx_emu_shfl<T>(mask, var, NPX_EMU_SHFL_XOR, laneMask, width, "__shfl_xor_sync"); \
    }
NPX_EMU_SHFL(int)
NPX_EMU_SHFL(unsigned int)
NPX_EMU_SHFL(long)
NPX_EMU_SHFL(unsigned long)
NPX_EMU_SHFL(long long)
NPX_EMU_SHFL(unsigned long long)
NPX_EMU_SHFL(float)
NPX_EMU_SHFL(double)
#undef NPX_EMU_SHFL

NPX_EMU_FN unsigned __ballot_sync(unsigned mask, int pred)
{
    npx_emu_state &s = npx_emu_in_kernel("__ballot_sync");
    npx_emu_warp &wp = npx_emu_exchange(s, mask, pred != 0, "__ballot_sync");
    unsigned r = 0;
    for (int l = 0; l < 32; l++)
        if (npx_emu_deposited(wp, l) && wp.slot[l])
            r |= 1u << l;
    npx_emu_warp_sync(s);
    return r;
}
NPX_EMU_FN int __any_sync(unsigned mask, int pred)
{
    return __ballot_sync(mask, pred) != 0;
}
NPX_EMU_FN int __all_sync(unsigned mask, int pred)
{
    npx_emu_state &s = npx_emu_in_kernel("__all_sync");
    npx_emu_warp &wp = npx_emu_exchange(s, mask, pred != 0, "__all_sync");
    int r = 1;
    for (int l = 0; l < 32; l++)
        if (npx_emu_deposited(wp, l) && !wp.slot[l])
            r = 0;
    npx_emu_warp_sync(s);
    return r;
}

/* ---- Atomics: threads switch only at barriers, so a plain update is atomic. -- */
#define NPX_EMU_ATOMIC(name, T, update)                                        \
    NPX_EMU_FN T name(T *p, T v)                                               \
    {                                                                          \
        T old = *p;                                                            \
        *p = (update);                                                         \
        return old;                                                            \
    }
NPX_EMU_ATOMIC(atomicAdd, int, (int)((unsigned)old + (unsigned)v))
NPX_EMU_ATOMIC(atomicAdd, unsigned int, old + v)
NPX_EMU_ATOMIC(atomicAdd, unsigned long long, old + v)
NPX_EMU_ATOMIC(atomicAdd, float, old + v)
NPX_EMU_ATOMIC(atomicAdd, double, old + v)
NPX_EMU_ATOMIC(atomicMax, int, old > v ? old : v)
NPX_EMU_ATOMIC(atomicMax, unsigned int, old > v ? old : v)
NPX_EMU_ATOMIC(atomicMax, long long, old > v ? old : v)
NPX_EMU_ATOMIC(atomicMax, unsigned long long, old > v ? old : v)
NPX_EMU_ATOMIC(atomicMin, int, old < v ? old : v)
NPX_EMU_ATOMIC(atomicMin, unsigned int, old < v ? old : v)
NPX_EMU_ATOMIC(atomicMin, long long, old < v ? old : v)
NPX_EMU_ATOMIC(atomicMin, unsigned long long, old < v ? old : v)
NPX_EMU_ATOMIC(atomicExch, int, v)
NPX_EMU_ATOMIC(atomicExch, unsigned int, v)
NPX_EMU_ATOMIC(atomicExch, unsigned long long, v)
NPX_EMU_ATOMIC(atomicExch, float, v)
#undef NPX_EMU_ATOMIC
#define NPX_EMU_CAS(T)                                                         \
    NPX_EMU_FN T atomicCAS(T *p, T compare, T v)                               \
    {                                                                          \
        T old = *p;                                                            \
        if (old == compare)                                                    \
            *p = v;                                                            \
        return old;                                                            \
    }
NPX_EMU_CAS(int)
NPX_EMU_CAS(unsigned int)
NPX_EMU_CAS(unsigned long long)
#undef NPX_EMU_CAS

/* ---- Shared memory ------------------------------------------------------------------ */

/* One per NPX_SHARED declaration: its array in the block that ran last. */
struct npx_emu_shared_site {
    unsigned long long serial;     /* npx_emu_state.block_serial */
    void *ptr;
};

#ifdef NPX_EMU_ASAN
enum { NPX_EMU_SHARED_GAP = 32 };  /* poisoned bytes between shared arrays */
#else
enum { NPX_EMU_SHARED_GAP = 0 };
#endif

/* Takes bytes from the block's shared memory, filled with 0xff. */
NPX_EMU_FN void *npx_emu_shared_take(npx_emu_state &s, size_t bytes, size_t align, const char *name)
{
    if (align < 8)
        align = 8;
    size_t off = (s.shared_used + NPX_EMU_SHARED_GAP + align - 1) & ~(align - 1);
    if (off > NPX_EMU_SHARED_BYTES || bytes > NPX_EMU_SHARED_BYTES - off)
        npx_emu_fatal("kernel %s: shared memory %s needs more than the %d bytes a block has", s.kernel, name,
                      NPX_EMU_SHARED_BYTES);
#ifdef NPX_EMU_ASAN
    __asan_unpoison_memory_region(s.shared + off, bytes);
#endif
    memset(s.shared + off, 0xff, bytes);
    s.shared_used = off + bytes;
    return s.shared + off;
}

NPX_EMU_FN void *npx_emu_shared(npx_emu_shared_site *site, size_t bytes, size_t align, const char *name)
{
    npx_emu_state &s = npx_emu_in_kernel("NPX_SHARED");
    if (site->serial != s.block_serial) {
        site->ptr = npx_emu_shared_take(s, bytes, align, name);
        site->serial = s.block_serial;
    }
    return site->ptr;
}

NPX_EMU_FN void *npx_emu_shared_dynamic(void)
{
    npx_emu_in_kernel("NPX_SHARED_DYNAMIC");
    return npx_emu_g->shared;
}

#define NPX_SHARED(type, name, count)                                          \
    static npx_emu_shared_site npx_emu_site_##name;                            \
    type(&name)[count] = *reinterpret_cast<type(*)[count]>(                    \
        npx_emu_shared(&npx_emu_site_##name, sizeof(type[count]), alignof(type), #name))
#define NPX_SHARED2(type, name, rows, cols)                                    \
    static npx_emu_shared_site npx_emu_site_##name;                            \
    type(&name)[rows][cols] = *reinterpret_cast<type(*)[rows][cols]>(          \
        npx_emu_shared(&npx_emu_site_##name, sizeof(type[rows][cols]), alignof(type), #name))
#define NPX_SHARED_DYNAMIC(type, name) type *name = reinterpret_cast<type *>(npx_emu_shared_dynamic())

/* ---- Launch -------------------------------------------------------------------------- */

NPX_EMU_FN void npx_emu_run_block(npx_emu_state &s, size_t shared_bytes)
{
    s.block_serial++;
#ifdef NPX_EMU_ASAN
    __asan_poison_memory_region(s.shared, sizeof s.shared);
#endif
    /* The launch's dynamic shared memory first, at offset 0. */
#ifdef NPX_EMU_ASAN
    __asan_unpoison_memory_region(s.shared, shared_bytes);
#endif
    memset(s.shared, 0xff, shared_bytes);
    s.shared_used = shared_bytes;
    unsigned n = s.nthreads;
    for (unsigned t = 0; t < n; t++) {
        s.tstate[t] = NPX_EMU_UNSTARTED;
        s.tfiber[t] = -1;
        s.torder[t] = s.order == NPX_EMU_REVERSE ? n - 1 - t : t;
    }
    for (unsigned w = 0; w < s.warps.size(); w++) {
        npx_emu_warp &wp = s.warps[w];
        wp.live = n - w * 32 < 32 ? n - w * 32 : 32;
        wp.arrived = 0;
        wp.round = 2;              /* a deposit of round 0 is never current */
        memset(wp.dep, 0, sizeof wp.dep);
    }
    s.live = s.ready = n;
    s.arrived = s.done = 0;
    s.sync_acc = s.sync_result = 0;
    npx_emu_new_pass(s);
    npx_emu_dispatch();            /* back here when every thread is done */
}

/* The block order: forward, reverse, or (shuffle) a permutation. */
NPX_EMU_FN std::vector<uint32_t> npx_emu_block_order(npx_emu_state &s, uint64_t nblocks)
{
    std::vector<uint32_t> order;
    if (s.order == NPX_EMU_FORWARD || nblocks > ((uint64_t)1 << 26))
        return order;
    order.resize((size_t)nblocks);
    for (uint64_t b = 0; b < nblocks; b++)
        order[b] = (uint32_t)(s.order == NPX_EMU_REVERSE ? nblocks - 1 - b : b);
    if (s.order == NPX_EMU_SHUFFLE)
        for (uint64_t i = nblocks; i > 1; i--) {
            uint64_t j = npx_emu_rand(s) % i;
            uint32_t t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
    return order;
}

/* What a launch is refused for, before it runs or is recorded. */
NPX_EMU_FN cudaError_t npx_emu_launch_check(const char *kernel, dim3 grid, dim3 block, size_t shared_bytes,
                                            cudaStream_t stream)
{
    npx_emu_state &s = npx_emu();
    if (s.in_kernel)
        npx_emu_fatal("kernel %s launched from inside kernel %s", kernel, s.kernel);
    uint64_t nthreads = (uint64_t)block.x * block.y * block.z;
    if (!grid.x || !grid.y || !grid.z || grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535 ||
        !nthreads || nthreads > NPX_EMU_MAX_THREADS || block.x > 1024 || block.y > 1024 || block.z > 64)
        return cudaErrorInvalidConfiguration;
    if (shared_bytes > NPX_EMU_SHARED_BYTES)
        return cudaErrorInvalidValue;
    return npx_emu_stream_use(kernel, stream);
}

NPX_EMU_FN void npx_emu_run(const char *kernel, dim3 grid, dim3 block, size_t shared_bytes, void (*thunk)(void *),
                            void *arg)
{
    npx_emu_state &s = npx_emu();
    uint64_t nthreads = (uint64_t)block.x * block.y * block.z;
    s.in_kernel = true;
    s.kernel = kernel;
    s.thunk = thunk;
    s.arg = arg;
    s.grid = grid;
    s.block = block;
    s.nthreads = (unsigned)nthreads;
    s.tstate.resize(s.nthreads);
    s.tfiber.resize(s.nthreads);
    s.torder.resize(s.nthreads);
    s.warps.resize((s.nthreads + 31) / 32);
    npx_emu_grid_dim = grid;
    npx_emu_block_dim = block;
    uint64_t nblocks = (uint64_t)grid.x * grid.y * grid.z;
    std::vector<uint32_t> order = npx_emu_block_order(s, nblocks);
    for (uint64_t i = 0; i < nblocks; i++) {
        uint64_t b = order.empty() ? i : order[i];
        npx_emu_block_idx.x = (unsigned)(b % grid.x);
        npx_emu_block_idx.y = (unsigned)(b / grid.x % grid.y);
        npx_emu_block_idx.z = (unsigned)(b / ((uint64_t)grid.x * grid.y));
        npx_emu_run_block(s, shared_bytes);
    }
    s.in_kernel = false;
}

/* The kernel and a copy of its arguments, for every thread to call. */
template <typename... P> struct npx_emu_call {
    void (*kernel)(P...);
    std::tuple<P...> args;
    static void run(void *p)
    {
        npx_emu_call *c = static_cast<npx_emu_call *>(p);
        std::apply(c->kernel, c->args);
    }
};

/* A pointer argument must point into device memory (or be null). */
template <typename T> static inline bool npx_emu_arg_ok(const char *kernel, int k, const T &v)
{
    if constexpr (std::is_pointer<T>::value && std::is_object<typename std::remove_pointer<T>::type>::value) {
        const void *p = static_cast<const void *>(v);
        if (p && !npx_emu_is_device(p, 0)) {
            npx_emu_note("kernel %s: argument %d (%p) is not device memory: a host pointer passed to a kernel",
                         kernel, k, p);
            return false;
        }
    } else {
        (void)kernel;
        (void)k;
        (void)v;
    }
    return true;
}

template <typename... P> struct npx_emu_launcher {
    void (*kernel)(P...);
    const char *name;
    dim3 grid, block;
    size_t shared_bytes;
    cudaStream_t stream;
    void operator()(P... a) const
    {
        npx_emu_call<P...> call{kernel, std::tuple<P...>(a...)};
        int k = 0;
        bool ok = (true && ... && npx_emu_arg_ok(name, ++k, a));
        (void)k;
        if (!ok) {
            npx_emu_ret(cudaErrorIllegalAddress);
            return;
        }
        cudaError_t e = npx_emu_launch_check(name, grid, block, shared_bytes, stream);
        if (e != cudaSuccess) {
            npx_emu_ret(e);
            return;
        }
        if (npx_emu_recording(stream)) {   /* the launch as it is now, arguments copied */
            const char *n = name;
            dim3 g = grid, b = block;
            size_t sb = shared_bytes;
            npx_emu_record([=]() mutable { npx_emu_run(n, g, b, sb, &npx_emu_call<P...>::run, &call); });
            return;
        }
        npx_emu_run(name, grid, block, shared_bytes, &npx_emu_call<P...>::run, &call);
    }
};

template <typename... P>
static inline npx_emu_launcher<P...> npx_emu_launch(void (*kernel)(P...), const char *name, dim3 grid, dim3 block,
                                                    size_t shared_bytes, cudaStream_t stream)
{
    return npx_emu_launcher<P...>{kernel, name, grid, block, shared_bytes, stream};
}

#define NPX_LAUNCH(kernel, grid, block, shared_bytes, stream, ...)             \
    do {                                                                       \
        npx_emu_launch(kernel, #kernel, grid, block, shared_bytes, stream)(__VA_ARGS__); \
        npx_cuda_check(cudaGetLastError(),                                     \
                       NPX_LAUNCH_TEXT(kernel, grid, block, shared_bytes, stream), \
                       __FILE__, __LINE__);                                    \
    } while (0)

/* ---- cuBLAS ----------------------------------------------------------------------------- */

NPX_EMU_FN const char *cublasGetStatusString(cublasStatus_t st)
{
    switch (st) {
#define X(name, value, text)                                                   \
    case name:                                                                 \
        return text;
        NPX_EMU_CUBLAS_STATUSES(X)
#undef X
    }
    return "unrecognized status";
}

NPX_EMU_FN const char *cublasGetStatusName(cublasStatus_t st)
{
    switch (st) {
#define X(name, value, text)                                                   \
    case name:                                                                 \
        return #name;
        NPX_EMU_CUBLAS_STATUSES(X)
#undef X
    }
    return "unrecognized status";
}

NPX_EMU_FN cublasStatus_t cublasCreate(cublasHandle_t *h)
{
    if (!h)
        return CUBLAS_STATUS_INVALID_VALUE;
    *h = new cublasContext();
    npx_emu().handles.insert(*h);
    return CUBLAS_STATUS_SUCCESS;
}

NPX_EMU_FN bool npx_emu_cublas_ok(cublasHandle_t h)
{
    return h && npx_emu().handles.count(h);
}

NPX_EMU_FN cublasStatus_t cublasDestroy(cublasHandle_t h)
{
    if (!npx_emu_cublas_ok(h))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    npx_emu().handles.erase(h);
    delete h;
    return CUBLAS_STATUS_SUCCESS;
}

NPX_EMU_FN cublasStatus_t cublasSetStream(cublasHandle_t h, cudaStream_t stream)
{
    if (!npx_emu_cublas_ok(h))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!npx_emu_stream_ok(stream))
        return CUBLAS_STATUS_INVALID_VALUE;
    h->stream = stream;
    return CUBLAS_STATUS_SUCCESS;
}

NPX_EMU_FN cublasStatus_t cublasSetMathMode(cublasHandle_t h, cublasMath_t mode)
{
    if (!npx_emu_cublas_ok(h))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if ((int)mode < 0 || (int)mode > CUBLAS_TF32_TENSOR_OP_MATH)
        return CUBLAS_STATUS_INVALID_VALUE;
    h->math = mode;
    return CUBLAS_STATUS_SUCCESS;
}

/* FP32 to TF32 (10-bit mantissa), rounding to nearest, ties away. */
NPX_EMU_FN float npx_emu_tf32(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) != 0x7f800000u)
        u += 0x1000u;
    u &= 0xffffe000u;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* op(X)(i, l), an r x c matrix stored column-major with leading dimension
 * ld, packed row by row into dst (r * c, row i contiguous). */
template <typename T>
static inline void npx_emu_pack(double *dst, const T *x, int ld, bool trans, int r, int c, bool tf32)
{
    for (int i = 0; i < r; i++)
        for (int l = 0; l < c; l++) {
            T v = trans ? x[(size_t)l + (size_t)i * ld] : x[(size_t)i + (size_t)l * ld];
            if constexpr (std::is_same<T, float>::value)
                if (tf32)
                    v = npx_emu_tf32(v);
            dst[(size_t)i * c + l] = (double)v;
        }
}

/* C = alpha op(A) op(B) + beta C, column-major, as cuBLAS checks it; when
 * !compute, only the checks. */
template <typename T>
static inline cublasStatus_t npx_emu_gemm_run(bool tf32, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                              int k, T alpha, const T *A, int lda, const T *B, int ldb, T beta, T *C,
                                              int ldc, bool compute)
{
    if ((int)ta < 0 || (int)ta > 2 || (int)tb < 0 || (int)tb > 2 || m < 0 || n < 0 || k < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    bool at = ta != CUBLAS_OP_N, bt = tb != CUBLAS_OP_N;
    int arows = at ? k : m, acols = at ? m : k, brows = bt ? n : k, bcols = bt ? k : n;
    if (lda < (arows > 1 ? arows : 1) || ldb < (brows > 1 ? brows : 1) || ldc < (m > 1 ? m : 1))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    bool use_ab = k > 0 && alpha != (T)0;
    /* The extents it reads and writes, which must be device memory. */
    size_t asz = ((size_t)(acols > 0 ? acols - 1 : 0) * lda + arows) * sizeof(T);
    size_t bsz = ((size_t)(bcols > 0 ? bcols - 1 : 0) * ldb + brows) * sizeof(T);
    size_t csz = ((size_t)(n - 1) * ldc + m) * sizeof(T);
    if ((use_ab && (!npx_emu_is_device(A, asz) || !npx_emu_is_device(B, bsz))) || !npx_emu_is_device(C, csz)) {
        npx_emu_note("cuBLAS gemm: A, B or C (with its leading dimension) is not inside device memory");
        return CUBLAS_STATUS_EXECUTION_FAILED;
    }
    if (!compute)
        return CUBLAS_STATUS_SUCCESS;
    std::vector<double> pa, pb;
    if (use_ab) {
        pa.resize((size_t)m * k);
        pb.resize((size_t)n * k);
        npx_emu_pack(pa.data(), A, lda, at, m, k, tf32);   /* row i of op(A) */
        npx_emu_pack(pb.data(), B, ldb, !bt, n, k, tf32);  /* column j of op(B) */
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            T acc = 0;              /* in T, one fused multiply-add a step, as cuBLAS's kernels do */
            if (use_ab) {
                const double *x = &pa[(size_t)i * k], *y = &pb[(size_t)j * k];
                for (int l = 0; l < k; l++)
                    acc = std::fma((T)x[l], (T)y[l], acc);
            }
            T *c = &C[(size_t)i + (size_t)j * ldc];
            /* beta == 0: C is not read (it may hold NaN). */
            *c = beta == (T)0 ? alpha * acc : std::fma(alpha, acc, beta * *c);
        }
    return CUBLAS_STATUS_SUCCESS;
}

/* On the handle's stream: computed now, or, in a capture, checked now and
 * recorded with the values of alpha and beta (host scalars are read at the
 * call, as cuBLAS reads them). */
template <typename T>
static inline cublasStatus_t npx_emu_gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                          int k, const T *alpha, const T *A, int lda, const T *B, int ldb,
                                          const T *beta, T *C, int ldc)
{
    if (!npx_emu_cublas_ok(h))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!alpha || !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (npx_emu_capture_rules("cuBLAS gemm", h->stream, false) != cudaSuccess)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    bool tf32 = h->math == CUBLAS_TF32_TENSOR_OP_MATH, later = npx_emu_recording(h->stream);
    T a = *alpha, b = *beta;
    cublasStatus_t st = npx_emu_gemm_run(tf32, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc, !later);
    if (st == CUBLAS_STATUS_SUCCESS && later)
        npx_emu_record([=] { npx_emu_gemm_run(tf32, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc, true); });
    return st;
}

NPX_EMU_FN cublasStatus_t cublasSgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                      int k, const float *alpha, const float *A, int lda, const float *B, int ldb,
                                      const float *beta, float *C, int ldc)
{
    return npx_emu_gemm<float>(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

NPX_EMU_FN cublasStatus_t cublasDgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                      int k, const double *alpha, const double *A, int lda, const double *B, int ldb,
                                      const double *beta, double *C, int ldc)
{
    return npx_emu_gemm<double>(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

/* count products, the matrices of each operand stride elements apart (0: the
 * same matrix for all), as count calls of the gemm. */
template <typename T>
static inline cublasStatus_t npx_emu_gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                                  int m, int n, int k, const T *alpha, const T *A, int lda,
                                                  long long sa, const T *B, int ldb, long long sb, const T *beta,
                                                  T *C, int ldc, long long sc, int count)
{
    if (count < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    for (int i = 0; i < count; i++) {
        cublasStatus_t st = npx_emu_gemm<T>(h, ta, tb, m, n, k, alpha, A + i * sa, lda, B + i * sb, ldb, beta,
                                            C + i * sc, ldc);
        if (st != CUBLAS_STATUS_SUCCESS)
            return st;
    }
    return CUBLAS_STATUS_SUCCESS;
}

NPX_EMU_FN cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                                    int m, int n, int k, const float *alpha, const float *A, int lda,
                                                    long long sa, const float *B, int ldb, long long sb,
                                                    const float *beta, float *C, int ldc, long long sc, int count)
{
    return npx_emu_gemm_batched<float>(h, ta, tb, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc, count);
}

NPX_EMU_FN cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                                    int m, int n, int k, const double *alpha, const double *A,
                                                    int lda, long long sa, const double *B, int ldb, long long sb,
                                                    const double *beta, double *C, int ldc, long long sc, int count)
{
    return npx_emu_gemm_batched<double>(h, ta, tb, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc,
                                        count);
}

#endif /* __CUDACC__ */

/* ============================================================================
 * Checks, the same in both builds.
 * ========================================================================== */
#define NPX_LAUNCH_TEXT(kernel, grid, block, shared_bytes, stream)             \
    #kernel "<<<" #grid ", " #block ", " #shared_bytes ", " #stream ">>>"

/* "PROG: error: API call failed: CALL at FILE:LINE: MESSAGE", exit 4
 * (NPX_EXIT_CUDA). PROG is argv[0]'s last component, as npx_main has it. */
static __attribute__((unused, noreturn)) void npx_cuda_fail(const char *api, const char *call, const char *file,
                                                            int line, const char *message)
{
#ifdef __GLIBC__
    const char *prog = program_invocation_short_name;
#else
    const char *prog = "npx";
#endif
    fflush(stdout);
    fprintf(stderr, "%s: error: %s call failed: %s at %s:%d: %s\n", prog, api, call, file, line, message);
    exit(4);
}

static inline __attribute__((unused)) void npx_cuda_check(cudaError_t e, const char *call, const char *file, int line)
{
    if (e != cudaSuccess)
        npx_cuda_fail("CUDA", call, file, line, cudaGetErrorString(e));
}

static inline __attribute__((unused)) void npx_cublas_check(cublasStatus_t st, const char *call, const char *file,
                                                            int line)
{
    if (st != CUBLAS_STATUS_SUCCESS)
        npx_cuda_fail("cuBLAS", call, file, line, cublasGetStatusString(st));
}

#define NPX_CUDA_CHECK(call) npx_cuda_check((call), #call, __FILE__, __LINE__)
#define NPX_CUBLAS_CHECK(call) npx_cublas_check((call), #call, __FILE__, __LINE__)

#endif /* NPX_CUDA_H */
