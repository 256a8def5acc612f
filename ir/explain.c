/* explain.c: --explain, per source line: its dtype and shape, the loops it
 * became, what was fused into them, and the temporaries that remain. */
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
            fprintf(out, "%s\n", count ? ")" : "");
        }
    }
}
