/* store.c: copying a loop's computed strip into its array. An ordinary store
 * first reads the cache line it writes (a third of an elementwise loop's
 * memory traffic) and leaves it in the cache, evicting what later loops read.
 * An array of NPX_STREAM_BYTES or more does not fit the cache anyway: its
 * strips go straight to memory with streaming (non-temporal) stores. Those
 * are weakly ordered, so each thread ends its share of the loop with
 * npx_store_fence. Smaller arrays are copied as usual, to stay in the cache
 * for the next loop. */
#include <string.h>
#include "npx_rt.h"
#if defined(__SSE2__) && !defined(__CUDACC__)
#include <immintrin.h>
#ifdef __AVX__
typedef __m256i npx_store_vec;
#define NPX_STREAM_VEC(d, s) _mm256_stream_si256((npx_store_vec *)(d), _mm256_loadu_si256((const npx_store_vec *)(s)))
#else
typedef __m128i npx_store_vec;
#define NPX_STREAM_VEC(d, s) _mm_stream_si128((npx_store_vec *)(d), _mm_loadu_si128((const npx_store_vec *)(s)))
#endif
#endif

void npx_store(void *dst, const void *strip, size_t bytes, size_t array_bytes)
{
    char *d = (char *)dst;
    const char *s = (const char *)strip;
#ifdef NPX_STREAM_VEC
    if (array_bytes >= NPX_STREAM_BYTES) {
        size_t head = (size_t)(-(uintptr_t)d % sizeof(npx_store_vec));
        if (head > bytes)
            head = bytes;
        memcpy(d, s, head);
        for (d += head, s += head, bytes -= head; bytes >= sizeof(npx_store_vec);
             d += sizeof(npx_store_vec), s += sizeof(npx_store_vec), bytes -= sizeof(npx_store_vec))
            NPX_STREAM_VEC(d, s);
    }
#else
    (void)array_bytes;
#endif
    memcpy(d, s, bytes);
}

void npx_store_fence(void)
{
#ifdef NPX_STREAM_VEC
    _mm_sfence();
#endif
}
