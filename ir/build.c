/* build.c: makes IR values and decides, as each is made, its dtype (NumPy 2's
 * ufunc type resolution with NEP 50's weak scalars) and its shape
 * (broadcasting, reductions, matmul). Every mismatch is reported here with
 * NumPy's words; a failed build returns 0 so that callers stop quietly. */
#include <string.h>
#include "build.h"

Ref build_literal(Program *p, Span span, npx_dtype t, int64_t ival, double fval, bool weak)
{
    Ref r = ir_new(p, IR_LITERAL, span);
    Value *v = V(p, r);
    v->dtype = t;
    v->weak = weak;
    v->ival = ival;
    v->fval = fval;
    return r;
}

Ref build_dimval(Program *p, Span span, const Shape *dims)
{
    Ref r = ir_new(p, IR_DIMVAL, span);
    V(p, r)->dtype = NPX_I64;
    V(p, r)->weak = true;
    V(p, r)->dims = *dims;
    return r;
}

/* ---- broadcasting ---------------------------------------------------- */

/* Two different literals, or two different input symbols: two names for
 * two axes, a mistake the user wants to hear about now. A symbol against a
 * literal, or a size computed from the data or from a slice, can only be
 * checked when the program runs. */
bool dims_differ(const Program *p, Dim a, Dim b)
{
    if (a == b)
        return false;
    if (!DIM_IS_SYM(a) || !DIM_IS_SYM(b))
        return !DIM_IS_SYM(a) && !DIM_IS_SYM(b);
    return p->syms[DIM_SYMNO(a)].kind == SYM_INPUT && p->syms[DIM_SYMNO(b)].kind == SYM_INPUT;
}

static bool dims_agree(Program *p, Dim a, Dim b, Dim *out, Span at)
{
    if (a == b || b == 1) {
        *out = a;
        return true;
    }
    if (a == 1) {
        *out = b;
        return true;
    }
    for (int side = 0; side < 2; side++) {       /* x[:, :1] - x: 1 long, or as long as the other */
        Dim unit = side ? b : a, other = side ? a : b;
        if (!ir_dim_at_most_one(p, unit))
            continue;
        *out = other;
        ir_add_unit_check(p, p->nstmts - 1, unit, other, at);
        return true;
    }
    if (dims_differ(p, a, b))
        return false;
    *out = DIM_IS_SYM(a) ? b : a;        /* prefer the literal */
    ir_add_check(p, p->nstmts - 1, a, b, at, "operands could not be broadcast together");
    return true;
}

bool broadcast_shapes(Program *p, const Shape *a, const Shape *b, Shape *out, Span at)
{
    const Shape *big = a->ndim >= b->ndim ? a : b;
    int off_a = big->ndim - a->ndim, off_b = big->ndim - b->ndim;
    Shape s = { big->ndim, { 0 } };
    for (int k = 0; k < big->ndim; k++) {
        Dim da = k >= off_a ? a->d[k - off_a] : 1;
        Dim db = k >= off_b ? b->d[k - off_b] : 1;
        if (!dims_agree(p, da, db, &s.d[k], at))
            return false;
    }
    *out = s;
    return true;
}

/* ---- dtype resolution ------------------------------------------------ */

/* NEP 50: a Python scalar takes the dtype of the arrays it meets when its kind
 * fits in theirs (f32 * 2.0 is f32, i32 + 1 is i32), else its own default. */
npx_dtype weak_common_dtype(Program *p, const Ref *args, int n, bool *all_weak)
{
    bool have_strong = false;
    npx_dtype strong = NPX_BOOL, weak = NPX_BOOL;
    for (int i = 0; i < n; i++) {
        Value *v = V(p, args[i]);
        if (v->weak)
            weak = dtype_promote(weak, dtype_default(v->dtype));
        else {
            strong = have_strong ? dtype_promote(strong, v->dtype) : v->dtype;
            have_strong = true;
        }
    }
    *all_weak = !have_strong;
    if (!have_strong)
        return weak;
    bool fits = weak == NPX_BOOL || (dtype_is_int(weak) && strong != NPX_BOOL) || dtype_is_float(strong);
    return fits ? strong : dtype_promote(strong, weak);
}

static const char *kind_word(npx_dtype t)
{
    return t == NPX_BOOL ? "bool" : dtype_is_int(t) ? "integer" : "floating-point";
}

/* Which loop NumPy would pick for common dtype c: see ir/ufuncs.h. */
static bool resolve_loop(Program *p, Span at, Ufunc f, npx_dtype c, npx_dtype *compute)
{
    const UfuncInfo *u = &ufunc_info[f];
    if (c == NPX_BOOL && f == UF_true_divide)
        c = NPX_I64;                     /* bool / bool is float64, as for ints */
    if (c == NPX_BOOL && !u->c_bool) {
        if (f == UF_subtract)
            diag_error(p->diag, at, "numpy boolean subtract, the '-' operator, is not supported; "
                                    "use the '^' operator or logical_xor instead");
        else if (f == UF_negative)
            diag_error(p->diag, at, "numpy boolean negative, the '-' operator, is not supported; "
                                    "use the '~' operator or logical_not instead");
        else
            diag_error(p->diag, at, "'%s' of bool arrays computes in %s in NumPy, which npxc does not "
                       "support yet; convert first, e.g. x.astype(f32)", u->name,
                       u->c_int ? "int8" : "float16");
        return false;
    }
    if (dtype_is_int(c) && !u->c_int && u->c_float) {
        *compute = NPX_F64;
        return true;
    }
    if ((dtype_is_int(c) && !u->c_int) || (dtype_is_float(c) && !u->c_float)) {
        diag_error(p->diag, at, "ufunc '%s' is not supported for %s inputs (%s)", u->name, kind_word(c),
                   dtype_name(c));
        return false;
    }
    *compute = c;
    return true;
}

/* Operators that Python computes on bools as on the ints 0 and 1 */
static bool python_int_op(Ufunc f)
{
    return f == UF_add || f == UF_subtract || f == UF_multiply || f == UF_floor_divide || f == UF_remainder ||
           f == UF_power || f == UF_negative || f == UF_positive || f == UF_invert || f == UF_left_shift ||
           f == UF_right_shift || f == UF_true_divide;
}

static bool is_comparison(Ufunc f)
{
    return f == UF_less || f == UF_less_equal || f == UF_greater || f == UF_greater_equal || f == UF_equal ||
           f == UF_not_equal;
}

/* NEP 50: a Python int must fit the integer dtype it is converted to; NumPy
 * compares it exactly all the same. One known when the program runs
 * (B * 1500000000) is compared in int64 and otherwise converted with a
 * check (args[i] becomes that conversion). */
static bool check_weak_ints(Program *p, Span span, Ufunc f, Ref *args, int n, npx_dtype *c)
{
    if (*c != NPX_I32)
        return true;
    for (int i = 0; i < n; i++) {
        const Value *v = V(p, args[i]);
        if (!v->weak || !dtype_is_int(v->dtype) || v->dtype == NPX_BOOL ||
            (v->kind == IR_LITERAL && v->ival >= INT32_MIN && v->ival <= INT32_MAX))
            continue;
        if (is_comparison(f)) {
            *c = NPX_I64;
            continue;
        }
        if (v->kind == IR_LITERAL) {
            diag_error(p->diag, v->span, "Python integer %lld out of bounds for int32", (long long)v->ival);
            return false;
        }
        args[i] = build_cast(p, span, args[i], NPX_I32);
        V(p, args[i])->checked = true;
    }
    return true;
}

/* Comparisons, maximum and minimum whose answer is known now: of an array
 * with itself (maximum(x, x), n < n for integers), or of a bool or int32
 * array (or one widened to int64) with a Python int outside that dtype's
 * range (NumPy 2 compares exactly): a constant, or the array itself. Folded
 * here, so that the C code never makes a comparison compilers call always
 * true or false (and warn about). r is the ufunc as built. */
static Ref fold_known_answer(Program *p, Span span, Ref r)
{
    const Value *v = V(p, r);
    Ufunc f = v->ufunc;
    bool cmp = is_comparison(f);
    bool max = f == UF_maximum || f == UF_fmax, min = f == UF_minimum || f == UF_fmin;
    if ((cmp || max || min) && v->nargs == 2 && v->args[0] == v->args[1] && !V(p, v->args[0])->weak) {
        /* x < x, maximum(x, x) */
        Shape shape = v->shape;
        if (max || min)
            return V(p, v->args[0])->dtype == v->dtype ? v->args[0] : build_cast(p, span, v->args[0], v->dtype);
        if (dtype_is_float(v->compute))
            return r;                            /* x == x is a NaN test */
        bool known = f == UF_less_equal || f == UF_greater_equal || f == UF_equal;
        return build_broadcast(p, span, build_literal(p, span, NPX_BOOL, known, known, false), &shape);
    }
    for (int side = 0; side < 2 && (cmp || max || min) && v->nargs == 2; side++) {
        const Value *x = V(p, v->args[side]), *k = V(p, v->args[1 - side]);
        const Value *h = x;                      /* the values x holds: through casts that widen to int64 */
        while (h->kind == IR_CAST && h->dtype == NPX_I64)
            h = V(p, h->args[0]);
        npx_dtype held = h->dtype;
        if (x->weak || k->kind != IR_LITERAL || !k->weak || !dtype_is_int(k->dtype) ||
            (held != NPX_BOOL && held != NPX_I32))
            continue;
        int64_t lo = held == NPX_BOOL ? 0 : INT32_MIN, hi = held == NPX_BOOL ? 1 : INT32_MAX;
        if (k->ival >= lo && k->ival <= hi)
            continue;
        bool above = k->ival > hi;                 /* k is above every element of x */
        if (max || min) {
            Shape shape = v->shape;
            npx_dtype t = v->dtype;
            if (above == max)
                return build_broadcast(p, span, build_literal(p, span, t, k->ival, (double)k->ival, false), &shape);
            return build_as(p, span, v->args[side], t);
        }
        bool lt = side == 0 ? above : !above;      /* the left operand is the smaller */
        bool known = f == UF_less || f == UF_less_equal ? lt : f == UF_greater || f == UF_greater_equal ? !lt
                                                                                                        : f == UF_not_equal;
        Shape shape = v->shape;
        return build_broadcast(p, span, build_literal(p, span, NPX_BOOL, known, known, false), &shape);
    }
    return r;
}

bool build_python_int(Ufunc f, int64_t a, int64_t b, int64_t *out)
{
    switch (f) {
    case UF_add: return npx_py_int_fits(NPX_PY_ADD, a, b, out);
    case UF_subtract: return npx_py_int_fits(NPX_PY_SUB, a, b, out);
    case UF_multiply: return npx_py_int_fits(NPX_PY_MUL, a, b, out);
    case UF_negative: return npx_py_int_fits(NPX_PY_NEG, a, 0, out);
    case UF_positive: *out = a; return true;
    case UF_maximum: *out = a > b ? a : b; return true;
    case UF_minimum: *out = a < b ? a : b; return true;
    case UF_power: return npx_py_int_fits(NPX_PY_POW, a, b, out);   /* (b < 0: a Python float) */
    case UF_floor_divide: return b != 0 && npx_py_int_fits(NPX_PY_QUOTIENT, a, b, out);
    case UF_remainder:                           /* (MIN % -1 is 0, as in Python) */
        *out = npx_mod_i64(a, b);
        return b != 0;
    default: return false;
    }
}

/* Python ints computed from Python int literals (101 - 1, 7 // 2, a
 * comparison of two): the literal Python gives, where int64 holds it and
 * Python raises nothing (the program reports 2 ** 70 and 7 // 0 when it
 * runs, as before). So C reads 100, not npx_sub_i64(101, 1). */
static Ref fold_python_ints(Program *p, Span span, Ref r)
{
    const Value *v = V(p, r);
    int64_t x[2] = { 0, 0 }, out;
    if (!v->weak || v->nargs == 0 || v->nargs > 2)   /* (an operator's result: where is not one) */
        return r;
    for (int i = 0; i < v->nargs; i++) {
        const Value *a = V(p, v->args[i]);
        if (a->kind != IR_LITERAL || !a->weak || dtype_is_float(a->dtype))
            return r;
        x[i] = a->ival;
    }
    if (is_comparison(v->ufunc) && v->nargs == 2) {
        Ufunc f = v->ufunc;
        bool known = f == UF_less ? x[0] < x[1] : f == UF_less_equal ? x[0] <= x[1] : f == UF_greater ? x[0] > x[1]
                   : f == UF_greater_equal ? x[0] >= x[1] : f == UF_equal ? x[0] == x[1] : x[0] != x[1];
        return build_literal(p, span, NPX_BOOL, known, known, true);
    }
    if (v->dtype != NPX_I64 || !build_python_int(v->ufunc, x[0], x[1], &out))
        return r;
    return build_literal(p, span, NPX_I64, out, (double)out, true);
}

/* fold_known_answer, and the ufunc it replaces reads nothing any more (its
 * operands' uses count only real readers) */
static Ref fold_known(Program *p, Span span, Ref r)
{
    Ref out = fold_python_ints(p, span, r);
    if (out == r)
        out = fold_known_answer(p, span, r);
    if (out != r)
        V(p, r)->nargs = 0;
    return out;
}

Ref build_ufunc(Program *p, Span at, Span span, Ufunc f, const Ref *operands, int n, bool operator_form)
{
    Ref args[3];
    for (int i = 0; i < n; i++)
        if (!(args[i] = operands[i]))
            return 0;
    Ref *data = f == UF_where ? args + 1 : args;
    int ndata = f == UF_where ? n - 1 : n;
    bool all_weak;
    npx_dtype c = weak_common_dtype(p, data, ndata, &all_weak), compute = c;
    if (all_weak && operator_form && c == NPX_BOOL && python_int_op(f))
        c = compute = NPX_I64;                   /* Python: True + True is 2 */
    if (!check_weak_ints(p, span, f, data, ndata, &c))
        return 0;
    if (f != UF_where && !resolve_loop(p, at, f, c, &compute))
        return 0;
    Shape s = V(p, args[0])->shape;
    for (int i = 1; i < n; i++)
        if (!broadcast_shapes(p, &s, &V(p, args[i])->shape, &s, at)) {
            diag_error(p->diag, at, "operands could not be broadcast together: %s and %s",
                       shape_str(p, &s, V(p, args[0])->dtype, false),
                       shape_str(p, &V(p, args[i])->shape, V(p, args[i])->dtype, false));
            return 0;
        }
    Ref r = ir_new(p, IR_UFUNC, span);
    Value *v = V(p, r);
    v->ufunc = f;
    v->compute = compute;
    v->dtype = ufunc_info[f].flags & UF_OUT_BOOL ? NPX_BOOL : ufunc_info[f].flags & UF_OUT_I32 ? NPX_I32 : compute;
    v->weak = all_weak && operator_form;  /* 2.0 * 3 stays a Python float; np.exp(2.0) does not */
    v->shape = s;
    memcpy(v->args, args, sizeof(Ref) * n);
    v->nargs = n;
    return fold_known(p, span, r);
}

/* Literal v as dtype t, when t holds its value exactly (a Python number
 * made an array, an int as a float): *ival and *fval */
static bool exact_literal(const Value *v, npx_dtype t, int64_t *ival, double *fval)
{
    if (v->kind != IR_LITERAL || t == NPX_BOOL)
        return false;
    bool from_float = dtype_is_float(v->dtype);
    if (dtype_is_int(t)) {
        *ival = v->ival;
        *fval = (double)v->ival;
        return !from_float && (t == NPX_I64 || (v->ival >= INT32_MIN && v->ival <= INT32_MAX));
    }
    double x = from_float ? v->fval : (double)v->ival;
    *fval = t == NPX_F32 ? (double)(float)x : x;
    *ival = 0;
    return from_float ? *fval == x || x != x : x == *fval && x >= -0x1p53 && x <= 0x1p53;
}

Ref build_converted(Program *p, Span span, Ref a, npx_dtype t)
{
    int64_t ival;
    double fval;
    if (a && exact_literal(V(p, a), t, &ival, &fval))
        return build_literal(p, span, t, ival, fval, false);
    return a && V(p, a)->dtype == t && !V(p, a)->weak ? a : build_cast(p, span, a, t);
}

Ref build_as(Program *p, Span span, Ref a, npx_dtype t)
{
    return !a || V(p, a)->dtype == t ? a : build_cast(p, span, a, t);
}

Ref build_cast(Program *p, Span span, Ref a, npx_dtype t)
{
    if (!a)
        return 0;
    Ref r = ir_new(p, IR_CAST, span);
    V(p, r)->dtype = t;
    V(p, r)->shape = V(p, a)->shape;
    V(p, r)->args[0] = a;
    V(p, r)->nargs = 1;
    return r;
}

/* A view of a with another shape or axis order (no data moves). */
static Ref build_view(Program *p, IrKind kind, Span span, Ref a, const Shape *s)
{
    Ref r = ir_new(p, kind, span);
    Value *v = V(p, r);
    v->dtype = V(p, a)->dtype;
    v->weak = false;
    v->shape = *s;
    v->args[0] = a;
    v->nargs = 1;
    return r;
}

/* Only a's axes stretch, from 1 to the shape's size: an axis of a is 1 or
 * the size (broadcast_to(x, (1,)) of 5 elements is NumPy's ValueError), a
 * symbol checked where the program runs. */
Ref build_broadcast(Program *p, Span span, Ref a, const Shape *s)
{
    if (!a)
        return 0;
    const Shape *from = &V(p, a)->shape;
    int off = s->ndim - from->ndim, stmt = p->nstmts - 1;
    bool fits = off >= 0;
    for (int k = 0; fits && k < from->ndim; k++) {
        Dim d = from->d[k], to = s->d[k + off];
        if (d == to || d == 1)
            continue;
        fits = (DIM_IS_SYM(d) || DIM_IS_SYM(to)) && !dims_differ(p, d, to);
        if (fits && ir_dim_at_most_one(p, d))    /* read at 0 where it is 1 (x[:, -1:]) */
            ir_add_unit_check(p, stmt, d, to, span);
        else if (fits)
            ir_add_check(p, stmt, d, to, span, "operands could not be broadcast together");
    }
    if (!fits) {
        diag_error(p->diag, span, "cannot broadcast %s to shape %s",
                   shape_str(p, &V(p, a)->shape, V(p, a)->dtype, false), shape_str(p, s, V(p, a)->dtype, false));
        return 0;
    }
    Ref r = build_view(p, IR_BROADCAST, span, a, s);
    V(p, r)->dtype = V(p, a)->weak ? dtype_default(V(p, a)->dtype) : V(p, a)->dtype;
    return r;
}

/* Can statement `at` read a value statement `from` computed: is it not
 * inside a loop that has ended before `at`? */
static bool still_computed(const Program *p, int from, int at)
{
    int depth = 0;
    for (int s = from + 1; s <= at; s++) {
        depth += p->stmts[s].kind == ST_FOR;
        depth -= p->stmts[s].kind == ST_END;
        if (depth < 0)
            return false;
    }
    return true;
}

/* The latest value after a, made from a, that `repeats` says the value being
 * built would repeat and that this statement can read (not one inside a loop
 * that has ended); 0 if none, or under -O0. */
static Ref earlier_same(Program *p, Ref a, bool (*repeats)(const Value *v, const void *want), const void *want)
{
    for (Ref q = p->nvals - 1; p->opt && q > a; q--) {
        const Value *v = V(p, q);
        if (v->args[0] == a && repeats(v, want) && still_computed(p, v->stmt, p->nstmts - 1))
            return q;
    }
    return 0;
}

/* a.T written twice is one view, so that its reductions are found again */
static bool same_transpose(const Value *v, const void *order)
{
    return v->kind == IR_TRANSPOSE && !memcmp(v->perm, order, sizeof(int) * (size_t)v->shape.ndim);
}

Ref build_transpose(Program *p, Span span, Ref a, const int *perm)
{
    if (!a)
        return 0;
    const Shape *in = &V(p, a)->shape;
    Shape s = { in->ndim, { 0 } };
    int order[NPX_MAX_RANK];
    for (int k = 0; k < in->ndim; k++)
        order[k] = perm ? perm[k] : in->ndim - 1 - k;
    for (int k = 0; k < in->ndim; k++)
        s.d[k] = in->d[order[k]];
    if (in->ndim < 2)
        return a;                        /* .T of a vector or a scalar is itself */
    if (V(p, a)->kind == IR_TRANSPOSE) {   /* a transpose of a transpose is one, or none */
        bool identity = true;
        for (int k = 0; k < in->ndim; k++) {
            order[k] = V(p, a)->perm[order[k]];
            identity &= order[k] == k;
        }
        a = V(p, a)->args[0];
        if (identity)
            return a;
    }
    Ref same = earlier_same(p, a, same_transpose, order);
    if (same)
        return same;
    Ref r = build_view(p, IR_TRANSPOSE, span, a, &s);
    memcpy(V(p, r)->perm, order, sizeof order);
    return r;
}

Ref build_expand(Program *p, Span span, Ref a, uint32_t new_axes, int ndim)
{
    if (!a)
        return 0;
    const Shape *in = &V(p, a)->shape;
    Shape s = { ndim, { 0 } };
    for (int k = 0, j = 0; k < ndim; k++)
        s.d[k] = new_axes >> k & 1 ? 1 : in->d[j++];
    Ref r = build_view(p, IR_EXPAND, span, a, &s);
    V(p, r)->axes = new_axes;
    return r;
}

/* a[index]: the axes that a slice keeps, in order, each as long as its
 * slice; an integer index drops its axis. */
Ref build_index(Program *p, Span span, Ref a, const AxisIndex *index)
{
    if (!a)
        return 0;
    const Shape *in = &V(p, a)->shape;
    Shape s = { 0, { 0 } };
    for (int k = 0; k < in->ndim; k++)
        if (index[k].from && !index[k].single)
            s.d[s.ndim++] = index[k].len;
        else if (!index[k].single)
            s.d[s.ndim++] = ir_slice_dim(p, in->d[k], index[k].start, index[k].stop, index[k].step);
    Ref r = build_view(p, IR_INDEX, span, a, &s);
    memcpy(V(p, r)->sel, index, sizeof(AxisIndex) * (size_t)in->ndim);
    return r;
}

Ref build_update(Program *p, Span span, Ref a, const AxisIndex *index, Ref v, Ref old)
{
    Ref r = build_view(p, IR_UPDATE, span, a, &V(p, a)->shape);
    Value *u = V(p, r);
    memcpy(u->sel, index, sizeof(AxisIndex) * (size_t)u->shape.ndim);
    u->args[1] = v;
    u->args[2] = old;
    u->nargs = old ? 3 : 2;
    return r;
}

Ref build_reshape(Program *p, Span span, Ref a, const Shape *s)
{
    if (a && V(p, a)->kind == IR_RESHAPE)      /* a reshape of a reshape reads the first one's array */
        a = V(p, a)->args[0];
    if (!a || shape_equal(&V(p, a)->shape, s))
        return a;
    return build_view(p, IR_RESHAPE, span, a, s);
}

Ref build_concat(Program *p, Span span, Ref a, Ref b, int axis, const Shape *s)
{
    Ref r = build_view(p, IR_CONCAT, span, a, s);
    Value *v = V(p, r);
    v->dtype = dtype_promote(V(p, a)->dtype, V(p, b)->dtype);
    v->args[1] = b;
    v->nargs = 2;
    v->ival = axis;
    return r;
}

/* ---- reductions ------------------------------------------------------ */

static npx_dtype reduce_dtype(Reduction red, npx_dtype t)
{
    switch (red) {
    case RED_sum:
    case RED_prod: return t == NPX_BOOL || t == NPX_I32 ? NPX_I64 : t;
    case RED_mean: return dtype_is_float(t) ? t : NPX_F64;
    case RED_any:
    case RED_all: return NPX_BOOL;
    case RED_argmax:
    case RED_argmin: return NPX_I64;
    default: return t;
    }
}

Ref build_reduce(Program *p, Span span, Reduction red, Ref a, uint32_t axes, bool keepdims)
{
    if (!a)
        return 0;
    const Value *in = V(p, a);
    return build_reduce_as(p, span, red, a, axes, keepdims,
                           reduce_dtype(red, in->weak ? dtype_default(in->dtype) : in->dtype));
}

/* What a reduction of a is, to find an earlier one it would repeat */
typedef struct {
    Reduction red;
    uint32_t axes;
    npx_dtype dtype;
} ReductionKey;

/* x.var() after x.mean() finds the mean there, kept as axes of length 1 or
 * not; never one whose empty axis gives its start (which an ordinary
 * reduction must not take) */
static bool same_reduction(const Value *v, const void *want)
{
    const ReductionKey *k = want;
    return v->kind == IR_REDUCE && v->red == k->red && v->axes == k->axes && v->dtype == k->dtype &&
           !v->empty_gives_start;
}

static Ref reduce(Program *p, Span span, Reduction red, Ref a, uint32_t axes, bool keepdims, npx_dtype t,
                  bool empty_gives_start)
{
    if (!a)
        return 0;
    const Value *in = V(p, a);
    Shape s = { 0, { 0 } };
    bool empty = false;                  /* a reduced axis of literal size 0 */
    for (int k = 0; k < in->shape.ndim; k++) {
        if (!(axes >> k & 1))
            s.d[s.ndim++] = in->shape.d[k];
        else if (keepdims)
            s.d[s.ndim++] = 1;
        empty |= axes >> k & 1 && in->shape.d[k] == 0;
    }
    /* max, min, argmax and argmin of nothing: NumPy's error, known here
     * for a literal size (symbolic sizes are checked when the program runs) */
    if (empty && empty_reduction_error(red)) {
        diag_error(p->diag, span, "%s", empty_reduction_error(red));
        return 0;
    }
    /* the same reduction computed before: that, or a view of it where one
     * keeps the axes as length 1 and the other drops them (x.mean(axis=0)
     * and x.std(axis=0)'s mean) */
    Ref same = empty_gives_start ? 0 : earlier_same(p, a, same_reduction, &(ReductionKey){ red, axes, t });
    if (same && V(p, same)->keepdims != keepdims)
        return keepdims ? build_expand(p, span, same, axes, in->shape.ndim) : build_reshape(p, span, same, &s);
    if (same)
        return same;
    Ref r = ir_new(p, IR_REDUCE, span);
    Value *v = V(p, r);
    v->red = red;
    v->dtype = t;
    v->shape = s;
    v->axes = axes;
    v->keepdims = keepdims;
    v->empty_gives_start = empty_gives_start;
    v->args[0] = a;
    v->nargs = 1;
    return r;
}

Ref build_reduce_as(Program *p, Span span, Reduction red, Ref a, uint32_t axes, bool keepdims, npx_dtype t)
{
    return reduce(p, span, red, a, axes, keepdims, t, false);
}

Ref build_extreme_or_start(Program *p, Span span, Reduction red, Ref a)
{
    return a ? reduce(p, span, red, a, 1u, false, V(p, a)->dtype, true) : 0;
}

/* a and v compared in their common dtype, as NumPy's PyArray_SearchSorted
 * converts them (a float32 a and a float64 v: in float64) */
Ref build_search(Program *p, Span at, Span span, Ref a, Ref v, bool right)
{
    if (!a || !v)
        return 0;
    const Value *va = V(p, a);
    if (va->shape.ndim != 1) {
        diag_error(p->diag, at, "searchsorted needs a 1-D sorted array, not %s",
                   shape_str(p, &va->shape, va->dtype, va->weak));
        return 0;
    }
    npx_dtype t = dtype_promote(va->dtype, V(p, v)->dtype);
    if (va->dtype != t)
        a = build_cast(p, span, a, t);
    if (V(p, v)->dtype != t)
        v = build_cast(p, span, v, t);
    Ref r = ir_new(p, IR_SEARCH, span);
    Value *s = V(p, r);
    s->dtype = NPX_I64;
    s->shape = V(p, v)->shape;
    s->args[0] = a;
    s->args[1] = v;
    s->nargs = 2;
    s->ival = right;
    return r;
}

Ref build_interp(Program *p, Span span, Ref xp, Ref fp, Ref x, Ref left, Ref right)
{
    Ref r = ir_new(p, IR_INTERP, span);
    Value *v = V(p, r);
    v->dtype = NPX_F64;
    v->shape = V(p, x)->shape;
    Ref args[] = { xp, fp, x, left, right };
    memcpy(v->args, args, sizeof args);
    v->nargs = 5;
    return r;
}

Ref build_sort(Program *p, Span span, Ref a, int axis, bool positions)
{
    if (!a)
        return 0;
    Ref r = ir_new(p, IR_SORT, span);
    Value *v = V(p, r), *in = V(p, a);
    v->dtype = positions ? NPX_I64 : in->dtype;
    v->shape = in->shape;
    v->args[0] = a;
    v->nargs = 1;
    v->ival = axis;
    v->positions = positions;
    return r;
}

/* cumsum's dtype is sum's, cumprod's prod's (bool and int32 accumulate in
 * int64) unless t is given (not bool) */
Ref build_cumulative(Program *p, Span span, Reduction red, Ref a, int axis, npx_dtype t)
{
    if (!a)
        return 0;
    Ref r = ir_new(p, IR_CUMSUM, span);
    Value *v = V(p, r), *in = V(p, a);
    v->red = red;
    v->dtype = t != NPX_BOOL ? t : reduce_dtype(red, in->dtype);
    v->shape = in->shape;
    v->args[0] = a;
    v->nargs = 1;
    v->ival = axis;
    return r;
}

/* Are sizes d[0..n) all numbers other than 0? */
static bool literal_nonempty(const Dim *d, int n)
{
    for (int k = 0; k < n; k++)
        if (DIM_MAY_BE_EMPTY(d[k]))
            return false;
    return true;
}

/* How many elements np.take picks before and at the taken axis (the first
 * `upto` sizes of its result s): an empty axis is an error only when this is
 * not 0, NumPy's "non-empty take"; the positions' count where npxc cannot
 * check that product. */
static Dim take_needs(Program *p, const Shape *s, int upto, Dim count)
{
    Dim product;
    if (ir_product_dim(p, s->d, upto, &product) && !ir_dim_from_data(p, product))
        return product;
    return count;
}

/* a's elements at integer positions: n index arrays for axes axis,
 * axis + 1, ..., broadcast together; their shape takes the place of those
 * axes. Positions into an empty axis are an error: for indexing whenever
 * there are any, for np.take (np_take) only where the axes before it have
 * elements too (NumPy's take checks the positions once for each of those). */
static Ref take(Program *p, Span at, Span span, Ref a, const Ref *positions, int n, int axis, bool np_take)
{
    if (!a)
        return 0;
    const Value *va = V(p, a);
    Shape where = { 0, { 0 } };
    for (int i = 0; i < n; i++) {
        if (!positions[i])
            return 0;
        const Value *vi = V(p, positions[i]);
        if (vi->weak && !dtype_is_int(vi->dtype)) {
            diag_error(p->diag, at, "only integers, slices (':'), '...', None and integer arrays are valid indices");
            return 0;
        }
        if (!dtype_is_int(vi->dtype)) {
            diag_error(p->diag, at, vi->dtype == NPX_BOOL ? "indexing with a boolean mask is not supported yet "
                                                            "(its length depends on the data)"
                                                          : "arrays used as indices must be of integer type, not %s",
                       shape_str(p, &vi->shape, vi->dtype, vi->weak));
            return 0;
        }
        if (!broadcast_shapes(p, &where, &vi->shape, &where, at)) {
            diag_error(p->diag, at, "shape mismatch: indexing arrays could not be broadcast together with shapes "
                                    "%s and %s", shape_str(p, &V(p, positions[0])->shape, V(p, positions[0])->dtype,
                                                           false), shape_str(p, &vi->shape, vi->dtype, false));
            return 0;
        }
    }
    Shape s = { va->shape.ndim - n + where.ndim, { 0 } };
    Dim count;                   /* how many positions each index array gives */
    if (s.ndim > NPX_MAX_RANK || !ir_product_dim(p, where.d, where.ndim, &count)) {
        diag_error(p->diag, at, "the result would have more than %d dimensions", NPX_MAX_RANK);
        return 0;
    }
    memcpy(s.d, va->shape.d, sizeof(Dim) * axis);
    memcpy(s.d + axis, where.d, sizeof(Dim) * where.ndim);
    memcpy(s.d + axis + where.ndim, va->shape.d + axis + n, sizeof(Dim) * (va->shape.ndim - axis - n));
    Dim needs = np_take ? take_needs(p, &s, axis + where.ndim, count) : count;
    for (int i = 0; i < n; i++) {                /* no position fits an empty axis */
        Dim size = va->shape.d[axis + i];
        /* (np.take's check needs the axes before too: a product with a
         * count the data gives is no size npxc has) */
        if (np_take && needs == count && ir_dim_from_data(p, count) && DIM_MAY_BE_EMPTY(size) &&
            !literal_nonempty(s.d, axis)) {
            diag_error(p->diag, at, "take of positions whose count comes from the data (%s) from an axis of size %s "
                                    "after axes that may be empty is not supported yet", dim_str(p, count),
                       dim_str(p, size));
            return 0;
        }
        const char *what = np_take ? "cannot do a non-empty take from an empty axes."
                                   : arena_printf(p->arena, "index is out of bounds for axis %d with size 0", axis + i);
        if (size == 0 && !DIM_IS_SYM(needs) && needs > 0) {
            diag_error(p->diag, at, "%s", what);
            return 0;
        }
        if (ir_host_int(p, positions[i]))       /* x[i]: checked before, even when nothing is read */
            ir_add_position_check(p, p->nstmts - 1, size, positions[i], axis + i, at);
        else if (DIM_MAY_BE_EMPTY(size) && needs != 0 && size != needs)
            ir_add_nonempty_check(p, p->nstmts - 1, size, needs, at, what);
    }
    Ref r = build_view(p, IR_TAKE, span, a, &s);
    memcpy(V(p, r)->args + 1, positions, sizeof(Ref) * n);
    V(p, r)->nargs = 1 + n;
    V(p, r)->ival = axis;
    V(p, r)->np_take = np_take;
    return r;
}

Ref build_take(Program *p, Span at, Span span, Ref a, const Ref *positions, int n, int axis)
{
    return take(p, at, span, a, positions, n, axis, false);
}

Ref build_np_take(Program *p, Span at, Span span, Ref a, Ref positions, int axis)
{
    return take(p, at, span, a, &positions, 1, axis, true);
}

Ref build_take_within(Program *p, Span at, Span span, Ref a, const Ref *positions, int n, int axis)
{
    Ref r = build_take(p, at, span, a, positions, n, axis);
    if (r)
        V(p, r)->within = true;
    return r;
}

/* ---- matrix products ------------------------------------------------- */

/* dot(a, b) with b of three or more axes: NumPy sums over a's last axis
 * and b's second to last, pairing every matrix (or vector) of a with every
 * matrix of b; the result has a's other axes, then b's. A contraction. */
static Ref dot_of_stacks(Program *p, Span at, Span span, Ref a, Ref b)
{
    int na = V(p, a)->shape.ndim, nb = V(p, b)->shape.ndim, out[NPX_MAX_RANK], nout = 0;
    if (na + nb - 1 > NPX_MAX_RANK) {
        diag_error(p->diag, at, "dot: the product of a %d-D and a %d-D array has %d axes to pair; at most %d",
                   na, nb, na + nb - 1, NPX_MAX_RANK);
        return 0;
    }
    Term t[2] = { { a, na, { 0 } }, { b, nb, { 0 } } };
    for (int k = 0; k < na; k++) {
        t[0].label[k] = k;
        if (k < na - 1)
            out[nout++] = k;
    }
    for (int k = 0; k < nb; k++) {
        t[1].label[k] = k == nb - 2 ? na - 1 : na + k;     /* the summed axis: a's last */
        if (k != nb - 2)
            out[nout++] = na + k;
    }
    return build_contraction(p, at, span, t, 2, out, nout);
}

/* A vector times a vector that no BLAS call computes (integers, bools, two
 * dtypes; floats on the C target without --blas): the sum of their
 * elementwise product in the dtype they promote to (wrapping as NumPy's dot
 * does), for bools whether any pair is both True. A reduction, which the
 * targets share among the threads and the GPU's blocks; as a product's loop
 * it ran on one thread, a GPU's too (10M float32: 5.2 ms, NumPy's sdot 4.1). */
static Ref vector_dot_reduction(Program *p, Span at, Span span, Ref a, Ref b)
{
    npx_dtype t = dtype_promote(V(p, a)->dtype, V(p, b)->dtype);
    const Ref pair[2] = { a, b };
    if (t == NPX_BOOL)
        return build_reduce_as(p, span, RED_any, build_ufunc(p, at, span, UF_logical_and, pair, 2, false), 1u, false,
                               NPX_BOOL);
    return build_reduce_as(p, span, RED_sum, build_ufunc(p, at, span, UF_multiply, pair, 2, false), 1u, false, t);
}

Ref build_matmul(Program *p, Span at, Span span, Ref a, Ref b, const char *what)
{
    if (!a || !b)
        return 0;
    const Value *va = V(p, a), *vb = V(p, b);
    for (int i = 0; i < 2; i++) {
        const Value *v = i ? vb : va;
        if (v->shape.ndim == 0) {
            diag_error(p->diag, at, "%s: operand %d is a scalar (%s); use '*' to scale an array", what, i,
                       shape_str(p, &v->shape, v->dtype, v->weak));
            return 0;
        }
    }
    int ka = va->shape.ndim - 1, kb = vb->shape.ndim >= 2 ? vb->shape.ndim - 2 : 0;
    Dim k1 = va->shape.d[ka], k2 = vb->shape.d[kb];
    if (dims_differ(p, k1, k2)) {
        diag_error(p->diag, at, "%s: shapes %s and %s not aligned: %s (dim %d) != %s (dim %d)", what,
                   shape_str(p, &va->shape, va->dtype, false), shape_str(p, &vb->shape, vb->dtype, false),
                   dim_str(p, k1), ka, dim_str(p, k2), kb);
        return 0;
    }
    if (k1 != k2)
        ir_add_check(p, p->nstmts - 1, k1, k2, at, "matmul: inner sizes differ");
    if (vb->shape.ndim > 2 && strcmp(what, "dot") == 0)
        return dot_of_stacks(p, at, span, a, b);
    bool blas_dot = dtype_is_float(va->dtype) && va->dtype == vb->dtype && (p->cuda || p->blas);
    if (va->shape.ndim == 1 && vb->shape.ndim == 1 && !blas_dot)
        return vector_dot_reduction(p, at, span, a, b);
    Shape stacks[2], s;          /* the axes before a matrix's last two broadcast */
    for (int i = 0; i < 2; i++) {
        const Shape *in = i ? &vb->shape : &va->shape;
        stacks[i].ndim = in->ndim >= 2 ? in->ndim - 2 : 0;
        memcpy(stacks[i].d, in->d, sizeof(Dim) * stacks[i].ndim);
    }
    if (!broadcast_shapes(p, &stacks[0], &stacks[1], &s, at)) {
        diag_error(p->diag, at, "%s: the stacks of matrices could not be broadcast together: %s and %s", what,
                   shape_str(p, &va->shape, va->dtype, false), shape_str(p, &vb->shape, vb->dtype, false));
        return 0;
    }
    if (va->shape.ndim >= 2)
        s.d[s.ndim++] = va->shape.d[va->shape.ndim - 2];
    if (vb->shape.ndim >= 2)
        s.d[s.ndim++] = vb->shape.d[vb->shape.ndim - 1];
    Ref r = ir_new(p, IR_MATMUL, span);
    Value *v = V(p, r);
    v->scale = 1;
    v->dtype = dtype_promote(va->dtype, vb->dtype);
    v->shape = s;
    v->args[0] = a;
    v->args[1] = b;
    v->nargs = 2;
    return r;
}

/* ---- creation -------------------------------------------------------- */

Ref build_arange(Program *p, Span span, npx_dtype t, double start, double step, Dim n)
{
    Ref r = ir_new(p, IR_ARANGE, span);
    Value *v = V(p, r);
    v->dtype = t;
    v->shape = (Shape){ 1, { n } };
    v->fval = start;
    v->step = step;
    return r;
}

/* A length only the data give: ?bincount, ?nonzero, numbered from the
 * second one on (?bincount2). */
static int data_sym(Program *p, const char *what)
{
    int count = 0;
    for (int i = 0; i < p->nsyms; i++)
        count += p->syms[i].kind == SYM_DATA;
    return ir_add_sym(p, count ? arena_printf(p->arena, "?%s%d", what, count + 1) : arena_printf(p->arena, "?%s", what),
                      SYM_DATA);
}

/* a[mask]: the elements of a (or its sub-arrays, when mask has fewer axes)
 * where mask is True, in C order; mask's shape is a's first axes'. */
bool mask_fits(Program *p, Span at, Ref a, Ref mask, int axis, int shown_axis)
{
    const Value *va = V(p, a), *vm = V(p, mask);
    if (vm->shape.ndim > va->shape.ndim - axis) {
        diag_error(p->diag, at, "too many indices for array: array is %d-dimensional, but %d were indexed",
                   va->shape.ndim, vm->shape.ndim);
        return false;
    }
    for (int k = 0; k < vm->shape.ndim; k++) {
        Dim da = va->shape.d[axis + k], dm = vm->shape.d[k];
        if (dims_differ(p, da, dm)) {
            diag_error(p->diag, at, "boolean index did not match indexed array along axis %d; size of axis is %s but "
                       "size of corresponding boolean axis is %s", shown_axis + k, dim_str(p, da), dim_str(p, dm));
            return false;
        }
        if (da != dm)
            ir_add_check(p, p->nstmts - 1, da, dm, at, "boolean index did not match indexed array");
    }
    return true;
}

Ref build_compress(Program *p, Span at, Span span, Ref a, Ref mask, int axis, int shown_axis)
{
    if (!a || !mask || !mask_fits(p, at, a, mask, axis, shown_axis))
        return 0;
    const Value *va = V(p, a), *vm = V(p, mask);
    Shape s = { 0, { 0 } };
    for (int k = 0; k < va->shape.ndim; k++)
        if (k < axis || k >= axis + vm->shape.ndim)
            s.d[s.ndim++] = va->shape.d[k];
        else if (k == axis)
            s.d[s.ndim++] = DIM_SYM(data_sym(p, "nonzero"));
    Ref r = ir_new(p, IR_COMPRESS, span);
    Value *v = V(p, r);
    v->dtype = va->dtype;
    v->shape = s;
    v->args[0] = a;
    v->args[1] = mask;
    v->nargs = 2;
    v->ival = axis;
    return r;
}

/* The counts of x's values (weighted by w), len long, at least minlength. */
static Ref bincount_of(Program *p, Span span, Ref x, Ref w, Dim len, Dim minlength, bool binned)
{
    Ref r = ir_new(p, IR_BINCOUNT, span);
    Value *v = V(p, r);
    v->dtype = w ? NPX_F64 : NPX_I64;
    v->shape = (Shape){ 1, { len } };
    v->args[0] = x;
    v->args[1] = w;
    v->nargs = w ? 2 : 1;
    v->ival = minlength;
    v->binned = binned;
    return r;
}

Ref build_bincount(Program *p, Span at, Span span, Ref x, Ref w, Dim minlength)
{
    if (!x)
        return 0;
    const Value *vx = V(p, x);
    if (vx->shape.ndim != 1 || !(dtype_is_int(vx->dtype) || vx->dtype == NPX_BOOL) || vx->weak) {
        diag_error(p->diag, at, "bincount needs a 1-D array of non-negative integers, not %s",
                   shape_str(p, &vx->shape, vx->dtype, vx->weak));
        return 0;
    }
    if (w) {
        const Value *vw = V(p, w);
        Dim len;
        if (vw->shape.ndim != 1 || !dims_agree(p, vx->shape.d[0], vw->shape.d[0], &len, at)) {
            diag_error(p->diag, at, "bincount: the weights (%s) must have the same length as the input (%s)",
                       shape_str(p, &vw->shape, vw->dtype, vw->weak), shape_str(p, &vx->shape, vx->dtype, false));
            return 0;
        }
    }
    return bincount_of(p, span, x, w, DIM_SYM(data_sym(p, "bincount")), minlength, false);
}

Ref build_bin_counts(Program *p, Span span, Ref bins, Ref w, Dim nbins)
{
    return bins ? bincount_of(p, span, bins, w, nbins, nbins, true) : 0;
}
