/* emit.h: a printf-style, self-indenting writer of generated code, shared by
 * the emitters, and the C expressions for values (cexpr.c). */
#ifndef NPX_EMIT_H
#define NPX_EMIT_H
#include <stdio.h>
#include "../ir/ir.h"

typedef struct {
    FILE *out;
    int indent;
    Program *p;
} Emitter;

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
const char *cx_define(Emitter *e, Ref r, Idx idx);                /* compute r, in its dtype */
bool cx_define_is_flat(Emitter *e, Ref r);          /* may cx_define(r) use idx NULL? */
const char *cx_dims(Emitter *e, const Dim *d, int n);      /* "B * 784", "1" when n == 0 */
const char *cx_flat(Emitter *e, const Shape *s, Idx idx);  /* "i0 * V + i1" */
const char *cx_convert(Emitter *e, const char *x, npx_dtype from, npx_dtype to);
const char *cx_literal(Emitter *e, double f, int64_t i, bool is_float, npx_dtype to);
const char *cx_dim(Emitter *e, Dim d);
bool cx_is_flat(Emitter *e, Ref r, const Shape *s);         /* may r be read with idx NULL? */
const char *dtype_suffix(npx_dtype t);                      /* "f32" */

#endif
