/* rows.c: row groups. A run of statements that all work on the same rows
 * (softmax: a row's maximum, exp of the row minus it, the row's sum, the row
 * divided by it) runs as one loop over the rows, so that each row is read
 * from memory once and passes through every statement while it is in cache.
 * A temporary that no one reads outside the group (e in softmax) is then
 * never stored whole: each thread (on a GPU, each block, in shared memory)
 * keeps the row it works on. On a GPU the group is one kernel, a block per
 * row. Part of ir_schedule, which has found each value's last reader. */
#include "ir.h"

/* Does value r read the values stored by statements first.. only in its own
 * row? `aligned`: r's axis 0 is the row axis. Sets *reuses when it reads
 * one at all. */
static bool reads_own_row(const Program *p, Ref r, int first, bool aligned, bool *reuses)
{
    const Value *v = &p->vals[r];
    for (int i = 0; i < v->nargs; i++) {
        const Value *a = &p->vals[v->args[i]];
        bool same_axis0 = a->shape.ndim == v->shape.ndim && a->shape.ndim > 0 && a->shape.d[0] == v->shape.d[0];
        bool al = aligned && (v->kind == IR_REDUCE || ((v->kind == IR_UFUNC || v->kind == IR_CAST) && same_axis0));
        if (a->materialize || a->kind == IR_INPUT) {
            if (a->kind == IR_INPUT || a->stmt < first || a->shape.ndim == 0)
                continue;
            if (!al)
                return false;
            *reuses = true;
        } else if (!reads_own_row(p, v->args[i], first, al, reuses))
            return false;
    }
    return true;
}

/* On a GPU a block of threads shares each row (target_cuda.c): rows are
 * vectors, and a reduction reduces a whole row of a matrix to one value. */
static bool block_row_wise(const Program *p, const Value *v)
{
    if (v->kind != IR_REDUCE)
        return v->shape.ndim <= 2;
    return p->vals[v->args[0]].shape.ndim == 2 && v->axes == 2u && v->red != RED_argmax && v->red != RED_argmin;
}

/* What a group starting at statement `first` has so far. */
typedef struct {
    int first;
    Dim rows;                    /* the length of axis 0 */
    bool reuses;                 /* a value stored in the group is read in it */
    bool wide;                   /* a value has axes after the rows: a row is a loop */
} Scan;

/* May statement s join the group? Updates *g when it may. */
static bool joins(Program *p, int s, Scan *g)
{
    Scan next = *g;
    if (p->stmts[s].kind != ST_ASSIGN)
        return false;
    for (Ref r = 1; r < p->nvals; r++) {
        const Value *v = &p->vals[r];
        if (!ir_stores(p, s, r))
            continue;
        bool row_wise = v->kind == IR_UFUNC || v->kind == IR_CAST || (v->kind == IR_REDUCE && !(v->axes & 1));
        if (p->cuda && !block_row_wise(p, v))
            return false;
        if (!row_wise || v->shape.ndim == 0 || v->shape.d[0] != g->rows || ir_reads_across_rows(p, r) ||
            !reads_own_row(p, r, g->first, true, &next.reuses))
            return false;
        next.wide |= v->shape.ndim > 1;
    }
    *g = next;
    return true;
}

/* A value whose rows are longer than one element, stored inside group g and
 * read nowhere after it, needs only the row being computed (on the GPU: in
 * the block's shared memory). */
static void mark_row_local(Program *p, const RowGroup *g)
{
    for (Ref r = 1; r < p->nvals; r++) {
        Value *v = &p->vals[r];
        if (!group_holds(g, v) || !ir_stores(p, v->stmt, r) || p->is_output[r] ||
            v->last_stmt > g->last || v->shape.ndim < 2)
            continue;
        for (int k = 1; k < v->shape.ndim; k++)
            v->row_local |= v->shape.d[k] != 1;
    }
}

static void add_group(Program *p, int first, int last, Dim rows)
{
    p->groups = arena_grow(p->arena, p->groups, &p->capgroups, p->ngroups + 1, sizeof(RowGroup));
    if (p->ngroups == 0)
        p->ngroups = 1;                          /* groups[0] means "none" */
    RowGroup *g = &p->groups[p->ngroups];
    *g = (RowGroup){ first, last, rows };
    for (int s = first; s <= last; s++)
        p->stmts[s].group = p->ngroups;
    p->ngroups++;
    mark_row_local(p, g);
}

void schedule_rows(Program *p)
{
    if (!p->opt)
        return;
    for (int first = 0; first < p->nstmts;) {
        const Value *sv = &p->vals[p->stmts[first].value];
        Scan g = { first, sv->shape.ndim ? sv->shape.d[0] : 0, false, false };
        if (sv->shape.ndim == 0 || !joins(p, first, &g)) {
            first++;
            continue;
        }
        int last = first;
        while (last + 1 < p->nstmts && joins(p, last + 1, &g))
            last++;
        /* worth a group when something stored in it is read again in it, a
         * row at a time: a loop the compiler vectorizes (one that stores
         * single elements of many arrays defeats its alias checks) */
        if (g.reuses && g.wide)
            add_group(p, first, last, g.rows);
        first = last + 1;
    }
}
