/* lower_search.c: functions that look values up in a sorted array by
 * bisection (IR_SEARCH): searchsorted, digitize (numpy/lib/
 * _function_base_impl.py), and interp (numpy/_core/src/multiarray/
 * compiled_base.c, arr_interp), which finds each x's interval among the
 * sample points that way. */
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

/* searchsorted(a, v, side='left', sorter=None): a sorted (or a[sorter]) */
Ref call_searchsorted(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "v", "side", "sorter", NULL };
    static const char *const sides[] = { "left", "right", NULL };
    const Expr *a[4];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    int side = a[2] ? lower_choice(a[2], sides) : 0;
    if (!sides[side]) {
        diag_error(p->diag, a[2]->span, a[2]->kind == EXPR_STRING ? "search side must be 'left' or 'right' (got '%s')"
                                                                  : "search side must be 'left' or 'right'",
                   a[2]->name);
        return 0;
    }
    Span at = c->call->at, sp = c->call->span;
    Ref sorted = lower_asarray(p, sp, lower_expr(L, a[0])), v = lower_asarray(p, sp, lower_expr(L, a[1]));
    if (sorted && a[3] && a[3]->kind != EXPR_NONE) {
        Ref order = lower_expr(L, a[3]);
        sorted = order ? build_take(p, a[3]->span, sp, sorted, &order, 1, 0) : 0;
    }
    return sorted && v ? build_search(p, at, sp, sorted, v, side == 1) : 0;
}

static Ref op(Program *p, Span sp, Ufunc f, Ref a, Ref b) { return build_ufunc(p, sp, sp, f, (Ref[]){ a, b }, 2, false); }

static Ref any_of(Program *p, Span sp, Ref mask) { return build_reduce(p, sp, RED_any, mask, 1u, false); }

Ref lower_any_neighbours(Program *p, Span sp, Ref a, Ufunc compare)
{
    static const AxisIndex head = { false, NPX_NO_BOUND, -1, 1, 0, 0 }, tail = { false, 1, NPX_NO_BOUND, 1, 0, 0 };
    return any_of(p, sp, op(p, sp, compare, build_index(p, sp, a, &head), build_index(p, sp, a, &tail)));
}

/* Which way 1-D a is sorted, as NumPy's _monotonicity finds it
 * (compiled_base.c, check_array_monotonic): past the elements equal to the
 * first, the first that differs says which way to check; 1 increasing (or
 * all equal), -1 decreasing, 0 neither, which is NumPy's ValueError when the
 * program runs. Comparisons with NaN are false, as there. */
static Ref monotonicity(Program *p, Span sp, Ref a)
{
    AxisIndex first = { .single = true, .start = 0 };
    Ref a0 = build_index(p, sp, a, &first);
    Ref differs = op(p, sp, UF_not_equal, a, a0);
    Ref k = build_reduce(p, sp, RED_argmax, differs, 1u, false);
    Ref up = op(p, sp, UF_less, a0, build_take_within(p, sp, sp, a, &k, 1, 0));
    Ref inc = build_ufunc(p, sp, sp, UF_logical_not, (Ref[]){ lower_any_neighbours(p, sp, a, UF_greater) }, 1, false);
    Ref dec = build_ufunc(p, sp, sp, UF_logical_not, (Ref[]){ lower_any_neighbours(p, sp, a, UF_less) }, 1, false);
    Ref zero = build_literal(p, sp, NPX_I64, 0, 0, true), one = build_literal(p, sp, NPX_I64, 1, 1, true);
    Ref minus = build_literal(p, sp, NPX_I64, -1, -1, true);
    Ref way = build_ufunc(p, sp, sp, UF_where, (Ref[]){ up, build_ufunc(p, sp, sp, UF_where, (Ref[]){ inc, one, zero }, 3,
                                                                      false),
                                                    build_ufunc(p, sp, sp, UF_where, (Ref[]){ dec, minus, zero }, 3,
                                                                false) }, 3, false);
    way = build_ufunc(p, sp, sp, UF_where, (Ref[]){ any_of(p, sp, differs), way, one }, 3, false);
    return build_ufunc(p, sp, sp, UF_monotonic_checked, &way, 1, false);
}

/* digitize(x, bins, right=False): the index of each x's bin among 1-D
 * bins sorted either way (checked when the program runs), as NumPy
 * computes it: searchsorted(bins, x, side) when increasing, len(bins) -
 * searchsorted(bins[::-1], x, side) when decreasing, side 'left' when
 * right=True, else 'right'. Both searches are computed, the direction
 * picks one. */
Ref call_digitize(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "x", "bins", "right", NULL };
    const Expr *a[3];
    Program *p = P(L);
    bool right = false;
    if (!lower_bind_args(L, c, params, 2, a) || (a[2] && !lower_bool_flag(L, a[2], &right)))
        return 0;
    Span at = c->call->at, sp = c->call->span;
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0])), bins = lower_asarray(p, sp, lower_expr(L, a[1]));
    if (!x || !bins)
        return 0;
    const Value *vb = V(p, bins);
    if (vb->shape.ndim != 1) {
        diag_error(p->diag, a[1]->span, vb->shape.ndim ? "object too deep for desired array"
                                                       : "object of too small depth for desired array");
        return 0;
    }
    Dim n = vb->shape.d[0];
    if (n == 0) {                               /* no bins: every x is at 0 */
        Ref zero = build_literal(p, sp, NPX_I64, 0, 0, false);
        return build_broadcast(p, sp, zero, &V(p, x)->shape);
    }
    Ref way = monotonicity(p, sp, build_converted(p, sp, bins, NPX_F64));
    AxisIndex reversed = { false, NPX_NO_BOUND, NPX_NO_BOUND, -1, 0, 0 };
    Ref forward = build_search(p, at, sp, bins, x, !right);
    Ref backward = build_search(p, at, sp, build_index(p, sp, bins, &reversed), x, !right);
    backward = op(p, sp, UF_subtract, lower_size(p, sp, n), backward);
    Ref down = op(p, sp, UF_equal, way, build_literal(p, sp, NPX_I64, -1, -1, true));
    return build_ufunc(p, sp, sp, UF_where, (Ref[]){ down, backward, forward }, 3, false);
}

/* The 1-D float64 array of interp's xp or fp. */
static Ref sample_points(Lower *L, const Expr *e)
{
    Program *p = P(L);
    Ref r = lower_asarray(p, e->span, lower_expr(L, e));
    if (!r)
        return 0;
    const Value *v = V(p, r);
    if (v->shape.ndim != 1) {
        diag_error(p->diag, e->span, "interp(): the sample points must be 1-D, not %s (object too deep for "
                                     "desired array)", shape_str(p, &v->shape, v->dtype, false));
        return 0;
    }
    return v->dtype == NPX_F64 ? r : build_cast(p, e->span, r, NPX_F64);
}

/* interp's left= or right=: a number or 0-d value, else fp[at_end] */
static Ref end_value(Lower *L, const Expr *e, Ref fp, int64_t at_end, Span span)
{
    Program *p = P(L);
    if (!e || e->kind == EXPR_NONE)
        return build_index(p, span, fp, &(AxisIndex){ .single = true, .start = at_end });
    Ref r = lower_expr(L, e);
    if (r && V(p, r)->shape.ndim) {
        diag_error(p->diag, e->span, "interp(): left and right must be numbers, not %s",
                   shape_str(p, &V(p, r)->shape, V(p, r)->dtype, false));
        return 0;
    }
    return r ? build_cast(p, e->span, r, NPX_F64) : 0;
}

/* interp(x, xp, fp, left=None, right=None): in float64, each x by
 * npx_interp (runtime/npx_math.h), NumPy's loop. */
Ref call_interp(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "x", "xp", "fp", "left", "right", "period", NULL };
    const Expr *a[6];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 3, a) || !lower_not_given(L, c, a[5], "period"))
        return 0;
    Span at = c->call->at, sp = c->call->span;
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0])), xp = sample_points(L, a[1]), fp = sample_points(L, a[2]);
    if (!x || !xp || !fp)
        return 0;
    Dim n = V(p, xp)->shape.d[0], nf = V(p, fp)->shape.d[0];
    if (n != nf && !DIM_IS_SYM(n) && !DIM_IS_SYM(nf)) {
        diag_error(p->diag, at, "fp and xp are not of the same length (%s and %s)", dim_str(p, nf), dim_str(p, n));
        return 0;
    }
    if (n != nf)
        ir_add_check(p, p->nstmts - 1, n, nf, at, "fp and xp are not of the same length");
    if (n == 0) {
        diag_error(p->diag, at, "array of sample points is empty");
        return 0;
    }
    if (DIM_IS_SYM(n))
        ir_add_nonempty_check(p, p->nstmts - 1, n, 1, at, "array of sample points is empty");
    Ref left = end_value(L, a[3], fp, 0, sp), right = end_value(L, a[4], fp, -1, sp);
    if (!left || !right)
        return 0;
    if (V(p, x)->dtype != NPX_F64)
        x = build_cast(p, sp, x, NPX_F64);
    return build_interp(p, sp, xp, fp, x, left, right);
}
