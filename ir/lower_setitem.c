/* lower_setitem.c: x[index] = v and x[index] op= v, NumPy's assignment to
 * the elements of x that the index selects; the statement binds x to the
 * new value. Integers (constants, sizes, loops' counters), slices (constant
 * bounds, or a loop's window) and '...', or rows and their labels,
 * x[np.arange(B), labels], or integer arrays of positions, x[p] or x[i, j],
 * select a box: an update (ir.h, IR_UPDATE) computes only its new
 * elements, in x's own buffer when nothing reads the old x after
 * (schedule.c), and the value broadcasts to the box as in NumPy. Where
 * positions repeat, the last value stays, as in NumPy (the loop writes them
 * in order), and np.add.at(x, p, v) adds again. A boolean mask over x's
 * first axes selects scattered elements: x becomes where(m, v, x), one
 * fused loop over x (x[m] = 0 is x = where(m, 0, x)), and the value varies
 * only along the axes the mask leaves whole, or is made elementwise from
 * arrays the same mask selects (x[m] = 2 * y[m] is where(m, 2 * y, x)). An array that another name
 * shares (y = x, a view y = x[1:] or x.T) cannot change so: NumPy would
 * change both. */
#include <string.h>
#include "lower.h"

static Program *P(Lower *L) { return L->p; }

/* ---- which names are one array ------------------------------------------ */

static const Binding *holder(Lower *L, Ref r)
{
    for (int i = 0; i < L->nbind; i++)
        if (L->bind[i].kind == BIND_VALUE && L->bind[i].value == r)
            return &L->bind[i];
    return NULL;
}

/* Is v a view of its first argument in NumPy? Basic indexing is, also by
 * integers npxc takes as positions (x[None, i % n]: a 0-d position is an
 * integer index to NumPy); index arrays copy. */
static bool is_view(const Program *p, const Value *v)
{
    bool scalar_positions = v->kind == IR_TAKE;
    for (int i = 1; scalar_positions && i < v->nargs; i++)
        scalar_positions = p->vals[v->args[i]].shape.ndim == 0;
    return v->kind == IR_INDEX || v->kind == IR_TRANSPOSE || v->kind == IR_EXPAND || v->kind == IR_RESHAPE ||
           v->kind == IR_BROADCAST || scalar_positions;
}

Ref lower_data(Lower *L, Ref r)
{
    if (V(P(L), r)->shape.ndim == 0)             /* x[0, 0] is a scalar of its own */
        return r;
    for (;;) {
        const Binding *b = holder(L, r);
        if (b)
            return b->data ? b->data : r;
        if (!is_view(P(L), V(P(L), r)))
            return r;
        r = V(P(L), r)->args[0];
    }
}

/* Does an index item select by position (an array, a mask: NumPy copies)?
 * Names may be integers: a view, to be safe. */
static bool advanced_item(const Expr *it)
{
    switch (it->kind) {
    case EXPR_LIST:
    case EXPR_CALL:
    case EXPR_INDEX: return true;
    case EXPR_BINARY: return it->op >= AST_BITAND && it->op <= AST_NE;   /* & | ^ and comparisons */
    case EXPR_UNARY: return it->op == AST_INVERT;
    default: return false;
    }
}

/* The name a NumPy expression may be a view of (or is): x, x.T, x[1:],
 * x.reshape(...); NULL when it makes a new array. */
static const char *view_root(const Expr *e)
{
    static const char *const views[] = { "reshape", "ravel", "transpose", "swapaxes", "squeeze", "expand_dims",
                                          "broadcast_to", "moveaxis", "diagonal", "flip", "flipud", "fliplr",
                                          "asarray", "atleast_1d", "atleast_2d", "atleast_3d", NULL };
    for (;;) {
        if (e->kind == EXPR_NAME)
            return e->np_prefix ? NULL : e->name;
        bool copies = false;
        for (int i = 0; e->kind == EXPR_INDEX && i < e->args.n; i++)
            copies |= advanced_item(e->args.v[i]);
        if (copies)
            return NULL;
        if (e->kind == EXPR_INDEX || (e->kind == EXPR_ATTR && strcmp(e->name, "T") == 0)) {
            e = e->obj;
            continue;
        }
        if (e->kind != EXPR_CALL)
            return NULL;
        const Expr *f = e->obj;
        const char *name = f->name;
        int known = 0;
        for (int i = 0; views[i]; i++)
            known |= strcmp(views[i], name) == 0;
        if (!known)
            return NULL;
        if (f->kind == EXPR_ATTR)
            e = f->obj;
        else if (e->args.n > 0)
            e = e->args.v[0];
        else
            return NULL;
    }
}

/* In a loop, a later statement may make a view that the next iteration
 * changes: any name = view of another in the outermost loop's body, with
 * `name` on either side. */
static const Stmt *loop_view(const AstProgram *body, const char *name)
{
    for (int i = 0; i < body->n; i++) {
        const Stmt *s = body->v[i];
        if (s->kind == STMT_FOR) {
            const Stmt *in = loop_view(&s->body, name);
            if (in)
                return in;
        }
        if (s->kind != STMT_ASSIGN || s->target || s->op != AST_NOP)
            continue;
        const char *root = view_root(s->value);  /* (a, b = x: rows of x) */
        for (int j = 0; root && j < s->nnames; j++)
            if (root != s->names[j] && (root == name || s->names[j] == name))
                return s;
    }
    return NULL;
}

/* May b's array change in place: does no other name share it? */
static bool unshared(Lower *L, const Binding *b, Span at)
{
    Program *p = P(L);
    if (!b->value || V(p, b->value)->shape.ndim == 0)
        return true;
    const char *other = NULL;
    Ref data = binding_data(b);
    for (int i = 0; i < L->nbind && !other; i++) {   /* (a name bound only in a loop: as at its end) */
        const Binding *o = &L->bind[i];
        if (o != b && (o->kind == BIND_VALUE || o->kind == BIND_LATE) && o->value &&
            binding_data(o) == data)
            other = o->name;
    }
    const Stmt *s = L->loops && !other ? loop_view(&L->outer_loop->body, b->name) : NULL;
    if (s)
        other = s->name == b->name ? view_root(s->value) : s->name;
    if (!other)
        return true;
    diag_error(p->diag, at, "in NumPy '%s' and '%s' are one array here (one is the other or a view of it: y = x, "
               "x[1:], x.T), and this would change both; changing a shared array is not supported yet: make one "
               "a copy of the other (y = x.copy())", b->name, other);
    return false;
}

/* ---- what the index selects --------------------------------------------- */

/* x[...] picks, along axis k: all of it, one position, a slice, or the
 * positions an integer array holds */
typedef enum { PICK_WHOLE, PICK_ONE, PICK_SLICE, PICK_POSITIONS } PickKind;
typedef struct {
    PickKind kind;
    Ref at;                      /* PICK_ONE: the position, an int the host knows;
                                    PICK_POSITIONS: the array of positions */
    int64_t start, stop, step;   /* PICK_SLICE: constant bounds (NPX_NO_BOUND when left out) */
    Ref from, to;                /* PICK_SLICE: bounds the host computes (x[b*BS:(b+1)*BS], inside
                                    the axis: lower_window checks it), else 0 */
} Pick;

static bool not_yet(Lower *L, Span at, const char *what, const char *instead)
{
    diag_error(P(L)->diag, at, "%s is not supported yet%s", what, instead);
    return false;
}

static Ref i64(Lower *L, Span at, int64_t v) { return build_literal(P(L), at, NPX_I64, v, (double)v, false); }

static bool lower_picks(Lower *L, const Expr *target, int ndim, const Ref *taken, Pick *pick)
{
    const Pick all = { PICK_WHOLE, 0, NPX_NO_BOUND, NPX_NO_BOUND, 1, 0, 0 };
    const ExprList *items = &target->args;
    int k = 0, used = 0, arrays = 0;
    for (int i = 0; i < items->n; i++)
        used += items->v[i]->kind != EXPR_ELLIPSIS;
    for (int i = 0; i < items->n; i++) {
        const Expr *it = items->v[i];
        if (it->kind == EXPR_ELLIPSIS) {
            for (int j = 0; j < ndim - used; j++)
                pick[k++] = all;
            continue;
        }
        if (it->kind == EXPR_NONE)
            return not_yet(L, it->span, "assigning through an index with None", "");
        if (it->kind == EXPR_SLICE) {
            const Expr *part[3] = { it->lhs, it->rhs, it->step };
            int64_t v[3] = { NPX_NO_BOUND, NPX_NO_BOUND, 1 };
            Ref bound[2] = { 0, 0 };
            for (int j = 0; j < 3; j++) {
                if (!part[j] || part[j]->kind == EXPR_NONE)
                    continue;
                if (lower_is_const_int(L, part[j]) ? !lower_const_int(L, part[j], &v[j])
                                                   : j == 2 || !(bound[j] = lower_expr(L, part[j])))
                    return false;                 /* (lower_subscript accepted it: a window's bounds) */
            }
            bool whole = v[0] == NPX_NO_BOUND && v[1] == NPX_NO_BOUND && v[2] == 1 && !bound[0] && !bound[1];
            pick[k++] = whole ? all : (Pick){ PICK_SLICE, 0, v[0], v[1], v[2], bound[0], bound[1] };
            continue;
        }
        Ref at = lower_expr(L, it);
        if (!at)
            return false;
        if (V(P(L), at)->shape.ndim > 0 && V(P(L), at)->dtype == NPX_BOOL)
            return not_yet(L, it->span, "assigning through a mask beside other indices", "; write x = np.where(...)");
        if (V(P(L), at)->shape.ndim > 0) {       /* the gather's own, when it has them (checked there) */
            Ref own = arrays < 3 ? taken[arrays] : 0;
            arrays++;
            pick[k++] = (Pick){ PICK_POSITIONS, own && shape_equal(&V(P(L), own)->shape, &V(P(L), at)->shape) ? own : at,
                                0, 0, 1, 0, 0 };
            continue;
        }
        if (!ir_host_int(P(L), at))
            return not_yet(L, it->span, "assigning at a position the data compute (an integer from an array)", "");
        pick[k++] = (Pick){ PICK_ONE, at, 0, 0, 1, 0, 0 };
    }
    while (k < ndim)
        pick[k++] = all;
    return true;
}

/* Is host integer r never negative: a number, a size, the counter of a
 * loop that counts up from a number? */
static bool never_negative(const Program *p, Ref r)
{
    const Value *v = &p->vals[r];
    if (v->kind == IR_LITERAL)
        return v->ival >= 0;
    for (int k = 0; v->kind == IR_DIMVAL && k < v->dims.ndim; k++) {
        Dim d = v->dims.d[k];
        for (int i = 0; DIM_IS_SYM(d) && i < p->nloops; i++) {
            const Loop *lp = &p->loops[i];
            if (lp->counter == DIM_SYMNO(d) && !(lp->step > 0 && never_negative(p, lp->start)))
                return false;
        }
    }
    return v->kind == IR_DIMVAL;
}

/* The picks as an update's selection (ir.h, IR_UPDATE): a position the host
 * computes is wrapped into its axis (lower_subscript has checked that it
 * lies in it); a slice with a computed bound is a window, as long as the
 * selection's axis; an array of positions takes as many of the selection's
 * axes as it has (NumPy puts them where the array is when it is the only
 * one). False when every axis is whole (x[:] = v). */
static bool selection(Lower *L, Span at, const Shape *xs, const Pick *pick, const Shape *ss, AxisIndex *sel)
{
    bool picks = false, arrays = false;
    int nb = 0;                                  /* the arrays' broadcast rank */
    for (int k = 0; k < xs->ndim; k++)
        if (pick[k].kind == PICK_POSITIONS && V(P(L), pick[k].at)->shape.ndim > nb)
            nb = V(P(L), pick[k].at)->shape.ndim;
    for (int k = 0, j = 0; k < xs->ndim; k++) {
        const Pick *pk = &pick[k];
        const Value *pv = pk->at ? V(P(L), pk->at) : NULL;
        picks |= pk->kind != PICK_WHOLE;
        if (pk->kind == PICK_POSITIONS) {        /* the arrays' axes where the first one is */
            sel[k] = (AxisIndex){ false, NPX_NO_BOUND, NPX_NO_BOUND, 1, pk->at, 0 };
            j += arrays ? 0 : nb;
            arrays = true;
        } else if (pk->kind == PICK_ONE && pv->kind == IR_LITERAL)
            sel[k] = (AxisIndex){ true, pv->ival, NPX_NO_BOUND, 1, 0, 0 };
        else if (pk->kind == PICK_ONE && never_negative(P(L), pk->at))
            sel[k] = (AxisIndex){ true, 0, NPX_NO_BOUND, 1, pk->at, 0 };
        else if (pk->kind == PICK_ONE) {
            Ref n = build_dimval(P(L), at, &(Shape){ 1, { xs->d[k] } });
            Ref neg = lower_operator(L, AST_LT, at, at, pk->at, i64(L, at, 0));
            Ref wrapped = lower_operator(L, AST_ADD, at, at, pk->at, n);
            Ref pos = build_ufunc(P(L), at, at, UF_where, (Ref[]){ neg, wrapped, pk->at }, 3, false);
            sel[k] = (AxisIndex){ true, 0, NPX_NO_BOUND, 1, pos, 0 };
        } else if (pk->from || pk->to)
            sel[k] = (AxisIndex){ false, NPX_NO_BOUND, NPX_NO_BOUND, 1, pk->from ? pk->from : i64(L, at, pk->start),
                                  ss->d[j++] };
        else {
            sel[k] = (AxisIndex){ false, pk->start, pk->stop, pk->step, 0, 0 };
            j++;
        }
    }
    return picks;
}

/* x[np.arange(B), labels]: one element of each row, at the column its
 * label gives: the labels; 0 when the index is not of this form. */
static Ref row_labels(Lower *L, const Expr *target, Ref sel, const Shape *xs)
{
    Program *p = P(L);
    const Value *t = V(p, sel);
    if (target->args.n != 2 || t->kind != IR_TAKE || t->nargs != 3 || t->ival != 0)
        return 0;
    const Value *r = V(p, t->args[1]), *c = V(p, t->args[2]);
    bool rows = r->kind == IR_ARANGE && r->fval == 0 && r->step == 1 && dtype_is_int(r->dtype) &&
                r->shape.d[0] == xs->d[0];
    return rows && c->shape.ndim == 1 && dtype_is_int(c->dtype) ? t->args[2] : 0;
}

/* Where the index puts the box of new elements (IR_UPDATE's sel): each row
 * at its label (checked and wrapped as NumPy's indexing does, as the loop
 * reads it), or integers and slices. 0 when it selects everything
 * (x[:] = v), -1 after an error. */
static int box(Lower *L, const Stmt *s, const Shape *xs, Ref sel, AxisIndex *at)
{
    const AxisIndex whole = { false, NPX_NO_BOUND, NPX_NO_BOUND, 1, 0, 0 };
    Ref labels = row_labels(L, s->target, sel, xs);
    const Shape ss = V(P(L), sel)->shape;        /* a copy: lowering the picks may move the values */
    Pick pick[NPX_MAX_RANK];
    const Value *gather = V(P(L), sel);          /* x[p] and x[i, j] read through their arrays */
    Ref taken[3] = { 0, 0, 0 };
    for (int i = 1, n = 0; gather->kind == IR_TAKE && i < gather->nargs; i++)
        if (V(P(L), gather->args[i])->shape.ndim > 0)
            taken[n++] = gather->args[i];
    if (!labels)
        return lower_picks(L, s->target, xs->ndim, taken, pick) ? selection(L, s->value->span, xs, pick, &ss, at)
                                                                : -1;
    for (int k = 0; k < xs->ndim; k++)
        at[k] = k == 1 ? (AxisIndex){ true, 0, NPX_NO_BOUND, 1, labels, 0 } : whole;
    return 1;
}

/* ---- the value, placed on x's axes --------------------------------------- */

static const char *tuple_str(Program *p, const Shape *s)
{
    char buf[256];
    int n = snprintf(buf, sizeof buf, "(");
    for (int k = 0; k < s->ndim && n < (int)sizeof buf; k++)
        n += snprintf(buf + n, sizeof buf - n, "%s%s", k ? ", " : "", dim_str(p, s->d[k]));
    if (n < (int)sizeof buf)
        snprintf(buf + n, sizeof buf - n, "%s)", s->ndim == 1 ? "," : "");
    return arena_strdup(p->arena, buf);
}

/* How NumPy words a value that does not fit: for basic indexing, for
 * positions from arrays, for np.add.at (each "value shape, selection shape") */
typedef enum { FIT_BASIC, FIT_POSITIONS, FIT_UFUNC_AT } FitWords;
static const char *const fit_words[] = {
    [FIT_BASIC] = "could not broadcast input array from shape %s into shape %s",
    [FIT_POSITIONS] = "shape mismatch: value array of shape %s could not be broadcast to indexing result of shape %s",
    [FIT_UFUNC_AT] = "array is not broadcastable to correct shape: values of shape %s, selection of shape %s",
};

/* Does a value of shape r broadcast into the selection's, sel, as NumPy
 * assigns? Sizes known only when the program runs are checked then. */
static bool fits_shape(Lower *L, Span at, Shape r, const Shape *sel, FitWords words)
{
    Program *p = P(L);
    int off = sel->ndim - r.ndim;
    bool ok = off >= 0;
    for (int j = 0; ok && j < r.ndim; j++)
        ok = r.d[j] == 1 || !dims_differ(p, r.d[j], sel->d[j + off]);
    if (!ok) {
        diag_error(p->diag, at, fit_words[words], tuple_str(p, &r), tuple_str(p, sel));
        return false;
    }
    for (int j = 0; j < r.ndim; j++)
        if (r.d[j] != 1 && r.d[j] != sel->d[j + off])
            ir_add_check(p, p->nstmts - 1, sel->d[j + off], r.d[j], at,
                         "could not broadcast input array into the selection");
    return true;
}

static bool fits(Lower *L, Span at, Ref v, const Shape *sel, FitWords words)
{
    return fits_shape(L, at, V(P(L), v)->shape, sel, words);
}

static bool varies_along_mask(Lower *L, Span at)
{
    return not_yet(L, at, "assigning a value that varies along the elements a mask selects (x[m] = values)",
                   "; make it elementwise from arrays the same mask selects (x[m] = 2 * y[m]), or write "
                   "x = np.where(m, y, x)");
}

/* v, which fits the selection's shape (sel), viewed on x's axes: on axis k
 * of x, the selection's axis keep[k] (-1: none, size 1 then); v may vary
 * along x's axis k only where whole[k]. */
static Ref place(Lower *L, Span at, Ref v, const Shape *sel, const int *keep, const bool *whole, int ndim)
{
    Program *p = P(L);
    const Shape r = V(p, v)->shape;
    if (r.ndim == 0)                              /* a Python number stays weak */
        return v;
    if (!fits(L, at, v, sel, FIT_BASIC))
        return 0;
    int off = sel->ndim - r.ndim;
    AxisIndex drop[NPX_MAX_RANK];
    bool dropping = false;
    uint32_t filled = 0;
    for (int j = 0; j < r.ndim; j++) {
        int k = 0;
        while (k < ndim && keep[k] != j + off)
            k++;
        drop[j] = (AxisIndex){ false, NPX_NO_BOUND, NPX_NO_BOUND, 1, 0, 0 };
        if (r.d[j] == 1 && (k == ndim || !whole[k])) {     /* broadcast along a picked axis */
            drop[j] = (AxisIndex){ true, 0, NPX_NO_BOUND, 1, 0, 0 };
            dropping = true;
            continue;
        }
        if (k == ndim || !whole[k]) {
            varies_along_mask(L, at);
            return 0;
        }
        filled |= 1u << k;
    }
    Ref x = dropping ? build_index(p, at, v, drop) : v;
    uint32_t fresh = ((1u << ndim) - 1) & ~filled;
    return fresh ? build_expand(p, at, x, fresh, ndim) : x;
}

/* Are a and b the same expression, token for token? (x[m] = y[m]) */
static bool same_expr(const Expr *a, const Expr *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind || a->name != b->name || a->np_prefix != b->np_prefix || a->ival != b->ival ||
        memcmp(&a->fval, &b->fval, sizeof a->fval) != 0 || a->op != b->op || a->args.n != b->args.n ||
        a->kwargs.n != b->kwargs.n || !same_expr(a->obj, b->obj) || !same_expr(a->lhs, b->lhs) ||
        !same_expr(a->rhs, b->rhs) || !same_expr(a->step, b->step))
        return false;
    for (int i = 0; i < a->args.n; i++)
        if (!same_expr(a->args.v[i], b->args.v[i]))
            return false;
    for (int i = 0; i < a->kwargs.n; i++)
        if (a->kwargs.v[i].name != b->kwargs.v[i].name || !same_expr(a->kwargs.v[i].value, b->kwargs.v[i].value))
            return false;
    return true;
}

/* ---- x[m] = f(y[m], z[m]): f(y, z)[m] --------------------------------------- */

/* Is e y[...] with the target's own index (y[m] for x[m], y[m, ...])? */
static bool own_index(const Expr *e, const Expr *target)
{
    if (e->kind != EXPR_INDEX || e->args.n != target->args.n)
        return false;
    for (int i = 0; i < e->args.n; i++)
        if (!same_expr(e->args.v[i], target->args.v[i]))
            return false;
    return true;
}

/* Does e read some y[m] with the target's own index? */
static bool reads_selection(const Expr *e, const Expr *target)
{
    if (!e)
        return false;
    if (own_index(e, target) || reads_selection(e->obj, target) || reads_selection(e->lhs, target) ||
        reads_selection(e->rhs, target) || reads_selection(e->step, target))
        return true;
    for (int i = 0; i < e->args.n; i++)
        if (reads_selection(e->args.v[i], target))
            return true;
    for (int i = 0; i < e->kwargs.n; i++)
        if (reads_selection(e->kwargs.v[i].value, target))
            return true;
    return false;
}

/* Is e made of elementwise steps (operators but @, NumPy's ufuncs, with or
 * without np.) over the y[m] it reads and over parts that read none? Then e
 * is f(y, ...)[m]. */
static bool elementwise_over(Lower *L, const Expr *e, const Expr *target)
{
    if (!e || !reads_selection(e, target))
        return true;
    if (own_index(e, target))
        return !reads_selection(e->obj, target);
    bool ufunc = e->kind == EXPR_CALL && lower_names_ufunc(L, e->obj);
    if (!ufunc && e->kind != EXPR_UNARY && (e->kind != EXPR_BINARY || e->op == AST_MATMUL))
        return false;
    if (!elementwise_over(L, e->lhs, target) || !elementwise_over(L, e->rhs, target))
        return false;
    for (int i = 0; ufunc && i < e->args.n; i++)
        if (!elementwise_over(L, e->args.v[i], target))
            return false;
    for (int i = 0; ufunc && i < e->kwargs.n; i++)
        if (!elementwise_over(L, e->kwargs.v[i].value, target))
            return false;
    return true;
}

/* An operand of x[m] = f(y[m], ...)'s value: y itself for y[m], whose axes
 * the mask covers as x's and which has x's axes (a count of elements
 * meeting a whole axis is data's business), or a part that reads no y[m]
 * and so varies along the whole axes at most. */
bool lower_unmasked_operand(Lower *L, const Expr *e, Ref *r)
{
    const Unmasking *u = L->unmasking;
    bool own = own_index(e, u->target);
    if (!own && reads_selection(e, u->target))
        return false;                             /* a step of f */
    L->unmasking = NULL;
    *r = lower_expr(L, own ? e->obj : e);
    L->unmasking = u;
    Program *p = P(L);
    if (!*r)
        return true;
    int ndim = V(p, *r)->shape.ndim;
    bool fits = own ? ndim >= u->ndim : ndim <= u->whole;
    if (!fits)
        varies_along_mask(L, e->span);
    if (!fits || (own && !mask_fits(p, e->args.v[0]->span, *r, u->mask, 0, 0)))
        *r = 0;
    return true;
}

/* x[m] = f(y[m], ...) with f elementwise: f(y, ...), computed at every
 * element and kept where m is (f(y)[m] is f(y[m])); 0 when the value is not
 * of that form (*tried false) or an error was reported. */
static Ref unmasked_value(Lower *L, const Stmt *s, Ref x, Ref mask, const Shape *sel, bool *tried)
{
    Program *p = P(L);
    *tried = reads_selection(s->value, s->target) && elementwise_over(L, s->value, s->target);
    if (!*tried)
        return 0;
    const Shape xs = V(p, x)->shape;
    int m = V(p, mask)->shape.ndim;
    Unmasking u = { s->target, mask, xs.ndim, xs.ndim - m };
    L->unmasking = &u;
    Ref v = lower_expr(L, s->value);
    L->unmasking = NULL;
    if (!v)
        return 0;
    const Shape vs = V(p, v)->shape;              /* the mask's axes, then what varies along x's whole ones */
    Shape as_numpy = { vs.ndim - m + 1, { sel->d[0] } };
    for (int k = m; k < vs.ndim; k++)
        as_numpy.d[k - m + 1] = vs.d[k];
    return fits_shape(L, s->value->span, as_numpy, sel, FIT_BASIC) ? v : 0;
}

/* the value in x's dtype, as NumPy's assignment casts it (a Python int
 * past int32's range is an error, as NumPy's OverflowError) */
static Ref as_dtype(Lower *L, Span at, Ref v, npx_dtype t)
{
    Program *p = P(L);
    const Value *vv = V(p, v);
    if (vv->dtype == t && !vv->weak)
        return v;
    bool py_int = vv->weak && vv->dtype == NPX_I64 && t == NPX_I32;
    if (py_int && vv->kind == IR_LITERAL && (vv->ival < INT32_MIN || vv->ival > INT32_MAX)) {
        diag_error(p->diag, vv->span, "Python integer %lld out of bounds for int32", (long long)vv->ival);
        return 0;
    }
    if (vv->kind == IR_LITERAL)                  /* one that t holds exactly stays a literal: no kernel */
        return build_converted(p, at, v, t);     /* computes it on the device (x[p] = 1.0) */
    Ref c = build_cast(p, at, v, t);
    V(p, c)->checked = py_int;
    return c;
}

static int kind(npx_dtype t) { return t == NPX_BOOL ? 0 : dtype_is_int(t) ? 1 : 2; }

/* What the selected elements become, in x's dtype t: v, or for x[...] op= v
 * the elements they were (old) op v, cast within their kind as NumPy's
 * in-place operators cast (np.add.at casts as astype does: 1.5 into an int
 * array truncates each sum). */
static Ref new_elements(Lower *L, const Stmt *s, Ref old, Ref v, npx_dtype t)
{
    Program *p = P(L);
    if (s->op == AST_NOP && !s->ufunc_at)
        return as_dtype(L, s->value->span, v, t);
    Ref r = s->op == AST_NOP ? lower_ufunc(L, s->ufunc_at, s->op_span, s->span, old, v)   /* np.maximum.at */
                             : lower_operator(L, s->op, s->op_span, s->span, old, v);
    if (r && !s->ufunc_at && kind(V(p, r)->dtype) > kind(t)) {
        diag_error(p->diag, s->op_span, "cannot cast the result of '%s' from %s to %s in place (NumPy casts "
                   "within a kind only: f64 to f32, not float to int)",
                   ast_op_text[s->op], dtype_name(V(p, r)->dtype), dtype_name(t));
        return 0;
    }
    return r && V(p, r)->dtype != t ? build_cast(p, s->span, r, t) : r;
}

/* What keeps the arrays of positions the selection takes for the update's
 * loop (IR_UPDATE's args[2]): the array (x[p] = v), the gather that reads
 * both (x[i, j] = v, sel); 0 when there are none. */
static Ref positions(Lower *L, const AxisIndex *at, int ndim, Ref sel)
{
    int k = ir_first_positions_axis(P(L), at, ndim);
    if (k < 0)
        return 0;
    return k + 1 < ndim && ir_positions_axis(P(L), &at[k + 1]) ? sel : at[k].from;
}

/* np.add.at(x, p, v): like x[p] += v, but each element combines with the
 * value where it is written, so that a repeated position adds again. The
 * update keeps the operation of x[p] + v (`elements`, which has checked its
 * dtypes) and the value itself, broadcast to the selection. */
static Ref ufunc_at(Lower *L, const Stmt *s, Ref x, const AxisIndex *at, Ref sel, Ref kept, Ref v, Ref elements)
{
    Program *p = P(L);
    const Shape ss = V(p, sel)->shape;
    Ref op = V(p, elements)->kind == IR_CAST ? V(p, elements)->args[0] : elements;
    if (V(p, op)->kind != IR_UFUNC) {
        diag_error(p->diag, s->op_span, "np.%s.at with these operands is not supported yet", s->ufunc_at);
        return 0;
    }
    if (!shape_equal(&V(p, v)->shape, &ss))      /* (the update's box is its value's shape) */
        v = build_broadcast(p, s->span, v, &ss);
    Ref u = build_update(p, s->span, x, at, v, kept);
    Value *uv = V(p, u);
    uv->ufunc_at = true;
    uv->ufunc = V(p, op)->ufunc;
    uv->compute = V(p, op)->compute;
    return u;
}

/* x[i, 1:3] = v (integers and slices), x[p] = v (an array of positions) or
 * x[np.arange(B), labels] = v: the new elements have the selection's shape,
 * and only they are computed: in x's own buffer when nothing reads x's old
 * elements after (schedule.c), else in a copy of it. */
static Ref update(Lower *L, const Stmt *s, Ref x, Ref sel, Ref v)
{
    Program *p = P(L);
    const Shape xs = V(p, x)->shape, ss = V(p, sel)->shape;
    AxisIndex at[NPX_MAX_RANK];
    int picks = box(L, s, &xs, sel, at);
    if (picks < 0)
        return 0;
    Ref kept = positions(L, at, xs.ndim, sel);
    if (!fits(L, s->value->span, v, &ss, s->ufunc_at ? FIT_UFUNC_AT : kept ? FIT_POSITIONS : FIT_BASIC))
        return 0;
    Ref elements = new_elements(L, s, sel, v, V(p, x)->dtype);
    if (elements && s->ufunc_at && kept)
        return ufunc_at(L, s, x, at, sel, kept, v, elements);
    if (elements && !shape_equal(&V(p, elements)->shape, &ss))
        elements = build_broadcast(p, s->span, elements, &ss);
    if (!elements || !picks)
        return elements;                          /* x[:] = v, x[...] = v */
    bool reads_sel = s->op != AST_NOP || s->ufunc_at || row_labels(L, s->target, sel, &xs);   /* x[i] += v; labels */
    return build_update(p, s->span, x, at, elements, reads_sel ? sel : kept);
}

/* x[m] = v, a mask over x's first axes: where(m, v, x), one loop over x
 * (x[m] op= v: where(m, x op v, x); x[m] = 2 * y[m]: where(m, 2 * y, x)). */
static Ref mask_assign(Lower *L, const Stmt *s, Ref x, Ref sel)
{
    Program *p = P(L);
    const Shape xs = V(p, x)->shape, ss = V(p, sel)->shape;
    Ref mask = V(p, sel)->args[1];
    int m = V(p, mask)->shape.ndim, keep[NPX_MAX_RANK];
    bool whole[NPX_MAX_RANK];
    for (int k = 0; k < xs.ndim; k++) {
        keep[k] = k < m ? -1 : k - m + 1;
        whole[k] = k >= m;
    }
    Span at = s->value->span;
    bool unmasked;
    Ref placed = unmasked_value(L, s, x, mask, &ss, &unmasked);
    if (!unmasked) {
        Ref v = lower_expr(L, s->value);
        placed = v ? place(L, at, v, &ss, keep, whole, xs.ndim) : 0;
    }
    Ref region = m < xs.ndim ? build_expand(p, at, mask, ((1u << xs.ndim) - 1) & ~((1u << m) - 1), xs.ndim) : mask;
    placed = placed ? new_elements(L, s, x, placed, V(p, x)->dtype) : 0;
    return placed ? build_ufunc(p, s->op_span, s->span, UF_where, (Ref[]){ region, placed, x }, 3, false) : 0;
}

Ref lower_setitem(Lower *L, const Stmt *s, Binding *b)
{
    Program *p = P(L);
    Ref x = lower_changed_value(L, s, b);
    if (!x)
        return 0;
    if (V(p, x)->shape.ndim == 0) {
        diag_error(p->diag, s->name_span, "'%s' is a scalar, which has no elements to assign; bind it again: %s = ...",
                   s->name, s->name);
        return 0;
    }
    if (s->op == AST_MATMUL) {
        diag_error(p->diag, s->op_span, "@= cannot assign to elements; write the product out");
        return 0;
    }
    if (!unshared(L, b, s->name_span))
        return 0;
    Ref sel = lower_subscript(L, s->target);
    if (!sel)
        return 0;
    if (sel != x && V(p, sel)->kind == IR_COMPRESS && V(p, sel)->args[0] == x && V(p, sel)->ival == 0)
        return mask_assign(L, s, x, sel);
    Ref v = lower_expr(L, s->value);
    return v ? update(L, s, x, sel, v) : 0;
}
