/* npx_device.h: what generated CUDA programs need beside the runtime and the
 * CUDA layer (npx_cuda.h): device buffers whose every call is checked,
 * uploads and downloads for inputs, outputs and traces, the launch shape, and
 * run-time errors raised on the device and reported by the host with the
 * .npx line. npxc pastes it after the runtime into every .cu file. */

#define NPX_THREADS 256
/* In a kernel, pointer p starts a device buffer (cudaMalloc aligns them to
 * 256 bytes): the compiler may access it 16 bytes at a time. */
#define NPX_ALIGNED(p) ((p) = (decltype(p))__builtin_assume_aligned((p), 16))
#define NPX_SHARED_BINS 4096     /* bincount counts in shared memory up to this many bins */
#define NPX_SHARED_ROWS 32768    /* a row group keeps its temporaries' rows in shared memory up to this */
#define NPX_SHARED_BLOCK 49152   /* the shared memory a block has without opting in to more */
#define NPX_ROUND16(n) (((size_t)(n) + 15) & ~(size_t)15)

enum { NPX_FAIL_BINCOUNT_NEGATIVE = 1, NPX_FAIL_NEGATIVE_POWER = 2, NPX_FAIL_INDEX = 3, NPX_FAIL_ZERO_DIVISION = 4,
       NPX_FAIL_PY_INT32 = 5, NPX_FAIL_UNRAVEL = 6,
       NPX_FAIL_RANGE = 7, NPX_FAIL_BINS = 8, NPX_FAIL_MONOTONIC = 9,
       NPX_FAIL_INCREASING = 10, NPX_FAIL_PY_INT = 11 };

/* The first run-time error a kernel met: kind, .npx line, two values and an
 * axis; and the largest value bincount found, read by the host in the same
 * copy. */
typedef struct {
    int failed, line, kind, axis;
    long long a, b;
    long long max;
} npx_dev_status;

/* The stream of all the program's device work: a stream of its own (the
 * legacy stream cannot be captured as a graph), blocking, so that the
 * synchronous copies of inputs and outputs stay in order with it. */
static inline __attribute__((unused)) cudaStream_t npx_dev_stream(void)
{
    static cudaStream_t stream;
    if (!stream)
        NPX_CUDA_CHECK(cudaStreamCreate(&stream));
    return stream;
}

/* Device memory is allocated and freed in stream order, from the device's
 * pool, which keeps what it has between runs: no call here waits for the
 * device (cudaFree would). */
static inline __attribute__((unused)) void npx_dev_zero(void *p, size_t n)
{
    NPX_CUDA_CHECK(cudaMemsetAsync(p, 0, n ? n : 1, npx_dev_stream()));
}

static inline __attribute__((unused)) void *npx_dev_alloc(size_t n, bool zeroed)
{
    static bool pool_kept;
    if (!pool_kept) {
        cudaMemPool_t pool;
        uint64_t keep_all = UINT64_MAX;
        NPX_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
        NPX_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all));
        pool_kept = true;
    }
    void *p = NULL;
    NPX_CUDA_CHECK(cudaMallocAsync(&p, n ? n : 1, npx_dev_stream()));
    if (zeroed)
        npx_dev_zero(p, n);
    return p;
}

static inline __attribute__((unused)) void npx_dev_free(void *p)
{
    if (p)                               /* (a carried name that has no value yet) */
        NPX_CUDA_CHECK(cudaFreeAsync(p, npx_dev_stream()));
}

static inline __attribute__((unused)) void *npx_dev_upload(const void *host, size_t n)
{
    void *p = npx_dev_alloc(n, false);
    if (n)
        NPX_CUDA_CHECK(cudaMemcpy(p, host, n, cudaMemcpyHostToDevice));
    return p;
}


/* The most blocks a launch has: enough to fill every multiprocessor several
 * times over, no more (the kernels' grid-stride loops do the rest). */
static inline __attribute__((unused)) int npx_dev_most_blocks(void)
{
    static int most;
    if (!most) {
        int sms = 0;
        NPX_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
        most = sms > 0 ? sms * 16 : 1024;
    }
    return most;
}

/* Blocks for n threads' worth of work. */
static inline __attribute__((unused)) unsigned npx_dev_blocks(int64_t n)
{
    int64_t blocks = (n + NPX_THREADS - 1) / NPX_THREADS, most = npx_dev_most_blocks();
    return blocks < 1 ? 1u : blocks > most ? (unsigned)most : (unsigned)blocks;
}

/* A reduction's or a scan's blocks (codegen/cuda_fold.c): `tasks` of them,
 * one for each result (lane) or each 32 side by side, with `lanes` of their
 * threads sharing a result's `count` elements. When that leaves the GPU
 * short of blocks, each result's elements are split among this many, as many
 * as fill it while each thread still folds NPX_SPLIT_WORK elements or more;
 * further kernels combine the blocks' parts, in the same order every run. */
#define NPX_SPLIT_WORK 16
static inline __attribute__((unused)) int64_t npx_dev_splits(int64_t tasks, int64_t count, int lanes)
{
    int64_t by_work = count / ((int64_t)lanes * NPX_SPLIT_WORK), by_grid = tasks > 0 ? npx_dev_most_blocks() / tasks : 1;
    int64_t splits = by_work < by_grid ? by_work : by_grid;
    return splits > 1 ? splits : 1;
}

static inline __attribute__((unused)) cublasHandle_t npx_dev_blas(void)
{
    static cublasHandle_t handle;        /* one per program, made on first use */
    static bool made;
    if (!made) {
        NPX_CUBLAS_CHECK(cublasCreate(&handle));
        NPX_CUBLAS_CHECK(cublasSetStream(handle, npx_dev_stream()));
        NPX_CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH)); /* exact FP32 unless --tf32 */
        made = true;
    }
    return handle;
}

static inline __attribute__((unused)) npx_dev_status *npx_dev_status_new(void)
{
    return (npx_dev_status *)npx_dev_alloc(sizeof(npx_dev_status), true);
}

/* On the device: keep the first error only. */
__device__ static inline __attribute__((unused)) void npx_dev_fail(npx_dev_status *st, int line, int kind,
                                                                     long long a, long long b, int axis)
{
    if (atomicAdd(&st->failed, 1) == 0) {
        st->line = line;
        st->kind = kind;
        st->a = a;
        st->b = b;
        st->axis = axis;
    }
}

/* On the host, after the kernels that may fail: one sync, one copy; the
 * status as it was. */
static inline __attribute__((unused)) npx_dev_status npx_dev_check(const npx_state *st, const npx_dev_status *dev)
{
    npx_dev_status h = { 0, 0, 0, 0, 0, 0, 0 };
    NPX_CUDA_CHECK(cudaMemcpy(&h, dev, sizeof h, cudaMemcpyDeviceToHost));
    if (!h.failed)
        return h;
    if (h.kind == NPX_FAIL_BINCOUNT_NEGATIVE)
        npx_runtime_error(st, h.line, "bincount: element %lld of the input is %lld; bincount counts non-negative "
                          "integers only", h.a, h.b);
    if (h.kind == NPX_FAIL_INDEX)
        npx_runtime_error(st, h.line, "index %lld is out of bounds for axis %d with size %lld", h.a, h.axis, h.b);
    if (h.kind == NPX_FAIL_ZERO_DIVISION)
        npx_runtime_error(st, h.line, "%s", npx_py_zero_division((int)h.a));
    if (h.kind == NPX_FAIL_PY_INT32)
        npx_runtime_error(st, h.line, "Python integer %lld out of bounds for int32", h.a);
    if (h.kind == NPX_FAIL_PY_INT)         /* axis: the operation */
        npx_py_int_error(st, h.line, h.axis, h.a, h.b);
    if (h.kind == NPX_FAIL_UNRAVEL)
        npx_runtime_error(st, h.line, "index %lld is out of bounds for array with size %lld", h.a, h.b);
    if (h.kind == NPX_FAIL_RANGE) {                 /* a and b: the two doubles' bits */
        double lo, hi;
        char a[32], b[32];
        memcpy(&lo, &h.a, sizeof lo);
        memcpy(&hi, &h.b, sizeof hi);
        npx_runtime_error(st, h.line, "autodetected range of [%s, %s] is not finite",
                          npx_float_str(a, sizeof a, lo, h.axis), npx_float_str(b, sizeof b, hi, h.axis));
    }
    if (h.kind == NPX_FAIL_INCREASING)
        npx_runtime_error(st, h.line, "`bins` must increase monotonically, when an array");
    if (h.kind == NPX_FAIL_MONOTONIC)
        npx_runtime_error(st, h.line, "bins must be monotonically increasing or decreasing");
    if (h.kind == NPX_FAIL_BINS)
        npx_runtime_error(st, h.line, "Too many bins for data range. Cannot create %lld finite-sized bins.", h.a);
    npx_runtime_error(st, h.line, "integers to negative integer powers are not allowed (exponent %lld)", h.a);
    return h;
}

/* bincount: before the kernel that finds the largest value, max = -1 (all
 * bytes 0xff), in stream order; after it, its length, the largest value + 1
 * and at least minlength, read with the status in one sync. */
static inline __attribute__((unused)) void npx_dev_max_reset(npx_dev_status *dev)
{
    NPX_CUDA_CHECK(cudaMemsetAsync(&dev->max, 0xff, sizeof dev->max, npx_dev_stream()));
}

static inline __attribute__((unused)) int64_t npx_dev_read_max(const npx_state *st, const npx_dev_status *dev,
                                                                 int64_t minlength)
{
    long long m = npx_dev_check(st, dev).max;
    return m + 1 > minlength ? (int64_t)m + 1 : minlength;
}

#define NPX_DEV_POW_CHECKED(s, T)                                                                          \
    __device__ static inline __attribute__((unused)) T npx_pow_checked_##s(npx_dev_status *st, int line, T a, T b) \
    {                                                                                                      \
        if (b < 0) {                                                                                       \
            npx_dev_fail(st, line, NPX_FAIL_NEGATIVE_POWER, (long long)b, 0, 0);                           \
            return 0;                                                                                      \
        }                                                                                                  \
        return npx_pow_##s(a, b);                                                                          \
    }
NPX_DEV_POW_CHECKED(i32, int32_t)
NPX_DEV_POW_CHECKED(i64, int64_t)
#undef NPX_DEV_POW_CHECKED

/* Python ints' arithmetic in a kernel (npx_math.h): past int64 is recorded. */
#define X(name, op)                                                                                   \
    __device__ static inline __attribute__((unused)) int64_t name(npx_dev_status *st, int line, int64_t a, \
                                                                  int64_t b)                          \
    {                                                                                                 \
        int64_t r = 0;                                                                                \
        if (!npx_py_int_fits(op, a, b, &r))                                                           \
            npx_dev_fail(st, line, NPX_FAIL_PY_INT, (long long)a, (long long)b, op);                  \
        return r;                                                                                     \
    }
NPX_PY_INT_OPS(X)
#undef X

/* Python numbers' divisions in a kernel (npx_math.h): by zero is recorded. */
#define X(name, T, kind, result)                                                                  \
    __device__ static inline __attribute__((unused)) T name(npx_dev_status *st, int line, T a, T b) \
    {                                                                                             \
        if (b == 0)                                                                               \
            npx_dev_fail(st, line, NPX_FAIL_ZERO_DIVISION, kind, 0, 0);                           \
        return result;                                                                            \
    }
NPX_PY_DIVISIONS(X)
#undef X

/* A Python int into int32 in a kernel (npx_math.h): out of range is recorded. */
__device__ static inline __attribute__((unused)) int32_t npx_py_int32(npx_dev_status *st, int line, int64_t a)
{
    if (a < INT32_MIN || a > INT32_MAX)
        npx_dev_fail(st, line, NPX_FAIL_PY_INT32, (long long)a, 0, 0);
    return (int32_t)a;
}

/* np.unravel_index's flat index in a kernel (npx_math.h): out of range is recorded. */
__device__ static inline __attribute__((unused)) int64_t npx_unravel_checked(npx_dev_status *st, int line, int64_t i,
                                                                               int64_t n)
{
    if (i < 0 || i >= n)
        npx_dev_fail(st, line, NPX_FAIL_UNRAVEL, (long long)i, (long long)n, 0);
    return i;
}

/* np.histogram's checks in a kernel (npx_math.h): a failure is recorded,
 * the range's ends as their bits (axis: 1 for float32). */
#define NPX_DEV_RANGE_CHECKED(s, T, F32)                                                                   \
    __device__ static inline __attribute__((unused)) T npx_range_checked_##s(npx_dev_status *st, int line, \
                                                                             T lo, T hi)                   \
    {                                                                                                      \
        if (!isfinite(lo) || !isfinite(hi)) {                                                              \
            double ends[2] = { lo, hi };                                                                   \
            long long bits[2];                                                                             \
            memcpy(bits, ends, sizeof bits);                                                               \
            npx_dev_fail(st, line, NPX_FAIL_RANGE, bits[0], bits[1], F32);                                 \
        }                                                                                                  \
        return lo;                                                                                         \
    }
NPX_DEV_RANGE_CHECKED(f32, float, 1)
NPX_DEV_RANGE_CHECKED(f64, double, 0)
#undef NPX_DEV_RANGE_CHECKED

__device__ static inline __attribute__((unused)) int64_t npx_bins_checked(npx_dev_status *st, int line,
                                                                            int64_t too_close, int64_t n)
{
    if (too_close)
        npx_dev_fail(st, line, NPX_FAIL_BINS, (long long)n, 0, 0);
    return n;
}

__device__ static inline __attribute__((unused)) int64_t npx_monotonic_checked(npx_dev_status *st, int line,
                                                                                 int64_t way)
{
    if (way == 0)
        npx_dev_fail(st, line, NPX_FAIL_MONOTONIC, 0, 0, 0);
    return way;
}

#define NPX_DEV_INCREASING_CHECKED(s, T)                                                                  \
    __device__ static inline __attribute__((unused)) T npx_increasing_checked_##s(npx_dev_status *st,     \
                                                                                  int line, T falls,      \
                                                                                  T lowest)               \
    {                                                                                                     \
        if (falls)                                                                                        \
            npx_dev_fail(st, line, NPX_FAIL_INCREASING, 0, 0, 0);                                         \
        return lowest;                                                                                    \
    }
NPX_DEV_INCREASING_CHECKED(i32, int32_t)
NPX_DEV_INCREASING_CHECKED(i64, int64_t)
NPX_DEV_INCREASING_CHECKED(f32, float)
NPX_DEV_INCREASING_CHECKED(f64, double)
#undef NPX_DEV_INCREASING_CHECKED

/* take and x[idx] in a kernel: position i of an axis of size n, or a
 * recorded IndexError and position 0 (the axis is not empty: checked before
 * the launch), so that the kernel goes on safely until the host reports it. */
__device__ static inline __attribute__((unused)) int64_t npx_take(npx_dev_status *st, int line, int64_t i, int64_t n,
                                                                    int axis)
{
    if (i >= -n && i < n)
        return i < 0 ? i + n : i;
    npx_dev_fail(st, line, NPX_FAIL_INDEX, (long long)i, (long long)n, axis);
    return 0;
}

/* np.maximum.at and np.minimum.at: each value combined into its element by
 * one atomic, the result the same in any order. Integers: atomicMax and
 * atomicMin (int64_t is long on Linux: as long long). Floats: on their bits,
 * which order as signed integers do where the sign is clear, and the other
 * way round as unsigned where it is set; so a value with its sign clear
 * goes by atomicMax (atomicMin) of its bits as int, one with its sign set
 * by atomicMin (atomicMax) as unsigned. NaN, which both keep, is made the
 * NaN that wins that way: positive for the largest, negative for the
 * smallest. An element that is NaN before the kernel (of either sign) is
 * already the result, and stays: every thread reads it before its atomic,
 * and none writes it. */
__device__ static inline __attribute__((unused)) void npx_atomic_max(int32_t *at, int32_t v) { atomicMax(at, v); }
__device__ static inline __attribute__((unused)) void npx_atomic_min(int32_t *at, int32_t v) { atomicMin(at, v); }
__device__ static inline __attribute__((unused)) void npx_atomic_max(int64_t *at, int64_t v)
{
    atomicMax((long long *)at, (long long)v);
}
__device__ static inline __attribute__((unused)) void npx_atomic_min(int64_t *at, int64_t v)
{
    atomicMin((long long *)at, (long long)v);
}
#define NPX_DEV_ATOMIC_EXTREMUM(name, T, I, U, NAN_BITS, by_signed, by_unsigned) \
    __device__ static inline __attribute__((unused)) void name(T *at, T v)     \
    {                                                                        \
        I bits = (I)(NAN_BITS);                                              \
        if (*at != *at)                                                      \
            return;                                                          \
        if (v == v)                                                          \
            memcpy(&bits, &v, sizeof bits);                                  \
        if (bits >= 0)                                                       \
            by_signed((I *)at, bits);                                        \
        else                                                                 \
            by_unsigned((U *)at, (U)bits);                                   \
    }
NPX_DEV_ATOMIC_EXTREMUM(npx_atomic_max, float, int, unsigned int, 0x7fc00000u, atomicMax, atomicMin)
NPX_DEV_ATOMIC_EXTREMUM(npx_atomic_min, float, int, unsigned int, 0xffc00000u, atomicMin, atomicMax)
NPX_DEV_ATOMIC_EXTREMUM(npx_atomic_max, double, long long, unsigned long long, 0x7ff8000000000000ull, atomicMax,
                        atomicMin)
NPX_DEV_ATOMIC_EXTREMUM(npx_atomic_min, double, long long, unsigned long long, 0xfff8000000000000ull, atomicMin,
                        atomicMax)
#undef NPX_DEV_ATOMIC_EXTREMUM

/* ---- np.sort and np.argsort on the device ----
 * An array of shape (outer, n, inner) has outer * inner lanes of n elements.
 * They are gathered into contiguous lanes, then merged pairwise in rounds
 * (runs of 1, 2, 4, ... elements): each element finds its place in the
 * merged run by a binary search in the other run, so every round is one
 * kernel over all elements of all lanes, however few and long the lanes
 * are. Stable, NaN last: the host's order (sort.c). */

__device__ static inline bool npx_dev_before(bool a, bool b) { return npx_sorts_before_bool(a, b); }
__device__ static inline bool npx_dev_before(int32_t a, int32_t b) { return npx_sorts_before_i32(a, b); }
__device__ static inline bool npx_dev_before(int64_t a, int64_t b) { return npx_sorts_before_i64(a, b); }
__device__ static inline bool npx_dev_before(float a, float b) { return npx_sorts_before_f32(a, b); }
__device__ static inline bool npx_dev_before(double a, double b) { return npx_sorts_before_f64(a, b); }

/* lane-major copies of x's lanes, with each element's position */
template <typename T>
__global__ void npx_k_sort_gather(const T *x, T *key, int64_t *at, int64_t outer, int64_t n, int64_t inner)
{
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < outer * n * inner;
         e += (int64_t)gridDim.x * blockDim.x) {
        int64_t lane = e / n, q = e % n;
        key[e] = x[(lane / inner * n + q) * inner + lane % inner];
        at[e] = q;
    }
}

/* one round: the runs of `width` elements of each lane, merged in pairs */
template <typename T>
__global__ void npx_k_sort_merge(const T *key, const int64_t *at, T *merged, int64_t *merged_at, int64_t total,
                                 int64_t n, int64_t width)
{
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
        int64_t lane = e - e % n, q = e % n, run = q / width * width;
        bool left = q / width % 2 == 0;
        int64_t other = left ? run + width : run - width;
        int64_t other_len = left ? (other < n ? (n - other < width ? n - other : width) : 0) : width;
        const T x = key[e];
        int64_t lo = 0, hi = other_len;   /* the other run's elements that come before x */
        while (lo < hi) {
            int64_t mid = (lo + hi) / 2;
            const T y = key[lane + other + mid];
            if (left ? npx_dev_before(y, x) : !npx_dev_before(x, y))
                lo = mid + 1;
            else
                hi = mid;
        }
        int64_t to = lane + (left ? run : other) + (q - run) + lo;
        merged[to] = x;
        merged_at[to] = at[e];
    }
}

/* the sorted lanes back in x's layout: the values (vals) or the positions (pos) */
template <typename T>
__global__ void npx_k_sort_scatter(const T *key, const int64_t *at, T *vals, int64_t *pos, int64_t outer, int64_t n,
                                   int64_t inner)
{
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < outer * n * inner;
         e += (int64_t)gridDim.x * blockDim.x) {
        int64_t lane = e / n, to = (lane / inner * n + e % n) * inner + lane % inner;
        if (vals)
            vals[to] = key[e];
        else
            pos[to] = at[e];
    }
}

template <typename T>
static inline void npx_dev_sort_lanes(const T *x, T *vals, int64_t *pos, int64_t outer, int64_t n, int64_t inner)
{
    int64_t total = outer * n * inner;
    if (total == 0)
        return;
    T *key[2];
    int64_t *at[2];
    for (int b = 0; b < 2; b++) {
        key[b] = (T *)npx_dev_alloc(sizeof(T) * (size_t)total, false);
        at[b] = (int64_t *)npx_dev_alloc(sizeof(int64_t) * (size_t)total, false);
    }
    NPX_LAUNCH(npx_k_sort_gather<T>, npx_dev_blocks(total), NPX_THREADS, 0, npx_dev_stream(), x, key[0], at[0], outer,
               n, inner);
    int cur = 0;
    for (int64_t width = 1; width < n; width *= 2, cur ^= 1)
        NPX_LAUNCH(npx_k_sort_merge<T>, npx_dev_blocks(total), NPX_THREADS, 0, npx_dev_stream(), (const T *)key[cur],
                   (const int64_t *)at[cur], key[cur ^ 1], at[cur ^ 1], total, n, width);
    NPX_LAUNCH(npx_k_sort_scatter<T>, npx_dev_blocks(total), NPX_THREADS, 0, npx_dev_stream(), (const T *)key[cur],
               (const int64_t *)at[cur], vals, pos, outer, n, inner);
    for (int b = 0; b < 2; b++) {
        npx_dev_free(key[b]);
        npx_dev_free(at[b]);
    }
}

#define NPX_DEV_SORT(s, T)                                                                                 \
    static inline __attribute__((unused)) void npx_dev_sort_##s(const T *x, T *out, int64_t outer, int64_t n, \
                                                                int64_t inner)                             \
    {                                                                                                      \
        npx_dev_sort_lanes<T>(x, out, (int64_t *)NULL, outer, n, inner);                                  \
    }                                                                                                      \
    static inline __attribute__((unused)) void npx_dev_argsort_##s(const T *x, int64_t *out, int64_t outer,  \
                                                                   int64_t n, int64_t inner)               \
    {                                                                                                      \
        npx_dev_sort_lanes<T>(x, (T *)NULL, out, outer, n, inner);                                        \
    }
NPX_DEV_SORT(bool, bool)
NPX_DEV_SORT(i32, int32_t)
NPX_DEV_SORT(i64, int64_t)
NPX_DEV_SORT(f32, float)
NPX_DEV_SORT(f64, double)
#undef NPX_DEV_SORT

/* ---- x[..., mask, ...] on the device ----
 * mask has n elements (x: outer blocks of n rows of inner elements). The elements are cut
 * into chunks: a kernel counts each chunk's True elements, one thread turns
 * the counts into each chunk's first place in the result (and the total),
 * a kernel gives each selected row its place, the host reads the total
 * (one sync) to allocate the result, and a kernel over every element of
 * every row copies the selected ones. */
#define NPX_COMPRESS_CHUNKS 65536

/* where chunk c of n elements cut into `chunks` starts */
__device__ static inline int64_t npx_dev_chunk_start(int64_t c, int64_t chunks, int64_t n)
{
    return n / chunks * c + (c < n % chunks ? c : n % chunks);
}

__global__ static __attribute__((unused)) void npx_k_mask_count(const bool *mask, int64_t n, int64_t chunks, int64_t *count)
{
    for (int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; c < chunks; c += (int64_t)gridDim.x * blockDim.x) {
        int64_t k = 0;
        for (int64_t i = npx_dev_chunk_start(c, chunks, n); i < npx_dev_chunk_start(c + 1, chunks, n); i++)
            k += mask[i];
        count[c] = k;
    }
}

__global__ static __attribute__((unused)) void npx_k_mask_scan(int64_t *count, int64_t chunks)
{
    int64_t sum = 0;
    for (int64_t c = 0; c < chunks; c++) {
        int64_t k = count[c];
        count[c] = sum;
        sum += k;
    }
    count[chunks] = sum;
}

__global__ static __attribute__((unused)) void npx_k_mask_places(const bool *mask, int64_t n, int64_t chunks, const int64_t *first,
                                         int64_t *place)
{
    for (int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; c < chunks; c += (int64_t)gridDim.x * blockDim.x) {
        int64_t k = first[c];
        for (int64_t i = npx_dev_chunk_start(c, chunks, n); i < npx_dev_chunk_start(c + 1, chunks, n); i++) {
            place[i] = k;
            k += mask[i];
        }
    }
}

template <typename T>
__global__ void npx_k_mask_copy(const bool *mask, const T *x, const int64_t *place, int64_t outer, int64_t n,
                                int64_t inner, int64_t count, T *out)
{
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < outer * n * inner;
         e += (int64_t)gridDim.x * blockDim.x) {
        int64_t row = e / inner % n, block = e / inner / n;
        if (mask[row])
            out[(block * count + place[row]) * inner + e % inner] = x[e];
    }
}

template <typename T>
static inline int64_t npx_dev_compress(const bool *mask, const T *x, int64_t outer, int64_t n, int64_t inner, T **out)
{
    int64_t chunks = n < NPX_COMPRESS_CHUNKS ? n : NPX_COMPRESS_CHUNKS, total = 0;
    if (chunks == 0) {
        *out = (T *)npx_dev_alloc(0, false);
        return 0;
    }
    int64_t *first = (int64_t *)npx_dev_alloc(sizeof(int64_t) * (size_t)(chunks + 1), false);
    int64_t *place = (int64_t *)npx_dev_alloc(sizeof(int64_t) * (size_t)n, false);
    NPX_LAUNCH(npx_k_mask_count, npx_dev_blocks(chunks), NPX_THREADS, 0, npx_dev_stream(), mask, n, chunks, first);
    NPX_LAUNCH(npx_k_mask_scan, 1, 1, 0, npx_dev_stream(), first, chunks);
    NPX_LAUNCH(npx_k_mask_places, npx_dev_blocks(chunks), NPX_THREADS, 0, npx_dev_stream(), mask, n, chunks,
               (const int64_t *)first, place);
    NPX_CUDA_CHECK(cudaMemcpyAsync(&total, first + chunks, sizeof total, cudaMemcpyDeviceToHost, npx_dev_stream()));
    NPX_CUDA_CHECK(cudaStreamSynchronize(npx_dev_stream()));
    *out = (T *)npx_dev_alloc(sizeof(T) * (size_t)(outer * total * inner), false);
    if (outer * total * inner > 0)
        NPX_LAUNCH(npx_k_mask_copy<T>, npx_dev_blocks(outer * n * inner), NPX_THREADS, 0, npx_dev_stream(), mask, x,
                   (const int64_t *)place, outer, n, inner, total, *out);
    npx_dev_free(first);
    npx_dev_free(place);
    return total;
}

#define NPX_DEV_COMPRESS(s, T)                                                                                   \
    static inline __attribute__((unused)) int64_t npx_dev_compress_##s(const bool *mask, const T *x, int64_t outer, \
                                                                       int64_t n, int64_t inner, T **out)               \
    {                                                                                                                   \
        return npx_dev_compress<T>(mask, x, outer, n, inner, out);                                                      \
    }
NPX_DEV_COMPRESS(bool, bool)
NPX_DEV_COMPRESS(i32, int32_t)
NPX_DEV_COMPRESS(i64, int64_t)
NPX_DEV_COMPRESS(f32, float)
NPX_DEV_COMPRESS(f64, double)
#undef NPX_DEV_COMPRESS

/* A device value back on the host, for --trace and the outputs. */
static inline __attribute__((unused)) void *npx_dev_download(npx_dtype t, int ndim, const int64_t *shape,
                                                               const void *dev)
{
    int64_t count = 1;
    for (int k = 0; k < ndim; k++)
        count *= shape[k];
    size_t n = npx_bytes(count, npx_dtype_size(t), "a device value");
    void *host = npx_alloc(n);
    if (n)
        NPX_CUDA_CHECK(cudaMemcpy(host, dev, n, cudaMemcpyDeviceToHost));
    return host;
}

static inline __attribute__((unused)) void npx_dev_trace(npx_state *st, const char *name, int line, const char *text,
                                                           npx_dtype t, int ndim, const int64_t *shape, const void *dev)
{
    void *host = npx_dev_download(t, ndim, shape, dev);
    npx_trace(st, name, line, text, t, ndim, shape, host);
    npx_free(host);
}

static inline __attribute__((unused)) void npx_dev_output(npx_state *st, int j, npx_dtype t, int ndim,
                                                            const int64_t *shape, void *dev, bool owned)
{
    npx_set_output(st, j, t, ndim, shape, npx_dev_download(t, ndim, shape, dev), true);
    if (owned)
        npx_dev_free(dev);
}

/* --bench on the device: four events around the uploads, the computation
 * and the downloads of one run. */
static inline __attribute__((unused)) void npx_dev_mark(cudaEvent_t *ev)
{
    NPX_CUDA_CHECK(cudaEventCreate(ev));
    NPX_CUDA_CHECK(cudaEventRecord(*ev, 0));
}

static inline __attribute__((unused)) void npx_dev_times(npx_state *st, cudaEvent_t *ev)
{
    float ms[3];
    NPX_CUDA_CHECK(cudaEventSynchronize(ev[3]));
    for (int i = 0; i < 3; i++)
        NPX_CUDA_CHECK(cudaEventElapsedTime(&ms[i], ev[i], ev[i + 1]));
    for (int i = 0; i < 4; i++)
        NPX_CUDA_CHECK(cudaEventDestroy(ev[i]));
    st->device_timed = true;
    st->h2d_s = ms[0] * 1e-3;
    st->device_s = ms[1] * 1e-3;
    st->d2h_s = ms[2] * 1e-3;
}

/* --bench N: the computation between npx_dev_capture and npx_dev_replay is
 * captured once as a CUDA graph (its kernels, cuBLAS calls, allocations and
 * frees), launched once to warm up, then N times, each launch timed by
 * events into st->replay_s: the host's launch work is gone from the device's
 * time and the kernels run back to back. Nothing in between may wait for the
 * device. A run with st->replays == 0 (every run but --bench's timed one)
 * runs the computation as it is written; NPX_CUDA_GRAPH=0 in the environment
 * times every run that way too (to compare, or where capture fails). */
static inline __attribute__((unused)) bool npx_dev_capture(const npx_state *st)
{
    const char *graphs = getenv("NPX_CUDA_GRAPH");
    if (st->replays <= 0 || (graphs && !strcmp(graphs, "0")))
        return false;
    NPX_CUDA_CHECK(cudaStreamBeginCapture(npx_dev_stream(), cudaStreamCaptureModeGlobal));
    return true;
}

static inline __attribute__((unused)) void npx_dev_replay(npx_state *st, bool captured)
{
    if (!captured)
        return;
    cudaStream_t stream = npx_dev_stream();
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    cudaEvent_t ev[2];
    NPX_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    /* each launch frees what the last one left allocated: the outputs */
    NPX_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    NPX_CUDA_CHECK(cudaGraphDestroy(graph));
    NPX_CUDA_CHECK(cudaEventCreate(&ev[0]));
    NPX_CUDA_CHECK(cudaEventCreate(&ev[1]));
    NPX_CUDA_CHECK(cudaGraphLaunch(exec, stream));
    for (int64_t i = 0; i < st->replays; i++) {
        float ms = 0;
        NPX_CUDA_CHECK(cudaEventRecord(ev[0], stream));
        NPX_CUDA_CHECK(cudaGraphLaunch(exec, stream));
        NPX_CUDA_CHECK(cudaEventRecord(ev[1], stream));
        NPX_CUDA_CHECK(cudaEventSynchronize(ev[1]));
        NPX_CUDA_CHECK(cudaEventElapsedTime(&ms, ev[0], ev[1]));
        st->replay_s[i] = ms * 1e-3;
    }
    NPX_CUDA_CHECK(cudaEventDestroy(ev[0]));
    NPX_CUDA_CHECK(cudaEventDestroy(ev[1]));
    NPX_CUDA_CHECK(cudaGraphExecDestroy(exec));
    st->replayed = true;
}
