/* lower_histogram.c: np.histogram(a, bins=10, range=None, density=None,
 * weights=None), the counts and the edges, as numpy/lib/_histograms_impl.py
 * computes them. With a number of equal bins: the range is the data's
 * smallest and largest values (checked to be finite when the program runs)
 * or the numbers given, equal ends widened by 0.5 each way; the edges are
 * linspace(lo, hi, bins + 1) in the bins' dtype (the data's float dtype,
 * float64 for integers), checked to be distinct; each value's bin is
 * (x - lo) / (hi - lo) * bins, truncated, then moved by one where the edges
 * say otherwise (NumPy's fix for rounding next to an edge). With edges
 * given as an array, a bisection finds the bin. Either way values outside
 * the range go to one extra bin that is dropped, so that one pass counts
 * them all (build_bin_counts), in parallel, with no sync on the GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

/* edges[:-1] and edges[1:] */
static const AxisIndex head = { false, NPX_NO_BOUND, -1, 1, 0, 0 }, tail = { false, 1, NPX_NO_BOUND, 1, 0, 0 };

static Ref python_int(Program *p, Span sp, int64_t v) { return build_literal(p, sp, NPX_I64, v, (double)v, true); }

static Ref ufunc(Program *p, Span at, Span sp, Ufunc f, Ref a, Ref b)
{
    return build_ufunc(p, at, sp, f, (Ref[]){ a, b }, 2, false);
}

/* A number as Python's str() writes it, for a message: 0, 2.5, inf. */
static const char *number_str(Program *p, double x)
{
    if (isnan(x) || isinf(x))
        return isnan(x) ? "nan" : x < 0 ? "-inf" : "inf";
    char buf[40];
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, sizeof buf, "%.*g", digits, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    return arena_printf(p->arena, "%s", buf);
}

/* bins=: a positive number of equal bins (*n, 10 when not given), or their
 * edges, a 1-D array (*given). */
static bool bins_of(Lower *L, const Expr *e, int64_t *n, Ref *given)
{
    Program *p = P(L);
    *n = 10;
    *given = 0;
    if (!e)
        return true;
    if (e->kind == EXPR_STRING) {
        diag_error(p->diag, e->span, "histogram(): bins='%s' (a bin width estimator) is not supported yet; give "
                                     "the number of bins", e->name);
        return false;
    }
    if (!lower_is_const_int(L, e)) {
        Ref r = lower_asarray(p, e->span, lower_array_of(L, e, NPX_NDTYPES));
        const Value *v = r ? V(p, r) : NULL;
        if (v && v->shape.ndim != 1)
            diag_error(p->diag, e->span, v->shape.ndim ? "`bins` must be 1d, when an array"
                                         : dtype_is_float(v->dtype) ? "`bins` must be an integer, a string, or an array"
                                                                    : "histogram(): a number of bins known only when "
                                                                      "the program runs is not supported yet");
        *given = v && v->shape.ndim == 1 ? r : 0;
        return *given != 0;
    }
    if (!lower_const_int(L, e, n))
        return false;
    if (*n < 1) {
        diag_error(p->diag, e->span, "`bins` must be positive, when an integer");
        return false;
    }
    return true;
}

/* range=(lo, hi), numbers known at compile time: NumPy's checks, equal ends
 * widened. */
static bool given_range(Lower *L, Call *c, const Expr *e, double *lo, double *hi)
{
    Program *p = P(L);
    if (e->kind != EXPR_TUPLE && e->kind != EXPR_LIST) {
        diag_error(p->diag, e->span, "histogram(): range must be a pair of numbers, (lower, upper)");
        return false;
    }
    if (e->args.n != 2) {                       /* Python's words: first_edge, last_edge = range */
        diag_error(p->diag, e->span, e->args.n > 2 ? "too many values to unpack (expected 2)"
                                                   : "not enough values to unpack (expected 2, got %d)", e->args.n);
        return false;
    }
    if (!lower_constant(L, c, e->args.v[0], "range", lo) || !lower_constant(L, c, e->args.v[1], "range", hi))
        return false;
    if (*lo > *hi) {
        diag_error(p->diag, e->span, "max must be larger than min in range parameter.");
        return false;
    }
    if (!isfinite(*lo) || !isfinite(*hi)) {
        diag_error(p->diag, e->span, "supplied range of [%s, %s] is not finite", number_str(p, *lo),
                   number_str(p, *hi));
        return false;
    }
    if (*lo == *hi) {
        *lo -= 0.5;
        *hi += 0.5;
    }
    return true;
}

/* The data's range, x.min() and x.max() of 1-D x, or (0, 1) when x is
 * empty (its size known only when the program runs), checked to be finite
 * when the program runs, widened where equal: 0-d values in t, the bins'
 * dtype. */
static void data_range(Program *p, Span at, Span sp, Ref x, npx_dtype t, Ref *lo, Ref *hi)
{
    Dim n = V(p, x)->shape.d[0];
    bool maybe_empty = DIM_IS_SYM(n);           /* (a literal size is not 0 here) */
    *lo = maybe_empty ? build_extreme_or_start(p, sp, RED_min, x) : build_reduce(p, sp, RED_min, x, 1u, false);
    *hi = maybe_empty ? build_extreme_or_start(p, sp, RED_max, x) : build_reduce(p, sp, RED_max, x, 1u, false);
    if (maybe_empty) {
        Ref empty = ufunc(p, at, sp, UF_equal, lower_size(p, sp, n), python_int(p, sp, 0));
        *lo = build_ufunc(p, at, sp, UF_where, (Ref[]){ empty, python_int(p, sp, 0), *lo }, 3, false);
        *hi = build_ufunc(p, at, sp, UF_where, (Ref[]){ empty, python_int(p, sp, 1), *hi }, 3, false);
    }
    if (dtype_is_float(V(p, x)->dtype))
        *lo = ufunc(p, at, sp, UF_range_checked, *lo, *hi);
    Ref equal = ufunc(p, at, sp, UF_equal, *lo, *hi), half = build_literal(p, sp, NPX_F64, 0, 0.5, true);
    Ref below = ufunc(p, at, sp, UF_subtract, *lo, half), above = ufunc(p, at, sp, UF_add, *hi, half);
    *lo = build_converted(p, sp, build_ufunc(p, at, sp, UF_where, (Ref[]){ equal, below, *lo }, 3, false), t);
    *hi = build_converted(p, sp, build_ufunc(p, at, sp, UF_where, (Ref[]){ equal, above, *hi }, 3, false), t);
}

/* weights=: flattened, of a's shape (NumPy's ValueError otherwise; sizes
 * known when the program runs are checked then). */
static Ref laid_weights(Lower *L, Call *c, const Expr *e, Ref x)
{
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    Ref w = lower_asarray(p, sp, lower_expr(L, e));
    if (!w)
        return 0;
    const Shape *sx = &V(p, x)->shape, *sw = &V(p, w)->shape;
    bool same = sx->ndim == sw->ndim;
    for (int k = 0; same && k < sx->ndim; k++)
        same = !dims_differ(p, sx->d[k], sw->d[k]);
    if (!same) {
        diag_error(p->diag, e->span, "weights should have the same shape as a.");
        return 0;
    }
    for (int k = 0; k < sx->ndim; k++)
        if (sx->d[k] != sw->d[k])
            ir_add_check(p, p->nstmts - 1, sx->d[k], sw->d[k], at, "weights should have the same shape as a");
    return lower_flatten(L, at, sp, w);
}

/* edges[i] for each element of the int64 positions i */
static Ref edge_at(Program *p, Span at, Span sp, Ref edges, Ref i) { return build_take_within(p, at, sp, edges, &i, 1, 0); }

/* Each value's bin, 0 .. n - 1, or n for a value outside [lo, hi] (NaN
 * too). NumPy's guess g, (x - lo) / (hi - lo) * n truncated (dividing by
 * hi - lo in float64 when a range is given, as NumPy does), at most n - 1;
 * then g - 1 where x < edges[g], g + 1 where x >= edges[g + 1] (not past
 * the last bin): NumPy's two corrections in turn give the same, as the
 * edges increase. Clamped to 0 as well, g stays in the edges for any x;
 * it is the one value stored (int32 where the bins allow). */
static Ref bin_numbers(Program *p, Span at, Span sp, Ref x, Ref lo, Ref hi, Ref span_f64, Ref edges, int64_t n)
{
    npx_dtype t = V(p, edges)->dtype, bin_t = n < INT32_MAX ? NPX_I32 : NPX_I64;  /* g: half the bytes */
    Ref xt = build_as(p, sp, x, t);
    Ref width = span_f64 ? span_f64 : ufunc(p, at, sp, UF_subtract, hi, lo);
    Ref f = ufunc(p, at, sp, UF_true_divide, ufunc(p, at, sp, UF_subtract, xt, lo), width);
    f = ufunc(p, at, sp, UF_multiply, f, python_int(p, sp, n));
    /* NumPy's check that no two edges are equal (too many bins for the range) */
    Ref close = lower_any_neighbours(p, sp, edges, UF_greater_equal);
    Ref last = ufunc(p, at, sp, UF_bins_checked, close, build_literal(p, sp, NPX_I64, n, (double)n, false));
    last = build_cast(p, sp, ufunc(p, at, sp, UF_subtract, last, python_int(p, sp, 1)), bin_t);
    Ref g = ufunc(p, at, sp, UF_maximum, build_cast(p, sp, f, bin_t), python_int(p, sp, 0));
    g = ufunc(p, at, sp, UF_minimum, g, last);
    Ref down = ufunc(p, at, sp, UF_less, xt, edge_at(p, at, sp, edges, g));
    Ref next = edge_at(p, at, sp, edges, ufunc(p, at, sp, UF_add, g, python_int(p, sp, 1)));
    Ref up = ufunc(p, at, sp, UF_logical_and, ufunc(p, at, sp, UF_greater_equal, xt, next),
                   ufunc(p, at, sp, UF_not_equal, g, last));
    Ref i = ufunc(p, at, sp, UF_add, ufunc(p, at, sp, UF_subtract, g, down), up);
    Ref keep = ufunc(p, at, sp, UF_logical_and, ufunc(p, at, sp, UF_greater_equal, x, lo),
                     ufunc(p, at, sp, UF_less_equal, x, hi));
    return build_ufunc(p, at, sp, UF_where, (Ref[]){ keep, i, python_int(p, sp, n) }, 3, false);
}

/* Counts summed from float64 weights, in the weights' dtype, as NumPy gives them. */
static Ref in_weights_dtype(Program *p, Span sp, Ref counts, Ref w)
{
    return w ? build_cast(p, sp, counts, V(p, w)->dtype) : counts;
}

/* The counts between bin edges given as an array (NumPy's sorted search,
 * numpy's _search_sorted_inclusive): each x in the last bin whose edge is at
 * most x, the last bin closed; none outside the edges, nor NaN. Edges that
 * decrease anywhere are NumPy's ValueError when the program runs. With
 * weights, each bin's sum is added directly, where NumPy takes differences
 * of a running sum (which may round otherwise). */
static Ref counts_in_edges(Program *p, Span at, Span sp, Ref x, Ref w, Ref edges)
{
    Dim len = V(p, edges)->shape.d[0];
    if (len == 0)                               /* no edges, no bins */
        return in_weights_dtype(p, sp, build_broadcast(p, sp, python_int(p, sp, 0), &(Shape){ 1, { 0 } }), w);
    Ref lowest = build_index(p, sp, edges, &(AxisIndex){ .single = true, .start = 0 });
    Ref highest = build_index(p, sp, edges, &(AxisIndex){ .single = true, .start = -1 });
    Ref lower = build_index(p, sp, edges, &head);
    Ref falls = lower_any_neighbours(p, sp, edges, UF_greater);
    lowest = ufunc(p, at, sp, UF_increasing_checked, falls, lowest);
    Ref keep = ufunc(p, at, sp, UF_logical_and, ufunc(p, at, sp, UF_greater_equal, x, lowest),
                     ufunc(p, at, sp, UF_less_equal, x, highest));
    Ref i = ufunc(p, at, sp, UF_subtract, build_search(p, at, sp, lower, x, true), python_int(p, sp, 1));
    Ref n = ufunc(p, at, sp, UF_subtract, lower_size(p, sp, len), python_int(p, sp, 1));
    Ref bins = build_ufunc(p, at, sp, UF_where, (Ref[]){ keep, i, n }, 3, false);
    Ref counts = build_bin_counts(p, sp, bins, w, len);
    return in_weights_dtype(p, sp, build_index(p, sp, counts, &head), w);
}

/* The counts in n equal bins over the range given or the data's (its edges
 * in *edges). */
static Ref counts_in_equal_bins(Lower *L, Call *c, const Expr *range, Ref x, Ref w, int64_t n, Ref *edges)
{
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    npx_dtype t = dtype_is_float(V(p, x)->dtype) ? V(p, x)->dtype : NPX_F64;
    double first = 0, last = 1;                 /* an empty array's range */
    Ref lo, hi, span_f64 = 0;
    bool given = range && range->kind != EXPR_NONE;
    if (given && !given_range(L, c, range, &first, &last))
        return 0;
    if (given || V(p, x)->shape.d[0] == 0) {
        lo = build_literal(p, sp, NPX_F64, 0, first, true);
        hi = build_literal(p, sp, NPX_F64, 0, last, true);
        span_f64 = build_literal(p, sp, NPX_F64, 0, last - first, false);
    } else {
        data_range(p, at, sp, x, t, &lo, &hi);
    }
    *edges = build_converted(p, sp, lower_linspace(L, c, lo, hi, n + 1, true), t);
    Ref bins = bin_numbers(p, at, sp, x, lo, hi, span_f64, *edges, n);
    Ref counts = build_bin_counts(p, sp, bins, w, n + 1);
    AxisIndex kept = { false, NPX_NO_BOUND, n, 1, 0, 0 };
    return in_weights_dtype(p, sp, build_index(p, sp, counts, &kept), w);
}

Ref lower_histogram(Lower *L, Call *c, Ref *edges)
{
    static const char *const params[] = { "a", "bins", "range", "density", "weights", NULL };
    const Expr *a[5];
    Program *p = P(L);
    int64_t n;
    bool density = false;
    Ref given;
    if (!lower_bind_args(L, c, params, 1, a) || !bins_of(L, a[1], &n, &given) ||
        (a[3] && a[3]->kind != EXPR_NONE && !lower_bool_flag(L, a[3], &density)))
        return 0;
    Span at = c->call->at, sp = c->call->span;
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0]));
    Ref w = a[4] && a[4]->kind != EXPR_NONE && x ? laid_weights(L, c, a[4], x) : 0;
    if (!x || (a[4] && a[4]->kind != EXPR_NONE && !w) || !(x = lower_flatten(L, at, sp, x)))
        return 0;
    if (V(p, x)->dtype == NPX_BOOL)             /* NumPy counts bools as uint8 */
        x = build_cast(p, sp, x, NPX_I64);
    Ref hist;
    if (given) {
        *edges = given;
        hist = counts_in_edges(p, at, sp, x, w, given);
    } else {
        hist = counts_in_equal_bins(L, c, a[2], x, w, n, edges);
    }
    if (!hist || !density)
        return hist;
    Ref widths = ufunc(p, at, sp, UF_subtract, build_index(p, sp, *edges, &tail), build_index(p, sp, *edges, &head));
    Ref per_width = ufunc(p, at, sp, UF_true_divide, hist, build_cast(p, sp, widths, NPX_F64));
    return ufunc(p, at, sp, UF_true_divide, per_width, build_reduce(p, sp, RED_sum, hist, 1u, false));
}
