/* explain.c: --explain, per source line: its dtype and shape, the loops it
 * became, what was fused into them, the GEMM calls and what they read, the
 * temporaries that remain, the lines that run row by row in one loop, and
 * (CUDA) every time the host waits for the device. */
#include "ir.h"

/* The operations computed inline inside value r's loop, each once (seen). */
static void list_fused(FILE *out, Program *p, Ref r, int *count, bool *seen)
{
    const Value *v = V(p, r);
    for (int i = 0; i < v->nargs; i++) {
        const Value *a = V(p, v->args[i]);
        if (a->materialize || !ir_op_name(a) || seen[v->args[i]])
            continue;
        seen[v->args[i]] = true;
        fprintf(out, "%s%s", (*count)++ ? ", " : " (fused: ", ir_op_name(a));
        list_fused(out, p, v->args[i], count, seen);
    }
}

/* What a reduction's loop computes from each result as it stores it. */
static void explain_finish(FILE *out, Program *p, Ref reader)
{
    int count = 1;
    fprintf(out, ", then from each result: %s", ir_op_name(V(p, reader)));
    list_fused(out, p, reader, &count, arena_alloc(p->arena, (size_t)p->nvals));
    fprintf(out, " (the results themselves are not stored)");
}

/* CUDA: where the host waits for the device. */
static void explain_syncs(FILE *out, Program *p, int s)
{
    for (Ref r = 1; r < p->nvals; r++)
        if (p->vals[r].stmt == s && ir_sized_by_data(&p->vals[r]) && p->vals[r].materialize)
            fprintf(out, "    sync: the host reads %s to size %s\n", p->vals[r].kind == IR_BINCOUNT ?
                    "the largest value (and any device error)" : "how many elements the mask selects",
                    p->vals[r].cname);
    if (p->stmts[s].kind == ST_INPUT)
        fprintf(out, "    copied to the device once, before the first kernel\n");
}

static void explain_end(FILE *out, Program *p)
{
    fprintf(out, "%s: end: one sync (device errors are checked), then the outputs come back:", p->source);
    for (int j = 0; j < p->noutputs; j++)
        fprintf(out, "%s %s", j ? "," : "", p->outputs[j]);
    fprintf(out, "\n    (--trace also copies each named value back after its statement)\n");
    if (ir_host_reads_device(p))
        fprintf(out, "%s: --bench: every timed run launches the kernels again (a sync inside the computation "
                     "keeps it from being a CUDA graph)\n", p->source);
    else
        fprintf(out, "%s: --bench: the computation is captured once as a CUDA graph, then each timed run is "
                     "one launch of it\n", p->source);
}

/* A loop: how often its lines run, the names it carries, and the
 * temporaries whose buffers its iterations share. */
static void explain_loop(FILE *out, Program *p, const IrStmt *st)
{
    const Loop *lp = &p->loops[st->loop];
    int last = st->line;
    for (int s = lp->first + 1; s < lp->last; s++)
        last = p->stmts[s].line > last ? p->stmts[s].line : last;
    const char *lines = last > st->line + 1 ? arena_printf(p->arena, "lines %d-%d", st->line + 1, last)
                                            : arena_printf(p->arena, "line %d", last);
    fprintf(out, "%s:%d: %s\n    loop: %s run%s once for each value of %s\n", p->source, st->line, st->text, lines,
            last > st->line + 1 ? "" : "s", st->name);
    for (int k = 0; k < lp->ncarries; k++) {
        const Value *c = V(p, lp->carry[k]);
        const char *start = lp->late[k] ? "bound in the loop, read after it"
                            : c->adopts ? "its buffer before the loop taken over (nothing else reads it)"
                                        : "copied once before the loop";
        fprintf(out, "    carried: %s %s, %s; each iteration's new %s takes its place (no copy)\n", lp->name[k],
                shape_str(p, &c->shape, c->dtype, c->weak), start, lp->name[k]);
    }
    const char *shared = NULL;
    for (Ref r = 1; r < p->nvals; r++)
        if (V(p, r)->hoist == st->loop + 1)
            shared = arena_printf(p->arena, "%s%s%s", shared ? shared : "", shared ? ", " : "", V(p, r)->cname);
    if (shared)
        fprintf(out, "    allocated once before the loop, for all its iterations: %s\n", shared);
}

/* An element assignment: where it writes its box of new elements. */
static void explain_update(FILE *out, Program *p, const Value *u, const char *name)
{
    const Value *box = V(p, u->args[1]);
    const char *shape = shape_str(p, &box->shape, box->dtype, false);
    const char *what = box->shape.ndim ? arena_printf(p->arena, "the %s elements", shape) : "the one element";
    const char *order = !ir_scatter_axes(p, u) ? ""
                        : p->cuda && ir_ufunc_at_atomic(u)
                            ? (u->ufunc == UF_add || u->ufunc == UF_subtract
                                   ? ", each value added by atomicAdd (a repeated position adds again; floats in any order)"
                                   : arena_printf(p->arena, ", each value combined by %s (a repeated position again: "
                                                  "the %s in any order)", ir_ufunc_at_atomic(u),
                                                  u->ufunc == UF_maximum ? "largest" : "smallest"))
                        : u->ufunc_at ? arena_printf(p->arena, ", in the positions' order, each value combined by %s "
                                                     "(a repeated position again)", ufunc_info[u->ufunc].name)
                        : p->cuda && ir_same_along(p, u->args[1], ir_scatter_axes(p, u))
                            ? ", in any order (a repeated position gets the same value each time)"
                        : p->cuda ? ", a repeated position's last value (a kernel before marks which element that is)"
                                  : ", in the positions' order (a repeated position keeps its last value)";
    fprintf(out, "    writes only %s selected, %s%s\n", what,
            u->adopts ? arena_printf(p->arena, "in place in %s's buffer (nothing reads the old %s after)", name, name)
                      : arena_printf(p->arena, "into a copy of %s (an input, or read again after)", name),
            order);
}

/* How the C target orders value r's loops, when not as its axes come */
static const char *loop_order(Program *p, Ref r)
{
    if (p->cuda) {
        const Value *v = V(p, r);
        if (ir_scan_by_blocks(p, v))
            return ", a block along each lane, a tile at a time; when the lanes are too few to fill the GPU, "
                   "blocks share each one, starting from the totals of the shares before theirs";
        int k = v->kind != IR_REDUCE ? ir_tiled_axis(p, r) : -1;
        if (k >= 0 && ir_tile_fills(v->shape.d, v->shape.ndim, k))
            return arena_printf(p->arena, ", a block a tile of %d x %d at a time: it reads an array across its rows",
                                NPX_TILE, NPX_TILE);
        if (v->kind == IR_CUMSUM)
            return ", a thread along each lane";
        if (v->kind != IR_REDUCE || p->stmts[v->stmt].group)
            return "";
        if (ir_thread_per_result(p, r))
            return ", a thread per result: each has a few elements, which it folds in order";
        return arena_printf(p->arena, "%s; when the results are too few to fill the GPU, blocks share each one's "
                            "elements and a second kernel combines their parts",
                            ir_warp_across_results(p, r) ? ", a warp across 32 results, a thread down each"
                                                         : ", a block per result");
    }
    if (ir_tiled_axis(p, r) >= 0)
        return arena_printf(p->arena, ", in tiles of %d x %d: it reads an array across its rows", NPX_TILE, NPX_TILE);
    if (ir_row_blocks(p, r))
        return ", 8 rows at a time: each thread folds its rows into its own accumulators";
    if (ir_swapped_axis(p, r) >= 0)
        return ", its loops swapped: it reads its arrays along their rows";
    return "";
}

/* A matrix product that is GEMM calls (ir_gemm): the function, how it reads
 * each operand where it is stored, and the factor folded into it (alpha). */
static void explain_gemm(FILE *out, Program *p, Ref r, const IrGemmOperand g[2])
{
    const Value *v = V(p, r);
    bool f32 = v->dtype == NPX_F32, stack = matmul_stack_ndim(p, v) > 0, gram = !p->cuda && ir_gemm_gram(g);
    if (p->cuda)
        fprintf(out, "cublas%sgemm%s(", f32 ? "S" : "D", stack ? "StridedBatched" : "");
    else if (p->blas && gram)
        fprintf(out, "cblas_%ssyrk(", f32 ? "s" : "d");
    else if (p->blas)
        fprintf(out, "cblas_%sgemm(", f32 ? "s" : "d");
    else
        fprintf(out, "npx_gemm_%s(", dtype_name(v->dtype));
    for (int side = 0; side < (p->blas && gram ? 1 : 2); side++) {
        const IrGemmOperand *o = &g[side];
        fprintf(out, "%s%s%s%s", side ? ", " : "", o->block ? "a block of " : "", V(p, o->stored)->cname,
                o->block ? " in place" : o->transposed ? " transposed" : "");
        if (o->block && o->transposed)
            fprintf(out, ", transposed");
    }
    fprintf(out, ")%s", stack && !p->cuda ? " once for each matrix of the stack" : "");
    if (v->scale != 1)
        fprintf(out, ", times %.9g in the call", v->scale);
    if (gram)
        fprintf(out, ", %s", p->blas ? "its upper triangle, the lower one copied from it"
                                    : "when large the tiles on and above the diagonal, the rest copied from them");
}

void ir_explain(FILE *out, Program *p)
{
    for (int s = 0; s < p->nstmts; s++) {
        const IrStmt *st = &p->stmts[s];
        const Value *sv = V(p, st->value);
        if (st->kind == ST_FOR)
            explain_loop(out, p, st);
        if (st->kind == ST_FOR || st->kind == ST_END || st->kind == ST_CARRY)
            continue;
        const RowGroup *g = st->group ? &p->groups[st->group] : NULL;
        if (g && g->first == s) {
            int last = p->stmts[g->last].line;
            fprintf(out, "%s:%d%s: row by row: one %s runs %s on each of the %s rows while it is in cache\n",
                    p->source, st->line, last != st->line ? arena_printf(p->arena, "-%d", last) : "",
                    p->cuda ? "kernel, a block per row," : "loop over the rows", g->first == g->last ? "the line" :
                    "these lines", dim_str(p, g->rows));
        }
        fprintf(out, "%s:%d: %s\n    %s: %s\n", p->source, st->line, st->text, st->name,
                shape_str(p, &sv->shape, sv->dtype, sv->weak));
        for (Ref r = 1; r < p->nvals; r++) {
            const Value *v = V(p, r);
            if (v->stmt != s || !v->materialize || v->kind == IR_INPUT || !ir_op_name(v) || v->finishes)
                continue;
            int count = 0;
            IrGemmOperand g[2];
            bool gemm = ir_gemm(p, r, g);
            Ref into = ir_stored_value(p, r);
            const Value *w = V(p, into);
            fprintf(out, "    %s: %s -> %s %s%s", gemm ? "call" : p->cuda ? "kernel" : "loop", ir_op_name(v),
                    w->cname, shape_str(p, &w->shape, w->dtype, false), into == st->value ? "" : " (temporary)");
            if (gemm) {
                fprintf(out, ": ");
                explain_gemm(out, p, r, g);
            } else
                list_fused(out, p, r, &count, arena_alloc(p->arena, (size_t)p->nvals));
            fprintf(out, "%s%s%s", count ? ")" : "", v->row_local ? " (one row at a time)" : "", loop_order(p, r));
            if (v->finish)
                explain_finish(out, p, v->finish);
            fprintf(out, "\n");
            if (v->kind == IR_UPDATE)
                explain_update(out, p, v, st->name);
        }
        if (p->cuda)
            explain_syncs(out, p, s);
    }
    if (p->cuda)
        explain_end(out, p);
}
