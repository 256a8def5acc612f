/* lower_expr.c: lowers expressions: names, literals, operators, attributes
 * (.T .shape .ndim .size), and calls of NumPy functions and array methods,
 * with NumPy's argument names. Method calls are function calls with the
 * array first: x.sum(axis=1) is sum(x, axis=1). */
#include <math.h>
#include <string.h>
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

/* ---- compile-time values --------------------------------------------- */

bool lower_is_const_int(Lower *L, const Expr *e)
{
    switch (e->kind) {
    case EXPR_INT: return true;
    case EXPR_NAME: {
        const Binding *b = e->np_prefix ? NULL : lower_find(L, e->name);
        return b && b->kind == BIND_CONST;
    }
    case EXPR_UNARY: return lower_is_const_int(L, e->lhs);
    case EXPR_BINARY: return lower_is_const_int(L, e->lhs) && lower_is_const_int(L, e->rhs);
    default: return false;
    }
}

/* false, reported, when an operation on integer constants overflowed */
static bool fits(Lower *L, const Expr *e, bool overflow)
{
    if (overflow)
        diag_error(P(L)->diag, e->span, "this integer constant does not fit in int64");
    return !overflow;
}

bool lower_const_int(Lower *L, const Expr *e, int64_t *out)
{
    int64_t a, b;
    switch (e->kind) {
    case EXPR_INT:
        *out = e->ival;
        return true;
    case EXPR_NAME: {
        Binding *bd = e->np_prefix ? NULL : lower_find(L, e->name);
        if (bd && bd->kind == BIND_CONST) {
            *out = bd->ival;
            return true;
        }
        if (bd && bd->kind == BIND_SYM && P(L)->syms[bd->sym].kind == SYM_LOOP) {
            diag_error(P(L)->diag, e->span, "'%s' is a loop's counter, not an integer constant", e->name);
            return false;
        }
        break;
    }
    case EXPR_UNARY:
        if (e->op != AST_NEG && e->op != AST_POS && e->op != AST_INVERT)
            break;
        if (!lower_const_int(L, e->lhs, &a) || !fits(L, e, e->op == AST_NEG && a == INT64_MIN))
            return false;
        *out = e->op == AST_NEG ? -a : e->op == AST_INVERT ? ~a : a;
        return true;
    case EXPR_BINARY:
        if (e->op != AST_ADD && e->op != AST_SUB && e->op != AST_MUL && e->op != AST_FLOORDIV &&
            e->op != AST_MOD && e->op != AST_POW)
            break;
        if (!lower_const_int(L, e->lhs, &a) || !lower_const_int(L, e->rhs, &b))
            return false;
        if (e->op == AST_POW && b < 0)
            break;                               /* a Python float */
        if ((e->op == AST_FLOORDIV || e->op == AST_MOD) && b == 0) {
            diag_error(P(L)->diag, e->at, "integer %s by zero", e->op == AST_MOD ? "modulo" : "division");
            return false;
        }
        Ufunc f = e->op == AST_ADD ? UF_add : e->op == AST_SUB ? UF_subtract : e->op == AST_MUL ? UF_multiply
                : e->op == AST_POW ? UF_power : e->op == AST_MOD ? UF_remainder : UF_floor_divide;
        return fits(L, e, !build_python_int(f, a, b, out));
    default: break;
    }
    diag_error(P(L)->diag, e->span, "expected an integer constant here");
    return false;
}

/* A dtype as NumPy spells it in a string: 'float32', 'f4', '<f4', 'f', '?'
 * (not npx's own 'f32', which NumPy does not know). */
static bool string_dtype(const char *s, npx_dtype *out)
{
    static const struct { const char *code; npx_dtype t; } codes[] = {
        { "?", NPX_BOOL }, { "b1", NPX_BOOL }, { "i4", NPX_I32 }, { "i8", NPX_I64 }, { "f4", NPX_F32 },
        { "f8", NPX_F64 }, { "i", NPX_I32 }, { "l", NPX_I64 }, { "f", NPX_F32 }, { "d", NPX_F64 },
    };
    if ((s[0] == '<' || s[0] == '=' || s[0] == '|') && s[1])
        s++;                                     /* little-endian or native: this machine's order */
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (strcmp(s, codes[i].code) == 0) {
            *out = codes[i].t;
            return true;
        }
    bool npx_only = strlen(s) == 3 && (s[0] == 'i' || s[0] == 'f') && s[1] != 'n';   /* i32, f64 */
    return !npx_only && dtype_from_name(s, out);
}

bool lower_dtype(Lower *L, const Expr *e, npx_dtype *out)
{
    if ((e->kind == EXPR_NAME && dtype_from_name(e->name, out)) || (e->kind == EXPR_STRING && string_dtype(e->name, out)))
        return true;
    if (e->kind == EXPR_ATTR && strcmp(e->name, "dtype") == 0) {   /* y.astype(x.dtype) */
        Ref x = lower_expr(L, e->obj);
        if (x && V(P(L), x)->weak)
            diag_error(P(L)->diag, e->at, "'%s' object has no attribute 'dtype'", dtype_python_type(V(P(L), x)->dtype));
        else if (x)
            *out = V(P(L), x)->dtype;
        return x && !V(P(L), x)->weak;
    }
    diag_error(P(L)->diag, e->span, "not a dtype; use bool, i32, i64, f32 or f64 (or np.float32, ...)");
    return false;
}

bool lower_bool_flag(Lower *L, const Expr *e, bool *out)
{
    if (e->kind == EXPR_BOOL) {
        *out = e->ival != 0;
        return true;
    }
    diag_error(P(L)->diag, e->span, "expected True or False");
    return false;
}

int lower_choice(const Expr *e, const char *const *names)
{
    int i = 0;
    while (names[i] && !(e->kind == EXPR_STRING && strcmp(e->name, names[i]) == 0))
        i++;
    return i;
}

/* One size of a shape argument: an integer constant, a size symbol, x.shape[k]. */
bool lower_dim(Lower *L, const Expr *e, Dim *out)
{
    Program *p = P(L);
    if (e->kind == EXPR_NAME && !e->np_prefix) {
        Binding *b = lower_find(L, e->name);
        if (b && b->kind == BIND_SYM && p->syms[b->sym].kind != SYM_LOOP) {
            *out = DIM_SYM(b->sym);
            return true;
        }
    }
    int64_t n;
    if (lower_is_const_int(L, e)) {              /* K + 1, 2 ** 10 */
        if (!lower_const_int(L, e, &n))
            return false;
        if (n >= 0) {
            *out = n;
            return true;
        }
    }
    int errors = p->diag->errors;
    Ref r = lower_expr(L, e);
    if (!r)
        return false;
    Value *v = V(p, r);
    if (v->kind == IR_LITERAL && dtype_is_int(v->dtype) && v->ival >= 0) {
        *out = v->ival;
        return true;
    }
    if (v->kind == IR_DIMVAL && v->dims.ndim == 1 && DIM_IS_SYM(v->dims.d[0]) &&
        p->syms[DIM_SYMNO(v->dims.d[0])].kind == SYM_LOOP) {
        diag_error(p->diag, e->span, "a size cannot change from one iteration of a loop to the next: "
                                     "'%s' is the loop's counter", p->syms[DIM_SYMNO(v->dims.d[0])].name);
        return false;
    }
    if (v->kind == IR_DIMVAL && v->dims.ndim == 1) {
        *out = v->dims.d[0];
        return true;
    }
    if (p->diag->errors == errors)
        diag_error(p->diag, e->span, "a size must be a non-negative integer constant, a size symbol or "
                                     "x.shape[k]");
    return false;
}

bool lower_shape(Lower *L, const Expr *e, Shape *out)
{
    if (e->kind == EXPR_ATTR && e->name == arena_intern(P(L)->arena, "shape", 5)) {
        Ref r = lower_expr(L, e->obj);
        if (r)
            *out = V(P(L), r)->shape;
        return r != 0;
    }
    if (e->kind != EXPR_TUPLE && e->kind != EXPR_LIST) {
        out->ndim = 1;
        return lower_dim(L, e, &out->d[0]);
    }
    if (e->args.n > NPX_MAX_RANK) {
        diag_error(P(L)->diag, e->span, "more than %d dimensions", NPX_MAX_RANK);
        return false;
    }
    out->ndim = e->args.n;
    bool ok = true;
    for (int k = 0; k < e->args.n; k++)
        ok &= lower_dim(L, e->args.v[k], &out->d[k]);
    return ok;
}

/* Axis e of an array of ndim axes, made non-negative (*k) and added to
 * *seen; NumPy's words when it is out of range (out_of_range: a format of
 * the axis and ndim) or already seen (repeated). */
static bool checked_axis(Lower *L, const Expr *e, int ndim, uint32_t *seen, const char *out_of_range,
                         const char *repeated, int *k)
{
    int64_t ax;
    if (!lower_const_int(L, e, &ax))
        return false;
    if (ax < -ndim || ax >= ndim) {
        diag_error(P(L)->diag, e->span, out_of_range, (long long)ax, ndim);
        return false;
    }
    *k = (int)(ax < 0 ? ax + ndim : ax);
    if (*seen >> *k & 1) {
        diag_error(P(L)->diag, e->span, "%s", repeated);
        return false;
    }
    *seen |= 1u << *k;
    return true;
}

bool lower_one_axis(Lower *L, const Expr *e, int ndim, uint32_t *mask)
{
    int k;
    return checked_axis(L, e, ndim, mask, "axis %lld is out of bounds for array of dimension %d",
                        "duplicate value in 'axis'", &k);
}

int lower_axis_list(Lower *L, const Expr *e, int ndim, const char *out_of_range, const char *repeated, int *axes)
{
    bool many = e->kind == EXPR_TUPLE || e->kind == EXPR_LIST;
    uint32_t seen = 0;
    for (int i = 0; i < (many ? e->args.n : 1); i++)
        if (!checked_axis(L, many ? e->args.v[i] : e, ndim, &seen, out_of_range, repeated, &axes[i]))
            return -1;
    return many ? e->args.n : 1;
}

/* axis=None (every axis), an int, or a tuple of ints, as a bit mask. */
bool lower_axes(Lower *L, const Expr *e, int ndim, uint32_t *mask)
{
    *mask = 0;
    if (!e || e->kind == EXPR_NONE) {
        *mask = ndim ? (1u << ndim) - 1 : 0;
        return true;
    }
    if (e->kind != EXPR_TUPLE && e->kind != EXPR_LIST)
        return lower_one_axis(L, e, ndim, mask);
    bool ok = true;
    for (int i = 0; i < e->args.n; i++)
        ok = ok && lower_one_axis(L, e->args.v[i], ndim, mask);
    return ok;
}

/* ---- arguments --------------------------------------------------------- */

/* Binds c's arguments to params (NULL-terminated), NumPy's names, the first
 * nreq required; out[i] is NULL where an optional one is not given. */
bool lower_bind_args(Lower *L, Call *c, const char *const *params, int nreq, const Expr **out)
{
    Program *p = P(L);
    int n = 0;
    while (params[n])
        n++;
    memset(out, 0, sizeof(Expr *) * (size_t)n);
    if (c->npos > n) {
        diag_error(p->diag, c->call->at, "%s() takes at most %d arguments (%d given)", c->fname, n, c->npos);
        return false;
    }
    for (int i = 0; i < c->npos; i++)
        out[i] = c->pos[i];
    for (int k = 0; k < c->call->kwargs.n; k++) {
        const Kwarg *kw = &c->call->kwargs.v[k];
        int i = 0;
        while (i < n && strcmp(params[i], kw->name) != 0)
            i++;
        if (i == n) {
            diag_error(p->diag, kw->name_span, "%s() got an unexpected keyword argument '%s'", c->fname, kw->name);
            return false;
        }
        if (out[i]) {
            diag_error(p->diag, kw->name_span, "%s() got multiple values for argument '%s'", c->fname, kw->name);
            return false;
        }
        out[i] = kw->value;
    }
    for (int i = 0; i < nreq; i++)
        if (!out[i]) {
            diag_error(p->diag, c->call->at, "%s() is missing its argument '%s'", c->fname, params[i]);
            return false;
        }
    return true;
}

static Ref lower_opt(Lower *L, const Expr *e) { return e ? lower_expr(L, e) : 0; }

/* ---- handlers ------------------------------------------------------------ */

static Ref call_ufunc(Lower *L, Call *c, int f)
{
    const UfuncInfo *u = &ufunc_info[f];
    static const char *const names[] = { "x1", "x2", "x3", NULL };
    const char *params[4] = { NULL, NULL, NULL, NULL };
    for (int i = 0; i < u->nin; i++)
        params[i] = names[i];
    if (f == UF_where) {
        static const char *const wp[] = { "condition", "x", "y", NULL };
        memcpy(params, wp, sizeof wp);
    }
    const Expr *a[3];
    if (!lower_bind_args(L, c, params, u->nin, a))
        return 0;
    Ref r[3];
    for (int i = 0; i < u->nin; i++)
        r[i] = lower_expr(L, a[i]);
    return build_ufunc(P(L), c->call->at, c->call->span, (Ufunc)f, r, u->nin, false);
}

/* A reduction's or a scan's dtype= (e as given; NULL or None: not given):
 * x converted to it, which NumPy then sums (or multiplies) in that dtype
 * (*t, the result's). Summing into bool is not supported yet. */
Ref lower_accumulate_as(Lower *L, Call *c, Ref x, const Expr *e, npx_dtype *t)
{
    if (!x || !e || e->kind == EXPR_NONE || !lower_dtype(L, e, t))
        return e && e->kind != EXPR_NONE ? 0 : x;
    if (*t == NPX_BOOL) {
        diag_error(P(L)->diag, e->span, "%s(): dtype=bool is not supported yet (use any or all)", c->fname);
        return 0;
    }
    return build_cast(P(L), e->span, x, *t);
}

/* sum, prod and mean take dtype= before out=; the others only out= */
static Ref call_reduce(Lower *L, Call *c, int red)
{
    static const char *const typed[] = { "a", "axis", "dtype", "out", "keepdims", NULL };
    static const char *const plain[] = { "a", "axis", "out", "keepdims", NULL };
    bool has_dtype = red == RED_sum || red == RED_prod || red == RED_mean;
    const Expr *a[5] = { NULL };
    if (!lower_bind_args(L, c, has_dtype ? typed : plain, 1, a))
        return 0;
    const Expr *dtype = has_dtype ? a[2] : NULL, *out = a[has_dtype ? 3 : 2], *keep = a[has_dtype ? 4 : 3];
    if (out && out->kind != EXPR_NONE) {
        diag_error(P(L)->diag, out->span, "%s(): 'out=' is not supported (bind the result to a name)", c->fname);
        return 0;
    }
    npx_dtype t = NPX_BOOL;
    Ref x = lower_accumulate_as(L, c, lower_expr(L, a[0]), dtype, &t);
    bool keepdims = false;
    if (!x || (keep && !lower_bool_flag(L, keep, &keepdims)))
        return 0;
    if (red == RED_mean && t != NPX_BOOL && !dtype_is_float(t)) {
        diag_error(P(L)->diag, dtype->span, "mean(): an integer dtype= is not supported yet");
        return 0;
    }
    int ndim = V(P(L), x)->shape.ndim;
    uint32_t axes;
    if (!lower_axes(L, a[1], ndim, &axes))
        return 0;
    bool arg = red == RED_argmax || red == RED_argmin;
    if (arg && a[1] && a[1]->kind != EXPR_NONE && __builtin_popcount(axes) != 1) {
        diag_error(P(L)->diag, a[1]->span, "%s takes one axis or None", c->fname);
        return 0;
    }
    if (arg && ndim == 0)
        axes = 0;
    return t != NPX_BOOL ? build_reduce_as(P(L), c->call->span, (Reduction)red, x, axes, keepdims, t)
                         : build_reduce(P(L), c->call->span, (Reduction)red, x, axes, keepdims);
}

static Ref call_matmul(Lower *L, Call *c, int is_dot)
{
    static const char *const params[] = { "a", "b", NULL };
    const Expr *a[2];
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    Ref x = lower_expr(L, a[0]), y = lower_expr(L, a[1]);
    if (!x || !y)
        return 0;
    Program *p = P(L);
    if (is_dot && (V(p, x)->shape.ndim == 0 || V(p, y)->shape.ndim == 0))
        return build_ufunc(p, c->call->at, c->call->span, UF_multiply, (Ref[]){ x, y }, 2, false);
    return build_matmul(p, c->call->at, c->call->span, x, y, is_dot ? "dot" : "matmul");
}

static Ref call_outer(Lower *L, Call *c, int unused)
{
    static const char *const params[] = { "a", "b", NULL };
    const Expr *a[2];
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    Program *p = P(L);
    Ref ab[2];
    for (int i = 0; i < 2; i++) {       /* NumPy flattens each, a Python number made an array first */
        Ref r = lower_expr(L, a[i]);
        if (r && V(p, r)->weak)
            r = build_cast(p, a[i]->span, r, dtype_default(V(p, r)->dtype));
        ab[i] = r ? lower_flatten(L, c->call->at, a[i]->span, r) : 0;
    }
    Ref x = ab[0], y = ab[1];
    if (!x || !y)
        return 0;
    Ref col = build_expand(p, a[0]->span, x, 2u, 2);       /* x[:, None] */
    return build_ufunc(p, c->call->at, c->call->span, UF_multiply, (Ref[]){ col, y }, 2, false);
}

static Ref call_transpose(Lower *L, Call *c, int unused)
{
    Program *p = P(L);
    const Expr *axes_list[MAX_ARGS];
    int naxes = 0;
    const Expr *a[2] = { c->npos ? c->pos[0] : NULL, NULL };
    if (c->npos > 2) {                          /* x.transpose(1, 0) */
        for (int i = 1; i < c->npos; i++)
            axes_list[naxes++] = c->pos[i];
    } else {
        static const char *const params[] = { "a", "axes", NULL };
        if (!lower_bind_args(L, c, params, 1, a))
            return 0;
        if (a[1] && (a[1]->kind == EXPR_TUPLE || a[1]->kind == EXPR_LIST))
            for (int i = 0; i < a[1]->args.n && naxes < MAX_ARGS; i++)
                axes_list[naxes++] = a[1]->args.v[i];
        else if (a[1] && a[1]->kind != EXPR_NONE)
            axes_list[naxes++] = a[1];
    }
    Ref x = lower_expr(L, a[0]);
    if (!x || naxes == 0)
        return build_transpose(p, c->call->span, x, NULL);
    int ndim = V(p, x)->shape.ndim, perm[NPX_MAX_RANK];
    if (naxes != ndim) {
        diag_error(p->diag, c->call->at, "axes don't match array: %d axes for a %d-D array", naxes, ndim);
        return 0;
    }
    uint32_t seen = 0;
    for (int k = 0; k < naxes; k++) {
        uint32_t before = seen;
        if (!lower_one_axis(L, axes_list[k], ndim, &seen))
            return 0;
        perm[k] = __builtin_ctz(seen ^ before);
    }
    return build_transpose(p, c->call->span, x, perm);
}

/* The bound of clip given by a_min (a_max) or NumPy 2's min= (max=); None,
 * or no bound, is 0. */
static bool clip_bound(Lower *L, Call *c, const Expr *given, const Expr *keyword, Ref *out)
{
    const Expr *e = given ? given : keyword;
    if (given && keyword && keyword->kind != EXPR_NONE) {
        diag_error(P(L)->diag, keyword->span, "%s(): passing min= or max= when a_min and a_max are given is forbidden",
                   c->fname);
        return false;
    }
    *out = e && e->kind != EXPR_NONE ? lower_expr(L, e) : 0;
    return !e || e->kind == EXPR_NONE || *out;
}

/* clip(a, a_min, a_max) and a.clip(min, max): maximum with the lower bound,
 * then minimum with the upper one; a bound that is None is left out. */
static Ref call_clip(Lower *L, Call *c, int unused)
{
    static const char *const function[] = { "a", "a_min", "a_max", "out", "min", "max", NULL };
    static const char *const method[] = { "a", "min", "max", "out", NULL };
    const Expr *a[6];
    bool is_method = c->call->obj->kind == EXPR_ATTR;
    if (!lower_bind_args(L, c, is_method ? method : function, 1, a) || !lower_not_given(L, c, a[3], "out"))
        return 0;
    if (is_method)
        a[4] = a[1], a[5] = a[2], a[1] = a[2] = NULL;
    else if (a[1] && !a[2]) {
        diag_error(P(L)->diag, c->call->at, "%s() is missing its argument 'a_max' (give None for no upper bound)",
                   c->fname);
        return 0;
    }
    Program *p = P(L);
    Ref bounds[3] = { lower_expr(L, a[0]), 0, 0 };
    if (!bounds[0] || !clip_bound(L, c, a[1], a[4], &bounds[1]) || !clip_bound(L, c, a[2], a[5], &bounds[2]))
        return 0;
    Ref given[3];
    int n = 0;
    for (int i = 0; i < 3; i++)
        if (bounds[i])
            given[n++] = bounds[i];
    bool all_weak;                               /* NumPy's clip resolves its operands at once */
    npx_dtype t = weak_common_dtype(p, given, n, &all_weak);
    Ref x = bounds[0];
    if (!V(p, x)->weak && V(p, x)->dtype != t)
        x = build_cast(p, c->call->span, x, t);
    if (bounds[1])
        x = build_ufunc(p, c->call->at, c->call->span, UF_maximum, (Ref[]){ x, bounds[1] }, 2, false);
    if (bounds[2])
        x = build_ufunc(p, c->call->at, c->call->span, UF_minimum, (Ref[]){ x, bounds[2] }, 2, false);
    if (n == 1)                                  /* no bounds: a copy, as NumPy's */
        return V(p, x)->weak ? lower_asarray(p, c->call->span, x) : build_cast(p, c->call->span, x, V(p, x)->dtype);
    return x;
}

static Ref call_astype(Lower *L, Call *c, int unused)
{
    static const char *const params[] = { "a", "dtype", NULL };
    const Expr *a[2];
    npx_dtype t;
    if (!lower_bind_args(L, c, params, 2, a) || !lower_dtype(L, a[1], &t))
        return 0;
    return build_cast(P(L), c->call->span, lower_expr(L, a[0]), t);
}

/* zeros, ones (arg = fill value), full */
static Ref fill(Lower *L, Call *c, const Shape *s, Ref value, const Expr *dtype_expr, npx_dtype dflt)
{
    Program *p = P(L);
    npx_dtype t = dflt;
    if (!value || (dtype_expr && !lower_dtype(L, dtype_expr, &t)))
        return 0;
    Ref b = build_broadcast(p, c->call->span, value, s);
    if (!b)
        return 0;
    return build_as(p, c->call->span, b, t);
}

static Ref call_zeros(Lower *L, Call *c, int one)
{
    static const char *const params[] = { "shape", "dtype", NULL };
    const Expr *a[2];
    Shape s;
    if (!lower_bind_args(L, c, params, 1, a) || !lower_shape(L, a[0], &s))
        return 0;
    Ref v = build_literal(P(L), c->call->span, NPX_F64, one, one, true);
    return fill(L, c, &s, v, a[1], NPX_F64);
}

static Ref call_full(Lower *L, Call *c, int unused)
{
    static const char *const params[] = { "shape", "fill_value", "dtype", NULL };
    const Expr *a[3];
    Shape s;
    if (!lower_bind_args(L, c, params, 2, a) || !lower_shape(L, a[0], &s))
        return 0;
    Ref v = lower_expr(L, a[1]);
    if (!v)
        return 0;
    Value *vv = V(P(L), v);
    return fill(L, c, &s, v, a[2], vv->weak ? dtype_default(vv->dtype) : vv->dtype);
}

/* zeros_like (arg 0), ones_like (1), full_like (2) */
static Ref call_like(Lower *L, Call *c, int which)
{
    static const char *const p2[] = { "a", "dtype", NULL };
    static const char *const p3[] = { "a", "fill_value", "dtype", NULL };
    const Expr *a[3];
    if (!lower_bind_args(L, c, which == 2 ? p3 : p2, which == 2 ? 2 : 1, a))
        return 0;
    Ref x = lower_expr(L, a[0]);
    Ref v = which == 2 ? lower_expr(L, a[1]) : build_literal(P(L), c->call->span, NPX_F64, which, which, true);
    if (!x || !v)
        return 0;
    Value *vx = V(P(L), x);
    Shape s = vx->shape;
    npx_dtype t = vx->weak ? dtype_default(vx->dtype) : vx->dtype;
    if (which == 2) {     /* full_like keeps a's dtype: the fill value is cast to it */
        const Expr *d = a[2];
        if (d && !lower_dtype(L, d, &t))
            return 0;
        return fill(L, c, &s, v, NULL, t);
    }
    return fill(L, c, &s, v, a[1], t);
}

static bool lower_number(Lower *L, const Expr *e, double *out, bool *is_float)
{
    int64_t n;
    if (e->kind == EXPR_FLOAT || (e->kind == EXPR_UNARY && e->op == AST_NEG && e->lhs->kind == EXPR_FLOAT)) {
        *out = e->kind == EXPR_FLOAT ? e->fval : -e->lhs->fval;
        *is_float = true;
        return true;
    }
    if (!lower_const_int(L, e, &n))
        return false;
    *out = (double)n;
    return true;
}

static Ref call_arange(Lower *L, Call *c, int unused)
{
    static const char *const params[] = { "start", "stop", "step", "dtype", NULL };
    const Expr *a[4];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 1, a))
        return 0;
    const Expr *start = a[1] ? a[0] : NULL, *stop = a[1] ? a[1] : a[0];
    double v0 = 0, v1 = 0, step = 1;
    bool is_float = false;
    npx_dtype t;
    Dim n;
    if ((start && !lower_number(L, start, &v0, &is_float)) || (a[2] && !lower_number(L, a[2], &step, &is_float)))
        return 0;
    int errors = p->diag->errors;
    if (!start && !a[2] && stop->kind != EXPR_FLOAT && lower_dim(L, stop, &n)) {
        t = NPX_I64;                              /* arange(n), n possibly x.shape[0] */
    } else {
        if (p->diag->errors != errors || !lower_number(L, stop, &v1, &is_float))
            return 0;
        if (step == 0) {
            diag_error(p->diag, a[2]->span, "arange: step must not be zero");
            return 0;
        }
        double len = ceil((v1 - v0) / step);
        if (!(len < (double)NPX_MAX_ELEMENTS)) {  /* NaN too: arange(0, inf) */
            diag_error(p->diag, c->call->at, "arange: %g elements are more than any array can hold", len);
            return 0;
        }
        n = len > 0 ? (Dim)len : 0;
        t = is_float ? NPX_F64 : NPX_I64;
    }
    if (a[3] && !lower_dtype(L, a[3], &t))
        return 0;
    return build_arange(p, c->call->span, t, v0, step, n);
}

static Ref call_bincount(Lower *L, Call *c, int unused)
{
    static const char *const params[] = { "x", "weights", "minlength", NULL };
    const Expr *a[3];
    Dim minlength = 0;
    if (!lower_bind_args(L, c, params, 1, a))
        return 0;
    if (a[2] && lower_is_const_int(L, a[2])) {   /* NumPy's message for a negative one */
        if (!lower_const_int(L, a[2], &minlength))
            return 0;
        if (minlength < 0) {
            diag_error(P(L)->diag, a[2]->span, "minlength must be non-negative");
            return 0;
        }
    } else if (a[2] && !lower_dim(L, a[2], &minlength))  /* minlength=K, x.shape[0] */
        return 0;
    Ref x = lower_expr(L, a[0]), w = lower_opt(L, a[1]);
    if (!x || (a[1] && !w))
        return 0;
    return build_bincount(P(L), c->call->at, c->call->span, x, w, minlength);
}

/* X(name, handler, argument): NumPy functions other than the ufuncs. */
#define FUNCTIONS(X)                                                                           \
    X(sum, call_reduce, RED_sum) X(prod, call_reduce, RED_prod) X(mean, call_reduce, RED_mean) \
    X(max, call_reduce, RED_max) X(amax, call_reduce, RED_max)                                 \
    X(min, call_reduce, RED_min) X(amin, call_reduce, RED_min)                                 \
    X(any, call_reduce, RED_any) X(all, call_reduce, RED_all)                                  \
    X(argmax, call_reduce, RED_argmax) X(argmin, call_reduce, RED_argmin)                      \
    X(dot, call_matmul, 1) X(matmul, call_matmul, 0) X(outer, call_outer, 0)                   \
    X(transpose, call_transpose, 0) X(clip, call_clip, 0) X(astype, call_astype, 0)            \
    X(zeros, call_zeros, 0) X(ones, call_zeros, 1) X(full, call_full, 0)                       \
    X(zeros_like, call_like, 0) X(ones_like, call_like, 1) X(full_like, call_like, 2)          \
    X(arange, call_arange, 0) X(bincount, call_bincount, 0)                                    \
    X(var, call_var, 0) X(std, call_var, 1) X(eye, call_eye, 0) X(identity, call_eye, 1)       \
    X(linspace, call_linspace, LINSPACE) X(logspace, call_linspace, LOGSPACE)                  \
    X(geomspace, call_linspace, GEOMSPACE) X(ptp, call_ptp, 0)                                 \
    X(sinc, call_sinc, 0)                                                                      \
    X(trapezoid, call_trapezoid, 0) X(select, call_select, 0) X(average, call_average, 0)      \
    X(polyval, call_polyval, 0) X(inner, call_inner, 0) X(vdot, call_vdot, 0)                  \
    X(cross, call_cross, 0) X(tensordot, call_tensordot, 0) X(kron, call_kron, 0)              \
    X(searchsorted, call_searchsorted, 0) X(interp, call_interp, 0)                            \
    X(digitize, call_digitize, 0)                                                              \
    X(array, call_array, 0) X(asarray, call_array, 0)                                          \
    X(swapaxes, call_swapaxes, 0) X(moveaxis, call_moveaxis, 0)                                \
    X(expand_dims, call_expand_dims, 0) X(atleast_1d, call_atleast, 1)                         \
    X(atleast_2d, call_atleast, 2) X(atleast_3d, call_atleast, 3)                              \
    X(broadcast_to, call_broadcast_to, 0)                                                      \
    X(reshape, call_reshape, 0) X(ravel, call_reshape, 1) X(flatten, call_reshape, 2)          \
    X(concatenate, call_concatenate, 0) X(stack, call_concatenate, 1)                          \
    X(cumsum, call_cumsum, RED_sum) X(cumprod, call_cumsum, RED_prod)                          \
    X(squeeze, call_squeeze, 0)                                                                \
    X(sort, call_sort, 0) X(argsort, call_sort, 1) X(take, call_take, 0)                    \
    X(take_along_axis, call_take_along_axis, 0)                                                \
    X(einsum, call_einsum, 0) X(flatnonzero, call_flatnonzero, 0)                              \
    X(count_nonzero, call_count_nonzero, 0) X(argwhere, call_argwhere, 0)                      \
    X(copy, call_copy, 0) X(len, call_len, 0)                                                  \
    X(float32, call_scalar_type, NPX_F32) X(float64, call_scalar_type, NPX_F64)                \
    X(int32, call_scalar_type, NPX_I32) X(int64, call_scalar_type, NPX_I64)                    \
    X(bool_, call_scalar_type, NPX_BOOL)                                                       \
    X(flip, call_flip, 0) X(flipud, call_flip, 1) X(fliplr, call_flip, 2) X(diff, call_diff, 0)  \
    X(hstack, call_hstack, 0) X(vstack, call_hstack, 1) X(column_stack, call_hstack, 2)        \
    X(isclose, call_isclose, 0) X(allclose, call_isclose, 1) X(round, call_round, 0)           \
    X(around, call_round, 0) X(nan_to_num, call_nan_to_num, 0) X(linalg.norm, call_norm, 0)    \
    X(logaddexp, call_logaddexp, 0)                                                            \
    X(tril, call_tri, 0) X(triu, call_tri, 1) X(tile, call_tile, 0) X(repeat, call_repeat, 0)  \
    X(roll, call_roll, 0) X(diag, call_diag, 0) X(diagonal, call_diagonal, 0)                  \
    X(trace, call_trace, 0) X(median, call_quantile, 0) X(quantile, call_quantile, 1)          \
    X(percentile, call_quantile, 100) X(unique, call_unique, 0) X(pad, call_pad, 0)          \
    X(cov, call_cov, 0) X(corrcoef, call_cov, 1) X(nansum, call_nan, 0) X(nanprod, call_nan, 1)  \
    X(nanmean, call_nan, 2) X(nanmax, call_nan, 3) X(nanmin, call_nan, 4) X(nanvar, call_nan, 5)  \
    X(nanstd, call_nan, 6)

static const struct {
    const char *name;
    Handler fn;
    int arg;
} functions[] = {
#define X(name, fn, arg) { #name, fn, arg },
    FUNCTIONS(X)
#undef X
};

/* The functions that are also ndarray's methods (x.sum(axis=0)), and the
 * methods that are not functions. Any other name after an array is an
 * error, as NumPy has no such attribute (x.moveaxis, x.amax). */
static const char *const methods[] = { "sum", "prod", "mean", "max", "min", "any", "all", "argmax", "argmin",
                                       "dot", "transpose", "clip", "var", "std", "searchsorted", "swapaxes",
                                       "reshape", "ravel", "cumsum", "cumprod", "squeeze", "sort", "argsort",
                                       "take", "copy", "round", "repeat", "diagonal", "trace", NULL };
static const char *const methods_only[] = { "astype", "flatten", NULL };

static bool listed(const char *const *names, const char *name)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

static bool find_function(const char *name, bool method, Handler *fn, int *arg)
{
    if (method ? !listed(methods, name) && !listed(methods_only, name) : listed(methods_only, name))
        return false;
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
        if (strcmp(functions[i].name, name) == 0) {
            *fn = functions[i].fn;
            *arg = functions[i].arg;
            return true;
        }
    if (method)
        return false;
    for (int f = 0; f < UF_COUNT; f++)
        if (strcmp(ufunc_info[f].name, name) == 0 && !(ufunc_info[f].flags & UF_INTERNAL)) {
            *fn = call_ufunc;
            *arg = f;
            return true;
        }
    static const struct { const char *alias; Ufunc f; } aliases[] = {
#define X(alias, f) { alias, f },
        UFUNC_ALIASES(X)
#undef X
    };
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(aliases[i].alias, name) == 0) {
            *fn = call_ufunc;
            *arg = aliases[i].f;
            return true;
        }
    return false;
}

/* The ufunc NumPy calls name (its own name or an alias, np.abs), or UF_COUNT */
static Ufunc ufunc_named(const char *name)
{
    Handler fn;
    int arg;
    return find_function(name, false, &fn, &arg) && fn == call_ufunc ? (Ufunc)arg : UF_COUNT;
}

/* Does e name one of NumPy's ufuncs: np.add, or add that the program does not bind? */
bool lower_names_ufunc(Lower *L, const Expr *e)
{
    return e && e->kind == EXPR_NAME && (e->np_prefix || !lower_lookup(L, e->name)) && ufunc_named(e->name) != UF_COUNT;
}

static Ref lower_call(Lower *L, const Expr *e)
{
    Program *p = P(L);
    Call c = { .call = e };
    const Expr *callee = e->obj;
    bool method = callee->kind == EXPR_ATTR;
    const Expr *module = method ? callee->obj : NULL;   /* np.linalg.norm: a function, not a method */
    bool linalg = module && module->kind == EXPR_NAME && module->np_prefix && strcmp(module->name, "linalg") == 0;
    bool ufunc_method = lower_names_ufunc(L, module);     /* np.add.reduce */
    method &= !linalg && !ufunc_method;
    if (!method && !linalg && !ufunc_method && callee->kind != EXPR_NAME) {
        diag_error(p->diag, callee->span, "this cannot be called");
        return 0;
    }
    c.fname = linalg || ufunc_method ? arena_printf(p->arena, "%s.%s", module->name, callee->name) : callee->name;
    if (method)
        c.pos[c.npos++] = callee->obj;
    if (c.npos + e->args.n > MAX_ARGS) {
        diag_error(p->diag, e->at, "too many arguments");
        return 0;
    }
    for (int i = 0; i < e->args.n; i++)
        c.pos[c.npos++] = e->args.v[i];
    Handler fn;
    int arg;
    if (ufunc_method)
        return call_ufunc_method(L, &c, ufunc_named(module->name));
    if (!method && !linalg && !callee->np_prefix && lower_find(L, callee->name)) {
        diag_error(p->diag, callee->span, "'%s' is not a function", callee->name);
        return 0;
    }
    const char *hint = linalg ? NULL : lower_unpack_hint(L, e);
    if (hint) {
        diag_error(p->diag, callee->span, "%s", hint);
        return 0;
    }
    if (!find_function(c.fname, method, &fn, &arg)) {
        diag_error(p->diag, method ? callee->at : callee->span, method ? "arrays have no method '%s'"
                                                                        : "unknown function '%s'",
                   c.fname);
        return 0;
    }
    return fn(L, &c, arg);
}

/* ---- names, attributes, operators -------------------------------------- */

static Ref lower_name(Lower *L, const Expr *e)
{
    Program *p = P(L);
    Binding *b = e->np_prefix ? NULL : lower_find(L, e->name);
    /* A late value, or a carry that may take one over (ir_schedule decides),
     * may have no value: the statement checks it, if it reads only its shape. */
    if (b && b->kind == BIND_VALUE && b->value && p->nstmts > 0 &&
        (V(p, b->value)->late || p->stmts[V(p, b->value)->stmt].kind == ST_CARRY)) {
        IrStmt *st = &p->stmts[p->nstmts - 1];
        st->named_late = arena_grow(p->arena, st->named_late, &st->capnamed_late, st->nnamed_late + 1, sizeof(Ref));
        st->named_late[st->nnamed_late++] = b->value;
    }
    if (b && b->kind == BIND_VALUE)
        return b->value;
    if (b && b->kind == BIND_CONST)
        return build_literal(p, e->span, NPX_I64, b->ival, (double)b->ival, true);
    if (b && b->kind == BIND_SYM)
        return build_dimval(p, e->span, &(Shape){ 1, { DIM_SYM(b->sym) } });
    if (b && b->kind == BIND_GONE) {
        lower_gone(L, b, e->span);
        return 0;
    }
    static const struct { const char *name; double v; } constants[] = {
        { "pi", 3.141592653589793 }, { "e", 2.718281828459045 }, { "inf", INFINITY }, { "nan", NAN },
    };
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++)
        if (strcmp(e->name, constants[i].name) == 0)
            return build_literal(p, e->span, NPX_F64, 0, constants[i].v, true);
    Handler fn;
    int arg;
    npx_dtype t;
    if (find_function(e->name, false, &fn, &arg))
        diag_error(p->diag, e->span, "'%s' is a function; call it: %s(...)", e->name, e->name);
    else if (dtype_from_name(e->name, &t))
        diag_error(p->diag, e->span, "'%s' is a dtype, not a value", e->name);
    else
        diag_error(p->diag, e->span, "name '%s' is not defined", e->name);
    return 0;
}

static Ref lower_attr(Lower *L, const Expr *e)
{
    Program *p = P(L);
    Ref x = lower_expr(L, e->obj);
    if (!x)
        return 0;
    Value *v = V(p, x);
    const char *a = e->name;
    if (strcmp(a, "T") == 0)
        return build_transpose(p, e->span, x, NULL);
    if (strcmp(a, "ndim") == 0)
        return build_literal(p, e->span, NPX_I64, v->shape.ndim, v->shape.ndim, true);
    if (strcmp(a, "size") == 0)
        return build_dimval(p, e->span, &v->shape);
    if (strcmp(a, "shape") == 0)
        diag_error(p->diag, e->at, "x.shape is a tuple: use x.shape[k] for one size, or pass it as a shape");
    else if (strcmp(a, "dtype") == 0)
        diag_error(p->diag, e->at, "x.dtype is a dtype, not a value: pass it where a dtype goes, "
                                   "y.astype(x.dtype), np.zeros(n, dtype=x.dtype)");
    else
        diag_error(p->diag, e->at, "arrays have no attribute '%s'", a);
    return 0;
}

static Ref lower_index(Lower *L, const Expr *e)
{
    Program *p = P(L);
    const Expr *o = e->obj;
    if (lower_several_valued(L, o) && e->args.n == 1 && lower_is_const_int(L, e->args.v[0]))
        return lower_part_of(L, o, e->args.v[0]);    /* np.nonzero(m)[0] */
    if (o->kind == EXPR_ATTR && strcmp(o->name, "shape") == 0 && e->args.n == 1) {
        Ref x = lower_expr(L, o->obj);
        uint32_t axis = 0;
        if (!x || !lower_one_axis(L, e->args.v[0], V(p, x)->shape.ndim, &axis))
            return 0;
        return lower_size(p, e->span, V(p, x)->shape.d[__builtin_ctz(axis)]);
    }
    return lower_subscript(L, e);
}

Ref lower_size(Program *p, Span span, Dim d)
{
    if (!DIM_IS_SYM(d))
        return build_literal(p, span, NPX_I64, d, (double)d, true);
    return build_dimval(p, span, &(Shape){ 1, { d } });
}

/* a ** b: NumPy refuses negative integer literal exponents of integer arrays
 * (Python makes a float of int ** negative int), and computes x ** 2 as
 * square(x) and x ** 0.5 as sqrt(x) (which differ from pow at -0.0 and
 * -inf). */
static Ref lower_power(Lower *L, Span at, Span span, Ref a, Ref b)
{
    Program *p = P(L);
    const Value *va = V(p, a), *vb = V(p, b);
    if (va->weak && vb->weak && vb->kind == IR_LITERAL && dtype_is_int(va->dtype) && dtype_is_int(vb->dtype) &&
        vb->ival < 0) {                          /* Python: 2 ** -1 is the float 0.5 */
        Ref one = build_literal(p, span, NPX_F64, 0, 1.0, true);
        a = build_ufunc(p, at, span, UF_multiply, (Ref[]){ a, one }, 2, true);
        return build_ufunc(p, at, span, UF_power, (Ref[]){ a, b }, 2, true);
    }
    if (vb->kind != IR_LITERAL || !vb->weak || va->weak)
        return build_ufunc(p, at, span, UF_power, (Ref[]){ a, b }, 2, true);
    double x = dtype_is_float(vb->dtype) ? vb->fval : (double)vb->ival;
    if (dtype_is_int(vb->dtype) && vb->ival < 0 && dtype_is_int(va->dtype)) {
        diag_error(p->diag, at, "integers to negative integer powers are not allowed");
        return 0;
    }
    Ref pw = build_ufunc(p, at, span, UF_power, (Ref[]){ a, b }, 2, true);
    if (!pw || !(x == 2 || (x == 0.5 && dtype_is_float(vb->dtype))))
        return pw;
    npx_dtype t = V(p, pw)->dtype;                /* i32 ** 2.0 is f64: square of the f64 */
    V(p, pw)->nargs = 0;                         /* the power it replaces reads nothing */
    Ref base = build_as(p, span, a, t);
    return build_ufunc(p, at, span, x == 2 ? UF_square : UF_sqrt, &base, 1, true);
}

Ref lower_operator(Lower *L, AstOp op, Span at, Span span, Ref a, Ref b)
{
    if (!a || (op != AST_NEG && op != AST_POS && op != AST_INVERT && !b))
        return 0;
    if (op == AST_MATMUL)
        return build_matmul(P(L), at, span, a, b, "matmul");
    if (op == AST_POW)
        return lower_power(L, at, span, a, b);
    return lower_ufunc(L, ast_op_ufunc[op], at, span, a, b);
}

Ref lower_ufunc(Lower *L, const char *name, Span at, Span span, Ref a, Ref b)
{
    Ufunc f = 0;
    while (f < UF_COUNT && strcmp(ufunc_info[f].name, name) != 0)
        f++;
    Ref args[2] = { a, b };
    return f < UF_COUNT && a ? build_ufunc(P(L), at, span, f, args, b ? 2 : 1, true) : 0;
}

static Ref lower_node(Lower *L, const Expr *e)
{
    Program *p = P(L);
    switch (e->kind) {
    case EXPR_INT: return build_literal(p, e->span, NPX_I64, e->ival, (double)e->ival, true);
    case EXPR_FLOAT: return build_literal(p, e->span, NPX_F64, 0, e->fval, true);
    case EXPR_BOOL: return build_literal(p, e->span, NPX_BOOL, e->ival, (double)e->ival, true);
    case EXPR_NAME: return lower_name(L, e);
    case EXPR_ATTR: return lower_attr(L, e);
    case EXPR_CALL: return lower_call(L, e);
    case EXPR_INDEX: return lower_index(L, e);
    case EXPR_UNARY: {
        const Expr *x = e->lhs;
        if (e->op == AST_NEG && (x->kind == EXPR_INT || x->kind == EXPR_FLOAT))   /* -1 is a literal */
            return build_literal(p, e->span, x->kind == EXPR_INT ? NPX_I64 : NPX_F64, -x->ival, -x->fval, true);
        return lower_operator(L, e->op, e->at, e->span, lower_expr(L, x), 0);
    }
    case EXPR_BINARY: {
        Ref a = lower_expr(L, e->lhs), b = lower_expr(L, e->rhs);
        return lower_operator(L, e->op, e->at, e->span, a, b);
    }
    case EXPR_STRING:
        diag_error(p->diag, e->span, "a string is only allowed as einsum's subscripts ('ij,jk->ik') or a "
                                     "dtype ('float32')");
        return 0;
    case EXPR_TUPLE:
    case EXPR_LIST:
        diag_error(p->diag, e->span, "tuples and lists are only allowed as shapes and axes");
        return 0;
    default:
        diag_error(p->diag, e->span, "this is only allowed inside [ ]");
        return 0;
    }
}

/* The parser caps brackets; a chain of binary operators (a + a + ... + a)
 * nests as deep as it is long, and every pass after this one recurses
 * through it. */
#define MAX_DEPTH 2000

Ref lower_expr(Lower *L, const Expr *e)
{
    if (L->depth >= MAX_DEPTH) {
        diag_error(P(L)->diag, e->span, "expression is nested too deeply (more than %d operations inside one "
                                        "another); split it into statements", MAX_DEPTH);
        return 0;
    }
    L->depth++;
    Ref r;
    if (!L->unmasking || !lower_unmasked_operand(L, e, &r))
        r = lower_node(L, e);
    L->depth--;
    return r;
}
