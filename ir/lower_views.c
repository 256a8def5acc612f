/* lower_views.c: functions that show an array's elements in another shape
 * without computing anything: swapaxes, expand_dims, broadcast_to. Each
 * becomes a view (ir.h), which the loops read through. */
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

Ref call_swapaxes(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "axis1", "axis2", NULL };
    const Expr *a[3];
    if (!lower_bind_args(L, c, params, 3, a))
        return 0;
    Ref x = lower_expr(L, a[0]);
    if (!x)
        return 0;
    int ndim = V(P(L), x)->shape.ndim, perm[NPX_MAX_RANK];
    uint32_t first = 0, second = 0;
    if (!lower_one_axis(L, a[1], ndim, &first) || !lower_one_axis(L, a[2], ndim, &second))
        return 0;
    for (int k = 0; k < ndim; k++)
        perm[k] = k;
    int i = __builtin_ctz(first), j = __builtin_ctz(second);
    perm[i] = j;
    perm[j] = i;
    return i == j ? x : build_transpose(P(L), c->call->span, x, perm);
}

/* expand_dims(a, axis): axis, an int or a tuple, counts in the result. */
Ref call_expand_dims(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "axis", NULL };
    const Expr *a[2];
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    Ref x = lower_expr(L, a[0]);
    if (!x)
        return 0;
    bool many = a[1]->kind == EXPR_TUPLE || a[1]->kind == EXPR_LIST;
    int ndim = V(P(L), x)->shape.ndim + (many ? a[1]->args.n : 1);
    if (ndim > NPX_MAX_RANK) {
        diag_error(P(L)->diag, a[1]->span, "expand_dims: the result would have %d dimensions; at most %d are supported",
                   ndim, NPX_MAX_RANK);
        return 0;
    }
    uint32_t axes;
    if (a[1]->kind == EXPR_NONE || !lower_axes(L, a[1], ndim, &axes)) {
        if (a[1]->kind == EXPR_NONE)
            diag_error(P(L)->diag, a[1]->span, "expand_dims: axis must be an int or a tuple of ints");
        return 0;
    }
    return build_expand(P(L), c->call->span, x, axes, ndim);
}

/* broadcast_to(array, shape): the array as it would broadcast against an
 * array of that shape, which must be the result's shape. */
Ref call_broadcast_to(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "array", "shape", NULL };
    const Expr *a[2];
    Shape s;
    if (!lower_bind_args(L, c, params, 2, a) || !lower_shape(L, a[1], &s))
        return 0;
    return build_broadcast(P(L), c->call->span, lower_expr(L, a[0]), &s);
}
