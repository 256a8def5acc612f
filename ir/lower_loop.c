/* lower_loop.c: for NAME in range(...) and its body. A name the body rebinds
 * that was bound before the loop is carried: an ST_CARRY copy of it before
 * the loop, which each iteration's last value replaces (the same dtype and
 * shape, checked here). A name bound only inside the loop keeps its last
 * iteration's value after it, carried out when something reads it
 * (lower_carry_out); the counter has no value after the loop. */
#include <string.h>
#include "lower.h"

typedef struct {
    const char **v;
    int n, cap;
} Names;

/* The names body assigns, its nested loops' bodies too, each once. */
static void assigned_names(Lower *L, const AstProgram *body, Names *out)
{
    for (int i = 0; i < body->n; i++) {
        const Stmt *s = body->v[i];
        if (s->kind == STMT_FOR)
            assigned_names(L, &s->body, out);
        for (int j = 0; s->kind == STMT_ASSIGN && j < s->nnames; j++) {
            int k = 0;
            while (k < out->n && out->v[k] != s->names[j])
                k++;
            if (k < out->n)
                continue;
            out->v = arena_grow(L->p->arena, out->v, &out->cap, out->n + 1, sizeof(char *));
            out->v[out->n++] = s->names[j];
        }
    }
}

/* Can the host compute r before the loop from numbers, sizes, counters and
 * the host's copies of inputs (not from data the device computed, nor a name
 * a loop carries, which only the computation knows)? */
static bool known_on_host(const Program *p, Ref r, Ref fresh)
{
    const Value *v = &p->vals[r];
    IrStmtKind made_by = p->stmts[v->stmt].kind;   /* (values from fresh on are the range's own) */
    if (v->shape.ndim != 0 || (v->kind != IR_LITERAL && v->kind != IR_DIMVAL && v->kind != IR_UFUNC &&
                               v->kind != IR_CAST && v->kind != IR_INPUT) ||
        (r < fresh && (made_by == ST_CARRY || made_by == ST_END)))
        return false;
    for (int i = 0; i < v->nargs; i++)
        if (!known_on_host(p, v->args[i], fresh))
            return false;
    return true;
}

/* The late names the range read (range(a.shape[0]), a bound only in an
 * earlier loop) were noted on the statement before the loop, from entry
 * `from` on: they belong to the loop's ST_FOR, which checks them before it
 * computes its bounds (NumPy's NameError where that loop ran zero times). */
static void move_named_late(Program *p, int before, int from, int loop_stmt)
{
    if (before < 0)
        return;
    IrStmt *b = &p->stmts[before], *f = &p->stmts[loop_stmt];
    for (int i = from; i < b->nnamed_late; i++) {
        f->named_late = arena_grow(p->arena, f->named_late, &f->capnamed_late, f->nnamed_late + 1, sizeof(Ref));
        f->named_late[f->nnamed_late++] = b->named_late[i];
    }
    b->nnamed_late = from;
}

static Ref range_bound(Lower *L, const Expr *e)
{
    Program *p = L->p;
    Ref fresh = p->nvals, r = lower_expr(L, e);
    if (r && (!dtype_is_int(V(p, r)->dtype) || !known_on_host(p, r, fresh))) {
        diag_error(p->diag, e->span, "range() takes integers known before the loop starts: numbers, consts, "
                                     "sizes (B, x.shape[0]), 0-d inputs and the counters of enclosing loops");
        return 0;
    }
    return r;
}

/* Is r computed from a loop's counter? */
static bool uses_counter(const Program *p, Ref r)
{
    const Value *v = &p->vals[r];
    for (int k = 0; v->kind == IR_DIMVAL && k < v->dims.ndim; k++)
        if (DIM_IS_SYM(v->dims.d[k]) && p->syms[DIM_SYMNO(v->dims.d[k])].kind == SYM_LOOP)
            return true;
    for (int i = 0; i < v->nargs; i++)
        if (uses_counter(p, v->args[i]))
            return true;
    return false;
}

/* range(stop), range(start, stop), range(start, stop, step): step is a
 * constant other than 0. */
static bool lower_range(Lower *L, const Expr *e, Loop *lp)
{
    Program *p = L->p;
    if (e->kind != EXPR_CALL || e->obj->kind != EXPR_NAME || e->obj->np_prefix || strcmp(e->obj->name, "range") != 0) {
        diag_error(p->diag, e->span, "a loop runs over a range of integers: for NAME in range(N)");
        return false;
    }
    if (e->kwargs.n > 0) {
        diag_error(p->diag, e->kwargs.v[0].name_span, "range() takes no keyword arguments");
        return false;
    }
    if (e->args.n < 1 || e->args.n > 3) {
        diag_error(p->diag, e->at, "range expected %s, got %d", e->args.n ? "at most 3 arguments" : "at least 1 argument",
                   e->args.n);
        return false;
    }
    const Expr *step = e->args.n > 2 ? e->args.v[2] : NULL;
    lp->start = e->args.n > 1 ? range_bound(L, e->args.v[0]) : build_literal(p, e->span, NPX_I64, 0, 0, true);
    lp->stop = range_bound(L, e->args.v[e->args.n > 1]);
    if (step && lower_const_int(L, step, &lp->step) && lp->step == 0)
        diag_error(p->diag, step->span, "range() arg 3 must not be zero");
    lp->varies = (lp->start && uses_counter(p, lp->start)) || (lp->stop && uses_counter(p, lp->stop));
    return lp->start && lp->stop && lp->step != 0;
}

static void add_carry(Loop *lp, const char *name, Ref carry, bool late)
{
    int k = lp->ncarries++;
    lp->carry[k] = carry;
    lp->next[k] = 0;
    lp->name[k] = name;
    lp->late[k] = late;
}

/* A copy of name's value before the loop, carried from one iteration to
 * the next; the name is bound to it in the body and after the loop. */
static Ref carry(Lower *L, const Stmt *loop, Binding *b)
{
    Program *p = L->p;
    int st = lower_new_stmt(L, ST_CARRY, loop, b->name);
    const Value *entry = V(p, b->value);
    bool weak = entry->weak;
    Ref c = build_cast(p, loop->name_span, b->value, entry->dtype);
    V(p, c)->weak = weak;
    p->stmts[st].value = c;
    b->value = c;
    p->stmts[st].version = ++b->version;
    return c;
}

/* The body's last value of a carried name must fit where it is carried. */
static bool check_next(Lower *L, Ref c, Ref next, const char *name, const Stmt *loop)
{
    Program *p = L->p;
    const Value *vc = V(p, c), *vn = V(p, next);
    if (vn->dtype == vc->dtype && vn->weak == vc->weak && shape_equal(&vn->shape, &vc->shape))
        return true;
    const IrStmt *st = &p->stmts[vn->stmt];
    diag_error(p->diag, st->span, "'%s' must keep its dtype and shape from one iteration to the next: it is %s "
               "before the loop and %s after this statement", name, shape_str(p, &vc->shape, vc->dtype, vc->weak),
               shape_str(p, &vn->shape, vn->dtype, vn->weak));
    bool counted = ir_data_axis(p, &vn->shape) >= 0;   /* r = r[keep]: a length the data decide */
    if (vc->weak && !vn->weak && shape_equal(&vn->shape, &vc->shape))
        diag_note(p->diag, loop->span, "a Python number becomes an array in the first iteration; start '%s' "
                  "as one before the loop: np.full((), value, %s)", name, dtype_name(vn->dtype));
    else if (counted && vn->dtype == vc->dtype)
        diag_note(p->diag, loop->span, "a length the data decide that changes in a loop is not supported yet; "
                  "carry a boolean mask instead ('keep = keep & (...)' in the loop) and select with it where the "
                  "values are read");
    else
        diag_note(p->diag, loop->span, "the loop starts here");
    return false;
}

/* A name bound only inside a loop, read after it: carried out of each loop
 * it was bound in (innermost first), the value of its last iteration, when
 * its size is known before the loop. An inner loop whose range changes with
 * an outer one's counter may run in one iteration and not in the next,
 * where Python reads the name's value from an earlier iteration: not
 * supported yet. */
void lower_carry_out(Lower *L, Binding *b)
{
    Program *p = L->p;
    Ref last = b->value;
    const Value *v = V(p, last);
    b->kind = BIND_VALUE;
    int counted = ir_data_axis(p, &v->shape);
    if (counted >= 0) {
        diag_error(p->diag, p->stmts[v->stmt].span, "'%s' has a size that the data decide in each iteration "
                   "(%s); reading it after the loop is not supported yet", b->name, dim_str(p, v->shape.d[counted]));
        b->value = 0;
        return;
    }
    for (int i = 0; i + 1 < b->nout; i++)
        if (p->loops[b->out[i]].varies) {
            diag_error(p->diag, p->stmts[p->loops[b->out[i]].first].span, "'%s' is bound only inside this loop, "
                       "which may run in one iteration of the loop around it and not in the next: reading it after "
                       "is not supported yet; bind '%s' before the outer loop", b->name, b->name);
            b->value = 0;
            return;
        }
    for (int i = 0; i < b->nout; i++) {
        Loop *lp = &p->loops[b->out[i]];
        Ref c = build_cast(p, p->stmts[lp->last].span, last, v->dtype);
        add_carry(lp, b->name, c, true);
        lp->next[lp->ncarries - 1] = last;
        Value *vc = V(p, c);
        vc->weak = v->weak;
        vc->stmt = lp->last;
        vc->late = true;
        vc->loop = b->out[i];
        vc->carry = lp->ncarries - 1;
        last = c;
    }
    b->value = last;
}

/* Is r a value a finished loop carries? */
static bool is_carry(const Program *p, Ref r)
{
    for (int i = 0; i < p->nloops; i++)
        for (int k = 0; k < p->loops[i].ncarries; k++)
            if (p->loops[i].carry[k] == r)
                return true;
    return false;
}

/* Can literal v be converted to t and back without change? */
static bool literal_fits(const Value *v, npx_dtype t)
{
    double x = dtype_is_float(v->dtype) ? v->fval : (double)v->ival;
    switch (t) {
    case NPX_BOOL: return v->dtype == NPX_BOOL;
    case NPX_I32: return !dtype_is_float(v->dtype) && v->ival >= INT32_MIN && v->ival <= INT32_MAX;
    case NPX_I64: return !dtype_is_float(v->dtype);
    case NPX_F32: return dtype_is_float(v->dtype) ? (double)(float)x == x || x != x
                                                  : (int64_t)(float)v->ival == v->ival;
    default: return dtype_is_float(v->dtype) || (v->ival >= -((int64_t)1 << 53) && v->ival <= (int64_t)1 << 53);
    }
}

/* The number a carried Python number starts as: the value before the loop,
 * or before the loops around it (an inner loop's carry starts as the outer
 * one's); NULL when it is not a literal. */
static const Value *entry_literal(const Program *p, const Value *c)
{
    const Value *entry = &p->vals[c->args[0]];
    while (entry->kind == IR_CAST && entry->weak && p->stmts[entry->stmt].kind == ST_CARRY)
        entry = &p->vals[entry->args[0]];
    return entry->kind == IR_LITERAL ? entry : NULL;
}

/* s = 0.0 before the loop, s = s + x.sum() in it: NumPy's s is a Python
 * float in the first iteration and an f32 after. When the number is exactly
 * an f32 (or whatever the body makes of it), the carry is that from the
 * start, which computes the same (in nested loops, each loop's carry, from
 * the innermost out). Retypes such carries; true if any. */
static bool retype_carries(Lower *L, const Loop *lp)
{
    Program *p = L->p;
    bool any = false;
    for (int k = 0; k < lp->ncarries; k++) {
        Value *c = V(p, lp->carry[k]);
        const Binding *b = lower_find(L, lp->name[k]);
        const Value *next = b && b->kind == BIND_VALUE && b->value ? V(p, b->value) : NULL;
        const Value *entry = entry_literal(p, c);
        if (!next || !c->weak || next->weak || !shape_equal(&next->shape, &c->shape) || !entry ||
            !literal_fits(entry, next->dtype))
            continue;
        c->dtype = next->dtype;
        c->weak = false;
        any = true;
    }
    return any;
}

/* The body's statements between the loop's ST_FOR and ST_END. Lowered
 * again, from where it began, when a carried Python number must become an
 * array first (retype_carries); what the first time added is forgotten,
 * also the names it carried out of earlier loops (lower_carry_out). */
static void lower_body(Lower *L, const Stmt *s, const Loop *lp)
{
    Program *p = L->p;
    int nvals = p->nvals, nstmts = p->nstmts, nsyms = p->nsyms, nloops = p->nloops, nbind = L->nbind;
    int errors = p->diag->errors;
    Binding *bind = arena_alloc(p->arena, sizeof(Binding) * (size_t)(nbind + 1));
    memcpy(bind, L->bind, sizeof(Binding) * (size_t)nbind);
    int *ncarries = arena_alloc(p->arena, sizeof(int) * (size_t)(nloops + 1));
    for (int i = 0; i < nloops; i++)
        ncarries[i] = p->loops[i].ncarries;
    for (int pass = 0;; pass++) {
        L->outer_loop = L->loops ? L->outer_loop : s;
        L->loops++;
        for (int i = 0; i < s->body.n; i++)
            lower_statement(L, s->body.v[i]);
        L->loops--;
        if (pass > 0 || p->diag->errors != errors || !retype_carries(L, lp))
            return;
        p->nvals = nvals;
        p->nstmts = nstmts;
        p->nsyms = nsyms;
        p->nloops = nloops;
        for (int i = 0; i < nloops; i++)
            p->loops[i].ncarries = ncarries[i];
        memcpy(L->bind, bind, sizeof(Binding) * (size_t)nbind);
        L->nbind = nbind;
    }
}

/* After a loop that may not run, a name it rebinds is its array before the
 * loop or the one the loop left it: names that share either may share it.
 * From here on the two count as one array (each binding of the latter takes
 * the former), so changing any of them in place is refused; that may refuse
 * a change NumPy allows (two names that share one of the two each), never
 * allow one NumPy would make to a shared array. */
static void join_data(Lower *L, Ref before, Ref left)
{
    for (int i = 0; i < L->nbind && left != before; i++) {
        Binding *o = &L->bind[i];
        if ((o->kind == BIND_VALUE || o->kind == BIND_LATE) && o->value && binding_data(o) == left)
            o->data = before;
    }
}

void lower_for(Lower *L, const Stmt *s)
{
    Program *p = L->p;
    Loop lp = { .step = 1 };
    int first_val = p->nvals;
    int before_range = p->nstmts - 1, named_before = p->nstmts > 0 ? p->stmts[before_range].nnamed_late : 0;
    diag_hold(p->diag);
    lower_range(L, s->value, &lp);
    if (L->loops + 1 >= NPX_MAX_LOOPS) {
        diag_error(p->diag, s->span, "loops nested more than %d deep are not supported", NPX_MAX_LOOPS - 1);
        diag_release(p->diag);
        return;
    }
    const Binding *old = lower_lookup(L, s->name);  /* a value's name it rebinds, as Python does */
    bool own_counter = !old || (old->kind != BIND_SYM && old->kind != BIND_CONST);
    if (!own_counter)                            /* (the bindings move as the body binds names) */
        diag_error(p->diag, s->name_span, "'%s' is already %s; a loop's counter needs a name of its own", s->name,
                   old->kind == BIND_CONST                        ? "a const"
                   : p->syms[old->sym].kind == SYM_LOOP ? "the counter of an enclosing loop"
                                                        : "a size symbol");
    diag_release(p->diag);
    int range_end = p->nvals;

    Names names = { 0 };
    assigned_names(L, &s->body, &names);
    bool *before = arena_alloc(p->arena, (size_t)names.n + 1);
    Ref *entry_data = arena_alloc(p->arena, sizeof(Ref) * ((size_t)names.n + 1));
    size_t n = (size_t)names.n + 1;
    lp.carry = arena_alloc(p->arena, sizeof(Ref) * n);
    lp.next = arena_alloc(p->arena, sizeof(Ref) * n);
    lp.name = arena_alloc(p->arena, sizeof(char *) * n);
    lp.late = arena_alloc(p->arena, sizeof(bool) * n);
    for (int k = 0; k < names.n; k++) {
        Binding *b = lower_find(L, names.v[k]);
        before[k] = b && b->kind == BIND_VALUE && b->value && names.v[k] != s->name;
        if (!before[k])
            continue;
        entry_data[k] = binding_data(b);
        add_carry(&lp, names.v[k], carry(L, s, b), false);
    }

    int li = p->nloops;
    p->loops = arena_grow(p->arena, p->loops, &p->caploops, p->nloops + 1, sizeof(Loop));
    p->nloops++;
    lp.first = lower_new_stmt(L, ST_FOR, s, s->name);
    for (Ref r = first_val; r < range_end; r++)  /* the range is computed where the loop starts */
        if (!is_carry(p, r))                     /* (not a name it read out of an earlier loop) */
            V(p, r)->stmt = lp.first;
    move_named_late(p, before_range, named_before, lp.first);
    lp.counter = ir_add_sym(p, s->name, SYM_LOOP);
    if (own_counter)
        lower_bind(L, s->name, BIND_SYM, s->name_span)->sym = lp.counter;
    lower_body(L, s, &lp);
    lp.last = lower_new_stmt(L, ST_END, s, s->name);
    p->stmts[lp.first].loop = p->stmts[lp.last].loop = li;

    for (int k = 0, j = 0; k < names.n; k++) {
        Binding *b = lower_lookup(L, names.v[k]);   /* a name only inner loops bound stays BIND_LATE */
        if (!before[k] && names.v[k] != s->name && (b->kind == BIND_LATE || (b->kind == BIND_VALUE && b->value))) {
            b->nout = b->kind == BIND_LATE ? b->nout : 0;
            b->kind = BIND_LATE;
            b->out[b->nout++] = li;              /* (nesting is at most NPX_MAX_LOOPS deep) */
            continue;
        }
        if (before[k] && b->kind == BIND_GONE)
            diag_error(p->diag, s->span, "'%s' is the counter of an inner loop at the end of this loop's body, "
                       "not the value the loop carries; give that loop's counter another name", names.v[k]);
        if (names.v[k] == s->name || b->kind != BIND_VALUE || !b->value) {
            j += before[k];
            continue;
        }
        if (check_next(L, lp.carry[j], b->value, names.v[k], s))
            lp.next[j] = b->value;
        if (!ir_loop_runs(p, &lp))               /* still its array before the loop, maybe (y = x) */
            join_data(L, entry_data[k], binding_data(b));
        b->value = lp.carry[j++];
    }
    if (own_counter) {
        Binding *b = lower_find(L, s->name);
        b->kind = BIND_GONE;
        b->ival = diag_line(p->diag, s->span.begin);
    }
    p->loops[li] = lp;
}

void lower_gone(Lower *L, const Binding *b, Span at)
{
    diag_error(L->p->diag, at, "'%s' is the counter of the loop on line %lld; it has no value after the loop",
               b->name, (long long)b->ival);
}
