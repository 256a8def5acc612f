/* lower_diagonal.c: a matrix's diagonals: diagonal, diag and trace. The
 * k-th diagonal of an n x m matrix is a gather, a[r0 + i, c0 + i] for i in
 * range(len) (IR_TAKE with two arange positions). */
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

/* len(the k-th diagonal of an n x m matrix): of a square one n[|k|:], else
 * the smaller of its rows n[-k:] and columns m[k:]: a size's slice where one
 * is a number (H[:1]), else min(N,M) (a size the program computes when it
 * starts). */
static Dim diagonal_length(Program *p, Dim n, Dim m, int64_t k)
{
    if (n == m)
        return ir_slice_dim(p, n, k < 0 ? -k : k, NPX_NO_BOUND, 1);
    Dim rows = k < 0 ? ir_slice_dim(p, n, -k, NPX_NO_BOUND, 1) : n;
    Dim cols = k > 0 ? ir_slice_dim(p, m, k, NPX_NO_BOUND, 1) : m;
    if (DIM_IS_SYM(rows) && DIM_IS_SYM(cols))
        return ir_min_dim(p, rows, cols);
    if (DIM_IS_SYM(rows))
        return ir_slice_dim(p, rows, NPX_NO_BOUND, cols, 1);
    if (DIM_IS_SYM(cols))
        return ir_slice_dim(p, cols, NPX_NO_BOUND, rows, 1);
    return rows < cols ? rows : cols;
}

/* The k-th diagonal of matrix x (0: the main one, > 0 above it). */
Ref lower_diagonal_of(Lower *L, Span at, Span span, Ref x, int64_t k)
{
    Program *p = P(L);
    const Shape *s = &V(p, x)->shape;
    Dim len = diagonal_length(p, s->d[0], s->d[1], k);
    Ref rows = build_arange(p, span, NPX_I64, k < 0 ? (double)-k : 0, 1, len);
    Ref cols = build_arange(p, span, NPX_I64, k > 0 ? (double)k : 0, 1, len);
    return build_take_within(p, at, span, x, (Ref[]){ rows, cols }, 2, 0);
}

/* Is x a matrix: fewer axes are NumPy's error, more not supported yet. */
static bool is_matrix(Lower *L, Call *c, Ref x)
{
    int ndim = x ? V(P(L), x)->shape.ndim : 2;
    if (ndim < 2)
        diag_error(P(L)->diag, c->call->at, "diag requires an array of at least two dimensions");
    if (ndim > 2)
        diag_error(P(L)->diag, c->call->at, "%s(): of a matrix only (this is %d-D); not supported yet", c->fname,
                   ndim);
    return x && ndim == 2;
}

/* diagonal(a, offset=0), a.diagonal(offset): of a matrix */
Ref call_diagonal(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "offset", NULL };
    const Expr *a[2];
    int64_t k = 0;
    if (!lower_bind_args(L, c, params, 1, a) || (a[1] && !lower_const_int(L, a[1], &k)))
        return 0;
    Ref x = lower_expr(L, a[0]);
    return is_matrix(L, c, x) ? lower_diagonal_of(L, c->call->at, c->call->span, x, k) : 0;
}

/* diag(v, k=0): a matrix's k-th diagonal, or the square matrix with vector
 * v on its k-th diagonal (as NumPy fills it: zeros elsewhere, v's dtype, n +
 * |k| rows). Off the main one, v is padded with |k| zeros: the cell (i, i + k)
 * holds v[i] (k > 0, v as a column) or v[i + k] (k < 0, v as a row). */
Ref call_diag(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "v", "k", NULL };
    const Expr *a[2];
    Program *p = P(L);
    int64_t k = 0;
    if (!lower_bind_args(L, c, params, 1, a) || (a[1] && !lower_const_int(L, a[1], &k)))
        return 0;
    Ref x = lower_expr(L, a[0]);
    if (!x)
        return 0;
    const Value *v = V(p, x);
    Span at = c->call->at, sp = c->call->span;
    if (v->shape.ndim == 2)
        return lower_diagonal_of(L, at, sp, x, k);
    if (v->shape.ndim != 1 || v->weak) {
        diag_error(p->diag, a[0]->span, "Input must be 1- or 2-d.");
        return 0;
    }
    npx_dtype t = v->dtype;
    Dim shift = k < 0 ? -k : k, n = ir_sum_dim(p, v->shape.d[0], shift);
    if (shift) {
        Shape pad = { 1, { shift } }, padded = { 1, { n } };
        Ref zeros = build_broadcast(p, sp, build_literal(p, sp, t, 0, 0, false), &pad);
        x = build_concat(p, sp, x, zeros, 0, &padded);
    }
    Ref on = build_ufunc(p, at, sp, UF_equal, (Ref[]){ lower_diagonals(p, at, sp, n, n),
                                                       build_literal(p, sp, NPX_I64, k, (double)k, true) }, 2, false);
    Ref along = k >= 0 ? build_expand(p, sp, x, 2u, 2) : x;               /* v[:, None] or v */
    return build_ufunc(p, at, sp, UF_where, (Ref[]){ on, along, build_literal(p, sp, t, 0, 0, false) }, 3, false);
}

/* trace(a, offset=0, axis1=0, axis2=1, dtype=None): the sum of a matrix's
 * diagonal, in sum's dtype (int32 and bool in int64). */
Ref call_trace(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "offset", "axis1", "axis2", "dtype", NULL };
    const Expr *a[5];
    Program *p = P(L);
    int64_t k = 0;
    if (!lower_bind_args(L, c, params, 1, a) || (a[1] && !lower_const_int(L, a[1], &k)) ||
        !lower_not_given(L, c, a[2], "axis1") || !lower_not_given(L, c, a[3], "axis2"))
        return 0;
    Ref x = lower_expr(L, a[0]);
    if (!is_matrix(L, c, x))
        return 0;
    npx_dtype t = NPX_BOOL;
    Ref d = lower_accumulate_as(L, c, lower_diagonal_of(L, c->call->at, c->call->span, x, k), a[4], &t);
    return t != NPX_BOOL ? build_reduce_as(p, c->call->span, RED_sum, d, 1u, false, t)
                         : build_reduce(p, c->call->span, RED_sum, d, 1u, false);
}
