/* lower_index.c: NumPy's basic indexing, x[1:, 0, None, ...], and
 * squeeze: views that pick elements of some axes (ir.h, IR_INDEX). Slices of
 * an axis whose size is a symbol have lengths computed when the program
 * runs (ir_slice_dim); an integer index past such an axis is a run-time
 * error, past a literal size a compile-time one. */
#include <string.h>
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

/* squeeze(a, axis): a without the given size-1 axes, or all of them (axes
 * of literal size 1: a size symbol's axis stays unless named). */
Ref call_squeeze(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "axis", NULL };
    const Expr *a[2];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 1, a))
        return 0;
    Ref x = lower_expr(L, a[0]);
    if (!x)
        return 0;
    const Shape *s = &V(p, x)->shape;
    uint32_t axes = 0;
    if (a[1] && a[1]->kind != EXPR_NONE) {
        if (!lower_axes(L, a[1], s->ndim, &axes))
            return 0;
    } else {
        for (int k = 0; k < s->ndim; k++)
            axes |= (uint32_t)(s->d[k] == 1) << k;
    }
    AxisIndex index[NPX_MAX_RANK];
    Span at = a[1] ? a[1]->span : c->call->at;
    for (int k = 0; k < s->ndim; k++) {
        index[k] = (AxisIndex){ false, NPX_NO_BOUND, NPX_NO_BOUND, 1, 0, 0 };
        if (!(axes >> k & 1))
            continue;
        const char *what = "cannot select an axis to squeeze out which has size not equal to one";
        if (!DIM_IS_SYM(s->d[k]) && s->d[k] != 1) {
            diag_error(p->diag, at, "%s (axis %d has size %lld)", what, k, (long long)s->d[k]);
            return 0;
        }
        if (DIM_IS_SYM(s->d[k]))
            ir_add_check(p, p->nstmts - 1, s->d[k], 1, at, what);
        index[k] = (AxisIndex){ true, 0, NPX_NO_BOUND, 1, 0, 0 };
    }
    return axes ? build_index(p, c->call->span, x, index) : x;
}

static bool is_computed(Lower *L, const Expr *bound)
{
    return bound && bound->kind != EXPR_NONE && !lower_is_const_int(L, bound);
}

/* One slice start:stop:step of axis k of size d; its bounds are integer
 * constants, or computed when the program runs (lower_window.c). */
static bool lower_slice(Lower *L, const Expr *e, Dim d, int k, AxisIndex *out)
{
    const Expr *part[3] = { e->lhs, e->rhs, e->step };
    if (is_computed(L, e->lhs) || is_computed(L, e->rhs)) {
        if (!lower_window(L, e, out))
            return false;
        ir_add_window_check(P(L), P(L)->nstmts - 1, d, out, k, e->span);
        return true;
    }
    int64_t v[3] = { NPX_NO_BOUND, NPX_NO_BOUND, 1 };
    for (int i = 0; i < 3; i++) {
        if (part[i] && part[i]->kind != EXPR_NONE && !lower_const_int(L, part[i], &v[i]))
            return false;
        if (part[i] && part[i]->kind != EXPR_NONE)  /* past any array's size: clipped the same */
            v[i] = v[i] < -NPX_MAX_ELEMENTS ? -NPX_MAX_ELEMENTS : v[i] > NPX_MAX_ELEMENTS ? NPX_MAX_ELEMENTS : v[i];
    }
    if (v[2] == 0) {
        diag_error(P(L)->diag, part[2]->span, "slice step cannot be zero");
        return false;
    }
    *out = (AxisIndex){ false, v[0], v[1], v[2], 0, 0 };
    return true;
}

/* One integer index of an axis of size d: checked now when d is a literal,
 * when the program runs when it is a symbol. */
static bool lower_single(Lower *L, const Expr *e, Dim d, int axis, AxisIndex *out)
{
    Program *p = P(L);
    int64_t i;
    if (!lower_const_int(L, e, &i))
        return false;
    if ((!DIM_IS_SYM(d) && (i < -d || i >= d)) || i < -NPX_MAX_ELEMENTS || i > NPX_MAX_ELEMENTS) {
        diag_error(p->diag, e->span, "index %lld is out of bounds for axis %d with size %s", (long long)i, axis,
                   dim_str(p, d));
        return false;
    }
    if (DIM_IS_SYM(d))
        ir_add_index_check(p, p->nstmts - 1, d, i, axis, e->span);
    *out = (AxisIndex){ true, i, NPX_NO_BOUND, 1, 0, 0 };
    return true;
}

/* The index arrays of x[..., i, j, ...] (two at most, next to each other
 * once the integers are applied): where their axes go in the result of the
 * rest of the index, and the item of the first (-1: none). Or one boolean
 * mask, which stands for as many axes as it has (x[mask, 1:3], x[:, mask]). */
typedef struct {
    Ref positions[2];
    int n, item, axis;
    int mask_axis;                                /* the first axis of x the mask covers; -1: no mask */
} ArrayIndex;

static bool is_integer_item(const Expr *it)
{
    return it->kind != EXPR_SLICE && it->kind != EXPR_NONE && it->kind != EXPR_ELLIPSIS;
}

static bool is_mask(const Value *v)
{
    return v->dtype == NPX_BOOL && !v->weak && v->shape.ndim > 0;
}

/* Are the integers and index arrays of the index next to each other? Then
 * NumPy puts the arrays' axes where they stand (x[0, idx], x[:, i, j, 0]),
 * else first (x[0, :, idx]). */
static bool advanced_together(const ExprList *items)
{
    int first = -1, last = -1, count = 0;
    for (int i = 0; i < items->n; i++)
        if (is_integer_item(items->v[i])) {
            first = first < 0 ? i : first;
            last = i;
            count++;
        }
    return last - first + 1 == count;
}

/* npx takes the integers first, then the arrays (x[0][idx]): the same as
 * NumPy unless they are apart and the arrays' axes would not come first. */
static bool arrays_place_agrees(Lower *L, const ExprList *items, const ArrayIndex *ai)
{
    if (advanced_together(items) || ai->axis == 0)
        return true;
    diag_error(P(L)->diag, items->v[ai->item]->span, "index arrays apart from the integers indexing with them "
                                                     "are not supported yet");
    return false;
}

/* view[..., mask, ...] where the mask covers the view's axes from
 * ai->axis on: they become one, where the mask stands, which NumPy moves
 * first when integers of the index stand apart from it. */
static Ref masked(Lower *L, const ExprList *items, const ArrayIndex *ai, Span span, Ref view)
{
    Program *p = P(L);
    Ref r = build_compress(p, items->v[ai->item]->span, span, view, ai->positions[0], ai->axis, ai->mask_axis);
    int at = ai->axis, n = r ? V(p, r)->shape.ndim : 0, perm[NPX_MAX_RANK];
    if (!r || at == 0 || advanced_together(items))
        return r;
    for (int k = 0; k < n; k++)                   /* the selected axis first */
        perm[k] = k == 0 ? at : k <= at ? k - 1 : k;
    return build_transpose(p, span, r, perm);
}

/* The index arrays of an index, lowered before the rest (a mask stands for
 * as many axes as it has, which '...' must know), and how many axes of x
 * the whole index uses; past x's ndim, *over is the mask that went past. */
static bool lower_index_arrays(Lower *L, const ExprList *items, int ndim, Ref *arrays, int *used, Span *over)
{
    *used = 0;
    for (int i = 0; i < items->n; i++) {
        const Expr *it = items->v[i];
        arrays[i] = 0;
        if (it->kind == EXPR_ELLIPSIS || it->kind == EXPR_NONE)
            continue;
        if (it->kind == EXPR_SLICE || lower_is_const_int(L, it)) {
            ++*used;
            continue;
        }
        if (!(arrays[i] = lower_expr(L, it)))
            return false;
        const Value *v = V(P(L), arrays[i]);
        *used += is_mask(v) ? v->shape.ndim : 1;
        if (is_mask(v) && *used > ndim && *used - v->shape.ndim <= ndim)
            *over = it->span;
    }
    return true;
}

/* The index array at item i, next in ai: a mask (alone), or one of two
 * integer arrays next to each other. */
static bool add_index_array(Lower *L, ArrayIndex *ai, const Expr *it, Ref a, int i, int out, int k)
{
    bool mask = is_mask(V(P(L), a));
    const char *no = ai->mask_axis >= 0 || (ai->n && mask) ? "a boolean mask beside an index array is not supported yet"
                     : ai->n == 2 ? "indexing with more than two arrays is not supported yet"
                     : ai->n == 1 && ai->axis + 1 != out ? "index arrays apart from each other are not supported yet"
                                                         : NULL;
    if (no) {
        diag_error(P(L)->diag, it->span, "%s", no);
        return false;
    }
    if (!ai->n) {
        ai->item = i;
        ai->axis = out;
    }
    ai->positions[ai->n++] = a;
    ai->mask_axis = mask ? k : -1;
    return true;
}

/* x[...]: NumPy's indexing. Integers and slices (constant bounds) go
 * through the axes in order, '...' stands for as many whole axes as are left
 * over, None makes a new axis of size 1 in the result. Integer arrays
 * (x[idx], x[:, idx], x[np.arange(B), labels]) pick elements of their axes
 * by position (IR_TAKE); a boolean mask picks the elements where it is
 * true (IR_COMPRESS). */
Ref lower_subscript(Lower *L, const Expr *e)
{
    Program *p = P(L);
    Ref x = lower_expr(L, e->obj);
    if (!x)
        return 0;
    const Shape shape = V(p, x)->shape, *s = &shape;   /* a copy: lowering the items may move p->vals */
    const ExprList *items = &e->args;
    int used = 0, ellipses = 0;
    Ref *arrays = arena_alloc(p->arena, sizeof(Ref) * (size_t)(items->n + 1));
    Span over = e->span;
    if (!lower_index_arrays(L, items, s->ndim, arrays, &used, &over))
        return 0;
    for (int i = 0; i < items->n; i++)
        ellipses += items->v[i]->kind == EXPR_ELLIPSIS;
    if (ellipses > 1) {
        diag_error(p->diag, e->span, "an index can only have a single ellipsis ('...')");
        return 0;
    }
    if (used > s->ndim) {
        diag_error(p->diag, over, "too many indices for array: array is %d-dimensional, but %d were indexed",
                   s->ndim, used);
        return 0;
    }
    if (items->n == 1 && arrays[0] && is_mask(V(p, arrays[0])))     /* x[mask] */
        return build_compress(p, items->v[0]->span, e->span, x, arrays[0], 0, 0);
    AxisIndex index[NPX_MAX_RANK];
    const AxisIndex whole = { false, NPX_NO_BOUND, NPX_NO_BOUND, 1, 0, 0 };
    uint32_t new_axes = 0;
    int k = 0, out = 0;                          /* the next axis of x, of the result */
    ArrayIndex ai = { { 0, 0 }, 0, -1, 0, -1 };
    bool changed = false;
    for (int i = 0; i < items->n; i++) {
        const Expr *it = items->v[i];
        if (it->kind == EXPR_ELLIPSIS) {
            for (int j = 0; j < s->ndim - used; j++, out++)
                index[k++] = whole;
            continue;
        }
        if (out >= NPX_MAX_RANK) {
            diag_error(p->diag, it->span, "the result would have more than %d dimensions", NPX_MAX_RANK);
            return 0;
        }
        if (it->kind == EXPR_NONE) {
            new_axes |= 1u << out++;
            continue;
        }
        if (arrays[i]) {
            if (!add_index_array(L, &ai, it, arrays[i], i, out, k))
                return 0;
            for (int j = is_mask(V(p, arrays[i])) ? V(p, arrays[i])->shape.ndim : 1; j > 0; j--, out++)
                index[k++] = whole;
            continue;
        }
        bool ok = it->kind == EXPR_SLICE ? lower_slice(L, it, s->d[k], k, &index[k])
                                         : lower_single(L, it, s->d[k], k, &index[k]);
        if (!ok)
            return 0;
        out += !index[k].single;
        changed |= index[k].single || index[k].from || index[k].start != NPX_NO_BOUND || index[k].stop != NPX_NO_BOUND ||
                   index[k].step != 1;
        k++;
    }
    while (k < s->ndim)
        index[k++] = whole, out++;
    if (out > NPX_MAX_RANK) {
        diag_error(p->diag, e->span, "the result would have more than %d dimensions", NPX_MAX_RANK);
        return 0;
    }
    Ref view = changed ? build_index(p, e->span, x, index) : x;
    view = new_axes ? build_expand(p, e->span, view, new_axes, out) : view;
    if (ai.item < 0)
        return view;
    if (ai.mask_axis >= 0)
        return masked(L, items, &ai, e->span, view);
    if (!arrays_place_agrees(L, items, &ai))
        return 0;
    return build_take(p, items->v[ai.item]->span, e->span, view, ai.positions, ai.n, ai.axis);
}

/* take(a, indices, axis=None, mode='raise'): a (flattened when axis is None)
 * at the positions along the axis; mode='wrap' takes them modulo the axis's
 * length, 'clip' clips them into it, as NumPy does. */
Ref call_take(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "a", "indices", "axis", "out", "mode", NULL };
    static const char *const modes[] = { "raise", "wrap", "clip", NULL };
    const Expr *a[5];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    int mode = a[4] ? lower_choice(a[4], modes) : 0;
    if (a[3] || !modes[mode]) {
        if (a[3] || a[4]->kind != EXPR_STRING)   /* (NumPy also takes a mode's number) */
            diag_error(p->diag, a[3] ? a[3]->span : a[4]->span, "take(): '%s=' %sis not supported yet",
                       a[3] ? "out" : "mode", a[3] ? "" : "other than a string ");
        else
            diag_error(p->diag, a[4]->span, "clipmode must be one of 'clip', 'raise', or 'wrap' (got '%s')",
                       a[4]->name);
        return 0;
    }
    Ref x = lower_expr(L, a[0]), positions = lower_expr(L, a[1]);
    if (!x || !positions)
        return 0;
    const Shape *s = &V(p, x)->shape;
    uint32_t axis = 0;
    if (!a[2] || a[2]->kind == EXPR_NONE)
        x = lower_flatten(L, c->call->at, c->call->span, x);
    else if (!lower_one_axis(L, a[2], s->ndim, &axis))
        return 0;
    int k = axis ? __builtin_ctz(axis) : 0;
    Span at = a[1]->span;
    if (x && mode > 0 && dtype_is_int(V(p, positions)->dtype)) {
        Ref n = build_dimval(p, at, &(Shape){ 1, { V(p, x)->shape.d[k] } });
        if (mode == 1)
            positions = build_ufunc(p, at, at, UF_remainder, (Ref[]){ positions, n }, 2, false);
        else {
            Ref zero = build_literal(p, at, NPX_I64, 0, 0, true), one = build_literal(p, at, NPX_I64, 1, 1, true);
            Ref last = build_ufunc(p, at, at, UF_subtract, (Ref[]){ n, one }, 2, false);
            Ref low = build_ufunc(p, at, at, UF_maximum, (Ref[]){ positions, zero }, 2, false);
            positions = build_ufunc(p, at, at, UF_minimum, (Ref[]){ low, last }, 2, false);
        }
    }
    return x ? build_np_take(p, at, c->call->span, x, positions, k) : 0;
}

/* take_along_axis(arr, indices, axis=-1): each position read beside its own
 * place, out[i, j] = arr[i, indices[i, j]] along axis 1 of a matrix: the
 * gather arr[arange(R)[:, None], indices], as NumPy builds it (indices
 * broadcast against the other axis); arr[indices, arange(C)] along axis 0;
 * arr[indices] of a vector, or of arr flattened (axis=None). More axes are
 * not supported yet. */
Ref call_take_along_axis(Lower *L, Call *c, int unused)
{
    (void)unused;
    static const char *const params[] = { "arr", "indices", "axis", NULL };
    const Expr *a[3];
    Program *p = P(L);
    if (!lower_bind_args(L, c, params, 2, a))
        return 0;
    Ref x = lower_expr(L, a[0]), positions = lower_expr(L, a[1]);
    bool flat = a[2] && a[2]->kind == EXPR_NONE;
    if (x && flat)
        x = lower_flatten(L, c->call->at, c->call->span, x);
    if (!x || !positions)
        return 0;
    Span at = a[1]->span;
    int ndim = V(p, x)->shape.ndim;
    uint32_t axis = 0;
    if (!flat && a[2] && !lower_one_axis(L, a[2], ndim, &axis))
        return 0;
    if ((flat || !a[2]) && ndim)
        axis = 1u << (ndim - 1);                  /* -1 */
    if (!axis) {
        diag_error(p->diag, c->call->at, "axis -1 is out of bounds for array of dimension 0");
        return 0;
    }
    if (!dtype_is_int(V(p, positions)->dtype)) {
        diag_error(p->diag, at, "`indices` must be an integer array");
        return 0;
    }
    if (V(p, positions)->shape.ndim != ndim) {
        diag_error(p->diag, at, flat ? "when axis=None, `indices` must have a single dimension."
                                     : "`indices` and `arr` must have the same number of dimensions");
        return 0;
    }
    if (ndim > 2) {
        diag_error(p->diag, c->call->at, "take_along_axis of an array of more than two axes is not supported yet");
        return 0;
    }
    if (ndim == 1)
        return build_take(p, at, c->call->span, x, &positions, 1, 0);
    int k = __builtin_ctz(axis), other = 1 - k;
    Ref beside = build_arange(p, at, NPX_I64, 0, 1, V(p, x)->shape.d[other]);
    Ref both[2];
    both[k] = positions;
    both[other] = build_expand(p, at, beside, 1u << k, 2);
    return build_take(p, at, c->call->span, x, both, 2, 0);
}
