/* lower_numeric.c: NumPy functions of values and numbers that NumPy writes
 * in Python over its ufuncs, lowered to the same ufuncs in the same order so
 * that they round as NumPy's do: copy, len, the scalar types (np.float32(v)),
 * isclose and allclose, round, nan_to_num and logaddexp (linalg.norm:
 * lower_norm.c). */
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
    return v && v->weak ? build_converted(p, span, x, dtype_default(v->dtype)) : x;
}

static Ref number(Program *p, Span span, double v)
{
    return build_literal(p, span, NPX_F64, 0, v, true);
}

/* copy(a), a.copy(): a value of its own (never a view of a's array, which
 * x[i] = v may change); a Python number becomes a 0-d array, as np.copy(1.5). */
Ref call_copy(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "order", "subok", NULL };
    const Expr *a[3];
    if (!lower_bind_args(L, c, params, 1, a) || !lower_not_given(L, c, a[1], "order") ||
        !lower_not_given(L, c, a[2], "subok"))
        return 0;
    Ref x = lower_expr(L, a[0]);
    return x && !V(P(L), x)->weak ? build_cast(P(L), c->call->span, x, V(P(L), x)->dtype)
                                  : lower_asarray(P(L), c->call->span, x);
}

/* The argument of a function that takes one and nothing else (named param
 * as a keyword), lowered; *e is where it is written. */
static Ref only_argument(Lower *L, Call *c, const char *param, const Expr **e)
{
    const char *const params[] = { param, NULL };
    return lower_bind_args(L, c, params, 1, e) ? lower_expr(L, *e) : 0;
}

/* len(x): x.shape[0] as a Python int. */
Ref call_len(Lower *L, Call *c, int unused)
{
    (void)unused;
    const Expr *e;
    Program *p = P(L);
    Ref x = only_argument(L, c, "obj", &e);
    if (!x)
        return 0;
    const Value *v = V(p, x);
    if (v->shape.ndim == 0) {
        diag_error(p->diag, e->span, "len() of a 0-d value (%s), which has no length",
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
    const Expr *e;
    Program *p = P(L);
    Ref x = only_argument(L, c, "value", &e);
    if (!x)
        return 0;
    const Value *v = V(p, x);
    if (t == NPX_I32 && v->weak && v->kind == IR_LITERAL && dtype_is_int(v->dtype) &&
        (v->ival < INT32_MIN || v->ival > INT32_MAX)) {
        diag_error(p->diag, e->span, "Python integer %lld out of bounds for int32", (long long)v->ival);
        return 0;
    }
    return build_cast(p, c->call->span, x, (npx_dtype)t);
}

/* isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) as NumPy 2 writes
 * it: b made inexact (result_type(b, 1.0), a Python int made a float), then
 * abs(a - b) <= atol + rtol * abs(b) & isfinite(b) | (a == b), or'ed with
 * isnan(a) & isnan(b) for equal_nan. allclose (all): all of it, a Python
 * bool. */
Ref call_isclose(Lower *L, Call *c, int all)
{
    static const char *const params[] = { "a", "b", "rtol", "atol", "equal_nan", NULL };
    const Expr *a[5];
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    bool equal_nan = false;
    if (!lower_bind_args(L, c, params, 2, a) || (a[4] && !lower_bool_flag(L, a[4], &equal_nan)))
        return 0;
    Ref x = lower_expr(L, a[0]), y = lower_expr(L, a[1]);
    Ref rtol = a[2] ? lower_expr(L, a[2]) : number(p, sp, 1e-05);
    Ref atol = a[3] ? lower_expr(L, a[3]) : number(p, sp, 1e-08);
    if (!x || !y || !rtol || !atol)
        return 0;
    if (!dtype_is_float(V(p, y)->dtype))
        y = V(p, y)->weak ? build_ufunc(p, at, sp, UF_multiply, (Ref[]){ y, number(p, sp, 1.0) }, 2, true)
                          : build_cast(p, sp, y, NPX_F64);
    Ref diff = build_ufunc(p, at, sp, UF_subtract, (Ref[]){ x, y }, 2, true);
    diff = build_ufunc(p, at, sp, UF_absolute, &diff, 1, true);
    Ref tol = build_ufunc(p, at, sp, UF_absolute, &y, 1, true);
    tol = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ rtol, tol }, 2, true);
    tol = build_ufunc(p, at, sp, UF_add, (Ref[]){ atol, tol }, 2, true);
    Ref close = build_ufunc(p, at, sp, UF_less_equal, (Ref[]){ diff, tol }, 2, false);
    Ref finite = build_ufunc(p, at, sp, UF_isfinite, &y, 1, false);
    close = build_ufunc(p, at, sp, UF_bitwise_and, (Ref[]){ close, finite }, 2, true);
    Ref same = build_ufunc(p, at, sp, UF_equal, (Ref[]){ x, y }, 2, true);
    close = build_ufunc(p, at, sp, UF_bitwise_or, (Ref[]){ close, same }, 2, true);
    if (equal_nan) {
        Ref nan_x = build_ufunc(p, at, sp, UF_isnan, &x, 1, false), nan_y = build_ufunc(p, at, sp, UF_isnan, &y, 1, false);
        Ref both = build_ufunc(p, at, sp, UF_bitwise_and, (Ref[]){ nan_x, nan_y }, 2, true);
        close = build_ufunc(p, at, sp, UF_bitwise_or, (Ref[]){ close, both }, 2, true);
    }
    if (!all || !close)
        return close;
    const Shape *s = &V(p, close)->shape;
    Ref r = build_reduce(p, sp, RED_all, close, s->ndim ? (1u << s->ndim) - 1 : 0, false);
    V(p, r)->weak = true;                        /* bool(...): a Python bool */
    return r;
}

/* NumPy's power_of_ten: a table to 1e8, then multiplied by 10 one at a time. */
static double power_of_ten(int64_t n)
{
    static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8 };
    if (n < 9)
        return p10[n];
    double r = 1e9;
    while (n-- > 9)
        r *= 10.;
    return r;
}

/* round(a, decimals=0), around, a.round(): as NumPy's PyArray_Round,
 * rint(a) for decimals 0, else rint(a * 10**decimals) / 10**decimals (the
 * power a Python float), or rint(a / 10**-decimals) * 10**-decimals for
 * negative decimals, which integers compute in float64 and convert back;
 * integers are unchanged by decimals >= 0. */
Ref call_round(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "decimals", "out", NULL };
    const Expr *a[3];
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    int64_t decimals = 0;
    if (!lower_bind_args(L, c, params, 1, a) || !lower_not_given(L, c, a[2], "out") ||
        (a[1] && !lower_const_int(L, a[1], &decimals)))
        return 0;
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0]));
    if (!x)
        return 0;
    npx_dtype t = V(p, x)->dtype;
    if (t == NPX_BOOL) {
        diag_error(p->diag, at, "round of a bool array computes in float16 in NumPy, which is not supported yet; "
                                "convert first, e.g. x.astype(f32)");
        return 0;
    }
    if (dtype_is_int(t) && decimals >= 0)
        return x;
    if (decimals == 0)
        return build_ufunc(p, at, sp, UF_rint, &x, 1, false);
    if (decimals < -308 || decimals > 308) {
        diag_error(p->diag, a[1]->span, "round(): decimals beyond +-308 are not supported yet");
        return 0;
    }
    Ref f = number(p, sp, power_of_ten(decimals < 0 ? -decimals : decimals));
    Ufunc first = decimals > 0 ? UF_multiply : UF_true_divide, then = decimals > 0 ? UF_true_divide : UF_multiply;
    Ref r = build_ufunc(p, at, sp, first, (Ref[]){ x, f }, 2, false);
    r = build_ufunc(p, at, sp, UF_rint, &r, 1, false);
    r = build_ufunc(p, at, sp, then, (Ref[]){ r, f }, 2, false);
    return dtype_is_int(t) ? build_cast(p, sp, r, t) : r;
}

/* A replacement value of nan_to_num: given (a number), or dflt; in x's
 * dtype, as copyto puts it there. */
static Ref replacement(Lower *L, Call *c, const Expr *e, const char *param, Ref dflt, npx_dtype t)
{
    Program *p = P(L);
    Ref v = e && e->kind != EXPR_NONE ? lower_expr(L, e) : dflt;
    if (v && V(p, v)->shape.ndim != 0) {
        diag_error(p->diag, e->span, "%s(): '%s=' as an array is not supported yet", c->fname, param);
        return 0;
    }
    return v && (V(p, v)->weak || V(p, v)->dtype != t) ? build_cast(p, c->call->span, v, t) : v;
}

/* nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None): NaN, inf
 * and -inf replaced (by the dtype's largest and smallest finite values by
 * default); integers and bools unchanged. */
Ref call_nan_to_num(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "x", "copy", "nan", "posinf", "neginf", NULL };
    const Expr *a[5];
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    bool copy;
    if (!lower_bind_args(L, c, params, 1, a) || (a[1] && !lower_bool_flag(L, a[1], &copy)))
        return 0;
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0]));
    if (!x || !dtype_is_float(V(p, x)->dtype))
        return x;
    npx_dtype t = V(p, x)->dtype;
    double max = t == NPX_F32 ? FLT_MAX : DBL_MAX;
    Ref nan = replacement(L, c, a[2], "nan", number(p, sp, 0.0), t);
    Ref posinf = replacement(L, c, a[3], "posinf", build_literal(p, sp, t, 0, max, false), t);
    Ref neginf = replacement(L, c, a[4], "neginf", build_literal(p, sp, t, 0, -max, false), t);
    if (!nan || !posinf || !neginf)
        return 0;
    Ref positive = build_ufunc(p, at, sp, UF_greater, (Ref[]){ x, number(p, sp, 0.0) }, 2, false);
    Ref inf = build_ufunc(p, at, sp, UF_where, (Ref[]){ positive, posinf, neginf }, 3, false);
    Ref is_inf = build_ufunc(p, at, sp, UF_isinf, &x, 1, false), is_nan = build_ufunc(p, at, sp, UF_isnan, &x, 1, false);
    Ref r = build_ufunc(p, at, sp, UF_where, (Ref[]){ is_inf, inf, x }, 3, false);
    return build_ufunc(p, at, sp, UF_where, (Ref[]){ is_nan, nan, r }, 3, false);
}

/* logaddexp(x1, x2) as NumPy's npy_logaddexp, in the dtype of the loop
 * (float64 for integers): x1 + log(2) where x1 == x2 (infinities too), else
 * the larger plus log1p(exp(-|x1 - x2|)), and NaN where the difference is. */
Ref call_logaddexp(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "x1", "x2", NULL };
    const Expr *a[2];
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    Ref x = lower_expr(L, a[0]), y = lower_expr(L, a[1]);
    if (!x || !y)
        return 0;
    bool all_weak;
    npx_dtype t = weak_common_dtype(p, (Ref[]){ x, y }, 2, &all_weak);
    if (t == NPX_BOOL) {
        diag_error(p->diag, at, "'logaddexp' of bool arrays computes in float16 in NumPy, which is not "
                                "supported yet; convert first, e.g. x.astype(f32)");
        return 0;
    }
    t = dtype_is_int(t) ? NPX_F64 : t;
    if (V(p, x)->weak || V(p, x)->dtype != t)
        x = build_cast(p, sp, x, t);
    if (V(p, y)->weak || V(p, y)->dtype != t)
        y = build_cast(p, sp, y, t);
    Ref d = build_ufunc(p, at, sp, UF_subtract, (Ref[]){ x, y }, 2, false);
    Ref minus_d = build_ufunc(p, at, sp, UF_negative, &d, 1, false);
    Ref from_x = build_ufunc(p, at, sp, UF_exp, &minus_d, 1, false), from_y = build_ufunc(p, at, sp, UF_exp, &d, 1, false);
    from_x = build_ufunc(p, at, sp, UF_log1p, &from_x, 1, false);
    from_y = build_ufunc(p, at, sp, UF_log1p, &from_y, 1, false);
    from_x = build_ufunc(p, at, sp, UF_add, (Ref[]){ x, from_x }, 2, false);
    from_y = build_ufunc(p, at, sp, UF_add, (Ref[]){ y, from_y }, 2, false);
    Ref zero = number(p, sp, 0.0);
    Ref x_larger = build_ufunc(p, at, sp, UF_greater, (Ref[]){ d, zero }, 2, false);
    Ref y_larger = build_ufunc(p, at, sp, UF_less_equal, (Ref[]){ d, zero }, 2, false);
    Ref r = build_ufunc(p, at, sp, UF_where, (Ref[]){ y_larger, from_y, d }, 3, false);
    r = build_ufunc(p, at, sp, UF_where, (Ref[]){ x_larger, from_x, r }, 3, false);
    Ref equal = build_ufunc(p, at, sp, UF_equal, (Ref[]){ x, y }, 2, false);
    Ref twice = build_ufunc(p, at, sp, UF_add, (Ref[]){ x, number(p, sp, 0.693147180559945309417232121458176568) }, 2, false);
    return build_ufunc(p, at, sp, UF_where, (Ref[]){ equal, twice, r }, 3, false);
}
