/* lower_tensordot.c: products of whole arrays, computed as NumPy computes
 * them. np.tensordot(a, b, axes=2), the sum of products over pairs of axes
 * (numpy/_core/numeric.py): a's summed axes moved last and b's first, each
 * operand read as a matrix, one matrix product (BLAS or npxc's GEMM behind
 * it), and the result read with a's other axes then b's; inner() of arrays
 * of more than two axes is the same product over the last axes. np.kron(a,
 * b) (numpy/lib/_shape_base_impl.py): the operands' axes interleaved with
 * size-1 ones, multiplied, read with each pair of axes as one. */
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

/* x viewed as a matrix: the axes in `order`, the first `rows` of them
 * merged into its rows and the others into its columns; false when a
 * merged size would need more size symbols than a size may hold. */
static bool as_matrix(Program *p, Span at, Span sp, Ref *x, const int *order, int rows, Shape *free_axes, bool first)
{
    const Shape *s = &V(p, *x)->shape;
    Dim d[NPX_MAX_RANK], merged[2];
    bool moved = false;
    for (int k = 0; k < s->ndim; k++) {
        d[k] = s->d[order[k]];
        moved |= order[k] != k;
    }
    int nfree = first ? rows : s->ndim - rows;
    *free_axes = (Shape){ nfree, { 0 } };
    for (int k = 0; k < nfree; k++)
        free_axes->d[k] = d[first ? k : rows + k];
    if (!ir_product_dim(p, d, rows, &merged[0]) || !ir_product_dim(p, d + rows, s->ndim - rows, &merged[1])) {
        diag_error(p->diag, at, "tensordot(): more than %d size symbols in one size", NPX_MAX_RANK);
        return false;
    }
    if (moved)
        *x = build_transpose(p, sp, *x, order);
    if (s->ndim != 2 || s->d[0] != merged[0] || s->d[1] != merged[1])
        *x = build_reshape(p, sp, *x, &(Shape){ 2, { merged[0], merged[1] } });
    return *x != 0;
}

Ref lower_tensordot(Lower *L, Span at, Span sp, Ref x, Ref y, const int *axes_x, const int *axes_y, int n)
{
    Program *p = P(L);
    const Shape *sx = &V(p, x)->shape, *sy = &V(p, y)->shape;
    for (int k = 0; k < n; k++) {
        Dim dx = sx->d[axes_x[k]], dy = sy->d[axes_y[k]];
        if (dims_differ(p, dx, dy)) {
            diag_error(p->diag, at, "shape-mismatch for sum: axis %d of a (%s) is %s long, axis %d of b (%s) is %s",
                       axes_x[k], shape_str(p, sx, V(p, x)->dtype, false), dim_str(p, dx), axes_y[k],
                       shape_str(p, sy, V(p, y)->dtype, false), dim_str(p, dy));
            return 0;
        }
        if (dx != dy)
            ir_add_check(p, p->nstmts - 1, dx, dy, at, "tensordot: shape-mismatch for sum");
    }
    int nfree = sx->ndim + sy->ndim - 2 * n;
    if (nfree > NPX_MAX_RANK) {
        diag_error(p->diag, at, "tensordot(): a result of %d axes is not supported yet (at most %d)", nfree,
                   NPX_MAX_RANK);
        return 0;
    }
    int order_x[NPX_MAX_RANK], order_y[NPX_MAX_RANK], kx = 0, ky = n;
    uint32_t summed_x = 0, summed_y = 0;
    for (int k = 0; k < n; k++) {
        summed_x |= 1u << axes_x[k];
        summed_y |= 1u << axes_y[k];
        order_x[sx->ndim - n + k] = axes_x[k];  /* a: the others, then the summed axes */
        order_y[k] = axes_y[k];                 /* b: the summed axes, then the others */
    }
    for (int k = 0; k < sx->ndim; k++)
        if (!(summed_x >> k & 1))
            order_x[kx++] = k;
    for (int k = 0; k < sy->ndim; k++)
        if (!(summed_y >> k & 1))
            order_y[ky++] = k;
    Shape free_x, free_y;
    if (!as_matrix(p, at, sp, &x, order_x, sx->ndim - n, &free_x, true) ||
        !as_matrix(p, at, sp, &y, order_y, n, &free_y, false))
        return 0;
    Ref product = build_matmul(p, at, sp, x, y, "tensordot");
    Shape out = free_x;
    for (int k = 0; k < free_y.ndim; k++)
        out.d[out.ndim++] = free_y.d[k];
    const Shape *got = product ? &V(p, product)->shape : NULL;
    if (!got || (got->ndim == 2 && out.ndim == 2 && got->d[0] == out.d[0] && got->d[1] == out.d[1]))
        return product;
    return build_reshape(p, sp, product, &out);
}

/* tensordot(a, b, axes=2): axes an int N (a's last N axes with b's first
 * N) or a pair (axes of a, axes of b), each an int or a list. */
Ref call_tensordot(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "b", "axes", NULL };
    const Expr *a[3];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    Span at = c->call->at, sp = c->call->span;
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0])), y = x ? lower_asarray(p, sp, lower_expr(L, a[1])) : 0;
    if (!y)
        return 0;
    int nx = V(p, x)->shape.ndim, ny = V(p, y)->shape.ndim, axes_x[NPX_MAX_RANK], axes_y[NPX_MAX_RANK], n, m;
    const Expr *axes = a[2];
    if (axes && (axes->kind == EXPR_TUPLE || axes->kind == EXPR_LIST)) {
        if (axes->args.n != 2) {
            diag_error(p->diag, axes->span, "tensordot(): axes= is an int or a pair (axes of a, axes of b); "
                                            "%d items cannot be unpacked into two", axes->args.n);
            return 0;
        }
        /* NumPy indexes a.shape with them: IndexError */
        const char *duplicate = "duplicate axes are not allowed in tensordot";
        n = lower_axis_list(L, axes->args.v[0], nx, "tuple index out of range (axis %lld of a, which has %d)",
                            duplicate, axes_x);
        m = n < 0 ? -1
                  : lower_axis_list(L, axes->args.v[1], ny, "tuple index out of range (axis %lld of b, which has %d)",
                                    duplicate, axes_y);
        if (m < 0)
            return 0;
        if (n != m) {
            diag_error(p->diag, axes->span, "shape-mismatch for sum: %d of a's axes against %d of b's", n, m);
            return 0;
        }
    } else {
        int64_t count = 2;
        if (axes && !lower_const_int(L, axes, &count))
            return 0;
        n = count > 0 ? (int)(count < NPX_MAX_RANK ? count : NPX_MAX_RANK + 1) : 0;   /* range(-N, 0) */
        if (n > nx || n > ny) {
            diag_error(p->diag, axes ? axes->span : at, "tuple index out of range (%lld axes summed; a has %d, b %d)",
                       (long long)count, nx, ny);
            return 0;
        }
        for (int k = 0; k < n; k++) {
            axes_x[k] = nx - n + k;
            axes_y[k] = k;
        }
    }
    return lower_tensordot(L, at, sp, x, y, axes_x, axes_y, n);
}

/* kron(a, b): with the axes aligned from the right (size-1 axes before the
 * shorter shape), a as [a0, 1, a1, 1, ...] times b as [1, b0, 1, b1, ...],
 * read as [a0 * b0, a1 * b1, ...]; a 0-d operand multiplies. */
Ref call_kron(Lower *L, Call *c, int unused)
{
    (void)unused;
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    Ref x, y;
    if (!lower_two_arrays(L, c, &x, &y))
        return 0;
    int nx = V(p, x)->shape.ndim, ny = V(p, y)->shape.ndim, nd = nx > ny ? nx : ny;
    if (nx == 0 || ny == 0)
        return build_ufunc(p, at, sp, UF_multiply, (Ref[]){ x, y }, 2, false);
    if (2 * nd > NPX_MAX_RANK) {
        diag_error(p->diag, at, "kron() of arrays of %d axes is not supported yet (at most %d)", nd, NPX_MAX_RANK / 2);
        return 0;
    }
    if (nx < nd)
        x = build_expand(p, sp, x, (1u << (nd - nx)) - 1, nd);
    if (ny < nd)
        y = build_expand(p, sp, y, (1u << (nd - ny)) - 1, nd);
    Shape out = { nd, { 0 } };
    uint32_t odd = 0;
    for (int k = 0; k < nd; k++) {
        odd |= 2u << (2 * k);
        if (!ir_product_dim(p, (Dim[]){ V(p, x)->shape.d[k], V(p, y)->shape.d[k] }, 2, &out.d[k])) {
            diag_error(p->diag, at, "kron(): more than %d size symbols in one size", NPX_MAX_RANK);
            return 0;
        }
    }
    Ref wide_x = build_expand(p, sp, x, odd, 2 * nd), wide_y = build_expand(p, sp, y, odd >> 1, 2 * nd);
    Ref product = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ wide_x, wide_y }, 2, false);
    return product ? build_reshape(p, sp, product, &out) : 0;
}
