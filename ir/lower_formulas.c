/* lower_formulas.c: NumPy library functions whose source is a short formula
 * in NumPy itself, lowered to that formula so that they round, promote and
 * fuse as NumPy's statements would: sinc (numpy/lib/_function_base_impl.py),
 * trapezoid, select, average, polyval
 * (numpy/lib/_polynomial_impl.py), inner and vdot of vectors and matrices. */
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

/* sinc(x): y = pi x, where(y, y, eps) so that 0 gives sin(eps) / eps = 1,
 * eps the dtype's machine epsilon (1e-20 for what is not a float). */
Ref call_sinc(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "x", NULL };
    const Expr *a[1];
    if (!lower_bind_args(L, c, params, 1, a))
        return 0;
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0]));
    if (!x)
        return 0;
    Ref pi = build_literal(p, sp, NPX_F64, 0, 3.141592653589793, true);
    Ref y = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ pi, x }, 2, false);
    npx_dtype t = V(p, y)->dtype;
    double eps = t == NPX_F32 ? 0x1p-23 : t == NPX_F64 ? 0x1p-52 : 1e-20;
    Ref nonzero = build_ufunc(p, at, sp, UF_not_equal, (Ref[]){ y, build_literal(p, sp, NPX_I64, 0, 0, true) }, 2, false);
    y = build_ufunc(p, at, sp, UF_where, (Ref[]){ nonzero, y, build_literal(p, sp, t, 0, eps, false) }, 3, false);
    return build_ufunc(p, at, sp, UF_true_divide, (Ref[]){ build_ufunc(p, at, sp, UF_sin, &y, 1, false), y }, 2, false);
}

/* trapezoid(y, x=None, dx=1.0, axis=-1): (d * (y[1:] + y[:-1]) / 2.0).sum(axis)
 * along the axis, d = dx, or diff(x) (a 1-D x laid along the axis). */
Ref call_trapezoid(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "y", "x", "dx", "axis", NULL };
    const Expr *a[4];
    if (!lower_bind_args(L, c, params, 1, a))
        return 0;
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    Ref y = lower_asarray(p, sp, lower_expr(L, a[0]));
    if (!y)
        return 0;
    int ndim = V(p, y)->shape.ndim;
    if (ndim == 0) {
        diag_error(p->diag, at, "trapezoid(): y must have at least one axis (a 0-d y has nothing to integrate)");
        return 0;
    }
    uint32_t axis = a[3] ? 0 : 1u << (ndim - 1);
    if (a[3] && !lower_one_axis(L, a[3], ndim, &axis))
        return 0;
    int k = __builtin_ctz(axis);
    Ref d = a[2] && a[2]->kind != EXPR_NONE ? lower_expr(L, a[2]) : build_literal(p, sp, NPX_F64, 0, 1.0, true);
    if (a[1] && a[1]->kind != EXPR_NONE) {
        Ref x = lower_asarray(p, sp, lower_expr(L, a[1]));
        if (!x)
            return 0;
        const Shape *xs = &V(p, x)->shape;
        int xk = xs->ndim == 1 ? 0 : k;
        if (xs->ndim != 1 && xs->ndim != ndim) {
            diag_error(p->diag, a[1]->span, "trapezoid(): x must be 1-D or have y's %d axes, not %d", ndim, xs->ndim);
            return 0;
        }
        d = build_ufunc(p, at, sp, UF_subtract, (Ref[]){ lower_shifted(p, sp, x, xk, 1), lower_shifted(p, sp, x, xk, 0) }, 2, false);
        if (xs->ndim == 1 && ndim > 1)           /* laid along the axis: shape [1, ..., n - 1, ..., 1] */
            d = build_expand(p, sp, d, ((1u << ndim) - 1) & ~axis, ndim);
    }
    if (!d)
        return 0;
    Ref sum = build_ufunc(p, at, sp, UF_add, (Ref[]){ lower_shifted(p, sp, y, k, 1), lower_shifted(p, sp, y, k, 0) }, 2, false);
    Ref area = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ d, sum }, 2, false);
    area = build_ufunc(p, at, sp, UF_true_divide, (Ref[]){ area, build_literal(p, sp, NPX_F64, 0, 2.0, true) }, 2,
                       false);
    return area ? build_reduce(p, sp, RED_sum, area, axis, false) : 0;
}

/* select(condlist, choicelist, default=0): the first choice whose condition
 * holds, else default, in the dtype of all the choices and default (Python
 * numbers weak): where(c0, x0, where(c1, x1, ... default)). */
Ref call_select(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "condlist", "choicelist", "default", NULL };
    const Expr *a[3];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    Ref conds[MAX_ARGS], choices[MAX_ARGS + 1];
    int n = lower_array_list(L, a[0], conds, MAX_ARGS), m = n ? lower_array_list(L, a[1], choices, MAX_ARGS) : 0;
    if (!n || !m)
        return 0;
    if (n != m) {
        diag_error(p->diag, a[1]->span, "list of cases must be same length as list of conditions (%d and %d)", m, n);
        return 0;
    }
    for (int i = 0; i < n; i++)
        if (V(p, conds[i])->dtype != NPX_BOOL || V(p, conds[i])->weak) {
            diag_error(p->diag, a[0]->args.v[i]->span, "invalid entry %d in condlist: should be boolean ndarray, not %s",
                       i, shape_str(p, &V(p, conds[i])->shape, V(p, conds[i])->dtype, V(p, conds[i])->weak));
            return 0;
        }
    Span at = c->call->at, sp = c->call->span;
    choices[n] = a[2] ? lower_expr(L, a[2]) : build_literal(p, sp, NPX_I64, 0, 0, true);
    if (!choices[n])
        return 0;
    bool all_weak;
    npx_dtype t = weak_common_dtype(p, choices, n + 1, &all_weak);
    for (int i = 0; i <= n; i++)
        if (V(p, choices[i])->dtype != t || V(p, choices[i])->weak)
            choices[i] = build_cast(p, sp, choices[i], t);
    Ref r = choices[n];
    for (int i = n - 1; i >= 0; i--)
        r = build_ufunc(p, at, sp, UF_where, (Ref[]){ conds[i], choices[i], r }, 3, false);
    return r;
}

/* average's weights laid over a's axes (numpy/lib/_function_base_impl.py,
 * _weights_are_valid): as they are when their shape is a's, else a's
 * lengths along the axes given (in the order given), moved into a's
 * order with size-1 axes between them. 0 after an error. */
static Ref laid_weights(Lower *L, Span at, Ref x, Ref w, const Expr *axis, uint32_t axes)
{
    Program *p = P(L);
    const Shape *sx = &V(p, x)->shape, *sw = &V(p, w)->shape;
    bool same = sx->ndim == sw->ndim;
    for (int k = 0; same && k < sx->ndim; k++)
        same = !dims_differ(p, sx->d[k], sw->d[k]);
    if (!same && !axis) {
        diag_error(p->diag, at, "Axis must be specified when shapes of a and weights differ (%s and %s)",
                   shape_str(p, sx, V(p, x)->dtype, false), shape_str(p, sw, V(p, w)->dtype, false));
        return 0;
    }
    int order[NPX_MAX_RANK], n = 0;              /* the axes as given, made non-negative */
    bool many = axis && (axis->kind == EXPR_TUPLE || axis->kind == EXPR_LIST);
    for (int i = 0; !same && i < (many ? axis->args.n : 1); i++) {
        int64_t k = 0;
        lower_const_int(L, many ? axis->args.v[i] : axis, &k);   /* checked by lower_axes */
        order[n++] = (int)(k < 0 ? k + sx->ndim : k);
    }
    bool fits = same || sw->ndim == n;
    for (int i = 0; fits && i < (same ? sx->ndim : n); i++)
        fits = !dims_differ(p, same ? sx->d[i] : sx->d[order[i]], sw->d[i]);
    if (!fits) {
        diag_error(p->diag, at, "Shape of weights must be consistent with shape of a along specified axis (%s and %s)",
                   shape_str(p, sw, V(p, w)->dtype, false), shape_str(p, sx, V(p, x)->dtype, false));
        return 0;
    }
    for (int i = 0; i < (same ? sx->ndim : n); i++) {
        Dim dx = same ? sx->d[i] : sx->d[order[i]], dw = sw->d[i];
        if (dx != dw)
            ir_add_check(p, p->nstmts - 1, dx, dw, at, "average: the weights' shape differs from a's");
    }
    if (same)
        return w;
    int perm[NPX_MAX_RANK], m = 0;               /* wgt.transpose(argsort(axis)) */
    for (int k = 0; k < sx->ndim; k++)
        for (int i = 0; i < n; i++)
            if (order[i] == k)
                perm[m++] = i;
    bool moved = false;
    for (int i = 0; i < n; i++)
        moved |= perm[i] != i;
    if (moved)
        w = build_transpose(p, at, w, perm);
    return n < sx->ndim ? build_expand(p, at, w, ((1u << sx->ndim) - 1) & ~axes, sx->ndim) : w;
}

/* average(a, axis=None, weights=None, returned=False, keepdims=False):
 * without weights a.mean(axis, keepdims=keepdims); with them, as NumPy
 * computes it: (a * w).sum(axis) / w.sum(axis), both in a's and w's dtype
 * (float64 for an integer a), a zero sum of weights NumPy's
 * ZeroDivisionError when the program runs. returned=True (scl not NULL,
 * an unpacking): *scl is the sum of the weights, or the number of elements
 * each mean is of, in the mean's dtype and shape. */
Ref lower_average(Lower *L, Call *c, Ref *scl)
{
    static const char *const params[] = { "a", "axis", "weights", "returned", "keepdims", NULL };
    const Expr *a[5];
    bool keepdims = false, returned = false;
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 1, a) || (a[4] && !lower_bool_flag(L, a[4], &keepdims)) ||
        (a[3] && !lower_bool_flag(L, a[3], &returned)))
        return 0;
    if (returned && !scl) {
        diag_error(p->diag, a[3]->span, "average(returned=True) returns two arrays, the average and the sum of "
                                        "the weights: unpack them, avg, total = np.average(x, weights=w, "
                                        "returned=True)");
        return 0;
    }
    Span at = c->call->at, sp = c->call->span;
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0]));
    uint32_t axes;
    const Expr *axis = a[1] && a[1]->kind != EXPR_NONE ? a[1] : NULL;
    if (!x || !lower_axes(L, axis, V(p, x)->shape.ndim, &axes))
        return 0;
    Ref avg, scale;
    if (!a[2] || a[2]->kind == EXPR_NONE) {
        avg = build_reduce(p, sp, RED_mean, x, axes, keepdims);
        scale = lower_count_over(p, sp, x, axes);
    } else {
        Ref w = lower_asarray(p, sp, lower_expr(L, a[2]));
        if (!w || !(w = laid_weights(L, at, x, w, axis, axes)))
            return 0;
        npx_dtype tx = V(p, x)->dtype, t = dtype_promote(tx, V(p, w)->dtype);
        if (!dtype_is_float(tx))
            t = dtype_promote(t, NPX_F64);
        scale = build_reduce_as(p, sp, RED_sum, w, axes, keepdims, t);
        Ref product = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ build_as(p, sp, x, t), build_as(p, sp, w, t) }, 2,
                                  false);
        Ref sum = product ? build_reduce(p, sp, RED_sum, product, axes, keepdims) : 0;
        avg = sum && scale ? build_ufunc(p, at, sp, UF_weights_divide, (Ref[]){ sum, scale }, 2, false) : 0;
    }
    if (avg && scl)
        *scl = build_broadcast(p, sp, build_as(p, sp, scale, V(p, avg)->dtype), &V(p, avg)->shape);
    return avg;
}

Ref call_average(Lower *L, Call *c, int unused)
{
    (void)unused;
    return lower_average(L, c, NULL);
}

/* polyval(p, x): y = zeros_like(x), then y = y * x + pv for each
 * coefficient pv of p (a 0-d value of p's dtype, as NumPy's loop over p
 * gives; a list of numbers is NumPy's array of them). */
Ref call_polyval(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "p", "x", NULL };
    const Expr *a[2];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    Span at = c->call->at, sp = c->call->span;
    Ref coef[MAX_ARGS * 4];
    int n;
    if (a[0]->kind == EXPR_TUPLE || a[0]->kind == EXPR_LIST) {
        if (!(n = lower_array_list(L, a[0], coef, MAX_ARGS * 4)))
            return 0;
        for (int i = 0; i < n; i++) {
            if (V(p, coef[i])->shape.ndim) {
                diag_error(p->diag, a[0]->args.v[i]->span, "polyval(): a list of coefficients must hold numbers");
                return 0;
            }
            coef[i] = lower_asarray(p, sp, coef[i]);    /* np.array([np.float32(1), 2.0]) is float64 */
        }
        bool all_weak;
        npx_dtype t = weak_common_dtype(p, coef, n, &all_weak);
        for (int i = 0; i < n; i++)
            coef[i] = build_cast(p, sp, coef[i], t);
    } else {
        Ref v = lower_asarray(p, sp, lower_expr(L, a[0]));
        if (!v)
            return 0;
        const Shape *s = &V(p, v)->shape;
        if (s->ndim != 1 || DIM_IS_SYM(s->d[0]) || s->d[0] > MAX_ARGS * 4) {
            diag_error(p->diag, a[0]->span, "polyval(): coefficients other than a 1-D array of at most %d whose "
                                            "length is known here are not supported yet (%s)", MAX_ARGS * 4,
                       shape_str(p, s, V(p, v)->dtype, false));
            return 0;
        }
        n = (int)s->d[0];
        for (int i = 0; i < n; i++)
            coef[i] = build_index(p, sp, v, &(AxisIndex){ .single = true, .start = i });
    }
    Ref x = lower_asarray(p, sp, lower_expr(L, a[1]));
    if (!x)
        return 0;
    Ref y = build_broadcast(p, sp, build_literal(p, sp, V(p, x)->dtype, 0, 0, false), &V(p, x)->shape);
    for (int i = 0; i < n && y; i++) {
        y = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ y, x }, 2, false);
        y = build_ufunc(p, at, sp, UF_add, (Ref[]){ y, coef[i] }, 2, false);
    }
    return y;
}

/* The two arrays of inner(a, b), vdot(a, b) and kron(a, b), a Python number made an
 * array (so inner(x_f32, 2.0) is float64, as in NumPy). */
bool lower_two_arrays(Lower *L, Call *c, Ref *x, Ref *y)
{
    static const char *const params[] = { "a", "b", NULL };
    const Expr *a[2];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 2, a))
        return false;
    *x = lower_asarray(p, c->call->span, lower_expr(L, a[0]));
    *y = lower_asarray(p, c->call->span, lower_expr(L, a[1]));
    return *x && *y;
}

/* inner(a, b): the sum over the last axes. For vectors and matrices a @ b
 * with b's rows as columns (a vector b as it is; inner(u, M) is M @ u);
 * with more axes, tensordot over the last axes. */
Ref call_inner(Lower *L, Call *c, int unused)
{
    (void)unused;
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    Ref x, y;
    if (!lower_two_arrays(L, c, &x, &y))
        return 0;
    int nx = V(p, x)->shape.ndim, ny = V(p, y)->shape.ndim;
    if (nx == 0 || ny == 0)
        return build_ufunc(p, at, sp, UF_multiply, (Ref[]){ x, y }, 2, false);
    if (nx > 2 || ny > 2)
        return lower_tensordot(L, at, sp, x, y, (int[]){ nx - 1 }, (int[]){ ny - 1 }, 1);
    if (nx == 1 && ny == 2)
        return build_matmul(p, at, sp, y, x, "inner");
    return build_matmul(p, at, sp, x, ny == 2 ? build_transpose(p, sp, y, NULL) : y, "inner");
}

/* vdot(a, b): the dot product of the two arrays flattened. */
Ref call_vdot(Lower *L, Call *c, int unused)
{
    (void)unused;
    Span at = c->call->at, sp = c->call->span;
    Ref x, y;
    if (!lower_two_arrays(L, c, &x, &y) || !(x = lower_flatten(L, at, sp, x)) || !(y = lower_flatten(L, at, sp, y)))
        return 0;
    return build_matmul(P(L), at, sp, x, y, "vdot");
}

/* cross(a, b) of 3-vectors along the last axes, as NumPy computes it:
 * (a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0), stacked on a new last
 * axis; the other axes broadcast. */
Ref call_cross(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "b", "axisa", "axisb", "axisc", "axis", NULL };
    const Expr *a[6];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    for (int i = 2; i < 6; i++)
        if (!lower_not_given(L, c, a[i], params[i]))
            return 0;
    Span at = c->call->at, sp = c->call->span;
    Ref part[2][3];
    for (int i = 0; i < 2; i++) {
        Ref v = lower_asarray(p, sp, lower_expr(L, a[i]));
        if (!v)
            return 0;
        const Shape *s = &V(p, v)->shape;
        Dim n = s->ndim ? s->d[s->ndim - 1] : 0;
        if (n == 2 || DIM_IS_SYM(n)) {
            diag_error(p->diag, a[i]->span, "cross(): vectors of %s elements are not supported yet (only 3)",
                       n == 2 ? "2 (deprecated in NumPy 2.0)" : dim_str(p, n));
            return 0;
        }
        if (n != 3) {
            diag_error(p->diag, a[i]->span, "incompatible dimensions for cross product (dimension must be 2 or 3)");
            return 0;
        }
        for (int k = 0; k < 3; k++)
            part[i][k] = lower_component(p, sp, v, s->ndim - 1, k);
    }
    static const int first[3] = { 1, 2, 0 }, second[3] = { 2, 0, 1 };
    Ref out = 0;
    for (int k = 0; k < 3; k++) {
        Ref ab = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ part[0][first[k]], part[1][second[k]] }, 2, false);
        Ref ba = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ part[0][second[k]], part[1][first[k]] }, 2, false);
        Ref ck = build_ufunc(p, at, sp, UF_subtract, (Ref[]){ ab, ba }, 2, false);
        if (!ck)
            return 0;
        int nd = V(p, ck)->shape.ndim;
        ck = build_expand(p, sp, ck, 1u << nd, nd + 1);
        out = k ? lower_join(L, sp, at, out, ck, nd, k) : ck;
    }
    return out;
}
