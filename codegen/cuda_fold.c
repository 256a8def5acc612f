/* cuda_fold.c: the CUDA target's folds, reductions and running sums. A
 * block folds each result, its threads sharing the elements, then combines
 * their accumulators in shared memory down to one warp, which finishes with
 * shuffles. Where the results lie side by side in memory
 * (ir_warp_across_results) a warp takes 32 of them, a thread each, and the
 * block's warps combine theirs in shared memory. A running sum along the
 * last axis is a block's scan of each lane (ir_scan_by_blocks). Where that
 * leaves the GPU short of blocks, several share each result's elements or
 * each lane (npx_dev_splits) and further kernels combine their parts. */
#include <ctype.h>
#include <string.h>
#include "cuda_kernel.h"
#include "emit_c.h"
#include "target.h"

/* Does code name the identifier id, not as part of a longer name? */
static bool names(const char *code, const char *id)
{
    size_t n = strlen(id);
    for (const char *at = strstr(code, id); at; at = strstr(at + 1, id))
        if ((at == code || !(isalnum((unsigned char)at[-1]) || at[-1] == '_')) &&
            !(isalnum((unsigned char)at[n]) || at[n] == '_'))
            return true;
    return false;
}

/* The indices iv of the element at position flat of shape s, those that
 * code reads: a reduction of a broadcast counts along dimensions its element
 * does not read (np.broadcast_to(x[:, None], (m, n)).sum()). */
static void decompose(Emitter *e, const char *flat, const Shape *s, const char *const *iv, const char *code)
{
    int first = 0; /* the outermost dimension read */
    while (first < s->ndim && !names(code, iv[first]))
        first++;
    if (first == s->ndim)
        return;
    const char *rest = flat;
    if (first < s->ndim - 1) {
        rest = arena_printf(e->p->arena, "rest_%s", flat);
        emit_line(e, "int64_t %s = %s;", rest, flat);
    }
    for (int d = s->ndim - 1; d >= first; d--) {
        const char *size = cuda_index_divisor(e, s->d[d]);
        if (d == 0)
            emit_line(e, "const int64_t %s = %s;", iv[0], rest);
        else if (d == first)
            emit_line(e, "const int64_t %s = %s %% %s;", iv[d], rest, size);
        else if (names(code, iv[d]))
            emit_line(e, "const int64_t %s = %s %% %s; %s /= %s;", iv[d], rest, size, rest, size);
        else
            emit_line(e, "%s /= %s;", rest, size);
    }
}

/* How elem is folded into acc; for argmax and argmin, with its index:
 * elem_at where elem is another thread's or block's part, else j. */
static const char *fold(Emitter *e, Ref r, const ReducePlan *rp, const char *elem_at)
{
    if (!rp->arg)
        return rp->code.step;
    return arena_printf(e->p->arena, "if (%s) { acc = elem; best = %s; }",
                        arg_better(e, V(e->p, r)->red, rp->code.acc, "elem", elem_at), elem_at ? elem_at : "j");
}

/* The block's threads each hold acc (argmax, argmin: and best), combined in
 * shared memory (part) down to one warp, whose thread t then holds that of
 * threads t, t + 32, t + 64, ...; with shuffles, that warp's are combined
 * too, into thread 0's. */
static void combine_block(Emitter *e, Ref r, const ReducePlan *rp, bool shuffles)
{
    const char *acc_t = dtype_ctype(rp->code.acc), *step = fold(e, r, rp, "elem_at");
    /* the last 32 partial results: one warp, through its shuffles */
    const char *shfl = rp->code.acc == NPX_BOOL ? "(bool)__shfl_down_sync(0xffffffffu, (int)acc, lane)"
                                                : "__shfl_down_sync(0xffffffffu, acc, lane)";
    emit_line(e, "part[threadIdx.x] = acc;");
    if (rp->arg)
        emit_line(e, "part_at[threadIdx.x] = best;");
    emit_line(e, "__syncthreads();");
    emit_open(e, "for (unsigned half = blockDim.x / 2; half >= 32; half /= 2)");
    emit_open(e, "if (threadIdx.x < half)");
    emit_line(e, "const %s elem = part[threadIdx.x + half];", acc_t);
    if (rp->arg)
        emit_line(e, "const int64_t elem_at = part_at[threadIdx.x + half];");
    emit_line(e, "%s", step);
    emit_line(e, "part[threadIdx.x] = acc;");
    if (rp->arg)
        emit_line(e, "part_at[threadIdx.x] = best;");
    emit_close(e, NULL);
    emit_line(e, "__syncthreads();");
    emit_close(e, NULL);
    if (!shuffles)
        return;
    emit_open(e, "if (threadIdx.x < 32)");
    emit_open(e, "for (int lane = 16; lane > 0; lane /= 2)");
    emit_line(e, "const %s elem = %s;", acc_t, shfl);
    if (rp->arg)
        emit_line(e, "const int64_t elem_at = __shfl_down_sync(0xffffffffu, best, lane);");
    emit_line(e, "%s", step);
    emit_close(e, NULL);
    emit_close(e, NULL);
}

/* A reduction kernel's shared arrays, where its threads' accumulators meet. */
static void declare_accumulators(Emitter *e, const ReducePlan *rp)
{
    const char *acc_t = dtype_ctype(rp->code.acc);
    emit_line(e, "NPX_SHARED(%s, part, NPX_THREADS);", acc_t);
    if (rp->arg)
        emit_line(e, "NPX_SHARED(int64_t, part_at, NPX_THREADS);");
}

/* Inside a row group's kernel: the block reduces row i0 (rows.c allows
 * only a whole row of a matrix). */
static void row_reduce(Emitter *e, Ref r, const ReducePlan *rp)
{
    const Value *v = V(e->p, r);
    emit_block(e);
    declare_accumulators(e, rp);
    emit_line(e, "%s acc = %s;", dtype_ctype(rp->code.acc), rp->code.init);
    emit_open(e, "for (int64_t %s = threadIdx.x; %s < %s; %s += blockDim.x)", rp->red_iv[0], rp->red_iv[0],
              cx_dim(e, rp->reduced.d[0]), rp->red_iv[0]);
    emit_line(e, "const %s elem = %s;", dtype_ctype(rp->code.acc), cx_value(e, v->args[0], rp->iv, rp->code.acc));
    emit_line(e, "%s", rp->code.step);
    emit_close(e, NULL);
    combine_block(e, r, rp, true);
    emit_line(e, "if (threadIdx.x == 0)");
    emit_line(e, "    %s;", reduce_store(e, r, &rp->kept, rp->kept_iv, reduce_result(e, r, rp, "acc")));
    emit_close(e, NULL);
}

/* The flat index of the element of reduction r that result o's j-th element
 * is, where the element reads every array there (cx_is_flat) and o and j
 * are its positions in memory order: the reduced axes last (a block along
 * each row), or first when a warp takes 32 results (down 32 columns); else
 * NULL, and the element's indices come from o's and j's. */
static const char *flat_element(Emitter *e, Ref r, const ReducePlan *rp, bool warp)
{
    const Value *v = V(e->p, r), *a = V(e->p, v->args[0]);
    unsigned reduced = (1u << a->shape.ndim) - (1u << rp->kept.ndim), first = (1u << rp->reduced.ndim) - 1;
    if (!cx_is_flat(e, v->args[0], &a->shape) || v->axes != (warp ? first : reduced))
        return NULL;
    if (warp)
        return arena_printf(e->p->arena, "j * %s + o", cx_dims(e, rp->kept.d, rp->kept.ndim));
    return rp->kept.ndim ? arena_printf(e->p->arena, "o * %s + j", cx_dims(e, rp->reduced.d, rp->reduced.ndim)) : "j";
}

/* What reduction r's kernels store, which names them: r, or the reader it
 * computes (Value.finish), their one output. */
static const char *stored_name(Emitter *e, Ref r) { return V(e->p, ir_stored_value(e->p, r))->cname; }

/* A result's accumulator (and, for argmax/argmin, its best position). */
static void start_result(Emitter *e, const ReducePlan *rp)
{
    emit_line(e, "%s acc = %s;", dtype_ctype(rp->code.acc), rp->code.init);
    if (rp->arg)
        emit_line(e, "int64_t best = -1;");
}

/* The body of a loop over a result's elements j: element elem, read at flat
 * index `flat` or at j's indices, folded into the accumulator. */
static void fold_element(Emitter *e, Ref r, const ReducePlan *rp, const char *flat, const char *elem)
{
    if (flat && names(elem, "i"))
        emit_line(e, "const int64_t i = %s;", flat);
    else if (!flat)
        decompose(e, "j", &rp->reduced, rp->red_iv, elem);
    emit_line(e, "const %s elem = %s;", dtype_ctype(rp->code.acc), elem);
    emit_line(e, "%s", fold(e, r, rp, NULL));
}

/* n tasks for each split of a result */
static const char *times_splits(Emitter *e, const char *n)
{
    return strcmp(n, "1") == 0 ? "splits" : arena_printf(e->p->arena, "%s * splits", n);
}

/* The loop over a kernel's tasks, `tasks` times splits of them: result o
 * (with warp, a thread's of the 32 side by side), its share of the count
 * elements j_from to j_to (o only where uses_o: there are lanes). */
static void open_tasks(Emitter *e, const char *tasks, const char *count, bool warp, bool uses_o)
{
    emit_line(e, "const int64_t share = (%s + splits - 1) / splits; /* a task's share of a result's elements */",
              count);
    emit_open(e, "for (int64_t task = blockIdx.x; task < %s; task += gridDim.x)", times_splits(e, tasks));
    if (uses_o)
        emit_line(e, "const int64_t o = task / splits%s, j_from = task %% splits * share;",
                  warp ? " * 32 + threadIdx.x % 32" : "");
    else
        emit_line(e, "const int64_t j_from = task %% splits * share;");
    emit_line(e, "const int64_t j_to = j_from + share < %s ? j_from + share : %s;", count, count);
}

/* Reduction r's kernel: result o's elements split in `splits` shares, one
 * task each; a block takes a task, its threads sharing the elements, or with
 * warp, 32 neighbouring results' tasks, a thread each with the block's warps
 * sharing the elements. A task's result is the result's, or its part. */
static void reduce_kernel(Emitter *e, Ref r, const ReducePlan *rp, const char *name, bool warp, const char *tasks)
{
    const Value *v = V(e->p, r);
    const char *acc_t = dtype_ctype(rp->code.acc);
    cuda_begin_kernel(e, stored_name(e, r));
    e->indent = 1;
    const char *count = cx_dims(e, rp->reduced.d, rp->reduced.ndim);
    const char *outputs = cx_dims(e, rp->kept.d, rp->kept.ndim);
    const char *flat = flat_element(e, r, rp, warp);
    const char *elem = cx_value(e, v->args[0], flat ? NULL : rp->iv, rp->code.acc);
    const char *store = reduce_store(e, r, &rp->kept, rp->kept_iv, reduce_result(e, r, rp, "acc"));
    declare_accumulators(e, rp);
    open_tasks(e, tasks, count, warp, true);
    decompose(e, "o", &rp->kept, rp->kept_iv, arena_printf(e->p->arena, "%s %s", elem, store));
    start_result(e, rp);
    if (warp)
        emit_open(e, "if (o < %s)", outputs);
    const char *lanes = warp ? " / 32" : "";
    emit_open(e, "for (int64_t j = j_from + threadIdx.x%s; j < j_to; j += blockDim.x%s)", lanes, lanes);
    fold_element(e, r, rp, flat, elem);
    emit_close(e, NULL);
    if (warp)
        emit_close(e, NULL);
    combine_block(e, r, rp, !warp);
    emit_open(e, warp ? "if (threadIdx.x < 32 && o < %s)" : "if (threadIdx.x == 0)%.0s", outputs);
    emit_line(e, "if (splits == 1)");
    emit_line(e, "    %s;", store);
    if (rp->arg) {
        emit_open(e, "else");
        emit_line(e, "parts[o * splits + task %% splits] = acc;");
        emit_line(e, "parts_at[o * splits + task %% splits] = best;");
        emit_close(e, NULL);
    } else {
        emit_line(e, "else");
        emit_line(e, "    parts[o * splits + task %% splits] = acc;");
    }
    emit_close(e, NULL);
    emit_line(e, "__syncthreads();");
    emit_close(e, NULL);
    const char *own = arena_printf(e->p->arena, "%s *parts%s, int64_t splits", acc_t,
                                   rp->arg ? ", int64_t *parts_at" : "");
    cuda_end_kernel(e, name, "", arena_printf(e->p->arena, "%s * NPX_THREADS", times_splits(e, tasks)), own,
                    rp->arg ? "parts, parts_at, splits" : "parts, splits");
}

/* The kernel that combines each result's parts, a block a result. */
static void parts_kernel(Emitter *e, Ref r, const ReducePlan *rp, const char *name)
{
    const Value *v = V(e->p, r);
    const char *acc_t = dtype_ctype(rp->code.acc);
    cuda_begin_kernel(e, stored_name(e, r));
    e->indent = 1;
    ReducePlan plan = *rp;
    if (v->red == RED_mean)
        plan.count = cx_dims(e, rp->reduced.d, rp->reduced.ndim); /* its sizes, read in the kernel */
    const char *outputs = cx_dims(e, rp->kept.d, rp->kept.ndim);
    const char *store = reduce_store(e, r, &rp->kept, rp->kept_iv, reduce_result(e, r, &plan, "acc"));
    declare_accumulators(e, rp);
    emit_open(e, "for (int64_t o = blockIdx.x; o < %s; o += gridDim.x)", outputs);
    decompose(e, "o", &rp->kept, rp->kept_iv, store);
    start_result(e, rp);
    emit_open(e, "for (int64_t j = threadIdx.x; j < splits; j += blockDim.x)");
    emit_line(e, "const %s elem = parts[o * splits + j];", acc_t);
    if (rp->arg)
        emit_line(e, "const int64_t elem_at = parts_at[o * splits + j];");
    emit_line(e, "%s", fold(e, r, rp, "elem_at"));
    emit_close(e, NULL);
    combine_block(e, r, rp, true);
    emit_line(e, "if (threadIdx.x == 0)");
    emit_line(e, "    %s;", store);
    emit_line(e, "__syncthreads();");
    emit_close(e, NULL);
    cuda_end_kernel(e, name, ": the tasks' parts of each result, combined",
                    arena_printf(e->p->arena, "%s * NPX_THREADS", outputs),
                    arena_printf(e->p->arena, "const %s *parts%s, int64_t splits", acc_t,
                                 rp->arg ? ", const int64_t *parts_at" : ""),
                    rp->arg ? "parts, parts_at, splits" : "parts, splits");
}

/* Reduction r where each result has a few elements (ir_thread_per_result):
 * a thread folds each result's, in order. */
static void thread_reduce_kernel(Emitter *e, Ref r, const ReducePlan *rp)
{
    const Value *v = V(e->p, r);
    cuda_begin_kernel(e, stored_name(e, r));
    e->indent = 1;
    const char *outputs = cx_dims(e, rp->kept.d, rp->kept.ndim);
    const char *flat = flat_element(e, r, rp, false);
    const char *elem = cx_value(e, v->args[0], flat ? NULL : rp->iv, rp->code.acc);
    const char *store = reduce_store(e, r, &rp->kept, rp->kept_iv, reduce_result(e, r, rp, "acc"));
    emit_open(e, "for (int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; o < %s; "
                 "o += (int64_t)gridDim.x * blockDim.x)", outputs);
    decompose(e, "o", &rp->kept, rp->kept_iv, arena_printf(e->p->arena, "%s %s", elem, store));
    start_result(e, rp);
    emit_open(e, "for (int64_t j = 0; j < %s; j++)", cx_dims(e, rp->reduced.d, rp->reduced.ndim));
    fold_element(e, r, rp, flat, elem);
    emit_close(e, NULL);
    emit_line(e, "%s;", store);
    emit_close(e, NULL);
    cuda_end_kernel(e, cuda_kernel_name(e, stored_name(e, r)), ": a thread per result, its few elements in order", outputs,
                    NULL, NULL);
}

void cuda_reduce(Emitter *e, Ref r, const ReducePlan *rp)
{
    if (e->in_rows) {
        row_reduce(e, r, rp);
        return;
    }
    if (ir_thread_per_result(e->p, r)) {
        thread_reduce_kernel(e, r, rp);
        return;
    }
    Arena *ar = e->p->arena;
    bool warp = ir_warp_across_results(e->p, r);
    const char *acc_t = dtype_ctype(rp->code.acc), *outputs = cx_dims(e, rp->kept.d, rp->kept.ndim);
    const char *tasks = warp ? arena_printf(ar, "(%s + 31) / 32", outputs) : outputs;
    const char *nparts = times_splits(e, outputs);
    emit_block(e);
    emit_line(e, "const int64_t splits = npx_dev_splits(%s, %s, NPX_THREADS%s); /* tasks for each result */", tasks,
              rp->count, warp ? " / 32" : "");
    emit_line(e, "%s *parts = splits > 1 ? (%s *)npx_dev_alloc(npx_bytes(%s, sizeof(%s), \"parts\"), false) : NULL;",
              acc_t, acc_t, nparts, acc_t);
    if (rp->arg)
        emit_line(e, "int64_t *parts_at = splits > 1 ? (int64_t *)npx_dev_alloc(npx_bytes(%s, sizeof(int64_t), "
                     "\"parts\"), false) : NULL;", nparts);
    const char *name = cuda_kernel_name(e, stored_name(e, r));
    reduce_kernel(e, r, rp, name, warp, tasks);
    emit_open(e, "if (splits > 1)");
    parts_kernel(e, r, rp, arena_printf(ar, "%s_parts", name));
    emit_line(e, "npx_dev_free(parts);");
    if (rp->arg)
        emit_line(e, "npx_dev_free(parts_at);");
    emit_close(e, NULL);
    emit_close(e, NULL);
}

/* ---- running sums and products along each lane of the last axis: a
 * block scans a task's share of a lane, a tile of NPX_THREADS elements at
 * a time, by shuffles within each warp, then across the warps. Where the
 * lanes are too few to fill the GPU, a first kernel sums each task's share
 * of its lane (its part), a second scans each lane's parts, and each task
 * then starts from the part before its own. ---- */

/* a op b, in dtype t: cumsum's + (integers wrap, as NumPy's), cumprod's * */
static const char *scan_op(Emitter *e, bool prod, npx_dtype t, const char *a, const char *b)
{
    if (dtype_is_int(t))
        return arena_printf(e->p->arena, "npx_%s_%s(%s, %s)", prod ? "mul" : "add", dtype_name(t), a, b);
    return arena_printf(e->p->arena, "%s %s %s", a, prod ? "*" : "+", b);
}

/* The block's running totals of the elements from..to of a lane, a tile
 * of NPX_THREADS at a time: elem the j-th, its total stored to store, from
 * carry on (the total before from). */
static void scan_tiles(Emitter *e, bool prod, npx_dtype t, const char *from, const char *to, const char *elem,
                       const char *store)
{
    const char *ct = dtype_ctype(t);
    emit_open(e, "for (int64_t tile = %s; tile < %s; tile += blockDim.x)", from, to);
    emit_line(e, "const int64_t j = tile + threadIdx.x;");
    emit_line(e, "%s acc = j < %s ? %s : %d;", ct, to, elem, prod);
    emit_line(e, "/* the running totals in each warp, then the warps' totals before each */");
    emit_open(e, "for (int up = 1; up < 32; up *= 2)");
    emit_line(e, "const %s before = __shfl_up_sync(0xffffffffu, acc, up);", ct);
    emit_line(e, "if (threadIdx.x %% 32 >= (unsigned)up)");
    emit_line(e, "    acc = %s;", scan_op(e, prod, t, "before", "acc"));
    emit_close(e, NULL);
    emit_line(e, "if (threadIdx.x %% 32 == 31)");
    emit_line(e, "    part[threadIdx.x / 32] = acc;");
    emit_line(e, "__syncthreads();");
    emit_line(e, "%s before = %d, tile_total = %d;", ct, prod, prod);
    emit_open(e, "for (unsigned warp = 0; warp < blockDim.x / 32; warp++)");
    emit_line(e, "if (warp < threadIdx.x / 32)");
    emit_line(e, "    before = %s;", scan_op(e, prod, t, "before", "part[warp]"));
    emit_line(e, "tile_total = %s;", scan_op(e, prod, t, "tile_total", "part[warp]"));
    emit_close(e, NULL);
    emit_line(e, "if (j < %s)", to);
    emit_line(e, "    %s = %s;", store, scan_op(e, prod, t, "carry", scan_op(e, prod, t, "before", "acc")));
    emit_line(e, "carry = %s;", scan_op(e, prod, t, "carry", "tile_total"));
    emit_line(e, "__syncthreads();");
    emit_close(e, NULL);
}

/* Cumsum r's lanes: the shape of all but its last axis, their number
 * (its sizes used by the code being written), and the index names of
 * element j of lane o (idx: the lane's axes', then "j"). */
static Shape scan_lanes(Emitter *e, Ref r, const char **lanes, const char ***idx)
{
    const Value *v = V(e->p, r);
    int n = v->shape.ndim;
    Shape lane = { n - 1, { 0 } };
    memcpy(lane.d, v->shape.d, sizeof(Dim) * (size_t)lane.ndim);
    *lanes = cx_dims(e, lane.d, lane.ndim);
    *idx = emit_index_vars(e, n);
    (*idx)[n - 1] = "j";
    return lane;
}

/* Each task's share of its lane, totalled into its part. */
static void totals_kernel(Emitter *e, Ref r, const char *name)
{
    const Value *v = V(e->p, r);
    bool prod = v->red == RED_prod;
    const char *lanes, **idx;
    cuda_begin_kernel(e, v->cname);
    e->indent = 1;
    Shape lane = scan_lanes(e, r, &lanes, &idx);
    const char *elem = cx_value(e, v->args[0], idx, v->dtype);
    ReducePlan rp = { .code = { v->dtype, prod ? "1" : "0", arena_printf(e->p->arena, "acc = %s;",
                                                                      scan_op(e, prod, v->dtype, "acc", "elem")) } };
    declare_accumulators(e, &rp);
    open_tasks(e, lanes, cx_dim(e, v->shape.d[lane.ndim]), false, lane.ndim > 0);
    decompose(e, "o", &lane, idx, elem);
    emit_line(e, "%s acc = %s;", dtype_ctype(v->dtype), rp.code.init);
    emit_open(e, "for (int64_t j = j_from + threadIdx.x; j < j_to; j += blockDim.x)");
    emit_line(e, "const %s elem = %s;", dtype_ctype(v->dtype), elem);
    emit_line(e, "%s", rp.code.step);
    emit_close(e, NULL);
    combine_block(e, r, &rp, true);
    emit_line(e, "if (threadIdx.x == 0)");
    emit_line(e, "    parts[task] = acc;");
    emit_line(e, "__syncthreads();");
    emit_close(e, NULL);
    cuda_end_kernel(e, name, ": each task's share of its lane, totalled",
                    arena_printf(e->p->arena, "%s * NPX_THREADS", times_splits(e, lanes)),
                    arena_printf(e->p->arena, "%s *parts, int64_t splits", dtype_ctype(v->dtype)), "parts, splits");
}

/* Each lane's parts, replaced by their running totals: a block a lane. */
static void offsets_kernel(Emitter *e, Ref r, const char *name)
{
    const Value *v = V(e->p, r);
    bool prod = v->red == RED_prod;
    const char *ct = dtype_ctype(v->dtype), *lanes, **idx;
    cuda_begin_kernel(e, v->cname);
    e->indent = 1;
    scan_lanes(e, r, &lanes, &idx);
    emit_line(e, "NPX_SHARED(%s, part, NPX_THREADS / 32);", ct);
    emit_open(e, "for (int64_t o = blockIdx.x; o < %s; o += gridDim.x)", lanes);
    emit_line(e, "%s carry = %d;", ct, prod);
    scan_tiles(e, prod, v->dtype, "0", "splits", "parts[o * splits + j]", "parts[o * splits + j]");
    emit_close(e, NULL);
    cuda_end_kernel(e, name, ": each lane's parts, as running totals",
                    arena_printf(e->p->arena, "%s * NPX_THREADS", lanes),
                    arena_printf(e->p->arena, "%s *parts, int64_t splits", ct), "parts, splits");
}

/* Each task's share of its lane scanned, from the total of the shares
 * before it. */
static void lanes_kernel(Emitter *e, Ref r, const char *name)
{
    const Value *v = V(e->p, r);
    bool prod = v->red == RED_prod;
    const char *ct = dtype_ctype(v->dtype), *lanes, **idx;
    cuda_begin_kernel(e, v->cname);
    e->indent = 1;
    Shape lane = scan_lanes(e, r, &lanes, &idx);
    const char *elem = cx_value(e, v->args[0], idx, v->dtype);
    const char *store = cx_load(e, r, cx_flat(e, &v->shape, idx));
    emit_line(e, "NPX_SHARED(%s, part, NPX_THREADS / 32);", ct);
    open_tasks(e, lanes, cx_dim(e, v->shape.d[lane.ndim]), false, lane.ndim > 0);
    decompose(e, "o", &lane, idx, arena_printf(e->p->arena, "%s %s", elem, store));
    emit_line(e, "%s carry = task %% splits ? parts[task - 1] : %d; /* the lane's total before the share */", ct, prod);
    scan_tiles(e, prod, v->dtype, "j_from", "j_to", elem, store);
    emit_close(e, NULL);
    cuda_end_kernel(e, name, "", arena_printf(e->p->arena, "%s * NPX_THREADS", times_splits(e, lanes)),
                    arena_printf(e->p->arena, "const %s *parts, int64_t splits", ct), "parts, splits");
}

bool cuda_cumsum(Emitter *e, Ref r)
{
    const Value *v = V(e->p, r);
    if (!ir_scan_by_blocks(e->p, v))
        return false;
    Arena *ar = e->p->arena;
    const char *ct = dtype_ctype(v->dtype), *lanes, **idx;
    Shape lane = scan_lanes(e, r, &lanes, &idx);
    const char *name = cuda_kernel_name(e, v->cname);
    emit_block(e);
    emit_line(e, "const int64_t splits = npx_dev_splits(%s, %s, NPX_THREADS); /* tasks for each lane */", lanes,
              cx_dim(e, v->shape.d[lane.ndim]));
    emit_line(e, "%s *parts = splits > 1 ? (%s *)npx_dev_alloc(npx_bytes(%s, sizeof(%s), \"parts\"), false) : NULL;",
              ct, ct, times_splits(e, lanes), ct);
    emit_open(e, "if (splits > 1)");
    totals_kernel(e, r, arena_printf(ar, "%s_totals", name));
    offsets_kernel(e, r, arena_printf(ar, "%s_offsets", name));
    emit_close(e, NULL);
    lanes_kernel(e, r, name);
    emit_line(e, "if (splits > 1)");
    emit_line(e, "    npx_dev_free(parts);");
    emit_close(e, NULL);
    return true;
}
