/* sort.c: np.sort and np.argsort along one axis on the host. An array of
 * shape (outer, n, inner) has outer * inner lanes of n elements, inner
 * apart; each is gathered, sorted by a stable merge sort (NaN last, equal
 * elements in their order: NumPy's kind='stable', and a valid order for its
 * other kinds, which leave the order of equal elements unspecified) and
 * written back, the lanes shared among threads. */
#include "npx_rt.h"
#include "npx_math.h"

#ifdef _OPENMP
#define NPX_SORT_PARALLEL _Pragma("omp parallel")
#define NPX_SORT_FOR _Pragma("omp for schedule(dynamic)")
#else
#define NPX_SORT_PARALLEL
#define NPX_SORT_FOR
#endif

#define NPX_SORT_RUN 16          /* runs this long are sorted by insertion first */

#define NPX_SORT(s, T)                                                                                \
    /* Sorts key[lo, hi) (pos along, when not NULL) by insertion. */                                  \
    static void npx_insertion_sort_##s(T *key, int64_t *pos, int64_t lo, int64_t hi)                 \
    {                                                                                                 \
        for (int64_t q = lo + 1; q < hi; q++) {                                                       \
            T k = key[q];                                                                             \
            int64_t p = pos ? pos[q] : 0, j = q;                                                      \
            for (; j > lo && npx_sorts_before_##s(k, key[j - 1]); j--) {                              \
                key[j] = key[j - 1];                                                                  \
                if (pos)                                                                              \
                    pos[j] = pos[j - 1];                                                              \
            }                                                                                         \
            key[j] = k;                                                                               \
            if (pos)                                                                                  \
                pos[j] = p;                                                                           \
        }                                                                                             \
    }                                                                                                 \
    /* Merges the sorted runs a[lo, mid) and a[mid, hi) into b, the left                              \
     * run's element first of two equal ones. */                                                     \
    static void npx_merge_##s(const T *a, const int64_t *pa, T *b, int64_t *pb, int64_t lo,           \
                              int64_t mid, int64_t hi)                                                \
    {                                                                                                 \
        int64_t i = lo, j = mid;                                                                      \
        for (int64_t k = lo; k < hi; k++) {                                                           \
            int64_t from = i == mid || (j < hi && npx_sorts_before_##s(a[j], a[i])) ? j++ : i++;      \
            b[k] = a[from];                                                                           \
            if (pa)                                                                                   \
                pb[k] = pa[from];                                                                     \
        }                                                                                             \
    }                                                                                                 \
    /* Sorts key[0, n) (pos along); spare and spare_pos hold n more. Returns                          \
     * the half that holds the result, key or spare (and *pos_out its pos). */                        \
    static T *npx_sort_lane_##s(T *key, int64_t *pos, T *spare, int64_t *spare_pos, int64_t n,       \
                                int64_t **pos_out)                                                    \
    {                                                                                                 \
        for (int64_t lo = 0; lo < n; lo += NPX_SORT_RUN)                                              \
            npx_insertion_sort_##s(key, pos, lo, lo + NPX_SORT_RUN < n ? lo + NPX_SORT_RUN : n);      \
        for (int64_t w = NPX_SORT_RUN; w < n; w *= 2) {                                               \
            for (int64_t lo = 0; lo < n; lo += 2 * w) {                                               \
                int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;          \
                npx_merge_##s(key, pos, spare, spare_pos, lo, mid, hi);                               \
            }                                                                                         \
            T *t = key;                                                                               \
            key = spare;                                                                              \
            spare = t;                                                                                \
            int64_t *tp = pos;                                                                        \
            pos = spare_pos;                                                                          \
            spare_pos = tp;                                                                           \
        }                                                                                             \
        *pos_out = pos;                                                                               \
        return key;                                                                                   \
    }                                                                                                 \
    /* Every lane of x sorted into vals (np.sort) or its positions into pos                           \
     * (np.argsort); the other is NULL. */                                                            \
    static void npx_sort_lanes_##s(const T *x, T *vals, int64_t *pos, int64_t outer, int64_t n,      \
                                   int64_t inner)                                                     \
    {                                                                                                 \
        int64_t lanes = outer * inner;                                                                \
        if (n == 0 || lanes == 0)                                                                     \
            return;                                                                                   \
        NPX_SORT_PARALLEL                                                                             \
        {                                                                                             \
            T *key = (T *)npx_alloc(npx_bytes(2 * n, sizeof(T), "a sort's lane"));                    \
            int64_t *at = pos ? (int64_t *)npx_alloc(npx_bytes(2 * n, sizeof(int64_t), "a sort's lane")) \
                              : NULL;                                                                 \
            NPX_SORT_FOR                                                                              \
            for (int64_t l = 0; l < lanes; l++) {                                                     \
                int64_t base = l / inner * n * inner + l % inner;                                     \
                for (int64_t q = 0; q < n; q++) {                                                     \
                    key[q] = x[base + q * inner];                                                     \
                    if (at)                                                                           \
                        at[q] = q;                                                                    \
                }                                                                                     \
                int64_t *sorted_at;                                                                   \
                const T *sorted = npx_sort_lane_##s(key, at, key + n, at ? at + n : NULL, n, &sorted_at); \
                for (int64_t q = 0; q < n; q++) {                                                     \
                    if (vals)                                                                         \
                        vals[base + q * inner] = sorted[q];                                           \
                    else                                                                              \
                        pos[base + q * inner] = sorted_at[q];                                         \
                }                                                                                     \
            }                                                                                         \
            npx_free(key);                                                                            \
            npx_free(at);                                                                             \
        }                                                                                             \
    }                                                                                                 \
    void npx_sort_##s(const T *x, T *out, int64_t outer, int64_t n, int64_t inner)                   \
    {                                                                                                 \
        npx_sort_lanes_##s(x, out, NULL, outer, n, inner);                                            \
    }                                                                                                 \
    void npx_argsort_##s(const T *x, int64_t *out, int64_t outer, int64_t n, int64_t inner)          \
    {                                                                                                 \
        npx_sort_lanes_##s(x, NULL, out, outer, n, inner);                                            \
    }

NPX_SORT(bool, bool)
NPX_SORT(i32, int32_t)
NPX_SORT(i64, int64_t)
NPX_SORT(f32, float)
NPX_SORT(f64, double)
#undef NPX_SORT
