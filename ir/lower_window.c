/* lower_window.c: slices whose bounds move with a loop's counter,
 * x[b*BS:(b+1)*BS] and x[i:i+3]: windows (ir.h, AxisIndex.from). A shape
 * cannot change from one iteration to the next, so the length, stop minus
 * start, must not depend on the counter: npxc finds it by writing both
 * bounds as sums of constants times counters and size symbols. The window
 * must lie inside its axis, checked when the program runs (NumPy would
 * return a shorter slice, or wrap a negative start around). */
#include <string.h>
#include "lower.h"

enum { MAX_TERMS = 8 };

/* c + sum of k[i] * sym[i]: counters and size symbols */
typedef struct {
    int64_t c;
    int n;
    int sym[MAX_TERMS];
    int64_t k[MAX_TERMS];
} Affine;

static bool add_term(Affine *a, int sym, int64_t k)
{
    for (int i = 0; i < a->n; i++)
        if (a->sym[i] == sym)
            return !__builtin_add_overflow(a->k[i], k, &a->k[i]);
    if (a->n == MAX_TERMS)
        return false;
    a->sym[a->n] = sym;
    a->k[a->n++] = k;
    return true;
}

/* a += f * b */
static bool add_scaled(Affine *a, const Affine *b, int64_t f)
{
    int64_t t;
    if (__builtin_mul_overflow(b->c, f, &t) || __builtin_add_overflow(a->c, t, &a->c))
        return false;
    for (int i = 0; i < b->n; i++)
        if (__builtin_mul_overflow(b->k[i], f, &t) || !add_term(a, b->sym[i], t))
            return false;
    return true;
}

/* e as an Affine: false when it is something else (a product of two
 * symbols, a division, an array). */
static bool affine(Lower *L, const Expr *e, Affine *out)
{
    Affine x, y;
    memset(out, 0, sizeof *out);
    if (lower_is_const_int(L, e))
        return lower_const_int(L, e, &out->c);
    switch (e->kind) {
    case EXPR_NAME: {
        Binding *b = e->np_prefix ? NULL : lower_find(L, e->name);
        return b && b->kind == BIND_SYM && add_term(out, b->sym, 1);
    }
    case EXPR_UNARY:
        return (e->op == AST_NEG || e->op == AST_POS) && affine(L, e->lhs, &x) &&
               add_scaled(out, &x, e->op == AST_NEG ? -1 : 1);
    case EXPR_BINARY:
        if (!affine(L, e->lhs, &x) || !affine(L, e->rhs, &y))
            return false;
        if (e->op == AST_ADD || e->op == AST_SUB)
            return add_scaled(out, &x, 1) && add_scaled(out, &y, e->op == AST_ADD ? 1 : -1);
        if (e->op == AST_MUL && (x.n == 0 || y.n == 0))
            return x.n == 0 ? add_scaled(out, &y, x.c) : add_scaled(out, &x, y.c);
        return false;
    default: return false;
    }
}

static bool is_counter(const Program *p, int sym) { return p->syms[sym].kind == SYM_LOOP; }

bool lower_mentions_counter(Lower *L, const Expr *e)
{
    if (!e)
        return false;
    if (e->kind == EXPR_NAME && !e->np_prefix) {
        Binding *b = lower_lookup(L, e->name);
        return b && b->kind == BIND_SYM && is_counter(L->p, b->sym);
    }
    if (e->kind == EXPR_UNARY || e->kind == EXPR_BINARY)
        return lower_mentions_counter(L, e->lhs) || (e->kind == EXPR_BINARY && lower_mentions_counter(L, e->rhs));
    return false;
}

/* The window's length, stop - start: a number or one size symbol. */
static bool window_length(Lower *L, const Expr *slice, const Affine *start, const Affine *stop, Dim *len)
{
    Program *p = L->p;
    Affine d = *stop;
    if (!add_scaled(&d, start, -1))
        return false;
    int size = -1;
    for (int i = 0; i < d.n; i++) {
        if (d.k[i] != 0 && is_counter(p, d.sym[i])) {
            diag_error(p->diag, slice->span, "the length of this slice changes with the loop's counter '%s'; a "
                                             "shape is the same in every iteration: x[%s*BS:(%s+1)*BS]",
                       p->syms[d.sym[i]].name, p->syms[d.sym[i]].name, p->syms[d.sym[i]].name);
            return false;
        }
        if (d.k[i] != 0 && (size >= 0 || d.k[i] != 1 || d.c != 0)) {
            diag_error(p->diag, slice->span, "a slice that moves with a loop's counter must be as long as a "
                                             "number or a size symbol; not supported yet");
            return false;
        }
        if (d.k[i] != 0)
            size = d.sym[i];
    }
    *len = size >= 0 ? DIM_SYM(size) : d.c > 0 ? d.c : 0;
    return true;
}

bool lower_window(Lower *L, const Expr *slice, AxisIndex *out)
{
    Program *p = L->p;
    int64_t step = 1;
    if (slice->step && slice->step->kind != EXPR_NONE && (!lower_const_int(L, slice->step, &step) || step != 1)) {
        if (step != 1)
            diag_error(p->diag, slice->step->span, "a slice that moves with a loop's counter takes every element "
                                                   "(step 1) in this version; not supported yet");
        return false;
    }
    const Expr *from = slice->lhs && slice->lhs->kind != EXPR_NONE ? slice->lhs : NULL;
    const Expr *to = slice->rhs && slice->rhs->kind != EXPR_NONE ? slice->rhs : NULL;
    Affine start, stop;
    int errors = p->diag->errors;
    if (!from || !to) {
        diag_error(p->diag, slice->span, "the length of this slice changes with the loop's counter; a shape is the "
                                         "same in every iteration: give both bounds, x[b*BS:(b+1)*BS]");
        return false;
    }
    if (!affine(L, from, &start) || !affine(L, to, &stop)) {
        if (p->diag->errors == errors)
            diag_error(p->diag, slice->span, "a slice that moves with a loop's counter needs bounds made of the "
                                             "counter, size symbols and integer constants with + - and * by a "
                                             "constant; not supported yet");
        return false;
    }
    Dim len;
    if (!window_length(L, slice, &start, &stop, &len))
        return false;
    Ref first = lower_expr(L, from);
    if (!first)
        return false;
    *out = (AxisIndex){ false, NPX_NO_BOUND, NPX_NO_BOUND, 1, first, len };
    return true;
}
