/* build.h: constructors of IR values that decide dtype and shape (build.c). */
#ifndef NPX_BUILD_H
#define NPX_BUILD_H
#include "ir.h"

Ref build_literal(Program *p, Span span, npx_dtype t, int64_t ival, double fval, bool weak);
Ref build_dimval(Program *p, Span span, const Shape *dims);
/* operator_form: written as an operator (a + b), whose result on two Python
 * scalars is a Python scalar again. */
Ref build_ufunc(Program *p, Span at, Span span, Ufunc f, const Ref *args, int n, bool operator_form);
/* Python's answer for ints a and b (b unused by a unary f): false where
 * int64 cannot hold it, where Python raises (7 // 0), or for an f that is
 * not +, -, *, //, %, ** (b >= 0), unary - or +, maximum or minimum. */
bool build_python_int(Ufunc f, int64_t a, int64_t b, int64_t *out);
Ref build_cast(Program *p, Span span, Ref a, npx_dtype t);
/* a in dtype t: a itself when it has it already (values never change), else a cast */
Ref build_as(Program *p, Span span, Ref a, npx_dtype t);
/* a as an array of dtype t: a literal when a is one that t holds exactly
 * (np.asarray(2.5)), a itself when it is an array of t already, else a cast */
Ref build_converted(Program *p, Span span, Ref a, npx_dtype t);
Ref build_broadcast(Program *p, Span span, Ref a, const Shape *s);
Ref build_transpose(Program *p, Span span, Ref a, const int *perm);   /* perm NULL: reverse */
Ref build_expand(Program *p, Span span, Ref a, uint32_t new_axes, int ndim);
Ref build_index(Program *p, Span span, Ref a, const AxisIndex *index);   /* one per axis of a */
/* a with a[index] = v (v has a[index]'s shape); old: a[index] (which v may read: x[i] += v), or 0 */
Ref build_update(Program *p, Span span, Ref a, const AxisIndex *index, Ref v, Ref old);
Ref build_reshape(Program *p, Span span, Ref a, const Shape *s);         /* s: a's size, checked */
/* cumsum (red sum), cumprod (prod); t: dtype=, or bool */
Ref build_cumulative(Program *p, Span span, Reduction red, Ref a, int axis, npx_dtype t);
Ref build_sort(Program *p, Span span, Ref a, int axis, bool positions);   /* np.sort, np.argsort */
/* np.searchsorted(a, v, side): a 1-D, both arrays (not Python numbers) */
Ref build_search(Program *p, Span at, Span span, Ref a, Ref v, bool right);
/* np.interp: xp and fp 1-D float64 of one length, x float64, left and right 0-d float64 */
Ref build_interp(Program *p, Span span, Ref xp, Ref fp, Ref x, Ref left, Ref right);
/* a[..., mask, ...]: mask over a's axes from axis on (shown_axis in messages) */
Ref build_compress(Program *p, Span at, Span span, Ref a, Ref mask, int axis, int shown_axis);
/* Does mask fit a's axes from axis on? An error if it cannot, a check when
 * only the run can tell. */
bool mask_fits(Program *p, Span at, Ref a, Ref mask, int axis, int shown_axis);
/* a at integer positions: n arrays (two at most) for axes axis.. of a */
Ref build_take(Program *p, Span at, Span span, Ref a, const Ref *positions, int n, int axis);
/* np.take(a, positions, axis): as a[..., positions] but for an empty axis,
 * an error only where the axes before it have elements, as NumPy's take */
Ref build_np_take(Program *p, Span at, Span span, Ref a, Ref positions, int axis);
/* A take whose positions lie in the axes by how npxc makes them (a
 * diagonal's aranges, a roll's remainders): none is out of range. */
Ref build_take_within(Program *p, Span at, Span span, Ref a, const Ref *positions, int n, int axis);
Ref build_concat(Program *p, Span span, Ref a, Ref b, int axis, const Shape *s);   /* s checked */
Ref build_reduce(Program *p, Span span, Reduction red, Ref a, uint32_t axes, bool keepdims);
/* accumulated in dtype t: sum(dtype=np.int32) sums int32 as int32, not widened */
Ref build_reduce_as(Program *p, Span span, Reduction red, Ref a, uint32_t axes, bool keepdims, npx_dtype t);
/* max or min (red) of 1-D a whose start (-inf, +inf, the integer limits)
 * stands for that of nothing, where NumPy fails (histogram's range) */
Ref build_extreme_or_start(Program *p, Span span, Reduction red, Ref a);
Ref build_matmul(Program *p, Span at, Span span, Ref a, Ref b, const char *what);
Ref build_arange(Program *p, Span span, npx_dtype t, double start, double step, Dim n);
Ref build_bincount(Program *p, Span at, Span span, Ref x, Ref w, Dim minlength);
/* bincount of bin numbers known to lie in [0, nbins) (histogram's, made so):
 * nbins long, no pass for the largest, no sync; w as long as bins (the
 * caller has checked) */
Ref build_bin_counts(Program *p, Span span, Ref bins, Ref w, Dim nbins);
/* An operand of a sum of products: its axes' labels, distinct small integers. */
typedef struct {
    Ref ref;
    int ndim;
    int label[NPX_MAX_RANK];
} Term;
/* contract.c: the sum over every label not in out of the product of the
 * terms, broadcast by label; the result's axes are out's labels. At most
 * NPX_MAX_RANK different labels in all. */
Ref build_contraction(Program *p, Span at, Span span, const Term *t, int n, const int *out, int nout);
bool dims_differ(const Program *p, Dim a, Dim b);   /* sizes that can never agree */
bool broadcast_shapes(Program *p, const Shape *a, const Shape *b, Shape *out, Span at);
npx_dtype weak_common_dtype(Program *p, const Ref *args, int n, bool *all_weak);

#endif
