/* emit_c.h: the C emitter's parts. */
#ifndef NPX_EMIT_C_H
#define NPX_EMIT_C_H
#include "emit.h"

#define NPXC_VERSION "0.1"

/* How a generated C file is built: npxc --exe runs $CC with these, and the
 * file's first comment shows them. Nothing generated reads errno or the
 * floating-point exception flags, so gcc may call libm's vector versions
 * (-fno-math-errno) and compute both sides of a select such as the clamp of
 * an exp (-fno-trapping-math: else it branches, and the loop stays scalar).
 * On x86, AVX-512 machines get 512-bit vectors, not the 256 of gcc's tuning
 * for Intel's: libmvec's calls take 16 floats, not 8 (docs/performance.md).
 * The flags are those of the machine npxc runs on, as -march=native is. */
#if defined(__x86_64__) || defined(__i386__)
#define NPX_C_VECTOR_WIDTH " -mprefer-vector-width=512"
#else
#define NPX_C_VECTOR_WIDTH ""
#endif
#define NPX_C_FLAGS "-std=c11 -O3 -march=native -fopenmp -fno-math-errno -fno-trapping-math" NPX_C_VECTOR_WIDTH

typedef struct Target Target;
void emit_program(FILE *out, Program *p, const Target *t);
/* emit_lib.c: --lib's function (after the tables) and its header */
void emit_lib_function(Emitter *e);
void emit_lib_header(FILE *out, Program *p, const char *file);
/* emit_loops.c: the code that computes one materialized value: its checks
 * and storage (products, arange and bincount, never in a row group, declare
 * theirs with their loops), then its loops; emit_value is both */
void emit_value(Emitter *e, Ref r, const IrStmt *st);
void emit_value_storage(Emitter *e, Ref r, const IrStmt *st);
void emit_value_loops(Emitter *e, Ref r, const IrStmt *st);
void emit_matmul_loops(Emitter *e, Ref r);
/* Does value r of row group g stream out of it a strip of a row at a time
 * (the target's open_strips inside the group's loop over rows)? */
bool emit_streams_row(Emitter *e, const RowGroup *g, Ref r);
/* Parallel loops (C): a construct over fewer than NPX_PARALLEL_MIN elements
 * (runtime/npx_rt.h) runs on the calling thread. Sizes that are numbers
 * decide it here; symbolic ones at run time, in the prologue's
 * NPX_IF_LARGE(elements, pragma, code), which holds the code twice.
 * emit_parallel_open writes what goes before the construct's code:
 * `pragma` (a prologue macro) for a large one, `small` (NULL: nothing) for
 * a small one; its elements are those of dims[0..n) times inner's (NULL:
 * none). emit_parallel_close closes the construct's outermost scope, "}"
 * (and the macro's ")"). */
/* the product of dims[0..n) that are numbers; *syms: how many are symbols */
double dims_known_size(const Dim *d, int n, int *syms);
void emit_parallel_open(Emitter *e, const char *pragma, const char *small, const Dim *dims, int n,
                        const Shape *inner);
void emit_parallel_close(Emitter *e);
/* the names of a nest's n indexes: i0, i1, ... */
const char **emit_index_vars(Emitter *e, int n);
/* The line that writes update r's element at its selection's indexes iv
 * (at: the variable that holds its array's position, or NULL) */
void emit_update_element(Emitter *e, Ref r, const char *const *iv, const char *at);

/* A matrix product's operand for BLAS (cuBLAS, CBLAS), for a product that
 * ir_gemm found to be GEMM calls. */
typedef struct {
    const Value *stored;         /* the buffer BLAS reads */
    bool transposed;             /* the operand is stored.T (each matrix of it) */
    const char *rows, *cols;     /* the operand's logical shape (each matrix's) */
    const char *offset;          /* where in stored it starts (a block of it: x[t]), or NULL */
    const char *stride;          /* elements from one matrix of the stack to the next;
                                    NULL: one matrix serves the whole stack */
} GemmOperand;
void gemm_operand(Emitter *e, Ref m, int side, const IrGemmOperand *g, GemmOperand *o);
/* The operand's first element: base (stored's pointer) moved by its offset. */
const char *gemm_start(Emitter *e, const char *base, const GemmOperand *o);

/* A reduction, as the targets see it (emit_loops.c). */
typedef struct {
    npx_dtype acc;               /* the accumulator's dtype */
    const char *init;
    const char *step;            /* folds elem into acc */
    const char *simd;            /* the pragma macro that vectorizes it, or NULL */
    const char *par;             /* the one that also shares it among threads, or NULL */
} ReduceCode;

typedef struct ReducePlan {
    ReduceCode code;
    Shape kept, reduced;         /* the operand's kept and reduced axes */
    const char **iv;             /* the index of each axis of the operand */
    const char *kept_iv[NPX_MAX_RANK], *red_iv[NPX_MAX_RANK];
    const char *count;           /* how many elements each result reduces */
    bool arg;                    /* argmax, argmin: the result is best, an index */
} ReducePlan;

void reduce_plan(Emitter *e, Ref r, ReducePlan *rp);
/* argmax, argmin (C): a run of elements shorter than this goes one by one,
 * a longer one in vectorized chunks (emit_loops.c) */
#define NPX_ARG_SHORT 16
/* argmax, argmin: whether elem should replace (acc, best), NumPy's rules
 * (the first of equal values; the first NaN wins). elem_at: elem's index
 * when elem may come before best (combining partial results), else NULL. */
const char *arg_better(Emitter *e, Reduction red, npx_dtype t, const char *elem, const char *elem_at);
const char *reduce_result(Emitter *e, Ref r, const ReducePlan *rp, const char *acc);
/* The statement (without its ;) that stores reduction r's final result at
 * index idx of its kept axes (their shape: kept): into r's buffer, or what
 * its reader (Value.finish) computes from it, into the reader's. */
const char *reduce_store(Emitter *e, Ref r, const Shape *kept, Idx idx, const char *result);
void emit_reduce_loops(Emitter *e, Ref r, const ReducePlan *rp);

#endif
