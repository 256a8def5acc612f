/* lower_ufunc_methods.c: the methods of NumPy's ufuncs, as the functions
 * they equal: np.add.reduce(x) is a sum along axis 0 (np.maximum.reduce a
 * max, np.logical_and.reduce an all, ...), np.add.accumulate(x) a cumsum
 * along axis 0 (np.multiply.accumulate a cumprod), and f.outer(a, b) is f
 * of every element of a with every element of b, a's axes then b's.
 * (np.add.at(x, p, v) is a statement: lower_setitem.c.) */
#include <string.h>
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

/* The reduction NumPy's f.reduce is, or RED_COUNT when npxc has none. */
static Reduction reduction_of(Ufunc f)
{
    switch (f) {
    case UF_add: return RED_sum;
    case UF_multiply: return RED_prod;
    case UF_maximum: return RED_max;
    case UF_minimum: return RED_min;
    case UF_logical_and: return RED_all;
    case UF_logical_or: return RED_any;
    default: return RED_COUNT;
    }
}

/* f.reduce(array, axis=0, dtype=None, out=None, keepdims=False), or with
 * scan f.accumulate(array, axis=0, dtype=None, out=None): one axis */
static Ref reduce_along(Lower *L, Call *c, Reduction red, bool scan)
{
    static const char *const params[] = { "array", "axis", "dtype", "out", "keepdims", NULL };
    static const char *const scan_params[] = { "array", "axis", "dtype", "out", NULL };
    Program *p = P(L);
    const Expr *a[5] = { NULL };
    bool keepdims = false;
    if (!lower_bind_args(L, c, scan ? scan_params : params, 1, a) || !lower_not_given(L, c, a[3], "out") ||
        (a[4] && !lower_bool_flag(L, a[4], &keepdims)))
        return 0;
    npx_dtype t = NPX_BOOL;
    Ref x = lower_accumulate_as(L, c, lower_expr(L, a[0]), a[2], &t);
    if (!x)
        return 0;
    int ndim = V(p, x)->shape.ndim;
    uint32_t axes = 1;
    if (a[1] && !lower_axes(L, a[1], ndim, &axes))
        return 0;
    if (ndim == 0) {
        diag_error(p->diag, c->call->at, "np.%s of a 0-d value is not supported yet", c->fname);
        return 0;
    }
    if (scan && (__builtin_popcount(axes) != 1 || (a[1] && a[1]->kind == EXPR_NONE))) {
        diag_error(p->diag, a[1] ? a[1]->span : c->call->at, "accumulate does not allow multiple axes");
        return 0;
    }
    if (scan)
        return build_cumulative(p, c->call->span, red, x, __builtin_ctz(axes), t);
    return t != NPX_BOOL ? build_reduce_as(p, c->call->span, red, x, axes, keepdims, t)
                         : build_reduce(p, c->call->span, red, x, axes, keepdims);
}

/* f.outer(A, B): f(A[..., None, ...], B), B's axes added after A's */
static Ref outer(Lower *L, Call *c, Ufunc f)
{
    static const char *const params[] = { "A", "B", NULL };
    Program *p = P(L);
    const Expr *a[2];
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    if (ufunc_info[f].nin != 2) {
        diag_error(p->diag, c->call->at, "outer product only supported for binary functions");
        return 0;
    }
    Ref ab[2];
    for (int i = 0; i < 2; i++)                  /* NumPy makes a Python number an array first */
        ab[i] = lower_asarray(p, a[i]->span, lower_expr(L, a[i]));
    if (!ab[0] || !ab[1])
        return 0;
    int na = V(p, ab[0])->shape.ndim, nb = V(p, ab[1])->shape.ndim;
    if (na + nb > NPX_MAX_RANK) {
        diag_error(p->diag, c->call->at, "the result would have more than %d dimensions", NPX_MAX_RANK);
        return 0;
    }
    if (nb)
        ab[0] = build_expand(p, a[0]->span, ab[0], ((1u << nb) - 1) << na, na + nb);
    return build_ufunc(p, c->call->at, c->call->span, f, ab, 2, false);
}

Ref call_ufunc_method(Lower *L, Call *c, int f)
{
    const char *method = strchr(c->fname, '.') + 1;
    if (strcmp(method, "outer") == 0)
        return outer(L, c, (Ufunc)f);
    Reduction red = reduction_of((Ufunc)f);
    bool scan = strcmp(method, "accumulate") == 0;
    if (strcmp(method, "reduce") != 0 && !scan) {
        diag_error(P(L)->diag, c->call->obj->at, "ufunc '%s' has no method '%s' (npxc knows reduce, accumulate "
                   "and outer; at is a statement of its own)", ufunc_info[f].name, method);
        return 0;
    }
    if (red == RED_COUNT || (scan && red != RED_sum && red != RED_prod)) {
        diag_error(P(L)->diag, c->call->obj->span, "np.%s is not supported yet", c->fname);
        return 0;
    }
    return reduce_along(L, c, red, scan);
}
