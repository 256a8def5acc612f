/* fuse.c: decides which values get their own variable or buffer
 * ("materialized") and which are computed inline, inside the loop of their
 * one user. Elementwise work feeding elementwise work or a reduction is fused
 * into that loop (and into a cumsum's); -O0 gives every operation its own loop. Views (transpose,
 * broadcast, new axes, indexing, take, reshape), aranges and scalars known in advance need
 * no storage; what a reshape, a sort or a mask reads is stored, in C order. */
#include "ir.h"

static bool is_elementwise(const Value *v) { return v->kind == IR_UFUNC || v->kind == IR_CAST; }

/* A value is live when it is named or a live value reads it (arguments
 * come before their users). What lowering built and nothing needs (x[m] = 0
 * reads x[m] for its shape and checks only) is not. */
static bool *mark_live(Program *p, const bool *named)
{
    bool *live = arena_alloc(p->arena, (size_t)p->nvals);
    for (Ref r = p->nvals - 1; r >= 1; r--) {
        live[r] |= named[r];
        for (int i = 0; live[r] && i < p->vals[r].nargs; i++)
            live[p->vals[r].args[i]] = true;
    }
    return live;
}

/* how many live values read each value, and which one when it is one */
static void count_uses(Program *p, const bool *live)
{
    for (Ref r = 1; r < p->nvals; r++) {
        p->vals[r].uses = 0;
        p->vals[r].user = 0;
    }
    for (Ref r = 1; r < p->nvals; r++)
        for (int i = 0; live[r] && i < p->vals[r].nargs; i++) {
            Value *a = &p->vals[p->vals[r].args[i]];
            if (a->uses++ == 0)
                a->user = r;
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

/* The GEMM reads its operands where they are stored, each matrix possibly
 * transposed: the views a float product reads otherwise (x[1:] @ W) are
 * stored first, a copy of O(n^2) instead of O(n^3) loops reading through
 * them. Marks them in *gemm_read. */
static void mark_gemm_operands(const Program *p, bool *gemm_read)
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
            if (is_view(&p->vals[a]))
                gemm_read[a] = true;
        }
    }
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
    bool *live = mark_live(p, named);
    for (Ref r = 1; r < p->nvals; r++) {          /* (a sort reads a reshape where its operand is stored) */
        const Value *v = &p->vals[r];
        if (!live[r])
            continue;
        if (v->kind == IR_RESHAPE || (v->kind == IR_SORT && p->vals[v->args[0]].kind != IR_RESHAPE))
            in_order[v->args[0]] = true;
        if (v->kind == IR_COMPRESS)
            in_order[v->args[0]] = in_order[v->args[1]] = true;
    }
    count_uses(p, live);
    fold_scales(p, named);
    count_uses(p, live);
    bool *gemm_read = arena_alloc(p->arena, (size_t)p->nvals);
    if (p->opt)
        mark_gemm_operands(p, gemm_read);
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
            v->materialize = named[r] || in_order[r] || gemm_read[r];
            break;
        case IR_ARANGE:                          /* computed from the index where it is read */
            v->materialize = named[r] || in_order[r] || gemm_read[r] || !p->opt;
            break;
        case IR_UFUNC:
        case IR_CAST: {
            const Value *user = v->uses == 1 ? &p->vals[v->user] : NULL;
            bool fusable = user && (is_elementwise(user) || user->kind == IR_REDUCE || user->kind == IR_CUMSUM);
            v->materialize = named[r] || !p->opt || !fusable || in_order[r];
            break;
        }
        default:
            v->materialize = true;
        }
    }
}
