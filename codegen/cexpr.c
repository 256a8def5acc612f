/* cexpr.c: the C expression that computes one element of a value, given the
 * index expressions of its axes. Materialized values are loads; inline values
 * are their operation applied to their operands' expressions, so a fused chain
 * becomes one expression; views only rewrite the indices. */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "target.h"

static Arena *A(Emitter *e) { return e->p->arena; }

const char *cx_dim(Emitter *e, Dim d)
{
    if (DIM_IS_SYM(d)) {
        emit_use_sym(e, DIM_SYMNO(d));
        return e->p->syms[DIM_SYMNO(d)].cvar;
    }
    return arena_printf(A(e), "%lld", (long long)d);
}

const char *cx_dims(Emitter *e, const Dim *d, int n)
{
    int64_t lit = 1;
    const char *syms = NULL;
    for (int k = 0; k < n; k++) {
        if (DIM_IS_SYM(d[k]))
            syms = syms ? arena_printf(A(e), "%s * %s", syms, cx_dim(e, d[k])) : cx_dim(e, d[k]);
        else
            lit *= d[k];
    }
    if (!syms)
        return arena_printf(A(e), "%lld", (long long)lit);
    return lit == 1 ? syms : arena_printf(A(e), "%s * %lld", syms, (long long)lit);
}

const char *cx_flat(Emitter *e, const Shape *s, Idx idx)
{
    if (!idx)
        return s->ndim ? "i" : "0";              /* a 0-d value is read outside any loop */
    const char *sum = NULL;
    for (int k = 0; k < s->ndim; k++) {
        if (strcmp(idx[k], "0") == 0)
            continue;
        const char *stride = cx_dims(e, s->d + k + 1, s->ndim - k - 1);
        const char *term = strcmp(stride, "1") == 0 ? idx[k]
                           : strcmp(idx[k], "1") == 0 ? stride
                                                      : arena_printf(A(e), "%s * %s", cx_paren(e, idx[k]), stride);
        sum = sum ? arena_printf(A(e), "%s + %s", sum, term) : term;
    }
    return sum ? sum : "0";
}

const char *cx_load(Emitter *e, Ref r, const char *flat)
{
    const Value *v = V(e->p, r);
    emit_use_value(e, r);
    if (v->shape.ndim == 0 && e->t->scalar_locals)
        return v->cname;
    return arena_printf(A(e), "%s[%s]", v->cname, v->shape.ndim == 0 ? "0" : flat);
}

const char *cx_element(Emitter *e, Ref r, const Shape *s, Idx idx)
{
    const Value *v = V(e->p, r);
    if (e->on_host && v->kind == IR_INPUT && v->shape.ndim == 0)
        return arena_printf(A(e), "(*(const %s *)st->in[%d].data)", dtype_ctype(v->dtype), v->index);
    if (!v->row_local || !e->in_rows)
        return cx_load(e, r, cx_flat(e, s, idx));
    Shape row = { s->ndim - 1, { 0 } };
    memcpy(row.d, s->d + 1, sizeof(Dim) * (size_t)row.ndim);
    emit_use_value(e, r);
    return arena_printf(A(e), "%s[%s]", v->row_cname, cx_flat(e, &row, idx + 1));
}

/* An operand that needs no parentheses: a name, a number, a call or a load. */
static bool atomic(const char *s)
{
    size_t n = strlen(s), i = 0;
    if (s[0] >= '0' && s[0] <= '9' && strspn(s, "0123456789.eE+-fx") == n)
        return true;                      /* a number: 1e-30f */
    while (i < n && (s[i] == '_' || s[i] == '.' || (s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z') ||
                     (s[i] >= 'A' && s[i] <= 'Z')))
        i++;
    if (i == n)
        return n > 0;
    if (i == 0 || (s[i] != '(' && s[i] != '['))
        return false;
    int depth = 0;
    for (size_t j = i; j < n; j++) {
        depth += s[j] == '(' || s[j] == '[';
        depth -= s[j] == ')' || s[j] == ']';
        if (depth == 0 && j != n - 1)
            return false;
    }
    return true;
}

const char *cx_paren(Emitter *e, const char *s)
{
    return atomic(s) ? s : arena_printf(A(e), "(%s)", s);
}

/* C's precedence of the loosest binary operator outside brackets in s, which
 * the templates and this file always write with spaces around it; 99 when
 * there is none. */
static int loosest(const char *s)
{
    static const struct { const char *op; int prec; } ops[] = {
        { " ? ", 1 }, { " || ", 2 }, { " && ", 3 }, { " | ", 4 }, { " ^ ", 5 }, { " & ", 6 },
        { " == ", 7 }, { " != ", 7 }, { " <= ", 8 }, { " >= ", 8 }, { " < ", 8 }, { " > ", 8 },
        { " << ", 9 }, { " >> ", 9 }, { " + ", 10 }, { " - ", 10 }, { " * ", 11 }, { " / ", 11 }, { " % ", 11 },
    };
    int depth = 0, low = 99;
    for (const char *c = s; *c; c++) {
        depth += *c == '(' || *c == '[';
        depth -= *c == ')' || *c == ']';
        if (depth || *c != ' ')
            continue;
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
            if (strncmp(c, ops[i].op, strlen(ops[i].op)) == 0 && ops[i].prec < low)
                low = ops[i].prec;
    }
    return low;
}

/* arg as an operand of template tmpl, at position `at` in it: parenthesized
 * unless C's precedence makes that unnecessary. */
static const char *operand(Emitter *e, const char *tmpl, const char *at, const char *arg)
{
    bool call_arg = at > tmpl && (at[-1] == '(' || (at[-1] == ' ' && at - 1 > tmpl && at[-2] == ',')) &&
                    (at[2] == ')' || at[2] == ',');
    if (call_arg || atomic(arg))
        return arg;
    int outer = loosest(tmpl), inner = loosest(arg);
    bool first = at == tmpl;
    if (inner == 99 && !(at > tmpl && at[-1] == '-' && arg[0] == '-'))
        return arg;                       /* a unary, a cast: binds tighter than any binary */
    /* what C's precedence and gcc's -Wparentheses both accept without
     * parentheses: arithmetic inside arithmetic or a comparison (a * b + c,
     * a + b < c), the left operand of its own level (a + b + c), anything
     * but ?: before a '?' */
    if (outer == 1 && inner >= 2 && first)
        return arg;
    if (outer >= 7 && inner >= 9 && (inner > outer || (inner == outer && first && outer >= 10)))
        return arg;
    return cx_paren(e, arg);
}

const char *cx_literal(Emitter *e, double f, int64_t i, bool is_float, npx_dtype to)
{
    switch (to) {
    case NPX_BOOL: return (is_float ? f != 0 : i != 0) ? "true" : "false";
    case NPX_I32:
    case NPX_I64: {
        int64_t v = is_float ? (int64_t)f : i;
        if (v == INT64_MIN)
            return "INT64_MIN";
        return arena_printf(A(e), v > 2147483647 || v < -2147483647 ? "INT64_C(%lld)" : "%lld", (long long)v);
    }
    default: break;
    }
    double v = is_float ? f : (double)i;
    if (to == NPX_F32)
        v = (float)v;
    if (isnan(v))
        return to == NPX_F32 ? "NAN" : "(double)NAN";
    if (isinf(v))
        return v > 0 ? (to == NPX_F32 ? "INFINITY" : "(double)INFINITY")
                     : (to == NPX_F32 ? "-INFINITY" : "-(double)INFINITY");
    char buf[64];
    snprintf(buf, sizeof buf, to == NPX_F32 ? "%.9g" : "%.17g", v);
    /* the shortest text that reads back as the same number: 40.0, 0.1, 1e-30 */
    bool integral = v == trunc(v) && fabs(v) < 1e15;
    if (integral)
        snprintf(buf, sizeof buf, "%.1f", v);
    for (int digits = 1; digits < 18 && !integral; digits++) {
        char b2[64];
        snprintf(b2, sizeof b2, "%.*g", digits, v);
        if ((to == NPX_F32 && (float)strtod(b2, NULL) == (float)v) || (to == NPX_F64 && strtod(b2, NULL) == v)) {
            memcpy(buf, b2, sizeof buf);
            break;
        }
    }
    bool has_point = strpbrk(buf, ".e") != NULL;
    return arena_printf(A(e), "%s%s%s", buf, has_point ? "" : ".0", to == NPX_F32 ? "f" : "");
}

const char *cx_convert(Emitter *e, const char *x, npx_dtype from, npx_dtype to)
{
    if (from == to)
        return x;
    if (to == NPX_BOOL)
        return arena_printf(A(e), "%s != 0", cx_paren(e, x));
    if (dtype_is_float(from) && dtype_is_int(to))
        return arena_printf(A(e), "npx_%s_to_%s(%s)", dtype_name(from), dtype_name(to), x);
    return arena_printf(A(e), "(%s)%s", dtype_ctype(to), cx_paren(e, x));
}

/* Fills a template of ir/ufuncs.h: $0..$2 the operands, $t the dtype's
 * name, $f its libm suffix, $l the source line. Any length: a fused chain of
 * thousands of operations is one expression. */
static const char *apply(Emitter *e, const char *tmpl, const char **args, npx_dtype t, int line)
{
    char line_text[16];
    snprintf(line_text, sizeof line_text, "%d", line);
    size_t ntmpl = strlen(tmpl), n = 0, total = 0;
    const char **piece = arena_alloc(A(e), sizeof(char *) * ntmpl);
    size_t *len = arena_alloc(A(e), sizeof(size_t) * ntmpl);
    for (const char *c = tmpl; *c; c++, n++) {
        if (c[0] == '$' && c[1] >= '0' && c[1] <= '2') {
            piece[n] = operand(e, tmpl, c, args[c[1] - '0']);
            c++;
        } else if (c[0] == '$' && (c[1] == 't' || c[1] == 'f' || c[1] == 'l')) {
            piece[n] = c[1] == 't' ? dtype_name(t) : c[1] == 'f' ? (t == NPX_F32 ? "f" : "") : line_text;
            c++;
        } else {
            piece[n] = c;
            len[n] = 1;
            total++;
            continue;
        }
        len[n] = strlen(piece[n]);
        total += len[n];
    }
    char *out = arena_alloc(A(e), total + 1), *o = out;
    for (size_t i = 0; i < n; i++) {
        memcpy(o, piece[i], len[i]);
        o += len[i];
    }
    return out;
}

Idx cx_broadcast_idx(Emitter *e, const Shape *s, Idx idx, const Shape *os)
{
    if (!idx)
        return NULL;
    const char **o = arena_alloc(A(e), sizeof(char *) * (NPX_MAX_RANK + 1));
    int off = s->ndim - os->ndim;
    for (int k = 0; k < os->ndim; k++) {
        bool unit = os->d[k] == 1 || ir_dim_at_most_one(e->p, os->d[k]);   /* x[:, :1] - x */
        o[k] = unit && s->d[k + off] != os->d[k] ? "0" : idx[k + off];
    }
    return o;
}

/* Is r surely not 0: a number other than 0, or the maximum of something
 * and a positive number (linspace's max(n - 1, 1))? */
static bool never_zero(const Program *p, Ref r)
{
    const Value *v = &p->vals[r];
    if (v->kind == IR_LITERAL)
        return dtype_is_float(v->dtype) ? v->fval != 0 : v->ival != 0;
    if (v->kind != IR_UFUNC || v->ufunc != UF_maximum)
        return false;
    for (int i = 0; i < v->nargs; i++) {
        const Value *a = &p->vals[v->args[i]];
        if (a->kind == IR_LITERAL && (dtype_is_float(a->dtype) ? a->fval > 0 : a->ival > 0))
            return true;
    }
    return false;
}

const char *cx_ufunc_at(Emitter *e, Ref r, const char *elem, Idx idx)
{
    const Value *u = V(e->p, r);
    const char *value = cx_value(e, u->args[1], idx, u->compute);
    bool op = u->ufunc == UF_add || u->ufunc == UF_subtract || u->ufunc == UF_multiply;
    if (op && dtype_is_float(u->dtype) && u->compute == u->dtype)   /* x[i] += v */
        return arena_printf(A(e), "%s %c= %s", elem, u->ufunc == UF_add ? '+' : u->ufunc == UF_subtract ? '-' : '*',
                            value);
    const char *args[2] = { cx_convert(e, elem, u->dtype, u->compute), value };
    return arena_printf(A(e), "%s = %s", elem,
                        cx_convert(e, apply(e, ufunc_template(u->ufunc, u->compute), args, u->compute, e->stmt->line),
                                   u->compute, u->dtype));
}

static bool int_bounds(const Program *p, Ref r, int64_t *lo, int64_t *hi);

/* A dim's bounds: a size is at least 0 and at most what ir_dim_most knows
 * (x[2:5] holds 3), a loop's counter between its range's ends. */
static bool dim_bounds(const Program *p, Dim d, int64_t *lo, int64_t *hi)
{
    if (!DIM_IS_SYM(d) || p->syms[DIM_SYMNO(d)].kind != SYM_LOOP) {
        int64_t most = ir_dim_most(p, d);
        *lo = DIM_IS_SYM(d) ? 0 : d;
        *hi = most >= 0 ? most : INT64_MAX;
        return true;
    }
    for (int k = 0; k < p->nloops; k++) {
        const Loop *l = &p->loops[k];
        int64_t startlo, starthi, stoplo, stophi;
        if (l->counter != DIM_SYMNO(d))
            continue;
        if (!int_bounds(p, l->start, &startlo, &starthi) || !int_bounds(p, l->stop, &stoplo, &stophi))
            return false;
        *lo = l->step > 0 ? startlo : stoplo;  /* (a counter lies between its first value and the stop) */
        *hi = l->step > 0 ? stophi : starthi;
        return true;
    }
    return false;
}

/* Where a Python int the program computes lies: in [*lo, *hi]; false where
 * that is unknown (a value from the data) or past int64. */
static bool int_bounds(const Program *p, Ref r, int64_t *lo, int64_t *hi)
{
    const Value *v = &p->vals[r];
    int64_t a[2], b[2], c[4];
    if (v->kind == IR_LITERAL && !dtype_is_float(v->dtype)) {
        *lo = *hi = v->ival;
        return true;
    }
    if (v->dtype == NPX_BOOL || (v->kind == IR_CAST && p->vals[v->args[0]].dtype == NPX_BOOL)) {
        *lo = 0, *hi = 1;
        return true;
    }
    if (v->kind == IR_DIMVAL && v->dims.ndim == 1)
        return dim_bounds(p, v->dims.d[0], lo, hi);
    if (v->kind == IR_DIMVAL) {   /* an array's size (x.size): the runtime checked that it fits */
        for (int k = 0; k < v->dims.ndim; k++)
            if (DIM_IS_SYM(v->dims.d[k]) && p->syms[DIM_SYMNO(v->dims.d[k])].kind == SYM_LOOP)
                return false;
        *lo = 0, *hi = INT64_MAX;
        return true;
    }
    if (v->kind != IR_UFUNC || !v->weak || v->compute != NPX_I64 || !int_bounds(p, v->args[0], &a[0], &a[1]))
        return false;
    if (v->ufunc == UF_negative)
        return !__builtin_sub_overflow(0, a[1], lo) && !__builtin_sub_overflow(0, a[0], hi);
    if (v->nargs != 2 || !int_bounds(p, v->args[1], &b[0], &b[1]))
        return false;
    switch (v->ufunc) {
    case UF_add: return !__builtin_add_overflow(a[0], b[0], lo) && !__builtin_add_overflow(a[1], b[1], hi);
    case UF_subtract: return !__builtin_sub_overflow(a[0], b[1], lo) && !__builtin_sub_overflow(a[1], b[0], hi);
    case UF_maximum: *lo = a[0] > b[0] ? a[0] : b[0], *hi = a[1] > b[1] ? a[1] : b[1]; return true;
    case UF_minimum: *lo = a[0] < b[0] ? a[0] : b[0], *hi = a[1] < b[1] ? a[1] : b[1]; return true;
    case UF_floor_divide:     /* by a positive number: between 0 and the dividend */
        if (b[0] <= 0)
            return false;
        *lo = a[0] < 0 ? a[0] : 0, *hi = a[1] > 0 ? a[1] : 0;
        return true;
    case UF_multiply:
        for (int k = 0; k < 4; k++)
            if (__builtin_mul_overflow(a[k / 2], b[k % 2], &c[k]))
                return false;
        *lo = *hi = c[0];
        for (int k = 1; k < 4; k++)
            *lo = c[k] < *lo ? c[k] : *lo, *hi = c[k] > *hi ? c[k] : *hi;
        return true;
    default: return false;
    }
}

/* Python numbers (weak values: sizes, counters, numbers made from them) are
 * Python's, not NumPy's: a division by 0 fails, and an int that may be past
 * int64 (MIN // -1 too) is an error, not a wrapped number. NULL: NumPy's
 * template. */
static const char *python_template(const Program *p, Ref r)
{
    const Value *v = &p->vals[r];
    npx_dtype c = v->compute;
    int64_t lo, hi;
    bool unbounded = c == NPX_I64 && !int_bounds(p, r, &lo, &hi);
    if (unbounded) {
        switch (v->ufunc) {
        case UF_add: return "npx_py_add(st, $l, $0, $1)";
        case UF_subtract: return "npx_py_sub(st, $l, $0, $1)";
        case UF_multiply: return "npx_py_mul(st, $l, $0, $1)";
        case UF_power: return "npx_py_pow(st, $l, $0, $1)";
        case UF_left_shift: return "npx_py_shl(st, $l, $0, $1)";
        case UF_negative: return "npx_py_neg(st, $l, $0, 0)";
        default: break;
        }
    }
    bool division = v->ufunc == UF_true_divide || v->ufunc == UF_remainder || v->ufunc == UF_floor_divide;
    bool by_minus_one = unbounded && v->ufunc == UF_floor_divide;   /* (MIN // -1) */
    if (!division || (c != NPX_I64 && c != NPX_F64) || (never_zero(p, v->args[1]) && !by_minus_one))
        return NULL;
    if (v->ufunc == UF_true_divide)
        return "npx_py_truediv(st, $l, $0, $1)";
    if (v->ufunc == UF_remainder)
        return c == NPX_I64 ? "npx_py_mod(st, $l, $0, $1)" : "npx_py_mod_f64(st, $l, $0, $1)";
    return c == NPX_I64 ? "npx_py_floordiv(st, $l, $0, $1)" : "npx_py_floordiv_f64(st, $l, $0, $1)";
}

static const char *cx_ufunc(Emitter *e, Ref r, Idx idx)
{
    const Value *v = V(e->p, r);
    const char *args[3];
    for (int i = 0; i < v->nargs; i++) {
        const Value *a = V(e->p, v->args[i]);
        npx_dtype to = v->ufunc == UF_where && i == 0 ? NPX_BOOL : v->compute;
        args[i] = cx_value(e, v->args[i], cx_broadcast_idx(e, &v->shape, idx, &a->shape), to);
    }
    npx_dtype c = v->compute;
    bool checked = v->weak && (e->on_host || !emit_python_checked(e->p, r));   /* (else checked before) */
    const char *tmpl = checked ? python_template(e->p, r) : NULL;
    if (v->ufunc == UF_square && (!atomic(args[0]) || strchr(args[0], '(')))
        tmpl = "npx_square_$t($0)";       /* an expression, written once */
    return apply(e, tmpl ? tmpl : ufunc_template(v->ufunc, c), args, c, e->p->stmts[v->stmt].line);
}

bool cx_is_flat(Emitter *e, Ref r, const Shape *s)
{
    const Value *v = V(e->p, r);
    if (v->shape.ndim == 0 && (v->materialize || v->kind == IR_LITERAL || v->kind == IR_DIMVAL))
        return true;
    if (!shape_equal(&v->shape, s))
        return false;
    if (v->materialize || v->kind == IR_RESHAPE)
        return true;
    if (v->kind != IR_UFUNC && v->kind != IR_CAST)
        return false;
    for (int i = 0; i < v->nargs; i++)
        if (!cx_is_flat(e, v->args[i], s))
            return false;
    return true;
}

/* The first index of axis selection x of an axis of size d: a number
 * where it is known now, else the runtime's npx_slice_first. */
static const char *index_first(Emitter *e, Dim d, const AxisIndex *x)
{
    int64_t start = x->start;
    if (x->from)
        return cx_host_int(e, x->from);
    if (!DIM_IS_SYM(d))
        return arena_printf(A(e), "%lld", (long long)(x->single ? (start < 0 ? start + d : start)
                                                                  : npx_slice_first(d, start, x->step)));
    if (!ir_index_reads_length(e->p, x))          /* past the end: checked, or an empty slice */
        return start == NPX_NO_BOUND ? "0" : arena_printf(A(e), "%lld", (long long)start);
    if (start == NPX_NO_BOUND)
        return arena_printf(A(e), "%s - 1", cx_dim(e, d));
    if (x->single || (x->step < 0 && start < 0))  /* below 0: checked, or an empty slice */
        return arena_printf(A(e), "%s - %lld", cx_dim(e, d), -(long long)start);
    return arena_printf(A(e), "npx_slice_first(%s, %lld, %lld)", cx_dim(e, d), (long long)start, (long long)x->step);
}

/* first + step * i, written as a person would */
static const char *stepped(Emitter *e, const char *first, int64_t step, const char *i)
{
    bool zero = strcmp(first, "0") == 0;
    if (strcmp(i, "0") == 0)
        return first;
    const char *pi = cx_paren(e, i);                /* i may be an index itself: x[::-1][1:] */
    const char *by = step == 1 ? i : step == -1 ? pi : arena_printf(A(e), "%lld * %s", (long long)(step < 0 ? -step : step), pi);
    if (zero && step > 0)
        return by;
    if (zero)
        return arena_printf(A(e), "-%s", by);
    return arena_printf(A(e), "%s %s %s", first, step < 0 ? "-" : "+", by);
}

const char *cx_arange(Emitter *e, const Value *v, const char *i)
{
    bool ints = v->fval == (double)(int64_t)v->fval && v->step == (double)(int64_t)v->step;
    npx_dtype t = ints ? NPX_I64 : NPX_F64;
    const char *start = cx_literal(e, v->fval, 0, true, t), *step = cx_literal(e, v->step, 0, true, t);
    const char *x = strcmp(step, "1") == 0 ? i : arena_printf(A(e), "%s * %s", cx_paren(e, i), step);
    if (strcmp(start, "0") != 0)
        x = arena_printf(A(e), "%s + %s", start, x);
    return cx_convert(e, x, t, v->dtype);
}

/* The position that x, positions from an array, names along axis k (of size
 * d) of the array it selects from, at x's indexes idx: checked as read. */
static const char *taken_position(Emitter *e, const AxisIndex *x, Dim d, int k, Idx idx)
{
    return arena_printf(A(e), "npx_take(st, %d, %s, %s, %d)", e->stmt->line, cx_value(e, x->from, idx, NPX_I64),
                        cx_dim(e, d), k);
}

const char *cx_scatter_position(Emitter *e, Ref r, Idx idx)
{
    const Value *u = V(e->p, r);
    const Shape *s = &V(e->p, u->args[0])->shape, b = ir_positions_shape(e->p, u->sel, s->ndim);
    int k = ir_first_positions_axis(e->p, u->sel, s->ndim), group = __builtin_ctz(ir_scatter_axes(e->p, u));
    const AxisIndex *x = &u->sel[k];
    return taken_position(e, x, s->d[k], k, cx_broadcast_idx(e, &b, idx + group, &V(e->p, x->from)->shape));
}

const char *cx_scatter_place(Emitter *e, Ref r, Idx idx, const char **places)
{
    const Value *u = V(e->p, r);
    const Shape *s = &V(e->p, u->args[0])->shape, b = ir_positions_shape(e->p, u->sel, s->ndim);
    int group = __builtin_ctz(ir_scatter_axes(e->p, u)), n = 0;
    Dim lens[NPX_MAX_RANK];
    const char *place = NULL;
    for (int k = 0; k < s->ndim; k++) {
        const AxisIndex *x = &u->sel[k];
        if (!ir_positions_axis(e->p, x))
            continue;
        const char *at = taken_position(e, x, s->d[k], k, cx_broadcast_idx(e, &b, idx + group, &V(e->p, x->from)->shape));
        place = !place ? at
                : n == 1 ? arena_printf(A(e), "%s * %s + %s", place, cx_dim(e, s->d[k]), at)
                         : arena_printf(A(e), "(%s) * %s + %s", place, cx_dim(e, s->d[k]), at);
        lens[n++] = s->d[k];
    }
    *places = cx_dims(e, lens, n);
    return place;
}

Idx cx_selected(Emitter *e, const Shape *s, const AxisIndex *sel, Idx idx)
{
    return cx_selected_at(e, s, sel, idx, NULL);
}

Idx cx_selected_at(Emitter *e, const Shape *s, const AxisIndex *sel, Idx idx, const char *at)
{
    const char **o = arena_alloc(A(e), sizeof(char *) * (NPX_MAX_RANK + 1));
    const Shape b = ir_positions_shape(e->p, sel, s->ndim);
    int group = -1;                              /* the box axis where the arrays of positions are */
    for (int k = 0, j = 0; k < s->ndim; k++) {
        const AxisIndex *x = &sel[k];
        if (ir_positions_axis(e->p, x)) {        /* read at the box's axes here, broadcast together */
            bool first_array = group < 0;
            if (first_array) {
                group = j;
                j += b.ndim;
            }
            Idx pi = cx_broadcast_idx(e, &b, idx + group, &V(e->p, x->from)->shape);
            o[k] = at && first_array ? at : taken_position(e, x, s->d[k], k, pi);
            continue;
        }
        if (x->single && x->from && V(e->p, x->from)->shape.ndim > 0) {   /* labels at the box's first axes */
            o[k] = taken_position(e, x, s->d[k], k, idx);
            continue;
        }
        const char *first = index_first(e, s->d[k], x);
        o[k] = x->single ? first : stepped(e, first, x->step, idx[j++]);
    }
    return o;
}

const char *cx_position(Emitter *e, const Value *v, int i, const Shape *where, Idx at)
{
    const Value *a = V(e->p, v->args[0]);
    int k = (int)v->ival + i;
    Idx pos = cx_broadcast_idx(e, where, at, &V(e->p, v->args[1 + i])->shape);
    return arena_printf(A(e), "npx_take(st, %d, %s, %s, %d)", e->p->stmts[v->stmt].line,
                        cx_value(e, v->args[1 + i], pos, NPX_I64), cx_dim(e, a->shape.d[k]), k);
}

/* The indexes of take v's operand at v's indexes idx: a[.., npx_take(i[..]),
 * npx_take(j[..]), ..], the positions checked and wrapped as they are read. */
static Idx taken_idx(Emitter *e, const Value *v, Idx idx)
{
    const Value *a = V(e->p, v->args[0]);
    const char **o = arena_alloc(A(e), sizeof(char *) * (NPX_MAX_RANK + 1));
    int k = (int)v->ival, n = v->nargs - 1, w = v->shape.ndim - a->shape.ndim + n;   /* w: the positions' rank */
    Shape where = { w, { 0 } };
    memcpy(where.d, v->shape.d + k, sizeof(Dim) * (size_t)w);
    for (int i = 0; i < a->shape.ndim; i++)              /* idx is NULL for a 0-d result */
        o[i] = i < k ? idx[i] : i >= k + n ? idx[i - n + w] : NULL;
    for (int i = 0; i < n; i++)
        o[k + i] = cx_position(e, v, i, &where, idx ? idx + k : NULL);
    return o;
}

const char *cx_block_offset(Emitter *e, Ref r)
{
    const Value *v = V(e->p, r), *a = V(e->p, v->args[0]);
    const char **first = arena_alloc(A(e), sizeof(char *) * (NPX_MAX_RANK + 1));
    for (int k = 0; k < v->shape.ndim; k++)
        first[k] = "0";
    bool was = e->on_host;
    e->on_host = true;
    const char *offset = cx_flat(e, &a->shape, v->kind == IR_TAKE ? taken_idx(e, v, first)
                                                                   : cx_selected(e, &a->shape, v->sel, first));
    e->on_host = was;
    return offset;
}

static const char *cx_raw(Emitter *e, Ref r, Idx idx, bool define)
{
    const Value *v = V(e->p, r);
    if (r == e->finishing)
        return e->finished;
    if (v->kind == IR_LITERAL)
        return cx_literal(e, v->fval, v->ival, dtype_is_float(v->dtype), v->dtype);
    if (v->materialize && !define && (!e->on_host || v->kind == IR_INPUT))
        return cx_element(e, r, &v->shape, idx);   /* (the host computes its few scalars again) */
    const Value *a = v->nargs ? V(e->p, v->args[0]) : NULL;
    const char **o = arena_alloc(A(e), sizeof(char *) * (NPX_MAX_RANK + 1));
    switch (v->kind) {
    case IR_DIMVAL: return cx_dims(e, v->dims.d, v->dims.ndim);
    case IR_ARANGE: return cx_arange(e, v, idx[0]);
    case IR_UFUNC: return cx_ufunc(e, r, idx);
    case IR_CAST:                        /* a Python int into int32: NumPy's OverflowError */
        if (v->checked && (e->on_host || !emit_python_checked(e->p, r)))
            return arena_printf(A(e), "npx_py_int32(st, %d, %s)", e->p->stmts[v->stmt].line,
                                cx_value(e, v->args[0], idx, NPX_I64));
        return cx_value(e, v->args[0], idx, v->dtype);
    case IR_BROADCAST: return cx_value(e, v->args[0], cx_broadcast_idx(e, &v->shape, idx, &a->shape), v->dtype);
    case IR_TRANSPOSE:
        for (int k = 0; k < v->shape.ndim; k++)
            o[v->perm[k]] = idx[k];
        return cx_value(e, v->args[0], o, v->dtype);
    case IR_EXPAND:
        for (int k = 0, j = 0; k < v->shape.ndim; k++)
            if (!(v->axes >> k & 1))
                o[j++] = idx[k];
        return cx_value(e, v->args[0], o, v->dtype);
    case IR_RESHAPE: return cx_load(e, v->args[0], cx_flat(e, &v->shape, idx));   /* a is stored */
    case IR_CONCAT: {                    /* i < n ? a[.., i, ..] : b[.., i - n, ..] */
        int k = (int)v->ival;
        const char *n = cx_dim(e, a->shape.d[k]);
        memcpy(o, idx, sizeof(char *) * (size_t)v->shape.ndim);
        o[k] = strcmp(n, "0") == 0 ? idx[k] : arena_printf(A(e), "%s - %s", idx[k], cx_paren(e, n));
        return arena_printf(A(e), "(%s < %s ? %s : %s)", idx[k], n, cx_value(e, v->args[0], idx, v->dtype),
                            cx_value(e, v->args[1], o, v->dtype));
    }
    case IR_TAKE: return cx_value(e, v->args[0], taken_idx(e, v, idx), v->dtype);
    case IR_SEARCH:                      /* a binary search of the stored sorted array */
        emit_use_value(e, v->args[0]);
        return arena_printf(A(e), "npx_search_%s(%s, %s, %s, %d)", dtype_name(a->dtype), a->cname,
                            cx_dim(e, a->shape.d[0]), cx_value(e, v->args[1], idx, a->dtype), (int)v->ival);
    case IR_INTERP: {
        const Value *fp = V(e->p, v->args[1]);
        const char *end[2];
        for (int k = 0; k < 2; k++)
            end[k] = cx_value(e, v->args[3 + k], cx_broadcast_idx(e, &v->shape, idx, &V(e->p, v->args[3 + k])->shape),
                              NPX_F64);
        emit_use_value(e, v->args[0]);
        emit_use_value(e, v->args[1]);
        return arena_printf(A(e), "npx_interp(%s, %s, %s, %s, %s, %s)", a->cname, fp->cname,
                            cx_dim(e, a->shape.d[0]), cx_value(e, v->args[2], idx, NPX_F64), end[0], end[1]);
    }
    case IR_INDEX: return cx_value(e, v->args[0], cx_selected(e, &a->shape, v->sel, idx), v->dtype);
    default:
        fprintf(stderr, "npxc: internal error: value %%%d is neither stored nor inline\n", r);
        return "0";
    }
}

/* A number that C writes as a constant, in the dtype it is stored as:
 * f for floats, i for integers and bools. */
typedef struct {
    npx_dtype dtype;
    double f;
    int64_t i;
} Constant;

/* k converted to `to` when C can write the result as a constant: not NaN, inf
 * or a float past the integer's range (the runtime's rule gives NumPy's
 * result for those), nor an integer past 2**53 into a float. */
static bool convert_constant(Constant *k, npx_dtype to)
{
    bool from_float = dtype_is_float(k->dtype);
    if (to == NPX_BOOL)
        k->i = from_float ? k->f != 0 : k->i != 0;
    else if (dtype_is_int(to) && from_float) {
        bool in_range = to == NPX_I32 ? k->f > -2147483649.0 && k->f < 2147483648.0
                                      : k->f >= -9223372036854775808.0 && k->f < 9223372036854775808.0;
        if (!in_range)
            return false;
        k->i = (int64_t)k->f;
    } else if (to == NPX_I32 && (k->i < INT32_MIN || k->i > INT32_MAX))
        return false;                    /* (int32 from int64 wraps at run time) */
    else if (dtype_is_float(to)) {
        if (!from_float && (k->i < -(INT64_C(1) << 53) || k->i > INT64_C(1) << 53))
            return false;
        k->f = from_float ? k->f : (double)k->i;
        if (to == NPX_F32)
            k->f = (float)k->f;
    }
    k->dtype = to;
    return true;
}

/* Whether r is one number known to npxc: a literal, an array filled with one
 * (np.zeros(n, dtype=np.int32)) or its cast, a where of three, so C reads
 * `0` and `0.0f`, not npx_f64_to_i32(0.0) and (float)0.0. */
static bool constant_of(const Program *p, Ref r, Constant *k)
{
    const Value *v = &p->vals[r];
    if (v->materialize)
        return false;
    if (v->kind == IR_LITERAL) {
        *k = (Constant){ v->dtype, v->fval, v->ival };
        return true;
    }
    if (v->kind == IR_BROADCAST || (v->kind == IR_CAST && !v->checked))
        return constant_of(p, v->args[0], k) && convert_constant(k, v->dtype);
    Constant cond, other;                /* np.where(True, 5, 7): all three known */
    if (v->kind == IR_UFUNC && v->ufunc == UF_where && constant_of(p, v->args[0], &cond) &&
        convert_constant(&cond, NPX_BOOL) && constant_of(p, v->args[cond.i ? 2 : 1], &other) &&
        constant_of(p, v->args[cond.i ? 1 : 2], k))
        return convert_constant(k, v->dtype);
    return false;
}

const char *cx_value(Emitter *e, Ref r, Idx idx, npx_dtype to)
{
    const Value *v = V(e->p, r);
    Constant k;
    if (constant_of(e->p, r, &k) && convert_constant(&k, to))
        return cx_literal(e, k.f, k.i, dtype_is_float(k.dtype), to);
    return cx_convert(e, cx_raw(e, r, idx, false), v->dtype, to);
}

static const char *cx_host(Emitter *e, Ref r, npx_dtype to)
{
    bool was = e->on_host;
    e->on_host = true;
    const char *s = cx_value(e, r, NULL, to);
    e->on_host = was;
    return s;
}

const char *cx_host_int(Emitter *e, Ref r)
{
    return cx_host(e, r, NPX_I64);
}

bool cx_python_may_fail(const Program *p, Ref r)
{
    const Value *v = &p->vals[r];
    if (v->kind == IR_CAST)
        return v->checked;
    return v->kind == IR_UFUNC && v->weak && v->nargs && python_template(p, r);
}

const char *cx_python_number(Emitter *e, Ref r)
{
    return cx_host(e, r, V(e->p, r)->dtype);
}

const char *cx_define(Emitter *e, Ref r, Idx idx)
{
    return cx_raw(e, r, idx, true);
}

bool cx_define_is_flat(Emitter *e, Ref r)
{
    const Value *v = V(e->p, r);
    if (v->kind != IR_UFUNC && v->kind != IR_CAST)
        return v->shape.ndim == 0;
    for (int i = 0; i < v->nargs; i++)
        if (!cx_is_flat(e, v->args[i], &v->shape))
            return false;
    return true;
}
