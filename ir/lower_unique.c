/* lower_unique.c: np.unique(ar, return_index=False, return_inverse=False,
 * return_counts=False, axis=None, equal_nan=True), as NumPy's _unique1d
 * (numpy/lib/_arraysetops_impl.py) finds its parts: the flattened array
 * sorted (stable, NaN last), each element kept where it differs from the
 * one before it (the first always; all NaNs as one unless equal_nan=False).
 * The values and the first positions are the sorted elements and their
 * places kept; a sorted element's number among the values is the count of
 * kept elements up to it: an element of x has that of the first sorted
 * element equal to it (a bisection), and the counts are those of the
 * numbers (a bincount as long as the values). */
#include "lower.h"

static Ref int_literal(Program *p, Span span, int64_t v)
{
    return build_literal(p, span, NPX_I64, v, (double)v, true);
}

static Ref op(Lower *L, AstOp o, Span at, Span sp, Ref a, Ref b) { return lower_operator(L, o, at, sp, a, b); }

/* Where sorted s starts a new value: s[i] != s[i - 1] (the earlier element
 * read through a take of max(i - 1, 0), so that every length, 0 too, needs
 * no case), NaNs as one value when equal_nan, i == 0 always. */
static Ref first_of_each(Lower *L, Span at, Span sp, Ref s, Ref i, bool equal_nan)
{
    Program *p = L->p;
    Ref before = build_ufunc(p, at, sp, UF_maximum, (Ref[]){ op(L, AST_SUB, at, sp, i, int_literal(p, sp, 1)),
                                                              int_literal(p, sp, 0) }, 2, false);
    Ref prev = build_take_within(p, at, sp, s, &before, 1, 0);
    Ref keep = op(L, AST_NE, at, sp, s, prev);
    if (keep && equal_nan && dtype_is_float(V(p, s)->dtype)) {
        Ref both_nan = op(L, AST_BITAND, at, sp, build_ufunc(p, at, sp, UF_isnan, &s, 1, false),
                          build_ufunc(p, at, sp, UF_isnan, &prev, 1, false));
        keep = op(L, AST_BITAND, at, sp, keep, lower_operator(L, AST_INVERT, at, sp, both_nan, 0));
    }
    return op(L, AST_BITOR, at, sp, op(L, AST_EQ, at, sp, i, int_literal(p, sp, 0)), keep);
}

int lower_unique(Lower *L, Call *c, Ref parts[4])
{
    static const char *const params[] = { "ar", "return_index", "return_inverse", "return_counts", "axis",
                                           "equal_nan", "sorted", NULL };
    const Expr *a[7];
    Program *p = L->p;
    bool wants[4] = { true, false, false, false }, equal_nan = true, sorted = true;
    if (!lower_bind_args(L, c, params, 1, a) || (a[5] && !lower_bool_flag(L, a[5], &equal_nan)) ||
        (a[6] && !lower_bool_flag(L, a[6], &sorted)))
        return 0;
    for (int k = 1; k <= 3; k++)
        if (a[k] && !lower_bool_flag(L, a[k], &wants[k]))
            return 0;
    if (a[4] && a[4]->kind != EXPR_NONE) {
        diag_error(p->diag, a[4]->span, "unique(): 'axis=' is not supported yet");
        return 0;
    }
    if (wants[2] && !equal_nan) {
        diag_error(p->diag, a[2]->span, "unique(): 'return_inverse=' with equal_nan=False is not supported yet");
        return 0;
    }
    Span at = c->call->at, sp = c->call->span;
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0])), flat = x ? lower_flatten(L, at, sp, x) : 0;
    if (!flat)
        return 0;
    Dim n = V(p, flat)->shape.d[0];
    Ref s = build_sort(p, sp, flat, 0, false), i = build_arange(p, sp, NPX_I64, 0, 1, n);
    Ref keep = first_of_each(L, at, sp, s, i, equal_nan);
    if (!keep)
        return 0;
    int got = 0;
    parts[got++] = build_compress(p, at, sp, s, keep, 0, 0);
    if (wants[1])                                /* the sort is stable: each value's first place */
        parts[got++] = build_compress(p, at, sp, build_sort(p, sp, flat, 0, true), keep, 0, 0);
    /* each sorted element's number among the values */
    Ref numbers = wants[2] || wants[3] ? op(L, AST_SUB, at, sp, build_cumulative(p, sp, RED_sum, keep, 0, NPX_I64),
                                            int_literal(p, sp, 1))
                                       : 0;
    if (wants[2]) {                              /* in x's shape, as NumPy 2 gives it */
        Ref first = build_search(p, at, sp, s, x, false);
        parts[got++] = build_take_within(p, at, sp, numbers, &first, 1, 0);
    }
    if (wants[3] && parts[0])                    /* as many as the values */
        parts[got++] = build_bin_counts(p, sp, numbers, 0, V(p, parts[0])->shape.d[0]);
    for (int k = 0; k < got; k++)
        if (!parts[k])
            return 0;
    return got;
}

Ref call_unique(Lower *L, Call *c, int unused)
{
    (void)unused;
    Ref parts[4];
    return lower_unique(L, c, parts) ? parts[0] : 0;
}
