/* finish.c: a reduction whose one reader is elementwise, with the
 * reduction's shape, computes that reader in its own loop as each result is
 * final, and stores it instead of the result: np.sqrt((v * v).sum(axis=-1))
 * stores each square root where the sums were stored whole and read again
 * in a second pass. Part of ir_schedule, after the row groups. */
#include "ir.h"

/* Can reduction r's results stay in its loop: read by nothing else (not
 * named, not an output)? Kept as an axis of one (keepdims) and in a row group
 * too: x / np.sqrt((x ** 2).sum(axis=1, keepdims=True)) stores each row's
 * root from the sum's loop; not where the group keeps a row of results in a
 * buffer of its own (row_local: t.sum(axis=1, keepdims=True) of a 3-D t, its
 * row a vector). Reduced to one number (not kept as [1, 1]), only on a
 * GPU, where its reader was a kernel launch of its own (np.sqrt(e.mean()));
 * a C program computes that number's reader in a local. */
static bool may_finish(const Program *p, Ref r)
{
    const Value *v = &p->vals[r];
    if (v->kind != IR_REDUCE)
        return false;
    bool whole = v->axes == (1u << p->vals[v->args[0]].shape.ndim) - 1;   /* x.sum(), or kept as [1, 1] */
    return p->opt && v->materialize && v->uses == 1 && (!whole || (p->cuda && !v->keepdims)) &&
           !p->is_output[r] && p->stmts[v->stmt].value != r && !v->row_local;
}

/* The stored value of r's statement that reads each of r's results once,
 * at its own element, through values computed inline, each read once and
 * elementwise with r's shape (no broadcast); else 0. */
static Ref element_reader(const Program *p, Ref r)
{
    const Value *v = &p->vals[r];
    Ref u = r;
    do {
        if (p->vals[u].uses != 1)
            return 0;
        u = p->vals[u].user;
        const Value *w = &p->vals[u];
        if ((w->kind != IR_UFUNC && w->kind != IR_CAST) || w->stmt != v->stmt || !shape_equal(&w->shape, &v->shape))
            return 0;
    } while (!p->vals[u].materialize);
    return u;
}

void schedule_finishes(Program *p)
{
    for (Ref r = 1; r < p->nvals; r++) {
        Ref reader = may_finish(p, r) ? element_reader(p, r) : 0;
        if (reader && !p->vals[reader].finishes) {   /* (x.sum(1) * x.max(1): the first; the other is stored) */
            p->vals[r].finish = reader;
            p->vals[reader].finishes = r;
        }
    }
}
