/* fuse.c: decides which values get their own variable or buffer
 * ("materialized") and which are computed inline, inside the loop of their
 * one user. Elementwise work feeding elementwise work or a reduction is fused
 * into that loop; -O0 gives every operation its own loop. Views (transpose,
 * broadcast, new axes) and scalars known in advance need no storage. */
#include "ir.h"

static bool is_elementwise(const Value *v) { return v->kind == IR_UFUNC || v->kind == IR_CAST; }

static void count_uses(Program *p)
{
    for (Ref r = 1; r < p->nvals; r++) {
        p->vals[r].uses = 0;
        p->vals[r].user = 0;
    }
    for (Ref r = 1; r < p->nvals; r++)
        for (int i = 0; i < p->vals[r].nargs; i++) {
            Value *a = &p->vals[p->vals[r].args[i]];
            if (a->uses++ == 0)
                a->user = r;
        }
}

void ir_fuse(Program *p)
{
    count_uses(p);
    bool *named = arena_alloc(p->arena, (size_t)p->nvals);
    for (int s = 0; s < p->nstmts; s++)
        named[p->stmts[s].value] = true;
    for (Ref r = 1; r < p->nvals; r++) {
        Value *v = &p->vals[r];
        switch (v->kind) {
        case IR_LITERAL:
        case IR_DIMVAL:
        case IR_BROADCAST:
        case IR_TRANSPOSE:
        case IR_EXPAND:
            v->materialize = named[r];
            break;
        case IR_UFUNC:
        case IR_CAST: {
            const Value *user = v->uses == 1 ? &p->vals[v->user] : NULL;
            bool fusable = user && (is_elementwise(user) || user->kind == IR_REDUCE);
            v->materialize = named[r] || !p->opt || !fusable;
            break;
        }
        default:
            v->materialize = true;
        }
    }
}
