/* random.c: the --random generator (docs/random.md). Element i of input k is
 * a pure function of (seed, k, i), so the C and the CUDA program, serial or
 * parallel, fill inputs with the same values. */
#include "npx_rt.h"

uint64_t npx_mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void npx_random_fill(npx_array *a, uint64_t seed, int input_index)
{
    uint64_t base = npx_mix64(seed ^ ((uint64_t)(input_index + 1) * 0xD1B54A32D192ED03ull));
    int64_t n = npx_array_size(a);
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = npx_mix64(base + (uint64_t)i);
        switch (a->dtype) {
        case NPX_BOOL: ((bool *)a->data)[i] = (bool)(r >> 63); break;
        case NPX_I32: ((int32_t *)a->data)[i] = (int32_t)(r % 1000); break;
        case NPX_I64: ((int64_t *)a->data)[i] = (int64_t)(r % 1000); break;
        case NPX_F32: ((float *)a->data)[i] = (float)(r >> 40) * 0x1p-24f; break;
        case NPX_F64: ((double *)a->data)[i] = (double)(r >> 11) * 0x1p-53; break;
        default: break;
        }
    }
}
