/* sort.c: np.sort and np.argsort along one axis on the host. An array of
 * shape (outer, n, inner) has outer * inner lanes of n elements, inner
 * apart; the lanes are shared among threads, and each is sorted by an LSD
 * radix sort: its elements become unsigned keys that order as NumPy orders
 * the values (ascending, -0.0 as 0.0, every NaN last), sorted a byte at a
 * time (the bytes all keys share skipped: an OR and an AND of the keys
 * find them), with their positions where argsort needs them or a key does
 * not give its element back (NaN, -0.0), which is stable: equal elements
 * keep their order, NumPy's kind='stable' and a valid order for its other
 * kinds, which leave it unspecified. Short lanes are sorted by insertion
 * instead. (A merge sort of 4096 rows of 1024 float32 took 3.5
 * times as long as the radix sort here.) Where the compiler targets AVX-512
 * or AVX2, np.sort of a lane of 32- or 64-bit values up to 2048 long whose
 * keys give the values back (no NaN, no -0.0) sorts the keys alone with a
 * bitonic network of vector min and max, 3.7 times as fast with AVX-512,
 * 1.7 (float32) to 2.4 (float64) times with AVX2; equal keys are equal
 * values, so their order does not show. np.argsort of 32-bit lanes that
 * long (and np.sort of those with NaN or -0.0) sorts each key with its
 * position below it as one 64-bit key by the same network: stable. And
 * np.sort of a longer lane of integers that span few values (labels) counts
 * each value and writes it as many times (NPX_SORT_BY_COUNTS). */
#include <string.h>
#include "npx_rt.h"
#include "npx_math.h"

/* The lanes go to the threads in chunks of about NPX_SORT_CHUNK elements:
 * taken one at a time, rows of 1024 float32 went to the threads in turn, and
 * sorting 4096 of them took 30% longer. */
#define NPX_SORT_CHUNK 16384
#define NPX_SORT_SPLIT_MIN 65536   /* one lane at least this long: the threads share its work */
#ifdef _OPENMP
#include <omp.h>
#define NPX_SORT_PRAGMA(text) _Pragma(#text)
#define NPX_SORT_PARALLEL _Pragma("omp parallel")
#define NPX_SORT_FOR(lanes_a_chunk) NPX_SORT_PRAGMA(omp for schedule(dynamic, lanes_a_chunk))
#define NPX_SORT_THREADS omp_get_max_threads()
#define NPX_SORT_THREAD omp_get_thread_num()
#define NPX_SORT_TEAM omp_get_num_threads()
/* One lane that the threads sort together, rather than lanes shared among them. */
#define NPX_SORT_TOGETHER(lanes, n) \
    ((lanes) == 1 && (n) >= NPX_SORT_SPLIT_MIN && NPX_SORT_THREADS > 1 && !omp_in_parallel())
#else
#define NPX_SORT_PRAGMA(text)
#define NPX_SORT_PARALLEL
#define NPX_SORT_FOR(lanes_a_chunk)
#define NPX_SORT_THREADS 1
#define NPX_SORT_THREAD 0
#define NPX_SORT_TEAM 1
#define NPX_SORT_TOGETHER(lanes, n) false
#endif

/* The keys: unsigned integers in NumPy's order of the values, computed on
 * the values' bits alone (so that a loop of them vectorizes). */
static inline uint8_t npx_sort_key_bool(bool v) { return (uint8_t)v; }
static inline uint32_t npx_sort_key_i32(int32_t v) { return (uint32_t)v ^ 0x80000000u; }
static inline uint64_t npx_sort_key_i64(int64_t v) { return (uint64_t)v ^ 0x8000000000000000u; }
static inline uint32_t npx_sort_key_f32(float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    u = u == 0x80000000u ? 0 : u;            /* -0.0 is 0.0 */
    return (u & 0x7FFFFFFFu) > 0x7F800000u ? UINT32_MAX : u >> 31 ? ~u : u | 0x80000000u;
}
static inline uint64_t npx_sort_key_f64(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    u = u == 0x8000000000000000u ? 0 : u;
    return (u & 0x7FFFFFFFFFFFFFFFu) > 0x7FF0000000000000u ? UINT64_MAX
           : u >> 63                                       ? ~u
                                                           : u | 0x8000000000000000u;
}

/* The bits of the value whose key is k (the keys' inverse, but for -0.0 and
 * NaN, whose keys are 0.0's and one NaN's), and the value. */
static inline uint8_t npx_sort_bits_bool(uint8_t k) { return k; }
static inline uint32_t npx_sort_bits_i32(uint32_t k) { return k ^ 0x80000000u; }
static inline uint64_t npx_sort_bits_i64(uint64_t k) { return k ^ 0x8000000000000000u; }
static inline uint32_t npx_sort_bits_f32(uint32_t k) { return k >> 31 ? k & 0x7FFFFFFFu : ~k; }
static inline uint64_t npx_sort_bits_f64(uint64_t k) { return k >> 63 ? k & 0x7FFFFFFFFFFFFFFFu : ~k; }
#define NPX_SORT_VALUE(s, T, K)                                                                       \
    static inline T npx_sort_value_##s(K k)                                                           \
    {                                                                                                 \
        K u = npx_sort_bits_##s(k);                                                                   \
        T v;                                                                                          \
        memcpy(&v, &u, sizeof v);                                                                     \
        return v;                                                                                     \
    }
/* The element types and their keys: X(suffix, T, K) */
#define NPX_SORT_TYPES(X)                                                                             \
    X(bool, bool, uint8_t) X(i32, int32_t, uint32_t) X(i64, int64_t, uint64_t) X(f32, float, uint32_t) \
    X(f64, double, uint64_t)
NPX_SORT_TYPES(NPX_SORT_VALUE)
#undef NPX_SORT_VALUE

#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#define NPX_SORT_NETWORK 2048     /* np.sort of lanes of 32- and 64-bit keys up to this long: a network */

/* What the network does with a vector of keys (npx_sv) and a choice of its
 * lanes (npx_sm32, npx_sm64), on AVX-512 (masks are bits) or on AVX2 (masks
 * are lanes of all ones; 64-bit minima by a comparison, lanes moved by
 * their 32-bit halves). npx_sv_partner<bits>(j): lane i's partner i ^ j,
 * in the form npx_sv_perm takes; npx_sm_upper<bits>(j): the lanes with bit
 * j; npx_sv_blend(bits, m, a, b): b in the lanes of m, a elsewhere. */
#ifdef __AVX512F__
typedef __m512i npx_sv;
typedef __mmask16 npx_sm32;
typedef __mmask8 npx_sm64;
#define npx_sv_load(p) _mm512_loadu_si512(p)
#define npx_sv_store(p, x) _mm512_storeu_si512(p, x)
#define npx_sv_min(bits, x, y) _mm512_min_epi##bits(x, y)
#define npx_sv_max(bits, x, y) _mm512_max_epi##bits(x, y)
#define npx_sv_perm(bits, x, partner) _mm512_permutexvar_epi##bits(partner, x)
#define npx_sv_blend(bits, m, a, b) _mm512_mask_blend_epi##bits(m, a, b)
#define npx_sm_all(bits) ((npx_sm##bits)~0u)
#define npx_sm_none(bits) ((npx_sm##bits)0)
#define NPX_SV_LANES(bits, L)                                                                         \
    static inline npx_sv npx_sv_partner##bits(int j)                                                  \
    {                                                                                                 \
        int##bits##_t at[L];                                                                          \
        for (int i = 0; i < L; i++)                                                                   \
            at[i] = i ^ j;                                                                            \
        return npx_sv_load(at);                                                                       \
    }                                                                                                 \
    static inline npx_sm##bits npx_sm_upper##bits(int j)                                              \
    {                                                                                                 \
        npx_sm##bits m = 0;                                                                           \
        for (int i = 0; i < L; i++)                                                                   \
            m |= (npx_sm##bits)(((i & j) != 0) << i);                                                 \
        return m;                                                                                     \
    }
NPX_SV_LANES(32, 16)
NPX_SV_LANES(64, 8)
#define NPX_SV_L32 16
#define NPX_SV_L64 8
#else
typedef __m256i npx_sv;
typedef __m256i npx_sm32;
typedef __m256i npx_sm64;
#define npx_sv_load(p) _mm256_loadu_si256((const __m256i *)(p))
#define npx_sv_store(p, x) _mm256_storeu_si256((__m256i *)(p), x)
#define npx_sv_min(bits, x, y) npx_sv_min##bits(x, y)
#define npx_sv_max(bits, x, y) npx_sv_max##bits(x, y)
#define npx_sv_perm(bits, x, partner) _mm256_permutevar8x32_epi32(x, partner)
#define npx_sv_blend(bits, m, a, b) _mm256_blendv_epi8(a, b, m)
#define npx_sm_all(bits) _mm256_set1_epi32(-1)
#define npx_sm_none(bits) _mm256_setzero_si256()
static inline npx_sv npx_sv_min32(npx_sv x, npx_sv y) { return _mm256_min_epi32(x, y); }
static inline npx_sv npx_sv_max32(npx_sv x, npx_sv y) { return _mm256_max_epi32(x, y); }
static inline npx_sv npx_sv_min64(npx_sv x, npx_sv y) { return _mm256_blendv_epi8(x, y, _mm256_cmpgt_epi64(x, y)); }
static inline npx_sv npx_sv_max64(npx_sv x, npx_sv y) { return _mm256_blendv_epi8(y, x, _mm256_cmpgt_epi64(x, y)); }
#define NPX_SV_LANES(bits, L)                                                                         \
    static inline npx_sv npx_sv_partner##bits(int j)                                                  \
    {                                                                                                 \
        int32_t at[8];                       /* the 32-bit halves of lane i ^ j */                    \
        for (int i = 0; i < 8; i++)                                                                   \
            at[i] = i ^ (j * (bits / 32));                                                            \
        return npx_sv_load(at);                                                                       \
    }                                                                                                 \
    static inline npx_sm##bits npx_sm_upper##bits(int j)                                              \
    {                                                                                                 \
        int##bits##_t m[L];                                                                           \
        for (int i = 0; i < L; i++)                                                                   \
            m[i] = (i & j) ? -1 : 0;                                                                  \
        return npx_sv_load(m);                                                                        \
    }
NPX_SV_LANES(32, 8)
NPX_SV_LANES(64, 4)
#define NPX_SV_L32 8
#define NPX_SV_L64 4
#endif
#undef NPX_SV_LANES

/* NPX_SORT_NET(bits): npx_sort_network_<bits>(k, n) sorts k[0..n), signed
 * keys, by a bitonic network on vectors of L of them; k has room for n
 * rounded up to a power of two (the rest is padded with the largest key).
 * Keys j apart meet in one step: whole vectors (min and max) where j >= L,
 * two steps a pass over the keys, else within a vector (a permutation, mask
 * M), where each vector takes all the steps of a run size in its registers,
 * and those of every run size up to L in one pass. np.sort of 4096 lanes
 * of 1024 float32: 6.2 ms on one thread with AVX-512, against 25 ms by the
 * radix sort. */
#define NPX_SORT_NET(bits)                                                                            \
    enum { NPX_SORT_L##bits = NPX_SV_L##bits };                                                       \
    /* Lane i of x and lane i ^ j (partner) meet: the lanes of keep_max keep the larger. */           \
    static inline npx_sv npx_sort_step_##bits(npx_sv x, npx_sv partner, npx_sm##bits keep_max)        \
    {                                                                                                 \
        npx_sv y = npx_sv_perm(bits, x, partner);                                                     \
        return npx_sv_blend(bits, keep_max, npx_sv_min(bits, x, y), npx_sv_max(bits, x, y));          \
    }                                                                                                 \
    /* Whole vectors x and y meet: x keeps the smaller keys, or the larger in a run going down. */  \
    static inline void npx_sort_pair_##bits(npx_sv *x, npx_sv *y, bool run_down)                      \
    {                                                                                                 \
        npx_sv lo = npx_sv_min(bits, *x, *y), hi = npx_sv_max(bits, *x, *y);                          \
        *x = run_down ? hi : lo;                                                                      \
        *y = run_down ? lo : hi;                                                                      \
    }                                                                                                 \
    /* The steps within each vector of every run size from first to last: lane i and lane i ^ j   \
       meet for each j below L (partner[j]); a lane keeps the larger where exactly one of "it has   \
       bit j" (upper[j]) and "its run goes down" holds. One pass over the keys. */                   \
    static inline void npx_sort_within_##bits(int##bits##_t *k, int64_t len, int64_t first, int64_t last, \
                                              const npx_sv *partner, const npx_sm##bits *upper)       \
    {                                                                                                 \
        const int64_t L = NPX_SORT_L##bits;                                                           \
        for (int64_t i = 0; i < len; i += L) {                                                        \
            npx_sv x = npx_sv_load(k + i);                                                            \
            for (int64_t size = first; size <= last; size *= 2) {                                    \
                npx_sm##bits run_down = size < L ? upper[size] : (i & size) ? npx_sm_all(bits) : npx_sm_none(bits); \
                for (int64_t j = (size < L ? size : L) / 2; j > 0; j /= 2)                            \
                    x = npx_sort_step_##bits(x, partner[j], upper[j] ^ run_down);                     \
            }                                                                                         \
            npx_sv_store(k + i, x);                                                                   \
        }                                                                                             \
    }                                                                                                 \
    static void npx_sort_network_##bits(int##bits##_t *k, int64_t n)                                  \
    {                                                                                                 \
        const int64_t L = NPX_SORT_L##bits;                                                           \
        int64_t len = L;                                                                              \
        while (len < n)                                                                               \
            len *= 2;                                                                                 \
        for (int64_t i = n; i < len; i++)                                                             \
            k[i] = INT##bits##_MAX;                                                                   \
        /* by j, a power of two below L: each lane's partner, and the lanes with bit j:               \
           the upper of each pair, and those whose run of size j goes down */                        \
        npx_sv partner[NPX_SORT_L##bits];                                                             \
        npx_sm##bits upper[NPX_SORT_L##bits];                                                         \
        for (int j = 1; j < L; j *= 2) {                                                              \
            partner[j] = npx_sv_partner##bits(j);                                                     \
            upper[j] = npx_sm_upper##bits(j);                                                         \
        }                                                                                             \
        npx_sort_within_##bits(k, len, 2, L, partner, upper);   /* runs up to L long */              \
        for (int64_t size = 2 * L; size <= len; size *= 2) {   /* longer runs */                     \
            int64_t j = size / 2;                                                                     \
            for (; j >= 2 * L; j /= 4)         /* two steps a pass: j, then j / 2 apart */            \
                for (int64_t a = 0; a < len; a += 2 * j)                                              \
                    for (int64_t i = a; i < a + j / 2; i += L) {                                      \
                        bool run_down = (i & size) != 0;                                              \
                        npx_sv w = npx_sv_load(k + i), x = npx_sv_load(k + i + j / 2);                \
                        npx_sv y = npx_sv_load(k + i + j), z = npx_sv_load(k + i + j + j / 2);        \
                        npx_sort_pair_##bits(&w, &y, run_down);                                       \
                        npx_sort_pair_##bits(&x, &z, run_down);                                       \
                        npx_sort_pair_##bits(&w, &x, run_down);                                       \
                        npx_sort_pair_##bits(&y, &z, run_down);                                       \
                        npx_sv_store(k + i, w);                                                       \
                        npx_sv_store(k + i + j / 2, x);                                               \
                        npx_sv_store(k + i + j, y);                                                   \
                        npx_sv_store(k + i + j + j / 2, z);                                           \
                    }                                                                                 \
            for (int64_t a = 0; j == L && a < len; a += 2 * L) {   /* the last step of whole vectors */ \
                npx_sv x = npx_sv_load(k + a), y = npx_sv_load(k + a + L);                            \
                npx_sort_pair_##bits(&x, &y, (a & size) != 0);                                        \
                npx_sv_store(k + a, x);                                                               \
                npx_sv_store(k + a + L, y);                                                           \
            }                                                                                         \
            npx_sort_within_##bits(k, len, size, size, partner, upper);                               \
        }                                                                                             \
    }
NPX_SORT_NET(32)
NPX_SORT_NET(64)
#undef NPX_SORT_NET
#else
#define NPX_SORT_NETWORK 0        /* no lane fits: the radix sort does all */
static void npx_sort_network_32(int32_t *k, int64_t n) { (void)k, (void)n; }
static void npx_sort_network_64(int64_t *k, int64_t n) { (void)k, (void)n; }
#endif

#define NPX_SORT_SHORT 48         /* lanes up to this long are sorted by insertion */

/* NPX_SORT_BY_NETWORK(s, T, K, bits): np.sort of a lane of T between
 * NPX_SORT_SHORT and NPX_SORT_NETWORK long, each element its key's value
 * (no NaN, no -0.0): the keys in k (scratch) sorted by the network, their
 * values into vals. False (nothing done) for other lanes, and for all
 * without AVX-512. (bool lanes: always the radix sort's one pass.) */
#define NPX_SORT_BY_NETWORK(s, T, K, bits)                                                            \
    static bool npx_sort_by_network_##s(const T *x, T *vals, int64_t n, int64_t stride, K *k)         \
    {                                                                                                 \
        const K top = (K)1 << (bits - 1);    /* unsigned keys to signed ones */                       \
        if (n <= NPX_SORT_SHORT || n > NPX_SORT_NETWORK)                                              \
            return false;                                                                             \
        K differs = 0;                       /* bits where a key's value is not the element's */      \
        for (int64_t q = 0; q < n; q++) {   /* no early exit: it vectorizes */                       \
            T v = x[q * stride];                                                                      \
            K v_bits, key = npx_sort_key_##s(v);                                                      \
            memcpy(&v_bits, &v, sizeof v);                                                            \
            differs |= v_bits ^ npx_sort_bits_##s(key);                                               \
            k[q] = key ^ top;                                                                         \
        }                                                                                             \
        if (differs)                                                                                  \
            return false;                                                                             \
        npx_sort_network_##bits((int##bits##_t *)k, n);                                               \
        for (int64_t q = 0; q < n; q++)                                                               \
            vals[q * stride] = npx_sort_value_##s(k[q] ^ top);                                        \
        return true;                                                                                  \
    }
NPX_SORT_BY_NETWORK(i32, int32_t, uint32_t, 32)
NPX_SORT_BY_NETWORK(f32, float, uint32_t, 32)
NPX_SORT_BY_NETWORK(i64, int64_t, uint64_t, 64)
NPX_SORT_BY_NETWORK(f64, double, uint64_t, 64)
#undef NPX_SORT_BY_NETWORK
static bool npx_sort_by_network_bool(const bool *x, bool *vals, int64_t n, int64_t stride, uint8_t *k)
{
    (void)x, (void)vals, (void)n, (void)stride, (void)k;
    return false;
}

/* NPX_POSITIONS_BY_NETWORK(s, T): the positions of a lane of 32-bit T
 * between NPX_SORT_SHORT and NPX_SORT_NETWORK long in sorted order, into
 * at (room for the lane rounded up to a power of two): each key and its
 * position as one 64-bit key, sorted by the network, so that equal keys
 * keep their order (stable, NaN and -0.0 as the radix sort has them).
 * False (nothing done) for other lanes. np.argsort, and np.sort where a
 * key does not give its value back. */
#define NPX_POSITIONS_BY_NETWORK(s, T)                                                                \
    static bool npx_positions_by_network_##s(const T *x, int64_t n, int64_t stride, int64_t *at)      \
    {                                                                                                 \
        const uint64_t top = (uint64_t)1 << 63;                                                       \
        uint64_t *k = (uint64_t *)at;                                                                 \
        if (n <= NPX_SORT_SHORT || n > NPX_SORT_NETWORK)                                              \
            return false;                                                                             \
        for (int64_t q = 0; q < n; q++)                                                               \
            k[q] = ((uint64_t)npx_sort_key_##s(x[q * stride]) << 32 | (uint64_t)q) ^ top;             \
        npx_sort_network_64(at, n);                                                                   \
        for (int64_t q = 0; q < n; q++)                                                               \
            at[q] = (int64_t)(k[q] & 0xFFFFFFFFu);                                                    \
        return true;                                                                                  \
    }
NPX_POSITIONS_BY_NETWORK(i32, int32_t)
NPX_POSITIONS_BY_NETWORK(f32, float)
#undef NPX_POSITIONS_BY_NETWORK
#define NPX_NO_NETWORK(x, n, stride, at) false      /* 8- and 64-bit keys: no room for the position */

/* NPX_SORT_MOVE(s, T, K): one radix pass's move of keys lo .. hi - 1 (with
 * their positions, where at) to where start puts each (the count of keys
 * before its byte, advanced as it fills), then the buffers swapped: the
 * keys are in *key again. */
#define NPX_SORT_MOVE(s, T, K)                                                                         \
    static void npx_sort_move_##s(K **key, K **key2, int64_t **at, int64_t **at2, int64_t lo, int64_t hi, \
                                  unsigned shift, int64_t *start)                                     \
    {                                                                                                 \
        const K *from = *key;                                                                         \
        K *to = *key2;                                                                                \
        if (*at)                                                                                      \
            for (int64_t q = lo; q < hi; q++) {                                                       \
                int64_t i = start[from[q] >> shift & 255]++;                                          \
                to[i] = from[q];                                                                      \
                (*at2)[i] = (*at)[q];                                                                 \
            }                                                                                         \
        else                                                                                          \
            for (int64_t q = lo; q < hi; q++)                                                         \
                to[start[from[q] >> shift & 255]++] = from[q];                                        \
    }                                                                                                 \
    static void npx_sort_swap_##s(K **key, K **key2, int64_t **at, int64_t **at2)                     \
    {                                                                                                 \
        K *k = *key;                                                                                  \
        *key = *key2;                                                                                 \
        *key2 = k;                                                                                    \
        int64_t *a = *at;                                                                             \
        *at = *at2;                                                                                   \
        *at2 = a;                                                                                     \
    }
NPX_SORT_TYPES(NPX_SORT_MOVE)
#undef NPX_SORT_MOVE

/* NPX_SORT_KEYS(s, T, K): the keys of x[lo], ... x[hi - 1] (stride apart)
 * into key; ORed into *differs, the bits where a key's value is not the
 * element's (NaN, -0.0), and *some, the bits set in some key; ANDed into
 * *all, those set in all. No early exit: it vectorizes. */
#define NPX_SORT_KEYS(s, T, K)                                                                        \
    static void npx_sort_keys_##s(const T *x, int64_t stride, int64_t lo, int64_t hi, K *key, K *differs, \
                                  K *some, K *all)                                                    \
    {                                                                                                 \
        K d = 0, o = 0, a = (K)~(K)0;                                                                 \
        for (int64_t q = lo; q < hi; q++) {                                                           \
            T v = x[q * stride];                                                                      \
            K v_bits, k = npx_sort_key_##s(v);                                                        \
            memcpy(&v_bits, &v, sizeof v);                                                            \
            d |= (K)(v_bits ^ npx_sort_bits_##s(k));                                                  \
            o |= k;                                                                                   \
            a &= k;                                                                                   \
            key[q] = k;                                                                               \
        }                                                                                             \
        *differs |= d;                                                                                \
        *some |= o;                                                                                   \
        *all &= a;                                                                                    \
    }
NPX_SORT_TYPES(NPX_SORT_KEYS)
#undef NPX_SORT_KEYS

#ifdef _OPENMP
/* NPX_SORT_SPLIT(s, T, K): one lane x of n (contiguous) sorted by the
 * threads together, as npx_sort_lane does it alone: each thread takes a
 * slice of the keys, counts its slice's bytes, and moves them to where the
 * counts of all slices before it (in the byte's order, then the threads')
 * put them, so that equal bytes keep their order: stable. Into vals
 * (np.sort) or pos (np.argsort). */
#define NPX_SORT_SPLIT(s, T, K)                                                                       \
    static void npx_sort_split_##s(const T *x, T *vals, int64_t *pos, int64_t n)                     \
    {                                                                                                 \
        int threads = NPX_SORT_THREADS;                                                               \
        K *key = (K *)npx_alloc(npx_bytes(2 * n, sizeof(K), "a sort's keys")), *key2 = key + n;       \
        int64_t *at = NULL, *at2 = NULL;                                                              \
        int64_t(*count)[256] = (int64_t(*)[256])npx_alloc(npx_bytes(threads, sizeof *count, "a sort's counts")); \
        K differs = 0, some = 0, all = (K)~(K)0;                                                      \
        NPX_SORT_PRAGMA(omp parallel for reduction(| : differs, some) reduction(& : all))             \
        for (int t = 0; t < threads; t++)    /* a slice each */                                       \
            npx_sort_keys_##s(x, 1, n * t / threads, n * (t + 1) / threads, key, &differs, &some, &all); \
        if (!vals || differs) {              /* the positions move too */                             \
            at = (int64_t *)npx_alloc(npx_bytes(2 * n, sizeof(int64_t), "a sort's positions"));       \
            at2 = at + n;                                                                             \
            NPX_SORT_PRAGMA(omp parallel for)                                                         \
            for (int64_t q = 0; q < n; q++)                                                           \
                at[q] = q;                                                                            \
        }                                                                                             \
        for (unsigned b = 0; b < sizeof(K); b++) {                                                    \
            const unsigned shift = 8 * b;                                                             \
            if (!((some ^ all) >> shift & 255))                                                       \
                continue;                    /* a byte all keys share leaves the order */            \
            NPX_SORT_PRAGMA(omp parallel num_threads(threads))                                        \
            {                                                                                         \
                int t = omp_get_thread_num(), team = omp_get_num_threads();                           \
                int64_t lo = n * t / team, hi = n * (t + 1) / team, *mine = count[t];                 \
                memset(mine, 0, sizeof *count);                                                       \
                for (int64_t q = lo; q < hi; q++)                                                     \
                    mine[key[q] >> shift & 255]++;                                                    \
                NPX_SORT_PRAGMA(omp barrier)                                                          \
                NPX_SORT_PRAGMA(omp single)                                                           \
                for (int64_t d = 0, sum = 0; d < 256; d++)                                            \
                    for (int u = 0; u < team; u++) {                                                  \
                        int64_t c = count[u][d];                                                      \
                        count[u][d] = sum;                                                            \
                        sum += c;                                                                     \
                    }                                                                                 \
                npx_sort_move_##s(&key, &key2, &at, &at2, lo, hi, shift, mine);                       \
            }                                                                                         \
            npx_sort_swap_##s(&key, &key2, &at, &at2);                                                \
        }                                                                                             \
        NPX_SORT_PRAGMA(omp parallel for)                                                             \
        for (int64_t q = 0; q < n; q++) {                                                             \
            if (!at)                                                                                  \
                vals[q] = npx_sort_value_##s(key[q]);                                                 \
            else if (vals)                                                                            \
                vals[q] = x[at[q]];                                                                   \
            else                                                                                      \
                pos[q] = at[q];                                                                       \
        }                                                                                             \
        npx_free(key < key2 ? key : key2);                                                            \
        npx_free(at && at < at2 ? at : at2);                                                          \
        npx_free(count);                                                                              \
    }
#define NPX_SORT_SPLIT_IF(split, x, vals, pos, n, together)                                           \
    if (together) {                                                                                   \
        split(x, vals, pos, n);                                                                       \
        return;                                                                                       \
    }
#else
#define NPX_SORT_SPLIT(s, T, K)
#define NPX_SORT_SPLIT_IF(split, x, vals, pos, n, together)
#endif

/* NPX_SORT_BY_COUNTS(s, T, K): np.sort of a lane of integers whose keys span
 * at most NPX_SORT_COUNT_SPAN values and fewer than a quarter of its length
 * (labels, classes, small counts): each key counted, then its value written
 * as many times, a pass to read and one to write, where the radix sort
 * moves every element once for each byte in which keys differ. Each key is
 * its value, so equal keys' order does not show. Together: the threads
 * share the lane, a histogram each and a slice of the output each. False
 * (nothing written) for other lanes: their cost is the pass that finds the
 * keys' range. */
#define NPX_SORT_COUNT_SPAN 65536
#define NPX_SORT_BY_COUNTS(s, T, K)                                                                   \
    static bool npx_sort_by_counts_##s(const T *x, T *vals, int64_t n, int64_t stride, bool together) \
    {                                                                                                 \
        K lo = (K)~(K)0, hi = 0;                                                                      \
        NPX_SORT_PRAGMA(omp parallel for if(together) reduction(min : lo) reduction(max : hi))        \
        for (int64_t q = 0; q < n; q++) {                                                             \
            K k = npx_sort_key_##s(x[q * stride]);                                                    \
            lo = k < lo ? k : lo;                                                                     \
            hi = k > hi ? k : hi;                                                                     \
        }                                                                                             \
        if (n == 0 || hi - lo >= NPX_SORT_COUNT_SPAN || (int64_t)(hi - lo) >= n / 4)                 \
            return false;                                                                             \
        const int64_t span = (int64_t)(hi - lo) + 1;                                                  \
        const int parts = together ? NPX_SORT_THREADS : 1;                                            \
        /* two histograms a thread (even and odd places: a run of one key waits less on its count); \
           then each key's first place in the output, and n after them */                            \
        int64_t *count = (int64_t *)npx_alloc_zero(npx_bytes(2 * parts * span + 1, sizeof(int64_t), "a sort's counts")); \
        NPX_SORT_PRAGMA(omp parallel num_threads(parts) if(together))                                 \
        {                                                                                             \
            int64_t *even = count + NPX_SORT_THREAD * 2 * span, *odd = even + span;                  \
            int64_t q = n * NPX_SORT_THREAD / NPX_SORT_TEAM, b = n * (NPX_SORT_THREAD + 1) / NPX_SORT_TEAM; \
            for (; q + 1 < b; q += 2) {                                                               \
                even[npx_sort_key_##s(x[q * stride]) - lo]++;                                         \
                odd[npx_sort_key_##s(x[(q + 1) * stride]) - lo]++;                                    \
            }                                                                                         \
            if (q < b)                                                                                \
                even[npx_sort_key_##s(x[q * stride]) - lo]++;                                         \
        }                                                                                             \
        for (int64_t d = 0, at = 0; d <= span; d++) {                                                 \
            int64_t c = 0;                                                                            \
            for (int t = 0; d < span && t < 2 * parts; t++)                                           \
                c += count[t * span + d];                                                             \
            count[d] = at;                                                                            \
            at += c;                                                                                  \
        }                                                                                             \
        NPX_SORT_PRAGMA(omp parallel num_threads(parts) if(together))                                 \
        {                                                                                             \
            int64_t q = n * NPX_SORT_THREAD / NPX_SORT_TEAM, b = n * (NPX_SORT_THREAD + 1) / NPX_SORT_TEAM; \
            int64_t d = 0, top = span;       /* the key of output place q: the last d with count[d] <= q */ \
            while (top - d > 1) {                                                                     \
                int64_t mid = d + (top - d) / 2;                                                      \
                if (count[mid] <= q)                                                                  \
                    d = mid;                                                                          \
                else                                                                                  \
                    top = mid;                                                                        \
            }                                                                                         \
            for (; q < b; d++) {                                                                      \
                const T v = npx_sort_value_##s((K)(lo + (K)d));                                       \
                for (const int64_t end = count[d + 1] < b ? count[d + 1] : b; q < end; q++)           \
                    vals[q * stride] = v;                                                             \
            }                                                                                         \
        }                                                                                             \
        npx_free(count);                                                                              \
        return true;                                                                                  \
    }
NPX_SORT_BY_COUNTS(bool, bool, uint8_t)
NPX_SORT_BY_COUNTS(i32, int32_t, uint32_t)
NPX_SORT_BY_COUNTS(i64, int64_t, uint64_t)
#undef NPX_SORT_BY_COUNTS
#define npx_sort_by_counts_f32(x, vals, n, stride, together) false  /* floats' keys span widely */
#define npx_sort_by_counts_f64(x, vals, n, stride, together) false

#define NPX_SORT(s, T, K, positions)                                                                  \
    /* The keys of lane x[0], x[stride], ... sorted; returns the buffer that                          \
     * holds them, key or key2 (scratch of n each). With their positions in                           \
     * *at (at and at2 scratch of n each) unless values_only and every key                            \
     * gives its element back (integers; floats but NaN and -0.0): *at is                             \
     * NULL then, and the keys alone move, half the bytes. */                                         \
    static K *npx_sort_lane_##s(const T *x, int64_t stride, int64_t n, bool values_only, K *key, K *key2,  \
                                int64_t **at_io, int64_t *at2)                                        \
    {                                                                                                 \
        int64_t start[sizeof(K)][256];       /* each byte's counts, then where its keys go */        \
        int64_t *at = *at_io;                                                                         \
        K differs = 0, some = 0, all = (K)~(K)0;                                                      \
        npx_sort_keys_##s(x, stride, 0, n, key, &differs, &some, &all);                               \
        unsigned byte[sizeof(K)], bytes = 0; /* the bytes that differ between keys, low first */      \
        for (unsigned b = 0; b < sizeof(K); b++)                                                      \
            if ((some ^ all) >> 8 * b & 255)                                                          \
                byte[bytes++] = b;                                                                    \
        if (n > NPX_SORT_SHORT) {                                                                     \
            memset(start, 0, sizeof start);                                                           \
            for (int64_t q = 0; q < n; q++)                                                           \
                for (unsigned i = 0; i < bytes; i++)                                                  \
                    start[i][key[q] >> 8 * byte[i] & 255]++;                                          \
        }                                                                                             \
        if (values_only && !differs)                                                                  \
            at = at2 = NULL;                                                                          \
        for (int64_t q = 0; at && q < n; q++)                                                         \
            at[q] = q;                                                                                \
        if (n <= NPX_SORT_SHORT) {           /* by insertion: no tables to fill */                   \
            for (int64_t q = 1; q < n; q++) {                                                         \
                K k = key[q];                                                                         \
                int64_t j = q;                                                                        \
                for (; j > 0 && key[j - 1] > k; j--) {                                                \
                    key[j] = key[j - 1];                                                              \
                    if (at)                                                                           \
                        at[j] = at[j - 1];                                                            \
                }                                                                                     \
                key[j] = k;                                                                           \
                if (at)                                                                               \
                    at[j] = q;                                                                        \
            }                                                                                         \
            *at_io = at;                                                                              \
            return key;                                                                               \
        }                                                                                             \
        for (unsigned i = 0; i < bytes; i++) {   /* a byte all keys share leaves the order */         \
            const unsigned shift = 8 * byte[i];                                                       \
            for (int64_t d = 0, sum = 0; d < 256; d++) {                                              \
                int64_t c = start[i][d];                                                              \
                start[i][d] = sum;                                                                    \
                sum += c;                                                                             \
            }                                                                                         \
            npx_sort_move_##s(&key, &key2, &at, &at2, 0, n, shift, start[i]);                         \
            npx_sort_swap_##s(&key, &key2, &at, &at2);                                                \
        }                                                                                             \
        *at_io = at;                                                                                  \
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
        const bool together = NPX_SORT_TOGETHER(lanes, n);                                            \
        if (together && vals && npx_sort_by_counts_##s(x, vals, n, 1, true))                          \
            return;                                                                                   \
        NPX_SORT_SPLIT_IF(npx_sort_split_##s, x, vals, pos, n, together)                              \
        NPX_SORT_PARALLEL                                                                             \
        {                                                                                             \
            K *key = (K *)npx_alloc(npx_bytes(2 * n, sizeof(K), "a sort's keys"));                    \
            int64_t *at = (int64_t *)npx_alloc(npx_bytes(2 * n, sizeof(int64_t), "a sort's positions")); \
            NPX_SORT_FOR(n < NPX_SORT_CHUNK ? NPX_SORT_CHUNK / n : 1)                                 \
            for (int64_t l = 0; l < lanes; l++) {                                                     \
                int64_t base = l / inner * n * inner + l % inner;                                     \
                if (vals && (npx_sort_by_network_##s(x + base, vals + base, n, inner, key) ||         \
                             (n > NPX_SORT_NETWORK && npx_sort_by_counts_##s(x + base, vals + base, n, inner, false)))) \
                    continue;                                                                         \
                int64_t *sorted = at;                                                                 \
                const K *keys = NULL;                                                                 \
                if (!positions(x + base, n, inner, at))                                               \
                    keys = npx_sort_lane_##s(x + base, inner, n, vals != NULL, key, key + n, &sorted, at + n); \
                for (int64_t q = 0; q < n; q++) {                                                     \
                    if (!sorted)                                                                      \
                        vals[base + q * inner] = npx_sort_value_##s(keys[q]);                         \
                    else if (vals)                                                                    \
                        vals[base + q * inner] = x[base + sorted[q] * inner];                         \
                    else                                                                              \
                        pos[base + q * inner] = sorted[q];                                            \
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

NPX_SORT_TYPES(NPX_SORT_SPLIT)
#undef NPX_SORT_SPLIT
#undef NPX_SORT_TYPES
NPX_SORT(bool, bool, uint8_t, NPX_NO_NETWORK)
NPX_SORT(i32, int32_t, uint32_t, npx_positions_by_network_i32)
NPX_SORT(i64, int64_t, uint64_t, NPX_NO_NETWORK)
NPX_SORT(f32, float, uint32_t, npx_positions_by_network_f32)
NPX_SORT(f64, double, uint64_t, NPX_NO_NETWORK)
#undef NPX_SORT
#undef NPX_SORT_SPLIT_IF
#undef NPX_NO_NETWORK
