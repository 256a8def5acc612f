/* lower.h: state shared by lower.c (statements), lower_expr.c (expressions)
 * and the files of NumPy functions they call (lower_*.c). */
#ifndef NPX_LOWER_H
#define NPX_LOWER_H
#include "../parser/ast.h"
#include "build.h"

#define NPX_MAX_LOOPS 16           /* loops inside one another */

typedef enum {
    BIND_VALUE,     /* an input or an assigned name: value, version */
    BIND_CONST,     /* const K = 1000: ival */
    BIND_SYM,       /* a size symbol from an input declaration, or a loop's counter: sym */
    BIND_GONE,      /* after a loop, its counter: ival is the loop's line */
    BIND_LATE,      /* after a loop, a name bound only inside it: value is its last value in
                       the loop's body, out the loops (innermost first) it comes out of;
                       lower_find makes it a carried name when it is read (lower_loop.c) */
} BindKind;

typedef struct {
    const char *name;            /* interned */
    BindKind kind;
    Ref value;                   /* 0 after an error in its statement: uses stay quiet */
    int version;
    int64_t ival;
    int sym;
    Span first;                  /* where it was first declared */
    Ref data;                    /* BIND_VALUE: the array its value is in NumPy's terms (lower_data):
                                    names with one data are one array, which x[i] = v would change
                                    for all of them */
    int out[NPX_MAX_LOOPS];      /* BIND_LATE: loops, innermost first */
    int nout;
} Binding;

/* x[m] = f(y[m], ...): while its value is lowered, y[m] with the statement's
 * own index reads as the whole y (lower_setitem.c) */
typedef struct {
    const Expr *target;          /* x[m] as written */
    Ref mask;
    int ndim, whole;             /* x's axes, and those the mask leaves whole */
} Unmasking;

typedef struct {
    Program *p;
    Binding *bind;
    int nbind, capbind;
    Span *output_spans;
    int capspans;
    int depth;                   /* of lower_expr calls inside one another */
    int loops;                   /* the loops the statement being lowered is in */
    const Stmt *outer_loop;      /* the outermost of them */
    const Unmasking *unmasking;  /* lowering the value of x[m] = f(y[m]) */
} Lower;

/* A call being lowered: NumPy's function, or a method with its array as the
 * first positional argument. */
#define MAX_ARGS 8
typedef struct {
    const Expr *call;            /* for the caret */
    const char *fname;           /* as the user wrote it, for messages */
    const Expr *pos[MAX_ARGS];   /* positional arguments, the method's array first */
    int npos;
} Call;
typedef Ref (*Handler)(Lower *L, Call *c, int arg);

Binding *lower_find(Lower *L, const char *name);
Binding *lower_lookup(Lower *L, const char *name);   /* lower_find without making BIND_LATE a value */
Binding *lower_bind(Lower *L, const char *name, BindKind kind, Span span);
int lower_new_stmt(Lower *L, IrStmtKind kind, const Stmt *s, const char *name);
void lower_statement(Lower *L, const Stmt *s);
/* May an assignment bind name? Reported when it is a size symbol, a loop's
 * counter or a const. */
bool lower_assignable(Lower *L, const char *name, Span at);
/* r, the value a statement gives a name: one it made (from first_val on),
 * or a copy of an older one. */
Ref lower_own_value(Lower *L, Span span, Ref r, Ref first_val);
/* Statement st binds name to r; data: the array r is in NumPy's terms
 * (lower_data). r 0 (an error) leaves name quiet, or as it was when keep
 * (a failed x += e or x[i] = e). */
void lower_bind_value(Lower *L, int st, const char *name, Span at, Ref r, Ref data, bool keep);
/* lower_unpack.c: a, b = value */
void lower_unpack(Lower *L, const Stmt *s);
/* Does call return several arrays (np.divmod, np.nonzero)? The hint when
 * it is used as one value; part index of it, np.nonzero(m)[0]. */
bool lower_several_valued(Lower *L, const Expr *call);
const char *lower_unpack_hint(Lower *L, const Expr *call);
Ref lower_part_of(Lower *L, const Expr *call, const Expr *index);
/* lower_loop.c */
void lower_for(Lower *L, const Stmt *s);
void lower_gone(Lower *L, const Binding *b, Span at);   /* reports a use of a BIND_GONE name */
void lower_carry_out(Lower *L, Binding *b);              /* BIND_LATE to BIND_VALUE */
Ref lower_expr(Lower *L, const Expr *e);
/* Is name one of NumPy's elementwise functions (np.exp, np.maximum, np.where)? */
bool lower_names_ufunc(Lower *L, const Expr *e);   /* np.add, or add when unbound */
/* lower_setitem.c: while L->unmasking, is e a whole operand of the value (y[m]
 * itself, or a part that reads no y[m])? Then *r is its value. */
bool lower_unmasked_operand(Lower *L, const Expr *e, Ref *r);
Ref lower_operator(Lower *L, AstOp op, Span at, Span span, Ref a, Ref b);
/* ufunc `name` (NumPy's own name, "maximum") of a and b (0 when it has one operand) */
Ref lower_ufunc(Lower *L, const char *name, Span at, Span span, Ref a, Ref b);
/* A compile-time integer: literals, consts and + - * // of them. */
bool lower_const_int(Lower *L, const Expr *e, int64_t *out);
/* Is e made of integer literals and consts only (what lower_const_int takes)? */
bool lower_is_const_int(Lower *L, const Expr *e);
bool lower_dtype(Lower *L, const Expr *e, npx_dtype *out);
bool lower_bool_flag(Lower *L, const Expr *e, bool *out);
/* Which of the NULL-terminated names string e is (mode='wrap'): its index,
 * or the number of names when it is none of them or no string. */
int lower_choice(const Expr *e, const char *const *names);
/* One size (a constant, a size symbol, x.shape[k]) or a shape (a tuple of
 * them, or x.shape). */
bool lower_dim(Lower *L, const Expr *e, Dim *out);
bool lower_shape(Lower *L, const Expr *e, Shape *out);
Ref lower_size(Program *p, Span span, Dim d);          /* x.shape[k]: a Python int */
/* Adds axis e (negative counts from the end) to *mask; false, reported, when
 * it is out of range or already in it. */
bool lower_one_axis(Lower *L, const Expr *e, int ndim, uint32_t *mask);
/* An int or a tuple or list of them, each in range and given once, into
 * axes (made non-negative): how many, or -1 (reported in NumPy's words for
 * the function: out_of_range a format of the axis and ndim, repeated). */
int lower_axis_list(Lower *L, const Expr *e, int ndim, const char *out_of_range, const char *repeated, int *axes);
/* axis=None (every axis, also for e NULL), an int, or a tuple of ints. */
bool lower_axes(Lower *L, const Expr *e, int ndim, uint32_t *mask);
/* Binds c's arguments to params (NULL-terminated), NumPy's names, the first
 * nreq required; out[i] is NULL where an optional one is not given. */
bool lower_bind_args(Lower *L, Call *c, const char *const *params, int nreq, const Expr **out);
/* x converted for a reduction's or a scan's dtype= argument e (*t: that
 * dtype; left as it was when e is NULL or None) */
Ref lower_accumulate_as(Lower *L, Call *c, Ref x, const Expr *e, npx_dtype *t);

/* lower_ufunc_methods.c: np.add.reduce, np.add.accumulate, np.add.outer (f: the ufunc) */
Ref call_ufunc_method(Lower *L, Call *c, int f);

/* lower_composite.c: functions NumPy defines through others */
Ref call_var(Lower *L, Call *c, int is_std);
Ref call_ptp(Lower *L, Call *c, int unused);
/* how many elements of x a reduction over axes takes into each result */
Ref lower_count_over(Program *p, Span sp, Ref x, uint32_t axes);
/* var's value: sum((x - mean)**2) / max(n - ddof, 0) over axes, both sums
 * in dtype t (0: NumPy's default) */
Ref lower_variance(Lower *L, Span at, Span sp, Ref x, uint32_t axes, bool keepdims, Ref ddof, npx_dtype t);
Ref lower_ddof(Lower *L, const Expr *e);    /* a Python number, 0 when e is NULL */
/* e, c's argument param, as a number known at compile time (reported if not) */
bool lower_constant(Lower *L, Call *c, const Expr *e, const char *param, double *out);
/* linspace(start, stop, num, endpoint) of 0-d values known when the program
 * runs, as NumPy computes it in their float dtype */
Ref lower_linspace(Lower *L, Call *c, Ref start, Ref stop, Dim num, bool endpoint);
/* lower_nan.c: which 0 nansum, 1 nanprod, 2 nanmean, 3 nanmax, 4 nanmin, 5 nanvar, 6 nanstd */
Ref call_nan(Lower *L, Call *c, int which);
Ref call_eye(Lower *L, Call *c, int which);        /* eye, identity (1) */
/* column - row of an n x m matrix (int64): which diagonal each element is on */
Ref lower_diagonals(Program *p, Span at, Span span, Dim n, Dim m);
enum { LINSPACE, LOGSPACE, GEOMSPACE };
Ref call_linspace(Lower *L, Call *c, int kind);
Ref call_flatnonzero(Lower *L, Call *c, int unused);
Ref call_argwhere(Lower *L, Call *c, int unused);
Ref call_count_nonzero(Lower *L, Call *c, int unused);
/* lower_einsum.c */
Ref call_einsum(Lower *L, Call *c, int unused);
/* lower_index.c */
Ref lower_subscript(Lower *L, const Expr *e);      /* x[1:, 0, None, ...], x[idx] */
/* lower_setitem.c: x[index] = v, x[index] op= v: x's new value */
Ref lower_setitem(Lower *L, const Stmt *s, Binding *b);
/* the value of the name that x op= v or x[...] = v rebinds; 0 (reported) when it has none */
Ref lower_changed_value(Lower *L, const Stmt *s, const Binding *b);
Ref lower_data(Lower *L, Ref r);                  /* the array r is a view of, or r */
/* the array b's value is in NumPy's terms (Binding.data), where b holds one */
static inline Ref binding_data(const Binding *b) { return b->data ? b->data : b->value; }
Ref call_squeeze(Lower *L, Call *c, int unused);
Ref call_take(Lower *L, Call *c, int unused);
Ref call_take_along_axis(Lower *L, Call *c, int unused);
/* lower_window.c: slices whose bounds are computed when the program runs */
bool lower_window(Lower *L, const Expr *slice, AxisIndex *out);
/* lower_diagonal.c: a matrix's diagonals */
Ref lower_diagonal_of(Lower *L, Span at, Span span, Ref x, int64_t k);   /* the k-th diagonal of matrix x */
Ref call_diag(Lower *L, Call *c, int unused);
Ref call_diagonal(Lower *L, Call *c, int unused);
Ref call_trace(Lower *L, Call *c, int unused);
/* lower_views.c: functions that view an array differently */
Ref call_swapaxes(Lower *L, Call *c, int unused);
Ref call_moveaxis(Lower *L, Call *c, int unused);
Ref call_atleast(Lower *L, Call *c, int ndim);
Ref call_expand_dims(Lower *L, Call *c, int unused);
Ref call_broadcast_to(Lower *L, Call *c, int unused);
Ref call_reshape(Lower *L, Call *c, int flat);        /* flat: ravel, flatten */
Ref call_concatenate(Lower *L, Call *c, int stack);
Ref call_array(Lower *L, Call *c, int unused);        /* array, asarray */
/* The arrays of a tuple or a list (at most max), and the number of them; 0,
 * reported, when it is not one or an array in it fails. */
int lower_array_list(Lower *L, const Expr *e, Ref *out, int max);
/* a then b along axis k (b is the array at index in the user's list) */
Ref lower_join(Lower *L, Span span, Span at, Ref a, Ref b, int k, int index);
/* a[1:] (from 1) or a[:-1] (from 0) along axis k, as diff and trapezoid take them */
Ref lower_shifted(Program *p, Span span, Ref a, int k, int from);
/* a[..., i, ...]: element i of axis k, the axis gone */
Ref lower_component(Program *p, Span span, Ref a, int k, int64_t i);
Ref call_cumsum(Lower *L, Call *c, int red);          /* cumsum (RED_sum), cumprod (RED_prod) */
Ref call_sort(Lower *L, Call *c, int positions);      /* sort, argsort */
/* x as a 1-D array, in C order (axis=None); 0, reported, when its size would
 * take too many symbols. */
Ref lower_flatten(Lower *L, Span at, Span span, Ref x);
/* np.asarray of e, a value or a (nested) list of values, in dtype t
 * (NPX_NDTYPES: the one NumPy finds) */
Ref lower_array_of(Lower *L, const Expr *e, npx_dtype t);
/* lower_formulas.c: library functions that are short formulas in NumPy */
Ref call_sinc(Lower *L, Call *c, int unused);
Ref call_trapezoid(Lower *L, Call *c, int unused);
Ref call_select(Lower *L, Call *c, int unused);
Ref call_average(Lower *L, Call *c, int unused);
Ref lower_average(Lower *L, Call *c, Ref *scl);   /* scl: returned=True's sum of weights */
/* lower_unique.c: np.unique; lower_unique gives its arrays (the values, then
 * those of return_index, return_inverse, return_counts asked for) and how many */
Ref call_unique(Lower *L, Call *c, int unused);
int lower_unique(Lower *L, Call *c, Ref parts[4]);
/* lower_histogram.c: np.histogram's counts, and its bin edges in *edges */
Ref lower_histogram(Lower *L, Call *c, Ref *edges);
Ref call_polyval(Lower *L, Call *c, int unused);
Ref call_inner(Lower *L, Call *c, int unused);
Ref call_vdot(Lower *L, Call *c, int unused);
Ref call_cross(Lower *L, Call *c, int unused);
Ref call_tensordot(Lower *L, Call *c, int unused);
Ref call_kron(Lower *L, Call *c, int unused);
/* the arguments a and b of inner, vdot, kron, each made an array */
bool lower_two_arrays(Lower *L, Call *c, Ref *x, Ref *y);
/* the sum over axes_x[k] of x with axes_y[k] of y, k < n (axes distinct, in range) */
Ref lower_tensordot(Lower *L, Span at, Span sp, Ref x, Ref y, const int *axes_x, const int *axes_y, int n);
/* lower_search.c: look-ups in sorted arrays */
Ref call_searchsorted(Lower *L, Call *c, int unused);
Ref call_digitize(Lower *L, Call *c, int unused);
Ref call_interp(Lower *L, Call *c, int unused);
/* any(compare(a[:-1], a[1:])) of 1-D a: do two neighbours compare so? */
Ref lower_any_neighbours(Program *p, Span sp, Ref a, Ufunc compare);
/* lower_numeric.c: functions of values and numbers */
/* false, reported as not supported yet, when an optional argument is given */
bool lower_not_given(Lower *L, Call *c, const Expr *e, const char *param);
Ref lower_asarray(Program *p, Span span, Ref x);     /* a Python number as a 0-d array */
Ref call_copy(Lower *L, Call *c, int unused);
Ref call_len(Lower *L, Call *c, int unused);
Ref call_scalar_type(Lower *L, Call *c, int dtype);  /* np.float32(v) */
Ref call_isclose(Lower *L, Call *c, int all);        /* isclose, allclose */
Ref call_round(Lower *L, Call *c, int unused);
Ref call_nan_to_num(Lower *L, Call *c, int unused);
Ref call_logaddexp(Lower *L, Call *c, int unused);
/* lower_norm.c, lower_quantile.c */
Ref call_norm(Lower *L, Call *c, int unused);        /* linalg.norm */
Ref call_quantile(Lower *L, Call *c, int which);     /* median 0, quantile 1, percentile 100 */
Ref call_cov(Lower *L, Call *c, int which);          /* lower_cov.c: cov 0, corrcoef 1 */
/* lower_arrange.c: functions that rearrange an array's elements */
Ref call_flip(Lower *L, Call *c, int which);          /* flip, flipud, fliplr */
Ref call_diff(Lower *L, Call *c, int unused);
Ref call_hstack(Lower *L, Call *c, int which);        /* hstack, vstack, column_stack */
Ref call_tri(Lower *L, Call *c, int upper);           /* tril, triu */
Ref call_tile(Lower *L, Call *c, int unused);
Ref call_repeat(Lower *L, Call *c, int unused);
Ref call_roll(Lower *L, Call *c, int unused);
Ref call_pad(Lower *L, Call *c, int unused);

#endif
