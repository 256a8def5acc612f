/* lower_diagonal.c: a matrix's diagonals: diagonal, diag and trace. The
 * k-th diagonal of an n x m matrix is a gather, a[r0 + i, c0 + i] for i in
 * range(len) (IR_TAKE with two arange positions); its length is known when
 * a size is a number, or of a square matrix. */
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

/* len(the k-th diagonal of an n x m matrix), when npxc can know it: of a
 * square one n[|k|:], else the smaller of its rows n[-k:] and columns m[k:]
 * where one is a number (a size's slice: H[:1]) or they are the same size. */
static bool diagonal_length(Program *p, Dim n, Dim m, int64_t k, Dim *len)
{
    if (n == m) {
        *len = ir_slice_dim(p, n, k < 0 ? -k : k, NPX_NO_BOUND, 1);
        return true;
    }
    Dim rows = k < 0 ? ir_slice_dim(p, n, -k, NPX_NO_BOUND, 1) : n;
    Dim cols = k > 0 ? ir_slice_dim(p, m, k, NPX_NO_BOUND, 1) : m;
    if (DIM_IS_SYM(rows) && DIM_IS_SYM(cols)) {
        *len = rows;
        return rows == cols;
    }
    if (DIM_IS_SYM(rows))
        *len = ir_slice_dim(p, rows, NPX_NO_BOUND, cols, 1);
    else if (DIM_IS_SYM(cols))
        *len = ir_slice_dim(p, cols, NPX_NO_BOUND, rows, 1);
    else
        *len = rows < cols ? rows : cols;
    return true;
}

/* The k-th diagonal of matrix x (0: the main one, > 0 above it). */
Ref lower_diagonal_of(Lower *L, Span at, Span span, Ref x, int64_t k)
{
    Program *p = P(L);
    const Shape *s = &V(p, x)->shape;
    Dim len;
    if (!diagonal_length(p, s->d[0], s->d[1], k, &len)) {
        diag_error(p->diag, at, "the diagonal of %s: its length, the smaller of two sizes, is known only for a "
                   "square matrix or where one size is a number; not supported yet", shape_str(p, s, V(p, x)->dtype,
                                                                                           false));
        return 0;
    }
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
 * v on its main diagonal (as NumPy fills it: zeros elsewhere, v's dtype). */
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
    if (k != 0) {
        diag_error(p->diag, a[1]->span, "diag(): a vector on a diagonal other than the main one is not supported "
                   "yet");
        return 0;
    }
    Dim n = v->shape.d[0];
    Ref on = build_ufunc(p, at, sp, UF_equal, (Ref[]){ lower_diagonals(p, at, sp, n, n),
                                                       build_literal(p, sp, NPX_I64, 0, 0, true) }, 2, false);
    Ref column = build_expand(p, sp, x, 2u, 2);                            /* v[:, None] */
    return build_ufunc(p, at, sp, UF_where, (Ref[]){ on, column, build_literal(p, sp, NPX_I64, 0, 0, true) }, 3,
                       false);
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
