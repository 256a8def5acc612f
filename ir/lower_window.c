/* lower_window.c: slices whose bounds are computed when the program runs,
 * x[b*BS:(b+1)*BS], x[i:i+3], x[lo:lo+K] with lo = b*K: windows (ir.h,
 * AxisIndex.from). A shape is known before the program runs (and is the same
 * in every iteration of a loop), so the length, stop minus start, must not
 * depend on a loop's counter: npxc finds it by writing both bounds, as
 * lowered, as sums of constants times counters and size symbols. The host
 * computes the start; the window must lie inside its axis, checked when the
 * program runs (where NumPy would return a shorter slice, or wrap a negative
 * start around, npxc stops). */
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

/* Integer value r as an Affine: false when it is something else (a product
 * of two symbols, a division, an array, a value the computation makes). */
static bool affine(const Program *p, Ref r, Affine *out)
{
    const Value *v = &p->vals[r];
    Affine x, y;
    memset(out, 0, sizeof *out);
    if (!dtype_is_int(v->dtype) || v->shape.ndim != 0)
        return false;
    switch (v->kind) {
    case IR_LITERAL: out->c = v->ival; return true;
    case IR_DIMVAL:
        if (v->dims.ndim != 1)
            return false;
        if (!DIM_IS_SYM(v->dims.d[0]))
            out->c = v->dims.d[0];
        return !DIM_IS_SYM(v->dims.d[0]) || add_term(out, DIM_SYMNO(v->dims.d[0]), 1);
    case IR_UFUNC:
        if (v->ufunc == UF_negative || v->ufunc == UF_positive)
            return affine(p, v->args[0], &x) && add_scaled(out, &x, v->ufunc == UF_negative ? -1 : 1);
        if (v->nargs != 2 || !affine(p, v->args[0], &x) || !affine(p, v->args[1], &y))
            return false;
        if (v->ufunc == UF_add || v->ufunc == UF_subtract)
            return add_scaled(out, &x, 1) && add_scaled(out, &y, v->ufunc == UF_add ? 1 : -1);
        if (v->ufunc == UF_multiply && (x.n == 0 || y.n == 0))
            return x.n == 0 ? add_scaled(out, &y, x.c) : add_scaled(out, &x, y.c);
        return false;
    default: return false;
    }
}

/* The window's length, stop - start: a number or one size symbol, the
 * same in every iteration. */
static bool window_length(Lower *L, const Expr *slice, const Affine *start, const Affine *stop, Dim *len)
{
    Program *p = L->p;
    Affine d = *stop;
    int size = -1;
    if (!add_scaled(&d, start, -1))
        return false;
    for (int i = 0; i < d.n; i++) {
        const char *name = p->syms[d.sym[i]].name;
        if (d.k[i] != 0 && p->syms[d.sym[i]].kind == SYM_LOOP) {
            diag_error(p->diag, slice->span, "the length of this slice changes with the loop's counter '%s'; a "
                                             "shape is the same in every iteration: x[%s*BS:(%s+1)*BS]",
                       name, name, name);
            return false;
        }
        if (d.k[i] != 0 && (size >= 0 || d.k[i] != 1 || d.c != 0)) {
            diag_error(p->diag, slice->span, "a slice whose bounds are computed when the program runs must be "
                                             "as long as a number or a size symbol; not supported yet");
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
            diag_error(p->diag, slice->step->span, "a slice whose bounds are computed when the program runs takes "
                                                   "every element (step 1) in this version; not supported yet");
        return false;
    }
    const Expr *from = slice->lhs && slice->lhs->kind != EXPR_NONE ? slice->lhs : NULL;
    const Expr *to = slice->rhs && slice->rhs->kind != EXPR_NONE ? slice->rhs : NULL;
    if (!from || !to) {
        diag_error(p->diag, slice->span, "the length of this slice would change with its bound; a shape is known "
                                         "before the program runs: give both bounds, x[b*BS:(b+1)*BS]");
        return false;
    }
    Ref first = lower_expr(L, from), last = lower_expr(L, to);
    if (!first || !last)
        return false;
    Affine start, stop;
    if (!affine(p, first, &start) || !affine(p, last, &stop)) {
        diag_error(p->diag, slice->span, "a slice's bounds, where they are not integer constants, are made of "
                                         "loop counters, size symbols and integer constants with + - and * by "
                                         "a constant; not supported yet");
        return false;
    }
    Dim len;
    if (!window_length(L, slice, &start, &stop, &len))
        return false;
    *out = (AxisIndex){ false, NPX_NO_BOUND, NPX_NO_BOUND, 1, first, len };
    return true;
}
