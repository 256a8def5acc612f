/* lower_nan.c: NumPy's functions that ignore NaN (numpy/lib/_nanfunctions_
 * impl.py), lowered as NumPy computes them: the NaNs replaced (0 for
 * nansum, nanmean and nanvar, 1 for nanprod), then the plain reduction;
 * nanmean divides by the count of non-NaN elements (in float64, rounded to
 * the array's dtype, as NumPy's _divide_by_count); nanvar and nanstd square
 * the deviations of the non-NaN elements only, and give NaN where fewer than
 * ddof + 1 are left; nanmax and nanmin are NumPy's fmax / fmin reduction
 * (NaN only where a slice is all NaN). Integer and bool arrays, which hold
 * no NaN, take the plain reduction. */
#include <math.h>
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

enum { NANSUM, NANPROD, NANMEAN, NANMAX, NANMIN, NANVAR, NANSTD };

static Ref number(Program *p, Span at, double v) { return build_literal(p, at, NPX_F64, 0, v, true); }

/* x with its NaNs replaced by v, and where they were */
static Ref replace_nan(Lower *L, Span at, Span sp, Ref x, double v, Ref *mask)
{
    Program *p = P(L);
    *mask = build_ufunc(p, at, sp, UF_isnan, &x, 1, false);
    return build_ufunc(p, at, sp, UF_where, (Ref[]){ *mask, number(p, at, v), x }, 3, false);
}

/* NumPy's _divide_by_count(a, b): a / b in the ufunc's dtype (float64 for a
 * float32 a and an int count), cast back to a's dtype */
static Ref divide_by_count(Lower *L, Span at, Span sp, Ref a, Ref count)
{
    Program *p = P(L);
    Ref q = lower_operator(L, AST_DIV, at, sp, a, count);
    return q && V(p, q)->dtype != V(p, a)->dtype ? build_cast(p, sp, q, V(p, a)->dtype) : q;
}

/* how many elements are not NaN, over axes (intp) */
static Ref count_kept(Lower *L, Span at, Span sp, Ref mask, uint32_t axes, bool keepdims)
{
    Program *p = P(L);
    Ref kept = build_cast(p, sp, lower_operator(L, AST_INVERT, at, sp, mask, 0), NPX_I64);
    return build_reduce(p, sp, RED_sum, kept, axes, keepdims);
}

/* nanvar's variance of the non-NaN elements over axes, ddof as NumPy's */
static Ref nan_variance(Lower *L, Span at, Span sp, Ref x, uint32_t axes, bool keepdims, Ref ddof)
{
    Program *p = P(L);
    Ref mask, arr = replace_nan(L, at, sp, x, 0, &mask);
    Ref cnt = count_kept(L, at, sp, mask, axes, true);
    Ref avg = divide_by_count(L, at, sp, build_reduce(p, sp, RED_sum, arr, axes, true), cnt);
    Ref dev = lower_operator(L, AST_SUB, at, sp, arr, avg);
    dev = build_ufunc(p, at, sp, UF_where, (Ref[]){ mask, number(p, at, 0), dev }, 3, false);
    Ref var = build_reduce(p, sp, RED_sum, lower_operator(L, AST_MUL, at, sp, dev, dev), axes, keepdims);
    Ref dof = lower_operator(L, AST_SUB, at, sp, count_kept(L, at, sp, mask, axes, keepdims), ddof);
    var = divide_by_count(L, at, sp, var, dof);
    Ref bad = lower_operator(L, AST_LE, at, sp, dof, build_literal(p, sp, NPX_I64, 0, 0, true));
    return build_ufunc(p, at, sp, UF_where, (Ref[]){ bad, number(p, at, NAN), var }, 3, false);
}

/* nansum, nanprod, nanmean, nanmax, nanmin (a, axis=None, keepdims=False),
 * nanvar and nanstd (a, axis=None, ddof=0, keepdims=False) */
Ref call_nan(Lower *L, Call *c, int which)
{
    static const char *const plain[] = { "a", "axis", "dtype", "out", "keepdims", NULL };
    static const char *const extreme[] = { "a", "axis", "out", "keepdims", NULL };
    static const char *const spread[] = { "a", "axis", "dtype", "out", "ddof", "keepdims", NULL };
    bool minmax = which == NANMAX || which == NANMIN, var = which == NANVAR || which == NANSTD;
    const Expr *a[6] = { NULL };
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    if (!lower_bind_args(L, c, minmax ? extreme : var ? spread : plain, 1, a))
        return 0;
    const Expr *keep = a[minmax ? 3 : var ? 5 : 4];
    bool keepdims = false;
    Ref ddof = var ? lower_ddof(L, a[4]) : 0;
    if ((!minmax && !lower_not_given(L, c, a[2], "dtype")) || !lower_not_given(L, c, a[minmax ? 2 : 3], "out") ||
        (var && !ddof) || (keep && !lower_bool_flag(L, keep, &keepdims)))
        return 0;
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0])), mask, r;
    uint32_t axes;
    if (!x || !lower_axes(L, a[1], V(p, x)->shape.ndim, &axes))
        return 0;
    if (!dtype_is_float(V(p, x)->dtype)) {        /* no NaN: the plain reduction */
        static const Reduction plain_red[] = { RED_sum, RED_prod, RED_mean, RED_max, RED_min };
        if (!var)
            return build_reduce(p, sp, plain_red[which], x, axes, keepdims);
        r = lower_variance(L, at, sp, x, axes, keepdims, ddof, 0);
        return which == NANSTD && r ? build_ufunc(p, at, sp, UF_sqrt, &r, 1, false) : r;
    }
    switch (which) {
    case NANSUM:
    case NANPROD: return build_reduce(p, sp, which == NANSUM ? RED_sum : RED_prod,
                                      replace_nan(L, at, sp, x, which == NANSUM ? 0 : 1, &mask), axes, keepdims);
    case NANMEAN:
        r = build_reduce(p, sp, RED_sum, replace_nan(L, at, sp, x, 0, &mask), axes, keepdims);
        return divide_by_count(L, at, sp, r, count_kept(L, at, sp, mask, axes, keepdims));
    case NANMAX:
    case NANMIN: {                                /* fmax.reduce: NaN only where all are NaN */
        bool max = which == NANMAX;
        r = build_reduce(p, sp, max ? RED_max : RED_min, replace_nan(L, at, sp, x, max ? -INFINITY : INFINITY, &mask),
                         axes, keepdims);
        Ref all_nan = build_reduce(p, sp, RED_all, mask, axes, keepdims);
        return build_ufunc(p, at, sp, UF_where, (Ref[]){ all_nan, number(p, at, NAN), r }, 3, false);
    }
    default:
        r = nan_variance(L, at, sp, x, axes, keepdims, ddof);
        return which == NANSTD && r ? build_ufunc(p, at, sp, UF_sqrt, &r, 1, false) : r;
    }
}
