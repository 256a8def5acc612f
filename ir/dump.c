/* dump.c: prints the IR for people: --dump-ir after each pass, and --shapes. */
#include "ir.h"

static const char *const kind_name[] = {
    [IR_INPUT] = "input", [IR_LITERAL] = "literal", [IR_DIMVAL] = "size", [IR_UFUNC] = "ufunc",
    [IR_CAST] = "astype", [IR_BROADCAST] = "broadcast", [IR_TRANSPOSE] = "transpose",
    [IR_EXPAND] = "newaxis", [IR_REDUCE] = "reduce", [IR_MATMUL] = "matmul", [IR_ARANGE] = "arange",
    [IR_BINCOUNT] = "bincount", [IR_COMPRESS] = "compress", [IR_INDEX] = "index", [IR_RESHAPE] = "reshape", [IR_CONCAT] = "concatenate", [IR_CUMSUM] = "cumsum", [IR_SORT] = "sort",
    [IR_TAKE] = "take", [IR_UPDATE] = "setitem", [IR_SEARCH] = "searchsorted", [IR_INTERP] = "interp",
};

static void dump_axis_index(FILE *out, Program *p, const char *sep, const AxisIndex *x)
{
    fprintf(out, "%s", sep);
    if (x->single && x->from) {
        fprintf(out, "%%%d", x->from);
        return;
    }
    if (x->single) {
        fprintf(out, "%lld", (long long)x->start);
        return;
    }
    if (x->from && p->vals[x->from].shape.ndim > 0) {   /* positions, one per element of the array */
        fprintf(out, "at %%%d", x->from);
        return;
    }
    if (x->from) {
        fprintf(out, "%%%d:+%s", x->from, dim_str(p, x->len));
        return;
    }
    if (x->start != NPX_NO_BOUND)
        fprintf(out, "%lld", (long long)x->start);
    fprintf(out, ":");
    if (x->stop != NPX_NO_BOUND)
        fprintf(out, "%lld", (long long)x->stop);
    if (x->step != 1)
        fprintf(out, ":%lld", (long long)x->step);
}

static void dump_value(FILE *out, Program *p, Ref r)
{
    const Value *v = V(p, r);
    fprintf(out, "    %%%d = %s", r, kind_name[v->kind]);
    switch (v->kind) {
    case IR_UFUNC: fprintf(out, " %s(in %s)", ufunc_info[v->ufunc].name, dtype_name(v->compute)); break;
    case IR_REDUCE:
        fprintf(out, " %s axes=0x%x%s", reduction_name[v->red], v->axes, v->keepdims ? " keepdims" : "");
        break;
    case IR_LITERAL:
        if (dtype_is_float(v->dtype))
            fprintf(out, " %.17g", v->fval);
        else
            fprintf(out, " %lld", (long long)v->ival);
        break;
    case IR_INPUT: fprintf(out, " %s", p->inputs[v->index].name); break;
    case IR_TRANSPOSE:
        fprintf(out, " perm=(");
        for (int k = 0; k < v->shape.ndim; k++)
            fprintf(out, "%s%d", k ? "," : "", v->perm[k]);
        fprintf(out, ")");
        break;
    case IR_BINCOUNT: fprintf(out, v->binned ? " bins=%s" : " minlength=%s", dim_str(p, v->ival)); break;
    case IR_CONCAT:
    case IR_TAKE: fprintf(out, " axis=%lld", (long long)v->ival); break;
    case IR_CUMSUM: fprintf(out, " %s axis=%lld", reduction_name[v->red], (long long)v->ival); break;
    case IR_SORT: fprintf(out, " axis=%lld%s", (long long)v->ival, v->positions ? " positions" : ""); break;
    case IR_SEARCH: fprintf(out, " side=%s", v->ival ? "right" : "left"); break;
    case IR_INDEX:
    case IR_UPDATE:
        fprintf(out, " [");
        for (int k = 0; k < p->vals[v->args[0]].shape.ndim; k++)
            dump_axis_index(out, p, k ? ", " : "", &v->sel[k]);
        fprintf(out, "]");
        if (v->ufunc_at)
            fprintf(out, " %s.at(in %s)", ufunc_info[v->ufunc].name, dtype_name(v->compute));
        break;
    case IR_MATMUL:
        if (v->scale != 1)
            fprintf(out, " scale=%.17g", v->scale);
        break;
    default: break;
    }
    for (int i = 0; i < v->nargs; i++)
        fprintf(out, "%s%%%d", i ? ", " : " ", v->args[i]);
    fprintf(out, " : %s", shape_str(p, &v->shape, v->dtype, v->weak));
    if (v->finish)
        fprintf(out, "  (not stored: its loop computes %%%d from each result)", v->finish);
    else if (v->row_local)
        fprintf(out, "  -> %s (a row at a time: %s)", v->cname, v->row_cname);
    else if (v->cname)
        fprintf(out, "  -> %s", v->cname);
    else if (v->materialize)
        fprintf(out, "  -> stored");
    else if (v->uses)
        fprintf(out, "  (inline)");
    fprintf(out, "\n");
}

/* A run-time check, as the generated code tests it */
static void dump_check(FILE *out, Program *p, const SizeCheck *c)
{
    const char *a = dim_str(p, c->a);
    switch (c->kind) {
    case CHECK_EQUAL: fprintf(out, "    check %s == %s\n", a, dim_str(p, c->b)); break;
    case CHECK_INDEX: fprintf(out, "    check index %lld in an axis of %s\n", (long long)c->b, a); break;
    case CHECK_DIVIDES: fprintf(out, "    check %s divides %s\n", dim_str(p, c->b), a); break;
    case CHECK_UNIT: fprintf(out, "    check %s == 1 or %s == %s\n", a, a, dim_str(p, c->b)); break;
    case CHECK_NONEMPTY: fprintf(out, "    check %s > 0 or %s == 0 (positions taken)\n", a, dim_str(p, c->b)); break;
    case CHECK_WINDOW:
        fprintf(out, "    check %s elements from %%%d in an axis of %s\n", dim_str(p, c->b), c->from, a);
        break;
    case CHECK_POSITION: fprintf(out, "    check position %%%d in an axis of %s\n", c->from, a); break;
    }
}

void ir_dump(FILE *out, Program *p, const char *title)
{
    fprintf(out, "== IR after %s ==\n", title);
    Ref r = 1;
    for (int s = 0; s < p->nstmts; s++) {
        const IrStmt *st = &p->stmts[s];
        const RowGroup *g = st->group ? &p->groups[st->group] : NULL;
        if (g && g->first == s)
            fprintf(out, "rows %s: lines %d-%d\n", dim_str(p, g->rows), st->line, p->stmts[g->last].line);
        fprintf(out, "line %d: %s\n", st->line, st->text);
        for (int c = 0; c < st->nchecks; c++)
            dump_check(out, p, &st->checks[c]);
        for (; r < p->nvals && p->vals[r].stmt <= s; r++)
            dump_value(out, p, r);
        if (st->value)
            fprintf(out, "    %s = %%%d%s\n", st->name, st->value, st->kind == ST_CARRY ? " (carried)" : "");
        const Loop *lp = st->kind == ST_FOR || st->kind == ST_END ? &p->loops[st->loop] : NULL;
        if (lp && st->kind == ST_FOR)
            fprintf(out, "    loop %s in range(%%%d, %%%d, %lld)\n", st->name, lp->start, lp->stop, (long long)lp->step);
        for (int k = 0; lp && st->kind == ST_END && k < lp->ncarries; k++)
            fprintf(out, "    next %%%d = %%%d%s\n", lp->carry[k], lp->next[k], lp->late[k] ? " (bound in the loop)" : "");
        for (int f = 0; f < st->nfrees; f++)
            fprintf(out, "    free %%%d\n", st->frees[f]);
    }
    for (int j = 0; j < p->noutputs; j++)
        fprintf(out, "output %s = %%%d\n", p->outputs[j], p->output_vals[j]);
}

void ir_print_shapes(FILE *out, Program *p)
{
    for (int s = 0; s < p->nstmts; s++) {
        const IrStmt *st = &p->stmts[s];
        const Value *v = V(p, st->value);
        if (st->kind == ST_FOR || st->kind == ST_END)
            continue;
        fprintf(out, "%s:%d: %s: %s%s\n", p->source, st->line, st->name, shape_str(p, &v->shape, v->dtype, v->weak),
                st->kind == ST_INPUT ? " (input)" : st->kind == ST_CARRY ? " (carried by the loop)" : "");
    }
    for (int j = 0; j < p->noutputs; j++) {
        const Value *v = V(p, p->output_vals[j]);
        fprintf(out, "output %s: %s\n", p->outputs[j], shape_str(p, &v->shape, v->dtype, v->weak));
    }
}
