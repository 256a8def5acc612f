/* cuda_kernel.h: what the CUDA target's files share (target_cuda.c, and
 * cuda_fold.c for reductions and scans): a kernel's body is written to a buffer
 * between cuda_begin_kernel and cuda_end_kernel, which prints the kernel,
 * its parameters what the body read, and launches it. */
#ifndef NPX_CUDA_KERNEL_H
#define NPX_CUDA_KERNEL_H
#include "emit.h"

typedef struct ReducePlan ReducePlan;

/* The next kernel's body: e->out is its buffer, its uses reset; `what`, the
 * value it writes (its parameter is not const). */
void cuda_begin_kernel(Emitter *e, const char *what);
/* A new kernel's name, k_WHAT_N. */
const char *cuda_kernel_name(Emitter *e, const char *what);
/* Ends the body: the kernel `name`, under the comment of its source line
 * with note added, its parameters the values and sizes the body read, then
 * own_params (NULL: none), written to the kernels; back in the host's code,
 * its launch with blocks for `threads` threads' worth of work and own_args
 * after the values and sizes. */
void cuda_end_kernel(Emitter *e, const char *name, const char *note, const char *threads, const char *own_params,
                     const char *own_args);
/* What a flat index is divided by to split off an axis of size d: an axis
 * of size 0 runs nothing, so 1 then (no division by 0 in the code). */
const char *cuda_index_divisor(Emitter *e, Dim d);
/* cuda_fold.c: a reduction; a cumsum or cumprod, false when it runs down
 * columns (the shared loops: a thread a lane, side by side) */
void cuda_reduce(Emitter *e, Ref r, const ReducePlan *rp);
bool cuda_cumsum(Emitter *e, Ref r);
#endif
