/* emit_c.h: the C emitter's parts. */
#ifndef NPX_EMIT_C_H
#define NPX_EMIT_C_H
#include "emit.h"

#define NPXC_VERSION "0.1"

typedef struct Target Target;
void emit_program(FILE *out, Program *p, const Target *t);
/* emit_loops.c: the code that computes one materialized value */
void emit_value(Emitter *e, Ref r, const IrStmt *st);
void emit_matmul_loops(Emitter *e, Ref r);

#endif
