/* lower_views.c: what shows an array's elements in another shape without
 * computing anything: swapaxes, expand_dims, broadcast_to, reshape,
 * concatenate and stack; each becomes a view (ir.h) that the loops read
 * through. And cumsum, cumprod, sort and argsort, which read their array
 * along an axis. (Indexing and squeeze: lower_index.c.) */
#include <string.h>
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

Ref call_swapaxes(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "axis1", "axis2", NULL };
    const Expr *a[3];
    if (!lower_bind_args(L, c, params, 3, a))
        return 0;
    Ref x = lower_expr(L, a[0]);
    if (!x)
        return 0;
    int ndim = V(P(L), x)->shape.ndim, perm[NPX_MAX_RANK];
    uint32_t first = 0, second = 0;
    if (!lower_one_axis(L, a[1], ndim, &first) || !lower_one_axis(L, a[2], ndim, &second))
        return 0;
    for (int k = 0; k < ndim; k++)
        perm[k] = k;
    int i = __builtin_ctz(first), j = __builtin_ctz(second);
    perm[i] = j;
    perm[j] = i;
    return i == j ? x : build_transpose(P(L), c->call->span, x, perm);
}

/* moveaxis(a, source, destination): a transpose that puts each source axis
 * at its destination and keeps the order of the others (NumPy inserts the
 * moved axes by destination into the list of the others: the same order). */
Ref call_moveaxis(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "source", "destination", NULL };
    const Expr *a[3];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 3, a))
        return 0;
    Ref x = lower_expr(L, a[0]);
    if (!x || !(x = lower_asarray(p, c->call->span, x)))
        return 0;
    int ndim = V(p, x)->shape.ndim, from[NPX_MAX_RANK], to[NPX_MAX_RANK];
    int n = lower_axis_list(L, a[1], ndim, "source: axis %lld is out of bounds for array of dimension %d",
                            "repeated axis in `source` argument", from);
    int m = n < 0 ? -1
                  : lower_axis_list(L, a[2], ndim, "destination: axis %lld is out of bounds for array of dimension %d",
                                    "repeated axis in `destination` argument", to);
    if (m < 0)
        return 0;
    if (n != m) {
        diag_error(p->diag, c->call->at, "`source` and `destination` arguments must have the same number of elements");
        return 0;
    }
    int perm[NPX_MAX_RANK];
    bool moved[NPX_MAX_RANK] = { false }, placed[NPX_MAX_RANK] = { false };
    for (int i = 0; i < n; i++) {
        perm[to[i]] = from[i];
        moved[from[i]] = placed[to[i]] = true;
    }
    for (int k = 0, rest = 0; k < ndim; k++) {
        if (placed[k])
            continue;
        while (moved[rest])
            rest++;
        perm[k] = rest++;
    }
    return build_transpose(p, c->call->span, x, perm);
}

/* expand_dims(a, axis): axis, an int or a tuple, counts in the result. */
Ref call_expand_dims(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "axis", NULL };
    const Expr *a[2];
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    Ref x = lower_expr(L, a[0]);
    if (!x)
        return 0;
    bool many = a[1]->kind == EXPR_TUPLE || a[1]->kind == EXPR_LIST;
    int ndim = V(P(L), x)->shape.ndim + (many ? a[1]->args.n : 1);
    if (ndim > NPX_MAX_RANK) {
        diag_error(P(L)->diag, a[1]->span, "expand_dims: the result would have %d dimensions; at most %d are supported",
                   ndim, NPX_MAX_RANK);
        return 0;
    }
    uint32_t axes;
    if (a[1]->kind == EXPR_NONE || !lower_axes(L, a[1], ndim, &axes)) {
        if (a[1]->kind == EXPR_NONE)
            diag_error(P(L)->diag, a[1]->span, "expand_dims: axis must be an int or a tuple of ints");
        return 0;
    }
    return build_expand(P(L), c->call->span, x, axes, ndim);
}

/* broadcast_to(array, shape): the array as it would broadcast against an
 * array of that shape, which must be the result's shape. */
Ref call_broadcast_to(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "array", "shape", NULL };
    const Expr *a[2];
    Shape s;
    if (!lower_bind_args(L, c, params, 2, a) || !lower_shape(L, a[1], &s))
        return 0;
    return build_broadcast(P(L), c->call->span, lower_expr(L, a[0]), &s);
}

/* d as a literal factor and its symbols (a product's factors) */
static void factors(const Program *p, Dim d, int64_t *lit, Dim *syms, int *n)
{
    const Sym *s = DIM_IS_SYM(d) ? &p->syms[DIM_SYMNO(d)] : NULL;
    *lit = DIM_IS_SYM(d) ? 1 : d;
    *n = 0;
    if (!s || s->kind != SYM_PRODUCT) {
        if (s)
            syms[(*n)++] = d;
        return;
    }
    for (int k = 0; k < s->factors.ndim; k++)
        if (DIM_IS_SYM(s->factors.d[k]))
            syms[(*n)++] = s->factors.d[k];
        else
            *lit = s->factors.d[k];
}

/* total / known, when npxc can see that it divides: known's symbols are
 * among total's and its literal divides total's. */
static bool divide(Program *p, Dim total, Dim known, Dim *out)
{
    int64_t tl, kl;
    Dim ts[NPX_MAX_RANK], ks[NPX_MAX_RANK];
    int tn, kn;
    factors(p, total, &tl, ts, &tn);
    factors(p, known, &kl, ks, &kn);
    if (kl == 0 || tl % kl != 0)
        return false;
    for (int i = 0; i < kn; i++) {
        int j = 0;
        while (j < tn && ts[j] != ks[i])
            j++;
        if (j == tn)
            return false;
        ts[j] = ts[--tn];
    }
    ts[tn++] = tl / kl;
    return ir_product_dim(p, ts, tn, out);
}

/* The new shape of reshape: sizes, one of them possibly -1. */
static bool new_shape(Lower *L, const Expr *const *items, int n, Shape *s, int *infer)
{
    *infer = -1;
    if (n > NPX_MAX_RANK) {
        diag_error(P(L)->diag, items[0]->span, "more than %d dimensions", NPX_MAX_RANK);
        return false;
    }
    s->ndim = n;
    for (int k = 0; k < n; k++) {
        const Expr *e = items[k];
        bool minus_one = e->kind == EXPR_UNARY && e->op == AST_NEG && e->lhs->kind == EXPR_INT && e->lhs->ival == 1;
        if (minus_one && *infer >= 0) {
            diag_error(P(L)->diag, e->span, "can only specify one unknown dimension");
            return false;
        }
        if (minus_one)
            *infer = k, s->d[k] = 1;
        else if (!lower_dim(L, e, &s->d[k]))
            return false;
    }
    return true;
}

/* reshape(a, shape), a.reshape(d0, d1, ...), ravel(a), a.flatten(): a's
 * elements in C order, read with another shape of the same size; flatten
 * (flat 2) makes a copy, as NumPy does, which x[...] = v may change alone. */
Ref call_reshape(Lower *L, Call *c, int flat)
{
    static const char *const params[] = { "a", "shape", NULL }, *const flat_params[] = { "a", NULL };
    const Expr *a[2] = { NULL, NULL };
    const Expr *const *items = c->pos + 1;
    int nitems = c->npos - 1, infer = -1;
    Program *p = P(L);
    if (flat || c->npos <= 2) {
        if (!lower_bind_args(L, c, flat ? flat_params : params, flat ? 1 : 2, a))
            return 0;
        bool many = a[1] && (a[1]->kind == EXPR_TUPLE || a[1]->kind == EXPR_LIST);
        items = many ? (const Expr *const *)a[1]->args.v : &a[1];
        nitems = flat ? 0 : many ? a[1]->args.n : 1;
    } else if (c->call->kwargs.n) {
        diag_error(p->diag, c->call->kwargs.v[0].name_span, "reshape() got an unexpected keyword argument '%s'",
                   c->call->kwargs.v[0].name);
        return 0;
    }
    Ref x = lower_expr(L, c->pos[0]);
    if (!x)
        return 0;
    const Value *v = V(p, x);
    if (v->weak) {
        diag_error(p->diag, c->pos[0]->span, "reshape of a Python number is not supported; use full(shape, value)");
        return 0;
    }
    Shape s = { 1, { 1 } };
    if (flat)
        infer = 0;
    else if (a[1] && a[1]->kind == EXPR_ATTR) {
        if (!lower_shape(L, a[1], &s))
            return 0;
    } else if (!new_shape(L, items, nitems, &s, &infer))
        return 0;
    Dim total, known;
    if (!ir_product_dim(p, v->shape.d, v->shape.ndim, &total) || !ir_product_dim(p, s.d, s.ndim, &known)) {
        diag_error(p->diag, c->call->at, "reshape: more than %d size symbols in one size", NPX_MAX_RANK);
        return 0;
    }
    const char *into = "(";                     /* as written: (-1, 3, 2) */
    for (int k = 0; k < s.ndim; k++)
        into = arena_printf(p->arena, "%s%s%s", into, k == infer ? "-1" : dim_str(p, s.d[k]),
                            k + 1 < s.ndim ? ", " : s.ndim == 1 ? ",)" : ")");
    if (s.ndim == 0)
        into = "()";
    const char *cannot = arena_printf(p->arena, "cannot reshape array into shape %s", into);
    if (infer >= 0 && DIM_IS_SYM(known) && divide(p, total, known, &s.d[infer]))
        ir_add_divides_check(p, p->nstmts - 1, total, known, c->call->at, cannot);   /* NumPy: not when known is 0 */
    else if (infer >= 0 && !divide(p, total, known, &s.d[infer])) {
        if (!DIM_IS_SYM(known) && (!DIM_IS_SYM(total) || known == 0)) {
            diag_error(p->diag, c->call->at, "cannot reshape array of size %s into shape %s", dim_str(p, total), into);
            return 0;
        }
        s.d[infer] = ir_quotient_dim(p, p->nstmts - 1, total, known, c->call->at, cannot);
    }
    if (infer < 0 && total != known) {
        if (!DIM_IS_SYM(total) && !DIM_IS_SYM(known)) {
            diag_error(p->diag, c->call->at, "cannot reshape array of size %lld into shape %s", (long long)total, into);
            return 0;
        }
        ir_add_check(p, p->nstmts - 1, total, known, c->call->at, "cannot reshape array: the sizes differ");
    }
    Ref r = build_reshape(p, c->call->span, x, &s);
    return flat == 2 && r ? build_cast(p, c->call->span, r, V(p, r)->dtype) : r;   /* flatten: a copy */
}

/* The arrays of concatenate and stack: a tuple or a list of them. */
int lower_array_list(Lower *L, const Expr *e, Ref *out, int max)
{
    if (e->kind != EXPR_TUPLE && e->kind != EXPR_LIST) {
        diag_error(P(L)->diag, e->span, "expected a tuple or a list of arrays: (a, b)");
        return 0;
    }
    if (e->args.n == 0 || e->args.n > max) {
        diag_error(P(L)->diag, e->span, e->args.n ? "at most %d arrays are supported" : "need at least one array to "
                                                                                        "concatenate", max);
        return 0;
    }
    int n = 0;
    for (int i = 0; i < e->args.n; i++) {
        out[i] = lower_expr(L, e->args.v[i]);
        n += out[i] != 0;
    }
    return n == e->args.n ? n : 0;
}

/* a then b along axis k: the other axes must agree (checked at run time
 * for size symbols), the dtype is their common one. */
Ref lower_join(Lower *L, Span span, Span at, Ref a, Ref b, int k, int index)
{
    Program *p = P(L);
    const Value *va = V(p, a), *vb = V(p, b);
    if (va->shape.ndim != vb->shape.ndim) {
        diag_error(p->diag, at, "all the input arrays must have the same number of dimensions, but the array at "
                                "index 0 has %d dimension(s) and the array at index %d has %d dimension(s)",
                   va->shape.ndim, index, vb->shape.ndim);
        return 0;
    }
    Shape s = va->shape;
    for (int d = 0; d < s.ndim; d++) {
        Dim x = va->shape.d[d], y = vb->shape.d[d];
        if (d == k) {
            s.d[d] = ir_sum_dim(p, x, y);   /* (computed once the data gives its parts) */
        } else if (x != y && !DIM_IS_SYM(x) && !DIM_IS_SYM(y)) {
            diag_error(p->diag, at, "all the input array dimensions except for the concatenation axis must match "
                                    "exactly, but along dimension %d, the array at index 0 has size %lld and the "
                                    "array at index %d has size %lld", d, (long long)x, index, (long long)y);
            return 0;
        } else if (x != y)
            ir_add_check(p, p->nstmts - 1, x, y, at, "concatenate: the sizes off the axis differ");
    }
    return build_concat(p, span, a, b, k, &s);
}

/* concatenate(arrays, axis=0) (axis=None: of the flattened arrays) and
 * stack(arrays, axis=0) (of same-shaped arrays, along a new axis). */
Ref call_concatenate(Lower *L, Call *c, int stack)
{
    static const char *const params[] = { "arrays", "axis", NULL };
    const Expr *a[2];
    Ref arrays[MAX_ARGS * 4];
    Program *p = P(L);
    int n;
    if (!lower_bind_args(L, c, params, 1, a) || !(n = lower_array_list(L, a[0], arrays, MAX_ARGS * 4)))
        return 0;
    Span sp = c->call->span, at = c->call->at;
    for (int i = 0; i < n; i++)
        if (V(p, arrays[i])->shape.ndim == 0 && !(stack || (a[1] && a[1]->kind == EXPR_NONE))) {
            diag_error(p->diag, a[0]->args.v[i]->span, "zero-dimensional arrays cannot be concatenated");
            return 0;
        }
    int ndim = V(p, arrays[0])->shape.ndim + (stack ? 1 : 0);
    uint32_t axis = 1;
    if (a[1] && a[1]->kind == EXPR_NONE && !stack) {
        for (int i = 0; i < n; i++)          /* axis=None: each flattened */
            if (!(arrays[i] = lower_flatten(L, at, sp, arrays[i])))
                return 0;
        ndim = 1;
    } else if (a[1] && !lower_axes(L, a[1], ndim, &axis))
        return 0;
    int k = __builtin_ctz(axis);
    if (ndim > NPX_MAX_RANK) {
        diag_error(p->diag, at, "the result would have more than %d dimensions", NPX_MAX_RANK);
        return 0;
    }
    for (int i = 0; stack && i < n; i++) {
        if (V(p, arrays[i])->shape.ndim != ndim - 1) {
            diag_error(p->diag, a[0]->args.v[i]->span, "all input arrays must have the same shape");
            return 0;
        }
        arrays[i] = build_expand(p, sp, arrays[i], 1u << k, ndim);
    }
    Ref joined = arrays[0];
    for (int i = 1; i < n && joined; i++)
        joined = lower_join(L, sp, at, joined, arrays[i], k, i);
    return joined;
}

static bool is_list(const Expr *e) { return e->kind == EXPR_TUPLE || e->kind == EXPR_LIST; }

/* The numbers and arrays of the nested lists e, in order, each lowered as
 * an array (a Python number as int64, float64 or bool, as np.array finds
 * them: np.array([np.float32(1), 2.0]) is float64) */
static bool leaves_of(Lower *L, const Expr *e, Ref *leaves, int *n)
{
    Program *p = P(L);
    if (!is_list(e)) {
        if (*n == MAX_ARGS * 8) {
            diag_error(p->diag, e->span, "np.array(): lists of more than %d numbers or arrays are not supported yet",
                       MAX_ARGS * 8);
            return false;
        }
        return (leaves[(*n)++] = lower_asarray(p, e->span, lower_expr(L, e))) != 0;
    }
    if (e->args.n == 0) {
        diag_error(p->diag, e->span, "np.array() of an empty list is not supported yet");
        return false;
    }
    for (int i = 0; i < e->args.n; i++)
        if (!leaves_of(L, e->args.v[i], leaves, n))
            return false;
    return true;
}

/* The array of list e, its leaves taken from *leaf on in dtype t: an axis
 * per level, each level's arrays of one shape stacked along a new first
 * axis (np.stack) */
static Ref stacked(Lower *L, const Expr *e, const Ref **leaf, npx_dtype t)
{
    Program *p = P(L);
    if (!is_list(e)) {
        Ref r = *(*leaf)++;
        return V(p, r)->dtype == t ? r : build_converted(p, e->span, r, t);
    }
    Ref items[MAX_ARGS * 8] = { 0 };
    int n = e->args.n;
    for (int i = 0; i < n; i++)
        if (!(items[i] = stacked(L, e->args.v[i], leaf, t)))
            return 0;
    const Shape *first = &V(p, items[0])->shape;
    for (int i = 1; i < n; i++) {                /* (sizes that symbols give are checked at run time) */
        const Shape *s = &V(p, items[i])->shape;
        bool differ = s->ndim != first->ndim;
        for (int k = 0; k < s->ndim && !differ; k++)
            differ = s->d[k] != first->d[k] && !DIM_IS_SYM(s->d[k]) && !DIM_IS_SYM(first->d[k]);
        if (differ) {
            diag_error(p->diag, e->args.v[i]->span, "setting an array element with a sequence: the elements of "
                                                    "the list have different shapes (%s and %s)",
                       shape_str(p, first, t, false), shape_str(p, s, t, false));
            return 0;
        }
    }
    if (first->ndim + 1 > NPX_MAX_RANK) {
        diag_error(p->diag, e->span, "the result would have more than %d dimensions", NPX_MAX_RANK);
        return 0;
    }
    Ref joined = 0;
    for (int i = 0; i < n; i++) {
        Ref item = build_expand(p, e->span, items[i], 1u, first->ndim + 1);
        joined = i ? lower_join(L, e->span, e->args.v[i]->span, joined, item, 0, i) : item;
    }
    return joined;
}

/* array(object, dtype=None) and asarray: a value of its own (values are
 * never shared, so asarray's "no copy" changes nothing) */
Ref call_array(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "object", "dtype", "copy", "order", "subok", "ndmin", NULL };
    const Expr *a[6];
    Program *p = P(L);
    npx_dtype t;
    if (!lower_bind_args(L, c, params, 1, a) || (a[1] && a[1]->kind != EXPR_NONE && !lower_dtype(L, a[1], &t)))
        return 0;
    for (int i = 3; i < 6; i++)
        if (!lower_not_given(L, c, a[i], params[i]))
            return 0;
    Ref x = lower_array_of(L, a[0], a[1] && a[1]->kind != EXPR_NONE ? t : NPX_NDTYPES);
    return x && !is_list(a[0]) ? build_cast(p, c->call->span, x, V(p, x)->dtype) : x;   /* a copy of an array */
}

Ref lower_array_of(Lower *L, const Expr *e, npx_dtype t)
{
    Ref leaves[MAX_ARGS * 8];
    int n = 0;
    if (!leaves_of(L, e, leaves, &n))
        return 0;
    bool all_weak;
    npx_dtype common = weak_common_dtype(P(L), leaves, n, &all_weak);
    const Ref *leaf = leaves;
    return stacked(L, e, &leaf, t != NPX_NDTYPES ? t : common);
}

Ref lower_flatten(Lower *L, Span at, Span span, Ref x)
{
    Program *p = P(L);
    const Shape *s = &V(p, x)->shape;
    Dim size;
    if (!ir_product_dim(p, s->d, s->ndim, &size)) {
        diag_error(p->diag, at, "more than %d size symbols in one size", NPX_MAX_RANK);
        return 0;
    }
    return s->ndim == 1 ? x : build_reshape(p, span, x, &(Shape){ 1, { size } });
}

/* cumsum(a, axis=None, dtype=None), cumprod: running sums (products) along
 * an axis, or of the flattened array. */
Ref call_cumsum(Lower *L, Call *c, int red)
{
    static const char *const params[] = { "a", "axis", "dtype", NULL };
    const Expr *a[3];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 1, a))
        return 0;
    npx_dtype t = NPX_BOOL;
    Ref x = lower_accumulate_as(L, c, lower_expr(L, a[0]), a[2], &t);
    if (!x)
        return 0;
    const Value *v = V(p, x);
    uint32_t axis = 1;
    if (!a[1] || a[1]->kind == EXPR_NONE) {
        if (v->weak) {
            diag_error(p->diag, c->call->at, "%s of a Python number is not supported", c->fname);
            return 0;
        }
        if (!(x = lower_flatten(L, c->call->at, c->call->span, x)))
            return 0;
    } else if (!lower_axes(L, a[1], v->shape.ndim, &axis))
        return 0;
    if (a[1] && a[1]->kind != EXPR_NONE && (a[1]->kind == EXPR_TUPLE || a[1]->kind == EXPR_LIST)) {
        diag_error(p->diag, a[1]->span, "%s takes one axis or None", c->fname);
        return 0;
    }
    return build_cumulative(p, c->call->span, (Reduction)red, x, __builtin_ctz(axis), t);
}

/* kind=: NumPy's names (its default order of equal elements is unspecified,
 * so npxc's stable order is right for every kind); order= is for structured
 * arrays, which npx has none of. */
static bool sort_options(Lower *L, const Expr *kind, const Expr *order, const Expr *stable)
{
    Program *p = P(L);
    static const char *const kinds[] = { "quicksort", "mergesort", "heapsort", "stable", NULL };
    bool ok = true;
    if (kind && kind->kind != EXPR_NONE) {
        int k = 0;
        while (kinds[k] && (kind->kind != EXPR_STRING || strcmp(kinds[k], kind->name) != 0))
            k++;
        if (!kinds[k]) {
            diag_error(p->diag, kind->span, "sort kind must be one of 'quicksort', 'mergesort', 'heapsort' or 'stable'");
            ok = false;
        }
    }
    if (order && order->kind != EXPR_NONE) {
        diag_error(p->diag, order->span, "order= sorts the fields of structured arrays, which npx does not have");
        ok = false;
    }
    bool flag;
    if (stable && stable->kind != EXPR_NONE && lower_bool_flag(L, stable, &flag) && kind && kind->kind != EXPR_NONE) {
        diag_error(p->diag, stable->span, "`kind` and `stable` parameters can't be provided at the same time");
        ok = false;
    }
    return ok;
}

/* np.sort(a, axis=-1, kind=None, order=None, stable=None), np.argsort (and
 * the method x.argsort): along one axis, or the flattened array for
 * axis=None. x.sort() sorts x in place in NumPy, which values in npx cannot. */
Ref call_sort(Lower *L, Call *c, int positions)
{
    static const char *const params[] = { "a", "axis", "kind", "order", "stable", NULL };
    const Expr *a[5];
    Program *p = P(L);
    if (c->call->obj->kind == EXPR_ATTR && !positions) {
        diag_error(p->diag, c->call->at, "x.sort() sorts x in place and returns None; write x = np.sort(x)");
        return 0;
    }
    if (!lower_bind_args(L, c, params, 1, a) || !sort_options(L, a[2], a[3], a[4]))
        return 0;
    Ref x = lower_expr(L, a[0]);
    if (!x)
        return 0;
    uint32_t axis = 0;
    if (a[1] && a[1]->kind == EXPR_NONE) {
        if (!(x = lower_flatten(L, c->call->at, c->call->span, x)))
            return 0;
        axis = 1;
    } else if (a[1] && (a[1]->kind == EXPR_TUPLE || a[1]->kind == EXPR_LIST)) {
        diag_error(p->diag, a[1]->span, "%s takes one axis or None", c->fname);
        return 0;
    } else if (a[1]) {
        if (!lower_one_axis(L, a[1], V(p, x)->shape.ndim, &axis))
            return 0;
    } else if (V(p, x)->shape.ndim == 0) {
        diag_error(p->diag, c->call->at, "axis -1 is out of bounds for array of dimension 0");
        return 0;
    } else {
        axis = 1u << (V(p, x)->shape.ndim - 1);   /* axis=-1 */
    }
    return build_sort(p, c->call->span, x, __builtin_ctz(axis), positions);
}
