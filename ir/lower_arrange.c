/* lower_arrange.c: NumPy functions that rearrange an array's elements, as
 * NumPy writes them in Python over slices and concatenation (numpy/lib/
 * _function_base_impl.py, _shape_base_impl.py, _twodim_base_impl.py and
 * numpy/_core/shape_base.py, numeric.py, fromnumeric.py): flip, fliplr,
 * flipud, diff, hstack, vstack, column_stack, tril, triu, tile, repeat,
 * roll and pad (numpy/lib/_arraypad_impl.py, its first five modes); each becomes
 * views (ir.h) that the loops read through. */
#include <string.h>
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

/* Every element of every axis: x[:, :, ...]. */
static void whole(AxisIndex *sel, int ndim)
{
    for (int k = 0; k < ndim; k++)
        sel[k] = (AxisIndex){ false, NPX_NO_BOUND, NPX_NO_BOUND, 1, 0, 0 };
}

/* flip(m, axis=None) (which 0), flipud(m) (1: axis 0), fliplr(m) (2: axis
 * 1): m[::-1] along those axes. */
Ref call_flip(Lower *L, Call *c, int which)
{
    static const char *const params[] = { "m", "axis", NULL }, *const m_only[] = { "m", NULL };
    const Expr *a[2];
    Program *p = P(L);
    if (!lower_bind_args(L, c, which ? m_only : params, 1, a))
        return 0;
    Ref x = lower_asarray(p, c->call->span, lower_expr(L, a[0]));
    if (!x)
        return 0;
    int ndim = V(p, x)->shape.ndim;
    uint32_t axes = which ? 1u << (which - 1) : 0;
    if (which && ndim < which) {
        diag_error(p->diag, c->call->at, "Input must be >= %d-d.", which);
        return 0;
    }
    if (!which && !lower_axes(L, a[1], ndim, &axes))
        return 0;
    AxisIndex sel[NPX_MAX_RANK];
    whole(sel, ndim);
    for (int k = 0; k < ndim; k++)
        if (axes >> k & 1)
            sel[k].step = -1;
    return axes ? build_index(p, c->call->span, x, sel) : x;
}

/* diff's prepend (side 0) or append (1): e joined to x along axis k, a
 * 0-d e broadcast to one element across it first, as NumPy does. */
static Ref widen(Lower *L, Call *c, Ref x, const Expr *e, int k, int side)
{
    Program *p = P(L);
    Span sp = c->call->span;
    Ref v = lower_asarray(p, sp, lower_expr(L, e));
    if (!v)
        return 0;
    Shape s = V(p, x)->shape;
    s.d[k] = 1;
    if (V(p, v)->shape.ndim == 0)
        v = build_broadcast(p, sp, v, &s);
    return side ? lower_join(L, sp, c->call->at, x, v, k, 1) : lower_join(L, sp, c->call->at, v, x, k, 1);
}

/* diff(a, n=1, axis=-1, prepend, append): prepend and append joined to a
 * along axis, then n times a[..., 1:] - a[..., :-1] (not_equal for bool, as
 * NumPy). */
Ref call_diff(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "n", "axis", "prepend", "append", NULL };
    const Expr *a[5];
    Program *p = P(L);
    int64_t n = 1;
    if (!lower_bind_args(L, c, params, 1, a) || (a[1] && !lower_const_int(L, a[1], &n)))
        return 0;
    if (n < 0) {
        diag_error(p->diag, a[1]->span, "order must be non-negative but got %lld", (long long)n);
        return 0;
    }
    Ref x = lower_asarray(p, c->call->span, lower_expr(L, a[0]));
    if (!x)
        return 0;
    int ndim = V(p, x)->shape.ndim;
    if (ndim == 0) {
        diag_error(p->diag, c->call->at, "diff requires input that is at least one dimensional");
        return 0;
    }
    uint32_t axis = 1u << (ndim - 1);
    if (a[2] && !(axis = 0, lower_one_axis(L, a[2], ndim, &axis)))
        return 0;
    int k = __builtin_ctz(axis);
    for (int side = 0; side < 2; side++)
        if (a[3 + side] && !(x = widen(L, c, x, a[3 + side], k, side)))
            return 0;
    Ufunc op = V(p, x)->dtype == NPX_BOOL ? UF_not_equal : UF_subtract;
    /* once the axis is empty, more differences leave it so */
    for (int64_t i = 0; i < n && V(p, x)->shape.d[k] != 0; i++) {
        Ref later = lower_shifted(p, c->call->span, x, k, 1), earlier = lower_shifted(p, c->call->span, x, k, 0);
        x = build_ufunc(p, c->call->at, c->call->span, op, (Ref[]){ later, earlier }, 2, false);
    }
    return x;
}

Ref lower_component(Program *p, Span span, Ref a, int k, int64_t i)
{
    AxisIndex sel[NPX_MAX_RANK];
    whole(sel, V(p, a)->shape.ndim);
    sel[k] = (AxisIndex){ true, i, NPX_NO_BOUND, 1, 0, 0 };
    return build_index(p, span, a, sel);
}

Ref lower_shifted(Program *p, Span span, Ref a, int k, int from)
{
    AxisIndex sel[NPX_MAX_RANK];
    whole(sel, V(p, a)->shape.ndim);
    if (from)
        sel[k].start = 1;
    else
        sel[k].stop = -1;
    return build_index(p, span, a, sel);
}

/* x with at least ndim axes, as atleast_1d, atleast_2d and atleast_3d make
 * it (a 1-D x becomes a row, 1 x n, or 1 x n x 1; a 2-D one m x n x 1);
 * column: as column_stack makes it (a column, n x 1). */
static Ref at_least(Program *p, Span span, Ref x, int ndim, bool column)
{
    x = lower_asarray(p, span, x);
    const Shape *s = &V(p, x)->shape;
    if (s->ndim >= ndim)
        return x;
    if (s->ndim == 0)
        return build_reshape(p, span, x, &(Shape){ ndim, { 1, 1, 1 } });
    uint32_t added = ndim == 2 ? (column ? 2u : 1u) : s->ndim == 1 ? 5u : 4u;   /* the new axes */
    return build_expand(p, span, x, added, ndim);
}

/* atleast_1d(a), atleast_2d(a), atleast_3d(a) (ndim) of one array; of
 * several, NumPy returns a tuple of arrays: not supported yet. */
Ref call_atleast(Lower *L, Call *c, int ndim)
{
    Program *p = P(L);
    if (c->call->kwargs.n) {
        const Kwarg *kw = &c->call->kwargs.v[0];
        diag_error(p->diag, kw->name_span, "%s() got an unexpected keyword argument '%s'", c->fname, kw->name);
        return 0;
    }
    if (c->npos != 1) {
        diag_error(p->diag, c->npos ? c->pos[1]->span : c->call->at,
                   "%s() of %s gives a tuple of arrays: not supported yet; call it once for each array", c->fname,
                   c->npos ? "several arrays" : "no array");
        return 0;
    }
    Ref x = lower_expr(L, c->pos[0]);
    return x ? at_least(p, c->call->span, x, ndim, false) : 0;
}

/* hstack(tup) (which 0), vstack(tup) (1), column_stack(tup) (2): the
 * arrays made 1-D, 2-D or columns, then concatenated along axis 0 (hstack
 * of 1-D arrays, vstack) or 1. */
Ref call_hstack(Lower *L, Call *c, int which)
{
    static const char *const params[] = { "tup", "dtype", "casting", NULL }, *const tup_only[] = { "tup", NULL };
    const Expr *a[3] = { NULL, NULL, NULL };
    Ref arrays[MAX_ARGS * 4];
    Program *p = P(L);
    int n;
    if (!lower_bind_args(L, c, which == 2 ? tup_only : params, 1, a) || !lower_not_given(L, c, a[1], "dtype") ||
        !lower_not_given(L, c, a[2], "casting") || !(n = lower_array_list(L, a[0], arrays, MAX_ARGS * 4)))
        return 0;
    Span sp = c->call->span, at = c->call->at;
    for (int i = 0; i < n; i++)
        arrays[i] = at_least(p, sp, arrays[i], which ? 2 : 1, which == 2);
    int axis = which == 1 || (which == 0 && V(p, arrays[0])->shape.ndim == 1) ? 0 : 1;
    Ref joined = arrays[0];
    for (int i = 1; i < n && joined; i++)
        joined = lower_join(L, sp, at, joined, arrays[i], axis, i);
    return joined;
}

/* tril(m, k=0) (upper 0), triu(m, k=0) (1): as NumPy, m where the mask of
 * tri() over its last two axes (a 1-D m: n x n) keeps it, else a zero of
 * m's dtype; tril keeps column - row <= k, triu column - row >= k. */
Ref call_tri(Lower *L, Call *c, int upper)
{
    static const char *const params[] = { "m", "k", NULL };
    const Expr *a[2];
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    int64_t k = 0;
    if (!lower_bind_args(L, c, params, 1, a) || (a[1] && !lower_const_int(L, a[1], &k)))
        return 0;
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0]));
    if (!x)
        return 0;
    const Shape *s = &V(p, x)->shape;
    if (s->ndim == 0) {
        diag_error(p->diag, at, "%s() of a 0-d value: NumPy's tri() is missing its size N", c->fname);
        return 0;
    }
    Dim n = s->d[s->ndim > 1 ? s->ndim - 2 : 0], m = s->d[s->ndim - 1];
    Ref diagonal = lower_diagonals(p, at, sp, n, m);
    Ref kth = build_literal(p, sp, NPX_I64, k, (double)k, true);
    Ref keep = build_ufunc(p, at, sp, upper ? UF_greater_equal : UF_less_equal, (Ref[]){ diagonal, kth }, 2, false);
    Ref zero = build_literal(p, sp, V(p, x)->dtype, 0, 0.0, false);
    return build_ufunc(p, at, sp, UF_where, (Ref[]){ keep, x, zero }, 3, false);
}

/* A count of copies (tile's reps, repeat's repeats): an integer constant,
 * not negative. */
static bool copies(Lower *L, const Expr *e, int64_t *out)
{
    if (!lower_const_int(L, e, out))
        return false;
    if (*out < 0)
        diag_error(P(L)->diag, e->span, "negative dimensions are not allowed");
    return *out >= 0;
}

/* x (of shape s) with each axis k repeated reps[k] times: a new axis of
 * reps[k] before k (tile: whole copies) or after it (repeat: each element),
 * broadcast and read as one axis of reps[k] * s[k]. */
static Ref replicate(Lower *L, Call *c, Ref x, const int64_t *reps, bool after)
{
    Program *p = P(L);
    Shape s = V(p, x)->shape, wide = { 0, { 0 } }, out = s;
    int ndim = s.ndim;
    for (int k = 0; k < s.ndim; k++)
        ndim += reps[k] != 1;
    if (ndim > NPX_MAX_RANK) {
        diag_error(p->diag, c->call->at, "%s(): more than %d dimensions on the way are not supported yet", c->fname,
                   NPX_MAX_RANK);
        return 0;
    }
    uint32_t new_axes = 0;
    for (int k = 0; k < s.ndim; k++) {
        if (reps[k] != 1 && !after)
            new_axes |= 1u << wide.ndim, wide.d[wide.ndim++] = reps[k];
        wide.d[wide.ndim++] = s.d[k];
        if (reps[k] != 1 && after)
            new_axes |= 1u << wide.ndim, wide.d[wide.ndim++] = reps[k];
        if (!ir_product_dim(p, (Dim[]){ reps[k], s.d[k] }, 2, &out.d[k])) {
            diag_error(p->diag, c->call->at, "more than %d size symbols in one size", NPX_MAX_RANK);
            return 0;
        }
    }
    if (!new_axes)
        return x;
    Span sp = c->call->span;
    x = build_broadcast(p, sp, build_expand(p, sp, x, new_axes, wide.ndim), &wide);
    return build_reshape(p, sp, x, &out);
}

/* tile(A, reps): A with as many axes as reps (leading ones added), reps
 * with as many as A (leading ones), each axis copied whole reps[k] times. */
Ref call_tile(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "A", "reps", NULL };
    const Expr *a[2];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    bool many = a[1]->kind == EXPR_TUPLE || a[1]->kind == EXPR_LIST;
    int d = many ? a[1]->args.n : 1;
    int64_t given[NPX_MAX_RANK], reps[NPX_MAX_RANK];
    if (d > NPX_MAX_RANK) {
        diag_error(p->diag, a[1]->span, "more than %d dimensions", NPX_MAX_RANK);
        return 0;
    }
    for (int i = 0; i < d; i++)
        if (!copies(L, many ? a[1]->args.v[i] : a[1], &given[i]))
            return 0;
    Ref x = lower_asarray(p, c->call->span, lower_expr(L, a[0]));
    if (!x)
        return 0;
    int ndim = V(p, x)->shape.ndim, nd = ndim > d ? ndim : d;
    if (nd > ndim)
        x = build_expand(p, c->call->span, x, (1u << (nd - ndim)) - 1, nd);
    for (int k = 0; k < nd; k++)
        reps[k] = k < nd - d ? 1 : given[k - (nd - d)];
    return replicate(L, c, x, reps, false);
}

/* repeat(a, repeats, axis=None) for an integer repeats: each element
 * repeats times along axis (of the flattened a for None). */
Ref call_repeat(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "repeats", "axis", NULL };
    const Expr *a[3];
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    int64_t r;
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    if (!lower_is_const_int(L, a[1])) {
        diag_error(p->diag, a[1]->span, "repeat(): 'repeats=' other than an integer constant is not supported yet");
        return 0;
    }
    if (!copies(L, a[1], &r))
        return 0;
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0]));
    bool flat = !a[2] || a[2]->kind == EXPR_NONE;
    uint32_t axis = flat;
    if (!x || (!flat && !lower_one_axis(L, a[2], V(p, x)->shape.ndim, &axis)) ||
        (flat && !(x = lower_flatten(L, at, sp, x))))
        return 0;
    int64_t reps[NPX_MAX_RANK];
    for (int k = 0; k < V(p, x)->shape.ndim; k++)
        reps[k] = axis >> k & 1 ? r : 1;
    return replicate(L, c, x, reps, true);
}

/* x rolled by shift along axis k: as NumPy, x[-shift % n:] then
 * x[:-shift % n] for a literal length n; for a size symbol, x at positions
 * (arange(n) - shift) % n, the same elements for any n. */
static Ref roll_axis(Lower *L, Span at, Span sp, Ref x, int64_t shift, int k)
{
    Program *p = P(L);
    const Shape *s = &V(p, x)->shape;
    Dim n = s->d[k];
    if (DIM_IS_SYM(n)) {
        Ref i = build_arange(p, sp, NPX_I64, 0, 1, n);
        Ref by = build_literal(p, sp, NPX_I64, shift, (double)shift, true);
        i = build_ufunc(p, at, sp, UF_subtract, (Ref[]){ i, by }, 2, false);
        i = build_ufunc(p, at, sp, UF_remainder, (Ref[]){ i, build_dimval(p, sp, &(Shape){ 1, { n } }) }, 2, false);
        return build_take_within(p, at, sp, x, &i, 1, k);
    }
    int64_t offset = n ? (shift % n + n) % n : 0;
    if (!offset)
        return x;
    AxisIndex tail[NPX_MAX_RANK], head[NPX_MAX_RANK];
    whole(tail, s->ndim);
    whole(head, s->ndim);
    tail[k].start = n - offset;
    head[k].stop = n - offset;
    return build_concat(p, sp, build_index(p, sp, x, tail), build_index(p, sp, x, head), k, s);
}

/* The items of an int or a tuple (list) of them; how many. */
static int items(const Expr *e, const Expr **out)
{
    bool many = e->kind == EXPR_TUPLE || e->kind == EXPR_LIST;
    int n = many ? e->args.n : 1;
    for (int i = 0; i < n && i < NPX_MAX_RANK; i++)
        out[i] = many ? e->args.v[i] : e;
    return n;
}

/* roll(a, shift, axis=None): as NumPy, shift and axis (ints or tuples)
 * broadcast together, the shifts of one axis added up, each axis rolled;
 * axis=None rolls the flattened a, read back in a's shape. */
Ref call_roll(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "shift", "axis", NULL };
    const Expr *a[3], *shifts[NPX_MAX_RANK], *axes[NPX_MAX_RANK];
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    bool flat = !a[2] || a[2]->kind == EXPR_NONE;
    int ns = items(a[1], shifts), na = flat ? 1 : items(a[2], axes), pairs = ns == 1 ? na : ns;
    if (ns > NPX_MAX_RANK || na > NPX_MAX_RANK || (ns != na && ns != 1 && na != 1)) {
        diag_error(p->diag, at, ns > NPX_MAX_RANK || na > NPX_MAX_RANK ? "roll(): more than %d shifts or axes"
                   : "roll(): shift and axis cannot be broadcast to a single shape", NPX_MAX_RANK);
        return 0;
    }
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0]));
    if (!x)
        return 0;
    Shape s = V(p, x)->shape;
    Ref y = flat ? lower_flatten(L, at, sp, x) : x;
    int64_t total[NPX_MAX_RANK] = { 0 };
    for (int i = 0; y && i < pairs; i++) {
        int64_t shift;
        uint32_t axis = 1;
        if (!lower_const_int(L, shifts[ns == 1 ? 0 : i], &shift) ||
            (!flat && !(axis = 0, lower_one_axis(L, axes[na == 1 ? 0 : i], s.ndim, &axis))))
            return 0;
        total[__builtin_ctz(axis)] += shift;
    }
    for (int k = 0; y && k < V(p, y)->shape.ndim; k++)
        if (total[k])
            y = roll_axis(L, at, sp, y, total[k], k);
    return flat && y ? build_reshape(p, sp, y, &s) : y;
}

/* pad_width as NumPy's _as_pairs reads it: n, (n,), (before, after) for
 * every axis, or one (before, after) per axis ((b, a),) for all), each a
 * non-negative integer constant. */
static bool pad_pairs(Lower *L, const Expr *e, int ndim, int64_t (*out)[2])
{
    Program *p = P(L);
    const Expr *rows[NPX_MAX_RANK], *pair[NPX_MAX_RANK];   /* (items fills up to NPX_MAX_RANK) */
    bool nested = (e->kind == EXPR_TUPLE || e->kind == EXPR_LIST) && e->args.n > 0 &&
                  (e->args.v[0]->kind == EXPR_TUPLE || e->args.v[0]->kind == EXPR_LIST);
    int n = nested ? items(e, rows) : 1;
    if (!nested)
        rows[0] = e;
    if (n != 1 && n != ndim) {
        diag_error(p->diag, e->span, "pad(): pad_width has %d pairs for an array of %d dimensions", n, ndim);
        return false;
    }
    for (int k = 0; k < ndim; k++) {
        const Expr *row = rows[n == 1 ? 0 : k];
        int m = items(row, pair);
        if (m != 1 && m != 2) {
            diag_error(p->diag, row->span, "pad(): pad_width takes one number or a (before, after) pair per axis");
            return false;
        }
        for (int side = 0; side < 2; side++) {
            if (!lower_const_int(L, pair[m == 1 ? 0 : side], &out[k][side]))
                return false;
            if (out[k][side] < 0) {
                diag_error(p->diag, pair[m == 1 ? 0 : side]->span, "index can't contain negative values");
                return false;
            }
        }
    }
    return true;
}

/* pad()'s modes: NumPy's, in its order; those after PAD_SYMMETRIC not yet. */
enum { PAD_CONSTANT, PAD_EDGE, PAD_WRAP, PAD_REFLECT, PAD_SYMMETRIC, PAD_MODES };
static const char *const pad_modes[] = { "constant", "edge", "wrap", "reflect", "symmetric", "linear_ramp",
                                         "maximum", "mean", "median", "minimum", "empty", NULL };

/* The block that mode m (not constant) puts before (side 0) or after (1) x
 * along axis k, n elements: copies of the edge element, the axis's other
 * end (wrap), its mirror image without (reflect) or with (symmetric) the
 * edge element. The axis must hold them, checked at run time where only
 * the run knows its length. 0 after an error. */
static Ref pad_block(Lower *L, Span at, Span sp, Ref x, int k, int side, int64_t n, int m)
{
    Program *p = P(L);
    int64_t from[PAD_MODES][2] = { { 0 }, { 0, -1 }, { -n, 0 }, { n, -2 }, { n - 1, -1 } };
    int64_t to[PAD_MODES][2] = { { 0 }, { 1, NPX_NO_BOUND }, { NPX_NO_BOUND, n }, { 0, -n - 2 },
                                 { NPX_NO_BOUND, -n - 1 } };
    AxisIndex sel[NPX_MAX_RANK];
    Shape s = V(p, x)->shape;
    whole(sel, s.ndim);
    sel[k] = (AxisIndex){ false, from[m][side], to[m][side], m >= PAD_REFLECT ? -1 : 1, 0, 0 };
    Ref block = build_index(p, sp, x, sel);
    Dim got = V(p, block)->shape.d[k], want = m == PAD_EDGE ? 1 : n;
    const char *empty = arena_printf(p->arena, "can't extend empty axis %d using modes other than 'constant' or "
                                     "'empty'", k);
    const char *wide = arena_printf(p->arena, "pad(): mode='%s' %lld wide along axis %d, more than the axis "
                                    "holds, is not supported yet", pad_modes[m], (long long)n, k);
    if (!DIM_IS_SYM(got) && got != want) {
        diag_error(p->diag, at, "%s", got == 0 ? empty : wide);
        return 0;
    }
    if (got != want)
        ir_add_check(p, p->nstmts - 1, got, want, at, m == PAD_EDGE ? empty : wide);
    s.d[k] = n;
    return m == PAD_EDGE ? build_broadcast(p, sp, block, &s) : block;
}

/* pad(array, pad_width, mode='constant', constant_values=0): the array with
 * blocks joined before and after it along each axis in turn, as NumPy pads
 * it: of the constant (in the array's dtype, as NumPy's assignment casts
 * it), or taken from the array as padded along the axes before (pad_block). */
Ref call_pad(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "array", "pad_width", "mode", "constant_values", NULL };
    const Expr *a[4];
    Program *p = P(L);
    Span at = c->call->at, sp = c->call->span;
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    int m = a[2] ? lower_choice(a[2], pad_modes) : PAD_CONSTANT;
    if (m >= PAD_MODES) {
        if (a[2]->kind == EXPR_STRING && !pad_modes[m])
            diag_error(p->diag, a[2]->span, "mode '%s' is not supported", a[2]->name);
        else
            diag_error(p->diag, a[2]->span, "pad(): mode=%s is not supported yet (only 'constant', 'edge', "
                       "'wrap', 'reflect' and 'symmetric')", a[2]->kind == EXPR_STRING ?
                       arena_printf(p->arena, "'%s'", a[2]->name) : "...");
        return 0;
    }
    if (a[3] && m != PAD_CONSTANT) {
        diag_error(p->diag, a[3]->span, "unsupported keyword arguments for mode '%s': {'constant_values'}",
                   pad_modes[m]);
        return 0;
    }
    Ref x = lower_asarray(p, sp, lower_expr(L, a[0]));
    Ref fill = a[3] ? lower_expr(L, a[3]) : build_literal(p, sp, NPX_I64, 0, 0, true);
    int64_t pads[NPX_MAX_RANK][2];
    if (!x || !fill || !pad_pairs(L, a[1], V(p, x)->shape.ndim, pads))
        return 0;
    if (V(p, fill)->shape.ndim != 0) {
        diag_error(p->diag, a[3]->span, "pad(): constant_values as an array (one per axis) is not supported yet");
        return 0;
    }
    fill = build_cast(p, sp, fill, V(p, x)->dtype);
    for (int k = 0; x && k < V(p, x)->shape.ndim; k++) {
        Ref block[2] = { 0, 0 };
        for (int side = 0; side < 2; side++) {
            Shape s = V(p, x)->shape;
            s.d[k] = pads[k][side];
            if (pads[k][side])
                block[side] = m == PAD_CONSTANT ? build_broadcast(p, sp, fill, &s)
                                                : pad_block(L, at, sp, x, k, side, pads[k][side], m);
            if (pads[k][side] && !block[side])
                return 0;
        }
        x = block[0] ? lower_join(L, sp, at, block[0], x, k, 1) : x;
        x = x && block[1] ? lower_join(L, sp, at, x, block[1], k, 1) : x;
    }
    return x;
}
