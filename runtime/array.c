/* array.c: dtypes (sizes, names) and array shapes: element counts, byte sizes
 * checked for overflow, and shapes printed the way NumPy prints them. */
#include <stdio.h>
#include <string.h>
#include "npx_rt.h"

size_t npx_dtype_size(npx_dtype t)
{
    switch (t) {
#define X(e, name, ctype, descr) case NPX_##e: return sizeof(ctype);
        NPX_DTYPES(X)
#undef X
    default: return 0;
    }
}

const char *npx_dtype_name(npx_dtype t)
{
    switch (t) {
#define X(e, name, ctype, descr) case NPX_##e: return name;
        NPX_DTYPES(X)
#undef X
    default: return "?";
    }
}

const char *npx_dtype_numpy_name(npx_dtype t)
{
    switch (t) {
    case NPX_BOOL: return "bool";
    case NPX_I32: return "int32";
    case NPX_I64: return "int64";
    case NPX_F32: return "float32";
    case NPX_F64: return "float64";
    default: return "?";
    }
}

int64_t npx_array_size(const npx_array *a)
{
    int64_t n = 1;
    for (int k = 0; k < a->ndim; k++)
        n *= a->shape[k];
    return n;
}

int64_t npx_shape_bytes(int ndim, const int64_t *shape, size_t itemsize)
{
    uint64_t limit = (uint64_t)INT64_MAX;
    if ((uint64_t)SIZE_MAX < limit)
        limit = (uint64_t)SIZE_MAX;
    uint64_t n = itemsize;
    bool empty = false;
    for (int k = 0; k < ndim; k++) {
        if (shape[k] < 0)
            return -1;
        if (shape[k] == 0)
            empty = true;
    }
    if (empty)
        return 0;
    for (int k = 0; k < ndim; k++) {
        if (n > limit / (uint64_t)shape[k])
            return -1;
        n *= (uint64_t)shape[k];
    }
    return (int64_t)n;
}

char *npx_shape_str(char *buf, size_t len, int ndim, const int64_t *shape)
{
    size_t used = (size_t)snprintf(buf, len, "(");
    for (int k = 0; k < ndim && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", k ? ", " : "",
                                 (long long)shape[k]);
    if (used < len)
        snprintf(buf + used, len - used, ndim == 1 ? ",)" : ")");
    return buf;
}

/* Element i (C order) as a double, whatever the dtype. */
double npx_array_get(const npx_array *a, int64_t i)
{
    switch (a->dtype) {
    case NPX_BOOL: return ((const bool *)a->data)[i];
    case NPX_I32: return ((const int32_t *)a->data)[i];
    case NPX_I64: return (double)((const int64_t *)a->data)[i];
    case NPX_F32: return ((const float *)a->data)[i];
    case NPX_F64: return ((const double *)a->data)[i];
    default: return 0;
    }
}
