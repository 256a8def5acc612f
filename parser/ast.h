/* ast.h: the syntax tree of a .npx file, as the parser builds it. Nothing is
 * checked here beyond syntax; names, dtypes and shapes are the IR's business.
 * Every node carries its source span. */
#ifndef NPX_AST_H
#define NPX_AST_H
#include <stdbool.h>
#include <stdint.h>
#include "../common/arena.h"
#include "../common/diag.h"

/* Operators: X(enum, source text, NumPy ufunc it means). Binary and unary share
 * one list; the ufunc name is how the IR looks the operation up. */
#define AST_OPS(X)                                  \
    X(ADD, "+", "add")                              \
    X(SUB, "-", "subtract")                         \
    X(MUL, "*", "multiply")                         \
    X(DIV, "/", "true_divide")                      \
    X(FLOORDIV, "//", "floor_divide")               \
    X(MOD, "%", "remainder")                        \
    X(POW, "**", "power")                           \
    X(MATMUL, "@", "matmul")                        \
    X(LSHIFT, "<<", "left_shift")                   \
    X(RSHIFT, ">>", "right_shift")                  \
    X(BITAND, "&", "bitwise_and")                   \
    X(BITOR, "|", "bitwise_or")                     \
    X(BITXOR, "^", "bitwise_xor")                   \
    X(LT, "<", "less")                              \
    X(LE, "<=", "less_equal")                       \
    X(GT, ">", "greater")                           \
    X(GE, ">=", "greater_equal")                    \
    X(EQ, "==", "equal")                            \
    X(NE, "!=", "not_equal")                        \
    X(NEG, "-", "negative")        /* unary */      \
    X(POS, "+", "positive")        /* unary */      \
    X(INVERT, "~", "invert")       /* unary */

typedef enum {
#define X(e, text, ufunc) AST_##e,
    AST_OPS(X)
#undef X
    AST_NOP                      /* "no operator": plain '=' */
} AstOp;

extern const char *const ast_op_text[];   /* indexed by AstOp */
extern const char *const ast_op_ufunc[];  /* indexed by AstOp */

typedef struct Expr Expr;
typedef struct { Expr **v; int n, cap; } ExprList;
typedef struct { const char *name; Span name_span; Expr *value; } Kwarg;
typedef struct { Kwarg *v; int n, cap; } KwargList;

typedef enum {
    EXPR_INT,       /* ival: 42 (always >= 0; '-' is a unary NEG) */
    EXPR_FLOAT,     /* fval: 1.5, .5, 1e-3, np.pi (name "pi"), np.inf, np.nan */
    EXPR_BOOL,      /* ival: True or False */
    EXPR_STRING,    /* name: the text between the quotes, einsum's 'ij,jk->ik' */
    EXPR_NONE,      /* None (a new axis inside [ ]) */
    EXPR_ELLIPSIS,  /* ... */
    EXPR_NAME,      /* name; np_prefix is set for np.NAME / numpy.NAME, which the
                       parser folds into one NAME (np.exp -> NAME "exp") */
    EXPR_ATTR,      /* obj.name: x.T, x.shape, x.sum (the callee of a method call) */
    EXPR_CALL,      /* obj(args, kwargs): callee is obj (a NAME or an ATTR) */
    EXPR_UNARY,     /* op lhs: -x, +x, ~x */
    EXPR_BINARY,    /* lhs op rhs, arithmetic, bitwise, @, and comparisons */
    EXPR_INDEX,     /* obj[args]: each arg an index, a SLICE, NONE or ELLIPSIS */
    EXPR_SLICE,     /* lhs:rhs:step, any of the three may be NULL */
    EXPR_TUPLE,     /* (a, b) or a bare a, b where Python allows it; args */
    EXPR_LIST,      /* [a, b]; args */
} ExprKind;

struct Expr {
    ExprKind kind;
    Span span;                   /* the whole expression */
    Span at;                     /* where a caret points: the operator of a BINARY/UNARY,
                                    the callee name of a CALL, the name of an ATTR;
                                    equal to span for the other kinds */
    int64_t ival;                /* INT, BOOL */
    double fval;                 /* FLOAT */
    const char *name;            /* NAME, ATTR, STRING (interned) */
    bool np_prefix;              /* NAME: written as np.NAME or numpy.NAME */
    AstOp op;                    /* UNARY, BINARY */
    Expr *obj;                   /* ATTR, CALL (callee), INDEX */
    Expr *lhs, *rhs, *step;      /* UNARY (lhs), BINARY (lhs, rhs), SLICE (lhs:rhs:step) */
    ExprList args;               /* CALL positional args, INDEX items, TUPLE, LIST */
    KwargList kwargs;            /* CALL keyword args */
    bool parenthesized;          /* written inside ( ) */
};

typedef enum {
    STMT_INPUT,     /* input name: dtype[dims]; dims empty (ndims 0) for a scalar */
    STMT_CONST,     /* const name = value */
    STMT_OUTPUT,    /* output names... */
    STMT_ASSIGN,    /* name = value, or name op= value (op != AST_NOP) */
    STMT_FOR,       /* for name in value: body (value is the range(...) call) */
} StmtKind;

typedef struct Stmt Stmt;
typedef struct {
    Stmt **v;
    int n, cap;
} AstProgram;                    /* the file's statements, or a loop's body */

struct Stmt {
    StmtKind kind;
    Span span;                   /* the whole statement (for "# line: text" comments) */
    const char *name;            /* INPUT, CONST, ASSIGN target, FOR's counter (interned) */
    Span name_span;
    Expr *target;                /* ASSIGN to name[index] (x[m] = 0): the subscript; else NULL */
    const char *dtype;           /* INPUT: the dtype as written ("f32", "float32", "np.float32"
                                    is given as "float32"), interned */
    Span dtype_span;
    ExprList dims;               /* INPUT: each an INT or a NAME (size symbol or const) */
    Expr *value;                 /* CONST, ASSIGN, FOR */
    AstOp op;                    /* ASSIGN: AST_NOP for '=', AST_ADD for '+=', ... */
    Span op_span;                /* ASSIGN: the '=' or 'op=' token (np.add.at: the callee) */
    const char *ufunc_at;        /* ASSIGN written np.UFUNC.at(x, idx, v): the ufunc's name, "add";
                                    x[idx] = UFUNC(x[idx], v) with each repeated position applied
                                    again (op is its operator, '+', or AST_NOP: maximum) */
    const char **names;          /* OUTPUT; ASSIGN: its targets (a, b = ...), or &name */
    Span *name_spans;            /* OUTPUT, ASSIGN */
    int nnames;                  /* OUTPUT, ASSIGN (1 but for an unpacking) */
    bool unpacks;                /* ASSIGN: names = value, Python's unpacking ([a] = x too) */
    AstProgram body;             /* FOR: the lines indented under it */
};

/* Parse a whole file. Syntax errors go to d (all of them, each located); the
 * statements that parsed are returned all the same. Never exits. */
AstProgram *parse_program(Arena *a, Diag *d);

/* Constructors used by the parser (ast.c). */
Expr *ast_expr(Arena *a, ExprKind kind, Span span);
void ast_push(Arena *a, ExprList *l, Expr *e);
void ast_push_kwarg(Arena *a, KwargList *l, Kwarg kw);
void ast_push_stmt(Arena *a, AstProgram *p, Stmt *s);

/* Print the tree, one statement a line, fully parenthesized (--dump-ast, tests). */
void ast_dump(FILE *out, const AstProgram *p);

#endif
