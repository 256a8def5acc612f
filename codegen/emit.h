/* emit.h: a printf-style, self-indenting writer of generated code, shared by
 * the emitters, and the C expressions for values (cexpr.c). */
#ifndef NPX_EMIT_H
#define NPX_EMIT_H
#include <stdio.h>
#include "../ir/ir.h"

typedef struct Target Target;

typedef struct {
    FILE *out;                   /* where lines go now */
    int indent;
    Program *p;
    const Target *t;
    void *target_state;          /* the target's own bookkeeping (CUDA: its kernels) */
    int nest_depth;              /* scopes the open loop nest must close */
    bool in_rows;                /* inside a row group's loop over i0 (ir.h: RowGroup) */
    uint32_t parallel_wraps;     /* a bit per open parallel construct (C), the innermost lowest:
                                    set when it is inside NPX_IF_LARGE( ... ), which its close ends */
    bool on_host;                /* code the host runs (a loop's range): scalars computed again from
                                    numbers, sizes and the host's copies of 0-d inputs, also where
                                    the computation stores them in device buffers (CUDA) */
    const IrStmt *stmt;          /* the statement being emitted */
    bool before_loop;            /* declaring the buffers a loop's iterations share (Value.hoist):
                                    allocated here, only zeroed (when asked) at their statements */
    Ref finishing;               /* a reduction whose result, final, is the expression `finished`
                                    where its reader (Value.finish) reads it (reduce_store) */
    const char *finished;
    /* The free variables of the code emitted since emit_uses_reset: the values
     * and size symbols it reads (a CUDA kernel's parameters). */
    Ref used_vals[64];
    int nused_vals;
    int used_syms[64];
    int nused_syms;
} Emitter;

void emit_uses_reset(Emitter *e);
void emit_use_value(Emitter *e, Ref r);
void emit_use_sym(Emitter *e, int sym);

void emit_line(Emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A line ending in " {", then one level deeper. */
void emit_open(Emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One level out and "}", with a comment when one is given. */
void emit_close(Emitter *e, const char *comment);
void emit_blank(Emitter *e);
void emit_block(Emitter *e);   /* a bare "{" that opens a scope */

/* ---- cexpr.c: C expressions ---- */
/* Index expressions for each axis of a value; NULL means "the flat index i"
 * (every array the expression reads has this value's shape). */
typedef const char *const *Idx;
const char *cx_value(Emitter *e, Ref r, Idx idx, npx_dtype to);   /* read r, as dtype to */
const char *cx_define(Emitter *e, Ref r, Idx idx);
/* An int64 the host knows (sizes, counters, numbers, 0-d inputs' host
 * copies), computed again where it is read, host or kernel, never read from
 * where it is stored (device memory): a range's bound, a window's start. */
const char *cx_host_int(Emitter *e, Ref r);                /* compute r on the host, as int64 */
/* A Python number (weak: sizes, counters, literals and what the program
 * computes from them) whose computation may fail: a division by 0, an int
 * past int64's range, or one that int32 cannot hold where NumPy converts it
 * (python_template; a checked CAST). cx_python_number computes r on the host. */
bool cx_python_may_fail(const Program *p, Ref r);
const char *cx_python_number(Emitter *e, Ref r);
/* emit_program.c: is Python number r computed, checked, before its
 * statement's loops? Then they compute it unchecked. */
bool emit_python_checked(const Program *p, Ref r);
const char *cx_arange(Emitter *e, const Value *v, const char *i);   /* arange's element i */
const char *cx_load(Emitter *e, Ref r, const char *flat);          /* element flat of stored r */
/* element idx of stored r, where s is its shape (or, for a reduction, its
 * kept axes): a row-local value's is in its row buffer */
const char *cx_element(Emitter *e, Ref r, const Shape *s, Idx idx);
bool cx_define_is_flat(Emitter *e, Ref r);          /* may cx_define(r) use idx NULL? */
const char *cx_dims(Emitter *e, const Dim *d, int n);      /* "B * 784", "1" when n == 0 */
const char *cx_flat(Emitter *e, const Shape *s, Idx idx);  /* "i0 * V + i1" */
const char *cx_convert(Emitter *e, const char *x, npx_dtype from, npx_dtype to);
const char *cx_literal(Emitter *e, double f, int64_t i, bool is_float, npx_dtype to);
const char *cx_dim(Emitter *e, Dim d);
const char *cx_paren(Emitter *e, const char *s);               /* s in brackets unless it is one term */
bool cx_is_flat(Emitter *e, Ref r, const Shape *s);         /* may r be read with idx NULL? */
/* The indexes of an operand of shape os read by a value of shape s at idx:
 * broadcasting aligns the last axes, a size-1 axis is read at 0. */
Idx cx_broadcast_idx(Emitter *e, const Shape *s, Idx idx, const Shape *os);
/* the index in an array of shape s of element idx of its selection sel (IR_INDEX, IR_UPDATE) */
Idx cx_selected(Emitter *e, const Shape *s, const AxisIndex *sel, Idx idx);
/* the same, with the position an array of positions names already in
 * variable `at` (NULL: computed here) */
Idx cx_selected_at(Emitter *e, const Shape *s, const AxisIndex *sel, Idx idx, const char *at);
/* take v's i-th array of positions at index `at` of their broadcast shape
 * `where`, checked and wrapped: npx_take(st, LINE, i[..], N, AXIS) */
const char *cx_position(Emitter *e, const Value *v, int i, const Shape *where, Idx at);
/* update r's position along the axis its array of positions indexes, at the
 * selection's indexes idx (npx_take(...), checked as read); NULL if none */
const char *cx_scatter_position(Emitter *e, Ref r, Idx idx);
/* update r's positions at the selection's indexes idx as one place among
 * all those its arrays of positions can name, *places of them: x[p] = v,
 * p's position; x[p, q] = v, p's * x's length along q's axis + q's */
const char *cx_scatter_place(Emitter *e, Ref r, Idx idx, const char **places);
/* update r of np.add.at: the statement that combines the value at idx into
 * its element elem (add, subtract or multiply) */
const char *cx_ufunc_at(Emitter *e, Ref r, const char *elem, Idx idx);
/* Where block view r (ir_contiguous_block) starts in its operand's buffer,
 * in elements, as the host computes it. */
const char *cx_block_offset(Emitter *e, Ref r);

#endif
