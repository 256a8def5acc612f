/* verify.c: checks the IR's invariants between passes; a failure is a bug in
 * npxc, reported as an internal error. */
#include <stdlib.h>
#include "ir.h"

static bool fail(Program *p, Ref r, const char *after, const char *what)
{
    fprintf(stderr, "npxc: internal error after %s: value %%%d: %s\n", after, r, what);
    (void)p;
    return false;
}

bool ir_verify(Program *p, const char *after)
{
    for (Ref r = 1; r < p->nvals; r++) {
        const Value *v = &p->vals[r];
        if (v->dtype >= NPX_NDTYPES)
            return fail(p, r, after, "bad dtype");
        if (v->shape.ndim < 0 || v->shape.ndim > NPX_MAX_RANK)
            return fail(p, r, after, "bad rank");
        for (int i = 0; i < v->nargs; i++)
            if (v->args[i] <= 0 || v->args[i] >= r)
                return fail(p, r, after, "operand does not come before its user");
        if (v->stmt < 0 || v->stmt >= p->nstmts)
            return fail(p, r, after, "value outside any statement");
    }
    for (int s = 0; s < p->nstmts; s++) {
        const IrStmt *st = &p->stmts[s];
        bool loop = st->kind == ST_FOR || st->kind == ST_END;
        if (loop ? st->value != 0 : st->value <= 0 || st->value >= p->nvals)
            return fail(p, 0, after, loop ? "a loop statement with a value" : "statement without a value");
    }
    for (int i = 0; i < p->nloops; i++) {
        const Loop *lp = &p->loops[i];
        for (int k = 0; k < lp->ncarries; k++)
            if (lp->next[k] && (p->vals[lp->next[k]].stmt <= lp->first || p->vals[lp->next[k]].stmt >= lp->last))
                return fail(p, lp->next[k], after, "a carried value not made in its loop");
    }
    return true;
}
