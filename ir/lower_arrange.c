/* lower_arrange.c: NumPy functions that rearrange an array's elements, as
 * NumPy writes them in Python over slices and concatenation (numpy/lib/
 * _function_base_impl.py, _shape_base_impl.py, _twodim_base_impl.py and
 * numpy/_core/shape_base.py, numeric.py): flip, fliplr, flipud, diff,
 * hstack, vstack and column_stack; each becomes views (ir.h) that the loops
 * read through. */
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

/* Every element of every axis: x[:, :, ...]. */
static void whole(AxisIndex *sel, int ndim)
{
    for (int k = 0; k < ndim; k++)
        sel[k] = (AxisIndex){ false, NPX_NO_BOUND, NPX_NO_BOUND, 1, 0, 0 };
}

/* flip(m, axis=None) (which 0), flipud(m) (1: axis 0), fliplr(m) (2: axis
 * 1): m[::-1] along those axes. */
Ref call_flip(Lower *L, Call *c, int which)
{
    static const char *const params[] = { "m", "axis", NULL }, *const m_only[] = { "m", NULL };
    const Expr *a[2];
    Program *p = P(L);
    if (!lower_bind_args(L, c, which ? m_only : params, 1, a))
        return 0;
    Ref x = lower_asarray(p, c->call->span, lower_expr(L, a[0]));
    if (!x)
        return 0;
    int ndim = V(p, x)->shape.ndim;
    uint32_t axes = which ? 1u << (which - 1) : 0;
    if (which && ndim < which) {
        diag_error(p->diag, c->call->at, "Input must be >= %d-d.", which);
        return 0;
    }
    if (!which && !lower_axes(L, a[1], ndim, &axes))
        return 0;
    AxisIndex sel[NPX_MAX_RANK];
    whole(sel, ndim);
    for (int k = 0; k < ndim; k++)
        if (axes >> k & 1)
            sel[k].step = -1;
    return axes ? build_index(p, c->call->span, x, sel) : x;
}

/* diff(a, n=1, axis=-1): n times a[..., 1:] - a[..., :-1] along axis
 * (not_equal for bool, as NumPy). */
Ref call_diff(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "n", "axis", "prepend", "append", NULL };
    const Expr *a[5];
    Program *p = P(L);
    int64_t n = 1;
    if (!lower_bind_args(L, c, params, 1, a) || !lower_not_given(L, c, a[3], "prepend") ||
        !lower_not_given(L, c, a[4], "append") || (a[1] && !lower_const_int(L, a[1], &n)))
        return 0;
    if (n < 0) {
        diag_error(p->diag, a[1]->span, "order must be non-negative but got %lld", (long long)n);
        return 0;
    }
    Ref x = lower_asarray(p, c->call->span, lower_expr(L, a[0]));
    if (!x)
        return 0;
    int ndim = V(p, x)->shape.ndim;
    if (ndim == 0) {
        diag_error(p->diag, c->call->at, "diff requires input that is at least one dimensional");
        return 0;
    }
    uint32_t axis = 1u << (ndim - 1);
    if (a[2] && !(axis = 0, lower_one_axis(L, a[2], ndim, &axis)))
        return 0;
    int k = __builtin_ctz(axis);
    Ufunc op = V(p, x)->dtype == NPX_BOOL ? UF_not_equal : UF_subtract;
    AxisIndex upper[NPX_MAX_RANK], lower[NPX_MAX_RANK];
    whole(upper, ndim);
    whole(lower, ndim);
    upper[k].start = 1;
    lower[k].stop = -1;
    /* once the axis is empty, more differences leave it so */
    for (int64_t i = 0; i < n && V(p, x)->shape.d[k] != 0; i++) {
        Ref later = build_index(p, c->call->span, x, upper), earlier = build_index(p, c->call->span, x, lower);
        x = build_ufunc(p, c->call->at, c->call->span, op, (Ref[]){ later, earlier }, 2, false);
    }
    return x;
}

/* x with at least ndim axes, as atleast_1d and atleast_2d make it (a 1-D x
 * becomes a row, 1 x n); column: as column_stack makes it (a column, n x 1). */
static Ref at_least(Program *p, Span span, Ref x, int ndim, bool column)
{
    x = lower_asarray(p, span, x);
    const Shape *s = &V(p, x)->shape;
    if (s->ndim >= ndim)
        return x;
    if (s->ndim == 0)
        return build_reshape(p, span, x, &(Shape){ ndim, { 1, 1 } });
    return build_expand(p, span, x, column ? 2u : 1u, 2);
}

/* hstack(tup) (which 0), vstack(tup) (1), column_stack(tup) (2): the
 * arrays made 1-D, 2-D or columns, then concatenated along axis 0 (hstack
 * of 1-D arrays, vstack) or 1. */
Ref call_hstack(Lower *L, Call *c, int which)
{
    static const char *const params[] = { "tup", "dtype", "casting", NULL }, *const tup_only[] = { "tup", NULL };
    const Expr *a[3] = { NULL, NULL, NULL };
    Ref arrays[MAX_ARGS * 4];
    Program *p = P(L);
    int n;
    if (!lower_bind_args(L, c, which == 2 ? tup_only : params, 1, a) || !lower_not_given(L, c, a[1], "dtype") ||
        !lower_not_given(L, c, a[2], "casting") || !(n = lower_array_list(L, a[0], arrays, MAX_ARGS * 4)))
        return 0;
    Span sp = c->call->span, at = c->call->at;
    for (int i = 0; i < n; i++)
        arrays[i] = at_least(p, sp, arrays[i], which ? 2 : 1, which == 2);
    int axis = which == 1 || (which == 0 && V(p, arrays[0])->shape.ndim == 1) ? 0 : 1;
    Ref joined = arrays[0];
    for (int i = 1; i < n && joined; i++)
        joined = lower_join(L, sp, at, joined, arrays[i], axis, i);
    return joined;
}
