/* lower.h: state shared by lower.c (statements) and lower_expr.c (expressions). */
#ifndef NPX_LOWER_H
#define NPX_LOWER_H
#include "../parser/ast.h"
#include "build.h"

typedef enum {
    BIND_VALUE,     /* an input or an assigned name: value, version */
    BIND_CONST,     /* const K = 1000: ival */
    BIND_SYM,       /* a size symbol from an input declaration: sym */
} BindKind;

typedef struct {
    const char *name;            /* interned */
    BindKind kind;
    Ref value;                   /* 0 after an error in its statement: uses stay quiet */
    int version;
    int64_t ival;
    int sym;
    Span first;                  /* where it was first declared */
} Binding;

typedef struct {
    Program *p;
    Binding *bind;
    int nbind, capbind;
    Span *output_spans;
    int capspans;
} Lower;

Binding *lower_find(Lower *L, const char *name);
Ref lower_expr(Lower *L, const Expr *e);
Ref lower_operator(Lower *L, AstOp op, Span at, Span span, Ref a, Ref b);
/* A compile-time integer: literals, consts and + - * // of them. */
bool lower_const_int(Lower *L, const Expr *e, int64_t *out);

#endif
