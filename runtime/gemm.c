/* gemm.c: float matrix products for the C target without --blas, blocked
 * for the caches the way BLAS libraries do it (Goto's scheme): a block of
 * B's rows is packed into panels NPX_GEMM_NR columns wide, each thread packs
 * blocks of A's rows into panels NPX_GEMM_MR rows high, and a small kernel
 * keeps an MR x NR tile of the result in vector registers while it walks
 * the shared dimension. Written with the vector types of GCC and clang:
 * 16 floats or 8 doubles where the compiler targets AVX-512 (the program is
 * built with -march=native), else 8 floats or 4 doubles (AVX registers, two
 * SSE registers elsewhere).
 *
 *   c = alpha * op(a) op(b), row-major; op(a) is a (m x k, ta false) or the
 *   transpose of a stored k x m (ta true); likewise op(b), k x n.
 *
 * A matrix times its own transpose (x.T @ x, np.cov) is symmetric: only the
 * tiles that reach the diagonal or above it are computed, the rest copied
 * from them, bit for bit the same sums (each is the same products in the
 * same order). A's blocks go to the threads in turn, so that the long
 * blocks of the upper rows are shared. A small product runs on the calling
 * thread (NPX_GEMM_PARALLEL_MIN): a time loop of small products (an RNN of
 * 8 units over 4 sequences) spent 90% of its time starting the threads.
 * Where op(a) is one block of rows (a batch of 32 rows times a weight
 * matrix: an RNN's step), the threads split the columns instead: each packs
 * its own panels of B and reads op(a) where it lies, and they wait for each
 * other only at the end (bench/rnn.npx on 2 threads: 6.3 -> 4.2 ms, the same
 * bits: each element is the same sums in the same order).
 *
 * Other compilers (and -DNPX_PLAIN_GEMM) get plain loops. Also npx_blas_ld
 * and npx_mirror_upper, for BLAS calls.
 */
#include <string.h>
#include "npx_rt.h"

int npx_blas_ld(int64_t row_length) { return row_length > 1 ? (int)row_length : 1; }

#ifndef __CUDACC__
/* Row i of symmetric c's lower triangle, from column i of its upper one
 * (whose cache lines serve row i + 1 too); all of them, row by row. */
#define NPX_MIRROR_UPPER(T, s)                                                                                 \
    static inline void npx_mirror_row_##s(T *c, int64_t i, int64_t ldc)                                        \
    {                                                                                                          \
        for (int64_t j = 0; j < i; j++)                                                                        \
            c[i * ldc + j] = c[j * ldc + i];                                                                   \
    }                                                                                                          \
    void npx_mirror_upper_##s(T *c, int64_t n, int64_t ldc)                                                    \
    {                                                                                                          \
        for (int64_t i = 1; i < n; i++)                                                                        \
            npx_mirror_row_##s(c, i, ldc);                                                                     \
    }
NPX_MIRROR_UPPER(float, f32)
NPX_MIRROR_UPPER(double, f64)
#undef NPX_MIRROR_UPPER
#endif

#if defined(__GNUC__) && !defined(__CUDACC__) && !defined(NPX_PLAIN_GEMM)
#ifdef _OPENMP
#include <omp.h>
#define NPX_GEMM_THREADS omp_get_max_threads()
#define NPX_GEMM_PARALLEL _Pragma("omp parallel")
#define NPX_GEMM_BARRIER _Pragma("omp barrier")
#define NPX_GEMM_PART omp_get_thread_num()
#define NPX_GEMM_PARTS omp_get_num_threads()
/* fewer multiply-adds run on the calling thread: the crossover of a square
 * float32 product on 2 cores lay between 48^3 (equal) and 64^3 (2 threads
 * 17% faster) */
#define NPX_GEMM_PARALLEL_MIN (4 * (double)NPX_PARALLEL_MIN)
#else
#define NPX_GEMM_THREADS 1
#define NPX_GEMM_PARALLEL_MIN 0
#define NPX_GEMM_PARALLEL
#define NPX_GEMM_BARRIER
#define NPX_GEMM_PART 0
#define NPX_GEMM_PARTS 1
#endif

#ifdef __AVX512F__
#define NPX_GEMM_VBYTES 64        /* one vector: an AVX-512 register */
#define NPX_GEMM_MR 8             /* rows of the register tile: 16 accumulators of 32 registers */
#else
#define NPX_GEMM_VBYTES 32        /* an AVX register (two SSE registers elsewhere) */
#define NPX_GEMM_MR 6             /* 12 accumulators of 16 registers */
#endif
#define NPX_GEMM_KC 256           /* the shared dimension, per packed block */
#define NPX_GEMM_MC 96            /* at most this many of A's rows per thread's block */
#define NPX_GEMM_NC 2048          /* B's columns per packed block */
#define NPX_GEMM_SMALL 8192       /* products of at most this many multiply-adds read op(a) in place */
#define NPX_GEMM_SMALL_ROOM 2048  /* elements of a small product's packed op(b) on the stack */
/* The kernel's a * b + acc must be one fused multiply-add, as in every BLAS:
 * two instructions would halve its speed and need a register the 6 x 16
 * AVX2 tile does not have. GCC contracts nothing under -std=c11 unless told
 * to, and forms FMAs only from -O2: the tile is built at -O3 whatever the
 * program's level, so that its results do not change with it (an -O1
 * sanitizer build gave other last bits). clang contracts within an
 * expression by default (and knows no optimize attribute). */
#if defined(__clang__)
#define NPX_GEMM_FUSED
#else
#define NPX_GEMM_FUSED __attribute__((optimize("O3,fp-contract=fast")))
#endif

/* NPX_GEMM(T, s): npx_gemm_s and its helpers for element type T. */
#define NPX_GEMM(T, s)                                                                                         \
    typedef T npx_vec_##s __attribute__((vector_size(NPX_GEMM_VBYTES)));                                       \
    enum { NPX_GEMM_VL_##s = NPX_GEMM_VBYTES / (int)sizeof(T), NPX_GEMM_NR_##s = 2 * NPX_GEMM_VL_##s };        \
                                                                                                               \
    /* rows [row0, row0 + rows) and columns [col0, col0 + kc) of op(x), in panels of `high` rows stored     \
     * column by column, zero past the last row */                                                           \
    static void npx_gemm_pack_##s(T *dst, const T *x, int64_t ld, bool trans, int64_t row0, int64_t rows,       \
                                  int64_t col0, int64_t kc, int high)                                         \
    {                                                                                                          \
        for (int64_t r = 0; r < rows; r += high, dst += kc * high) {                                          \
            int n = rows - r < high ? (int)(rows - r) : high;                                                 \
            if (trans) {        /* op(x)[row, col] is x[col, row]: a panel's column is a run of x's row */    \
                const T *from = x + col0 * ld + row0 + r;                                                      \
                for (int64_t p = 0; p < kc; p++)                                                              \
                    for (int i = 0; i < high; i++)                                                            \
                        dst[p * high + i] = i < n ? from[p * ld + i] : (T)0;                                  \
            } else {            /* a panel's row is a run of x's row */                                       \
                const T *from = x + (row0 + r) * ld + col0;                                                    \
                for (int i = 0; i < high; i++)                                                                \
                    for (int64_t p = 0; p < kc; p++)                                                          \
                        dst[p * high + i] = i < n ? from[i * ld + p] : (T)0;                                  \
            }                                                                                                  \
        }                                                                                                      \
    }                                                                                                          \
                                                                                                               \
    /* the mr x nr tile at c: (first ? 0 : c) + alpha * (a panel . b panel); the panel's element (i, p) at    \
     * a[i * row + p * step], rows past `readable` read as the last one (not stored): packed (row 1, step   \
     * MR, all readable) or where op(a) lies. Inlined into each caller: a packed panel's offsets constant. */ \
    NPX_GEMM_FUSED __attribute__((always_inline))                                                              \
    static inline void npx_gemm_tile_strided_##s(int64_t kc, const T *a, int64_t row, int64_t step, int readable, \
                                                 const T *b, T *c, int64_t ldc, int mr, int nr, T alpha,      \
                                                 bool first)                                                  \
    {                                                                                                          \
        npx_vec_##s acc[NPX_GEMM_MR][2];                                                                       \
        const T *a_row[NPX_GEMM_MR];                                                                           \
        for (int i = 0; i < NPX_GEMM_MR; i++) {                                                               \
            acc[i][0] = acc[i][1] = (npx_vec_##s){ 0 };                                                        \
            a_row[i] = a + (i < readable ? i : readable - 1) * row;                                            \
        }                                                                                                      \
        for (int64_t p = 0; p < kc && nr > NPX_GEMM_VL_##s; p++) {                                           \
            npx_vec_##s b0, b1;                                                                                \
            memcpy(&b0, b + p * NPX_GEMM_NR_##s, sizeof b0);                                                  \
            memcpy(&b1, b + p * NPX_GEMM_NR_##s + NPX_GEMM_VL_##s, sizeof b1);                                \
            for (int i = 0; i < NPX_GEMM_MR; i++) {                                                           \
                T ai = a_row[i][p * step];                                                                     \
                acc[i][0] += ai * b0;                                                                          \
                acc[i][1] += ai * b1;                                                                          \
            }                                                                                                  \
        }                                                                                                      \
        for (int64_t p = 0; p < kc && nr <= NPX_GEMM_VL_##s; p++) {   /* a tile one vector wide */          \
            npx_vec_##s b0;                                                                                    \
            memcpy(&b0, b + p * NPX_GEMM_NR_##s, sizeof b0);                                                  \
            for (int i = 0; i < NPX_GEMM_MR; i++)                                                             \
                acc[i][0] += a_row[i][p * step] * b0;                                                          \
        }                                                                                                      \
        _Pragma("GCC unroll 8")             /* (unrolled, acc stays in registers) */                         \
        for (int i = 0; i < NPX_GEMM_MR; i++)                                                                 \
            _Pragma("GCC unroll 2")                                                                            \
            for (int h = 0; h < 2; h++) {   /* a vector, or part of one */                                    \
                if (i >= mr || h * NPX_GEMM_VL_##s >= nr)                                                      \
                    continue;                                                                                  \
                T *at = c + i * ldc + h * NPX_GEMM_VL_##s;                                                     \
                int w = nr - h * NPX_GEMM_VL_##s;                                                              \
                if (w >= NPX_GEMM_VL_##s) {                                                                    \
                    npx_vec_##s old = { 0 };                                                                   \
                    if (!first)                                                                                \
                        memcpy(&old, at, sizeof old);                                                          \
                    old += alpha * acc[i][h];                                                                  \
                    memcpy(at, &old, sizeof old);                                                              \
                } else {                                                                                       \
                    npx_vec_##s v = acc[i][h];                                                                 \
                    T part[NPX_GEMM_VL_##s];                                                                   \
                    memcpy(part, &v, sizeof part);                                                             \
                    for (int j = 0; j < w; j++)                                                                \
                        at[j] = (first ? (T)0 : at[j]) + alpha * part[j];                                      \
                }                                                                                              \
            }                                                                                                  \
    }                                                                                                          \
    NPX_GEMM_FUSED                                                                                             \
    static void npx_gemm_tile_##s(int64_t kc, const T *a, const T *b, T *c, int64_t ldc, int mr, int nr,       \
                                  T alpha, bool first)                                                        \
    {                                                                                                          \
        npx_gemm_tile_strided_##s(kc, a, 1, NPX_GEMM_MR, NPX_GEMM_MR, b, c, ldc, mr, nr, alpha, first);         \
    }                                                                                                          \
    NPX_GEMM_FUSED                                                                                             \
    static void npx_gemm_tile_direct_##s(int64_t kc, const T *a, int64_t row, int64_t step, const T *b, T *c,  \
                                         int64_t ldc, int mr, int nr, T alpha, bool first)                    \
    {                                                                                                          \
        npx_gemm_tile_strided_##s(kc, a, row, step, mr, b, c, ldc, mr, nr, alpha, first);                       \
    }                                                                                                          \
                                                                                                               \
    /* c = alpha * op(a) op(b), the arguments of npx_gemm_s, and how it goes: sym (op(a) op(a)^T), A's         \
     * blocks mcb rows high, B's packed block at bp */                                                         \
    typedef struct {                                                                                           \
        bool ta, tb, sym;                                                                                      \
        int64_t m, n, k, lda, ldb, ldc, mcb;                                                                   \
        T alpha;                                                                                               \
        const T *a, *b;                                                                                        \
        T *c, *bp;                                                                                             \
        bool a_direct;                       /* the tiles read op(a) where it lies, not packed */             \
    } npx_gemm_job_##s;                                                                                        \
                                                                                                               \
    /* room for op(b)'s packed block: kc x nc of a product k x n, and a panel's padding */                  \
    static T *npx_gemm_b_block_##s(int64_t k, int64_t n)                                                       \
    {                                                                                                          \
        int64_t kcmax = k < NPX_GEMM_KC ? k : NPX_GEMM_KC, ncmax = n < NPX_GEMM_NC ? n : NPX_GEMM_NC;          \
        return (T *)npx_alloc(sizeof(T) * (size_t)(kcmax * (ncmax + NPX_GEMM_NR_##s)));                        \
    }                                                                                                          \
                                                                                                               \
    /* g's product by parts threads of a parallel region together, this one part of them (round robin, as     \
     * schedule(static, 1) would); parts 1: all of it, alone */                                               \
    static void npx_gemm_blocks_##s(const npx_gemm_job_##s *g, int part, int parts)                           \
    {                                                                                                          \
        const int nr = NPX_GEMM_NR_##s;                                                                        \
        int64_t kcmax = g->k < NPX_GEMM_KC ? g->k : NPX_GEMM_KC;                                               \
        T *ap = g->a_direct ? NULL : (T *)npx_alloc(sizeof(T) * (size_t)(kcmax * g->mcb));                     \
        for (int64_t jc = 0; jc < g->n; jc += NPX_GEMM_NC) {                                                   \
            int64_t nc = g->n - jc < NPX_GEMM_NC ? g->n - jc : NPX_GEMM_NC;                                    \
            for (int64_t pc = 0; pc < g->k; pc += NPX_GEMM_KC) {                                               \
                int64_t kc = g->k - pc < NPX_GEMM_KC ? g->k - pc : NPX_GEMM_KC;                                \
                /* op(b)'s block, as op(b)^T's rows: panels nr columns wide */                                 \
                for (int64_t jp = part * nr; jp < nc; jp += parts * nr)                                        \
                    npx_gemm_pack_##s(g->bp + jp * kc, g->b, g->ldb, !g->tb, jc + jp, nc - jp < nr ? nc - jp : nr,\
                                      pc, kc, nr);                                                             \
                if (parts > 1) {                                                                               \
                    NPX_GEMM_BARRIER                                                                           \
                }                                                                                              \
                for (int64_t ic = part * g->mcb; ic < g->m; ic += parts * g->mcb) {                            \
                    int64_t mc = g->m - ic < g->mcb ? g->m - ic : g->mcb;                                      \
                    if (ap)                                                                                    \
                        npx_gemm_pack_##s(ap, g->a, g->lda, g->ta, ic, mc, pc, kc, NPX_GEMM_MR);               \
                    for (int64_t jp = 0; jp < nc; jp += nr)                                                    \
                        for (int64_t ip = 0; ip < mc; ip += NPX_GEMM_MR) {                                     \
                            int64_t row = ic + ip, col = jc + jp;                                              \
                            int rows = mc - ip < NPX_GEMM_MR ? (int)(mc - ip) : NPX_GEMM_MR;                   \
                            int cols = nc - jp < nr ? (int)(nc - jp) : nr;                                     \
                            T *at = g->c + row * g->ldc + col;                                                 \
                            if (g->sym && col + nr <= row) /* wholly below the diagonal: mirrored */          \
                                continue;                                                                      \
                            if (g->a_direct)                                                                   \
                                npx_gemm_tile_direct_##s(kc, g->ta ? g->a + pc * g->lda + row : g->a + row * g->lda + pc, \
                                                         g->ta ? 1 : g->lda, g->ta ? g->lda : 1, g->bp + jp * kc, at, \
                                                         g->ldc, rows, cols, g->alpha, pc == 0);               \
                            else                                                                               \
                                npx_gemm_tile_##s(kc, ap + ip * kc, g->bp + jp * kc, at, g->ldc, rows, cols,   \
                                                  g->alpha, pc == 0);                                          \
                        }                                                                                      \
                }                                                                                              \
                if (parts > 1) {     /* B's next block goes where this one is */                              \
                    NPX_GEMM_BARRIER                                                                           \
                }                                                                                              \
            }                                                                                                  \
        }                                                                                                      \
        npx_free(ap);                                                                                          \
        for (int64_t i = 1 + part; g->sym && i < g->m; i += parts)                                            \
            npx_mirror_row_##s(g->c, i, g->ldc);                                                               \
    }                                                                                                          \
                                                                                                               \
    /* g's product, each thread a slice of its columns (whole panels) and all of op(a): where op(a) is one   \
     * block of rows, so that the threads share no packed block and wait for each other only at the end */    \
    static void npx_gemm_columns_##s(const npx_gemm_job_##s *g)                                                \
    {                                                                                                          \
        const int64_t nr = NPX_GEMM_NR_##s, panels = (g->n + nr - 1) / nr;                                     \
        NPX_GEMM_PARALLEL                                                                                      \
        {                                                                                                      \
            int64_t lo = panels * NPX_GEMM_PART / NPX_GEMM_PARTS * nr,                                         \
                    hi = panels * (NPX_GEMM_PART + 1) / NPX_GEMM_PARTS * nr;                                   \
            npx_gemm_job_##s mine = *g;                                                                        \
            mine.mcb = (g->m + NPX_GEMM_MR - 1) / NPX_GEMM_MR * NPX_GEMM_MR;                                   \
            mine.a_direct = true;            /* packing it would be each thread's copy of all of it */        \
            mine.n = (hi < g->n ? hi : g->n) - lo;                                                             \
            mine.b = g->tb ? g->b + lo * g->ldb : g->b + lo;                                                   \
            mine.c = g->c + lo;                                                                                \
            mine.bp = npx_gemm_b_block_##s(g->k, mine.n);                                                      \
            if (mine.n > 0)                                                                                    \
                npx_gemm_blocks_##s(&mine, 0, 1);                                                              \
            npx_free(mine.bp);                                                                                 \
        }                                                                                                      \
    }                                                                                                          \
                                                                                                               \
    /* g, a small product (one block of k): op(a) read where it lies, op(b) packed on the stack when it fits \
     * (packing op(a), or an allocation, costs more than such a product). The rows of c summed in memory    \
     * before, each step of a sum waiting on the one before: 2-3 GFLOP/s */                                \
    static void npx_gemm_small_##s(npx_gemm_job_##s *g)                                                       \
    {                                                                                                          \
        T room[NPX_GEMM_SMALL_ROOM];                                                                           \
        bool fits = g->k * (g->n + NPX_GEMM_NR_##s) <= NPX_GEMM_SMALL_ROOM;                                   \
        g->mcb = (g->m + NPX_GEMM_MR - 1) / NPX_GEMM_MR * NPX_GEMM_MR;                                         \
        g->a_direct = true;                                                                                    \
        g->bp = fits ? room : npx_gemm_b_block_##s(g->k, g->n);                                                \
        npx_gemm_blocks_##s(g, 0, 1);                                                                          \
        if (!fits)                                                                                             \
            npx_free(g->bp);                                                                                   \
    }                                                                                                          \
                                                                                                               \
    void npx_gemm_##s(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T *a, int64_t lda,     \
                      const T *b, int64_t ldb, T *c, int64_t ldc)                                              \
    {                                                                                                          \
        if (m == 0 || n == 0)                                                                                  \
            return;                                                                                            \
        if (k == 0) {                                                                                          \
            for (int64_t i = 0; i < m; i++)                                                                    \
                for (int64_t j = 0; j < n; j++)                                                                \
                    c[i * ldc + j] = 0;                                                                        \
            return;                                                                                            \
        }                                                                                                      \
        double madds = (double)m * (double)n * (double)k;                                                      \
        /* a small product runs on this thread: a parallel region costs more than its work */                  \
        bool shared = madds >= NPX_GEMM_PARALLEL_MIN;                                                          \
        /* A's blocks: a multiple of the threads in number, of whole tiles */                                  \
        int64_t threads = shared ? NPX_GEMM_THREADS : 1, blocks = (m + NPX_GEMM_MC - 1) / NPX_GEMM_MC;         \
        blocks = (blocks + threads - 1) / threads * threads;                                                   \
        int64_t mcb = ((m + blocks - 1) / blocks + NPX_GEMM_MR - 1) / NPX_GEMM_MR * NPX_GEMM_MR;               \
        /* op(a) op(a)^T: only the tiles on and above the diagonal */                                          \
        npx_gemm_job_##s g = { ta, tb, a == b && ta != tb && lda == ldb && m == n, m, n, k, lda, ldb, ldc, mcb,\
                               alpha, a, b, c, NULL, false };                                                  \
        if (k <= NPX_GEMM_KC && madds <= NPX_GEMM_SMALL) {                                                     \
            npx_gemm_small_##s(&g);                                                                            \
            return;                                                                                            \
        }                                                                                                      \
        if (shared && !g.sym && m <= NPX_GEMM_MC && n >= threads * NPX_GEMM_NR_##s) {                          \
            npx_gemm_columns_##s(&g);                                                                          \
            return;                                                                                            \
        }                                                                                                      \
        g.bp = npx_gemm_b_block_##s(k, n);                                                                     \
        if (shared) {                                                                                          \
            NPX_GEMM_PARALLEL                                                                                  \
            npx_gemm_blocks_##s(&g, NPX_GEMM_PART, NPX_GEMM_PARTS);                                            \
        } else {                                                                                               \
            npx_gemm_blocks_##s(&g, 0, 1);                                                                     \
        }                                                                                                      \
        npx_free(g.bp);                                                                                        \
    }

NPX_GEMM(float, f32)
NPX_GEMM(double, f64)
#undef NPX_GEMM
#undef NPX_GEMM_PARALLEL
#undef NPX_GEMM_PARALLEL_MIN
#undef NPX_GEMM_BARRIER
#undef NPX_GEMM_PART
#undef NPX_GEMM_PARTS
#undef NPX_GEMM_THREADS
#undef NPX_GEMM_MR
#undef NPX_GEMM_KC
#undef NPX_GEMM_MC
#undef NPX_GEMM_NC
#undef NPX_GEMM_SMALL
#undef NPX_GEMM_VBYTES
#undef NPX_GEMM_FUSED
#elif !defined(__CUDACC__)
#define NPX_GEMM_PLAIN(T, s)                                                                                   \
    void npx_gemm_##s(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T *a, int64_t lda,     \
                      const T *b, int64_t ldb, T *c, int64_t ldc)                                              \
    {                                                                                                          \
        for (int64_t i = 0; i < m; i++)                                                                       \
            for (int64_t j = 0; j < n; j++) {                                                                 \
                T acc = 0;                                                                                     \
                for (int64_t p = 0; p < k; p++)                                                               \
                    acc += (ta ? a[p * lda + i] : a[i * lda + p]) * (tb ? b[j * ldb + p] : b[p * ldb + j]);  \
                c[i * ldc + j] = alpha * acc;                                                                  \
            }                                                                                                  \
    }
NPX_GEMM_PLAIN(float, f32)
NPX_GEMM_PLAIN(double, f64)
#undef NPX_GEMM_PLAIN
#endif
