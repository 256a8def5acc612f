/* ir.c: the IR's tables (values, symbols, checks) and how shapes print. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"

const UfuncInfo ufunc_info[UF_COUNT] = {
#define X(name, nin, flags, b, i, f) { #name, nin, flags, b, i, f },
    UFUNCS(X)
#undef X
};

const char *const reduction_name[RED_COUNT] = {
#define X(name) #name,
    REDUCTIONS(X)
#undef X
};

const char *ufunc_template(Ufunc f, npx_dtype compute)
{
    const UfuncInfo *u = &ufunc_info[f];
    return compute == NPX_BOOL ? u->c_bool : dtype_is_int(compute) ? u->c_int : u->c_float;
}

bool ir_checks_element(const Program *p, const Value *v)
{
    for (int i = 1; v->kind == IR_TAKE && !v->within && i < v->nargs; i++)
        if (!ir_host_int(p, v->args[i]))       /* (a position the host knows is checked before) */
            return true;
    const char *c = v->kind == IR_UFUNC ? ufunc_template(v->ufunc, v->compute) : NULL;
    return c && strstr(c, "$l");          /* (npx_pow_checked_$t(st, $l, ...)) */
}

/* The NumPy operation a value computes, or NULL for inputs and constants. */
const char *ir_op_name(const Value *v)
{
    switch (v->kind) {
    case IR_UFUNC: return ufunc_info[v->ufunc].name;
    case IR_CAST: return "astype";
    case IR_REDUCE: return reduction_name[v->red];
    case IR_MATMUL: return "matmul";
    case IR_ARANGE: return "arange";
    case IR_BINCOUNT: return "bincount";
    case IR_COMPRESS: return "compress";
    case IR_BROADCAST: return "broadcast";
    case IR_TRANSPOSE: return "transpose";
    case IR_EXPAND: return "newaxis";
    case IR_INDEX: return "index";
    case IR_RESHAPE: return "reshape";
    case IR_CONCAT: return "concatenate";
    case IR_TAKE: return "take";
    case IR_SEARCH: return "searchsorted";
    case IR_INTERP: return "interp";
    case IR_CUMSUM: return v->red == RED_prod ? "cumprod" : "cumsum";
    case IR_SORT: return v->positions ? "argsort" : "sort";
    case IR_UPDATE: return "setitem";
    default: return NULL;
    }
}

bool ir_loop_runs(const Program *p, const Loop *lp)
{
    const Value *start = &p->vals[lp->start], *stop = &p->vals[lp->stop];
    return start->kind == IR_LITERAL && stop->kind == IR_LITERAL &&
           (lp->step > 0 ? start->ival < stop->ival : start->ival > stop->ival);
}

bool ir_buffer_taken(const Program *p, Ref r, int first, int last)
{
    for (Ref u = r + 1; u < p->nvals; u++) {
        const Value *v = &p->vals[u];
        if (v->adopts && v->args[0] == r && v->stmt > first && v->stmt < last)
            return true;
    }
    return false;
}

bool ir_swaps_matrices(const Value *v)
{
    int n = v->shape.ndim;
    for (int k = 0; k < n - 2; k++)
        if (v->perm[k] != k)
            return false;
    return n >= 2 && v->perm[n - 2] == n - 1 && v->perm[n - 1] == n - 2;
}

bool ir_positions_axis(const Program *p, const AxisIndex *x)
{
    return !x->single && x->from && p->vals[x->from].shape.ndim > 0;
}

bool ir_index_reads_length(const Program *p, const AxisIndex *x)
{
    if (x->from)                                 /* a host integer, or positions npx_take wraps */
        return p->vals[x->from].shape.ndim > 0;
    return !(x->start >= 0 && (x->single || x->step > 0)) && !(x->start == NPX_NO_BOUND && x->step > 0);
}

int ir_first_positions_axis(const Program *p, const AxisIndex *sel, int ndim)
{
    for (int k = 0; k < ndim; k++)
        if (ir_positions_axis(p, &sel[k]))
            return k;
    return -1;
}

Shape ir_positions_shape(const Program *p, const AxisIndex *sel, int ndim)
{
    Shape b = { 0, { 0 } };
    for (int k = 0; k < ndim; k++) {
        if (!ir_positions_axis(p, &sel[k]))
            continue;
        const Shape *s = &p->vals[sel[k].from].shape;
        if (s->ndim > b.ndim) {                  /* right-aligned: new axes in front */
            int more = s->ndim - b.ndim;
            memmove(b.d + more, b.d, sizeof(Dim) * (size_t)b.ndim);
            for (int i = 0; i < more; i++)
                b.d[i] = 1;
            b.ndim = s->ndim;
        }
        for (int i = 0; i < s->ndim; i++)
            if (b.d[b.ndim - s->ndim + i] == 1)
                b.d[b.ndim - s->ndim + i] = s->d[i];
    }
    return b;
}

uint32_t ir_scatter_axes(const Program *p, const Value *u)
{
    int ndim = p->vals[u->args[0]].shape.ndim, n = ir_positions_shape(p, u->sel, ndim).ndim;
    for (int k = 0, j = 0; k < ndim; k++) {
        if (ir_positions_axis(p, &u->sel[k]))
            return ((1u << n) - 1) << j;         /* the first array's place: all of them there */
        j += !u->sel[k].single;                  /* a window, a slice: one axis */
    }
    return 0;
}

bool ir_same_along(const Program *p, Ref r, uint32_t axes)
{
    const Value *v = &p->vals[r];
    for (int k = 0; k < v->shape.ndim; k++)
        if (v->shape.d[k] == 1)
            axes &= ~(1u << k);
    if (!axes)
        return true;
    if (v->kind != IR_UFUNC && v->kind != IR_CAST && v->kind != IR_BROADCAST)
        return false;
    for (int i = 0; i < (v->kind == IR_UFUNC ? v->nargs : 1); i++) {
        int missing = v->shape.ndim - p->vals[v->args[i]].shape.ndim;   /* broadcast: axes in front */
        if (!ir_same_along(p, v->args[i], axes >> missing))
            return false;
    }
    return true;
}

const char *ir_ufunc_at_atomic(const Value *u)
{
    if (!u->ufunc_at || u->dtype == NPX_BOOL || (!dtype_is_float(u->dtype) && dtype_is_float(u->compute)))
        return NULL;                             /* (an int from a float sum truncates it) */
    bool same = u->compute == u->dtype || dtype_is_float(u->dtype);   /* (int64's largest wraps to int32) */
    switch (u->ufunc) {
    case UF_add:
    case UF_subtract: return "atomicAdd";
    case UF_maximum: return same ? "atomicMax" : NULL;
    case UF_minimum: return same ? "atomicMin" : NULL;
    default: return NULL;
    }
}

/* A slice that keeps all of its axis, in order. */
static bool whole(const AxisIndex *x)
{
    return !x->single && !x->from && x->step == 1 && (x->start == NPX_NO_BOUND || x->start == 0) &&
           x->stop == NPX_NO_BOUND;
}

bool ir_contiguous_block(const Program *p, const Value *v)
{
    const Value *a = &p->vals[v->args[0]];
    if (v->kind == IR_TAKE) {                 /* x[t], x[t, u]: positions on the first axes */
        for (int i = 1; i < v->nargs; i++)
            if (!ir_host_int(p, v->args[i]))
                return false;
        return v->ival == 0;
    }
    if (v->kind != IR_INDEX)
        return false;
    int k = 0;
    while (k < a->shape.ndim && v->sel[k].single && !v->sel[k].from)
        k++;                                  /* numbers: one sub-array */
    if (k < a->shape.ndim && !whole(&v->sel[k]) && v->sel[k].step == 1)
        k++;                                  /* a run of it, a slice or a window */
    while (k < a->shape.ndim && whole(&v->sel[k]))
        k++;                                  /* all the rest */
    return k == a->shape.ndim;
}

/* Operand `side` (0: a, 1: b) of matrix product m as a GEMM call reads it:
 * false when it cannot (the operand is computed inline, or a stack broadcast
 * against part of the other), and the product's loops read it instead. */
static bool gemm_operand(const Program *p, Ref m, int side, IrGemmOperand *o)
{
    const Value *prod = &p->vals[m];
    Ref r = prod->args[side];
    const Value *v = &p->vals[r];
    const Shape *s = &v->shape;
    o->transposed = false;
    o->block = 0;
    if (v->kind == IR_TRANSPOSE && !v->materialize && ir_swaps_matrices(v)) {
        o->transposed = true;
        v = &p->vals[r = v->args[0]];
    }
    if (v->kind == IR_RESHAPE && !v->materialize)
        v = &p->vals[r = v->args[0]];        /* stored in C order: the same matrix */
    if (!v->materialize && ir_contiguous_block(p, v) && p->vals[v->args[0]].materialize &&
        !p->vals[v->args[0]].row_local) {
        o->block = r;                         /* one block of it, read where it is */
        v = &p->vals[r = v->args[0]];
    }
    if (!v->materialize)
        return false;
    o->stored = r;
    int nstack = matmul_stack_ndim(p, prod), own = s->ndim >= 2 ? s->ndim - 2 : 0;
    Shape stack = { own, { 0 } };
    memcpy(stack.d, s->d, sizeof(Dim) * own);
    o->per_matrix = shape_size_literal(&stack) != 1;
    /* no stack, or a stack of one: one matrix for all; else the stack's own */
    return !o->per_matrix || (own == nstack && memcmp(stack.d, prod->shape.d, sizeof(Dim) * own) == 0);
}

#define READS_UNKNOWN (1u << NPX_MAX_RANK)   /* an element read that the walk does not follow */

/* The loop axes that index the last axis of the arrays that r's element
 * reads, a bit each (loop_of[a]: the loop axis that indexes r's axis a). */
static unsigned inner_loops(Program *p, Ref r, const int *loop_of, int n, bool define)
{
    const Value *v = V(p, r);
    if (v->shape.ndim != n)
        return 0;                            /* a scalar, or broadcast along loops of its own */
    if ((v->materialize && !define) || v->kind == IR_INPUT)
        return v->shape.d[n - 1] != 1 ? 1u << loop_of[n - 1] : 0;
    if (v->kind == IR_TRANSPOSE) {
        int of[NPX_MAX_RANK];
        for (int a = 0; a < n; a++)
            of[v->perm[a]] = loop_of[a];
        return inner_loops(p, v->args[0], of, n, false);
    }
    if (v->kind != IR_UFUNC && v->kind != IR_CAST)
        return READS_UNKNOWN;
    unsigned loops = 0;
    for (int i = 0; i < v->nargs; i++)
        loops |= inner_loops(p, v->args[i], loop_of, n, false);
    return loops;
}

static unsigned element_inner_loops(Program *p, Ref r, bool define)
{
    int n = V(p, r)->shape.ndim, loop_of[NPX_MAX_RANK];
    for (int a = 0; a < n; a++)
        loop_of[a] = a;
    return n >= 2 ? inner_loops(p, r, loop_of, n, define) : 0;
}

/* The axis of value r whose loop reads an array across its rows (ir.h's
 * ir_tiled_axis), -1: none */
static int read_across(Program *p, Ref r, bool define)
{
    unsigned loops = element_inner_loops(p, r, define);
    for (int k = 0; k < V(p, r)->shape.ndim - 1; k++)
        if (loops >> k & 1)
            return k;
    return -1;
}

/* r reduces all of an element computed in its loop, in any order (not
 * argmax, whose order is its result), outside a row group */
static bool reduces_whole_element(const Program *p, const Value *v)
{
    if (v->kind != IR_REDUCE)
        return false;
    const Value *a = &p->vals[v->args[0]];
    return v->axes == (1u << a->shape.ndim) - 1 && v->red != RED_argmax && v->red != RED_argmin &&
           !a->materialize && !p->stmts[v->stmt].group;
}

int ir_swapped_axis(Program *p, Ref r)
{
    const Value *v = V(p, r);
    if (!reduces_whole_element(p, v))
        return -1;
    unsigned loops = element_inner_loops(p, v->args[0], true);
    for (int k = 0; k < V(p, v->args[0])->shape.ndim - 1; k++)
        if (loops == 1u << k)
            return k;
    return -1;
}

bool ir_reads_across_rows(Program *p, Ref r)
{
    const Value *v = V(p, r);
    Ref element = v->kind == IR_REDUCE ? v->args[0] : r;
    return element_inner_loops(p, element, element == r) & 1;
}

bool ir_row_blocks(Program *p, Ref r)
{
    const Value *v = V(p, r);
    if (v->kind != IR_REDUCE || v->red == RED_argmax || v->red == RED_argmin || V(p, v->args[0])->shape.ndim != 2 ||
        p->stmts[v->stmt].group)
        return false;
    unsigned loops = element_inner_loops(p, v->args[0], false);
    bool across = loops & 1, along = loops >> 1 & 1;
    if (v->axes == 1u)
        return !across || along;
    if (v->axes == 2u)
        return across;
    return reduces_whole_element(p, v) && across && along;
}

bool ir_warp_across_results(Program *p, Ref r)
{
    const Value *v = V(p, r);
    if (v->kind != IR_REDUCE || p->stmts[v->stmt].group)
        return false;
    int last_kept = V(p, v->args[0])->shape.ndim - 1;
    while (last_kept >= 0 && v->axes >> last_kept & 1)
        last_kept--;
    unsigned loops = element_inner_loops(p, v->args[0], false);
    return last_kept >= 0 && !(loops & READS_UNKNOWN) && loops >> last_kept & 1 && !(loops & v->axes);
}

int64_t ir_dim_most(const Program *p, Dim d)
{
    if (!DIM_IS_SYM(d))
        return d;
    const Sym *s = &p->syms[DIM_SYMNO(d)];
    if (s->kind == SYM_MIN) {
        int64_t a = ir_dim_most(p, s->factors.d[0]), b = ir_dim_most(p, s->factors.d[1]);
        return a < 0 ? b : b < 0 || a < b ? a : b;
    }
    if (s->kind != SYM_SLICE)
        return -1;
    bool up = s->step > 0;
    bool start_back = s->start == NPX_NO_BOUND ? !up : s->start < 0;
    bool stop_back = s->stop == NPX_NO_BOUND ? up : s->stop < 0;
    int64_t start = s->start != NPX_NO_BOUND ? s->start : up ? 0 : -1;
    int64_t stop = s->stop != NPX_NO_BOUND ? s->stop : up ? 0 : -1;
    if (start_back != stop_back)
        return -1;
    int64_t span = up ? stop - start : start - stop, step = up ? s->step : -s->step;
    return span <= 0 ? 0 : (span + step - 1) / step;
}

bool ir_thread_per_result(Program *p, Ref r)
{
    const Value *v = V(p, r);
    if (v->kind != IR_REDUCE || p->stmts[v->stmt].group || ir_warp_across_results(p, r))
        return false;
    const Shape *s = &V(p, v->args[0])->shape;
    int64_t count = 1;
    for (int k = 0; k < s->ndim; k++)
        if (v->axes >> k & 1) {
            int64_t most = ir_dim_most(p, s->d[k]);
            if (most < 0 || most > NPX_THREAD_FOLD)
                return false;
            count *= most;
        }
    return count <= NPX_THREAD_FOLD;
}

int ir_tiled_axis(Program *p, Ref r)
{
    const Value *v = V(p, r);
    if (v->kind == IR_REDUCE)
        return reduces_whole_element(p, v) && ir_swapped_axis(p, r) < 0 && !ir_row_blocks(p, r)
                   ? ir_tiled_axis(p, v->args[0])
                   : -1;
    int k = p->stmts[v->stmt].group ? -1 : read_across(p, r, true);
    return k >= 0 && v->shape.d[k] != 1 && v->shape.d[v->shape.ndim - 1] != 1 ? k : -1;
}

bool ir_gemm(const Program *p, Ref m, IrGemmOperand g[2])
{
    const Value *v = &p->vals[m], *a = &p->vals[v->args[0]], *b = &p->vals[v->args[1]];
    return v->kind == IR_MATMUL && dtype_is_float(v->dtype) && a->dtype == v->dtype && b->dtype == v->dtype &&
           gemm_operand(p, m, 0, &g[0]) && gemm_operand(p, m, 1, &g[1]) &&
           (p->cuda || p->blas || (a->shape.ndim >= 2 && b->shape.ndim >= 2));
}

Ref ir_new(Program *p, IrKind kind, Span span)
{
    if (p->nvals == 0)
        p->nvals = 1;                    /* Ref 0 means "none" */
    p->vals = arena_grow(p->arena, p->vals, &p->capvals, p->nvals + 1, sizeof(Value));
    Ref r = p->nvals++;
    Value *v = &p->vals[r];
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->span = span;
    v->stmt = p->nstmts - 1;
    return r;
}

int ir_add_sym(Program *p, const char *name, SymKind kind)
{
    p->syms = arena_grow(p->arena, p->syms, &p->capsyms, p->nsyms + 1, sizeof(Sym));
    Sym *s = &p->syms[p->nsyms];
    memset(s, 0, sizeof *s);
    s->name = name;
    s->cvar = name;
    s->kind = kind;
    s->input_index = -1;
    if (kind == SYM_INPUT) {
        s->input_index = 0;
        for (int i = 0; i < p->nsyms; i++)
            s->input_index += p->syms[i].kind == SYM_INPUT;
    }
    return p->nsyms++;
}

/* Do host integers a and b compute the same, operation for operation (t
 * lowered twice, for x[t] and for y[t])? */
static bool same_host_int(const Program *p, Ref a, Ref b)
{
    const Value *u = &p->vals[a], *v = &p->vals[b];
    if (a == b)
        return true;
    if (!a || !b || u->kind != v->kind || u->dtype != v->dtype || u->nargs != v->nargs)
        return false;
    switch (u->kind) {
    case IR_LITERAL: return u->ival == v->ival;
    case IR_DIMVAL: return shape_equal(&u->dims, &v->dims);
    case IR_INPUT: return u->index == v->index;
    case IR_UFUNC:
        if (u->ufunc != v->ufunc)
            return false;
        /* fall through */
    case IR_CAST:
        for (int i = 0; i < u->nargs; i++)
            if (!same_host_int(p, u->args[i], v->args[i]))
                return false;
        return ir_host_int(p, a) && ir_host_int(p, b);
    default: return false;
    }
}

/* A check the statement has already (the same condition) is not added:
 * the first one's message is the one a run would give. */
static void add_check(Program *p, int stmt, SizeCheck c)
{
    IrStmt *s = &p->stmts[stmt];
    for (int i = 0; i < s->nchecks; i++)
        if (s->checks[i].kind == c.kind && s->checks[i].a == c.a && s->checks[i].b == c.b &&
            same_host_int(p, s->checks[i].from, c.from))
            return;
    s->checks = arena_grow(p->arena, s->checks, &s->capchecks, s->nchecks + 1, sizeof(SizeCheck));
    s->checks[s->nchecks++] = c;
}

void ir_add_check(Program *p, int stmt, Dim a, Dim b, Span span, const char *what)
{
    IrStmt *s = &p->stmts[stmt];
    for (int i = 0; i < s->nchecks; i++)
        if (s->checks[i].kind == CHECK_EQUAL &&
            ((s->checks[i].a == a && s->checks[i].b == b) || (s->checks[i].a == b && s->checks[i].b == a)))
            return;
    add_check(p, stmt, (SizeCheck){ a, b, span, what, CHECK_EQUAL, 0 });
}

void ir_add_index_check(Program *p, int stmt, Dim size, int64_t index, int axis, Span span)
{
    const char *what = arena_printf(p->arena, "index %lld is out of bounds for axis %d", (long long)index, axis);
    add_check(p, stmt, (SizeCheck){ size, index, span, what, CHECK_INDEX, 0 });
}

void ir_add_unit_check(Program *p, int stmt, Dim unit, Dim other, Span span)
{
    add_check(p, stmt, (SizeCheck){ unit, other, span, "operands could not be broadcast together", CHECK_UNIT, 0 });
}

void ir_add_nonempty_check(Program *p, int stmt, Dim size, Dim count, Span span, const char *what)
{
    add_check(p, stmt, (SizeCheck){ size, count, span, what, CHECK_NONEMPTY, 0 });
}

void ir_add_window_check(Program *p, int stmt, Dim size, const AxisIndex *window, int axis, Span span)
{
    const char *what = arena_printf(p->arena, "axis %d", axis);
    add_check(p, stmt, (SizeCheck){ size, window->len, span, what, CHECK_WINDOW, window->from });
}

void ir_add_position_check(Program *p, int stmt, Dim size, Ref position, int axis, Span span)
{
    const char *what = arena_printf(p->arena, "axis %d", axis);
    add_check(p, stmt, (SizeCheck){ size, 0, span, what, CHECK_POSITION, position });
}

void ir_add_divides_check(Program *p, int stmt, Dim total, Dim known, Span span, const char *what)
{
    add_check(p, stmt, (SizeCheck){ total, known, span, what, CHECK_DIVIDES, 0 });
}

Dim ir_quotient_dim(Program *p, int stmt, Dim total, Dim known, Span span, const char *what)
{
    ir_add_divides_check(p, stmt, total, known, span, what);
    for (int i = 0; i < p->nsyms; i++)
        if (p->syms[i].kind == SYM_QUOTIENT && p->syms[i].base == total && p->syms[i].divisor == known)
            return DIM_SYM(i);
    const char *k = dim_str(p, known);
    int i = ir_add_sym(p, arena_printf(p->arena, strchr(k, '*') ? "%s/(%s)" : "%s/%s", dim_str(p, total), k),
                       SYM_QUOTIENT);
    p->syms[i].base = total;
    p->syms[i].divisor = known;
    return DIM_SYM(i);
}

/* Is base[start:stop:step] empty whatever base is: bounds on the same side
 * (both from the start or both from the end) in the wrong order (B[:0],
 * B[3:1], B[-1:-3])? */
static bool slice_always_empty(int64_t start, int64_t stop, int64_t step)
{
    if (step > 0 && start == NPX_NO_BOUND)
        start = 0;
    if (start == NPX_NO_BOUND || stop == NPX_NO_BOUND || (start < 0) != (stop < 0))
        return false;
    return step > 0 ? start >= stop : start <= stop;
}

Dim ir_slice_dim(Program *p, Dim base, int64_t start, int64_t stop, int64_t step)
{
    if (!DIM_IS_SYM(base))
        return npx_slice_len(base, start, stop, step);
    if (slice_always_empty(start, stop, step))
        return 0;
    if (start == NPX_NO_BOUND && stop == NPX_NO_BOUND && (step == 1 || step == -1))
        return base;
    const Sym *b = &p->syms[DIM_SYMNO(base)];
    if (ir_dim_at_most_one(p, base))
        return npx_slice_len(1, start, stop, step) ? base : 0;   /* B[-1:][::-2] is B[-1:] */
    char text[96];
    if (step == 1 && (start == NPX_NO_BOUND || start >= 0) && (stop == NPX_NO_BOUND || stop < 0)) {
        /* base[s:-k] has max(base - s - k, 0) elements, as base[s + k:] */
        start = (start == NPX_NO_BOUND ? 0 : start) + (stop == NPX_NO_BOUND ? 0 : -stop);
        stop = NPX_NO_BOUND;
        if (b->kind == SYM_SLICE && b->step == 1 && b->start >= 0 && b->stop == NPX_NO_BOUND) {
            start += b->start;                   /* (B-1)[1:] is B-2 */
            base = b->base;
            b = &p->syms[DIM_SYMNO(base)];
        }
        if (start == 0)
            return base;
        snprintf(text, sizeof text, "%s-%lld", b->name, (long long)start);
    } else {
        char lo[24] = "", hi[24] = "", by[24] = "";
        if (start != NPX_NO_BOUND)
            snprintf(lo, sizeof lo, "%lld", (long long)start);
        if (stop != NPX_NO_BOUND)
            snprintf(hi, sizeof hi, "%lld", (long long)stop);
        if (step != 1)
            snprintf(by, sizeof by, ":%lld", (long long)step);
        bool sum = strpbrk(b->name, "+-*/") != NULL;   /* (M-2)[:1], not M-2[:1] */
        snprintf(text, sizeof text, "%s%s%s[%s:%s%s]", sum ? "(" : "", b->name, sum ? ")" : "", lo, hi, by);
    }
    for (int i = 0; i < p->nsyms; i++) {
        const Sym *o = &p->syms[i];
        if (o->kind == SYM_SLICE && o->base == base && o->start == start && o->stop == stop && o->step == step)
            return DIM_SYM(i);
    }
    int i = ir_add_sym(p, arena_strdup(p->arena, text), SYM_SLICE);
    Sym *n = &p->syms[i];
    n->base = base;
    n->start = start;
    n->stop = stop;
    n->step = step;
    return DIM_SYM(i);
}

static int compare_dims(const void *a, const void *b)
{
    Dim x = *(const Dim *)a, y = *(const Dim *)b;
    return x < y ? 1 : x > y ? -1 : 0;            /* symbols in the order they were made */
}

bool ir_product_dim(Program *p, const Dim *d, int n, Dim *out)
{
    Shape f = { 0, { 0 } };
    int64_t lit = 1;
    for (int k = 0; k < n; k++) {
        const Sym *s = DIM_IS_SYM(d[k]) ? &p->syms[DIM_SYMNO(d[k])] : NULL;
        const Dim *part = s && s->kind == SYM_PRODUCT ? s->factors.d : &d[k];
        int nparts = s && s->kind == SYM_PRODUCT ? s->factors.ndim : 1;
        for (int j = 0; j < nparts; j++) {
            if (DIM_IS_SYM(part[j])) {
                if (f.ndim == NPX_MAX_RANK)
                    return false;
                f.d[f.ndim++] = part[j];
            } else if (__builtin_mul_overflow(lit, part[j], &lit))
                lit = NPX_MAX_ELEMENTS + 1;      /* too big: reported by ir_lower */
        }
    }
    *out = lit == 0 || f.ndim == 0 ? lit : f.d[0];
    if (lit == 0 || f.ndim == 0 || (f.ndim == 1 && lit == 1))
        return true;
    if (lit != 1 && f.ndim == NPX_MAX_RANK)
        return false;
    qsort(f.d, (size_t)f.ndim, sizeof(Dim), compare_dims);
    if (lit != 1)
        f.d[f.ndim++] = lit;
    for (int i = 0; i < p->nsyms; i++)
        if (p->syms[i].kind == SYM_PRODUCT && shape_equal(&p->syms[i].factors, &f)) {
            *out = DIM_SYM(i);
            return true;
        }
    char text[160] = "";
    for (int k = 0, n = 0; k < f.ndim && n < (int)sizeof text; k++)
        n += snprintf(text + n, sizeof text - (size_t)n, "%s%s", k ? "*" : "", dim_str(p, f.d[k]));
    int i = ir_add_sym(p, arena_strdup(p->arena, text), SYM_PRODUCT);
    p->syms[i].factors = f;
    *out = DIM_SYM(i);
    return true;
}

Dim ir_sum_dim(Program *p, Dim a, Dim b)
{
    Dim sum;
    if (!DIM_IS_SYM(a) && !DIM_IS_SYM(b))
        return __builtin_add_overflow(a, b, &sum) ? NPX_MAX_ELEMENTS + 1 : sum;   /* too big: reported by ir_lower */
    if (a == 0 || b == 0)
        return a == 0 ? b : a;
    for (int i = 0; i < p->nsyms; i++)
        if (p->syms[i].kind == SYM_SUM && p->syms[i].factors.d[0] == a && p->syms[i].factors.d[1] == b)
            return DIM_SYM(i);
    const char *ta = dim_str(p, a), *tb = dim_str(p, b);
    int i = ir_add_sym(p, arena_printf(p->arena, "%s+%s", ta, tb), SYM_SUM);
    p->syms[i].factors = (Shape){ 2, { a, b } };
    return DIM_SYM(i);
}

/* Sizes a and b are both symbols (diagonal_length makes the smaller of a
 * size and a number a slice, N[:3]). */
Dim ir_min_dim(Program *p, Dim a, Dim b)
{
    if (a == b)
        return a;
    if (DIM_SYMNO(a) > DIM_SYMNO(b))             /* (one symbol for min(N,M) and min(M,N)) */
        return ir_min_dim(p, b, a);
    for (int i = 0; i < p->nsyms; i++)
        if (p->syms[i].kind == SYM_MIN && p->syms[i].factors.d[0] == a && p->syms[i].factors.d[1] == b)
            return DIM_SYM(i);
    int i = ir_add_sym(p, arena_printf(p->arena, "min(%s,%s)", dim_str(p, a), dim_str(p, b)), SYM_MIN);
    p->syms[i].factors = (Shape){ 2, { a, b } };
    return DIM_SYM(i);
}

bool shape_equal(const Shape *a, const Shape *b)
{
    return a->ndim == b->ndim && memcmp(a->d, b->d, sizeof(Dim) * (size_t)a->ndim) == 0;
}

bool ir_dim_depends(const Program *p, Dim d, Dim data)
{
    if (!DIM_IS_SYM(d))
        return false;
    const Sym *s = &p->syms[DIM_SYMNO(d)];
    bool any = s->kind == SYM_DATA && (data == 0 || d == data);
    for (int k = 0; k < s->factors.ndim && !any; k++)
        any = ir_dim_depends(p, s->factors.d[k], data);
    return any || (s->kind == SYM_SLICE && ir_dim_depends(p, s->base, data)) ||
           (s->kind == SYM_QUOTIENT && (ir_dim_depends(p, s->base, data) || ir_dim_depends(p, s->divisor, data)));
}

bool ir_dim_from_data(const Program *p, Dim d) { return ir_dim_depends(p, d, 0); }

int ir_data_axis(const Program *p, const Shape *s)
{
    for (int k = 0; k < s->ndim; k++)
        if (ir_dim_from_data(p, s->d[k]))
            return k;
    return -1;
}

bool ir_dim_at_most_one(const Program *p, Dim d)
{
    if (!DIM_IS_SYM(d) || p->syms[DIM_SYMNO(d)].kind != SYM_SLICE)
        return false;
    const Sym *s = &p->syms[DIM_SYMNO(d)];
    int64_t start = s->start == NPX_NO_BOUND ? 0 : s->start;   /* (x[:1][:3] is x[:1]: ir_slice_dim) */
    if (s->step != 1)
        return false;
    if (s->stop == NPX_NO_BOUND)
        return start == -1;                      /* x[-1:] */
    return (start >= 0) == (s->stop >= 0) && s->stop - start == 1;   /* x[:1], x[2:3], x[-2:-1] */
}

const char *dim_str(Program *p, Dim d)
{
    if (DIM_IS_SYM(d))
        return p->syms[DIM_SYMNO(d)].name;
    return arena_printf(p->arena, "%lld", (long long)d);
}

const char *shape_str(Program *p, const Shape *s, npx_dtype t, bool weak)
{
    if (weak)
        return t == NPX_BOOL ? "bool (Python scalar)" : dtype_is_int(t) ? "int (Python scalar)"
                                                                        : "float (Python scalar)";
    char buf[512];
    int n = snprintf(buf, sizeof buf, "%s", dtype_name(t));
    if (s->ndim > 0) {
        n += snprintf(buf + n, sizeof buf - n, "[");
        for (int k = 0; k < s->ndim && n < (int)sizeof buf; k++)
            n += snprintf(buf + n, sizeof buf - n, "%s%s", k ? ", " : "", dim_str(p, s->d[k]));
        if (n < (int)sizeof buf)
            snprintf(buf + n, sizeof buf - n, "]");
    }
    return arena_strdup(p->arena, buf);
}

int64_t shape_size_literal(const Shape *s)
{
    int64_t n = 1;
    for (int k = 0; k < s->ndim; k++) {
        if (DIM_IS_SYM(s->d[k]))
            return -1;
        n *= s->d[k];
    }
    return n;
}

bool ir_host_int(const Program *p, Ref r)
{
    const Value *v = &p->vals[r];
    if (v->shape.ndim != 0 || !dtype_is_int(v->dtype))
        return false;
    switch (v->kind) {
    case IR_LITERAL:
    case IR_DIMVAL:
    case IR_INPUT: return true;
    case IR_CAST:                            /* a carry's value is the last iteration's, not its entry's */
        if (p->stmts[v->stmt].kind == ST_CARRY || p->stmts[v->stmt].kind == ST_END)
            return false;
        /* fall through */
    case IR_UFUNC:
        for (int i = 0; i < v->nargs; i++)
            if (!ir_host_int(p, v->args[i]))
                return false;
        return true;
    default: return false;
    }
}

bool ir_stores(const Program *p, int s, Ref r)
{
    const Value *v = &p->vals[r];
    return v->stmt == s && v->materialize && (v->uses > 0 || r == p->stmts[s].value);
}

bool ir_host_reads_device(const Program *p)
{
    for (Ref r = 1; r < p->nvals; r++)
        if (ir_sized_by_data(&p->vals[r]) && p->vals[r].materialize)
            return true;
    return false;
}

const char *empty_reduction_error(Reduction red)
{
    switch (red) {
    case RED_max: return "zero-size array to reduction operation maximum which has no identity";
    case RED_min: return "zero-size array to reduction operation minimum which has no identity";
    case RED_argmax: return "attempt to get argmax of an empty sequence";
    case RED_argmin: return "attempt to get argmin of an empty sequence";
    default: return NULL;
    }
}
