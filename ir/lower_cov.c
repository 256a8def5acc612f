/* lower_cov.c: cov and corrcoef as NumPy computes them (numpy/lib/
 * _function_base_impl.py): the variables as rows of a float64 matrix (y
 * stacked under m; columns when rowvar=False), each row less its mean, the
 * product with its transpose times 1 / (N - ddof), squeezed; corrcoef divides
 * that by the standard deviations from its diagonal, then clips to [-1, 1]. */
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

/* m as NumPy's array(m, ndmin=2, dtype=result_type(m, float64)): float64
 * for each of npx's dtypes; variables as rows */
static Ref variables(Lower *L, Call *c, const Expr *e, bool rowvar, const char *name)
{
    Program *p = P(L);
    Span sp = c->call->span;
    Ref x = lower_asarray(p, sp, lower_expr(L, e));
    if (!x)
        return 0;
    int ndim = V(p, x)->shape.ndim;
    if (ndim > 2) {
        diag_error(p->diag, e->span, "%s has more than 2 dimensions", name);
        return 0;
    }
    if (V(p, x)->dtype != NPX_F64)
        x = build_cast(p, sp, x, NPX_F64);
    if (ndim < 2)
        x = build_expand(p, sp, x, ndim ? 1u : 3u, 2);
    return rowvar || ndim < 2 ? x : build_transpose(p, sp, x, NULL);
}

/* the covariance before NumPy's squeeze: a k x k matrix */
static Ref covariance(Lower *L, Call *c, const Expr *m, const Expr *y, bool rowvar, int64_t ddof)
{
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    Ref x = variables(L, c, m, rowvar, "m");
    if (x && y) {
        Ref x2 = variables(L, c, y, rowvar, "y");
        x = x2 ? lower_join(L, sp, at, x, x2, 0, 0) : 0;
    }
    if (!x)
        return 0;
    Ref avg = build_reduce(p, sp, RED_mean, x, 2u, true);
    Ref centered = lower_operator(L, AST_SUB, at, sp, x, avg);
    Ref product = build_matmul(p, at, sp, centered, build_transpose(p, sp, centered, NULL), "dot");
    Dim n = V(p, x)->shape.d[1];
    Ref fact = lower_operator(L, AST_SUB, at, sp, build_dimval(p, sp, &(Shape){ 1, { n } }),
                              build_literal(p, sp, NPX_I64, ddof, (double)ddof, true));
    fact = build_ufunc(p, at, sp, UF_maximum, (Ref[]){ fact, build_literal(p, sp, NPX_I64, 0, 0, true) }, 2, false);
    Ref inverse = lower_operator(L, AST_DIV, at, sp, build_literal(p, sp, NPX_F64, 0, 1.0, false),
                                 build_cast(p, sp, fact, NPX_F64));   /* fact <= 0: 0.0, and inf */
    return lower_operator(L, AST_MUL, at, sp, product, inverse);   /* c *= true_divide(1, fact) */
}

/* NumPy's c.squeeze(): a single variable (a literal 1 x 1) is a 0-d value */
static Ref squeezed(Program *p, Span sp, Ref c)
{
    const Shape *s = c ? &V(p, c)->shape : NULL;
    if (!s || s->d[0] != 1)
        return c;
    AxisIndex first[2] = { { true, 0, NPX_NO_BOUND, 1, 0, 0 }, { true, 0, NPX_NO_BOUND, 1, 0, 0 } };
    return build_index(p, sp, c, first);
}

/* cov(m, y=None, rowvar=True, bias=False, ddof=None) and corrcoef(x, y=None,
 * rowvar=True) (which 1) */
Ref call_cov(Lower *L, Call *c, int which)
{
    static const char *const cov[] = { "m", "y", "rowvar", "bias", "ddof", "fweights", "aweights", "dtype", NULL };
    static const char *const corr[] = { "x", "y", "rowvar", "bias", "ddof", "dtype", NULL };
    const Expr *a[8] = { NULL };
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    bool rowvar = true, bias = false;
    int64_t ddof = 1;
    if (!lower_bind_args(L, c, which ? corr : cov, 1, a) || (a[2] && !lower_bool_flag(L, a[2], &rowvar)) ||
        (which ? !lower_not_given(L, c, a[3], "bias") || !lower_not_given(L, c, a[4], "ddof") ||
                     !lower_not_given(L, c, a[5], "dtype")
               : (a[3] && !lower_bool_flag(L, a[3], &bias)) || !lower_not_given(L, c, a[5], "fweights") ||
                     !lower_not_given(L, c, a[6], "aweights") || !lower_not_given(L, c, a[7], "dtype")) ||
        (!which && a[4] && a[4]->kind != EXPR_NONE && !lower_const_int(L, a[4], &ddof)))
        return 0;
    const Expr *y = a[1] && a[1]->kind != EXPR_NONE ? a[1] : NULL;
    bool ddof_given = !which && a[4] && a[4]->kind != EXPR_NONE;
    Ref cv = covariance(L, c, a[0], y, rowvar, ddof_given ? ddof : bias ? 0 : 1);
    if (!which || !cv)
        return squeezed(p, sp, cv);
    if (V(p, cv)->shape.d[0] == 1) {              /* one variable: NumPy's c / c */
        Ref one = squeezed(p, sp, cv);
        return lower_operator(L, AST_DIV, at, sp, one, one);
    }
    Ref sd = lower_diagonal_of(L, at, sp, cv, 0);
    sd = sd ? build_ufunc(p, at, sp, UF_sqrt, &sd, 1, false) : 0;
    if (!sd)
        return 0;
    Ref r = lower_operator(L, AST_DIV, at, sp, cv, build_expand(p, sp, sd, 2u, 2));
    r = lower_operator(L, AST_DIV, at, sp, r, build_expand(p, sp, sd, 1u, 2));
    Ref lo = build_literal(p, sp, NPX_F64, 0, -1.0, true), hi = build_literal(p, sp, NPX_F64, 0, 1.0, true);
    r = build_ufunc(p, at, sp, UF_maximum, (Ref[]){ r, lo }, 2, false);
    return squeezed(p, sp, build_ufunc(p, at, sp, UF_minimum, (Ref[]){ r, hi }, 2, false));
}
