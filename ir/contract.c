/* contract.c: sums of products over labelled axes, the computation behind
 * einsum. Each operand's axes carry labels; the result has the labels `out`,
 * in that order, and every other label is summed over. It is lowered to operations the passes already run well: each
 * operand is viewed with its labels in one order (a transpose, then size-1
 * axes for the labels it lacks), the views are multiplied with broadcasting,
 * and the product is summed over its trailing axes, so that the fused loop
 * over the summed labels reads the product without ever storing it. A product
 * of two matrices, vectors or stacks of matrices goes to build_matmul, which
 * has BLAS and cuBLAS behind it. Sizes are the callers' to check: they know what the user wrote. */
#include <string.h>
#include "build.h"

/* Where label l is in the list, or -1. */
static int position(const int *labels, int n, int l)
{
    for (int i = 0; i < n; i++)
        if (labels[i] == l)
            return i;
    return -1;
}

/* t viewed with the axes permuted so that they follow `order`. */
static Ref arrange(Program *p, Span span, const Term *t, const int *order, int norder)
{
    int perm[NPX_MAX_RANK], n = 0;
    bool moved = false;
    for (int i = 0; i < norder; i++) {
        int k = position(t->label, t->ndim, order[i]);
        if (k >= 0) {
            moved |= k != n;
            perm[n++] = k;
        }
    }
    return moved ? build_transpose(p, span, t->ref, perm) : t->ref;
}

static Dim label_size(const Program *p, const Term *t, int l)
{
    return p->vals[t->ref].shape.d[position(t->label, t->ndim, l)];
}

/* a @ b when the sum is a matrix product, or a stack of them: one summed
 * label, in both operands and as long in each; at most one kept label of
 * each operand's own (its rows, its columns); the others in both operands
 * and the output (the stack). 0 when it is not. */
static Ref as_matmul(Program *p, Span at, Span span, const Term *t, const int *out, int nout)
{
    int summed = -1, nsummed = 0, own[2] = { -1, -1 }, nown[2] = { 0, 0 }, stack[NPX_MAX_RANK], nstack = 0;
    for (int side = 0; side < 2; side++)
        for (int k = 0; k < t[side].ndim; k++) {
            int l = t[side].label[k];
            bool other = position(t[!side].label, t[!side].ndim, l) >= 0;
            bool kept = position(out, nout, l) >= 0;
            if (!other && !kept)         /* summed in one operand only */
                return 0;
            if (!other) {
                own[side] = l;
                nown[side]++;
            } else if (side == 0 && kept) {
                stack[nstack++] = l;
            } else if (side == 0) {
                summed = l;
                nsummed++;
            }
        }
    if (nsummed != 1 || nown[0] > 1 || nown[1] > 1 || (nstack && (!nown[0] || !nown[1])) ||
        label_size(p, &t[0], summed) != label_size(p, &t[1], summed))
        return 0;
    if (nown[0] && nown[1] && position(out, nout, own[1]) < position(out, nout, own[0]))
        return as_matmul(p, at, span, (Term[]){ t[1], t[0] }, out, nout);    /* (a @ b).T is b.T @ a.T */
    int order[2][NPX_MAX_RANK], n[2];             /* the stack, then a's rows and j, or j and b's columns */
    for (int side = 0; side < 2; side++) {
        memcpy(order[side], stack, sizeof(int) * nstack);
        n[side] = nstack;
        if (side == 1)
            order[side][n[side]++] = summed;
        if (nown[side])
            order[side][n[side]++] = own[side];
        if (side == 0)
            order[side][n[side]++] = summed;
    }
    Ref a = arrange(p, span, &t[0], order[0], n[0]), b = arrange(p, span, &t[1], order[1], n[1]);
    Term product = { build_matmul(p, at, span, a, b, "einsum"), 0, { 0 } };
    memcpy(product.label, stack, sizeof(int) * nstack);
    product.ndim = nstack;
    for (int side = 0; side < 2; side++)
        if (nown[side])
            product.label[product.ndim++] = own[side];
    return product.ref ? arrange(p, span, &product, out, nout) : 0;
}

/* NumPy computes every product of an einsum in its operands' common dtype */
static npx_dtype common_dtype(Program *p, const Term *t, int n)
{
    npx_dtype common = V(p, t[0].ref)->dtype;
    for (int i = 1; i < n; i++)
        common = dtype_promote(common, V(p, t[i].ref)->dtype);
    return common;
}

/* More than two terms: the first two summed over the labels that nothing
 * after them has, when there are such labels (a chain of products becomes
 * matrix products: ij,jk,kl->il is ik,kl->il after ij,jk->ik), then the
 * rest. 0 when no label can go yet. */
static Ref first_pair(Program *p, Span at, Span span, const Term *t, int n, const int *out, int nout)
{
    Term rest[NPX_MAX_RANK] = { { 0, 0, { 0 } } };
    bool drops = false;
    for (int side = 0; side < 2; side++)
        for (int k = 0; k < t[side].ndim; k++) {
            int l = t[side].label[k];
            bool later = position(out, nout, l) >= 0;
            for (int i = 2; i < n && !later; i++)
                later = position(t[i].label, t[i].ndim, l) >= 0;
            if (!later)
                drops = true;
            else if (position(rest[0].label, rest[0].ndim, l) < 0)
                rest[0].label[rest[0].ndim++] = l;
        }
    if (!drops)
        return 0;
    npx_dtype common = common_dtype(p, t, n);
    Term pair[2] = { t[0], t[1] };
    for (int side = 0; side < 2; side++)
        if (V(p, pair[side].ref)->dtype != common)
            pair[side].ref = build_cast(p, span, pair[side].ref, common);
    rest[0].ref = build_contraction(p, at, span, pair, 2, rest[0].label, rest[0].ndim);
    memcpy(rest + 1, t + 2, sizeof(Term) * (size_t)(n - 2));
    return build_contraction(p, at, span, rest, n - 1, out, nout);
}

Ref build_contraction(Program *p, Span at, Span span, const Term *t, int n, const int *out, int nout)
{
    for (int i = 0; i < n; i++)
        if (!t[i].ref)
            return 0;
    Ref r = n == 2 ? as_matmul(p, at, span, t, out, nout) : n > 2 ? first_pair(p, at, span, t, n, out, nout) : 0;
    if (r)
        return r;
    int order[NPX_MAX_RANK], norder = nout;      /* the kept labels, then the summed ones */
    memcpy(order, out, sizeof(int) * nout);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < t[i].ndim; k++)
            if (position(order, norder, t[i].label[k]) < 0)
                order[norder++] = t[i].label[k];
    Ref product = 0;
    npx_dtype common = common_dtype(p, t, n);
    for (int i = 0; i < n; i++) {
        uint32_t missing = 0;
        for (int k = 0; k < norder; k++)
            if (position(t[i].label, t[i].ndim, order[k]) < 0)
                missing |= 1u << k;
        Ref view = arrange(p, span, &t[i], order, norder);
        if (missing)
            view = build_expand(p, span, view, missing, norder);
        if (V(p, view)->dtype != common)        /* f32 * f32 * f64: all three in f64 */
            view = build_cast(p, span, view, common);
        product = i ? build_ufunc(p, at, span, UF_multiply, (Ref[]){ product, view }, 2, false) : view;
    }
    uint32_t summed = ((1u << norder) - 1) & ~((1u << nout) - 1);
    if (!product || !summed)
        return product;
    npx_dtype t_out = V(p, product)->dtype;      /* NumPy sums in the operands' dtype */
    if (t_out == NPX_BOOL)
        return build_reduce(p, span, RED_any, product, summed, false);
    Ref sum = build_reduce(p, span, RED_sum, product, summed, false);
    return V(p, sum)->dtype == t_out ? sum : build_cast(p, span, sum, t_out);
}
