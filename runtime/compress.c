/* compress.c: x[..., mask, ...] on the host. x is outer blocks (C order)
 * of n rows of inner elements each; mask has n elements. In each block the
 * rows where mask is True, in order, go into a new array of outer blocks of
 * count rows. */
#include <string.h>
#include "npx_rt.h"

#define NPX_COMPRESS(s, T)                                                                                  \
    int64_t npx_compress_##s(const bool *mask, const T *x, int64_t outer, int64_t n, int64_t inner, T **out) \
    {                                                                                                       \
        int64_t count = 0;                                                                                  \
        for (int64_t i = 0; i < n; i++)                                                                     \
            count += mask[i];                                                                               \
        T *o = (T *)npx_alloc(npx_bytes(outer * count * inner, sizeof(T), "a masked array")); /* <= x's */  \
        for (int64_t b = 0; b < outer; b++) {                                                               \
            const T *xb = x + b * n * inner;                                                                \
            T *ob = o + b * count * inner;                                                                  \
            if (inner == 1) {                /* branch-free: write every element, keep the selected */      \
                for (int64_t i = 0, k = 0; i < n && k < count; i++) {                                       \
                    ob[k] = xb[i];                                                                          \
                    k += mask[i];                                                                           \
                }                                                                                           \
            } else {                                                                                        \
                for (int64_t i = 0, k = 0; i < n; i++)                                                      \
                    if (mask[i])                                                                            \
                        memcpy(ob + inner * k++, xb + inner * i, sizeof(T) * (size_t)inner);                \
            }                                                                                               \
        }                                                                                                   \
        *out = o;                                                                                           \
        return count;                                                                                       \
    }

NPX_COMPRESS(bool, bool)
NPX_COMPRESS(i32, int32_t)
NPX_COMPRESS(i64, int64_t)
NPX_COMPRESS(f32, float)
NPX_COMPRESS(f64, double)
#undef NPX_COMPRESS
