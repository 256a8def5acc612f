/* emit_loops.c: the loops that compute one materialized value, one function
 * per kind: elementwise (and views), reductions, matrix products, arange,
 * bincount and element assignment. Each value is computed into a variable
 * (0-d) or a buffer named after it. */
#include <math.h>
#include <string.h>
#include "emit_c.h"
#include "target.h"

static Arena *A(Emitter *e) { return e->p->arena; }

const char **emit_index_vars(Emitter *e, int n)
{
    const char **iv = arena_alloc(A(e), sizeof(char *) * (NPX_MAX_RANK + 1));
    for (int k = 0; k < n; k++)
        iv[k] = arena_printf(A(e), "i%d", k);
    return iv;
}

double dims_known_size(const Dim *d, int n, int *syms)
{
    double known = 1;
    *syms = 0;
    for (int k = 0; k < n; k++) {
        *syms += DIM_IS_SYM(d[k]);
        known *= DIM_IS_SYM(d[k]) ? 1 : (double)d[k];
    }
    return known;
}

void emit_parallel_open(Emitter *e, const char *pragma, const char *small, const Dim *dims, int n,
                        const Shape *inner)
{
    Dim all[2 * NPX_MAX_RANK];
    int m = 0, syms;
    for (int k = 0; k < n; k++)
        all[m++] = dims[k];
    for (int k = 0; inner && k < inner->ndim; k++)
        all[m++] = inner->d[k];
    double known = dims_known_size(all, m, &syms);   /* the number of elements, when syms is 0 */
    bool wrap = pragma && syms > 0;
    if (wrap && small)
        emit_line(e, "NPX_IF_LARGE_ELSE(%s, %s, %s,", cx_dims(e, all, m), pragma, small);
    else if (wrap)
        emit_line(e, "NPX_IF_LARGE(%s, %s,", cx_dims(e, all, m), pragma);
    else if (pragma && known >= NPX_PARALLEL_MIN)
        emit_line(e, "%s", pragma);
    else if (small)
        emit_line(e, "%s", small);
    e->parallel_wraps = e->parallel_wraps << 1 | wrap;
}

void emit_parallel_close(Emitter *e)
{
    bool wrap = e->parallel_wraps & 1;
    e->parallel_wraps >>= 1;
    e->indent--;
    emit_line(e, "%s", wrap ? "})" : "}");
}

/* plain loops inside a parallel nest; simd, when given, is the pragma
 * (a macro of the prologue) that lets the innermost one be vectorized, and
 * par the one that shares the outermost among the threads (when there are
 * elements enough: emit_parallel_open) */
static void open_loops(Emitter *e, const Dim *dims, const char *const *iv, int n, const char *simd, const char *par)
{
    for (int k = 0; k < n; k++) {
        const char *inner_simd = simd && k == n - 1 ? simd : NULL;
        if (par && k == 0)
            emit_parallel_open(e, inner_simd ? arena_printf(A(e), "%s_SIMD", par) : par, inner_simd, dims, n, NULL);
        else if (inner_simd)
            emit_line(e, "%s", simd);
        emit_open(e, "for (int64_t %s = 0; %s < %s; %s++)", iv[k], iv[k], cx_dim(e, dims[k]), iv[k]);
    }
}

/* (par: as given to open_loops) */
static void close_loops(Emitter *e, int n, const char *par)
{
    for (int k = n - 1; k >= 0; k--) {
        if (par && k == 0)
            emit_parallel_close(e);
        else
            emit_close(e, NULL);
    }
}

/* A value's loop nest over dims[0..n): the target's parallel nest, except
 * inside a row group, whose loop already runs over axis 0 (i0): then plain
 * loops over the rest of the row, in a scope of their own; where a block
 * shares the row (CUDA, whose groups hold matrices and vectors), its threads
 * take every blockDim.x-th element, and thread 0 a vector's one. */
static void open_value_nest(Emitter *e, const char *what, const Dim *dims, const char *const *iv, int n,
                            const Shape *inner)
{
    if (!e->in_rows) {
        e->t->open_nest(e, what, dims, iv, n, inner);
        return;
    }
    e->nest_depth = n == 1 ? 1 : n - 1;
    if (e->t->block_rows && n == 1)
        emit_open(e, "if (threadIdx.x == 0)");
    else if (e->t->block_rows)
        emit_open(e, "for (int64_t %s = threadIdx.x; %s < %s; %s += blockDim.x)", iv[1], iv[1], cx_dim(e, dims[1]),
                  iv[1]);
    else if (n == 1)
        emit_block(e);
    else
        open_loops(e, dims + 1, iv + 1, n - 1, NULL, NULL);
}

static void close_value_nest(Emitter *e)
{
    if (e->in_rows)
        close_loops(e, e->nest_depth, NULL);
    else
        e->t->close_nest(e);
}

/* Whether v may reach the size where its stores stream past the cache
 * (NPX_STREAM_BYTES): a symbolic size may. */
static bool may_stream(const Value *v)
{
    double bytes = dtype_size(v->dtype);
    for (int k = 0; k < v->shape.ndim; k++) {
        if (DIM_IS_SYM(v->shape.d[k]))
            return true;
        bytes *= (double)v->shape.d[k];
    }
    return bytes >= (double)NPX_STREAM_BYTES;
}

/* In row group g, a matrix of rows longer than one element, stored whole,
 * that nothing in the group reads after its statement, and that may be
 * large: each row goes out a strip at a time, as a flat loop's elements do
 * (the target's strips), and does not take cache lines the rest of the
 * row's work needs. */
bool emit_streams_row(Emitter *e, const RowGroup *g, Ref r)
{
    const Value *v = V(e->p, r);
    return e->t->open_strips && group_holds(g, v) && ir_stores(e->p, v->stmt, r) && !v->row_local &&
           (v->kind == IR_UFUNC || v->kind == IR_CAST) && v->shape.ndim == 2 && v->shape.d[1] != 1 &&
           (v->last_stmt == v->stmt || v->last_stmt > g->last) && may_stream(v);
}

/* Value r's loop nest: in tiles where its element reads an array across its
 * rows (ir_tiled_axis). */
static void open_elementwise_nest(Emitter *e, Ref r, const char *const *iv)
{
    const Value *v = V(e->p, r);
    int k = e->t->open_tiles ? ir_tiled_axis(e->p, r) : -1;
    if (k >= 0) {
        e->t->open_tiles(e, v->cname, v->shape.d, iv, v->shape.ndim, k, "NPX_PARALLEL_FOR", NULL);
        e->nest_depth = v->shape.ndim + 2;
    } else
        open_value_nest(e, v->cname, v->shape.d, iv, v->shape.ndim, NULL);
}

/* Is v, in a row group, one element a row (its other axes all 1), with a
 * buffer of all rows? */
static bool one_per_row(const Value *v)
{
    for (int k = 1; k < v->shape.ndim; k++)
        if (v->shape.d[k] != 1)
            return false;
    return v->shape.ndim > 1 && !v->row_local;
}

static void emit_elementwise(Emitter *e, Ref r)
{
    const Value *v = V(e->p, r);
    if (v->shape.ndim == 0 && e->t->scalar_locals) {
        emit_line(e, "%s %s = %s;", dtype_ctype(v->dtype), v->cname, cx_define(e, r, NULL));
        return;
    }
    if (e->in_rows && emit_streams_row(e, &e->p->groups[e->stmt->group], r)) {
        const char **iv = emit_index_vars(e, 2);
        e->t->open_strips(e, v);
        emit_line(e, "strip[i1 - j0] = %s;", cx_define(e, r, iv));
        e->t->close_strips(e, v);
        return;
    }
    if (v->shape.ndim > 0 && !e->in_rows && cx_define_is_flat(e, r)) {
        if (e->t->open_strips && may_stream(v)) {
            e->t->open_strips(e, v);
            emit_line(e, "strip[i - i0] = %s;", cx_define(e, r, NULL));
            e->t->close_strips(e, v);
        } else {
            e->t->open_flat(e, v->cname, v->shape.d, v->shape.ndim);
            emit_line(e, "%s = %s;", cx_load(e, r, "i"), cx_define(e, r, NULL));
            e->t->close_nest(e);
        }
        return;
    }
    const char **iv = emit_index_vars(e, v->shape.ndim);
    if (e->in_rows && one_per_row(v)) {          /* np.log(total) of a total of [B, 1]: one statement */
        for (int k = 1; k < v->shape.ndim; k++)
            iv[k] = "0";
        if (e->t->block_rows)
            emit_line(e, "if (threadIdx.x == 0)");
        emit_line(e, "%s%s = %s;", e->t->block_rows ? "    " : "", cx_element(e, r, &v->shape, iv),
                  cx_define(e, r, iv));
        return;
    }
    open_elementwise_nest(e, r, iv);
    emit_line(e, "%s = %s;", cx_element(e, r, &v->shape, iv), cx_define(e, r, iv));
    close_value_nest(e);
}

/* ---- reductions ---- */

const char *arg_better(Emitter *e, Reduction red, npx_dtype t, const char *elem, const char *elem_at)
{
    const char *cmp = red == RED_argmax ? ">" : "<";
    if (!elem_at)                /* elem comes after acc: it wins only when strictly better */
        return dtype_is_float(t)
                   ? arena_printf(A(e), "best < 0 || (!isnan(acc) && (%s %s acc || isnan(%s)))", elem, cmp, elem)
                   : arena_printf(A(e), "best < 0 || %s %s acc", elem, cmp);
    const char *ties = arena_printf(A(e), "%s %s acc || (%s == acc && %s < best)", elem, cmp, elem, elem_at);
    if (dtype_is_float(t))
        ties = arena_printf(A(e), "isnan(acc) ? isnan(%s) && %s < best : isnan(%s) || %s", elem, elem_at, elem, ties);
    return arena_printf(A(e), "%s >= 0 && (best < 0 || (%s))", elem_at, ties);
}

static ReduceCode reduce_code(Emitter *e, Reduction red, npx_dtype t)
{
    bool fl = dtype_is_float(t);
    const char *sfx = dtype_name(t);
    const char *imax = t == NPX_I32 ? "INT32_MAX" : "INT64_MAX", *imin = t == NPX_I32 ? "INT32_MIN" : "INT64_MIN";
    switch (red) {
    case RED_sum:
    case RED_mean:               /* a mean in float64, of integers too, as NumPy's */
        return fl || red == RED_mean ? (ReduceCode){ NPX_F64, "0", "acc += elem;", "NPX_SIMD_SUM", "NPX_PARALLEL_SUM" }
                                     : (ReduceCode){ NPX_I64, "0", "acc = npx_add_i64(acc, elem);", NULL, NULL };
    case RED_prod:
        return fl ? (ReduceCode){ NPX_F64, "1", "acc *= elem;", "NPX_SIMD_PRODUCT", "NPX_PARALLEL_PRODUCT" }
                  : (ReduceCode){ NPX_I64, "1", "acc = npx_mul_i64(acc, elem);", NULL, NULL };
    case RED_max:
        if (t == NPX_BOOL)
            return (ReduceCode){ t, "false", "acc = acc || elem;", NULL, NULL };
        return fl ? (ReduceCode){ t, "-INFINITY", arena_printf(A(e), "acc = npx_maximum_%s(acc, elem);", sfx), NULL, NULL }
                  : (ReduceCode){ t, imin, "acc = elem > acc ? elem : acc;", NULL, NULL };
    case RED_min:
        if (t == NPX_BOOL)
            return (ReduceCode){ t, "true", "acc = acc && elem;", NULL, NULL };
        return fl ? (ReduceCode){ t, "INFINITY", arena_printf(A(e), "acc = npx_minimum_%s(acc, elem);", sfx), NULL, NULL }
                  : (ReduceCode){ t, imax, "acc = elem < acc ? elem : acc;", NULL, NULL };
    case RED_any: return (ReduceCode){ NPX_BOOL, "false", "acc = acc || elem;", NULL, NULL };
    case RED_all: return (ReduceCode){ NPX_BOOL, "true", "acc = acc && elem;", NULL, NULL };
    case RED_argmax:
    case RED_argmin:
        return (ReduceCode){ t, "0", arena_printf(A(e), "if (%s) { acc = elem; best = k; } k++;",
                                                  arg_better(e, red, t, "elem", NULL)), NULL, NULL };
    default: break;
    }
    return (ReduceCode){ t, "0", "", NULL, NULL };
}

/* Which axes a reduction keeps and which it reduces, with their loop indices,
 * and how it accumulates. */
void reduce_plan(Emitter *e, Ref r, ReducePlan *rp)
{
    const Value *v = V(e->p, r), *a = V(e->p, v->args[0]);
    npx_dtype t = a->weak ? dtype_default(a->dtype) : a->dtype;
    memset(rp, 0, sizeof *rp);
    rp->code = reduce_code(e, v->red, t);
    rp->iv = emit_index_vars(e, a->shape.ndim);
    for (int k = 0; k < a->shape.ndim; k++) {
        if (v->axes >> k & 1) {
            rp->red_iv[rp->reduced.ndim] = rp->iv[k];
            rp->reduced.d[rp->reduced.ndim++] = a->shape.d[k];
        } else {
            rp->kept_iv[rp->kept.ndim] = rp->iv[k];
            rp->kept.d[rp->kept.ndim++] = a->shape.d[k];
        }
    }
    rp->count = cx_dims(e, rp->reduced.d, rp->reduced.ndim);
    rp->arg = v->red == RED_argmax || v->red == RED_argmin;
}

/* The value stored once the accumulator, acc (or, for arg-reductions, best),
 * is final. */
const char *reduce_result(Emitter *e, Ref r, const ReducePlan *rp, const char *acc)
{
    const Value *v = V(e->p, r);
    if (rp->arg)
        return cx_convert(e, "best", NPX_I64, v->dtype);
    if (v->red == RED_mean)
        return cx_convert(e, arena_printf(A(e), "%s / (double)(%s)", acc, rp->count), NPX_F64, v->dtype);
    return cx_convert(e, acc, rp->code.acc, v->dtype);
}

/* idx, a result's indices along the kept axes, as indices of r's own shape:
 * 0 along each axis keepdims keeps with size 1 (where r's reader reads
 * other arrays: x - x.mean(axis=1, keepdims=True)) */
static Idx result_idx(Emitter *e, const Value *v, const Shape *kept, Idx idx)
{
    if (!idx || kept->ndim == v->shape.ndim)
        return idx;
    const char **o = arena_alloc(A(e), sizeof(char *) * (NPX_MAX_RANK + 1));
    for (int k = 0, j = 0; k < v->shape.ndim; k++)
        o[k] = v->axes >> k & 1 ? "0" : idx[j++];
    return o;
}

const char *reduce_store(Emitter *e, Ref r, const Shape *kept, Idx idx, const char *result)
{
    Ref reader = V(e->p, r)->finish;
    if (!reader)
        return arena_printf(A(e), "%s = %s", cx_element(e, r, kept, idx), result);
    e->finishing = r;
    e->finished = result;
    const char *value = cx_define(e, reader, result_idx(e, V(e->p, r), kept, idx));
    e->finishing = 0;
    return arena_printf(A(e), "%s = %s", cx_element(e, reader, kept, idx), value);
}

/* argmax, argmin where loops vectorize max and min: the reduced elements a
 * chunk at a time, each chunk in two loops that vectorize. The first finds
 * the chunk's largest (smallest) value and whether it holds a NaN; only when
 * that beats the best so far does the second find where in the chunk: its
 * first NaN, else the first element equal to its best, which are NumPy's
 * rules (the first of equal values, the first NaN). The second loop reads a
 * stored operand again where it lies (rows of 4096 x 1000 float32: 0.33 ms,
 * 0.51 when the first loop copied every chunk aside); a computed one the first
 * loop keeps in a buffer, so that it is computed once. A one-by-one loop
 * ran 13 (int32) to 31 (float32) times slower than NumPy's argmax. This is
 * the loop over one run's chunks: index i from 0 to len, element elem. */
static void emit_arg_chunks(Emitter *e, bool max, npx_dtype t, const char *i, const char *len, const char *elem,
                            bool stored)
{
    bool fl = dtype_is_float(t);
    const char *ct = dtype_ctype(t), *cmp = max ? ">" : "<";
    const char *worst = reduce_code(e, max ? RED_max : RED_min, t).init;   /* what any element beats */
    emit_line(e, "/* NPX_ARG_CHUNK elements at a time: their %s first, then, if it wins, where it is */",
              max ? "largest" : "smallest");
    emit_open(e, "for (int64_t lo = 0; lo < %s; lo += NPX_ARG_CHUNK)", len);
    emit_line(e, "const int64_t hi = NPX_BLOCK_END(lo, %s, NPX_ARG_CHUNK);", len);
    if (!stored)
        emit_line(e, "%s chunk_elem[NPX_ARG_CHUNK];", ct);
    emit_line(e, "%s chunk_best = %s;", t == NPX_BOOL ? "int" : ct, worst);
    if (fl)
        emit_line(e, "int nan_seen = 0;");
    emit_line(e, "NPX_SIMD_CHUNK_%s%s", max ? "MAX" : "MIN", fl ? "" : "_INT");
    emit_open(e, "for (int64_t %s = lo; %s < hi; %s++)", i, i, i);
    emit_line(e, "const %s elem = %s;", ct, elem);
    if (!stored)
        emit_line(e, "chunk_elem[%s - lo] = elem;", i);
    emit_line(e, "chunk_best = elem %s chunk_best ? elem : chunk_best;", cmp);
    if (fl)
        emit_line(e, "nan_seen |= elem != elem;");
    emit_close(e, NULL);
    emit_open(e, fl ? arena_printf(A(e), "if (best < 0 || (!isnan(acc) && (nan_seen || chunk_best %s acc)))", cmp)
                    : arena_printf(A(e), "if (best < 0 || chunk_best %s acc)", cmp));
    emit_line(e, "int64_t at = hi; /* where: the first %s */", fl ? "NaN, else the first best" : "best");
    if (fl)
        emit_line(e, "chunk_best = nan_seen ? NAN : chunk_best;");
    emit_line(e, "NPX_SIMD_FIRST");
    emit_open(e, "for (int64_t %s = lo; %s < hi; %s++)", i, i, i);
    emit_line(e, "const %s elem = %s;", ct, stored ? elem : arena_printf(A(e), "chunk_elem[%s - lo]", i));
    /* one test for both (a NaN best equals nothing): it vectorizes, a choice between two did not */
    emit_line(e, "at = %s ? (%s < at ? %s : at) : at;", fl ? "((elem == chunk_best) | (elem != elem))" : "elem == chunk_best",
              i, i);
    emit_close(e, NULL);
    emit_line(e, "acc = chunk_best;");
    emit_line(e, "best = k + (at - lo);");
    emit_close(e, NULL);
    emit_line(e, "k += hi - lo;");
    emit_close(e, NULL);
}

/* argmax, argmin in chunks (emit_arg_chunks): a whole array in memory order
 * is one run, else each run along the last reduced axis; a run shorter than
 * NPX_ARG_SHORT goes one by one, which is faster there. False when every
 * run is that short (its size is known): the plain loops serve. */
static bool emit_arg_reduce(Emitter *e, Ref r, const ReducePlan *rp)
{
    const Value *v = V(e->p, r), *a = V(e->p, v->args[0]);
    npx_dtype t = rp->code.acc;
    bool flat = rp->kept.ndim == 0 && cx_is_flat(e, v->args[0], &a->shape);
    int outer = flat ? 0 : rp->reduced.ndim - 1;
    Dim last = rp->reduced.d[outer];
    int64_t known = flat ? shape_size_literal(&rp->reduced) : DIM_IS_SYM(last) ? -1 : last;
    if (known >= 0 && known < NPX_ARG_SHORT)
        return false;
    const char *i = flat ? "i" : rp->red_iv[outer], *len = flat ? rp->count : cx_dim(e, last);
    const char *elem = cx_value(e, v->args[0], flat ? NULL : rp->iv, t);
    open_value_nest(e, v->cname, rp->kept.d, rp->kept_iv, rp->kept.ndim, &rp->reduced);
    emit_line(e, "%s acc = %s;", dtype_ctype(t), rp->code.init);
    emit_line(e, "int64_t best = -1, k = 0;");
    open_loops(e, rp->reduced.d, rp->red_iv, outer, NULL, NULL);
    if (known < 0) {
        emit_open(e, "if (%s < NPX_ARG_SHORT)", len);
        emit_open(e, "for (int64_t %s = 0; %s < %s; %s++)", i, i, len, i);
        emit_line(e, "const %s elem = %s;", dtype_ctype(t), elem);
        emit_line(e, "%s", rp->code.step);
        emit_close(e, NULL);
        e->indent--;
        emit_line(e, "} else {");
        e->indent++;
    }
    emit_arg_chunks(e, v->red == RED_argmax, t, i, len, elem, a->materialize && a->dtype == t);
    if (known < 0)
        emit_close(e, NULL);
    close_loops(e, outer, NULL);
    emit_line(e, "%s;", reduce_store(e, r, &rp->kept, rp->kept_iv, reduce_result(e, r, rp, "acc")));
    close_value_nest(e);
    return true;
}

/* A whole array's any or all (max, min of bools) of an element read at its
 * flat index (C): in chunks of NPX_DECIDE, each vectorized, shared by the
 * threads, skipped once a chunk has decided the answer (NPX_DECIDE). */
static void emit_deciding_chunks(Emitter *e, Ref r, const ReducePlan *rp, bool any)
{
    const Value *v = V(e->p, r);
    emit_block(e);
    emit_line(e, "uint8_t acc = %d;", !any);
    emit_line(e, "int decided = 0; /* a chunk found a %s: no other can change acc */", any ? "true" : "false");
    emit_parallel_open(e, any ? "NPX_PARALLEL_ANY" : "NPX_PARALLEL_ALL", NULL, rp->reduced.d, rp->reduced.ndim, NULL);
    emit_open(e, "for (int64_t i0 = 0; i0 < %s; i0 += NPX_DECIDE)", rp->count);
    emit_line(e, "int stop;");
    emit_line(e, "NPX_ATOMIC_READ");
    emit_line(e, "stop = decided;");
    emit_line(e, "if (stop)");
    emit_line(e, "    continue;");
    emit_line(e, "const int64_t i1 = NPX_BLOCK_END(i0, %s, NPX_DECIDE);", rp->count);
    emit_line(e, "%s", any ? "NPX_SIMD_ANY" : "NPX_SIMD_ALL");
    emit_open(e, "for (int64_t i = i0; i < i1; i++)");
    emit_line(e, "const bool elem = %s;", cx_value(e, v->args[0], NULL, NPX_BOOL));
    emit_line(e, "acc %s= elem;", any ? "|" : "&");
    emit_close(e, NULL);
    emit_open(e, "if (%sacc)", any ? "" : "!");
    emit_line(e, "NPX_ATOMIC_WRITE");
    emit_line(e, "decided = 1;");
    emit_close(e, NULL);
    emit_parallel_close(e);
    emit_line(e, "%s = %s;", cx_element(e, r, &rp->kept, rp->kept_iv), reduce_result(e, r, rp, "acc"));
    emit_close(e, NULL);
}

/* One loop nest over the kept axes; each iteration runs over the reduced ones. */
void emit_reduce_loops(Emitter *e, Ref r, const ReducePlan *rp)
{
    const Value *v = V(e->p, r), *a = V(e->p, v->args[0]);
    if (rp->arg && e->t->simd_minmax && rp->reduced.ndim > 0 && emit_arg_reduce(e, r, rp))
        return;
    /* max and min of floats vectorize as a plain max or min and a flag for
     * NaN, which NumPy's max returns when there is one (an int: GCC's vector
     * code for a bool reduction ran 12 times slower) */
    bool nan_flag = e->t->simd_minmax && dtype_is_float(rp->code.acc) && (v->red == RED_max || v->red == RED_min);
    /* any and all (max and min of bools) likewise, in a byte and | or & (an int
     * accumulator made GCC widen every bool: 16M of them took 5.2 ms, 0.16 in
     * a byte) */
    bool bool_flag = e->t->simd_minmax && rp->code.acc == NPX_BOOL && !rp->arg;
    bool any = v->red == RED_any || v->red == RED_max;
    if (bool_flag && rp->kept.ndim == 0 && rp->reduced.ndim > 0 && cx_is_flat(e, v->args[0], &a->shape)) {
        emit_deciding_chunks(e, r, rp, any);
        return;
    }
    /* integer sums in an unsigned accumulator, which wraps as NumPy's does
     * (a signed one may not, and the checked add does not vectorize) */
    bool int_sum = e->t->simd_minmax && rp->code.acc == NPX_I64 && v->red == RED_sum;
    const char *acc_t = bool_flag ? "uint8_t" : int_sum ? "uint64_t" : dtype_ctype(rp->code.acc);
    const char *step = rp->code.step, *simd = rp->code.simd;
    const char *result = reduce_result(e, r, rp, int_sum ? "(int64_t)acc" : "acc");
    /* a reduction to one value has no outer loop to share: its own loop is */
    bool whole = rp->kept.ndim == 0;
    const char *par = whole ? rp->code.par : NULL;
    if (int_sum) {
        step = "acc += (uint64_t)elem;";
        simd = "NPX_SIMD_SUM";
        par = whole ? "NPX_PARALLEL_SUM" : NULL;
    }
    if (nan_flag) {
        step = v->red == RED_max ? "acc = elem > acc ? elem : acc;" : "acc = elem < acc ? elem : acc;";
        simd = v->red == RED_max ? "NPX_SIMD_MAX" : "NPX_SIMD_MIN";
        par = whole ? (v->red == RED_max ? "NPX_PARALLEL_MAXIMUM" : "NPX_PARALLEL_MINIMUM") : NULL;
        result = arena_printf(A(e), "nan_seen ? %s : acc", cx_literal(e, NAN, 0, true, rp->code.acc));
    }
    if (bool_flag) {
        step = any ? "acc |= elem;" : "acc &= elem;";
        simd = any ? "NPX_SIMD_ANY" : "NPX_SIMD_ALL";
        par = whole ? (any ? "NPX_PARALLEL_ANY" : "NPX_PARALLEL_ALL") : NULL;
    }
    open_value_nest(e, v->cname, rp->kept.d, rp->kept_iv, rp->kept.ndim, &rp->reduced);
    emit_line(e, "%s acc = %s;", acc_t, !bool_flag ? rp->code.init : any ? "0" : "1");
    if (rp->arg)
        emit_line(e, "int64_t best = -1, k = 0;");
    if (nan_flag)
        emit_line(e, "int nan_seen = 0;");
    /* a whole reduction of an element that reads arrays across their rows
     * runs along the rows where all of them are (np.abs(A.T).max(): its
     * loops swap), else in tiles (np.abs(A - A.T).max()), on targets that
     * tile */
    int n = rp->reduced.ndim, swap = e->t->open_tiles ? ir_swapped_axis(e->p, r) : -1;
    int tile = e->t->open_tiles ? ir_tiled_axis(e->p, r) : -1;
    Dim dims[NPX_MAX_RANK];
    const char *iv[NPX_MAX_RANK];
    memcpy(dims, rp->reduced.d, sizeof(Dim) * n);
    memcpy(iv, rp->red_iv, sizeof(char *) * n);
    if (swap >= 0) {
        dims[swap] = rp->reduced.d[n - 1], dims[n - 1] = rp->reduced.d[swap];
        iv[swap] = rp->red_iv[n - 1], iv[n - 1] = rp->red_iv[swap];
    }
    if (tile >= 0)
        e->t->open_tiles(e, v->cname, dims, iv, n, tile, par, simd);
    else
        open_loops(e, dims, iv, n, simd, par);
    emit_line(e, "const %s elem = %s;", dtype_ctype(rp->code.acc), cx_value(e, v->args[0], rp->iv, rp->code.acc));
    emit_line(e, "%s", step);
    if (nan_flag)
        emit_line(e, "nan_seen |= elem != elem;");
    close_loops(e, n + (tile >= 0 ? 2 : 0), par);
    emit_line(e, "%s;", reduce_store(e, r, &rp->kept, rp->kept_iv, result));
    close_value_nest(e);
}

/* max, min, argmax and argmin of nothing are errors, as in NumPy (unless
 * the program replaces that value: empty_gives_start) */
static void emit_reduce_check(Emitter *e, Ref r, const IrStmt *st)
{
    const Value *v = V(e->p, r);
    ReducePlan rp;
    reduce_plan(e, r, &rp);
    if (empty_reduction_error(v->red) && !v->empty_gives_start && shape_size_literal(&rp.reduced) < 0)
        emit_line(e, "if (%s == 0) npx_runtime_error(st, %d, \"%s\");", rp.count, st->line,
                  empty_reduction_error(v->red));
}

static void emit_reduce(Emitter *e, Ref r)
{
    ReducePlan rp;
    reduce_plan(e, r, &rp);
    if (e->t->reduce)
        e->t->reduce(e, r, &rp);
    else
        emit_reduce_loops(e, r, &rp);
}

/* ---- matrix products: out[i, j] = sum over p of a[i, p] * b[p, j] ---- */

/* Operand `side` of matrix product m as BLAS sees it (g, from ir_gemm):
 * stored (possibly transposed), with one matrix for all of the stack or one
 * for each. */
void gemm_operand(Emitter *e, Ref m, int side, const IrGemmOperand *g, GemmOperand *o)
{
    const Shape *s = &V(e->p, V(e->p, m)->args[side])->shape;
    o->stored = V(e->p, g->stored);
    o->transposed = g->transposed;
    o->offset = g->block ? cx_block_offset(e, g->block) : NULL;
    if (s->ndim >= 2) {
        o->rows = cx_dim(e, s->d[s->ndim - 2]);
        o->cols = cx_dim(e, s->d[s->ndim - 1]);
    } else {                     /* a vector is a row on the left, a column on the right */
        o->rows = side == 0 ? "1" : cx_dim(e, s->d[0]);
        o->cols = side == 0 ? cx_dim(e, s->d[0]) : "1";
    }
    o->stride = !g->per_matrix ? NULL
                : o->transposed ? arena_printf(A(e), "%s * %s", o->cols, o->rows)   /* as stored */
                                : arena_printf(A(e), "%s * %s", o->rows, o->cols);
}

const char *gemm_start(Emitter *e, const char *base, const GemmOperand *o)
{
    if (!o->offset || strcmp(o->offset, "0") == 0)
        return base;
    return arena_printf(A(e), "%s + %s", base, o->offset);
}

/* The indexes of matrix product r's operand `side` (0: a, 1: b) at the
 * result's indexes oi, the summed axis at p. */
static Idx matmul_operand_idx(Emitter *e, Ref r, int side, Idx oi)
{
    const Value *v = V(e->p, r), *x = V(e->p, v->args[side]);
    int nstack = matmul_stack_ndim(e->p, v), n = 0;
    const char **idx = arena_alloc(A(e), sizeof(char *) * NPX_MAX_RANK);
    if (x->shape.ndim >= 2) {
        Shape stack = { nstack, { 0 } }, own = { x->shape.ndim - 2, { 0 } };
        memcpy(stack.d, v->shape.d, sizeof(Dim) * nstack);
        memcpy(own.d, x->shape.d, sizeof(Dim) * own.ndim);
        Idx at = cx_broadcast_idx(e, &stack, oi, &own);
        for (int k = 0; k < own.ndim; k++)
            idx[n++] = at[k];
        if (side == 0)
            idx[n++] = oi[nstack];               /* a's row */
    }
    idx[n++] = "p";
    if (side == 1 && x->shape.ndim >= 2)
        idx[n++] = oi[v->shape.ndim - 1];        /* b's column */
    return idx;
}

void emit_matmul_loops(Emitter *e, Ref r)
{
    Program *p = e->p;
    const Value *v = V(p, r), *a = V(p, v->args[0]);
    npx_dtype acc = dtype_is_float(v->dtype) ? NPX_F64 : v->dtype == NPX_BOOL ? NPX_BOOL : NPX_I64;
    const char **oi = arena_alloc(A(e), sizeof(char *) * NPX_MAX_RANK);
    for (int k = 0; k < v->shape.ndim; k++)
        oi[k] = arena_printf(A(e), "i%d", k);
    e->t->declare(e, v, false);
    const Shape summed = { 1, { a->shape.d[a->shape.ndim - 1] } };
    e->t->open_nest(e, v->cname, v->shape.d, oi, v->shape.ndim, &summed);
    /* (an operand computed here may be a sum: np.arange(1, 2, 0.125) is 1.0 + p * 0.125) */
    const char *x = cx_paren(e, cx_value(e, v->args[0], matmul_operand_idx(e, r, 0, oi), acc));
    const char *y = cx_paren(e, cx_value(e, v->args[1], matmul_operand_idx(e, r, 1, oi), acc));
    emit_line(e, "%s acc = %s;", dtype_ctype(acc), acc == NPX_BOOL ? "false" : "0");
    if (acc == NPX_F64)
        emit_line(e, "NPX_SIMD_SUM");
    emit_line(e, "for (int64_t p = 0; p < %s; p++)", cx_dim(e, a->shape.d[a->shape.ndim - 1]));
    if (acc == NPX_BOOL)
        emit_line(e, "    acc = acc || (%s && %s);", x, y);
    else if (acc == NPX_I64)
        emit_line(e, "    acc = npx_add_i64(acc, npx_mul_i64(%s, %s));", x, y);
    else
        emit_line(e, "    acc += %s * %s;", x, y);
    const char *result = v->scale == 1 ? "acc" : arena_printf(A(e), "acc * %s", cx_literal(e, v->scale, 0, true, acc));
    emit_line(e, "%s = %s;", cx_load(e, r, cx_flat(e, &v->shape, oi)), cx_convert(e, result, acc, v->dtype));
    e->t->close_nest(e);
}

/* cumsum (cumprod) along axis k: each line along the axis is one running
 * sum (product) in the result's dtype, in order, as NumPy's add.accumulate
 * (multiply.accumulate); the lines run in parallel. */
static void emit_cumsum(Emitter *e, Ref r)
{
    const Value *v = V(e->p, r);
    npx_dtype t = v->dtype;
    int k = (int)v->ival, no = 0;
    const char **idx = arena_alloc(A(e), sizeof(char *) * NPX_MAX_RANK), *oi[NPX_MAX_RANK];
    Dim od[NPX_MAX_RANK];
    for (int d = 0; d < v->shape.ndim; d++) {
        if (d == k) {
            idx[d] = "p";
            continue;
        }
        od[no] = v->shape.d[d];
        oi[no] = idx[d] = arena_printf(A(e), "i%d", no);
        no++;
    }
    e->t->declare(e, v, false);
    if (e->t->cumsum && e->t->cumsum(e, r))
        return;
    const Shape along = { 1, { v->shape.d[k] } };
    e->t->open_nest(e, v->cname, od, oi, no, &along);
    bool prod = v->red == RED_prod;
    emit_line(e, "%s acc = %d;", dtype_ctype(t), prod);
    emit_open(e, "for (int64_t p = 0; p < %s; p++)", cx_dim(e, v->shape.d[k]));
    const char *x = cx_value(e, v->args[0], idx, t);
    if (dtype_is_int(t))
        emit_line(e, "acc = npx_%s_%s(acc, %s);", prod ? "mul" : "add", dtype_name(t), x);
    else
        emit_line(e, "acc %s= %s;", prod ? "*" : "+", x);
    emit_line(e, "%s = acc;", cx_load(e, r, cx_flat(e, &v->shape, idx)));
    emit_close(e, NULL);
    e->t->close_nest(e);
}

/* sort and argsort along axis k: the runtime sorts each lane (sort.c; on
 * the device npx_device.h) of the stored operand, the result's storage
 * declared. */
static void emit_sort(Emitter *e, Ref r)
{
    const Value *v = V(e->p, r), *x = V(e->p, v->args[0]);
    int k = (int)v->ival, n = v->shape.ndim;
    if (x->kind == IR_RESHAPE && !x->materialize)
        x = V(e->p, x->args[0]);                 /* the same elements in the same order */
    emit_line(e, "%s_%s_%s(%s, %s, %s, %s, %s);", e->t->array_fns, v->positions ? "argsort" : "sort",
              dtype_name(x->dtype), e->t->data(e, x), e->t->data(e, v), cx_dims(e, v->shape.d, k),
              cx_dim(e, v->shape.d[k]), cx_dims(e, v->shape.d + k + 1, n - k - 1));
}

/* x[..., mask, ...]: the runtime counts the elements the mask selects (on
 * the device: the host reads that count, one sync), allocates the result
 * and fills it (compress.c; npx_device.h). */
static void emit_compress(Emitter *e, Ref r)
{
    const Value *v = V(e->p, r), *x = V(e->p, v->args[0]), *mask = V(e->p, v->args[1]);
    int k = (int)v->ival, m = mask->shape.ndim;
    emit_line(e, "%s *%s;", dtype_ctype(v->dtype), v->cname);
    emit_line(e, "const int64_t %s = %s_compress_%s(%s, %s, %s, %s, %s, &%s);", cx_dim(e, ir_data_dim(v)),
              e->t->array_fns, dtype_name(v->dtype), e->t->data(e, mask), e->t->data(e, x), cx_dims(e, x->shape.d, k),
              cx_dims(e, x->shape.d + k, m), cx_dims(e, x->shape.d + k + m, x->shape.ndim - k - m), v->cname);
}

static void emit_arange(Emitter *e, Ref r)
{
    const Value *v = V(e->p, r);
    e->t->declare(e, v, false);
    e->t->open_flat(e, v->cname, v->shape.d, 1);
    emit_line(e, "%s = %s;", cx_load(e, r, "i"), cx_arange(e, v, "i"));
    e->t->close_nest(e);
}

void emit_update_element(Emitter *e, Ref r, const char *const *iv, const char *at)
{
    const Value *u = V(e->p, r);
    const char *elem = cx_element(e, r, &u->shape, cx_selected_at(e, &V(e->p, u->args[0])->shape, u->sel, iv, at));
    if (u->ufunc_at)
        emit_line(e, "%s;", cx_ufunc_at(e, r, elem, iv));
    else
        emit_line(e, "%s = %s;", elem, cx_value(e, u->args[1], iv, u->dtype));
}

/* x[i, 1:3] = v: a copy of x, unless the update took x's buffer over, then
 * a nest over the selection that writes each new element where the index
 * puts it. Positions from an array (x[p] = v) may repeat: the nest is over
 * the selection's other axes, and each of its iterations writes along the
 * positions' axes in order, so that the last value stays, as in NumPy
 * (unless the target has its own way, Target.scatter). */
static void emit_update(Emitter *e, Ref r)
{
    const Value *u = V(e->p, r), *v = V(e->p, u->args[1]);
    if (!u->adopts) {
        e->t->open_flat(e, u->cname, u->shape.d, u->shape.ndim);
        emit_line(e, "%s = %s;", cx_load(e, r, "i"), cx_load(e, u->args[0], "i"));
        e->t->close_nest(e);
    }
    uint32_t ordered = ir_scatter_axes(e->p, u);
    if (ordered && e->t->scatter && e->t->scatter(e, r))
        return;
    const char **iv = emit_index_vars(e, v->shape.ndim), *nest_iv[NPX_MAX_RANK];
    Dim nest[NPX_MAX_RANK];
    Shape in_order = { 0, { 0 } };
    int n = 0;
    for (int j = 0; j < v->shape.ndim; j++)
        if (!(ordered >> j & 1)) {
            nest[n] = v->shape.d[j];
            nest_iv[n++] = iv[j];
        } else
            in_order.d[in_order.ndim++] = v->shape.d[j];
    e->t->open_nest(e, u->cname, nest, nest_iv, n, &in_order);
    if (ordered)
        emit_line(e, "/* in order: where a position repeats, %s */",
                  u->ufunc_at ? "it combines again" : "its last value stays");
    for (int j = 0; j < v->shape.ndim; j++)
        if (ordered >> j & 1)
            emit_open(e, "for (int64_t %s = 0; %s < %s; %s++)", iv[j], iv[j], cx_dim(e, v->shape.d[j]), iv[j]);
    emit_update_element(e, r, iv, NULL);
    for (int j = 0; j < v->shape.ndim; j++)
        if (ordered >> j & 1)
            emit_close(e, NULL);
    e->t->close_nest(e);
}

/* A value that takes its first argument's buffer over (ir.h, adopts). */
static void emit_adopted(Emitter *e, const Value *v)
{
    const char *x = V(e->p, v->args[0])->cname, *ct = dtype_ctype(v->dtype);
    if (v->kind == IR_UPDATE)
        emit_line(e, "%s *%s = %s; /* %s's elements change in place: nothing reads the old ones after */", ct,
                  v->cname, x, x);
    else
        emit_line(e, "%s *%s = %s; /* the loop takes over %s's buffer: nothing reads it after */", ct, v->cname, x,
                  x);
}

void emit_value_storage(Emitter *e, Ref r, const IrStmt *st)
{
    const Value *v = V(e->p, r);
    if (v->adopts) {
        emit_adopted(e, v);
        return;
    }
    switch (v->kind) {
    case IR_REDUCE:
        emit_reduce_check(e, r, st);
        if (v->finish)
            return;              /* no buffer: its reader's loop is its own */
        break;
    case IR_MATMUL:
    case IR_ARANGE:
    case IR_BINCOUNT:
    case IR_COMPRESS:
    case IR_CUMSUM:
    case IR_INPUT: return;
    default:
        if (v->shape.ndim == 0 && e->t->scalar_locals)
            return;              /* declared where it is computed */
    }
    e->t->declare(e, v, false);
}

void emit_value_loops(Emitter *e, Ref r, const IrStmt *st)
{
    if (V(e->p, r)->adopts && V(e->p, r)->kind != IR_UPDATE)
        return;                  /* a loop's carried name: its value before the loop, no copy */
    switch (V(e->p, r)->kind) {
    case IR_REDUCE:
        if (!V(e->p, r)->finish)
            emit_reduce(e, r);
        break;
    case IR_MATMUL: (e->t->matmul ? e->t->matmul : emit_matmul_loops)(e, r); break;
    case IR_ARANGE: emit_arange(e, r); break;
    case IR_CUMSUM: emit_cumsum(e, r); break;
    case IR_SORT: emit_sort(e, r); break;
    case IR_COMPRESS: emit_compress(e, r); break;
    case IR_BINCOUNT: e->t->bincount(e, r, st); break;
    case IR_UPDATE: emit_update(e, r); break;
    case IR_INPUT:
        fprintf(stderr, "npxc: internal error: inputs are not computed\n");
        break;
    default:
        if (V(e->p, r)->finishes)
            emit_reduce(e, V(e->p, r)->finishes);   /* which computes r from each result */
        else
            emit_elementwise(e, r);
    }
}

void emit_value(Emitter *e, Ref r, const IrStmt *st)
{
    emit_value_storage(e, r, st);
    emit_value_loops(e, r, st);
}
