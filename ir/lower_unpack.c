/* lower_unpack.c: a, b = VALUE, Python's unpacking into names. VALUE is
 *   a tuple of values           a, b = x + 1, y
 *   x.shape                     B, V = x.shape
 *   np.divmod(x, y)             q, r = np.divmod(x, y): x // y and x % y
 *   np.meshgrid(x, y, ...)      X, Y = np.meshgrid(x, y, indexing='xy')
 *   np.nonzero(x), where(c)     i, j = np.nonzero(m): the positions, one array an axis
 *   np.average(..., returned=True)   avg, total = np.average(x, weights=w, returned=True)
 *   np.unravel_index(k, shape)  i, j = np.unravel_index(np.argmax(x), x.shape)
 *   np.modf(x)                  frac, whole = np.modf(x)
 *   np.frexp(x)                 mantissa, exponent = np.frexp(x)
 *   np.histogram(x, bins)       hist, edges = np.histogram(x, bins=50)
 *   np.unique(x, return_counts=True)   values, counts = np.unique(labels, return_counts=True)
 *   any other array, by rows    lo, hi = np.percentile(x, [5, 95])
 * Each name gets a statement of its own (its comment, its trace line) that
 * builds its part; what the parts share (x and y of divmod) is lowered once,
 * in the first one. The names are bound once every part is built, so that
 * a, b = b, a swaps them. A function's tuple indexed by a number is that
 * part alone: np.nonzero(m)[0]. */
#include <string.h>
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

typedef enum {
    FROM_TUPLE, FROM_SHAPE, FROM_DIVMOD, FROM_MESHGRID, FROM_NONZERO, FROM_PARTS, FROM_UNRAVEL, FROM_MODF, FROM_FREXP,
    FROM_ROWS
} SourceKind;

typedef struct {
    SourceKind kind;
    const Expr *e;               /* the value as written */
    int n;                       /* its parts */
    Ref x, y;                    /* SHAPE, ROWS, NONZERO, MODF, FREXP: the array (NONZERO: y, x != 0; MODF, FREXP: in
                                    its float dtype); DIVMOD: the operands; UNRAVEL: x the flat
                                    index, checked */
    Ref parts[4];                /* PARTS: the results (the average and the sum of weights; the
                                    counts and the edges; unique's arrays) */
    bool weak_result;            /* DIVMOD: Python's divmod of Python numbers */
    Ref grid[NPX_MAX_RANK];      /* MESHGRID: the inputs, each flattened */
    int axis[NPX_MAX_RANK];      /*           the axis of the result each runs along */
    Shape shape;                 /*           the result's shape; UNRAVEL: the shape indexed */
    bool sparse;
    bool fortran;                /* UNRAVEL: order='F' */
} Source;

/* The functions that return several arrays. */
static const char *const several[] = { "divmod", "meshgrid", "nonzero", "where", "average", "unravel_index", "modf",
                                       "histogram", "frexp", "unique", NULL };
enum { DIVMOD, MESHGRID, NONZERO, WHERE, AVERAGE, UNRAVEL, MODF, HISTOGRAM, FREXP, UNIQUE };

/* Is name=True among call's keywords? */
static bool keyword_true(const Expr *call, const char *name)
{
    for (int k = 0; k < call->kwargs.n; k++)
        if (strcmp(call->kwargs.v[k].name, name) == 0)
            return call->kwargs.v[k].value->kind == EXPR_BOOL && call->kwargs.v[k].value->ival;
    return false;
}

/* np.unique asked for more than its values */
static bool returns_more(const Expr *call)
{
    return keyword_true(call, "return_index") || keyword_true(call, "return_inverse") ||
           keyword_true(call, "return_counts");
}

/* Which of them e calls (np.divmod, or divmod the program does not bind;
 * x.nonzero(); where with a condition alone), or -1. */
static int several_valued(Lower *L, const Expr *e)
{
    const Expr *f = e->kind == EXPR_CALL ? e->obj : NULL;
    bool module = f && f->kind == EXPR_ATTR && f->obj->kind == EXPR_NAME && f->obj->np_prefix;
    if (f && f->kind == EXPR_ATTR && !module && strcmp(f->name, "nonzero") == 0)
        return NONZERO;                          /* x.nonzero() */
    if (!f || f->kind != EXPR_NAME || (!f->np_prefix && lower_lookup(L, f->name)))
        return -1;
    int k = 0;
    while (several[k] && strcmp(several[k], f->name) != 0)
        k++;
    return !several[k] || (k == WHERE && (e->args.n != 1 || e->kwargs.n)) ||
                   (k == AVERAGE && !keyword_true(e, "returned")) || (k == UNIQUE && !returns_more(e))
               ? -1
               : k;
}

const char *lower_unpack_hint(Lower *L, const Expr *call)
{
    static const char *const hints[] = {
        "divmod returns two arrays, the quotient and the remainder: unpack them, q, r = np.divmod(x, y)",
        "meshgrid returns an array for each input: unpack them, X, Y = np.meshgrid(x, y)",
        "nonzero returns a tuple of position arrays, one for each axis: unpack them, i, j = np.nonzero(m), or "
        "take one, np.nonzero(m)[0]",
        "where(condition) returns a tuple of position arrays, one for each axis: unpack them, i, j = np.where(m), "
        "or take one, np.where(m)[0]",
        NULL,                                    /* average(returned=True): its own words */
        "unravel_index returns a tuple of index arrays, one for each axis of the shape: unpack them, "
        "i, j = np.unravel_index(k, x.shape), or take one, np.unravel_index(k, x.shape)[0]",
        "modf returns two arrays, the fractional and the integral parts: unpack them, frac, whole = np.modf(x)",
        "histogram returns two arrays, the counts and the bin edges: unpack them, hist, edges = "
        "np.histogram(x, bins=50), or take one, np.histogram(x)[0]",
        "frexp returns two arrays, the mantissas and the exponents: unpack them, m, e = np.frexp(x)",
        "unique with return_index, return_inverse or return_counts returns an array for each: unpack them, "
        "values, counts = np.unique(x, return_counts=True)",
    };
    int k = several_valued(L, call);
    return k < 0 ? NULL : hints[k];
}

/* The positional arguments of call, as a Call of fname. */
static Call call_of(const Expr *call, const char *fname)
{
    Call c = { .call = call, .fname = fname };
    for (int i = 0; i < call->args.n && i < MAX_ARGS; i++)
        c.pos[c.npos++] = call->args.v[i];
    return c;
}

/* 1-D r laid along axis k of an array of ndim axes (1 long on the others) */
static Ref along_axis(Program *p, Span span, Ref r, int k, int ndim)
{
    return build_expand(p, span, r, ((1u << ndim) - 1) & ~(1u << k), ndim);
}

static bool divmod_source(Lower *L, const Expr *e, Source *src)
{
    static const char *const params[] = { "x1", "x2", NULL };
    Call c = call_of(e, "divmod");
    const Expr *a[2];
    if (!lower_bind_args(L, &c, params, 2, a))
        return false;
    src->x = lower_expr(L, a[0]);
    src->y = src->x ? lower_expr(L, a[1]) : 0;
    src->weak_result = !e->obj->np_prefix;       /* the builtin: divmod(7, 2) is (3, 1), Python ints */
    src->n = 2;
    return src->y != 0;
}

/* numpy/lib/_function_base_impl.py: each input flattened along an axis of
 * its own (with indexing='xy', the first two swapped), then all broadcast
 * together unless sparse. */
static bool meshgrid_source(Lower *L, const Expr *e, Source *src)
{
    static const char *const params[] = { "copy", "sparse", "indexing", NULL };
    static const char *const orders[] = { "xy", "ij", NULL };
    Program *p = P(L);
    Call c = { .call = e, .fname = "meshgrid" };  /* the keywords alone: *xi are the positions */
    const Expr *a[3];
    bool copy = true;                            /* checked; npxc's values are never views of each other's */
    if (!lower_bind_args(L, &c, params, 0, a) || (a[0] && !lower_bool_flag(L, a[0], &copy)) ||
        (a[1] && !lower_bool_flag(L, a[1], &src->sparse)))
        return false;
    int ij = a[2] ? lower_choice(a[2], orders) : 0;
    if (!orders[ij]) {
        diag_error(p->diag, a[2]->span, "Valid values for `indexing` are 'xy' and 'ij'.");
        return false;
    }
    int n = e->args.n;
    if (n > NPX_MAX_RANK) {
        diag_error(p->diag, e->args.v[NPX_MAX_RANK]->span, "meshgrid of more than %d arrays is not supported yet",
                   NPX_MAX_RANK);
        return false;
    }
    src->shape.ndim = n;
    for (int i = 0; i < n; i++) {
        Ref x = lower_asarray(p, e->args.v[i]->span, lower_expr(L, e->args.v[i]));
        if (!x || !(src->grid[i] = lower_flatten(L, e->args.v[i]->span, e->args.v[i]->span, x)))
            return false;
        src->axis[i] = !ij && n > 1 && i < 2 ? 1 - i : i;
        src->shape.d[src->axis[i]] = V(p, src->grid[i])->shape.d[0];
    }
    src->n = n;
    return true;
}

/* np.nonzero(a), a.nonzero(), np.where(condition): at the positions a
 * is not 0 (not False; NaN is not 0), each axis's index, in C order. */
static bool nonzero_source(Lower *L, const Expr *e, bool where, Source *src)
{
    static const char *const params[] = { "a", NULL }, *const where_params[] = { "condition", NULL };
    Program *p = P(L);
    bool method = e->obj->kind == EXPR_ATTR;
    const Expr *a[1] = { method ? e->obj->obj : NULL };
    Call c = call_of(e, where ? "where" : "nonzero");
    if (method && (e->args.n || e->kwargs.n)) {
        diag_error(p->diag, e->at, "nonzero() takes no arguments");
        return false;
    }
    if (!method && !lower_bind_args(L, &c, where ? where_params : params, 1, a))
        return false;
    src->x = lower_expr(L, a[0]);
    if (!src->x)
        return false;
    if (V(p, src->x)->shape.ndim == 0) {
        diag_error(p->diag, a[0]->span, "Calling nonzero on 0d arrays is not allowed. Use "
                                        "np.atleast_1d(scalar).nonzero() instead.");
        return false;
    }
    Ref zero = build_literal(p, e->span, NPX_I64, 0, 0, true);
    src->y = build_ufunc(p, e->obj->span, e->span, UF_not_equal, (Ref[]){ src->x, zero }, 2, true);
    src->n = V(p, src->x)->shape.ndim;
    return src->y != 0;
}

/* np.unravel_index(indices, shape, order='C'): the indices (integers,
 * int64, each checked to be in the array: NumPy's ValueError when the
 * program runs) as positions along each axis of shape. */
static bool unravel_source(Lower *L, const Expr *e, Source *src)
{
    static const char *const params[] = { "indices", "shape", "order", NULL }, *const orders[] = { "C", "F", NULL };
    Program *p = P(L);
    Call c = call_of(e, "unravel_index");
    const Expr *a[3];
    if (!lower_bind_args(L, &c, params, 2, a) || !lower_shape(L, a[1], &src->shape))
        return false;
    int order = a[2] ? lower_choice(a[2], orders) : 0;
    if (!orders[order]) {
        diag_error(p->diag, a[2]->span, "only 'C' or 'F' order is permitted");
        return false;
    }
    Ref k = lower_expr(L, a[0]);
    if (!k)
        return false;
    if (dtype_is_float(V(p, k)->dtype)) {
        diag_error(p->diag, a[0]->span, "only int indices permitted");
        return false;
    }
    k = V(p, k)->dtype == NPX_I64 && !V(p, k)->weak ? k : build_converted(p, a[0]->span, k, NPX_I64);
    Ref size = build_dimval(p, e->span, &src->shape);
    src->x = build_ufunc(p, e->obj->span, e->span, UF_unravel_checked, (Ref[]){ k, size }, 2, false);
    src->fortran = order == 1;
    src->n = src->shape.ndim;
    return src->x != 0;
}

/* np.modf(x), np.frexp(x) (name): x in the float dtype its parts have
 * (float64 for integers). */
static bool float_parts_source(Lower *L, const Expr *e, const char *name, Source *src)
{
    static const char *const params[] = { "x", NULL };
    Program *p = P(L);
    Call c = call_of(e, name);
    const Expr *a[1];
    if (!lower_bind_args(L, &c, params, 1, a) || !(src->x = lower_expr(L, a[0])))
        return false;
    npx_dtype t = V(p, src->x)->dtype;
    if (t == NPX_BOOL) {
        diag_error(p->diag, e->obj->span, "'%s' of bool arrays computes in float16 in NumPy, which npxc does not "
                                          "support yet; convert first, e.g. x.astype(f32)", name);
        return false;
    }
    src->x = build_converted(p, a[0]->span, src->x, t == NPX_F32 && !V(p, src->x)->weak ? NPX_F32 : NPX_F64);
    src->n = 2;
    return true;
}

/* What e unpacks into, and how many parts: lowered under the first name's
 * statement. */
static bool source_of(Lower *L, const Expr *e, Source *src)
{
    Program *p = P(L);
    src->e = e;
    if (e->kind == EXPR_TUPLE || e->kind == EXPR_LIST) {
        src->kind = FROM_TUPLE;
        src->n = e->args.n;
        return true;
    }
    int k = several_valued(L, e);
    switch (k) {
    case DIVMOD: src->kind = FROM_DIVMOD; return divmod_source(L, e, src);
    case MESHGRID: src->kind = FROM_MESHGRID; return meshgrid_source(L, e, src);
    case NONZERO: src->kind = FROM_NONZERO; return nonzero_source(L, e, false, src);
    case WHERE: src->kind = FROM_NONZERO; return nonzero_source(L, e, true, src);
    case UNRAVEL: src->kind = FROM_UNRAVEL; return unravel_source(L, e, src);
    case MODF: src->kind = FROM_MODF; return float_parts_source(L, e, "modf", src);
    case FREXP: src->kind = FROM_FREXP; return float_parts_source(L, e, "frexp", src);
    case AVERAGE:
    case HISTOGRAM: {
        Call c = call_of(e, several[k]);
        src->kind = FROM_PARTS;
        src->n = 2;
        return (src->parts[0] = k == AVERAGE ? lower_average(L, &c, &src->parts[1])
                                             : lower_histogram(L, &c, &src->parts[1])) != 0;
    }
    case UNIQUE: {
        Call c = call_of(e, several[k]);
        src->kind = FROM_PARTS;
        return (src->n = lower_unique(L, &c, src->parts)) != 0;
    }
    }
    if (e->kind == EXPR_ATTR && strcmp(e->name, "shape") == 0) {
        src->kind = FROM_SHAPE;
        src->x = lower_expr(L, e->obj);
        src->n = src->x ? V(p, src->x)->shape.ndim : 0;
        return src->x != 0;
    }
    src->kind = FROM_ROWS;
    src->x = lower_expr(L, e);
    if (!src->x)
        return false;
    const Value *v = V(p, src->x);
    if (v->shape.ndim == 0) {
        diag_error(p->diag, e->span, v->weak ? "cannot unpack non-iterable %s object" : "iteration over a 0-d array",
                   dtype_python_type(v->dtype));
        return false;
    }
    src->n = -1;                                 /* its rows: checked against the names */
    return true;
}

/* Part i of src, built under the statement being lowered. */
static Ref part(Lower *L, const Source *src, int i)
{
    Program *p = P(L);
    const Expr *e = src->e;
    switch (src->kind) {
    case FROM_TUPLE: return lower_expr(L, e->args.v[i]);
    case FROM_SHAPE: return lower_size(p, e->span, V(p, src->x)->shape.d[i]);
    case FROM_DIVMOD:
        return build_ufunc(p, e->obj->span, e->span, i ? UF_remainder : UF_floor_divide, (Ref[]){ src->x, src->y }, 2,
                           src->weak_result);
    case FROM_MESHGRID: {
        Ref r = along_axis(p, e->span, src->grid[i], src->axis[i], src->shape.ndim);
        return src->sparse ? r : build_broadcast(p, e->span, r, &src->shape);
    }
    case FROM_NONZERO: {
        const Shape *s = &V(p, src->x)->shape;
        Ref at = along_axis(p, e->span, build_arange(p, e->span, NPX_I64, 0, 1, s->d[i]), i, s->ndim);
        return build_compress(p, e->obj->span, e->span, build_broadcast(p, e->span, at, s), src->y, 0, 0);
    }
    case FROM_PARTS: return src->parts[i];
    case FROM_UNRAVEL: {                         /* k // (the sizes after axis i) % (axis i's) */
        const Shape *s = &src->shape;
        Shape after = { 0, { 0 } };
        for (int k = src->fortran ? 0 : i + 1; k < (src->fortran ? i : s->ndim); k++)
            after.d[after.ndim++] = s->d[k];
        Ref r = src->x;
        if (after.ndim)
            r = build_ufunc(p, e->obj->span, e->span, UF_floor_divide, (Ref[]){ r, build_dimval(p, e->span, &after) },
                            2, false);
        Ref size = lower_size(p, e->span, s->d[i]);
        return build_ufunc(p, e->obj->span, e->span, UF_remainder, (Ref[]){ r, size }, 2, false);
    }
    case FROM_MODF: {                            /* C's modf: trunc(x); x - trunc(x), 0 for an infinity, with x's sign */
        Span at = e->obj->span;
        Ref whole = build_ufunc(p, at, e->span, UF_trunc, &src->x, 1, false);
        if (i == 1)
            return whole;
        Ref frac = build_ufunc(p, at, e->span, UF_subtract, (Ref[]){ src->x, whole }, 2, false);
        Ref inf = build_ufunc(p, at, e->span, UF_isinf, &src->x, 1, false);
        frac = build_ufunc(p, at, e->span, UF_where, (Ref[]){ inf, build_literal(p, e->span, NPX_I64, 0, 0, true), frac },
                           3, false);
        return build_ufunc(p, at, e->span, UF_copysign, (Ref[]){ frac, src->x }, 2, false);
    }
    case FROM_FREXP:                             /* C's frexp: x = m * 2**e, 0.5 <= |m| < 1 */
        return build_ufunc(p, e->obj->span, e->span, i ? UF_frexp_exponent : UF_frexp_mantissa, &src->x, 1, false);
    case FROM_ROWS: return lower_component(p, e->span, src->x, 0, i);
    }
    return 0;
}

/* Python's ValueError when the value has another number of parts than the
 * names; rows of a size symbol's length are checked when the program runs. */
static bool same_count(Lower *L, const Source *src, int names, int st)
{
    Program *p = P(L);
    Dim n = src->n >= 0 ? src->n : V(p, src->x)->shape.d[0];
    if (DIM_IS_SYM(n)) {
        ir_add_check(p, st, n, names, src->e->span,
                     arena_printf(p->arena, "wrong number of values to unpack (expected %d)", names));
        return true;
    }
    if (n > names)
        diag_error(p->diag, src->e->span, "too many values to unpack (expected %d)", names);
    else if (n < names)
        diag_error(p->diag, src->e->span, "not enough values to unpack (expected %d, got %lld)", names, (long long)n);
    return n == names;
}

void lower_unpack(Lower *L, const Stmt *s)
{
    Program *p = L->p;
    int n = s->nnames, *st = arena_alloc(p->arena, sizeof(int) * (size_t)n);
    Ref *r = arena_alloc(p->arena, sizeof(Ref) * (size_t)n), *data = arena_alloc(p->arena, sizeof(Ref) * (size_t)n);
    bool *named = arena_alloc(p->arena, (size_t)n), ok = true;
    for (int i = 0; i < n; i++)
        ok &= named[i] = lower_assignable(L, s->names[i], s->name_spans[i]);
    Source src = { 0 };
    for (int i = 0; i < n; i++) {
        st[i] = lower_new_stmt(L, ST_ASSIGN, s, s->names[i]);
        Ref first = p->nvals;
        if (i == 0)
            ok = ok && source_of(L, s->value, &src) && same_count(L, &src, n, st[0]);
        r[i] = ok ? part(L, &src, i) : 0;
        data[i] = r[i] ? lower_data(L, r[i]) : 0;
        r[i] = lower_own_value(L, s->span, r[i], first);
    }
    for (int i = 0; i < n; i++)                  /* after an error, quiet (0) */
        if (named[i])
            lower_bind_value(L, st[i], s->names[i], s->name_spans[i], r[i], data[i], false);
}

Ref lower_part_of(Lower *L, const Expr *call, const Expr *index)
{
    Program *p = P(L);
    int64_t i;
    Source src = { 0 };
    if (!lower_const_int(L, index, &i) || !source_of(L, call, &src))
        return 0;
    if (i < -src.n || i >= src.n) {
        diag_error(p->diag, index->span, "tuple index out of range (%lld of %d arrays)", (long long)i, src.n);
        return 0;
    }
    return part(L, &src, (int)(i < 0 ? i + src.n : i));
}

bool lower_several_valued(Lower *L, const Expr *e) { return several_valued(L, e) >= 0; }
