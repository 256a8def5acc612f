/* fuse.c: decides which values get their own variable or buffer
 * ("materialized") and which are computed inline, inside the loop of their
 * one user. Elementwise work feeding elementwise work or a reduction is fused
 * into that loop (and into a cumsum's), through views that read each element
 * once (new axes, joins, slices; into a store, not a reduction), unless its
 * user broadcasts it (it would be computed again for each element of the
 * result); -O0 gives every operation its own loop. Views (transpose,
 * broadcast, new axes, indexing, take, reshape), aranges and scalars known in advance need
 * no storage; what a reshape, a sort or a mask reads is stored, in C order; an update's new
 * elements are computed in its loop unless they read the array it changes elsewhere; what
 * checks its elements as it computes them (a take's positions) is stored where only part
 * of it is read. */
#include "ir.h"

static bool is_elementwise(const Value *v) { return v->kind == IR_UFUNC || v->kind == IR_CAST; }

/* Does user read r one element at a time, where it computes its own: the
 * new values of an update, the values a search looks up, a histogram's bin
 * numbers and weights as they are counted? */
static bool reads_each_element(const Value *user, Ref r)
{
    switch (user->kind) {
    case IR_UPDATE:
    case IR_SEARCH: return user->args[1] == r;
    case IR_INTERP: return user->args[0] != r && user->args[1] != r;
    case IR_BINCOUNT: return user->binned;      /* (a bincount's first pass would compute them again) */
    default: return false;
    }
}

/* Is r an array of positions take `user` reads one at a time, as it reads
 * its elements (W[idx + 1])? (A single position, x[t - 1], is a local
 * computed once.) Not where a GEMM reads the take in place: the host
 * computes that block's offset. */
static bool takes_positions(const Program *p, Ref user, Ref r, const bool *in_place)
{
    const Value *u = &p->vals[user];
    return u->kind == IR_TAKE && u->args[0] != r && p->vals[r].shape.ndim && !in_place[user];
}

/* The values whose sizes the data give (a bincount, x[mask]): by[k] gives
 * symbol syms[k]. */
typedef struct {
    int n;
    int *syms;
    Ref *by;
} DataSizes;

static DataSizes data_sizes(Program *p)
{
    DataSizes d = { 0, arena_alloc(p->arena, sizeof(int) * (size_t)p->nvals),
                    arena_alloc(p->arena, sizeof(Ref) * (size_t)p->nvals) };
    for (Ref r = 1; r < p->nvals; r++)
        if (ir_sized_by_data(&p->vals[r])) {
            d.syms[d.n] = DIM_SYMNO(ir_data_dim(&p->vals[r]));
            d.by[d.n++] = r;
        }
    return d;
}

/* Does r's shape (a size's dims) need data size k, for x[m].size? */
static bool sized_from(const Program *p, Ref r, const DataSizes *d, int k)
{
    const Value *v = &p->vals[r];
    if (d->by[k] >= r)
        return false;
    Dim given = DIM_SYM(d->syms[k]);
    for (int i = 0; i < v->shape.ndim; i++)
        if (ir_dim_depends(p, v->shape.d[i], given))
            return true;
    for (int i = 0; v->kind == IR_DIMVAL && i < v->dims.ndim; i++)
        if (ir_dim_depends(p, v->dims.d[i], given))
            return true;
    return false;
}

static bool reads_arg(const Value *v, Ref q)
{
    for (int i = 0; i < v->nargs; i++)
        if (v->args[i] == q)
            return true;
    return false;
}

/* A value is live when it is named or a live value reads it: as an
 * argument, or for a size its data give (each reads only values before
 * it). What lowering built and nothing needs (x[m] = 0 reads x[m] for its
 * shape and checks only) is not. */
static bool *mark_live(Program *p, const bool *named, const DataSizes *d)
{
    bool *live = arena_alloc(p->arena, (size_t)p->nvals);
    for (Ref r = p->nvals - 1; r >= 1; r--) {
        const Value *v = &p->vals[r];
        if (!(live[r] |= named[r]))
            continue;
        for (int i = 0; i < v->nargs; i++)
            live[v->args[i]] = true;
        for (int k = 0; k < d->n; k++)
            live[d->by[k]] |= sized_from(p, r, d, k);
    }
    return live;
}

static void add_use(Program *p, Ref q, Ref user)
{
    if (p->vals[q].uses++ == 0)
        p->vals[q].user = user;
}

/* how many times live values read each value (x * x: twice; a size its
 * data give: once), and which one when it is one */
static void count_uses(Program *p, const bool *live, const DataSizes *d)
{
    for (Ref r = 1; r < p->nvals; r++) {
        p->vals[r].uses = 0;
        p->vals[r].user = 0;
    }
    for (Ref r = 1; r < p->nvals; r++) {
        const Value *v = &p->vals[r];
        for (int i = 0; live[r] && i < v->nargs; i++)
            add_use(p, v->args[i], r);
        for (int k = 0; live[r] && k < d->n; k++)
            if (!reads_arg(v, d->by[k]) && sized_from(p, r, d, k))
                add_use(p, d->by[k], r);
    }
}

/* k * (a @ b) and (a @ b) * k, k a Python number, become one product with
 * scale k: BLAS multiplies by its alpha for free, the loops as they store. */
static void fold_scales(Program *p, const bool *named)
{
    for (Ref r = 1; r < p->nvals; r++) {
        Value *v = &p->vals[r];
        if (v->kind != IR_UFUNC || v->ufunc != UF_multiply || !p->opt)
            continue;
        for (int side = 0; side < 2; side++) {
            Value *m = &p->vals[v->args[side]], *k = &p->vals[v->args[1 - side]];
            if (m->kind != IR_MATMUL || m->uses != 1 || named[v->args[side]] || k->kind != IR_LITERAL ||
                !k->weak || !dtype_is_float(m->dtype) || m->dtype != v->dtype)
                continue;
            v->kind = IR_MATMUL;
            v->scale = m->scale * (dtype_is_float(k->dtype) ? k->fval : (double)k->ival);
            v->args[0] = m->args[0];
            v->args[1] = m->args[1];
            m->nargs = 0;                        /* the product it was is gone */
            break;
        }
    }
}

static bool is_view(const Value *v)
{
    return v->kind == IR_BROADCAST || v->kind == IR_EXPAND || v->kind == IR_INDEX || v->kind == IR_CONCAT ||
           v->kind == IR_TAKE || v->kind == IR_TRANSPOSE;
}

/* Does view u read each element of r, its operand, at most once (a new
 * axis, a join, a slice), so that r may be computed where u is read? Not a
 * broadcast, a take, a transpose (the GEMM reads through it) or a reshape. */
static bool reads_once(const Value *u, Ref r)
{
    switch (u->kind) {
    case IR_CONCAT: return true;
    case IR_EXPAND:
    case IR_INDEX: return u->args[0] == r;    /* (not a window's first index) */
    default: return false;
    }
}

/* Is r a stored value or a literal, or a view that reads one without
 * computing (mean[None, :], a keepdims reduction read without its axis)? */
static bool stored_or_literal(const Program *p, Ref r)
{
    const Value *v = &p->vals[r];
    while (!v->materialize && (v->kind == IR_EXPAND || v->kind == IR_RESHAPE || v->kind == IR_BROADCAST ||
                               v->kind == IR_TRANSPOSE))
        v = &p->vals[v->args[0]];
    return v->materialize || v->kind == IR_LITERAL;
}

/* Is r read by one value: once, or as both operands of an elementwise one
 * (d * d, var's square of x - mean) when r is computed from stored values
 * and literals alone? Then its expression is written twice, which the C
 * compiler computes once, and no memory pass stores and reloads it. */
static bool read_by_one(const Program *p, Ref r)
{
    const Value *v = &p->vals[r], *u = &p->vals[v->user];
    if (v->uses == 1)
        return true;
    if (v->uses != 2 || u->kind != IR_UFUNC || u->nargs != 2 || u->args[0] != r || u->args[1] != r ||
        (v->kind != IR_UFUNC && v->kind != IR_CAST))
        return false;
    for (int i = 0; i < v->nargs; i++)
        if (!stored_or_literal(p, v->args[i]))
            return false;
    return true;
}

/* The value that computes with the elements of r, read once each: its one
 * user, or past views that read each element once and store nothing, the
 * one user of the last of them (np.cross's three components, each given a
 * new axis and joined, are computed where the join is read); 0 when more
 * than one reads r. *read is what that value reads: r or the last view;
 * *joined whether a join is among those views. */
static Ref element_user(const Program *p, Ref r, const bool *stored, Ref *read, bool *joined)
{
    *joined = false;
    for (*read = r; read_by_one(p, *read); *read = p->vals[*read].user) {
        Ref u = p->vals[*read].user;
        if (!reads_once(&p->vals[u], *read) || stored[u])
            return u;
        *joined |= p->vals[u].kind == IR_CONCAT;
    }
    return 0;
}

/* Does value a, inline (in a part of a join when in_join), compute
 * something in a part of a join? (a comes before the value being decided:
 * whether it is stored is known.) */
static bool computes_in_join(const Program *p, Ref a, bool in_join)
{
    const Value *v = &p->vals[a];
    if (v->materialize)
        return false;
    if (in_join && (v->kind == IR_UFUNC || v->kind == IR_CAST))
        return true;
    for (int i = 0; i < v->nargs; i++)
        if (computes_in_join(p, v->args[i], in_join || v->kind == IR_CONCAT))
            return true;
    return false;
}

static bool reads_computed_join(const Program *p, Ref r)
{
    for (int i = 0; i < p->vals[r].nargs; i++)
        if (computes_in_join(p, p->vals[r].args[i], false))
            return true;
    return false;
}

/* The GEMM reads its operands where they are stored, each matrix possibly
 * transposed, from an offset when it is one block of a named array (x[t]
 * @ W): the other views a float product reads (x[:, 1:] @ W) are stored
 * first, a copy of O(n^2) instead of O(n^3) loops reading through them.
 * Marks them in *gemm_read, the blocks in *in_place. */
static void mark_gemm_operands(const Program *p, const bool *named, bool *gemm_read, bool *in_place)
{
    for (Ref r = 1; r < p->nvals; r++) {
        const Value *m = &p->vals[r];
        if (m->kind != IR_MATMUL || !dtype_is_float(m->dtype))
            continue;
        for (int side = 0; side < 2; side++) {
            Ref a = m->args[side];
            const Value *v = &p->vals[a];
            if (v->dtype != m->dtype)
                continue;
            if (v->kind == IR_TRANSPOSE && ir_swaps_matrices(v))
                a = v->args[0];          /* BLAS transposes it */
            const Value *view = &p->vals[a];
            if (is_view(view) && ir_contiguous_block(p, view) && named[view->args[0]])
                in_place[a] = true;
            else if (is_view(view))
                gemm_read[a] = true;
        }
    }
}

/* Does inline value r read x other than as `same` (x at the elements being
 * written)? */
static bool reads_elsewhere(const Program *p, Ref r, Ref x, Ref same)
{
    const Value *v = &p->vals[r];
    for (int i = 0; i < v->nargs; i++) {
        Ref a = v->args[i];
        if (a == x || (a != same && !p->vals[a].materialize && reads_elsewhere(p, a, x, same)))
            return true;
    }
    return false;
}

/* An update writes its new elements into x's buffer while it computes
 * them: those that read x elsewhere (x[1:] = x[:-1]) are stored first. So
 * are those that read x at all where positions may repeat (x[p] += v: a
 * repeated position reads its old element, not the one written before). */
static void store_overlapping_elements(Program *p)
{
    for (Ref r = 1; r < p->nvals; r++) {
        const Value *u = &p->vals[r];
        if (u->kind != IR_UPDATE || !u->materialize)
            continue;
        Value *v = &p->vals[u->args[1]];
        Ref same = ir_scatter_axes(p, u) ? 0 : u->args[2];
        if (!v->materialize && reads_elsewhere(p, u->args[1], u->args[0], same))
            v->materialize = true;
    }
}

/* Does inline value r, or what it reads inline, check the elements it
 * computes (ir_checks_element)? */
static bool checks_inline(const Program *p, Ref r)
{
    const Value *v = &p->vals[r];
    if (v->materialize)
        return false;
    if (ir_checks_element(p, v))
        return true;
    for (int i = 0; i < v->nargs; i++)
        if (checks_inline(p, v->args[i]))
            return true;
    return false;
}

/* A view that reads some of its operand's elements (x[0], x[::2], a take of
 * it) would check only those of an operand that checks as it is computed:
 * NumPy computes np.take(y, p) whole before [0] reads one element of it,
 * and a position out of bounds in p[1:] is its IndexError. Such an operand
 * is stored first, in a loop of its own that checks every element. So are
 * a take's positions that check (x[2:5, np.take(y, p)]): where another axis
 * empties the take, its loop reads none of them; and the sides of a where
 * (np.where(c, x[p], 0)), each read only where c picks it. */
static void store_checked_in_part(Program *p)
{
    for (Ref r = 1; r < p->nvals; r++) {
        const Value *u = &p->vals[r];
        bool live = u->uses || u->materialize, where = u->kind == IR_UFUNC && u->ufunc == UF_where;
        int read_in_part = !live ? 0 : u->kind == IR_TAKE || where ? u->nargs : u->kind == IR_INDEX;
        for (int i = where; i < read_in_part; i++)
            if (checks_inline(p, u->args[i]))
                p->vals[u->args[i]].materialize = true;
    }
}

/* A comparison of integers the host knows (N == 0): on CUDA computed where
 * it is read, as those integers are. */
static bool host_bool(const Program *p, Ref r)
{
    const Value *v = &p->vals[r];
    if (v->kind != IR_UFUNC || v->dtype != NPX_BOOL || v->shape.ndim != 0)
        return false;
    for (int i = 0; i < v->nargs; i++)
        if (!ir_host_int(p, v->args[i]))
            return false;
    return true;
}

void ir_fuse(Program *p)
{
    bool *named = arena_alloc(p->arena, (size_t)p->nvals);
    for (int s = 0; s < p->nstmts; s++)
        named[p->stmts[s].value] = true;
    for (int i = 0; i < p->nloops; i++)          /* a loop's carried values are variables */
        for (int k = 0; k < p->loops[i].ncarries; k++)
            named[p->loops[i].carry[k]] = named[p->loops[i].next[k]] = true;
    bool *in_order = arena_alloc(p->arena, (size_t)p->nvals);   /* read as stored, in C order: by a reshape, a sort, a mask */
    DataSizes sizes = data_sizes(p);
    bool *live = mark_live(p, named, &sizes);
    for (Ref r = 1; r < p->nvals; r++) {          /* (a sort reads a reshape where its operand is stored) */
        const Value *v = &p->vals[r];
        if (!live[r])
            continue;
        if (v->kind == IR_RESHAPE || (v->kind == IR_SORT && p->vals[v->args[0]].kind != IR_RESHAPE))
            in_order[v->args[0]] = true;
        if (v->kind == IR_COMPRESS)
            in_order[v->args[0]] = in_order[v->args[1]] = true;
        if (v->kind == IR_SEARCH || v->kind == IR_INTERP)   /* searched where they are stored */
            in_order[v->args[0]] = true;
        if (v->kind == IR_INTERP)
            in_order[v->args[1]] = true;
    }
    count_uses(p, live, &sizes);
    fold_scales(p, named);
    count_uses(p, live, &sizes);
    bool *gemm_read = arena_alloc(p->arena, (size_t)p->nvals), *in_place = arena_alloc(p->arena, (size_t)p->nvals);
    if (p->opt)
        mark_gemm_operands(p, named, gemm_read, in_place);
    bool *stored = arena_alloc(p->arena, (size_t)p->nvals);   /* what a view or a constant is stored for */
    for (Ref r = 1; r < p->nvals; r++)
        stored[r] = named[r] || in_order[r] || gemm_read[r];
    for (Ref r = 1; r < p->nvals; r++) {
        Value *v = &p->vals[r];
        if (v->uses == 0 && !named[r]) {
            v->materialize = false;              /* dead: nothing reads it */
            continue;
        }
        switch (v->kind) {
        case IR_LITERAL:
        case IR_DIMVAL:
        case IR_BROADCAST:
        case IR_TRANSPOSE:
        case IR_EXPAND:
        case IR_INDEX:
        case IR_RESHAPE:
        case IR_CONCAT:
        case IR_TAKE:
            v->materialize = stored[r];
            break;
        case IR_ARANGE:                          /* computed from the index where it is read */
            v->materialize = stored[r] || !p->opt;
            break;
        case IR_UFUNC:
        case IR_CAST: {
            Ref read;
            bool joined;
            Ref u = element_user(p, r, stored, &read, &joined);
            const Value *user = u ? &p->vals[u] : NULL;
            const Shape *shape = &p->vals[read].shape;   /* an array its user broadcasts: each element read
                                                            more than once (a scalar is computed once) */
            bool broadcast = user && shape->ndim && !shape_equal(shape, &user->shape);
            /* a reduction's SIMD loop does not vectorize work in one branch of a join (exp of a part) */
            bool branches = joined || reads_computed_join(p, r);
            bool fusable = user && ((is_elementwise(user) && !broadcast) ||
                                    ((user->kind == IR_REDUCE || user->kind == IR_CUMSUM) && !branches) ||
                                    reads_each_element(user, read) || takes_positions(p, u, read, in_place) ||
                                    (stored[u] && reads_once(user, read)) ||
                                    (in_place[u] && ir_host_int(p, read)));   /* x[t - 1] @ W: in the call */
            /* on CUDA a scalar the host knows is computed where it is read, not by a kernel */
            bool device_scalar = p->cuda && (ir_host_int(p, r) || host_bool(p, r));
            v->materialize = named[r] || !p->opt || !(fusable || device_scalar) || in_order[r];
            break;
        }
        default:
            v->materialize = true;
        }
    }
    store_overlapping_elements(p);
    store_checked_in_part(p);
}
