/* lower_numeric.c: NumPy functions of values and numbers that NumPy writes
 * in Python over its ufuncs, lowered to the same ufuncs in the same order so
 * that they round as NumPy's do: copy, len, the scalar types (np.float32(v)),
 * isclose and allclose, round, nan_to_num, linalg.norm and logaddexp. */
#include <float.h>
#include <stdint.h>
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

bool lower_not_given(Lower *L, Call *c, const Expr *e, const char *param)
{
    if (e && e->kind != EXPR_NONE) {
        diag_error(P(L)->diag, e->span, "%s(): '%s=' is not supported yet", c->fname, param);
        return false;
    }
    return true;
}

Ref lower_asarray(Program *p, Span span, Ref x)
{
    const Value *v = x ? V(p, x) : NULL;
    return v && v->weak ? build_cast(p, span, x, dtype_default(v->dtype)) : x;
}

/* copy(a), a.copy(): npx never shares one array between two names, so the
 * value itself; a Python number becomes a 0-d array, as np.copy(1.5). */
Ref call_copy(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "order", "subok", NULL };
    const Expr *a[3];
    if (!lower_bind_args(L, c, params, 1, a) || !lower_not_given(L, c, a[1], "order") ||
        !lower_not_given(L, c, a[2], "subok"))
        return 0;
    return lower_asarray(P(L), c->call->span, lower_expr(L, a[0]));
}

/* len(x): x.shape[0] as a Python int. */
Ref call_len(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "obj", NULL };
    const Expr *a[1];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 1, a))
        return 0;
    Ref x = lower_expr(L, a[0]);
    if (!x)
        return 0;
    const Value *v = V(p, x);
    if (v->shape.ndim == 0) {
        diag_error(p->diag, a[0]->span, "len() of a 0-d value (%s), which has no length",
                   shape_str(p, &v->shape, v->dtype, v->weak));
        return 0;
    }
    Dim n = v->shape.d[0];
    if (DIM_IS_SYM(n))
        return build_dimval(p, c->call->span, &(Shape){ 1, { n } });
    return build_literal(p, c->call->span, NPX_I64, n, (double)n, true);
}

/* np.float32(v), np.int64(v), np.bool_(v)...: a number becomes a scalar of
 * that dtype (a Python int must fit in it, as NumPy checks), an array is
 * converted as by astype. */
Ref call_scalar_type(Lower *L, Call *c, int t)
{
    static const char *const params[] = { "value", NULL };
    const Expr *a[1];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 1, a))
        return 0;
    Ref x = lower_expr(L, a[0]);
    if (!x)
        return 0;
    const Value *v = V(p, x);
    if (t == NPX_I32 && v->weak && v->kind == IR_LITERAL && dtype_is_int(v->dtype) &&
        (v->ival < INT32_MIN || v->ival > INT32_MAX)) {
        diag_error(p->diag, a[0]->span, "Python integer %lld out of bounds for int32", (long long)v->ival);
        return 0;
    }
    return build_cast(p, c->call->span, x, (npx_dtype)t);
}
