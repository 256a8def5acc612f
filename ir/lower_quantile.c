/* lower_quantile.c: median, quantile and percentile, as NumPy computes
 * them: the array sorted along the axis (NaN last), then the one or two
 * elements around the position q * (n - 1), which the host computes from the
 * axis's length. median is the mean of the middle two (NumPy's mean of the
 * partitioned middle); quantile is NumPy's linear interpolation, written as
 * its _lerp is (from the nearer end: b - (b - a) * (1 - t) when t >= 0.5),
 * with t a Python float, so a float32 array gives float32 (an integer q,
 * 0 or 1, takes the element, as NumPy does), at NumPy's
 * position of each of its methods (those of Hyndman and Fan, and lower,
 * higher, midpoint, nearest). A NaN along the axis makes the result NaN, as
 * NumPy checks the sorted axis's last element. */
#include <string.h>
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

/* ... which NumPy spells: 0 median, 1 quantile, 100 percentile */
enum { MEDIAN = 0, QUANTILE = 1, PERCENTILE = 100 };

static Ref i64(Program *p, Span at, int64_t v) { return build_literal(p, at, NPX_I64, v, (double)v, true); }

/* sorted[..., position, ...] along axis k (position a host int) */
static Ref element(Lower *L, Span at, Ref sorted, Ref position, int k)
{
    return build_take(P(L), at, at, sorted, &position, 1, k);
}

/* q of quantile (or percentile / 100): a Python number in [0, 1] */
static Ref fraction(Lower *L, const Expr *e, int which)
{
    Program *p = P(L);
    Ref q = lower_expr(L, e);
    if (!q)
        return 0;
    const Value *v = V(p, q);
    if (!v->weak || v->dtype == NPX_BOOL) {
        diag_error(p->diag, e->span, "%s: a q that is not a Python number (an array, a NumPy scalar) is not supported yet",
                   which == PERCENTILE ? "percentile" : "quantile");
        return 0;
    }
    if (v->kind != IR_LITERAL) {
        diag_error(p->diag, e->span, "%s: a q computed when the program runs is not supported yet",
                   which == PERCENTILE ? "percentile" : "quantile");
        return 0;
    }
    double f = dtype_is_float(v->dtype) ? v->fval : (double)v->ival;
    if (!(f >= 0 && f <= which)) {
        diag_error(p->diag, e->span, which == PERCENTILE ? "Percentiles must be in the range [0, 100]"
                                                         : "Quantiles must be in the range [0, 1]");
        return 0;
    }
    return which == PERCENTILE ? lower_operator(L, AST_DIV, e->span, e->span, q, i64(p, e->span, 100)) : q;
}

/* NumPy's _lerp(a, b, t) */
static Ref lerp(Lower *L, Span at, Ref a, Ref b, Ref t)
{
    Program *p = P(L);
    Ref diff = lower_operator(L, AST_SUB, at, at, b, a);
    Ref up = lower_operator(L, AST_ADD, at, at, a, lower_operator(L, AST_MUL, at, at, diff, t));
    Ref rest = lower_operator(L, AST_SUB, at, at, build_literal(p, at, NPX_F64, 0, 1.0, true), t);
    Ref down = lower_operator(L, AST_SUB, at, at, b, lower_operator(L, AST_MUL, at, at, diff, rest));
    Ref near_b = lower_operator(L, AST_GE, at, at, t, build_literal(p, at, NPX_F64, 0, 0.5, true));
    return build_ufunc(p, at, at, UF_where, (Ref[]){ near_b, down, up }, 3, false);
}

/* quantile's method=: NumPy's, in its order */
enum {
    INVERTED_CDF, AVERAGED_INVERTED_CDF, CLOSEST_OBSERVATION, INTERPOLATED_INVERTED_CDF, HAZEN, WEIBULL, LINEAR,
    MEDIAN_UNBIASED, NORMAL_UNBIASED, LOWER, HIGHER, MIDPOINT, NEAREST
};
static const char *const methods[] = { "inverted_cdf", "averaged_inverted_cdf", "closest_observation",
                                       "interpolated_inverted_cdf", "hazen", "weibull", "linear",
                                       "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint",
                                       "nearest", NULL };

/* The method e names (LINEAR when not given), or -1, reported. */
static int quantile_method(Lower *L, Call *c, const Expr *e)
{
    if (!e)
        return LINEAR;
    if (e->kind != EXPR_STRING)
        return lower_not_given(L, c, e, "method") ? LINEAR : -1;   /* (reports) */
    int m = lower_choice(e, methods);
    if (!methods[m]) {
        diag_error(P(L)->diag, e->span, "'%s' is not a valid method. Use one of: dict_keys(['inverted_cdf', "
                   "'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', 'hazen', "
                   "'weibull', 'linear', 'median_unbiased', 'normal_unbiased', 'lower', 'higher', 'midpoint', "
                   "'nearest'])", e->name);
        return -1;
    }
    return m;
}

/* NumPy's virtual index of the methods that interpolate and of inverted_cdf
 * and closest_observation, in its order of operations (float64, on the
 * host): linear (n - 1) q; n q - 1 (- 0.5); else Hyndman and Fan's
 * n q + (alpha + q (1 - alpha - beta)) - 1. */
static Ref virtual_index(Lower *L, Span at, Ref n, Ref last, Ref q, int method)
{
    Program *p = P(L);
    if (method == LINEAR)
        return lower_operator(L, AST_MUL, at, at, last, q);
    Ref nq = lower_operator(L, AST_MUL, at, at, n, q);
    if (method <= CLOSEST_OBSERVATION) {
        Ref v = lower_operator(L, AST_SUB, at, at, nq, i64(p, at, 1));
        return method == CLOSEST_OBSERVATION
                   ? lower_operator(L, AST_SUB, at, at, v, build_literal(p, at, NPX_F64, 0, 0.5, true))
                   : v;
    }
    static const double alpha[] = { [INTERPOLATED_INVERTED_CDF] = 0, [HAZEN] = 0.5, [WEIBULL] = 0,
                                    [MEDIAN_UNBIASED] = 1 / 3.0, [NORMAL_UNBIASED] = 3 / 8.0 };
    static const double beta[] = { [INTERPOLATED_INVERTED_CDF] = 1, [HAZEN] = 0.5, [WEIBULL] = 0,
                                   [MEDIAN_UNBIASED] = 1 / 3.0, [NORMAL_UNBIASED] = 3 / 8.0 };
    double a = alpha[method], rest = 1 - a - beta[method];
    Ref shift = lower_operator(L, AST_ADD, at, at, build_literal(p, at, NPX_F64, 0, a, true),
                               lower_operator(L, AST_MUL, at, at, q, build_literal(p, at, NPX_F64, 0, rest, true)));
    return lower_operator(L, AST_SUB, at, at, lower_operator(L, AST_ADD, at, at, nq, shift), i64(p, at, 1));
}

/* inverted_cdf and closest_observation: the element at floor(v) where v is
 * whole (for closest_observation, and floor(v) odd), else at the next, and
 * at 0 from below (NumPy's _discrete_interpolation_to_boundaries) */
static Ref boundary(Lower *L, Span at, Ref sorted, Ref v, int k, int method)
{
    Program *p = P(L);
    Ref prev = build_ufunc(p, at, at, UF_floor, &v, 1, false);
    Ref on = lower_operator(L, AST_EQ, at, at, lower_operator(L, AST_SUB, at, at, v, prev), i64(p, at, 0));
    if (method == CLOSEST_OBSERVATION)
        on = lower_operator(L, AST_BITAND, at, at, on,
                            lower_operator(L, AST_EQ, at, at, lower_operator(L, AST_MOD, at, at, prev, i64(p, at, 2)),
                                           i64(p, at, 1)));
    Ref next = lower_operator(L, AST_ADD, at, at, prev, i64(p, at, 1));
    Ref pos = build_cast(p, at, build_ufunc(p, at, at, UF_where, (Ref[]){ on, prev, next }, 3, false), NPX_I64);
    return element(L, at, sorted, build_ufunc(p, at, at, UF_maximum, (Ref[]){ pos, i64(p, at, 0) }, 2, false), k);
}

/* The methods that read the sorted elements at floor(v) or ceil(v) of the
 * position v = q (n - 1): lower, higher, nearest (v rounded half to even,
 * as np.around rounds it), each in the array's dtype; midpoint, halfway
 * between the two (NumPy's _lerp with gamma 0.5, or 0 where v is whole). */
static Ref discrete(Lower *L, Span at, Ref sorted, Ref v, int k, int method, bool weak)
{
    Program *p = P(L);
    Ufunc round = method == LOWER || method == MIDPOINT ? UF_floor : method == HIGHER ? UF_ceil : UF_rint;
    Ref lo = build_cast(p, at, build_ufunc(p, at, at, round, &v, 1, false), NPX_I64);
    if (method != MIDPOINT)
        return element(L, at, sorted, lo, k);
    Ref hi = build_cast(p, at, build_ufunc(p, at, at, UF_ceil, &v, 1, false), NPX_I64);
    Ref t = lower_operator(L, AST_MUL, at, at, lower_operator(L, AST_SUB, at, at, hi, lo),
                           build_literal(p, at, NPX_F64, 0, 0.5, true));
    if (t)
        V(p, t)->weak = weak;                     /* NumPy's float(gamma) */
    return lerp(L, at, element(L, at, sorted, lo, k), element(L, at, sorted, hi, k), t);
}

/* The quantile q (a float64 the host knows) of axis k of sorted, n long, by
 * method. weak: q is a Python number, and so is NumPy's gamma then (float32
 * stays float32); one of a list of q's makes an array of gammas (float64). */
static Ref quantile_at(Lower *L, Span at, Ref sorted, Ref n, Ref last, Ref q, int k, int method, bool weak)
{
    Program *p = P(L);
    if (method >= LOWER)
        return discrete(L, at, sorted, lower_operator(L, AST_MUL, at, at, last, q), k, method, weak);
    if (method == LINEAR && dtype_is_int(V(p, q)->dtype))      /* q 0 or 1: NumPy takes the element */
        return element(L, at, sorted, lower_operator(L, AST_MUL, at, at, last, q), k);
    Ref v = virtual_index(L, at, n, last, q, method);
    if (method == INVERTED_CDF || method == CLOSEST_OBSERVATION)
        return boundary(L, at, sorted, v, k, method);
    Ref lo = build_cast(p, at, build_ufunc(p, at, at, UF_floor, &v, 1, false), NPX_I64);   /* floor(v) and the next, */
    Ref top = lower_operator(L, AST_GE, at, at, v, last), zero = i64(p, at, 0);           /* clamped into the axis */
    Ref below = lower_operator(L, AST_LT, at, at, v, zero);
    lo = build_ufunc(p, at, at, UF_where, (Ref[]){ top, last, lo }, 3, false);
    Ref hi = build_ufunc(p, at, at, UF_minimum, (Ref[]){ lower_operator(L, AST_ADD, at, at, lo, i64(p, at, 1)), last },
                         2, false);
    lo = build_ufunc(p, at, at, UF_where, (Ref[]){ below, zero, lo }, 3, false);
    hi = build_ufunc(p, at, at, UF_where, (Ref[]){ below, zero, hi }, 3, false);
    Ref t = lower_operator(L, AST_SUB, at, at, v, lo);
    if (t && method == AVERAGED_INVERTED_CDF)      /* halfway where v is whole, else the next */
        t = build_ufunc(p, at, at, UF_where,
                        (Ref[]){ lower_operator(L, AST_EQ, at, at, t, zero), build_literal(p, at, NPX_F64, 0, 0.5, true),
                                 build_literal(p, at, NPX_F64, 0, 1, true) },
                        3, false);
    if (t)
        V(p, t)->weak = weak;
    return lerp(L, at, element(L, at, sorted, lo, k), element(L, at, sorted, hi, k), t);
}

/* quantile(a, [q1, q2, ...]): each, stacked along a new first axis */
static Ref quantiles_at(Lower *L, Call *c, const Expr *list, Ref sorted, Ref n, Ref last, int k, int method, int which)
{
    Program *p = P(L);
    Span sp = c->call->span;
    if (list->args.n == 0) {
        diag_error(p->diag, list->span, "%s: an empty list of q's is not supported yet", c->fname);
        return 0;
    }
    Ref *q = arena_alloc(p->arena, sizeof(Ref) * (size_t)list->args.n), r = 0;
    bool ints = true;                             /* NumPy's array of q's is an integer array */
    for (int i = 0; i < list->args.n; i++) {
        if (!(q[i] = fraction(L, list->args.v[i], which)))
            return 0;
        ints &= dtype_is_int(V(p, q[i])->dtype);
    }
    for (int i = 0; i < list->args.n; i++) {
        Ref qi = ints ? q[i] : build_cast(p, list->args.v[i]->span, q[i], NPX_F64);
        Ref one = quantile_at(L, c->call->at, sorted, n, last, qi, k, method, false);
        if (!one)
            return 0;
        Shape s = V(p, one)->shape;
        one = build_expand(p, sp, one, 1u, s.ndim + 1);
        s = V(p, one)->shape;
        s.d[0] = i + 1;
        r = r ? build_concat(p, sp, r, one, 0, &s) : one;
    }
    return r;
}

/* x with the axes in `axes` moved after the others and merged into one, as
 * NumPy's _ureduce gives a function of one axis several */
static Ref axes_last(Lower *L, Span at, Span sp, Ref x, uint32_t axes)
{
    Program *p = P(L);
    const Shape s = V(p, x)->shape;
    Shape kept = { 0, { 0 } }, merged = { 0, { 0 } };
    int perm[NPX_MAX_RANK], n = 0;
    for (int pass = 0; pass < 2; pass++)          /* the others, then the axes */
        for (int k = 0; k < s.ndim; k++)
            if ((axes >> k & 1) == (uint32_t)pass) {
                perm[n++] = k;
                Shape *to = pass ? &merged : &kept;
                to->d[to->ndim++] = s.d[k];
            }
    if (!ir_product_dim(p, merged.d, merged.ndim, &kept.d[kept.ndim++])) {
        diag_error(p->diag, at, "more than %d size symbols in one size", NPX_MAX_RANK);
        return 0;
    }
    return build_reshape(p, sp, build_transpose(p, sp, x, perm), &kept);
}

Ref call_quantile(Lower *L, Call *c, int which)
{
    static const char *const median[] = { "a", "axis", "out", "overwrite_input", "keepdims", NULL };
    static const char *const quantile[] = { "a", "q", "axis", "out", "overwrite_input", "method", "keepdims", NULL };
    const Expr *a[7] = { NULL };
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    bool m = which == MEDIAN, keepdims = false;
    if (!lower_bind_args(L, c, m ? median : quantile, m ? 1 : 2, a))
        return 0;
    const Expr *axis_e = a[m ? 1 : 2], *keep = a[m ? 4 : 6];
    int method = m ? LINEAR : quantile_method(L, c, a[5]);
    if (!lower_not_given(L, c, a[m ? 2 : 3], "out") || !lower_not_given(L, c, a[m ? 3 : 4], "overwrite_input") ||
        method < 0 || (keep && !lower_bool_flag(L, keep, &keepdims)))
        return 0;
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0]));
    if (!x)
        return 0;
    int ndim = V(p, x)->shape.ndim, k = 0;
    uint32_t axis = 0;
    if (!axis_e || axis_e->kind == EXPR_NONE) {
        if (!(x = lower_flatten(L, at, sp, x)))
            return 0;
    } else if (axis_e->kind == EXPR_TUPLE || axis_e->kind == EXPR_LIST) {
        if (!lower_axes(L, axis_e, ndim, &axis) || !(x = axes_last(L, at, sp, x, axis)))
            return 0;
        k = V(p, x)->shape.ndim - 1;
    } else if (!lower_one_axis(L, axis_e, ndim, &axis))
        return 0;
    else
        k = __builtin_ctz(axis);
    Dim len = V(p, x)->shape.d[k];
    Ref sorted = build_sort(p, sp, x, k, false), n = build_dimval(p, at, &(Shape){ 1, { len } });
    Ref last = lower_operator(L, AST_SUB, at, at, n, i64(p, at, 1)), r;
    int lists = 0;                                /* the result's first axis: the q's of a list */
    if (m) {                                      /* the mean of the middle two, in mean's dtype */
        Ref lo = lower_operator(L, AST_FLOORDIV, at, at, last, i64(p, at, 2));
        Ref hi = lower_operator(L, AST_FLOORDIV, at, at, n, i64(p, at, 2));
        Ref sum = lower_operator(L, AST_ADD, at, at, element(L, at, sorted, lo, k), element(L, at, sorted, hi, k));
        if (sum && !dtype_is_float(V(p, sum)->dtype))
            sum = lower_operator(L, AST_ADD, at, at, build_cast(p, at, element(L, at, sorted, lo, k), NPX_F64),
                                 build_cast(p, at, element(L, at, sorted, hi, k), NPX_F64));
        r = lower_operator(L, AST_DIV, at, at, sum, i64(p, at, 2));
    } else if (a[1]->kind == EXPR_LIST || a[1]->kind == EXPR_TUPLE) {
        r = quantiles_at(L, c, a[1], sorted, n, last, k, method, which);
        lists = 1;
    } else {
        Ref q = fraction(L, a[1], which);
        r = q ? quantile_at(L, at, sorted, n, last, q, k, method, true) : 0;
    }
    if (r && dtype_is_float(V(p, x)->dtype)) {     /* NaN sorts last: a NaN anywhere makes the result NaN */
        Ref end = element(L, at, sorted, last, k);
        Ref nan = build_ufunc(p, at, at, UF_isnan, &end, 1, false);
        r = build_ufunc(p, at, at, UF_where, (Ref[]){ nan, end, r }, 3, false);
    }
    if (r && keepdims)
        r = build_expand(p, sp, r, (axis_e && axis_e->kind != EXPR_NONE ? axis : (1u << ndim) - 1) << lists,
                         ndim + lists);
    return r;
}
