/* lower.c: turns the syntax tree into IR statements. Owns name binding (inputs,
 * consts, size symbols, assigned names) and the statement forms; expressions
 * are lowered by lower_expr.c. */
#include <string.h>
#include "lower.h"

static const char *stmt_text(Lower *L, Span span)
{
    const char *src = L->p->diag->src + span.begin;
    int n = span.end - span.begin;
    char *t = arena_strndup(L->p->arena, src, (size_t)n);
    int j = 0;
    for (int i = 0; i < n; i++) {                 /* one line, for comments and trace.txt */
        char c = t[i] == '\n' || t[i] == '\r' || t[i] == '\t' ? ' ' : t[i];
        if (c == ' ' && j > 0 && t[j - 1] == ' ')
            continue;
        if (c == '/' && j > 0 && t[j - 1] == '*')
            t[j++] = ' ';                         /* never close the C comment it goes in */
        t[j++] = c;
    }
    t[j] = 0;
    return t;
}

int lower_new_stmt(Lower *L, IrStmtKind kind, const Stmt *s, const char *name)
{
    Program *p = L->p;
    p->stmts = arena_grow(p->arena, p->stmts, &p->capstmts, p->nstmts + 1, sizeof(IrStmt));
    IrStmt *st = &p->stmts[p->nstmts];
    memset(st, 0, sizeof *st);
    st->kind = kind;
    st->span = s->span;
    st->line = diag_line(p->diag, s->span.begin);
    st->text = stmt_text(L, s->span);
    st->name = name;
    return p->nstmts++;
}

Binding *lower_lookup(Lower *L, const char *name)
{
    for (int i = L->nbind - 1; i >= 0; i--)
        if (L->bind[i].name == name)
            return &L->bind[i];
    return NULL;
}

Binding *lower_find(Lower *L, const char *name)
{
    Binding *b = lower_lookup(L, name);
    if (b && b->kind == BIND_LATE)
        lower_carry_out(L, b);
    return b;
}

Binding *lower_bind(Lower *L, const char *name, BindKind kind, Span span)
{
    Binding *b = lower_find(L, name);
    if (!b) {
        L->bind = arena_grow(L->p->arena, L->bind, &L->capbind, L->nbind + 1, sizeof(Binding));
        b = &L->bind[L->nbind++];
        memset(b, 0, sizeof *b);
        b->name = name;
        b->first = span;
    }
    b->kind = kind;
    return b;
}

/* A dim of an input declaration: a literal, a const, or a size symbol. */
static bool lower_decl_dim(Lower *L, Expr *e, Dim *out)
{
    Program *p = L->p;
    if (e->kind == EXPR_NAME && !e->np_prefix) {
        Binding *b = lower_find(L, e->name);
        if (!b) {
            b = lower_bind(L, e->name, BIND_SYM, e->span);
            b->sym = ir_add_sym(p, e->name, SYM_INPUT);
        }
        if (b->kind == BIND_SYM) {
            *out = DIM_SYM(b->sym);
            return true;
        }
    }
    int64_t n;
    if (!lower_const_int(L, e, &n))
        return false;
    if (n < 0) {
        diag_error(p->diag, e->span, "negative dimensions are not allowed (%lld)", (long long)n);
        return false;
    }
    *out = n;
    return true;
}

static void lower_input(Lower *L, const Stmt *s)
{
    Program *p = L->p;
    npx_dtype t;
    if (!dtype_from_name(s->dtype, &t)) {
        diag_error(p->diag, s->dtype_span, "unknown dtype '%s'; use bool, i32, i64, f32 or f64", s->dtype);
        lower_bind(L, s->name, BIND_VALUE, s->name_span);    /* declared all the same: no more errors about it */
        return;
    }
    Binding *old = lower_find(L, s->name);
    if (old && old->kind != BIND_SYM) {
        diag_error(p->diag, s->name_span, "'%s' is already declared", s->name);
        diag_note(p->diag, old->first, "'%s' was first declared here", s->name);
        return;
    }
    if (s->dims.n > NPX_MAX_RANK) {
        diag_error(p->diag, s->span, "arrays of more than %d dimensions are not supported", NPX_MAX_RANK);
        return;
    }
    Shape shape = { s->dims.n, { 0 } };
    bool ok = true;
    for (int k = 0; k < s->dims.n; k++)
        ok &= lower_decl_dim(L, s->dims.v[k], &shape.d[k]);
    if (!ok)
        return;
    if (old && old->kind == BIND_SYM) {
        diag_error(p->diag, s->name_span, "'%s' is already used as a size symbol", s->name);
        return;
    }
    int st = lower_new_stmt(L, ST_INPUT, s, s->name);
    p->inputs = arena_grow(p->arena, p->inputs, &p->capinputs, p->ninputs + 1, sizeof(IrInput));
    p->inputs[p->ninputs] = (IrInput){ s->name, t, shape, p->stmts[st].line };
    Ref r = ir_new(p, IR_INPUT, s->name_span);
    V(p, r)->dtype = t;
    V(p, r)->shape = shape;
    V(p, r)->index = p->ninputs++;
    p->stmts[st].value = r;
    p->stmts[st].version = 1;
    Binding *b = lower_bind(L, s->name, BIND_VALUE, s->name_span);
    b->value = r;
    b->data = r;
    b->version = 1;
}

static void lower_const(Lower *L, const Stmt *s)
{
    int64_t n;
    if (lower_find(L, s->name)) {
        diag_error(L->p->diag, s->name_span, "'%s' is already declared", s->name);
        return;
    }
    if (!lower_const_int(L, s->value, &n))
        return;
    Binding *b = lower_bind(L, s->name, BIND_CONST, s->name_span);
    b->ival = n;
}

static void lower_output(Lower *L, const Stmt *s)
{
    Program *p = L->p;
    for (int i = 0; i < s->nnames; i++) {
        for (int j = 0; j < p->noutputs; j++)
            if (p->outputs[j] == s->names[i]) {
                diag_error(p->diag, s->name_spans[i], "'%s' is already an output", s->names[i]);
                goto next;
            }
        p->outputs = arena_grow(p->arena, p->outputs, &p->capoutputs, p->noutputs + 1, sizeof(char *));
        p->outputs[p->noutputs] = s->names[i];
        L->output_spans = arena_grow(p->arena, L->output_spans, &L->capspans, p->noutputs + 1, sizeof(Span));
        L->output_spans[p->noutputs++] = s->name_spans[i];
    next:;
    }
}

Ref lower_changed_value(Lower *L, const Stmt *s, const Binding *b)
{
    if (b && b->kind == BIND_GONE) {
        lower_gone(L, b, s->name_span);
        return 0;
    }
    if (!b || b->kind != BIND_VALUE) {
        diag_error(L->p->diag, s->name_span, "name '%s' is not defined", s->name);
        return 0;
    }
    return b->value;
}

/* name op= value is name = name op value, and must keep name's dtype and
 * shape (SPEC: an error where the result's dtype would differ). */
static Ref lower_augmented(Lower *L, const Stmt *s, Binding *b)
{
    Program *p = L->p;
    Ref old = lower_changed_value(L, s, b), rhs = b && b->kind == BIND_VALUE ? lower_expr(L, s->value) : 0;
    if (!old || !rhs)
        return 0;
    Ref r = s->op == AST_MATMUL ? build_matmul(p, s->op_span, s->span, old, rhs, "matmul")
                                : lower_operator(L, s->op, s->op_span, s->span, old, rhs);
    if (!r)
        return 0;
    const Value *vo = V(p, old), *vr = V(p, r);
    if (vo->weak)
        return r;                                 /* a Python scalar: s += 1 is s = s + 1 */
    if (vr->dtype != vo->dtype) {
        diag_error(p->diag, s->op_span, "cannot cast the result of '%s' from %s to %s in place; "
                   "write %s = %s %s ... to get a %s array",
                   ast_op_text[s->op], dtype_name(vr->dtype), dtype_name(vo->dtype), s->name, s->name,
                   ast_op_text[s->op], dtype_name(vr->dtype));
        return 0;
    }
    if (shape_equal(&vr->shape, &vo->shape))
        return r;
    bool fits = vr->shape.ndim == vo->shape.ndim;
    for (int k = 0; fits && k < vo->shape.ndim; k++)
        fits = !dims_differ(p, vr->shape.d[k], vo->shape.d[k]);
    if (!fits) {
        diag_error(p->diag, s->op_span, "non-broadcastable output operand: the result %s does not fit in %s",
                   shape_str(p, &vr->shape, vr->dtype, false), shape_str(p, &vo->shape, vo->dtype, false));
        return 0;
    }
    for (int k = 0; k < vo->shape.ndim; k++)      /* sizes that may agree (V and V[:100]): checked at run time */
        if (vr->shape.d[k] != vo->shape.d[k])
            ir_add_check(p, p->nstmts - 1, vo->shape.d[k], vr->shape.d[k], s->op_span,
                         "non-broadcastable output operand");
    V(p, r)->shape = vo->shape;
    return r;
}

bool lower_assignable(Lower *L, const char *name, Span at)
{
    Program *p = L->p;
    const Binding *b = lower_find(L, name);
    if (b && (b->kind == BIND_SYM || b->kind == BIND_CONST)) {
        diag_error(p->diag, at, "cannot assign to '%s': it is %s", name,
                   b->kind == BIND_CONST                     ? "a const"
                   : p->syms[b->sym].kind == SYM_LOOP ? "the loop's counter (it takes the next value of range(...) "
                                                        "at each iteration)"
                                                      : "a size symbol");
        return false;
    }
    return true;
}

Ref lower_own_value(Lower *L, Span span, Ref r, Ref first_val)
{
    Program *p = L->p;
    /* Values are never aliased: a statement that only names an existing value
     * (y = x) gets its own copy. So does a Python number in a loop, where
     * it may be carried to the next iteration in a variable of its own. A
     * name bound only inside a loop that ended is read as the value carried
     * out of it, which the statement makes but the loop's end computes. */
    if (r && (r < first_val || V(p, r)->late) && (!V(p, r)->weak || L->loops > 0)) {
        bool weak = V(p, r)->weak;
        r = build_cast(p, span, r, V(p, r)->dtype);
        V(p, r)->weak = weak;
    }
    return r;
}

void lower_bind_value(Lower *L, int st, const char *name, Span at, Ref r, Ref data, bool keep)
{
    Program *p = L->p;
    const Binding *old = lower_find(L, name);
    Ref before = old && old->kind == BIND_VALUE ? old->value : 0;
    Binding *b = lower_bind(L, name, BIND_VALUE, at);
    b->value = r || !keep ? r : before;
    b->data = r ? data : b->data;
    b->version++;
    p->stmts[st].value = r;
    p->stmts[st].version = b->version;
}

static void lower_assign(Lower *L, const Stmt *s)
{
    Program *p = L->p;
    if (s->unpacks) {
        lower_unpack(L, s);
        return;
    }
    if (!lower_assignable(L, s->name, s->name_span))
        return;
    Binding *b = lower_find(L, s->name);
    int st = lower_new_stmt(L, ST_ASSIGN, s, s->name);
    int first_val = p->nvals;
    Ref r = s->target ? lower_setitem(L, s, b) : s->op == AST_NOP ? lower_expr(L, s->value) : lower_augmented(L, s, b);
    /* y = x and views (y = x[1:]) share x's array in NumPy; x[i] = v keeps
     * it (x += v is x = x + v, a new value: SPEC) */
    Ref data = !r ? 0 : s->target ? b->data : lower_data(L, r);
    r = lower_own_value(L, s->span, r, first_val);
    lower_bind_value(L, st, s->name, s->name_span, r, data, s->op != AST_NOP || s->target);
}

static void check_outputs(Lower *L)
{
    Program *p = L->p;
    p->output_vals = arena_alloc(p->arena, sizeof(Ref) * (size_t)(p->noutputs + 1));
    for (int j = 0; j < p->noutputs; j++) {
        Binding *b = lower_find(L, p->outputs[j]);
        if (b && b->kind == BIND_GONE)
            lower_gone(L, b, L->output_spans[j]);
        else if (!b || b->kind != BIND_VALUE)
            diag_error(p->diag, L->output_spans[j], "output '%s' is never assigned", p->outputs[j]);
        else
            p->output_vals[j] = b->value;
    }
}

/* Literal sizes whose product no machine could hold (nor int64 count) are
 * an error where the array is made, once a statement: values from `first`. */
static void check_sizes(Program *p, Ref first)
{
    int reported = -1;
    for (Ref r = first; r < p->nvals; r++) {
        const Value *v = &p->vals[r];
        int64_t n = 1;
        bool huge = false;
        for (int k = 0; k < v->shape.ndim && !huge; k++)
            huge = !DIM_IS_SYM(v->shape.d[k]) && (__builtin_mul_overflow(n, v->shape.d[k], &n) || n > NPX_MAX_ELEMENTS);
        if (huge && v->stmt != reported) {
            diag_error(p->diag, v->span, "this array would be too big: %s, more than %lld elements",
                       shape_str(p, &v->shape, v->dtype, false), (long long)NPX_MAX_ELEMENTS);
            reported = v->stmt;
        }
    }
}

void lower_statement(Lower *L, const Stmt *s)
{
    Program *p = L->p;
    Ref first = p->nvals ? p->nvals : 1;
    if (L->loops > 0 && s->kind != STMT_ASSIGN && s->kind != STMT_FOR) {
        diag_error(p->diag, s->span, "only assignments and loops can be inside a loop; "
                   "declare inputs, consts and outputs before it");
        return;
    }
    if (s->kind == STMT_FOR) {                    /* its statements hold their own messages */
        lower_for(L, s);
        return;
    }
    diag_hold(p->diag);
    switch (s->kind) {
    case STMT_INPUT: lower_input(L, s); break;
    case STMT_CONST: lower_const(L, s); break;
    case STMT_OUTPUT: lower_output(L, s); break;
    case STMT_ASSIGN: lower_assign(L, s); break;
    case STMT_FOR: break;
    }
    check_sizes(p, first);
    diag_release(p->diag);
}

bool ir_lower(Program *p, const void *tree)
{
    const AstProgram *ast = tree;
    Lower L = { .p = p };
    int errors = p->diag->errors;
    for (int i = 0; i < ast->n; i++)
        lower_statement(&L, ast->v[i]);
    check_outputs(&L);
    return p->diag->errors == errors;
}
