/* output.c: how a computation hands its outputs to the runtime. */
#include <string.h>
#include "npx_rt.h"

void npx_set_output(npx_state *st, int j, npx_dtype dtype, int ndim, const int64_t *shape, void *data, bool owned)
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
