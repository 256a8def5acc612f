/* npx_rt.h: the runtime every generated program embeds. A generated program
 * describes its inputs and outputs in an npx_program and hands it to npx_main,
 * which parses the command line, reads the .npy inputs (or fills them with
 * --random), binds the size symbols, runs the computation, and writes the
 * outputs. This header and the runtime's .c files are plain C11; npxc pastes
 * them, in order, at the top of each generated file. */
#ifndef NPX_RT_H
#define NPX_RT_H
/* clock_gettime and CLOCK_MONOTONIC under plain -std=c11 (this header comes
 * first in a generated file, before any system header). */
#if !defined(_POSIX_C_SOURCE) && !defined(_GNU_SOURCE) && !defined(__cplusplus)
#define _POSIX_C_SOURCE 200809L
#endif
#if !defined(_DEFAULT_SOURCE) && !defined(__cplusplus)
#define _DEFAULT_SOURCE 1          /* madvise's MADV_HUGEPAGE (alloc.c) */
#endif
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A generated file defines NPX_EMBEDDED: the runtime pasted into it is then
 * the file's own (internal linkage), so that the compiler leaves out what the
 * program does not call (the sort, the GEMM: half the build time of a small
 * program) and several npxc libraries link into one program. npxc --lib also
 * defines NPX_LIB: run-time errors return to the caller instead of exiting. */
#ifdef NPX_EMBEDDED
#define NPX_RT static __attribute__((unused))
#else
#define NPX_RT
#endif

/* Exit statuses of a generated program (SPEC section 3). */
enum { NPX_EXIT_OK = 0, NPX_EXIT_USAGE = 2, NPX_EXIT_RUNTIME = 3, NPX_EXIT_CUDA = 4 };

/* A parallel loop of fewer than NPX_PARALLEL_MIN elements, counting the
 * loops inside it, runs on the calling thread: starting a parallel region
 * costs microseconds (the threads wake and meet; even alone, a system call),
 * more than such a loop's work. A matrix product of fewer than 4 times as
 * many multiply-adds likewise (gemm.c). npxc decides with this value where
 * a loop's size is a number; -DNPX_PARALLEL_MIN=0 shares every loop whose
 * size is a symbol, and every product. */
#ifndef NPX_PARALLEL_MIN
#define NPX_PARALLEL_MIN 32768
#endif

/* dtypes: X(enum, npx name, C type, .npy descr) */
#define NPX_DTYPES(X)                     \
    X(BOOL, "bool", bool, "|b1")          \
    X(I32, "i32", int32_t, "<i4")         \
    X(I64, "i64", int64_t, "<i8")         \
    X(F32, "f32", float, "<f4")           \
    X(F64, "f64", double, "<f8")

typedef enum {
#define X(e, name, ctype, descr) NPX_##e,
    NPX_DTYPES(X)
#undef X
    NPX_NDTYPES
} npx_dtype;

NPX_RT size_t npx_dtype_size(npx_dtype t);
NPX_RT const char *npx_dtype_name(npx_dtype t);

#define NPX_MAX_RANK 8

/* An array in C order. data is owned by whoever allocated it (see npx_program.run). */
typedef struct {
    npx_dtype dtype;
    int ndim;
    int64_t shape[NPX_MAX_RANK];
    void *data;
} npx_array;

NPX_RT int64_t npx_array_size(const npx_array *a);   /* product of the shape, 1 for 0-d */
NPX_RT double npx_array_get(const npx_array *a, int64_t i);   /* element i (C order) as a double */

/* One declared input: `input x: f32[B, 784]`. For each axis, dim_sym[k] is the
 * index of its size symbol in npx_program.syms, or -1 when the size is the
 * literal dim[k]. */
typedef struct {
    const char *name;
    npx_dtype dtype;
    int ndim;
    int dim_sym[NPX_MAX_RANK];
    int64_t dim[NPX_MAX_RANK];
    int line;                      /* declaration line in the .npx file */
} npx_input_desc;

typedef struct npx_state npx_state;

typedef struct {
    const char *source;            /* "grad.npx", for messages */
    int nsyms;
    const char *const *syms;       /* size symbol names: "B", "V" */
    int ninputs;
    const npx_input_desc *inputs;
    int noutputs;
    const char *const *outputs;    /* output names, in declaration order */
    /* The computation. Reads st->in[] and st->sym[], sets every st->out[j] to
     * an array whose data it allocated with npx_alloc (the runtime frees it).
     * Reports run-time errors with npx_runtime_error. */
    void (*run)(npx_state *st);
} npx_program;

struct npx_state {
    const npx_program *prog;
    int64_t sym[64];               /* size symbol values, bound before run */
    npx_array *in;                 /* ninputs, read-only for run */
    npx_array *out;                /* noutputs, set by run */
    const char *trace_dir;         /* --trace DIR, or NULL */
    void *trace;                   /* runtime's trace bookkeeping */
    /* Set by a run that times itself (CUDA: events): its device work, and
     * its copies to and from the device, in seconds. --bench uses them. */
    bool device_timed;
    double device_s, h2d_s, d2h_s;
    /* --bench N's timed run, for a run that can replay its computation (CUDA:
     * a graph): replays is N, replay_s has room for N times; the run sets
     * replayed when it did replay. */
    int64_t replays;
    double *replay_s;
    bool replayed;
    /* Library mode: a run-time error returns here (longjmp) instead of
     * exiting; failed is set by one found inside a parallel loop. */
    jmp_buf *on_error;
    int failed;
};

/* lib.c, for npxc --lib: one run of prog on the caller's arrays. sym holds
 * the size symbols' values, in[j] input j's data (C order; a scalar's
 * address); out gets the outputs (data from npx_alloc, the caller's to
 * free). name is the library function's, for messages. Returns 0,
 * NPX_EXIT_USAGE for a negative size, or NPX_EXIT_RUNTIME after a run-time
 * error (reported on stderr; out then holds nothing). */
NPX_RT int npx_lib_run(const npx_program *prog, const char *name, const int64_t *sym, const void *const *in,
                       npx_array *out);
/* During npx_lib_run, npx_alloc and npx_free report each block here, so
 * that a run stopped by an error frees what it held. */
NPX_RT void npx_lib_hold(void *p);
NPX_RT void npx_lib_release(void *p);

/* The whole program: parse argv, load inputs, run, write outputs. Returns the
 * exit status. */
NPX_RT int npx_main(int argc, char **argv, const npx_program *prog);

/* Allocation for run(): never returns NULL (reports and exits 3 instead).
 * npx_alloc's memory is aligned to a cache line; npx_alloc_zero gives zeroed
 * memory. nbytes may be 0. npx_alloc_keep, once at the start, keeps freed
 * memory in the process for the next allocation (see alloc.c).
 * NPX_FRESH tells the compiler that no other pointer reaches a new block
 * (as for malloc), and keeps it from inlining the allocation: inlined, the
 * block's address going into --lib's list of held blocks (npx_lib_hold)
 * made every array look reachable from any other, and loops that call a
 * vector math function over them (exp in softmax) stopped vectorizing, 6x
 * slower. */
#if defined(__GNUC__)
#define NPX_FRESH __attribute__((malloc, noinline))
#else
#define NPX_FRESH
#endif
NPX_RT void *npx_alloc(size_t nbytes) NPX_FRESH;
NPX_RT void *npx_alloc_zero(size_t nbytes) NPX_FRESH;
NPX_RT void npx_free(void *p);
NPX_RT void npx_alloc_keep(void);

/* store.c: a loop writes an array a strip of NPX_STRIP elements at a time
 * when the array may be large: computed into a small buffer, then copied out
 * by npx_store, with streaming (non-temporal) stores when the whole array,
 * array_bytes, is at least NPX_STREAM_BYTES. Each thread that stored calls
 * npx_store_fence before anyone reads the array. A strip of 256 (1 KB of
 * float32) made transcend 8% faster than one of 64, arith 2.5%. */
#define NPX_STRIP 256
#define NPX_STREAM_BYTES ((size_t)4 << 20)
NPX_RT void npx_store(void *dst, const void *strip, size_t bytes, size_t array_bytes);
NPX_RT void npx_store_fence(void);

/* A loop nest whose element reads an array across its rows (X.T * 2.0)
 * runs in tiles of NPX_TILE x NPX_TILE elements over the two axes concerned,
 * so that each cache line it reads is used whole while it is in the cache
 * (4096 x 4096 float64 on two cores: 73 -> 19 ms; tiles of 16: 21, of 64: 25).
 * A CUDA kernel likewise gives a block a tile at a time: NPX_TILES(n) of
 * them along an axis of n. */
#define NPX_TILE 32
#define NPX_TILES(n) (((n) + NPX_TILE - 1) / NPX_TILE)

/* A whole array's any or all looks whether an earlier chunk of NPX_DECIDE
 * elements has decided it before each chunk (a flag the threads share), so
 * that one True stops any, one False stops all. */
#define NPX_DECIDE 4096

/* Where the block of size elements (a strip, a tile) that starts at start
 * ends, in an axis of n. */
#define NPX_BLOCK_END(start, n, size) ((n) - (start) < (size) ? (n) : (start) + (size))

/* A BLAS leading dimension: the row length, but at least 1 (BLAS refuses 0
 * even when the matrix is empty). */
NPX_RT int npx_blas_ld(int64_t row_length);

/* gemm.c: c = alpha * op(a) op(b), row-major, op a transpose when ta (tb);
 * m x n results of k products each (gcc and clang only). */
NPX_RT void npx_gemm_f32(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                         const float *b, int64_t ldb, float *c, int64_t ldc);
NPX_RT void npx_gemm_f64(bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const double *a, int64_t lda,
                         const double *b, int64_t ldb, double *c, int64_t ldc);
/* gemm.c: the lower triangle of n x n c (rows ldc apart) copied from the
 * upper one, after BLAS's syrk */
NPX_RT void npx_mirror_upper_f32(float *c, int64_t n, int64_t ldc);
NPX_RT void npx_mirror_upper_f64(double *c, int64_t n, int64_t ldc);
/* sort.c: np.sort (npx_sort_T: the values) and np.argsort (npx_argsort_T:
 * where each came from) of every lane of x, an array of shape (outer, n,
 * inner) sorted along its middle axis, into out of the same shape. */
#define NPX_SORT_DECL(s, T)                                                                  \
    NPX_RT void npx_sort_##s(const T *x, T *out, int64_t outer, int64_t n, int64_t inner); \
    NPX_RT void npx_argsort_##s(const T *x, int64_t *out, int64_t outer, int64_t n, int64_t inner);
NPX_SORT_DECL(bool, bool)
NPX_SORT_DECL(i32, int32_t)
NPX_SORT_DECL(i64, int64_t)
NPX_SORT_DECL(f32, float)
NPX_SORT_DECL(f64, double)
#undef NPX_SORT_DECL
/* compress.c: x[mask], mask over x's first axes (n elements; x has n rows
 * of inner elements): the rows where mask is True, in order, in *out (from
 * npx_alloc); returns how many. */
#define NPX_COMPRESS_DECL(s, T) \
    NPX_RT int64_t npx_compress_##s(const bool *mask, const T *x, int64_t outer, int64_t n, int64_t inner, T **out);
NPX_COMPRESS_DECL(bool, bool)
NPX_COMPRESS_DECL(i32, int32_t)
NPX_COMPRESS_DECL(i64, int64_t)
NPX_COMPRESS_DECL(f32, float)
NPX_COMPRESS_DECL(f64, double)
#undef NPX_COMPRESS_DECL
/* count * size, exiting 3 with a message naming what if it overflows size_t. */
NPX_RT size_t npx_bytes(int64_t count, size_t size, const char *what);

/* Output j of the computation. owned: data came from npx_alloc and now
 * belongs to the runtime; otherwise (an input, a 0-d local) it is copied. */
NPX_RT void npx_set_output(npx_state *st, int j, npx_dtype dtype, int ndim, const int64_t *shape, void *data,
                           bool owned);

/* A run-time error in the computation: prints
 *   PROG: error: SOURCE:LINE: MESSAGE
 * to stderr and exits 3. Nothing has been written yet at that point. In a
 * library run (st->on_error) it returns to npx_lib_run instead; called by a
 * thread of a parallel loop, which cannot jump out of it, it marks the run
 * failed and returns (the first such error alone is printed). */
#ifdef NPX_LIB
NPX_RT void npx_runtime_error(const npx_state *st, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#else
NPX_RT void npx_runtime_error(const npx_state *st, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
#endif

/* --trace: write one named value. Called after every statement that binds a
 * name (and once per input before the first statement). The first value of a
 * name goes to DIR/NAME.npy, the next to DIR/NAME.2.npy, ...; each call also
 * appends "FILE<TAB>LINE<TAB>SOURCE TEXT" to DIR/trace.txt. No-op when
 * st->trace_dir is NULL. */
NPX_RT void npx_trace(npx_state *st, const char *name, int line, const char *text,
                      npx_dtype dtype, int ndim, const int64_t *shape, const void *data);

/* .npy I/O, shared with npxcmp. npx_npy_read returns 0 on success, or fills
 * err (a sentence naming the problem, without the file name) and returns -1. */
NPX_RT int npx_npy_read(const char *path, npx_array *out, char *err, size_t errlen);
/* Writes via PATH.tmp + rename; 0 or -1 with err filled. */
NPX_RT int npx_npy_write(const char *path, const npx_array *a, char *err, size_t errlen);
/* Prints an array the way NumPy's repr would, approximately (--print). */
NPX_RT void npx_array_print(FILE *out, const char *name, const npx_array *a);

/* --random SEED: the documented generator (docs/random.md). Element i (C order)
 * of input number k (0-based, declaration order) is derived from
 *   r = npx_mix64(npx_mix64(seed ^ ((k + 1) * 0xD1B54A32D192ED03)) + i)
 * where npx_mix64 is SplitMix64's step (z += 0x9E3779B97F4A7C15; then the
 * two xor-shift-multiplies by 0xBF58476D1CE4E5B9 and 0x94D049BB133111EB with
 * shifts 30, 27, 31). f32: (r >> 40) * 2^-24; f64: (r >> 11) * 2^-53;
 * i32 and i64: r % 1000; bool: r >> 63. */
NPX_RT uint64_t npx_mix64(uint64_t z);
NPX_RT void npx_random_fill(npx_array *a, uint64_t seed, int input_index);

/* ---- Runtime internals: shared between the runtime .c files, not for
 * generated code. */

/* The program name in messages ("PROG: error: ..."), set by npx_main from
 * argv[0]. The runtime's only global: npx_alloc and npx_bytes report errors
 * without a state to read it from. */
#ifdef NPX_EMBEDDED
static const char *npx_prog_name = "npx";
#else
extern const char *npx_prog_name;
#endif
/* Prints "PROG: error: MESSAGE" and a newline to stderr. */
NPX_RT void npx_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
NPX_RT const char *npx_dtype_numpy_name(npx_dtype t);        /* "float32" */
/* Size in bytes of ndim dims of itemsize bytes, or -1 if a dim is negative or
 * the size passes SIZE_MAX or INT64_MAX. */
NPX_RT int64_t npx_shape_bytes(int ndim, const int64_t *shape, size_t itemsize);
/* "(2, 3)" as NumPy prints a shape; buf of at least 24 * ndim + 4 bytes. */
NPX_RT char *npx_shape_str(char *buf, size_t len, int ndim, const int64_t *shape);

/* Files: mkdir -p; DIR/NAME in a malloc'd string (NULL when out of memory). */
NPX_RT int npx_mkdirs(const char *dir, char *err, size_t errlen);
NPX_RT char *npx_path_join(const char *dir, const char *name);
/* Writes the .npy file at path itself, no temporary; removes it on failure. */
NPX_RT int npx_npy_write_direct(const char *path, const npx_array *a, char *err, size_t errlen);

/* NAME=NUMBER for a scalar input: parses text as dtype t into *out (the
 * dtype's C type). 0, or -1 with err filled ("'1.5' is not an integer"). */
NPX_RT int npx_parse_scalar(const char *text, npx_dtype t, void *out, char *err, size_t errlen);

/* The command line, parsed (args.c). */
typedef struct {
    const char **value;            /* per input: the text after NAME=, or NULL */
    bool random;                   /* --random SEED */
    uint64_t seed;
    int64_t dim[64];               /* --dim SYM=N, per size symbol */
    bool dim_set[64];
    const char *out_dir;           /* -o DIR, default "." */
    bool print;                    /* --print */
    int64_t bench;                 /* --bench N, 0 when absent */
    const char *trace_dir;         /* --trace DIR, or NULL */
    bool help;                     /* --help */
} npx_opts;

/* Fills o (allocating o->value, freed by npx_opts_free). 0, or -1 after
 * printing the error. */
NPX_RT int npx_args_parse(int argc, char **argv, const npx_program *p, npx_opts *o);
NPX_RT void npx_opts_free(npx_opts *o);
NPX_RT void npx_usage(FILE *out, const npx_program *p);
/* An input's declared type, "f32[B, 3]" ("f64" for a scalar), into buf. */
NPX_RT char *npx_input_type_str(const npx_program *p, int k, char *buf, size_t len);

/* Reads, checks and binds every input (inputs.c): fills st->in and
 * st->sym. 0, or -1 after printing the error. */
NPX_RT int npx_inputs_load(npx_state *st, const npx_opts *o);
NPX_RT void npx_inputs_free(npx_state *st);

/* --bench: seconds on CLOCK_MONOTONIC; min and median of n samples. */
NPX_RT double npx_time_now(void);
NPX_RT void npx_bench_stats(double *samples, int64_t n, double *min, double *median);

/* --trace: create DIR and trace.txt (0, or -1 after printing the error), and
 * release the bookkeeping. */
NPX_RT int npx_trace_open(npx_state *st);
NPX_RT void npx_trace_close(npx_state *st);

#endif
