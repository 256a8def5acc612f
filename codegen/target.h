/* target.h: where the C and CUDA programs differ, as one small table of hooks.
 * The statement walker (emit_program.c) and the loops of each kind of value
 * (emit_loops.c) are shared; they call these for storage, parallel loops,
 * data movement and the operations a target does its own way. */
#ifndef NPX_TARGET_H
#define NPX_TARGET_H
#include "emit.h"

typedef struct ReducePlan ReducePlan;

struct Target {
    const char *name;                          /* "c", "cuda" */
    bool scalar_locals;                        /* 0-d values are host locals (else 1-element buffers) */
    bool simd_minmax;                          /* loops vectorize max/min with a NaN flag, any/all as ints */
    void (*prologue)(Emitter *e);              /* runtime text, macros */
    void (*begin_run)(Emitter *e);             /* first lines of npx_run */
    void (*input)(Emitter *e, const Value *v); /* make input v readable by the computation */
    void (*declare)(Emitter *e, const Value *v, bool zeroed);
    /* A parallel loop nest over dims[0..n) with index names iv (n may be 0: one
     * iteration); what is emitted between open and close is its body, and
     * inner (NULL: none) the sizes of the loops that body runs inside it (a
     * reduction's reduced axes), which the C target counts in the nest's work. */
    void (*open_nest)(Emitter *e, const char *what, const Dim *dims, const char *const *iv, int n,
                      const Shape *inner);
    /* Loops over dims[0..n) in tiles over axes k and n - 1, for an element
     * that reads an array across its rows (X.T): on the C target n + 2
     * loops, the outermost shared by the threads with pragma par when the
     * nest is large, the innermost under simd (NULL: none); on the CUDA
     * target a kernel computing value `what`, a block a tile. NULL: the
     * target does not tile. */
    void (*open_tiles)(Emitter *e, const char *what, const Dim *dims, const char *const *iv, int n, int k,
                       const char *par, const char *simd);
    /* The same over all elements of dims[0..n), with one flat index, i. */
    void (*open_flat)(Emitter *e, const char *what, const Dim *dims, int n);
    void (*close_nest)(Emitter *e);
    /* The flat loop that computes v, when v may be large: a strip of it at a
     * time, into strip[i - i0], stored after each strip; in a row group, row
     * i0 of matrix v, into strip[i1 - j0] (emit_streams_row). NULL:
     * open_flat, and rows are written where they are stored. */
    void (*open_strips)(Emitter *e, const Value *v);
    void (*close_strips)(Emitter *e, const Value *v);
    /* A row group's loop over its rows, i0, with the row buffers of its
     * row-local values (C); row_value_done comes after the code of each value
     * for row i0 (C: copies a row-local row to its whole buffer under
     * --trace; CUDA: a barrier, as the next value may read any element of
     * it). block_rows: a row's elements are shared by the threads of a
     * block (CUDA), not looped over by one thread. */
    void (*open_rows)(Emitter *e, const RowGroup *g);
    void (*row_value_done)(Emitter *e, const Value *v);
    void (*close_rows)(Emitter *e, const RowGroup *g);
    bool block_rows;
    void (*matmul)(Emitter *e, Ref r);         /* NULL: the shared loops */
    /* a reduction, its storage declared; NULL: the shared loops */
    void (*reduce)(Emitter *e, Ref r, const ReducePlan *rp);
    /* a cumsum or cumprod, its storage declared; NULL or false: the shared
     * loops, a running total a lane */
    bool (*cumsum)(Emitter *e, Ref r);
    void (*bincount)(Emitter *e, Ref r, const IrStmt *st);
    /* an update through positions that may repeat (x[p] = v, np.add.at), x's
     * copy made; NULL or false: the shared loop, which writes the positions
     * in order */
    bool (*scatter)(Emitter *e, Ref r);
    /* --trace and the outputs: the runtime's call that takes a value's data
     * (npx_trace, npx_set_output; npx_dev_* copy it from the device first),
     * and the C expression of that data */
    const char *trace_fn, *output_fn;
    const char *array_fns;                     /* the prefix of the runtime's functions over whole
                                                  arrays: PREFIX_sort_f32, PREFIX_compress_f32 */
    const char *(*data)(Emitter *e, const Value *v);
    void (*free)(Emitter *e, const Value *v);
    void (*end_compute)(Emitter *e);           /* after the last statement, before the outputs */
    void (*end_run)(Emitter *e);
    void (*epilogue)(Emitter *e);              /* after npx_run: kernels, tables, main */
};

extern const Target target_c, target_cuda;

/* Shared by the targets (emit_program.c). */
const char *emit_shape_list(Emitter *e, const Shape *s);   /* "B, 784" ("0" for 0-d) */
const char *emit_c_string(Emitter *e, const char *s);      /* escaped for a "..." literal */
void emit_tables(Emitter *e);                              /* npx_inputs, npx_prog, main */

#endif
