/* explain.c: --explain, per source line: its dtype and shape, the loops it
 * became, what was fused into them, and the temporaries that remain. */
#include "ir.h"

static const char *what(const Value *v)
{
    switch (v->kind) {
    case IR_UFUNC: return ufunc_info[v->ufunc].name;
    case IR_CAST: return "astype";
    case IR_REDUCE: return reduction_name[v->red];
    case IR_MATMUL: return "matmul";
    case IR_ARANGE: return "arange";
    case IR_BINCOUNT: return "bincount";
    case IR_BROADCAST: return "broadcast";
    case IR_TRANSPOSE: return "transpose";
    case IR_EXPAND: return "newaxis";
    default: return NULL;
    }
}

/* The operations computed inline inside value r's loop. */
static void list_fused(FILE *out, Program *p, Ref r, int *count)
{
    const Value *v = V(p, r);
    for (int i = 0; i < v->nargs; i++) {
        const Value *a = V(p, v->args[i]);
        if (a->materialize || !what(a))
            continue;
        fprintf(out, "%s%s", (*count)++ ? ", " : " (fused: ", what(a));
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
            if (v->stmt != s || !v->materialize || v->kind == IR_INPUT || !what(v))
                continue;
            int count = 0;
            fprintf(out, "    loop: %s -> %s %s%s", what(v), v->cname, shape_str(p, &v->shape, v->dtype, false),
                    r == st->value ? "" : " (temporary)");
            list_fused(out, p, r, &count);
            fprintf(out, "%s\n", count ? ")" : "");
        }
    }
}
