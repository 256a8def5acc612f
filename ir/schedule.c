/* schedule.c: gives each materialized value its C name (the source name where
 * it has one, else the operation's name and a number), and decides when each
 * buffer is freed: right after the last statement that reads it, so that peak
 * memory is what is live, not one buffer per expression. Statements run in
 * source order; values inside a statement in the order they were built, which
 * is an order where operands come first; runs of statements over the same
 * rows run row by row (rows.c); a loop's statements once per iteration, so
 * what they read from before the loop lives until it ends. It also decides
 * which statements check first that a name bound only inside a loop has a
 * value. */
#include <string.h>
#include "ir.h"

/* i0, i1, ...: the emitters' loop indices, and i0_tile, i1_tile, ...: their
 * tiles' (c_open_tiles), i0_tiles, ...: how many tiles (a tiled kernel's),
 * i0_step, ...: their steps in a kernel's grid-stride loop (target_cuda.c) */
static bool is_loop_index(const char *s)
{
    if (s[0] != 'i' || !s[1])
        return false;
    for (s++; *s >= '0' && *s <= '9'; s++)
        ;
    return s[-1] != 'i' && (!*s || strcmp(s, "_tile") == 0 || strcmp(s, "_tiles") == 0 || strcmp(s, "_step") == 0);
}

static bool taken(const char **used, int nused, const char *s)
{
    if (ir_c_reserved(s) || is_loop_index(s))
        return true;
    for (int i = 0; i < nused; i++)
        if (strcmp(used[i], s) == 0)
            return true;
    return false;
}

typedef struct {
    const char **v;              /* the names given */
    int n, cap;
    const char **base;           /* each name asked for, with the next number to try */
    int *next, nbase, capbase, capnext;
} Names;

/* want, or want_2, want_3, ...: the first that is free. Numbering goes on
 * from the last one given for want (a thousand temporaries named add stay
 * linear, not cubic). */
static const char *unique(Program *p, Names *names, const char *want)
{
    if (ir_c_reserved_prefix(want))              /* npx_x, _Bool: no number makes them free */
        want = arena_printf(p->arena, "v_%s", want);
    int b = 0;
    while (b < names->nbase && strcmp(names->base[b], want) != 0)
        b++;
    if (b == names->nbase) {
        names->base = arena_grow(p->arena, names->base, &names->capbase, b + 1, sizeof(char *));
        names->next = arena_grow(p->arena, names->next, &names->capnext, b + 1, sizeof(int));
        names->base[b] = want;
        names->next[b] = 2;
        names->nbase++;
    }
    const char *s = want;
    if (names->next[b] > 2 || taken(names->v, names->n, s))
        do
            s = arena_printf(p->arena, "%s_%d", want, names->next[b]++);
        while (taken(names->v, names->n, s));
    names->v = arena_grow(p->arena, names->v, &names->cap, names->n + 1, sizeof(char *));
    names->v[names->n++] = s;
    return s;
}

/* A temporary is named after what it computes: exp_3, sum_4, dot_5. */
static const char *op_name(const Value *v)
{
    static const struct {
        IrKind kind;
        const char *name;
    } readable[] = {
        { IR_MATMUL, "dot" }, { IR_BINCOUNT, "counts" }, { IR_COMPRESS, "selected" }, { IR_TRANSPOSE, "transposed" },
        { IR_BROADCAST, "filled" }, { IR_EXPAND, "filled" }, { IR_INDEX, "part" }, { IR_RESHAPE, "reshaped" }, { IR_CONCAT, "joined" }, { IR_TAKE, "taken" }, { IR_SEARCH, "positions" },
    };
    for (size_t i = 0; i < sizeof readable / sizeof readable[0]; i++)
        if (readable[i].kind == v->kind)
            return readable[i].name;
    const char *name = ir_op_name(v);
    return name ? name : "t";
}

/* text with every run of other characters than letters and digits made one
 * '_', none at either end, and an 'n' before a digit: "1+V" is n1_V */
static const char *c_identifier(Program *p, const char *text)
{
    char *s = arena_strdup(p->arena, text), *o = s;
    for (const char *c = text; *c; c++) {
        bool word = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_';
        if (word)
            *o++ = *c;
        else if (o > s && o[-1] != '_')
            *o++ = '_';
    }
    while (o > s && o[-1] == '_')
        o--;
    *o = 0;
    return s[0] >= '0' && s[0] <= '9' ? arena_printf(p->arena, "n%s", s) : s;
}

static void name_values(Program *p)
{
    Names names = { 0 };
    for (int i = 0; i < p->nsyms; i++)           /* a size symbol named exp or int64_t */
        if (p->syms[i].kind == SYM_INPUT)
            p->syms[i].cvar = unique(p, &names, p->syms[i].name);
    for (int s = 0; s < p->nstmts; s++) {
        IrStmt *st = &p->stmts[s];
        if (!st->value)
            continue;
        if (p->vals[st->value].cname)
            continue;                            /* w = n, where n is a Python int: n's */
        const char *want = st->version > 1 ? arena_printf(p->arena, "%s_%d", st->name, st->version) : st->name;
        p->vals[st->value].cname = unique(p, &names, want);
    }
    for (int i = 0; i < p->nloops; i++)          /* a name bound only inside a loop, after it */
        for (int k = 0; k < p->loops[i].ncarries; k++)
            if (p->loops[i].late[k])
                p->vals[p->loops[i].carry[k]].cname = unique(p, &names, p->loops[i].name[k]);
    for (int i = 0; i < p->nsyms; i++)           /* B-1 is B_1, B*V is B_V */
        if (p->syms[i].kind != SYM_INPUT && p->syms[i].kind != SYM_DATA)
            p->syms[i].cvar = unique(p, &names, c_identifier(p, p->syms[i].name));
    for (Ref r = 1; r < p->nvals; r++) {
        Value *v = &p->vals[r];
        if (v->materialize && !v->cname)
            v->cname = unique(p, &names, op_name(v));
        if (v->row_local)
            v->row_cname = unique(p, &names, arena_printf(p->arena, "%s_row", v->cname));
        if (ir_sized_by_data(v)) {
            Sym *sym = &p->syms[DIM_SYMNO(ir_data_dim(v))];
            sym->cvar = unique(p, &names, arena_printf(p->arena, "%s_len", v->cname));
        }
    }
}

/* The statement where r is last read: through its users, through the
 * users of inline values that read it, and by a statement that names it
 * again (w = n, where n is a Python int: not copied). */
static void find_last_uses(Program *p)
{
    for (Ref r = 1; r < p->nvals; r++)
        p->vals[r].last_stmt = p->vals[r].stmt;
    for (int s = 0; s < p->nstmts; s++)
        if (p->stmts[s].value && p->vals[p->stmts[s].value].last_stmt < s)
            p->vals[p->stmts[s].value].last_stmt = s;
    for (Ref r = p->nvals - 1; r >= 1; r--) {
        const Value *v = &p->vals[r];
        for (int i = 0; i < v->nargs; i++) {
            Value *a = &p->vals[v->args[i]];
            int last = v->materialize ? v->stmt : v->last_stmt;
            if (last > a->last_stmt)
                a->last_stmt = last;
        }
    }
}

/* A buffer read inside a loop lives until the loop ends; a carried name's
 * buffer too (the next iteration reads it), and each iteration's last value
 * of it, which takes its place at the end of the iteration (moved: never
 * freed on its own). Inner loops first, as they end inside outer ones. */
static void live_through_loops(Program *p, bool *moved)
{
    for (int i = p->nloops - 1; i >= 0; i--) {
        const Loop *lp = &p->loops[i];
        for (Ref r = 1; r < p->nvals; r++) {
            Value *v = &p->vals[r];
            if (v->stmt < lp->first && v->last_stmt > lp->first && v->last_stmt < lp->last)
                v->last_stmt = lp->last;
        }
        for (int k = 0; k < lp->ncarries; k++) {
            Value *c = &p->vals[lp->carry[k]];
            if (c->last_stmt < lp->last)
                c->last_stmt = lp->last;
            if (lp->next[k]) {
                p->vals[lp->next[k]].last_stmt = lp->last;
                moved[lp->next[k]] = true;
            }
        }
    }
}

/* Is x, carried by a loop around statement s, read after s in the same
 * iteration? `read` is where each value is last read, loops aside. */
static bool read_later_in_iteration(const Program *p, const Loop *lp, Ref x, int s, const int *read)
{
    for (Ref w = x + 1; w < p->nvals; w++) {
        const Value *v = &p->vals[w];
        int at = v->materialize ? v->stmt : read[w];
        for (int i = 0; i < v->nargs; i++)
            if (v->args[i] == x && at > s && at < lp->last)
                return true;
    }
    return false;
}

/* The loop that carries x over statement s (x is its value of a name bound
 * before it), or NULL. */
static const Loop *carrying_loop(const Program *p, Ref x, int s)
{
    for (int i = 0; i < p->nloops; i++)
        for (int k = 0; k < p->loops[i].ncarries; k++)
            if (p->loops[i].carry[k] == x && !p->loops[i].late[k] && s > p->loops[i].first && s < p->loops[i].last)
                return &p->loops[i];
    return NULL;
}

/* Is v, once computed, in a buffer: an array, or in CUDA a number too (on
 * the device); a C program keeps a number in a local. */
static bool has_buffer(const Program *p, const Value *v)
{
    return v->shape.ndim > 0 || p->cuda;
}

/* May the value that statement s computes from x take x's buffer over?
 * When x is its last reader (not an output, nor a buffer taken already:
 * it is marked moved), or
 * x is a loop's carried name that the rest of the iteration does not read
 * (the next iteration reads the new value; the loop's end then frees
 * nothing, ir_buffer_taken). */
static bool takes_over(const Program *p, Ref x, int s, bool *moved, const int *read)
{
    const Loop *lp = carrying_loop(p, x, s);
    if (lp)
        return !read_later_in_iteration(p, lp, x, s, read);
    if (p->vals[x].last_stmt != s || p->is_output[x] || moved[x])
        return false;
    return moved[x] = true;
}

/* A loop's carried name starts as a copy of its value before the loop,
 * unless it may take that buffer over and has its dtype (not a Python
 * number the carry converts). An inner loop's carry may take over the outer
 * loop's: the copy each outer iteration made, gone, and a name that may
 * have no value is read only where the inner loop reads it. */
static void adopt_entries(Program *p, bool *moved, const int *read)
{
    for (int s = 0; s < p->nstmts; s++) {
        if (p->stmts[s].kind != ST_CARRY)
            continue;
        Value *c = &p->vals[p->stmts[s].value];
        const Value *from = &p->vals[c->args[0]];
        if (c->owned && from->owned && from->dtype == c->dtype)
            c->adopts = takes_over(p, c->args[0], s, moved, read);
    }
}

/* An update changes its array in place when it may take its buffer over.
 * Fusion has stored the new elements first where they read the array
 * elsewhere. */
static void adopt_updates(Program *p, bool *moved, const int *read)
{
    for (Ref r = 1; r < p->nvals; r++) {
        Value *u = &p->vals[r];
        if (u->kind == IR_UPDATE && u->owned && p->vals[u->args[0]].owned)
            u->adopts = takes_over(p, u->args[0], u->stmt, moved, read);
    }
}

/* Is value r's buffer taken over by another value (a carry marks it moved;
 * an update of a carried name takes it without)? */
static bool buffer_moves(const Program *p, Ref r, const bool *moved)
{
    return moved[r] || ir_buffer_taken(p, r, -1, p->nstmts);
}

/* A temporary a loop computes in each iteration, of a size the loop does
 * not change, has one buffer for all of them, allocated before the
 * outermost such loop and freed after it: a small linear system's step
 * allocated and freed its two products' buffers, a third of its time. Not a
 * buffer that an update or a carried name takes over, nor one whose size
 * the data give. */
static void hoist_buffers(Program *p, const bool *moved)
{
    for (Ref r = 1; r < p->nvals; r++) {
        Value *v = &p->vals[r];
        if (!v->owned || v->row_local || v->adopts || v->late || p->is_output[r] || buffer_moves(p, r, moved) ||
            p->stmts[v->stmt].kind != ST_ASSIGN)
            continue;
        bool fixed = ir_data_axis(p, &v->shape) < 0;
        for (int i = 0; fixed && i < p->nloops; i++)       /* outer loops first */
            if (p->loops[i].first < v->stmt && v->stmt < p->loops[i].last) {
                v->hoist = i + 1;
                break;
            }
    }
}

/* Does carry c take over its value before the loop (a buffer, NULL while
 * the name has none) rather than copy it, or is it a C scalar, copied with
 * the flag that says whether it has a value? Then the name may stay unbound
 * into the loop, read (and checked) only where the loop reads it: a loop
 * that runs zero times never does (NumPy reads nothing). */
static bool carries_unbound(const Program *p, const Value *c)
{
    return p->stmts[c->stmt].kind == ST_CARRY && (c->adopts || !has_buffer(p, c));
}

/* Can late value c have no value after its loop: may the loop run zero
 * times (its bounds are not numbers that say it runs), or the one inside
 * it that bound it? A carry that takes over such a value may have none. */
static bool may_be_unbound(const Program *p, Ref c)
{
    const Value *v = &p->vals[c];
    if (carries_unbound(p, v))
        return may_be_unbound(p, v->args[0]);
    if (!v->late)
        return false;
    return !ir_loop_runs(p, &p->loops[v->loop]) || may_be_unbound(p, p->loops[v->loop].next[v->carry]);
}

/* Statement st reads maybe_unbound value c: one check before it, however
 * often it reads c; a statement that reads several checks them in the
 * order the names were first read after their loops (Ref order). */
static void add_bound_check(Program *p, IrStmt *st, Ref c)
{
    int i = st->nbound_checks;
    while (i > 0 && st->bound_checks[i - 1] > c)
        i--;
    if (i > 0 && st->bound_checks[i - 1] == c)
        return;
    st->bound_checks = arena_grow(p->arena, st->bound_checks, &st->capbound_checks, st->nbound_checks + 1, sizeof(Ref));
    memmove(&st->bound_checks[i + 1], &st->bound_checks[i], sizeof(Ref) * (size_t)(st->nbound_checks - i));
    st->bound_checks[i] = c;
    st->nbound_checks++;
}

/* A name bound only inside a loop has no value after it when the loop ran
 * zero times, and reading it then is Python's NameError: each statement
 * that reads one that may be so checks first (the outputs too). A late
 * value the loop around carries out reads it unchecked: its flag follows
 * the inner one's. */
static void plan_bound_checks(Program *p)
{
    bool *named = arena_alloc(p->arena, (size_t)p->nvals);
    for (int s = 0; s < p->nstmts; s++)
        for (int i = 0; i < p->stmts[s].nnamed_late; i++)
            named[p->stmts[s].named_late[i]] = true;
    for (Ref c = 1; c < p->nvals; c++)
        p->vals[c].maybe_unbound = may_be_unbound(p, c) && (p->vals[c].uses || p->is_output[c] || named[c]);
    for (Ref r = 1; r < p->nvals; r++) {
        const Value *v = &p->vals[r];
        for (int i = 0; i < v->nargs && !v->late && !carries_unbound(p, v); i++)
            if (p->vals[v->args[i]].maybe_unbound)
                add_bound_check(p, &p->stmts[v->stmt], v->args[i]);
    }
    for (int s = 0; s < p->nstmts; s++)
        for (int i = 0; i < p->stmts[s].nnamed_late; i++)
            if (p->vals[p->stmts[s].named_late[i]].maybe_unbound)
                add_bound_check(p, &p->stmts[s], p->stmts[s].named_late[i]);
}

void ir_schedule(Program *p)
{
    p->is_output = arena_alloc(p->arena, (size_t)p->nvals);
    for (int j = 0; j < p->noutputs; j++)
        if (p->output_vals[j])
            p->is_output[p->output_vals[j]] = true;
    bool *moved = arena_alloc(p->arena, (size_t)p->nvals);
    find_last_uses(p);
    int *read = arena_alloc(p->arena, sizeof(int) * (size_t)p->nvals);
    for (Ref r = 1; r < p->nvals; r++)
        read[r] = p->vals[r].last_stmt;
    live_through_loops(p, moved);
    schedule_rows(p);
    schedule_finishes(p);
    name_values(p);
    for (Ref r = 1; r < p->nvals; r++) {
        Value *v = &p->vals[r];
        v->owned = v->materialize && v->kind != IR_INPUT && !v->finish && has_buffer(p, v);
    }
    adopt_entries(p, moved, read);
    adopt_updates(p, moved, read);
    plan_bound_checks(p);
    hoist_buffers(p, moved);
    for (Ref r = 1; r < p->nvals; r++) {
        Value *v = &p->vals[r];
        if (!v->owned || p->is_output[r] || moved[r])
            continue;
        IrStmt *st = &p->stmts[v->hoist ? p->loops[v->hoist - 1].last : v->last_stmt];
        st->frees = arena_grow(p->arena, st->frees, &st->capfrees, st->nfrees + 1, sizeof(Ref));
        st->frees[st->nfrees++] = r;
    }
}
