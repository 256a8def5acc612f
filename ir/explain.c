/* explain.c: --explain, per source line: its dtype and shape, the loops it
 * became, what was fused into them, the temporaries that remain, and the
 * lines that run row by row in one loop. */
#include "ir.h"

/* The operations computed inline inside value r's loop. */
static void list_fused(FILE *out, Program *p, Ref r, int *count)
{
    const Value *v = V(p, r);
    for (int i = 0; i < v->nargs; i++) {
        const Value *a = V(p, v->args[i]);
        if (a->materialize || !ir_op_name(a))
            continue;
        fprintf(out, "%s%s", (*count)++ ? ", " : " (fused: ", ir_op_name(a));
        list_fused(out, p, v->args[i], count);
    }
}

void ir_explain(FILE *out, Program *p)
{
    for (int s = 0; s < p->nstmts; s++) {
        const IrStmt *st = &p->stmts[s];
        const Value *sv = V(p, st->value);
        const RowGroup *g = st->group ? &p->groups[st->group] : NULL;
        if (g && g->first == s)
            fprintf(out, "%s:%d-%d: row by row: one loop over the %s rows runs these lines on each row while it is "
                         "in cache\n", p->source, st->line, p->stmts[g->last].line, dim_str(p, g->rows));
        fprintf(out, "%s:%d: %s\n    %s: %s\n", p->source, st->line, st->text, st->name,
                shape_str(p, &sv->shape, sv->dtype, sv->weak));
        for (Ref r = 1; r < p->nvals; r++) {
            const Value *v = V(p, r);
            if (v->stmt != s || !v->materialize || v->kind == IR_INPUT || !ir_op_name(v))
                continue;
            int count = 0;
            fprintf(out, "    loop: %s -> %s %s%s", ir_op_name(v), v->cname, shape_str(p, &v->shape, v->dtype, false),
                    r == st->value ? "" : " (temporary)");
            list_fused(out, p, r, &count);
            fprintf(out, "%s%s\n", count ? ")" : "", v->row_local ? " (one row at a time)" : "");
        }
    }
}
