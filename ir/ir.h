/* ir.h: the program as npxc reasons about it. Values are small integer
 * handles into one table; each carries its dtype and shape (decided when it is
 * built, ir/build.c) and its source span. Statements bind source names to
 * values. Passes (ir/fuse.c, ir/schedule.c) only set the fields marked "set by
 * passes"; the emitters print what these fields say. */
#ifndef NPX_IR_H
#define NPX_IR_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "../common/arena.h"
#include "../common/diag.h"
#include "../runtime/npx_rt.h"
#include "../runtime/npx_math.h"   /* Python's slice rules, shared with generated code */
#include "ufuncs.h"

typedef int32_t Ref;             /* index into Program.vals; 0 is "none" */

/* More elements than any array can have: literal sizes beyond it are an
 * error, index and slice bounds beyond it act as it does. */
#define NPX_MAX_ELEMENTS ((int64_t)1 << 62)

/* A size: >= 0 a literal, < 0 the size symbol number -(d+1). */
typedef int64_t Dim;
#define DIM_SYM(s) (-(Dim)(s) - 1)
#define DIM_IS_SYM(d) ((d) < 0)
#define DIM_SYMNO(d) ((int)(-(d) - 1))
#define DIM_MAY_BE_EMPTY(d) (DIM_IS_SYM(d) || (d) == 0)   /* a symbol, which may be 0 when the program runs, or 0 */

typedef struct {
    int ndim;
    Dim d[NPX_MAX_RANK];
} Shape;

typedef enum {
    SYM_INPUT,      /* bound at run time from the inputs or --dim: B, V */
    SYM_DATA,       /* known only after a computation: ?bincount */
    SYM_SLICE,      /* the length of a slice of an axis whose size is a symbol: B-1, B[::2] */
    SYM_PRODUCT,    /* a product of sizes, symbols among them: B*V (x.reshape(-1)) */
    SYM_QUOTIENT,   /* base / divisor, a size inferred by reshape: B*V/6 (x.reshape(-1, 6)) */
    SYM_SUM,        /* factors.d[0] + factors.d[1], concatenate's axis: B+3 */
    SYM_MIN,        /* the smaller of factors.d[0] and factors.d[1], an N x M matrix's diagonal:
                       min(N,M) */
    SYM_LOOP,       /* a loop's counter (for i in range(...)), never a size */
} SymKind;

typedef struct {
    const char *name;            /* as shown to the user: "B", "?bincount", "B-1" */
    const char *cvar;            /* the C variable holding it: "B", "counts_len", "B_1" */
    SymKind kind;
    int input_index;             /* SYM_INPUT: position in the runtime's sym[] */
    Dim base;                    /* SYM_SLICE: len(range(base)[start:stop:step]), */
    int64_t start, stop, step;   /* npx_math.h's npx_slice_len */
    Shape factors;               /* SYM_PRODUCT: input and slice symbols, then a literal > 1;
                                    SYM_SUM, SYM_MIN: its two operands */
    Dim divisor;                 /* SYM_QUOTIENT (base is the dividend) */
} Sym;

/* What an index does to one axis of an array: picks one element (the axis
 * is gone) or a slice. Bounds as written, NPX_NO_BOUND where absent; or a
 * window, a slice that moves with a loop's counter: len elements from the
 * host scalar `from` (x[b*BS:(b+1)*BS], checked to lie inside the axis). */
typedef struct {
    bool single;                 /* an integer index, in start */
    int64_t start, stop, step;
    Ref from;                    /* a window's first index (an int64 the host knows), or a single
                                    index the host computes (IR_UPDATE only: >= 0, checked) or an
                                    integer array read at the box's first axes (IR_UPDATE only:
                                    x[np.arange(B), labels], checked and wrapped as read); not
                                    single, an integer array of positions whose axes are the box's
                                    axes here (IR_UPDATE only: x[p] = v, ir_scatter_axes; two next
                                    to each other, x[i, j] = v, broadcast together); else 0 */
    Dim len;                     /* a window's length */
} AxisIndex;

/* Reductions: X(name, flags). */
#define REDUCTIONS(X) \
    X(sum) X(prod) X(max) X(min) X(any) X(all) X(mean) X(argmax) X(argmin)

typedef enum {
#define X(name) RED_##name,
    REDUCTIONS(X)
#undef X
    RED_COUNT
} Reduction;
extern const char *const reduction_name[RED_COUNT];

typedef enum {
    IR_INPUT,       /* input number `index` */
    IR_LITERAL,     /* a scalar constant: ival or fval by dtype; weak for Python literals */
    IR_DIMVAL,      /* an int64 scalar known at run time: the product of dims[0..ndim) of
                       `shape` (x.shape[k] is one dim, x.size all of them); weak */
    IR_UFUNC,       /* ufunc(args[0..nin)), computed in dtype `compute` */
    IR_CAST,        /* args[0] converted to dtype (astype) */
    IR_BROADCAST,   /* args[0] viewed with a bigger shape (zeros, full, broadcast_to) */
    IR_TRANSPOSE,   /* args[0] viewed with its axes permuted: axis k of this is perm[k] */
    IR_EXPAND,      /* args[0] viewed with new size-1 axes where `axes` has bits (outer) */
    IR_INDEX,       /* args[0][sel[0], sel[1], ...], one AxisIndex per axis of args[0]:
                       integers and slices (basic indexing; None is an IR_EXPAND of it) */
    IR_RESHAPE,     /* args[0], stored in C order, read with another shape of the same size */
    IR_CONCAT,      /* args[0] then args[1] along axis ival (concatenate, stack) */
    IR_TAKE,        /* args[0] at the positions args[1..nargs) (integer arrays, broadcast
                       together) for its axes ival, ival + 1, ...: shape a.shape[:k] +
                       the positions' shape + a.shape[k+n:]; a negative position counts from
                       the end, one out of range is a run-time error (take, x[idx], x[i, j]) */
    IR_SEARCH,      /* for each element of args[1], where it goes in args[0], a sorted 1-D
                       array read as stored (both in one dtype): before the elements equal
                       to it (ival 0, side='left') or after them (1, 'right'), NaN sorting
                       last; i64, args[1]'s shape (searchsorted) */
    IR_INTERP,      /* np.interp at each element of args[2] of the points args[0] (sorted) and
                       values args[1], both 1-D and stored, left= args[3] and right= args[4]
                       (0-d); all float64 */
    IR_CUMSUM,      /* running sums (red sum) or products (prod) of args[0] along axis ival,
                       in dtype */
    IR_SORT,        /* args[0] sorted along axis ival (NaN last, equal elements in order);
                       positions: argsort, where each sorted element was (i64) */
    IR_REDUCE,      /* reduction `red` of args[0] over the axes in `axes` (bit mask);
                       keepdims keeps them as size 1. argmax/argmin: one axis or all */
    IR_MATMUL,      /* args[0] @ args[1], NumPy's rules: 1-D is a vector, more axes a stack
                       of matrices (the stacks broadcast, matmul_stack_ndim) */
    IR_ARANGE,      /* fval/ival start, step2 step, shape[0] elements */
    IR_BINCOUNT,    /* bincount(args[0], weights=args[1] or 0, minlength=ival, a Dim);
                       shape[0] is a SYM_DATA symbol, or ival when binned */
    IR_COMPRESS,    /* args[0][..., args[1], ...], a boolean mask over its axes from ival on: the
                       elements (or sub-arrays) where it is True, in order, along one axis, at
                       ival, whose size is a SYM_DATA symbol */
    IR_UPDATE,      /* args[0] with the elements at sel (as IR_INDEX selects them) replaced by
                       args[1], which has the selection's shape (x[i, 1:3] = v); args[2], when
                       there, is args[0][sel] itself, which args[1] may read (x[i] += v) and
                       which reads the positions sel takes (labels), or else, when sel takes
                       positions from an array (x[p] = v), that array. Computed in args[0]'s
                       buffer when nothing reads it after (adopts), else in a copy. ufunc_at:
                       args[1] is the value, combined into each element by ufunc */
} IrKind;

typedef struct {
    IrKind kind;
    Span span;                   /* the source expression */
    int stmt;                    /* index of the statement that built it */
    npx_dtype dtype;
    bool weak;                   /* a Python scalar (NEP 50): int, float or bool literal */
    bool checked;                /* CAST of a Python int to int32: out of range is NumPy's OverflowError */
    Shape shape;
    Ref args[5];                 /* (interp has five) */
    int nargs;
    Ufunc ufunc;                 /* UFUNC; UPDATE with ufunc_at: what combines args[1] into x */
    npx_dtype compute;           /* UFUNC, ufunc_at: dtype the operation is computed in */
    bool ufunc_at;               /* UPDATE: np.add.at(x, p, v): each element at p becomes
                                    ufunc(itself, args[1]), in order, a repeated position again */
    Reduction red;               /* REDUCE */
    bool empty_gives_start;      /* REDUCE max, min: of nothing, its start (-inf, +inf, the integer
                                    limits) where NumPy fails (histogram's range, which replaces it) */
    bool positions;              /* SORT: argsort */
    bool binned;                 /* BINCOUNT: its values are bin numbers in [0, shape[0]) by how they
                                    were made (histogram's): its length is known, no pass for it */
    bool within;                 /* TAKE: its positions lie in the axes by how they were made
                                    (build_take_within) */
    bool np_take;                /* TAKE: np.take's, which checks its positions only where the axes
                                    before theirs have elements; indexing checks them always */
    uint32_t axes;               /* REDUCE: reduced axes of args[0] */
    bool keepdims;               /* REDUCE */
    int perm[NPX_MAX_RANK];      /* TRANSPOSE */
    AxisIndex sel[NPX_MAX_RANK];     /* INDEX, UPDATE: what it does to each axis of args[0] */
    int64_t ival;                /* LITERAL (bool/int), BINCOUNT minlength (a Dim), ARANGE int start */
    double fval;                 /* LITERAL (float), ARANGE float start */
    double step;                 /* ARANGE step */
    double scale;                /* MATMUL: the product is multiplied by this (fuse folds k * (a @ b)) */
    int index;                   /* INPUT: input number */
    Shape dims;                  /* DIMVAL: the dims multiplied */
    bool late;                   /* a name bound only inside a loop, carried out of it: carry `carry`
                                    of loop `loop` (Loop.late) */
    int loop, carry;             /* late */
    /* set by passes */
    bool materialize;            /* fuse: computed into its own variable or buffer */
    int uses;                    /* fuse: how many values and statements use it */
    Ref user;                    /* fuse: the one user, when uses == 1 */
    const char *cname;           /* schedule: its C variable, when materialized */
    bool row_local;              /* schedule: stored one row at a time, in row_cname, inside its
                                    row group (whole in cname only under --trace) */
    const char *row_cname;       /* schedule: "e_row" */
    int last_stmt;               /* schedule: last statement that reads it */
    bool owned;                  /* schedule: a buffer this program allocated */
    int hoist;                   /* schedule: 1 + the loop before which its buffer is allocated, once
                                    for all the loop's iterations (0: at its statement) */
    bool adopts;                 /* schedule: takes args[0]'s buffer (read by nothing after) instead of
                                    copying it: an ST_CARRY value, an UPDATE (changes it in place) */
    bool maybe_unbound;          /* schedule: a late value that something reads and that has none when
                                    its loop ran zero times: whether it has one yet is kept beside it */
    Ref finish;                  /* schedule: REDUCE: its one reader, elementwise, which the reduction's
                                    loop computes from each result as it is final and stores instead
                                    (np.sqrt(s.sum(axis=1))): the reduction has no buffer (finish.c) */
    Ref finishes;                /* schedule: that reader: the reduction whose loop computes it */
} Value;

typedef enum {
    ST_INPUT,       /* input x: ...        value is the IR_INPUT */
    ST_ASSIGN,      /* name = expr         value is the result */
    ST_CARRY,       /* before a loop: a copy of a name the loop rebinds, which carries it from one
                       iteration to the next (value, an IR_CAST; Loop.next replaces it) */
    ST_FOR,         /* for name in range(...): the statements up to its ST_END run again and
                       again (loop; no value) */
    ST_END,         /* the end of loop `loop`'s body (no value) */
} IrStmtKind;

/* A run-time check, emitted before the statement. */
typedef enum {
    CHECK_EQUAL,    /* sizes a and b agree */
    CHECK_INDEX,    /* the integer index b fits an axis of size a */
    CHECK_DIVIDES,  /* b divides a, and is not 0 (reshape's -1) */
    CHECK_UNIT,     /* a, at most 1 long, broadcasts against b: a is 1 or b (x[:, :1] - x) */
    CHECK_NONEMPTY, /* an axis of size a that b positions are taken from is not empty, or b is 0 */
    CHECK_WINDOW,   /* the window of b elements from `from` lies inside an axis of size a */
    CHECK_POSITION, /* the position `from` (from the end when negative) is in an axis of size a */
} CheckKind;

typedef struct {
    Dim a, b;
    Span span;
    const char *what;            /* "operands could not be broadcast together", "index 3 is out of
                                    bounds for axis 0", "cannot reshape array into shape (-1, 6)" */
    CheckKind kind;
    Ref from;                    /* CHECK_WINDOW: its first index; CHECK_POSITION: the position */
} SizeCheck;

typedef struct {
    IrStmtKind kind;
    Span span;
    int line;
    const char *text;            /* the source line(s), for comments and traces */
    const char *name;            /* the bound name */
    int version;                 /* 1 for the first binding of name, 2 for the next, ... */
    Ref value;
    SizeCheck *checks;
    int nchecks, capchecks;
    Ref *frees;                  /* schedule: buffers to free after this statement */
    int nfrees, capfrees;
    Ref *named_late;             /* lower: the late values (Loop.late) it names, maybe for their shape
                                    alone (t.shape[0]): each must have one, as any value it reads */
    int nnamed_late, capnamed_late;
    Ref *bound_checks;           /* schedule: the maybe_unbound values it reads, in Ref order: each must
                                    have a value before it runs (else Python's NameError) */
    int nbound_checks, capbound_checks;
    int group;                   /* schedule: its row group (index into Program.groups), 0: none */
    int loop;                    /* ST_FOR, ST_END: index into Program.loops */
} IrStmt;

/* for name in range(start, stop, step): statements first+1 .. last-1 run
 * once for each value of the counter. A name the body rebinds is carried:
 * carry[k] holds it, and at the end of each iteration takes the body's last
 * value of it, next[k] (the same dtype and shape), whose buffer it then
 * owns. A name bound before the loop starts as a copy (an ST_CARRY value,
 * before the loop); one bound only inside it (late[k]) has no value until
 * the first iteration ends: carry[k] is an IR_CAST of next[k] whose
 * statement is the ST_END, and reading it after a loop that ran zero times
 * is an error, as in Python. */
typedef struct {
    int first, last;             /* the ST_FOR and ST_END statements */
    int counter;                 /* its SYM_LOOP symbol */
    Ref start, stop;             /* int64 scalars the host knows (literals, sizes, counters) */
    int64_t step;                /* not 0 */
    bool varies;                 /* start or stop is an enclosing loop's counter (or made from one) */
    Ref *carry, *next;
    const char **name;
    bool *late;
    int ncarries;
} Loop;

/* A row group (schedule): statements first..last whose values all have the
 * same first axis, `rows` long, and read each other only within one row of
 * it. They run as one loop over the rows; each row goes through all of them
 * while it is in cache. */
typedef struct {
    int first, last;
    Dim rows;
} RowGroup;

typedef struct {
    const char *name;
    npx_dtype dtype;
    Shape shape;
    int line;
} IrInput;

typedef struct {
    Arena *arena;
    Diag *diag;
    const char *source;          /* the .npx file's base name */
    Value *vals;                 /* vals[0] is unused */
    int nvals, capvals;
    IrStmt *stmts;
    int nstmts, capstmts;
    Sym *syms;
    int nsyms, capsyms;
    IrInput *inputs;
    int ninputs, capinputs;
    RowGroup *groups;            /* groups[0] is unused */
    int ngroups, capgroups;
    Loop *loops;
    int nloops, caploops;
    const char **outputs;        /* output names */
    Ref *output_vals;            /* the value each output has at the end */
    int noutputs, capoutputs;
    bool *is_output;             /* schedule: is_output[r], r is an output's value (nvals of them) */
    bool opt;                    /* false for -O0 */
    bool blas;                   /* --blas: the C target's float matrix products call CBLAS */
    bool tf32;                   /* --tf32: cuBLAS may use TF32 tensor cores for float32 */
    bool cuda;                   /* the CUDA target: loops are kernels, data moves to and from a GPU */
    const char *lib;             /* --lib: the library function's name; NULL: a program with main */
} Program;

/* ir.c: the tables */
Ref ir_new(Program *p, IrKind kind, Span span);
static inline Value *V(Program *p, Ref r) { return &p->vals[r]; }
int ir_add_sym(Program *p, const char *name, SymKind kind);
void ir_add_check(Program *p, int stmt, Dim a, Dim b, Span span, const char *what);
void ir_add_index_check(Program *p, int stmt, Dim size, int64_t index, int axis, Span span);
void ir_add_unit_check(Program *p, int stmt, Dim unit, Dim other, Span span);   /* CHECK_UNIT */
/* an axis of length size that count positions are taken from (a number: any) is not empty */
void ir_add_nonempty_check(Program *p, int stmt, Dim size, Dim count, Span span, const char *what);
void ir_add_window_check(Program *p, int stmt, Dim size, const AxisIndex *window, int axis, Span span);
void ir_add_position_check(Program *p, int stmt, Dim size, Ref position, int axis, Span span);
void ir_add_divides_check(Program *p, int stmt, Dim total, Dim known, Span span, const char *what);
/* A size inferred by reshape: total / known, checked to divide. */
Dim ir_quotient_dim(Program *p, int stmt, Dim total, Dim known, Span span, const char *what);
/* The length of base[start:stop:step] as a Dim: a literal when base is one,
 * else a SYM_SLICE symbol, the same one for the same length. */
Dim ir_slice_dim(Program *p, Dim base, int64_t start, int64_t stop, int64_t step);
/* The product of n sizes as a Dim: a literal, a symbol, or a SYM_PRODUCT
 * symbol, the same one for the same factors in any order. False when it
 * would take more than NPX_MAX_RANK symbols. */
bool ir_product_dim(Program *p, const Dim *d, int n, Dim *out);
Dim ir_sum_dim(Program *p, Dim a, Dim b);        /* a literal, or a SYM_SUM symbol */
Dim ir_min_dim(Program *p, Dim a, Dim b);        /* symbols a, b: a if b is a; else a SYM_MIN one */
/* Is d a size only the data gives (?bincount), or one computed from such
 * sizes (?nonzero+B, ?bincount/2)? The emitter computes the latter once the
 * data has given its parts (emit_derived_sizes). */
bool ir_dim_from_data(const Program *p, Dim d);
/* The first axis of s whose size is such a one, or -1. */
int ir_data_axis(const Program *p, const Shape *s);
/* The most elements an axis of size d can have: d, or for a slice whose two
 * ends count from the same side (x[2:5], x[:4], x[-3:], x[3::-1]) their
 * distance over the step, whatever it slices, or min(N,M) of such a one;
 * -1 when only the run knows.
 * A position from the back is p - n; an absent end is the one its step
 * starts or stops at (x[:4] starts at 0 from the front, x[-3:] stops at 0
 * from the back, x[3::-1] stops at -1 from the front). */
int64_t ir_dim_most(const Program *p, Dim d);
bool ir_dim_depends(const Program *p, Dim d, Dim data);   /* d is data (a SYM_DATA size) or computed from it */
/* Is d a slice that is never longer than 1 (x[:1], x[-1:], x[2:3])? It
 * broadcasts as a size 1 does, checked when the program runs. */
bool ir_dim_at_most_one(const Program *p, Dim d);
const char *shape_str(Program *p, const Shape *s, npx_dtype t, bool weak);   /* "f32[B, 784]" */
const char *dim_str(Program *p, Dim d);
const char *ir_op_name(const Value *v);      /* "add", "sum", "matmul"; NULL for inputs, constants */
const char *ufunc_template(Ufunc f, npx_dtype compute);   /* ufunc_info's C column for that dtype */
/* Can computing one element of v stop the program, checking what it reads
 * (a take's positions from an array, an integer power's exponent)? */
bool ir_checks_element(const Program *p, const Value *v);
int64_t shape_size_literal(const Shape *s);   /* product, or -1 when a symbol is in it */
bool shape_equal(const Shape *a, const Shape *b);   /* the same axes, the same sizes */
/* Does statement s store value r (compute it into its variable or buffer)?
 * For values the passes made materialized that something reads or names. */
bool ir_stores(const Program *p, int s, Ref r);
/* Whether the host must read device data during the computation (on CUDA:
 * the length of a bincount or a masked array), which keeps it from being a
 * CUDA graph. */
bool ir_host_reads_device(const Program *p);
/* Can the host compute 0-d integer r again wherever it is read (cx_host_int):
 * numbers, sizes, counters, 0-d inputs and operations on them, not a value
 * a loop carries? */
bool ir_host_int(const Program *p, Ref r);
/* Does the loop run at least once, as its bounds, numbers, say? */
bool ir_loop_runs(const Program *p, const Loop *lp);
/* Has an update or an inner loop's carry between statements first and last
 * taken r's buffer over (r, a loop's carried value, changes in place in the
 * loop's body, or an inner loop carries it on)? */
bool ir_buffer_taken(const Program *p, Ref r, int first, int last);
static inline bool ir_sized_by_data(const Value *v)
{
    return (v->kind == IR_BINCOUNT && !v->binned) || v->kind == IR_COMPRESS;
}
/* the size the data give of such a value */
static inline Dim ir_data_dim(const Value *v) { return v->shape.d[v->kind == IR_COMPRESS ? v->ival : 0]; }
/* c_names.c: a name C, C++, the headers or the generated code already use
 * (keywords, libm, the emitters' own variables); of them, those that no
 * numbered suffix frees (npx_..., _Bool) */
bool ir_c_reserved(const char *s);
bool ir_c_reserved_prefix(const char *s);
/* the value r's loop stores: r, or the reader a reduction computes (Value.finish) */
static inline Ref ir_stored_value(const Program *p, Ref r) { return p->vals[r].finish ? p->vals[r].finish : r; }
static inline bool group_holds(const RowGroup *g, const Value *v)   /* v is computed inside row group g */
{
    return v->stmt >= g->first && v->stmt <= g->last;
}
/* Does transpose v swap its last two axes only (each matrix of a stack
 * transposed, as BLAS can read it)? */
bool ir_swaps_matrices(const Value *v);
/* Does axis selection x take positions from an array (x[p] = v; not labels)? */
bool ir_positions_axis(const Program *p, const AxisIndex *x);
/* Does the code that reads an array through index x read the axis's length
 * (x[-1], x[::-1], positions it wraps), not only positions from its start? */
bool ir_index_reads_length(const Program *p, const AxisIndex *x);
/* The first axis (of ndim) whose selection takes positions from an array, or -1 */
int ir_first_positions_axis(const Program *p, const AxisIndex *sel, int ndim);
/* The shape the arrays of positions of selection sel (of an array of ndim
 * axes) broadcast to (one array: its shape; x[i, j] = v: i's and j's) */
Shape ir_positions_shape(const Program *p, const AxisIndex *sel, int ndim);
/* The box axes of update u that its arrays of positions take (their
 * broadcast shape's, where the first array is), as a bit mask; 0 if none. */
uint32_t ir_scatter_axes(const Program *p, const Value *u);
/* Is value r's element the same all along its axes in the bit mask axes
 * (x[p, q] = 1.0, x[p] = v[None, :]: where a place repeats, every write
 * gives it the same value)? Axes of length 1 are; a value computed
 * elementwise is where its operands are, and a broadcast along the axes it
 * adds; any other value (an array read along them) is not. */
bool ir_same_along(const Program *p, Ref r, uint32_t axes);
/* The CUDA atomic that combines each value of update u, an np.<ufunc>.at,
 * into its element so that any order of them gives NumPy's result (float
 * sums: to their last bits): "atomicAdd" for add and subtract of numbers
 * summed in u's dtype (not bool; an int array's float sum is truncated each
 * time, which only the sum itself can do), "atomicMax" and "atomicMin" for
 * maximum and minimum in u's dtype (floats: any float dtype, rounding keeps
 * the order); NULL for the others (multiply, fmax, bool). */
const char *ir_ufunc_at_atomic(const Value *u);
/* Is view v (an index or a take) one C-ordered block of its stored operand,
 * at a place the host knows (x[t], x[2:5], x[b*BS:(b+1)*BS], x[i, :, :]):
 * its elements are those of args[0] from one offset on, so a GEMM can read
 * them there instead of from a copy? */
bool ir_contiguous_block(const Program *p, const Value *v);
/* Does value r's element (a reduction's: its operand's), computed in a loop
 * over r's first axis, read an array across its rows (a.T's rows are a's
 * columns)? Then a row group's loop over that axis would read a new cache
 * line at every element (rows.c keeps such values out of groups). */
bool ir_reads_across_rows(Program *p, Ref r);
/* For reduction r outside a row group (whose loop over the rows computes a
 * row's result at a time) on the C target: does it go 8 rows at a time, each thread
 * folding its rows into its own row of accumulators (target_c.c's c_reduce)?
 * A matrix's reduction over its first axis (x.sum(axis=0)), unless its
 * element reads an array across its rows (X.T) and not along them; over its
 * second axis when it does (X.T.sum(axis=1), X's column sums); and over both
 * axes, or either, when its element, computed in the loop, reads arrays both
 * ways (np.abs(A - A.T).max()): no loop order reads both along their rows,
 * and here each cache line read across serves 8 rows. Not argmax or argmin,
 * whose order is their result. */
bool ir_row_blocks(Program *p, Ref r);
/* For reduction r outside a row group on the CUDA target: does a warp take
 * 32 neighbouring results, each thread folding one result's elements, rather
 * than a block each result? When r keeps an axis along which its element
 * reads arrays' rows and reduces none (M.sum(axis=0), t.sum(axis=1), A.T's
 * row sums): the warp's 32 reads of each step then lie side by side. */
bool ir_warp_across_results(Program *p, Ref r);
/* For reduction r outside a row group on the CUDA target, not a warp's
 * across results: does a thread fold each result alone? When each result
 * has at most NPX_THREAD_FOLD elements, a number (a 3-vector's norm): a
 * block would leave all but that many of its threads idle. */
#define NPX_THREAD_FOLD 32
bool ir_thread_per_result(Program *p, Ref r);
/* For cumsum (cumprod) v on the CUDA target: does a block scan each lane
 * (or its share of one), rather than a thread each? Along the last axis,
 * where a lane's elements lie side by side, unless the lanes are known to
 * be short (NPX_THREAD_FOLD: a block would leave all but that many of its
 * threads idle); down the columns, a thread's lane is beside its
 * neighbours'. */
static inline bool ir_scan_by_blocks(const Program *p, const Value *v)
{
    if (v->kind != IR_CUMSUM || v->ival != v->shape.ndim - 1)
        return false;
    int64_t most = ir_dim_most(p, v->shape.d[v->ival]);
    return most < 0 || most > NPX_THREAD_FOLD;
}
/* For elementwise value r outside a row group: the axis whose index runs
 * along the contiguous last axis of an array that r's element reads through
 * transposes (X.T * 2.0, t.transpose(2, 0, 1) - u), when that is not r's
 * last axis (a loop over r in order would read a new cache line of that
 * array at every step); that axis's loop goes in tiles (NPX_TILE) with the
 * last one's on the C target, so that each cache line read is used whole;
 * -1: none. For a reduction of all of an element computed in its loop (not
 * argmax, whose order is its result), that element's, unless its loops swap
 * (ir_swapped_axis) or it goes in row blocks (ir_row_blocks) instead: the
 * reduced loops go in tiles (np.abs(t - t.transpose(0, 2, 1)).max()). */
int ir_tiled_axis(Program *p, Ref r);
/* Do axes k and n - 1 of dims fill a tile of NPX_TILE x NPX_TILE, or may
 * they (a size symbol)? On the CUDA target a block takes such a tile at a
 * time only then: in a narrower one most of its threads would idle. */
static inline bool ir_tile_fills(const Dim *dims, int n, int k)
{
    return (DIM_IS_SYM(dims[k]) || dims[k] >= NPX_TILE) && (DIM_IS_SYM(dims[n - 1]) || dims[n - 1] >= NPX_TILE);
}
/* For reduction r of all of an element computed in its loop, whose reads
 * of arrays all run across their rows on one loop axis (np.abs(A.T).max()):
 * that axis, whose loop and the last one's swap places, so that every read
 * runs along its array's rows (the order of a max, any or sum is free; a
 * sum's rounding changes within its error bound); -1: none. */
int ir_swapped_axis(Program *p, Ref r);
/* How many axes of matrix product v come from the stacks (the axes before
 * its matrix or vector ones). */
static inline int matmul_stack_ndim(const Program *p, const Value *v)
{
    return v->shape.ndim - (p->vals[v->args[0]].shape.ndim >= 2) - (p->vals[v->args[1]].shape.ndim >= 2);
}
/* How a GEMM call reads an operand of a float matrix product, once fusion
 * has decided what is stored. */
typedef struct {
    Ref stored;                  /* the stored array it reads */
    Ref block;                   /* the view of stored that is the operand, read
                                    where it lies (ir_contiguous_block); 0: all */
    bool transposed;             /* each matrix transposed (BLAS's trans) */
    bool per_matrix;             /* one matrix for each of the stack's, else one for all */
} IrGemmOperand;
/* Is matrix product m GEMM calls (npx_gemm, CBLAS or cuBLAS: float operands
 * of its dtype that a GEMM can read; on the C target without --blas, two
 * matrices, not a vector), rather than loops? If so, g[side] says how the
 * call reads each operand. */
bool ir_gemm(const Program *p, Ref m, IrGemmOperand g[2]);
/* Is the product of GEMM operands g a matrix times its own transpose (x.T @
 * x, x @ x.T, np.cov)? It is symmetric: BLAS's syrk computes one triangle,
 * the runtime's npx_gemm the tiles on and above the diagonal (it sees the
 * same by itself), each copying the rest. */
static inline bool ir_gemm_gram(const IrGemmOperand g[2])
{
    return g[0].stored == g[1].stored && g[0].block == g[1].block && g[0].transposed != g[1].transposed;
}
/* NumPy's error for reduction red of nothing; NULL when it has an identity */
const char *empty_reduction_error(Reduction red);

/* dtype.c: NumPy 2 promotion (NEP 50) */
npx_dtype dtype_promote(npx_dtype a, npx_dtype b);
const char *dtype_name(npx_dtype t);     /* "f32" */
const char *dtype_ctype(npx_dtype t);    /* "float" */
int dtype_size(npx_dtype t);             /* 4 */
const char *dtype_enum(npx_dtype t);     /* "F32", as in NPX_F32 */
npx_dtype dtype_default(npx_dtype t);    /* a weak scalar's own dtype: bool, i64 or f64 */
const char *dtype_python_type(npx_dtype t);   /* a weak scalar's Python type: "bool", "int", "float" */
bool dtype_is_int(npx_dtype t);
bool dtype_is_float(npx_dtype t);
bool dtype_from_name(const char *name, npx_dtype *out);

/* lower.c: AST -> IR with dtypes and shapes; returns false on errors */
bool ir_lower(Program *p, const void *ast);

/* passes */
bool ir_verify(Program *p, const char *after);
void ir_fuse(Program *p);
void ir_schedule(Program *p);
void schedule_rows(Program *p);   /* rows.c: ir_schedule's row groups */
void schedule_finishes(Program *p);   /* finish.c: reductions that compute their reader */
void ir_dump(FILE *out, Program *p, const char *title);
void ir_print_shapes(FILE *out, Program *p);
void ir_explain(FILE *out, Program *p);

#endif
