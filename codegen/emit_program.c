/* emit_program.c: walks the scheduled IR and writes the program: npx_run with
 * one commented block per source statement (its size checks, the code of each
 * value it stores, its trace, the buffers it frees), then the outputs, then
 * the tables that describe the program to the runtime; a row group (ir.h) is
 * one block around its statements. What differs between
 * C and CUDA goes through the target's hooks (target.h). */
#include <string.h>
#include "emit_c.h"
#include "target.h"

const char *emit_shape_list(Emitter *e, const Shape *s)
{
    const char *list = "0";
    for (int k = 0; k < s->ndim; k++)
        list = k ? arena_printf(e->p->arena, "%s, %s", list, cx_dim(e, s->d[k])) : cx_dim(e, s->d[k]);
    return list;
}

const char *emit_c_string(Emitter *e, const char *s)
{
    char buf[2048];
    size_t n = 0;
    for (; *s && n < sizeof buf - 3; s++) {
        if (*s == '"' || *s == '\\')
            buf[n++] = '\\';
        buf[n++] = *s;
    }
    buf[n] = 0;
    return arena_strdup(e->p->arena, buf);
}

/* The error line of a check between two sizes: "WHAT: A is 3 but B is 4". */
static void emit_sizes_error(Emitter *e, const IrStmt *st, const char *what, Dim a, Dim b)
{
    if (!DIM_IS_SYM(b)) {
        emit_line(e, "    npx_runtime_error(st, %d, \"%s: %s is %%lld, not %lld\", (long long)%s);", st->line, what,
                  dim_str(e->p, a), (long long)b, cx_dim(e, a));
        return;
    }
    emit_line(e, "    npx_runtime_error(st, %d, \"%s: %s is %%lld but %s is %%lld\", (long long)%s, (long long)%s);",
              st->line, what, dim_str(e->p, a), dim_str(e->p, b), cx_dim(e, a), cx_dim(e, b));
}

/* The value after which size d is known: the bincount or x[mask] whose data
 * give it, or the last of those it is computed from (B*?nonzero); 0 for a
 * size known when the program starts. */
static Ref known_after(const Program *p, Dim d)
{
    if (!DIM_IS_SYM(d))
        return 0;
    const Sym *s = &p->syms[DIM_SYMNO(d)];
    if (s->kind == SYM_DATA) {
        for (Ref r = 1; r < p->nvals; r++)
            if (ir_sized_by_data(&p->vals[r]) && ir_data_dim(&p->vals[r]) == d)
                return r;
        return 0;
    }
    Dim parts[2 + NPX_MAX_RANK];             /* what a derived size is computed from */
    int n = 0;
    if (s->kind == SYM_SLICE || s->kind == SYM_QUOTIENT)
        parts[n++] = s->base;
    if (s->kind == SYM_QUOTIENT)
        parts[n++] = s->divisor;
    for (int k = 0; (s->kind == SYM_PRODUCT || s->kind == SYM_SUM || s->kind == SYM_MIN) && k < s->factors.ndim; k++)
        parts[n++] = s->factors.d[k];
    Ref last = 0;
    for (int k = 0; k < n; k++) {
        Ref r = known_after(p, parts[k]);
        last = r > last ? r : last;
    }
    return last;
}

/* The value of statement st after which size d is known, or 0: d is known
 * before the statement. */
static Ref sized_in(const Program *p, const IrStmt *st, Dim d)
{
    Ref r = known_after(p, d);
    return r && &p->stmts[p->vals[r].stmt] == st ? r : 0;
}

/* Statement st's checks that can run once value `after` is computed (0:
 * before its first value): those between sizes known by then, the last of
 * which it just made known. */
static void emit_checks(Emitter *e, const IrStmt *st, Ref after)
{
    for (int i = 0; i < st->nchecks; i++) {
        const SizeCheck *c = &st->checks[i];
        Ref ra = sized_in(e->p, st, c->a), rb = sized_in(e->p, st, c->b);
        if ((ra > rb ? ra : rb) != after)
            continue;
        const char *n = cx_dim(e, c->a);
        switch (c->kind) {
        case CHECK_UNIT:                 /* a, never longer than 1, is 1 or b */
            emit_line(e, "if (%s != 1 && %s != %s)", n, n, cx_dim(e, c->b));
            emit_sizes_error(e, st, c->what, c->a, c->b);
            break;
        case CHECK_DIVIDES: {
            const char *k = cx_dim(e, c->b);
            if (DIM_IS_SYM(c->b)) {
                emit_line(e, "if (%s == 0 || %s %% %s != 0)", k, n, k);
                emit_line(e, "    npx_runtime_error(st, %d, \"%s: the size is %%lld, %s is %%lld\", (long long)%s, (long long)%s);",
                          st->line, c->what, dim_str(e->p, c->b), n, k);
            } else {
                emit_line(e, "if (%s %% %s != 0)", n, k);
                emit_line(e, "    npx_runtime_error(st, %d, \"%s: the size is %%lld\", (long long)%s);", st->line, c->what, n);
            }
            break;
        }
        case CHECK_NONEMPTY:             /* b positions taken from an axis of size a */
            if (DIM_IS_SYM(c->b))
                emit_line(e, "if (%s == 0 && %s != 0)", n, cx_dim(e, c->b));
            else                         /* (a number of them: never 0) */
                emit_line(e, "if (%s == 0)", n);
            emit_line(e, "    npx_runtime_error(st, %d, \"%s\");", st->line, c->what);
            break;
        case CHECK_WINDOW: {             /* b elements from c->from, computed once */
            const char *len = cx_dim(e, c->b);
            emit_block(e);
            emit_line(e, "const int64_t npx_first = %s;", cx_host_int(e, c->from));
            emit_line(e, "if (npx_first < 0 || npx_first > %s - %s)", n, len);
            emit_line(e, "    npx_runtime_error(st, %d, \"the slice %%lld:%%lld does not fit in %s with size %%lld: a "
                         "slice with computed bounds keeps its length (NumPy would return fewer elements)\", "
                         "(long long)npx_first, (long long)(npx_first + %s), (long long)%s);",
                      st->line, c->what, len, n);
            emit_close(e, NULL);
            break;
        }
        case CHECK_POSITION: {           /* NumPy checks it even where the result is empty */
            emit_block(e);
            emit_line(e, "const int64_t npx_position = %s;", cx_host_int(e, c->from));
            emit_line(e, "if (npx_position < -%s || npx_position >= %s)", cx_paren(e, n), n);
            emit_line(e, "    npx_runtime_error(st, %d, \"index %%lld is out of bounds for %s with size %%lld\", "
                         "(long long)npx_position, (long long)%s);", st->line, c->what, n);
            emit_close(e, NULL);
            break;
        }
        case CHECK_INDEX:                /* b is the index */
            emit_line(e, c->b >= 0 ? "if (%s <= %lld)" : "if (%s < %lld)", n, (long long)(c->b >= 0 ? c->b : -c->b));
            emit_line(e, "    npx_runtime_error(st, %d, \"%s with size %%lld (%s)\", (long long)%s);", st->line, c->what,
                      dim_str(e->p, c->a), n);
            break;
        case CHECK_EQUAL: {
            Dim sym = DIM_IS_SYM(c->a) ? c->a : c->b, other = sym == c->a ? c->b : c->a;
            emit_line(e, "if (%s != %s)", cx_dim(e, sym), cx_dim(e, other));
            emit_sizes_error(e, st, c->what, sym, other);
            break;
        }
        }
    }
}

/* const int64_t shape[] = { B, 3 }; static when every size is a number:
 * gcc 12 at -O3 -march=native (AVX-512) vectorizes the copy of a constant
 * { 1, 1, 1, 0 } on the stack into four 1s (the runtime then writes a
 * wrong shape); a static array it copies right. */
static void emit_shape_decl(Emitter *e, const Shape *s)
{
    emit_line(e, "%sconst int64_t shape[] = { %s };", shape_size_literal(s) >= 0 ? "static " : "",
              emit_shape_list(e, s));
}

static void emit_trace(Emitter *e, const IrStmt *st, const Value *v)
{
    emit_open(e, "if (st->trace_dir)");
    emit_shape_decl(e, &v->shape);
    emit_line(e, "%s(st, \"%s\", %d, \"%s\", NPX_%s, %d, shape, %s);", e->t->trace_fn, st->name, st->line,
              emit_c_string(e, st->text), dtype_enum(v->dtype), v->shape.ndim, e->t->data(e, v));
    emit_close(e, NULL);
}

/* Output j: its data handed to the runtime, which owns it when the
 * program allocated it and copies it otherwise. */
static void emit_output(Emitter *e, int j)
{
    Program *p = e->p;
    const Value *v = V(p, p->output_vals[j]);
    bool owned = v->owned;                       /* by the last output of the value (n and w = n, a Python int) */
    for (int k = j + 1; k < p->noutputs; k++)
        owned &= p->output_vals[k] != p->output_vals[j];
    emit_block(e);
    emit_shape_decl(e, &v->shape);
    emit_line(e, "%s(st, %d, NPX_%s, %d, shape, (void *)%s, %s);", e->t->output_fn, j, dtype_enum(v->dtype),
              v->shape.ndim, e->t->data(e, v), owned ? "true" : "false");
    emit_close(e, e->p->outputs[j]);
}

static void emit_trace_and_frees(Emitter *e, const IrStmt *st)
{
    if (st->kind == ST_INPUT || st->kind == ST_ASSIGN)   /* a name the source binds */
        emit_trace(e, st, V(e->p, st->value));
    for (int f = 0; f < st->nfrees; f++)
        e->t->free(e, V(e->p, st->frees[f]));
}

/* The condition that the loop runs again. Python computes a range's stop
 * once; the condition computes it before each iteration, which gives the
 * same number each time: it is made of numbers, sizes, 0-d inputs and
 * enclosing loops' counters (lower_loop.c), none of which the body changes.
 * An error in it (a division by zero) stops the program before the first
 * iteration, as in Python. */
static const char *loop_condition(Emitter *e, const Loop *lp, const char *i)
{
    return arena_printf(e->p->arena, "%s %s %s", i, lp->step > 0 ? "<" : ">", cx_host_int(e, lp->stop));
}

/* Whether late value c has a value yet: its pointer, or for a C scalar a
 * flag beside it. */
static const char *bound_flag(Emitter *e, const Value *c)
{
    return c->shape.ndim == 0 && e->t->scalar_locals ? arena_printf(e->p->arena, "%s_set", c->cname) : c->cname;
}

/* Whether late value c is a C scalar with a flag of its own (bound_flag). */
static bool has_bound_flag(Emitter *e, const Value *c)
{
    return c->shape.ndim == 0 && e->t->scalar_locals && c->maybe_unbound;
}

/* c's flag, set from value v: v's flag, or true where v always has a value. */
static void emit_flag_from(Emitter *e, const char *declare, const Value *c, const Value *v)
{
    emit_line(e, "%s%s = %s;", declare, bound_flag(e, c), v->maybe_unbound ? bound_flag(e, v) : "true");
}

static void emit_statement_checks(Emitter *e, const IrStmt *st);

/* for name in range(...): the counter is the C loop variable. Names bound
 * only inside the loop are declared before it, and the buffers its
 * iterations share are allocated there. */
static void emit_loop_open(Emitter *e, const IrStmt *st)
{
    Program *p = e->p;
    const Loop *lp = &p->loops[st->loop];
    const char *i = p->syms[lp->counter].cvar;
    emit_blank(e);
    emit_line(e, "/* line %d: %s */", st->line, st->text);
    emit_statement_checks(e, st);               /* (range(a.shape[0]), a bound in an earlier loop) */
    for (int k = 0; k < lp->ncarries; k++) {
        const Value *c = V(p, lp->carry[k]);
        if (!lp->late[k])
            continue;
        if (c->shape.ndim == 0 && e->t->scalar_locals) {
            emit_line(e, "%s %s = 0; /* %s, bound in the loop */", dtype_ctype(c->dtype), c->cname, lp->name[k]);
            if (has_bound_flag(e, c))
                emit_line(e, "bool %s = false;", bound_flag(e, c));
        } else {
            emit_line(e, "%s *%s = NULL; /* %s, bound in the loop (NULL: not yet) */", dtype_ctype(c->dtype),
                      c->cname, lp->name[k]);
        }
    }
    bool shared = false;
    e->before_loop = true;
    for (Ref r = 1; r < p->nvals; r++)
        if (V(p, r)->hoist == st->loop + 1) {
            if (!shared)
                emit_line(e, "/* the temporaries of every iteration, in one buffer each */");
            shared = true;
            e->t->declare(e, V(p, r), false);
        }
    e->before_loop = false;
    const char *step = lp->step == 1 ? arena_printf(p->arena, "%s++", i)
                                     : arena_printf(p->arena, "%s += %lld", i, (long long)lp->step);
    emit_open(e, "for (int64_t %s = %s; %s; %s)", i, cx_host_int(e, lp->start), loop_condition(e, lp, i),
              step);
}

/* The end of an iteration: each carried name takes its new value, whose
 * buffer it owns from now on (the old one is freed, unless an update in the
 * iteration changed it in place); after the loop, the buffers the loop read
 * are freed. */
static void emit_loop_close(Emitter *e, const IrStmt *st)
{
    Program *p = e->p;
    const Loop *lp = &p->loops[st->loop];
    const char *names[2] = { NULL, NULL };       /* carried, kept for after the loop */
    for (int k = 0; k < lp->ncarries; k++) {
        const char **list = &names[lp->late[k]];
        *list = *list ? arena_printf(p->arena, "%s, %s", *list, lp->name[k]) : lp->name[k];
    }
    if (lp->ncarries)
        emit_blank(e);
    if (names[0])
        emit_line(e, "/* the next iteration reads the new %s */", names[0]);
    if (names[1])
        emit_line(e, "/* %s: the last iteration's, for after the loop */", names[1]);
    for (int k = 0; k < lp->ncarries; k++) {
        const Value *c = V(p, lp->carry[k]), *next = V(p, lp->next[k]);
        bool frees = c->owned && !ir_buffer_taken(p, lp->carry[k], lp->first, lp->last);
        if (frees)                          /* a late value is NULL until the first iteration: both frees take NULL */
            e->t->free(e, c);
        emit_line(e, "%s = %s;", c->cname, next->cname);
        if (has_bound_flag(e, c))
            emit_flag_from(e, "", c, next);
    }
    emit_close(e, arena_printf(p->arena, "for %s", st->name));
    emit_trace_and_frees(e, st);
}

/* Before statement st (NULL: the outputs) reads late value c: c must have
 * a value, which it has not when its loop ran zero times (Python's
 * NameError). */
static void emit_bound_check(Emitter *e, const IrStmt *st, const Value *c)
{
    const Value *late = c;                       /* (c may be a carry that took it over) */
    while (!late->late)
        late = V(e->p, late->args[0]);
    const Loop *lp = &e->p->loops[late->loop];
    int line = e->p->stmts[lp->first].line;
    emit_line(e, "if (!%s)", bound_flag(e, c));
    emit_line(e, "    npx_runtime_error(st, %d, \"name '%s' is not defined (the loop on line %d ran zero times)\");",
              st ? st->line : line, lp->name[late->carry], line);
}

static bool shape_has(const Shape *s, int sym)
{
    for (int k = 0; k < s->ndim; k++)
        if (s->d[k] == DIM_SYM(sym))
            return true;
    return false;
}

/* Does the code read the size `sym` of value r, which it does not store?
 * Not where its readers are indexes that count from its start (x[1:][1:]
 * reads x at i + 2, never B-1) or elementwise of its shape (which answer
 * for themselves: (x[1:] * 2.0)[1:]). */
static bool length_read(const Program *p, Ref r, int sym)
{
    const Value *v = &p->vals[r];
    if (shape_has(&v->dims, sym) || p->stmts[v->stmt].value == r)   /* (a name's shape: its trace) */
        return true;
    for (Ref u = r + 1; u < p->nvals; u++) {
        const Value *w = &p->vals[u];
        if ((w->kind == IR_UFUNC || w->kind == IR_CAST) && shape_equal(&w->shape, &v->shape))
            continue;                            /* elementwise: it answers for itself */
        for (int i = 0; i < w->nargs; i++) {
            if (w->args[i] != r)
                continue;
            if (w->kind != IR_INDEX || i > 0)
                return true;
            for (int k = 0; k < v->shape.ndim; k++)
                if (v->shape.d[k] == DIM_SYM(sym) && ir_index_reads_length(p, &w->sel[k]))
                    return true;
        }
    }
    return false;
}

/* Is the slice length `sym` read by the generated code: in the shape of a
 * value that is computed or read, in a size, a check or another length? */
static bool sym_read(const Program *p, int sym)
{
    if (p->syms[sym].kind == SYM_INPUT || p->syms[sym].kind == SYM_DATA || p->syms[sym].kind == SYM_LOOP)
        return false;
    for (Ref r = 1; r < p->nvals; r++) {
        const Value *v = &p->vals[r];
        if ((shape_has(&v->shape, sym) || shape_has(&v->dims, sym)) &&
            (v->materialize || (v->uses && length_read(p, r, sym))))
            return true;
    }
    for (int s = 0; s < p->nstmts; s++)
        for (int i = 0; i < p->stmts[s].nchecks; i++)
            if (p->stmts[s].checks[i].a == DIM_SYM(sym) || p->stmts[s].checks[i].b == DIM_SYM(sym))
                return true;
    for (int i = sym + 1; i < p->nsyms; i++)
        if ((p->syms[i].base == DIM_SYM(sym) || p->syms[i].divisor == DIM_SYM(sym) ||
             shape_has(&p->syms[i].factors, sym)) && sym_read(p, i))
            return true;
    return false;
}

/* const int64_t B_1 = npx_slice_len(B, 1, NPX_NO_BOUND, 1);   B-1
 * const int64_t B_V = B * V;                                   B*V */
static void emit_derived_size(Emitter *e, const Sym *s)
{
    if (s->kind == SYM_PRODUCT) {
        emit_line(e, "const int64_t %s = %s; /* %s */", s->cvar, cx_dims(e, s->factors.d, s->factors.ndim), s->name);
        return;
    }
    if (s->kind == SYM_SUM) {
        emit_line(e, "const int64_t %s = %s + %s; /* %s */", s->cvar, cx_dim(e, s->factors.d[0]),
                  cx_dim(e, s->factors.d[1]), s->name);
        return;
    }
    if (s->kind == SYM_MIN) {
        const char *a = cx_dim(e, s->factors.d[0]), *b = cx_dim(e, s->factors.d[1]);
        emit_line(e, "const int64_t %s = %s < %s ? %s : %s; /* %s */", s->cvar, a, b, a, b, s->name);
        return;
    }
    if (s->kind == SYM_QUOTIENT) {      /* checked to divide before it is used */
        emit_line(e, "const int64_t %s = npx_quotient(%s, %s); /* %s */", s->cvar, cx_dim(e, s->base),
                  cx_dim(e, s->divisor), s->name);
        return;
    }
    const char *bound[2];
    for (int i = 0; i < 2; i++) {
        int64_t b = i ? s->stop : s->start;
        bound[i] = b == NPX_NO_BOUND ? "NPX_NO_BOUND" : arena_printf(e->p->arena, "%lld", (long long)b);
    }
    emit_line(e, "const int64_t %s = npx_slice_len(%s, %s, %s, %lld); /* %s */", s->cvar, cx_dim(e, s->base), bound[0],
              bound[1], (long long)s->step, s->name);
}

/* The derived sizes (B-1, B*V) the code reads that are known once value
 * `after` is computed (0: when the program starts). */
static void emit_derived_sizes(Emitter *e, Ref after)
{
    for (int i = 0; i < e->p->nsyms; i++)
        if (sym_read(e->p, i) && known_after(e->p, DIM_SYM(i)) == after)
            emit_derived_size(e, &e->p->syms[i]);
}

/* Whether the host can compute Python number r before statement st: it
 * reads literals, and sizes and counters known by then, through operations
 * stored nowhere (not a name a loop carries). */
static bool host_computes_before(const Program *p, const IrStmt *st, Ref r)
{
    const Value *v = &p->vals[r];
    if (v->kind == IR_LITERAL)
        return true;
    if (v->kind == IR_DIMVAL) {
        for (int k = 0; k < v->dims.ndim; k++)
            if (sized_in(p, st, v->dims.d[k]))
                return false;
        return true;
    }
    bool python = v->weak || (v->kind == IR_CAST && v->checked);   /* (an int NumPy converts to int32) */
    if (!python || v->materialize || (v->kind != IR_UFUNC && v->kind != IR_CAST))
        return false;
    for (int i = 0; i < v->nargs; i++)
        if (!host_computes_before(p, st, v->args[i]))
            return false;
    return true;
}

/* Whether Python number u reads r, itself or through other Python numbers. */
static bool python_reads(const Program *p, Ref u, Ref r)
{
    const Value *v = &p->vals[u];
    for (int i = 0; i < v->nargs; i++)
        if (v->args[i] == r || (p->vals[v->args[i]].weak && python_reads(p, v->args[i], r)))
            return true;
    return false;
}

/* A Python number of statement s that may fail and that the host can
 * compute before it (a loop's range is computed before it anyway). */
static bool python_check(const Program *p, int s, Ref r)
{
    const Value *v = &p->vals[r];
    return v->stmt == s && v->uses && p->stmts[s].kind != ST_FOR && cx_python_may_fail(p, r) &&
           host_computes_before(p, &p->stmts[s], r);
}

bool emit_python_checked(const Program *p, Ref r)
{
    return python_check(p, p->vals[r].stmt, r);
}

/* Python computes the Python numbers of a statement before NumPy reads
 * any: those that may fail (m << m past int64, a division by 0, an int that
 * int32 cannot hold) are computed once before the statement's loops, so that
 * their errors come first and also where no element reads them (an empty
 * array, the other side of a where). Each once: not again inside another. */
static void emit_python_checks(Emitter *e, const IrStmt *st)
{
    const Program *p = e->p;
    int s = (int)(st - p->stmts);
    const char *done[8];                 /* (the same number read twice is computed once) */
    int ndone = 0;
    for (Ref r = 1; r < p->nvals; r++) {
        if (!python_check(p, s, r))
            continue;
        bool inside = false;
        for (Ref u = r + 1; u < p->nvals && !inside; u++)
            inside = python_check(p, s, u) && python_reads(p, u, r);
        const char *x = cx_python_number(e, r);
        for (int i = 0; i < ndone && !inside; i++)
            inside = strcmp(done[i], x) == 0;
        if (inside)
            continue;
        if (ndone == 0)
            emit_line(e, "/* Python computes its numbers before NumPy reads them: their errors first, "
                         "also where no element reads them */");
        if (ndone < (int)(sizeof done / sizeof *done))
            done[ndone++] = x;
        emit_line(e, "(void)%s;", x);
    }
}

/* Can r be computed before statement st, whose row group (or itself)
 * starts at statement `first`, has stored its values from `upto` on (0: any
 * of them), on the host or in a kernel: r reads inputs, literals, sizes
 * known by then and values stored before, through operations computed
 * where they are read? */
static bool ready_before(const Program *p, const IrStmt *st, int first, Ref upto, Ref r)
{
    const Value *v = &p->vals[r];
    if (v->kind == IR_DIMVAL)
        return host_computes_before(p, st, r);
    if (v->kind == IR_INPUT || v->kind == IR_LITERAL)
        return true;
    if (v->materialize)
        return v->stmt < first || (&p->stmts[v->stmt] == st && r < upto);
    switch (v->kind) {
    case IR_UFUNC: case IR_CAST: case IR_BROADCAST: case IR_TRANSPOSE: case IR_EXPAND: case IR_INDEX:
    case IR_RESHAPE: case IR_CONCAT: case IR_TAKE: case IR_ARANGE: break;
    default: return false;
    }
    for (int i = 0; i < v->nargs; i++)
        if (!ready_before(p, st, first, upto, v->args[i]))
            return false;
    return true;
}

/* "N == 0 || M == 0" for the sizes d[0..n) that may be 0; NULL if none. */
static const char *any_empty(Emitter *e, const Dim *d, int n)
{
    const char *any = NULL;
    for (int k = 0; k < n; k++)
        if (DIM_MAY_BE_EMPTY(d[k])) {
            const char *t = arena_printf(e->p->arena, "%s == 0", cx_dim(e, d[k]));
            any = any ? arena_printf(e->p->arena, "%s || %s", any, t) : t;
        }
    return any;
}

/* Where another axis empties take v, its loops read none of its
 * positions: the condition of that ("M == 0"); NULL if it cannot happen.
 * NumPy's indexing checks every position, np.take those of each element of
 * the axes before theirs (none where those are empty). */
static const char *unread_positions(Emitter *e, const Value *v, int w)
{
    int k = (int)v->ival, n = v->shape.ndim;
    const char *before = any_empty(e, v->shape.d, k), *after = any_empty(e, v->shape.d + k + w, n - k - w);
    if (v->np_take)
        return after && before ? arena_printf(e->p->arena, "(%s) && !(%s)", after, before) : after;
    return before && after ? arena_printf(e->p->arena, "%s || %s", before, after) : before ? before : after;
}

/* Python's IndexError for a position out of its axis comes whether or not
 * an element of the result reads it: a take of statement st that another
 * axis may empty checks its positions in a pass of their own, as soon as
 * they can be computed: before the statement, or before its value `upto`
 * where they read values it stores before that (x[:, np.argsort(y)]), once,
 * where they could not be before its value `since` (0: the statement's
 * start). */
static void emit_position_checks(Emitter *e, const IrStmt *st, Ref since, Ref upto)
{
    const Program *p = e->p;
    int s = (int)(st - p->stmts), first = st->group ? p->groups[st->group].first : s;
    for (Ref r = 1; r < p->nvals; r++) {
        const Value *v = &p->vals[r];
        if (v->kind != IR_TAKE || v->stmt != s || (!v->uses && r != st->value) || !ir_checks_element(p, v))
            continue;
        int w = v->shape.ndim - p->vals[v->args[0]].shape.ndim + v->nargs - 1;   /* the positions' rank */
        const char *when = unread_positions(e, v, w);
        bool before = upto != 0;   /* (checked already where ready at `since`) */
        for (int i = 1; i < v->nargs && when; i++) {
            when = ready_before(p, st, first, upto, v->args[i]) ? when : NULL;
            before = before && ready_before(p, st, first, since, v->args[i]);
        }
        if (!when || before)
            continue;
        Shape where = { w, { 0 } };
        memcpy(where.d, v->shape.d + v->ival, sizeof(Dim) * (size_t)w);
        const char **iv = emit_index_vars(e, w);
        emit_line(e, "/* NumPy checks every position, also where another axis empties the result */");
        emit_open(e, "if (%s)", when);
        e->t->open_nest(e, "positions", where.d, iv, w, NULL);
        for (int i = 1; i < v->nargs; i++)
            if (!ir_host_int(p, v->args[i]))       /* (a host int has its CHECK_POSITION) */
                emit_line(e, "(void)%s;", cx_position(e, v, i - 1, &where, iv));
        e->t->close_nest(e);
        emit_close(e, NULL);
    }
}

/* What statement st checks before it computes anything: sizes, that the
 * names bound only in loops it reads have values, the Python numbers that
 * may fail, and positions no element may read. */
static void emit_statement_checks(Emitter *e, const IrStmt *st)
{
    emit_checks(e, st, 0);
    for (int i = 0; i < st->nbound_checks; i++)
        emit_bound_check(e, st, V(e->p, st->bound_checks[i]));
    emit_python_checks(e, st);
    emit_position_checks(e, st, 0, 0);
}

/* A C scalar carried into a loop, whose value may not be bound yet: its
 * flag goes with it (checked where the loop reads it). */
static void emit_carried_flag(Emitter *e, const Value *c)
{
    if (has_bound_flag(e, c))
        emit_flag_from(e, "bool ", c, V(e->p, c->args[0]));
}

static void emit_statement(Emitter *e, int s)
{
    Program *p = e->p;
    const IrStmt *st = &p->stmts[s];
    e->stmt = st;
    emit_blank(e);
    if (st->kind == ST_CARRY)
        emit_line(e, "/* line %d: %s, carried by the loop below, starts as its value before it */", st->line, st->name);
    else
        emit_line(e, "/* line %d: %s */", st->line, st->text);
    emit_statement_checks(e, st);
    for (Ref r = 1, since = 0; r < p->nvals; r++) {
        if (!ir_stores(p, s, r))
            continue;
        emit_position_checks(e, st, since, r);
        since = r;
        const Value *v = V(p, r);
        if (v->kind == IR_INPUT)
            e->t->input(e, v);
        else
            emit_value(e, r, st);
        if (ir_sized_by_data(v)) {
            emit_derived_sizes(e, r);
            emit_checks(e, st, r);
        }
    }
    if (st->kind == ST_CARRY)
        emit_carried_flag(e, V(p, st->value));
    emit_trace_and_frees(e, st);
}

/* A row group: every statement's checks and storage, then one loop over the
 * rows that runs each statement's code on row i0, then the traces and frees. */
static void emit_row_group(Emitter *e, const RowGroup *g)
{
    Program *p = e->p;
    const IrStmt *first = &p->stmts[g->first], *last = &p->stmts[g->last];
    emit_blank(e);
    if (g->first == g->last)
        emit_line(e, "/* line %d, row by row: %s */", first->line, first->text);
    else
        emit_line(e, "/* lines %d-%d, row by row (%s rows): each row goes through all of them while it is in cache */",
                  first->line, last->line, dim_str(p, g->rows));
    for (int s = g->first; s <= g->last; s++) {
        e->stmt = &p->stmts[s];
        emit_statement_checks(e, e->stmt);   /* (no bincount or mask in a row group) */
        for (Ref r = 1; r < p->nvals; r++)
            if (ir_stores(p, s, r))
                emit_value_storage(e, r, e->stmt);
    }
    e->t->open_rows(e, g);
    e->in_rows = true;
    for (int s = g->first; s <= g->last; s++) {
        e->stmt = &p->stmts[s];
        if (g->first != g->last)
            emit_line(e, "/* line %d: %s */", e->stmt->line, e->stmt->text);
        for (Ref r = 1; r < p->nvals; r++)
            if (ir_stores(p, s, r)) {
                emit_value_loops(e, r, e->stmt);
                e->t->row_value_done(e, V(p, r));
            }
    }
    e->in_rows = false;
    e->t->close_rows(e, g);
    for (int s = g->first; s <= g->last; s++)
        emit_trace_and_frees(e, &p->stmts[s]);
}

static void emit_run(Emitter *e)
{
    Program *p = e->p;
    emit_open(e, "static void npx_run(npx_state *st)");
    for (int i = 0; i < p->nsyms; i++)
        if (p->syms[i].kind == SYM_INPUT)
            emit_line(e, "const int64_t %s = st->sym[%d];", p->syms[i].cvar, p->syms[i].input_index);
    emit_derived_sizes(e, 0);
    if (p->nstmts == 0 && p->noutputs == 0)
        emit_line(e, "(void)st; /* an empty program: nothing to compute */");
    e->t->begin_run(e);
    for (int s = 0; s < p->nstmts; s++) {
        const IrStmt *st = &p->stmts[s];
        const RowGroup *g = st->group ? &p->groups[st->group] : NULL;
        if (g)
            emit_row_group(e, g);
        else if (st->kind == ST_FOR)
            emit_loop_open(e, st);
        else if (st->kind == ST_END)
            emit_loop_close(e, st);
        else
            emit_statement(e, s);
        s = g ? g->last : s;
    }
    e->t->end_compute(e);
    emit_blank(e);
    emit_line(e, "/* outputs */");
    for (Ref c = 1; c < p->nvals; c++)
        if (p->is_output[c] && V(p, c)->maybe_unbound)
            emit_bound_check(e, NULL, V(p, c));
    for (int j = 0; j < p->noutputs; j++)
        emit_output(e, j);
    e->t->end_run(e);
    emit_close(e, "npx_run");
}

void emit_tables(Emitter *e)
{
    Program *p = e->p;
    emit_blank(e);
    emit_line(e, "static const npx_input_desc npx_inputs[] = {");
    for (int i = 0; i < p->ninputs; i++) {
        const IrInput *in = &p->inputs[i];
        const char *syms = "-1", *dims = "0";
        for (int k = 0; k < in->shape.ndim; k++) {
            Dim d = in->shape.d[k];
            const char *sy = DIM_IS_SYM(d) ? arena_printf(p->arena, "%d", p->syms[DIM_SYMNO(d)].input_index) : "-1";
            const char *di = DIM_IS_SYM(d) ? "0" : arena_printf(p->arena, "%lld", (long long)d);
            syms = k ? arena_printf(p->arena, "%s, %s", syms, sy) : sy;
            dims = k ? arena_printf(p->arena, "%s, %s", dims, di) : di;
        }
        emit_line(e, "    { \"%s\", NPX_%s, %d, { %s }, { %s }, %d },", in->name, dtype_enum(in->dtype),
                  in->shape.ndim, syms, dims, in->line);
    }
    if (p->ninputs == 0)
        emit_line(e, "    { \"\", NPX_BOOL, 0, { -1 }, { 0 }, 0 },");
    emit_line(e, "};");
    const char *syms = "\"\"";
    int nsyms = 0;
    for (int i = 0; i < p->nsyms; i++)
        if (p->syms[i].kind == SYM_INPUT)
            syms = nsyms++ ? arena_printf(p->arena, "%s, \"%s\"", syms, p->syms[i].name)
                           : arena_printf(p->arena, "\"%s\"", p->syms[i].name);
    emit_line(e, "static const char *const npx_syms[] = { %s };", syms);
    const char *outs = "\"\"";
    for (int j = 0; j < p->noutputs; j++)
        outs = j ? arena_printf(p->arena, "%s, \"%s\"", outs, p->outputs[j]) : arena_printf(p->arena, "\"%s\"", p->outputs[j]);
    emit_line(e, "static const char *const npx_outputs[] = { %s };", outs);
    emit_line(e, "static const npx_program npx_prog = { \"%s\", %d, npx_syms, %d, npx_inputs, %d, npx_outputs, npx_run };",
              p->source, nsyms, p->ninputs, p->noutputs);
    emit_blank(e);
    if (p->lib)
        emit_lib_function(e);
    else
        emit_line(e, "int main(int argc, char **argv) { return npx_main(argc, argv, &npx_prog); }");
}

void emit_program(FILE *out, Program *p, const Target *t)
{
    Emitter e = { .out = out, .p = p, .t = t };
    t->prologue(&e);
    emit_run(&e);
    t->epilogue(&e);
}
