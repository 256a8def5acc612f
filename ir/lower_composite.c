/* lower_composite.c: NumPy functions that NumPy itself computes through
 * other operations, lowered to those same operations so that they fuse like
 * any other code and round as NumPy's do: var and std (numpy/_core/
 * _methods.py), eye, linspace, logspace and geomspace (numpy/_core/function_base.py), flatnonzero,
 * argwhere and count_nonzero (numpy/_core/numeric.py), ptp (numpy/_core/_methods.py). */
#include <math.h>
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

static Ref int_literal(Program *p, Span span, int64_t v)
{
    return build_literal(p, span, NPX_I64, v, (double)v, true);
}

/* The array a function reduces, and its axes (axis=None: all). */
static bool operand_and_axes(Lower *L, const Expr *a, const Expr *axis, Ref *x, uint32_t *axes)
{
    *x = lower_expr(L, a);
    return *x && lower_axes(L, axis, V(P(L), *x)->shape.ndim, axes);
}

/* var(a, axis, dtype, ddof, keepdims): the mean (kept as a size-1 axis),
 * the sum of squared deviations from it, divided by max(n - ddof, 0), a
 * Python number (so float32 stays float32; integers and bools give float64,
 * as in NumPy). dtype= is the dtype of both sums (numpy/_core/_methods.py,
 * _var), a float one only. std is its square root. */
Ref call_var(Lower *L, Call *c, int is_std)
{
    static const char *const params[] = { "a", "axis", "dtype", "out", "ddof", "keepdims", NULL };
    const Expr *a[6];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 1, a))
        return 0;
    if (a[3]) {
        diag_error(p->diag, a[3]->span, "%s(): 'out=' is not supported", c->fname);
        return 0;
    }
    npx_dtype t = 0;
    if (a[2] && a[2]->kind != EXPR_NONE) {
        if (!lower_dtype(L, a[2], &t))
            return 0;
        if (!dtype_is_float(t)) {
            diag_error(p->diag, a[2]->span, "%s(): a dtype= that is not a float (%s) is not supported yet", c->fname,
                       dtype_name(t));
            return 0;
        }
    }
    bool keepdims = false;
    Ref ddof = lower_ddof(L, a[4]), x;
    uint32_t axes;
    if (!ddof || (a[5] && !lower_bool_flag(L, a[5], &keepdims)) || !operand_and_axes(L, a[0], a[1], &x, &axes))
        return 0;
    Span at = c->call->at, sp = c->call->span;
    Ref var = lower_variance(L, at, sp, x, axes, keepdims, ddof, t);
    return is_std && var ? build_ufunc(p, at, sp, UF_sqrt, &var, 1, false) : var;
}

Ref lower_ddof(Lower *L, const Expr *e)
{
    Program *p = P(L);
    if (!e)
        return int_literal(p, (Span){ 0, 0 }, 0);
    Ref r = lower_expr(L, e);
    if (r && !V(p, r)->weak) {
        diag_error(p->diag, e->span, "a ddof that is not a Python number (%s) is not supported yet",
                   shape_str(p, &V(p, r)->shape, V(p, r)->dtype, false));
        return 0;
    }
    return r;
}

/* How many of x's elements a reduction over axes takes in each result: a
 * Python int. */
Ref lower_count_over(Program *p, Span sp, Ref x, uint32_t axes)
{
    const Shape *in = &V(p, x)->shape;
    Shape counted = { 0, { 0 } };
    for (int k = 0; k < in->ndim; k++)
        if (axes >> k & 1)
            counted.d[counted.ndim++] = in->d[k];
    return counted.ndim ? build_dimval(p, sp, &counted) : int_literal(p, sp, 1);
}

Ref lower_variance(Lower *L, Span at, Span sp, Ref x, uint32_t axes, bool keepdims, Ref ddof, npx_dtype t)
{
    Program *p = P(L);
    Ref mean = t ? build_reduce_as(p, sp, RED_mean, x, axes, true, t) : build_reduce(p, sp, RED_mean, x, axes, true);
    Ref dev = build_ufunc(p, at, sp, UF_subtract, (Ref[]){ x, mean }, 2, false);
    Ref squared = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ dev, dev }, 2, false);
    Ref total = t ? build_reduce_as(p, sp, RED_sum, squared, axes, keepdims, t)
                  : build_reduce(p, sp, RED_sum, squared, axes, keepdims);
    Ref n = lower_count_over(p, sp, x, axes);
    Ref dof = build_ufunc(p, at, sp, UF_subtract, (Ref[]){ n, ddof }, 2, true);
    dof = build_ufunc(p, at, sp, UF_maximum, (Ref[]){ dof, int_literal(p, sp, 0) }, 2, true);
    return build_ufunc(p, at, sp, UF_true_divide, (Ref[]){ total, dof }, 2, false);
}

Ref lower_diagonals(Program *p, Span at, Span span, Dim n, Dim m)
{
    Ref row = build_expand(p, span, build_arange(p, span, NPX_I64, 0, 1, n), 2u, 2);   /* arange(N)[:, None] */
    Ref col = build_arange(p, span, NPX_I64, 0, 1, m);
    return build_ufunc(p, at, span, UF_subtract, (Ref[]){ col, row }, 2, false);
}

/* eye(N, M, k, dtype): 1 where column - row == k; identity(n, dtype) (which
 * 1) is eye(n, dtype=dtype). */
Ref call_eye(Lower *L, Call *c, int which)
{
    static const char *const params[] = { "N", "M", "k", "dtype", NULL };
    static const char *const identity[] = { "n", "dtype", NULL };
    const Expr *a[4];
    Program *p = P(L);
    Dim n, m;
    int64_t k = 0;
    npx_dtype t = NPX_F64;
    if (!lower_bind_args(L, c, which ? identity : params, 1, a))
        return 0;
    if (which)
        a[3] = a[1], a[1] = a[2] = NULL;
    if (!lower_dim(L, a[0], &n))
        return 0;
    m = n;
    if ((a[1] && a[1]->kind != EXPR_NONE && !lower_dim(L, a[1], &m)) || (a[2] && !lower_const_int(L, a[2], &k)) ||
        (a[3] && !lower_dtype(L, a[3], &t)))
        return 0;
    Span at = c->call->at, sp = c->call->span;
    Ref diagonal = lower_diagonals(p, at, sp, n, m);
    Ref on = build_ufunc(p, at, sp, UF_equal, (Ref[]){ diagonal, int_literal(p, sp, k) }, 2, false);
    return build_cast(p, sp, on, t);
}

/* The value of a Python number, possibly computed from others (2 * np.pi):
 * false when r is anything else. */
static bool fold_number(const Program *p, Ref r, double *out)
{
    const Value *v = &p->vals[r];
    double a, b;
    if (!v->weak || v->dtype == NPX_BOOL)
        return false;
    if (v->kind == IR_LITERAL) {
        *out = dtype_is_float(v->dtype) ? v->fval : (double)v->ival;
        return true;
    }
    if (v->kind != IR_UFUNC || !fold_number(p, v->args[0], &a) || (v->nargs > 1 && !fold_number(p, v->args[1], &b)))
        return false;
    switch (v->ufunc) {
    case UF_negative: *out = -a; return true;
    case UF_positive: *out = a; return true;
    case UF_add: *out = a + b; return true;
    case UF_subtract: *out = a - b; return true;
    case UF_multiply: *out = a * b; return true;
    case UF_true_divide: *out = a / b; return b != 0;
    default: return false;
    }
}

/* e, c's argument param, as a number known at compile time (reported if not). */
bool lower_constant(Lower *L, Call *c, const Expr *e, const char *param, double *out)
{
    Ref r = lower_expr(L, e);
    if (!r)
        return false;
    if (fold_number(P(L), r, out))
        return true;
    const Value *v = V(P(L), r);
    diag_error(P(L)->diag, e->span, "%s(): %s must be a number known at compile time; %s is not supported yet",
               c->fname, param, shape_str(P(L), &v->shape, v->dtype, v->weak));
    return false;
}

/* y with element 0 set to first and, when endpoint and there are two or
 * more, the last to last (i the positions, count their number); 0 leaves
 * that end as it is. */
static Ref set_ends(Program *p, Span at, Span sp, Ref y, Ref i, Ref count, Ref first, Ref last, bool endpoint)
{
    if (first) {
        Ref is_first = build_ufunc(p, at, sp, UF_equal, (Ref[]){ i, int_literal(p, sp, 0) }, 2, false);
        y = build_ufunc(p, at, sp, UF_where, (Ref[]){ is_first, first, y }, 3, false);
    }
    if (endpoint && last) {   /* the last of more than one; a count known here needs no test of it */
        Ref end = build_ufunc(p, at, sp, UF_subtract, (Ref[]){ count, int_literal(p, sp, 1) }, 2, true);
        bool known = V(p, end)->kind == IR_LITERAL;
        if (known && V(p, end)->ival < 1)
            return y;
        Ref set = build_ufunc(p, at, sp, UF_equal, (Ref[]){ i, end }, 2, false);
        if (!known) {
            Ref not_first = build_ufunc(p, at, sp, UF_greater, (Ref[]){ i, int_literal(p, sp, 0) }, 2, false);
            set = build_ufunc(p, at, sp, UF_logical_and, (Ref[]){ set, not_first }, 2, false);
        }
        y = build_ufunc(p, at, sp, UF_where, (Ref[]){ set, last, y }, 3, false);
    }
    return y;
}

/* A float64 Python number, or 0 for NaN (an end set_ends leaves). */
static Ref number(Program *p, Span sp, double x) { return x == x ? build_literal(p, sp, NPX_F64, 0, x, true) : 0; }

/* linspace(start, stop, num, endpoint) of two numbers, float64, as NumPy
 * computes it: arange(num) * step + start with step = (stop - start) / div,
 * div = num - 1 (num without endpoint), the last element set to stop when
 * endpoint and num > 1. logspace is base ** linspace(...); geomspace is
 * 10 ** linspace(log10(start), log10(stop)) of both rotated to a positive
 * start, its ends set to start and stop exactly, rotated back
 * (numpy/_core/function_base.py). */
static Ref linspace(Lower *L, Call *c, double start, double stop, Dim num, bool endpoint, double base, bool geometric)
{
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    double sign = start > 0 ? 1 : start < 0 ? -1 : NAN;
    double lo = geometric ? log10(start / sign) : start, hi = geometric ? log10(stop / sign) : stop;
    Ref i = build_arange(p, sp, NPX_I64, 0, 1, num);
    Ref count = DIM_IS_SYM(num) ? build_dimval(p, sp, &(Shape){ 1, { num } }) : int_literal(p, sp, num);
    Ref div = endpoint ? build_ufunc(p, at, sp, UF_subtract, (Ref[]){ count, int_literal(p, sp, 1) }, 2, true) : count;
    div = build_ufunc(p, at, sp, UF_maximum, (Ref[]){ div, int_literal(p, sp, 1) }, 2, true);
    Ref delta = build_literal(p, sp, NPX_F64, 0, hi - lo, true);
    Ref step = build_ufunc(p, at, sp, UF_true_divide, (Ref[]){ delta, div }, 2, true);
    Ref y = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ i, step }, 2, false);
    y = build_ufunc(p, at, sp, UF_add, (Ref[]){ y, build_literal(p, sp, NPX_F64, 0, lo, true) }, 2, false);
    y = set_ends(p, at, sp, y, i, count, 0, number(p, sp, hi), endpoint);
    if (base == base)
        y = build_ufunc(p, at, sp, UF_power, (Ref[]){ build_literal(p, sp, NPX_F64, 0, base, true), y }, 2, false);
    if (geometric) {
        y = set_ends(p, at, sp, y, i, count, number(p, sp, start / sign), number(p, sp, stop / sign), endpoint);
        if (sign != 1)
            y = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ y, build_literal(p, sp, NPX_F64, 0, sign, true) }, 2,
                            false);
    }
    return y;
}

/* linspace of 0-d values known when the program runs (x.min(), a 0-d
 * input), as NumPy computes it, in their float dtype (float64 for integers
 * and Python numbers): arange(num) * step + start, step = (stop - start) /
 * div; arange(num) / div * (stop - start) where step underflows to 0
 * (gh-5437), arange(num) * (stop - start) where div is 0 (num 0, or 1 with
 * endpoint); the last element set to stop when endpoint and num > 1. */
Ref lower_linspace(Lower *L, Call *c, Ref start, Ref stop, Dim num, bool endpoint)
{
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    const Value *a = V(p, start), *b = V(p, stop);
    npx_dtype t = a->weak ? (b->weak ? NPX_F64 : b->dtype) : b->weak ? a->dtype : dtype_promote(a->dtype, b->dtype);
    t = dtype_is_float(t) ? t : NPX_F64;
    Ref i = build_arange(p, sp, NPX_I64, 0, 1, num), y = build_cast(p, sp, i, t);
    Ref first = build_converted(p, sp, start, t), last = build_converted(p, sp, stop, t);
    Ref count = DIM_IS_SYM(num) ? build_dimval(p, sp, &(Shape){ 1, { num } }) : int_literal(p, sp, num);
    Ref div = endpoint ? build_ufunc(p, at, sp, UF_subtract, (Ref[]){ count, int_literal(p, sp, 1) }, 2, true) : count;
    Ref delta = build_ufunc(p, at, sp, UF_subtract, (Ref[]){ last, first }, 2, false);
    Ref step = build_ufunc(p, at, sp, UF_true_divide, (Ref[]){ delta, div }, 2, false);
    Ref by_step = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ y, step }, 2, false);
    Ref by_parts = build_ufunc(p, at, sp, UF_true_divide, (Ref[]){ y, div }, 2, false);
    by_parts = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ by_parts, delta }, 2, false);
    Ref underflow = build_ufunc(p, at, sp, UF_equal, (Ref[]){ step, int_literal(p, sp, 0) }, 2, false);
    Ref spread = build_ufunc(p, at, sp, UF_where, (Ref[]){ underflow, by_parts, by_step }, 3, false);
    Ref some = build_ufunc(p, at, sp, UF_greater, (Ref[]){ div, int_literal(p, sp, 0) }, 2, true);
    bool known = some && V(p, some)->kind == IR_LITERAL;   /* num known: 101 - 1 > 0 */
    if (!known || !V(p, some)->ival) {
        Ref by_delta = build_ufunc(p, at, sp, UF_multiply, (Ref[]){ y, delta }, 2, false);
        spread = known ? by_delta : build_ufunc(p, at, sp, UF_where, (Ref[]){ some, spread, by_delta }, 3, false);
    }
    y = build_ufunc(p, at, sp, UF_add, (Ref[]){ spread, first }, 2, false);
    return set_ends(p, at, sp, y, i, count, 0, last, endpoint);
}

/* linspace's start and stop: numbers known at compile time (*start,
 * *stop), or 0-d values known when the program runs (*rs, *rt). */
static bool linspace_ends(Lower *L, Call *c, const Expr *const *a, double *start, double *stop, Ref *rs, Ref *rt)
{
    Program *p = P(L);
    Ref r[2] = { lower_expr(L, a[0]), 0 };
    if (!r[0] || !(r[1] = lower_expr(L, a[1])))
        return false;
    if (fold_number(p, r[0], start) && fold_number(p, r[1], stop))
        return true;
    for (int k = 0; k < 2; k++) {
        const Value *v = V(p, r[k]);
        if (v->shape.ndim) {
            diag_error(p->diag, a[k]->span, "%s(): %s must be a number or a 0-d value; %s is not supported yet",
                       c->fname, k ? "stop" : "start", shape_str(p, &v->shape, v->dtype, v->weak));
            return false;
        }
    }
    *rs = r[0];
    *rt = r[1];
    return true;
}

/* linspace(start, stop, num, endpoint, retstep, dtype, axis): an integer
 * dtype floors before the cast, as NumPy does; logspace(start, stop, num,
 * endpoint, base, dtype, axis) and geomspace(start, stop, num, endpoint,
 * dtype, axis): cast by dtype= as NumPy's astype (no floor). */
Ref call_linspace(Lower *L, Call *c, int kind)
{
    static const char *const lin[] = { "start", "stop", "num", "endpoint", "retstep", "dtype", "axis", NULL };
    static const char *const logs[] = { "start", "stop", "num", "endpoint", "base", "dtype", "axis", NULL };
    static const char *const geom[] = { "start", "stop", "num", "endpoint", "dtype", "axis", NULL };
    static const char *const *const params[] = { lin, logs, geom };
    const Expr *a[7] = { NULL };
    Program *p = P(L);
    if (!lower_bind_args(L, c, params[kind], 2, a))
        return 0;
    const Expr *dtype_e = a[kind == GEOMSPACE ? 4 : 5], *axis_e = a[kind == GEOMSPACE ? 5 : 6];
    npx_dtype t = NPX_F64;
    double start, stop, base = kind == LINSPACE ? NAN : 10.0;
    Ref rs = 0, rt = 0;                          /* linspace's ends known when the program runs */
    Dim num = 50;
    bool endpoint = true;
    if (!lower_not_given(L, c, axis_e, "axis") || (kind == LINSPACE && !lower_not_given(L, c, a[4], "retstep")) ||
        (kind == LOGSPACE && a[4] && !lower_constant(L, c, a[4], "base", &base)) ||
        (dtype_e && !lower_dtype(L, dtype_e, &t)) ||
        (kind == LINSPACE ? !linspace_ends(L, c, a, &start, &stop, &rs, &rt)
                          : !lower_constant(L, c, a[0], "start", &start) ||
                                !lower_constant(L, c, a[1], "stop", &stop)) ||
        (a[2] && !lower_dim(L, a[2], &num)) || (a[3] && !lower_bool_flag(L, a[3], &endpoint)))
        return 0;
    if (kind == GEOMSPACE && (start == 0 || stop == 0)) {
        diag_error(p->diag, a[start == 0 ? 0 : 1]->span, "Geometric sequence cannot include zero");
        return 0;
    }
    Ref y = rs ? lower_linspace(L, c, rs, rt, num, endpoint)
               : linspace(L, c, start, stop, num, endpoint, base, kind == GEOMSPACE);
    if (y && kind == LINSPACE && dtype_is_int(t))
        y = build_ufunc(p, c->call->at, c->call->span, UF_floor, &y, 1, false);
    return !y || (dtype_e ? V(p, y)->dtype == t : true) ? y : build_cast(p, c->call->span, y, t);
}

/* flatnonzero(a): where the flattened a is not zero, as NumPy computes it,
 * nonzero(ravel(a))[0]: arange(a.size)[ravel(a) != 0]. */
Ref call_flatnonzero(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", NULL };
    const Expr *a[1];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 1, a))
        return 0;
    Ref x = lower_expr(L, a[0]);
    Span at = c->call->at, sp = c->call->span;
    if (!x || !(x = lower_flatten(L, at, sp, x)))
        return 0;
    Ref mask = build_ufunc(p, at, sp, UF_not_equal, (Ref[]){ x, int_literal(p, sp, 0) }, 2, true);
    return build_compress(p, at, sp, build_arange(p, sp, NPX_I64, 0, 1, V(p, x)->shape.d[0]), mask, 0, 0);
}

/* argwhere(a): the positions of a's elements that are not 0, a row each,
 * int64, as NumPy computes it, transpose(nonzero(a)): the table of every
 * element's position (a's shape, then one column per axis) at a != 0 over
 * its first axes. A 0-d a is taken as 1-D, with no columns. */
Ref call_argwhere(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", NULL };
    const Expr *a[1];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 1, a))
        return 0;
    Span at = c->call->at, sp = c->call->span;
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0]));
    if (!x)
        return 0;
    int n = V(p, x)->shape.ndim;
    if (n == NPX_MAX_RANK) {
        diag_error(p->diag, at, "argwhere of a %d-d array is not supported yet (its table has %d axes)", n, n + 1);
        return 0;
    }
    if (n == 0)
        x = build_expand(p, sp, x, 1u, 1);
    Shape s = V(p, x)->shape, row = s;
    row.d[row.ndim++] = n ? 1 : 0;
    Ref table = n ? 0 : build_broadcast(p, sp, int_literal(p, sp, 0), &row);
    for (int k = 0; k < n; k++) {
        Ref along = build_expand(p, sp, build_arange(p, sp, NPX_I64, 0, 1, s.d[k]), ((1u << n) - 1) & ~(1u << k), n);
        Ref column = build_expand(p, sp, build_broadcast(p, sp, along, &s), 1u << n, n + 1);
        row.d[n] = k + 1;
        table = k ? build_concat(p, sp, table, column, n, &row) : column;
    }
    Ref mask = build_ufunc(p, at, sp, UF_not_equal, (Ref[]){ x, int_literal(p, sp, 0) }, 2, true);
    return build_compress(p, at, sp, table, mask, 0, 0);
}

/* count_nonzero(a, axis=None, keepdims=False): the sum of a != 0, int64
 * (an np.int64 over the whole array, as NumPy 2 returns, not a Python int). */
Ref call_count_nonzero(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "axis", "keepdims", NULL };
    const Expr *a[3];
    Program *p = P(L);
    bool keepdims = false;
    Ref x;
    uint32_t axes;
    if (!lower_bind_args(L, c, params, 1, a) || (a[2] && !lower_bool_flag(L, a[2], &keepdims)) ||
        !operand_and_axes(L, a[0], a[1], &x, &axes))
        return 0;
    Span at = c->call->at, sp = c->call->span;
    Ref nonzero = build_ufunc(p, at, sp, UF_not_equal, (Ref[]){ x, int_literal(p, sp, 0) }, 2, true);
    return build_reduce(p, sp, RED_sum, nonzero, axes, keepdims);
}

/* ptp(a, axis=None, out=None, keepdims=False): np.subtract of the maximum
 * and the minimum, in the array's dtype (integers wrap, bools are refused,
 * as NumPy's _ptp does) */
Ref call_ptp(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "axis", "out", "keepdims", NULL };
    const Expr *a[4];
    Program *p = P(L);
    bool keepdims = false;
    Ref x;
    uint32_t axes;
    if (!lower_bind_args(L, c, params, 1, a) || !lower_not_given(L, c, a[2], "out") ||
        (a[3] && !lower_bool_flag(L, a[3], &keepdims)) || !operand_and_axes(L, a[0], a[1], &x, &axes))
        return 0;
    Span sp = c->call->span;
    Ref hi = build_reduce(p, sp, RED_max, x, axes, keepdims), lo = build_reduce(p, sp, RED_min, x, axes, keepdims);
    return build_ufunc(p, c->call->at, sp, UF_subtract, (Ref[]){ hi, lo }, 2, false);
}
