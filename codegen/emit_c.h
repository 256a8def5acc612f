/* emit_c.h: the C emitter's parts. */
#ifndef NPX_EMIT_C_H
#define NPX_EMIT_C_H
#include "emit.h"

#define NPXC_VERSION "0.1"

void emit_c_program(FILE *out, Program *p);
/* emit_loops.c: the code that computes one materialized value */
void emit_value(Emitter *e, Ref r, const IrStmt *st);

#endif
