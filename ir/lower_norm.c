/* lower_norm.c: linalg.norm(x, ord=None, axis=None, keepdims=False), as
 * NumPy's linalg.norm computes it, step for step: integers made float64;
 * with no ord and no axis, sqrt(dot(ravel(x), ravel(x))); over one axis
 * the vector norms (inf, -inf, 0, 1, 2 and any other p: sum(|x|**p)**(1/p));
 * over two axes (or a matrix with no axis) the Frobenius norm and the
 * induced 1, -1, inf and -inf norms. The 2-norm of a matrix, 'nuc' and
 * their negatives need a singular value decomposition: not supported yet. */
#include <math.h>
#include <string.h>
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

/* ord: none given, a number (inf too), or a string ('fro') */
typedef struct {
    bool given, fro;
    const char *str;             /* ord='fro', 'nuc', ...: the string */
    double v;
} Ord;

static bool lower_ord(Lower *L, const Expr *e, Ord *o)
{
    Program *p = P(L);
    *o = (Ord){ false, false, NULL, 0 };
    if (!e || e->kind == EXPR_NONE)
        return true;
    o->given = true;
    if (e->kind == EXPR_STRING) {
        o->str = e->name;
        o->fro = strcmp(e->name, "fro") == 0 || strcmp(e->name, "f") == 0;
        return true;
    }
    if (e->kind == EXPR_UNARY && e->op == AST_NEG && e->lhs->kind != EXPR_STRING) {   /* -np.inf */
        if (!lower_ord(L, e->lhs, o))
            return false;
        o->v = -o->v;
        return true;
    }
    Ref r = lower_expr(L, e);
    const Value *v = r ? V(p, r) : NULL;
    if (!v || v->kind != IR_LITERAL || !v->weak || v->dtype == NPX_BOOL) {
        if (v)
            diag_error(p->diag, e->span, "linalg.norm: ord must be a number (np.inf, 1, 2, ...) or 'fro'");
        return false;
    }
    o->v = dtype_is_float(v->dtype) ? v->fval : (double)v->ival;
    return true;
}

static Ref number(Program *p, Span at, double v) { return build_literal(p, at, NPX_F64, 0, v, true); }

/* NumPy's vector norms along the axes `axes` (one) */
static Ref vector_norm(Lower *L, Span at, Span sp, Ref x, const Ord *o, uint32_t axes, bool keepdims)
{
    Program *p = P(L);
    Ref absx = build_ufunc(p, at, sp, UF_absolute, &x, 1, false);
    double v = o->v;
    if (o->str) {
        diag_error(p->diag, at, "Invalid norm order '%s' for vectors", o->str);
        return 0;
    }
    if (!o->given || v == 2) {
        Ref squares = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ x, x }, 2, false);
        Ref sum = build_reduce(p, sp, RED_sum, squares, axes, keepdims);
        return build_ufunc(p, at, sp, UF_sqrt, &sum, 1, false);
    }
    if (isinf(v))
        return build_reduce(p, sp, v > 0 ? RED_max : RED_min, absx, axes, keepdims);
    if (v == 0) {                                 /* how many are not 0, in x's dtype */
        Ref nz = lower_operator(L, AST_NE, at, sp, x, number(p, at, 0));
        return build_reduce(p, sp, RED_sum, build_cast(p, sp, nz, V(p, x)->dtype), axes, keepdims);
    }
    if (v == 1)
        return build_reduce(p, sp, RED_sum, absx, axes, keepdims);
    Ref sum = build_reduce(p, sp, RED_sum, lower_operator(L, AST_POW, at, sp, absx, number(p, at, v)), axes, keepdims);
    npx_dtype t = sum ? V(p, sum)->dtype : NPX_F64;   /* reciprocal(ord, dtype=ret.dtype) */
    Ref inverse = build_cast(p, at, number(p, at, 1.0 / v), t);
    return lower_operator(L, AST_POW, at, sp, sum, inverse);
}

/* NumPy's matrix norms over axes (row, col) of x */
static Ref matrix_norm(Lower *L, Span at, Span sp, Ref x, const Ord *o, int row, int col, bool keepdims)
{
    Program *p = P(L);
    int ndim = V(p, x)->shape.ndim;
    Ref r;
    if (!o->given || o->fro) {
        Ref squares = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ x, x }, 2, false);
        Ref sum = build_reduce(p, sp, RED_sum, squares, 1u << row | 1u << col, false);
        r = build_ufunc(p, at, sp, UF_sqrt, &sum, 1, false);
    } else if (!o->str && (fabs(o->v) == 1 || isinf(o->v))) {   /* the largest (smallest) column or row sum */
        int summed = fabs(o->v) == 1 ? row : col, then = fabs(o->v) == 1 ? col : row;
        Ref absx = build_ufunc(p, at, sp, UF_absolute, &x, 1, false);
        Ref sums = build_reduce(p, sp, RED_sum, absx, 1u << summed, false);
        r = build_reduce(p, sp, o->v > 0 ? RED_max : RED_min, sums, 1u << (then - (then > summed)), false);
    } else {
        bool svd = o->str ? strcmp(o->str, "nuc") == 0 : fabs(o->v) == 2;
        diag_error(p->diag, at, svd ? "linalg.norm: the 2-norm and the nuclear norm of a matrix (from its singular "
                                      "values) are not supported yet"
                                    : "Invalid norm order for matrices.");
        return 0;
    }
    return r && keepdims ? build_expand(p, sp, r, 1u << row | 1u << col, ndim) : r;
}

Ref call_norm(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "x", "ord", "axis", "keepdims", NULL };
    const Expr *a[4];
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    bool keepdims = false;
    Ord o;
    if (!lower_bind_args(L, c, params, 1, a) || !lower_ord(L, a[1], &o) ||
        (a[3] && !lower_bool_flag(L, a[3], &keepdims)))
        return 0;
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0]));
    if (!x)
        return 0;
    if (!dtype_is_float(V(p, x)->dtype))
        x = build_cast(p, sp, x, NPX_F64);
    int ndim = V(p, x)->shape.ndim;
    bool no_axis = !a[2] || a[2]->kind == EXPR_NONE;
    if (no_axis && (!o.given || (o.fro && ndim == 2) || (o.v == 2 && ndim == 1))) {
        Ref flat = lower_flatten(L, at, sp, x), dot = flat ? build_matmul(p, at, sp, flat, flat, "dot") : 0;
        Shape ones = { keepdims ? ndim : 0, { 0 } };
        for (int k = 0; k < ones.ndim; k++)
            ones.d[k] = 1;
        dot = dot ? build_reshape(p, sp, dot, &ones) : 0;
        return dot ? build_ufunc(p, at, sp, UF_sqrt, &dot, 1, false) : 0;
    }
    uint32_t axes = ndim ? (1u << ndim) - 1 : 0;
    if (!no_axis && !lower_axes(L, a[2], ndim, &axes))
        return 0;
    int n = __builtin_popcount(axes);
    if (n == 1)
        return vector_norm(L, at, sp, x, &o, axes, keepdims);
    if (n == 2) {                                 /* in the order axis= gives them */
        int first = __builtin_ctz(axes), second = 31 - __builtin_clz(axes);
        bool swapped = !no_axis && a[2]->kind == EXPR_TUPLE && a[2]->args.n == 2 &&
                       lower_is_const_int(L, a[2]->args.v[0]) && lower_is_const_int(L, a[2]->args.v[1]);
        if (swapped) {
            int64_t i0, i1;
            if (!lower_const_int(L, a[2]->args.v[0], &i0) || !lower_const_int(L, a[2]->args.v[1], &i1))
                return 0;
            swapped = (i0 < 0 ? i0 + ndim : i0) > (i1 < 0 ? i1 + ndim : i1);
        }
        return matrix_norm(L, at, sp, x, &o, swapped ? second : first, swapped ? first : second, keepdims);
    }
    diag_error(p->diag, no_axis ? at : a[2]->span, "Improper number of dimensions to norm.");
    return 0;
}
