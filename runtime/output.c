/* output.c: how a computation hands its outputs to the runtime. */
#include <string.h>
#include "npx_rt.h"

/* Never inlined: GCC 12.2 with AVX-512 (Debian 12's compiler, -O2 and up)
 * miscompiled the copy of a shape inlined into npx_run, where it knew an
 * axis to be 0 (a slice like x[..., 3:1] on a path after a product that
 * returns early for it): it stored { 1, 1, 1, 1 } for { 1, 1, 0, 0 }, one
 * broadcast for a vector of two values, and the program wrote a (1, 1, 1, 1)
 * array for NumPy's (1, 1, 0, 0) (test/programs/empty_slice_product.npx). */
__attribute__((noinline)) void npx_set_output(npx_state *st, int j, npx_dtype dtype, int ndim,
                                              const int64_t *shape, void *data, bool owned)
{
    npx_array *o = &st->out[j];
    o->dtype = dtype;
    o->ndim = ndim;
    for (int k = 0; k < ndim; k++)
        o->shape[k] = shape[k];
    if (owned) {
        o->data = data;
        return;
    }
    size_t n = npx_bytes(npx_array_size(o), npx_dtype_size(dtype), st->prog->outputs[j]);
    o->data = npx_alloc(n);
    if (n)
        memcpy(o->data, data, n);
}
