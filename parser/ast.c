/* ast.c: the syntax tree's constructors, the operator tables expanded from
 * AST_OPS, and ast_dump, the one-line-per-statement print used by --dump-ast
 * and the tests. */
#include "ast.h"
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const ast_op_text[] = {
#define X(e, text, ufunc) text,
    AST_OPS(X)
#undef X
    "",
};

const char *const ast_op_ufunc[] = {
#define X(e, text, ufunc) ufunc,
    AST_OPS(X)
#undef X
    "",
};

Expr *ast_expr(Arena *a, ExprKind kind, Span span)
{
    Expr *e = arena_alloc(a, sizeof *e);
    e->kind = kind;
    e->span = e->at = span;
    e->op = AST_NOP;
    return e;
}

void ast_push(Arena *a, ExprList *l, Expr *e)
{
    l->v = arena_grow(a, l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = e;
}

void ast_push_kwarg(Arena *a, KwargList *l, Kwarg kw)
{
    l->v = arena_grow(a, l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = kw;
}

void ast_push_stmt(Arena *a, AstProgram *p, Stmt *s)
{
    p->v = arena_grow(a, p->v, &p->cap, p->n + 1, sizeof *p->v);
    p->v[p->n++] = s;
}

/* ---- dump ------------------------------------------------------------------ */

static void dump_expr(FILE *out, const Expr *e);

/* The shortest text that reads back as the same double, as Python's repr
 * writes it: 1.0, 0.001, 25000.0, 1e-05, 1e+20. */
static void dump_float(FILE *out, double v)
{
    char buf[400];
    bool sci = v != 0 && (fabs(v) >= 1e16 || fabs(v) < 1e-4);
    if (isinf(v) || isnan(v)) {
        fputs(isnan(v) ? "nan" : "inf", out);
        return;
    }
    /* %g needs at most 17 digits; %f at most 4 zeros more after the point */
    for (int prec = 1; prec <= 21; prec++) {
        snprintf(buf, sizeof buf, sci ? "%.*g" : "%.*f", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    fputs(buf, out);
}

static void dump_list(FILE *out, const ExprList *l)
{
    for (int i = 0; i < l->n; i++) {
        if (i)
            fputs(", ", out);
        dump_expr(out, l->v[i]);
    }
}

static void dump_call(FILE *out, const Expr *e)
{
    dump_expr(out, e->obj);
    fputc('(', out);
    dump_list(out, &e->args);
    for (int i = 0; i < e->kwargs.n; i++) {
        fprintf(out, "%s%s=", i || e->args.n ? ", " : "", e->kwargs.v[i].name);
        dump_expr(out, e->kwargs.v[i].value);
    }
    fputc(')', out);
}

static void dump_opt(FILE *out, const Expr *e)
{
    if (e)
        dump_expr(out, e);
}

static void dump_expr(FILE *out, const Expr *e)
{
    switch (e->kind) {
    case EXPR_INT: fprintf(out, "%" PRId64, e->ival); break;
    case EXPR_FLOAT: dump_float(out, e->fval); break;
    case EXPR_BOOL: fputs(e->ival ? "True" : "False", out); break;
    case EXPR_NONE: fputs("None", out); break;
    case EXPR_ELLIPSIS: fputs("...", out); break;
    case EXPR_STRING: fprintf(out, "'%s'", e->name); break;
    case EXPR_NAME: fprintf(out, "%s%s", e->np_prefix ? "np." : "", e->name); break;
    case EXPR_ATTR:
        dump_expr(out, e->obj);
        fprintf(out, ".%s", e->name);
        break;
    case EXPR_CALL: dump_call(out, e); break;
    case EXPR_UNARY:
        fprintf(out, "(%s", ast_op_text[e->op]);
        dump_expr(out, e->lhs);
        fputc(')', out);
        break;
    case EXPR_BINARY:
        fputc('(', out);
        dump_expr(out, e->lhs);
        fprintf(out, " %s ", ast_op_text[e->op]);
        dump_expr(out, e->rhs);
        fputc(')', out);
        break;
    case EXPR_INDEX:
        dump_expr(out, e->obj);
        fputc('[', out);
        dump_list(out, &e->args);
        fputc(']', out);
        break;
    case EXPR_SLICE:
        dump_opt(out, e->lhs);
        fputc(':', out);
        dump_opt(out, e->rhs);
        fputc(':', out);
        dump_opt(out, e->step);
        break;
    case EXPR_TUPLE:
        fputc('(', out);
        dump_list(out, &e->args);
        fputs(e->args.n == 1 ? ",)" : ")", out);
        break;
    case EXPR_LIST:
        fputc('[', out);
        dump_list(out, &e->args);
        fputc(']', out);
        break;
    }
}

static void dump_stmts(FILE *out, const AstProgram *p, int depth);

static void dump_stmt(FILE *out, const Stmt *s, int depth)
{
    fprintf(out, "%*s", 4 * depth, "");
    switch (s->kind) {
    case STMT_INPUT:
        fprintf(out, "input %s: %s", s->name, s->dtype);
        if (s->dims.n) {
            fputc('[', out);
            dump_list(out, &s->dims);
            fputc(']', out);
        }
        break;
    case STMT_CONST:
        fprintf(out, "const %s = ", s->name);
        dump_expr(out, s->value);
        break;
    case STMT_OUTPUT:
        fputs("output", out);
        for (int i = 0; i < s->nnames; i++)
            fprintf(out, "%s %s", i ? "," : "", s->names[i]);
        break;
    case STMT_ASSIGN:
        if (s->ufunc_at)
            fprintf(out, "np.%s.at %s ", s->ufunc_at, s->name);
        else
        {
            fputs("assign", out);
            for (int i = 0; i < s->nnames; i++)
                fprintf(out, "%s %s", i ? "," : "", s->names[i]);
            fprintf(out, " %s= ", ast_op_text[s->op]);
        }
        dump_expr(out, s->value);
        break;
    case STMT_FOR:
        fprintf(out, "for %s in ", s->name);
        dump_expr(out, s->value);
        fputs(":\n", out);
        dump_stmts(out, &s->body, depth + 1);
        return;
    }
    fputc('\n', out);
}

static void dump_stmts(FILE *out, const AstProgram *p, int depth)
{
    for (int i = 0; i < p->n; i++)
        dump_stmt(out, p->v[i], depth);
}

void ast_dump(FILE *out, const AstProgram *p) { dump_stmts(out, p, 0); }
