/* npx_math.h: the scalar helpers generated code calls where NumPy's integer
 * and float semantics differ from plain C: wrapping integer arithmetic
 * (never signed-overflow UB), Python's floor division and modulo, NumPy's
 * shifts, NaN-propagating maximum/minimum, sign, and float-to-int casts that
 * give what NumPy gives on x86 (INT_MIN for NaN and out of range) instead of
 * C's undefined behavior; Python's slice rules (npxc uses them too, at
 * compile time). All NPX_INLINE (static inline): free and quiet
 * when unused, valid C11 and C++. */
#ifndef NPX_MATH_H
#define NPX_MATH_H
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "npx_rt.h"

/* How every helper is declared. "unused": clang warns about unused static
 * inline functions outside headers, and generated files paste this text. A
 * target may define NPX_INLINE first (CUDA adds __host__ __device__). */
#ifndef NPX_INLINE
#define NPX_INLINE static inline __attribute__((unused))
#endif

/* Integers: T is the type, U its unsigned twin, W its width in bits. */
#define NPX_INT_OPS(s, T, U, W)                                                \
    NPX_INLINE T npx_add_##s(T a, T b) { return (T)((U)a + (U)b); }            \
    NPX_INLINE T npx_sub_##s(T a, T b) { return (T)((U)a - (U)b); }            \
    NPX_INLINE T npx_mul_##s(T a, T b) { return (T)((U)a * (U)b); }            \
    NPX_INLINE T npx_neg_##s(T a) { return (T)((U)0 - (U)a); }                 \
    NPX_INLINE T npx_square_##s(T a) { return npx_mul_##s(a, a); }             \
    NPX_INLINE T npx_abs_##s(T a) { return a < 0 ? npx_neg_##s(a) : a; }       \
    NPX_INLINE T npx_sign_##s(T a) { return (T)((a > 0) - (a < 0)); }          \
    NPX_INLINE T npx_maximum_##s(T a, T b) { return a > b ? a : b; }           \
    NPX_INLINE T npx_minimum_##s(T a, T b) { return a < b ? a : b; }           \
    /* Python's a // b: floor; b == 0 gives 0, MIN // -1 wraps to MIN. */      \
    NPX_INLINE T npx_floordiv_##s(T a, T b)                                    \
    {                                                                          \
        if (b == 0)                                                            \
            return 0;                                                          \
        if (b == -1)                                                           \
            return npx_neg_##s(a);                                             \
        T q = a / b;                                                           \
        return (a % b != 0 && ((a < 0) != (b < 0))) ? (T)(q - 1) : q;          \
    }                                                                          \
    /* Python's a % b: takes the divisor's sign; b == 0 gives 0. */            \
    NPX_INLINE T npx_mod_##s(T a, T b)                                         \
    {                                                                          \
        if (b == 0 || b == -1)                                                 \
            return 0;                                                          \
        T r = a % b;                                                           \
        return (r != 0 && ((r < 0) != (b < 0))) ? (T)(r + b) : r;              \
    }                                                                          \
    /* a ** b for b >= 0 (the caller rejects b < 0), wrapping. */              \
    NPX_INLINE T npx_pow_##s(T a, T b)                                         \
    {                                                                          \
        U r = 1, x = (U)a;                                                     \
        for (; b > 0; b >>= 1) {                                               \
            if (b & 1)                                                         \
                r *= x;                                                        \
            x *= x;                                                            \
        }                                                                      \
        return (T)r;                                                           \
    }                                                                          \
    /* NumPy's shifts: a count that is negative or >= W shifts everything      \
     * out (0, or -1 for >> of a negative number). */                          \
    NPX_INLINE T npx_shl_##s(T a, T b)                                         \
    {                                                                          \
        return (b >= 0 && b < W) ? (T)((U)a << b) : (T)0;                      \
    }                                                                          \
    NPX_INLINE T npx_shr_##s(T a, T b)                                         \
    {                                                                          \
        if (b < 0 || b >= W)                                                   \
            return a < 0 ? (T)-1 : (T)0;                                       \
        return a < 0 ? (T)~(T)((U)~a >> b) : (T)((U)a >> b);                   \
    }

NPX_INT_OPS(i32, int32_t, uint32_t, 32)
NPX_INT_OPS(i64, int64_t, uint64_t, 64)
#undef NPX_INT_OPS

/* Floats: F the type, fn its libm suffix (f or nothing). */
#define NPX_FLOAT_OPS(s, F, fn)                                                \
    NPX_INLINE F npx_square_##s(F a) { return a * a; }                         \
    /* NumPy's npy_divmod: fmod, then fix up to Python's convention. */        \
    NPX_INLINE F npx_divmod_##s(F a, F b, F *modulus)                          \
    {                                                                          \
        F mod = fmod##fn(a, b);                                                \
        if (!b) {                                                              \
            *modulus = mod;                                                    \
            return a / b;                                                      \
        }                                                                      \
        F div = (a - mod) / b;                                                 \
        if (mod) {                                                             \
            if ((b < (F)0) != (mod < (F)0)) {                        \
                mod += b;                                                      \
                div -= (F)1;                                                   \
            }                                                                  \
        } else {                                                               \
            mod = copysign##fn((F)0, b);                                       \
        }                                                                      \
        F floordiv;                                                            \
        if (div) {                                                             \
            floordiv = floor##fn(div);                                         \
            if (div - floordiv > (F)0.5)                             \
                floordiv += (F)1;                                              \
        } else {                                                               \
            floordiv = copysign##fn((F)0, a / b);                              \
        }                                                                      \
        *modulus = mod;                                                        \
        return floordiv;                                                       \
    }                                                                          \
    /* a // b; a / b (inf or NaN) when b == 0. */                              \
    NPX_INLINE F npx_floordiv_##s(F a, F b)                                    \
    {                                                                          \
        F mod;                                                                 \
        return b ? npx_divmod_##s(a, b, &mod) : a / b;                         \
    }                                                                          \
    /* a % b, the sign of b; NaN when b == 0. */                               \
    NPX_INLINE F npx_mod_##s(F a, F b)                                         \
    {                                                                          \
        F mod;                                                                 \
        if (!b)                                                                \
            return fmod##fn(a, b);                                             \
        npx_divmod_##s(a, b, &mod);                                            \
        return mod;                                                            \
    }                                                                          \
    /* np.maximum / np.minimum: a NaN on either side gives NaN; of two         \
     * equal values (0.0 and -0.0) b, as NumPy 2.x's loops give. */            \
    NPX_INLINE F npx_maximum_##s(F a, F b)                                     \
    {                                                                          \
        return (a > b || isnan(a)) ? a : b;                                    \
    }                                                                          \
    NPX_INLINE F npx_minimum_##s(F a, F b)                                     \
    {                                                                          \
        return (a < b || isnan(a)) ? a : b;                                    \
    }                                                                          \
    /* np.fmax / np.fmin: NaN only when both are NaN; b when equal (libm's     \
     * fmax may pick either zero). */                                          \
    NPX_INLINE F npx_fmax_##s(F a, F b)                                        \
    {                                                                          \
        return (a > b || isnan(b)) ? a : b;                                    \
    }                                                                          \
    NPX_INLINE F npx_fmin_##s(F a, F b)                                        \
    {                                                                          \
        return (a < b || isnan(b)) ? a : b;                                    \
    }                                                                          \
    /* np.heaviside: 0 below 0, b at 0, 1 above; NaN for NaN. */               \
    NPX_INLINE F npx_heaviside_##s(F a, F b)                                   \
    {                                                                          \
        return a < 0 ? (F)0 : a == 0 ? b : a > 0 ? (F)1 : a;                   \
    }                                                                          \
    /* np.sign: NaN for NaN, else -1, 0 or 1. */                               \
    NPX_INLINE F npx_sign_##s(F a)                                             \
    {                                                                          \
        return a > 0 ? (F)1 : a < 0 ? (F)-1 : a == 0 ? (F)0 : a;               \
    }                                                                          \
    /* np.frexp's parts: a = m * 2**e, 0.5 <= |m| < 1; a itself and 0 for    \
     * zeros, infinities and NaN, as NumPy gives them. */                     \
    NPX_INLINE F npx_frexp_mantissa_##s(F a)                                   \
    {                                                                          \
        int e;                                                                 \
        return isfinite(a) ? frexp##fn(a, &e) : a;                             \
    }                                                                          \
    NPX_INLINE int32_t npx_frexp_exponent_##s(F a)                             \
    {                                                                          \
        int e = 0;                                                             \
        if (isfinite(a))                                                       \
            frexp##fn(a, &e);                                                  \
        return e;                                                              \
    }

NPX_FLOAT_OPS(f32, float, f)
NPX_FLOAT_OPS(f64, double, )

#undef NPX_FLOAT_OPS

/* np.searchsorted: where v goes in a[0..n), sorted: before the elements
 * equal to it (right 0) or after them (right 1), the number of elements
 * that go before it. A bisection without branches: each step keeps the
 * upper half or not by a mask, so the loop is log2(n) dependent loads with
 * no mispredicted jump (values in random order miss half the branches of
 * the textbook loop). NaN elements, last in NumPy's sort order, go after
 * every number (e < v and e <= v are false for them). */
#define NPX_BISECT(name, T)                                                    \
    NPX_INLINE int64_t name(const T *a, int64_t n, T v, int right)             \
    {                                                                          \
        if (n == 0)                                                            \
            return 0;                                                          \
        const T *base = a;                                                     \
        while (n > 1) {                                                        \
            int64_t half = n / 2;                                              \
            int before = (base[half] < v) | (right & (base[half] == v));       \
            base += half & -(int64_t)before;                                   \
            n -= half;                                                         \
        }                                                                      \
        return (base - a) + ((*base < v) | (right & (*base == v)));            \
    }
/* A NaN v goes after the numbers (left) or after everything (right). */
#define NPX_SEARCH_FLOAT(s, T)                                                 \
    NPX_BISECT(npx_bisect_##s, T)                                              \
    NPX_INLINE int64_t npx_search_##s(const T *a, int64_t n, T v, int right)   \
    {                                                                          \
        if (v != v)                                                            \
            return right ? n : npx_bisect_##s(a, n, (T)INFINITY, 1);           \
        return npx_bisect_##s(a, n, v, right);                                 \
    }
NPX_BISECT(npx_search_bool, bool)
NPX_BISECT(npx_search_i32, int32_t)
NPX_BISECT(npx_search_i64, int64_t)
NPX_SEARCH_FLOAT(f32, float)
NPX_SEARCH_FLOAT(f64, double)
#undef NPX_BISECT
#undef NPX_SEARCH_FLOAT

/* np.interp at x of the n >= 1 points xp (sorted) and values fp, as
 * NumPy's arr_interp computes it: NaN stays NaN; left below xp[0], right
 * above xp[n - 1]; j the last point with xp[j] <= x: fp[j] at a point (or
 * the last one), else the line through points j and j + 1, taken from
 * point j + 1 when that gives NaN, and fp[j] when both do and fp[j] ==
 * fp[j + 1]. */
NPX_INLINE double npx_interp(const double *xp, const double *fp, int64_t n, double x, double left, double right)
{
    if (isnan(x))
        return x;
    if (n == 1)
        return x < xp[0] ? left : x > xp[0] ? right : fp[0];
    if (x > xp[n - 1])
        return right;
    if (x < xp[0])
        return left;
    int64_t j = npx_search_f64(xp, n, x, 1) - 1;
    if (j == n - 1 || xp[j] == x)
        return fp[j];
    double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
    double y = slope * (x - xp[j]) + fp[j];
    if (isnan(y)) {
        y = slope * (x - xp[j + 1]) + fp[j + 1];
        if (isnan(y) && fp[j] == fp[j + 1])
            y = fp[j];
    }
    return y;
}

/* Integer power as the ** of an array: NumPy refuses negative exponents.
 * Host code only (CUDA kernels have their own, in cuda/npx_device.h). */
static inline __attribute__((unused)) int32_t npx_pow_checked_i32(const npx_state *st, int line, int32_t a, int32_t b)
{
    if (b < 0)
        npx_runtime_error(st, line, "integers to negative integer powers are not allowed (exponent %d)", (int)b);
    return npx_pow_i32(a, b);
}
static inline __attribute__((unused)) int64_t npx_pow_checked_i64(const npx_state *st, int line, int64_t a, int64_t b)
{
    if (b < 0)
        npx_runtime_error(st, line, "integers to negative integer powers are not allowed (exponent %lld)",
                          (long long)b);
    return npx_pow_i64(a, b);
}

/* Python ints known when the program runs (sizes, counters, numbers made
 * from them) are computed in int64. Python's ints have no bounds, so a result
 * past int64's (of + - * ** << //, unary -) is an error (exit 3), not a
 * wrapped number; a negative shift count is Python's ValueError and a
 * negative power NumPy's error (npxc gave the power an integer dtype). The
 * compiler folds literals with the same function (ir/build.c). */
enum { NPX_PY_ADD, NPX_PY_SUB, NPX_PY_MUL, NPX_PY_POW, NPX_PY_SHL, NPX_PY_QUOTIENT, NPX_PY_NEG };
NPX_INLINE bool npx_py_mul_fits(int64_t a, int64_t b, int64_t *r)
{
    if (a != 0 && b != 0 &&
        (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a) : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b)))
        return false;
    *r = (int64_t)((uint64_t)a * (uint64_t)b);
    return true;
}
NPX_INLINE bool npx_py_int_fits(int op, int64_t a, int64_t b, int64_t *r)
{
    if (op == NPX_PY_NEG) { /* 0 - a */
        b = a;
        a = 0;
        op = NPX_PY_SUB;
    }
    switch (op) {
    case NPX_PY_SUB:
        if (b < 0 ? a > INT64_MAX + b : a < INT64_MIN + b)
            return false;
        *r = a - b;
        return true;
    case NPX_PY_ADD:
        if (b > 0 ? a > INT64_MAX - b : a < INT64_MIN - b)
            return false;
        *r = a + b;
        return true;
    case NPX_PY_MUL: return npx_py_mul_fits(a, b, r);
    case NPX_PY_QUOTIENT:   /* a // b, b not 0 (checked before) */
        if (a == INT64_MIN && b == -1)
            return false;
        *r = npx_floordiv_i64(a, b);
        return true;
    case NPX_PY_SHL:
        if (b < 0 || (a != 0 && (b >= 63 || a > (INT64_MAX >> b) || a < (INT64_MIN >> b))))
            return false;
        *r = a == 0 ? 0 : (int64_t)((uint64_t)a << b);
        return true;
    default: {  /* NPX_PY_POW, by squaring: x is squared only while bits of b remain */
        int64_t x = a, y = 1;
        if (b < 0)
            return false;
        for (; b; b >>= 1) {
            if ((b & 1) && !npx_py_mul_fits(y, x, &y))
                return false;
            if (b > 1 && !npx_py_mul_fits(x, x, &x))
                return false;
        }
        *r = y;
        return true;
    }
    }
}
/* Host code only (CUDA kernels record it: cuda/npx_device.h). */
static inline __attribute__((unused)) void npx_py_int_error(const npx_state *st, int line, int op, long long a,
                                                            long long b)
{
    static const char *const sign[] = { "+", "-", "*", "**", "<<", "//" };
    if (op == NPX_PY_SHL && b < 0)
        npx_runtime_error(st, line, "negative shift count");
    if (op == NPX_PY_POW && b < 0)
        npx_runtime_error(st, line, "integers to negative integer powers are not allowed (exponent %lld)", b);
    if (op == NPX_PY_NEG)
        npx_runtime_error(st, line, "Python int -(%lld) is out of int64's range, in which npxc computes Python ints", a);
    npx_runtime_error(st, line, "Python int %lld %s %lld is out of int64's range, in which npxc computes Python ints", a,
                      sign[op], b);
}
#define NPX_PY_INT_OPS(X) X(npx_py_add, NPX_PY_ADD) X(npx_py_sub, NPX_PY_SUB) X(npx_py_mul, NPX_PY_MUL) \
    X(npx_py_pow, NPX_PY_POW) X(npx_py_shl, NPX_PY_SHL) X(npx_py_quotient, NPX_PY_QUOTIENT) X(npx_py_neg, NPX_PY_NEG)
#define X(name, op)                                                                                 \
    static inline __attribute__((unused)) int64_t name(const npx_state *st, int line, int64_t a, int64_t b) \
    {                                                                                               \
        int64_t r = 0;                                                                              \
        if (!npx_py_int_fits(op, a, b, &r))                                                         \
            npx_py_int_error(st, line, op, (long long)a, (long long)b);                             \
        return r;                                                                                   \
    }
NPX_PY_INT_OPS(X)
#undef X

/* Python numbers (sizes, counters, and numbers made from them) known when
 * the program runs: a division by zero is Python's ZeroDivisionError, in
 * Python's words, not NumPy's inf or 0. np.average's division by the sum
 * of its weights raises the same error, in NumPy's words. */
enum { NPX_PY_FLOORDIV, NPX_PY_MOD, NPX_PY_TRUEDIV, NPX_PY_FLOAT_FLOORDIV, NPX_PY_FLOAT_MOD, NPX_WEIGHTS_SUM_ZERO };
NPX_INLINE const char *npx_py_zero_division(int kind)
{
    switch (kind) {
    case NPX_PY_FLOORDIV: return "integer division or modulo by zero";
    case NPX_PY_MOD: return "integer modulo by zero";
    case NPX_PY_TRUEDIV: return "division by zero";
    case NPX_PY_FLOAT_FLOORDIV: return "float floor division by zero";
    case NPX_WEIGHTS_SUM_ZERO: return "Weights sum to zero, can't be normalized";
    default: return "float modulo";
    }
}
/* X(name, type, kind, result): host code only (CUDA kernels have their own,
 * in cuda/npx_device.h) */
#define NPX_PY_DIVISIONS(X)                                                    \
    X(npx_py_floordiv, int64_t, NPX_PY_FLOORDIV, npx_py_quotient(st, line, a, b)) \
    X(npx_py_mod, int64_t, NPX_PY_MOD, npx_mod_i64(a, b))                      \
    X(npx_py_truediv, double, NPX_PY_TRUEDIV, a / b)                           \
    X(npx_py_floordiv_f64, double, NPX_PY_FLOAT_FLOORDIV, npx_floordiv_f64(a, b)) \
    X(npx_py_mod_f64, double, NPX_PY_FLOAT_MOD, npx_mod_f64(a, b))      \
    X(npx_weights_divide_f32, float, NPX_WEIGHTS_SUM_ZERO, a / b)      \
    X(npx_weights_divide_f64, double, NPX_WEIGHTS_SUM_ZERO, a / b)
#define X(name, T, kind, result)                                                              \
    static inline __attribute__((unused)) T name(const npx_state *st, int line, T a, T b)   \
    {                                                                                         \
        if (b == 0)                                                                           \
            npx_runtime_error(st, line, "%s", npx_py_zero_division(kind));                    \
        return result;                                                                        \
    }
NPX_PY_DIVISIONS(X)
#undef X

/* A Python int known when the program runs, converted to int32 for an
 * operation with an int32 array (NEP 50): NumPy's OverflowError when it does
 * not fit. Host code only (CUDA kernels: cuda/npx_device.h). */
static inline __attribute__((unused)) int32_t npx_py_int32(const npx_state *st, int line, int64_t a)
{
    if (a < INT32_MIN || a > INT32_MAX)
        npx_runtime_error(st, line, "Python integer %lld out of bounds for int32", (long long)a);
    return (int32_t)a;
}

/* np.unravel_index's flat index i into an array of n elements: NumPy's
 * ValueError unless 0 <= i < n. Host code only (CUDA kernels: cuda/npx_device.h). */
static inline __attribute__((unused)) int64_t npx_unravel_checked(const npx_state *st, int line, int64_t i, int64_t n)
{
    if (i < 0 || i >= n)
        npx_runtime_error(st, line, "index %lld is out of bounds for array with size %lld", (long long)i,
                          (long long)n);
    return i;
}

/* x as NumPy's str() writes a float32 (f32) or float64 scalar, for a
 * message: nan, inf, the fewest digits that read back as x, positional
 * between 1e-4 and 1e16 (1e7 for float32), else scientific. */
static inline __attribute__((unused)) const char *npx_float_str(char *buf, size_t len, double x, bool f32)
{
    if (isnan(x) || isinf(x))
        return isnan(x) ? "nan" : x < 0 ? "-inf" : "inf";
    int digits = 1;
    while (digits < 17 && (snprintf(buf, len, "%.*e", digits - 1, x),
                           f32 ? strtof(buf, NULL) != (float)x : strtod(buf, NULL) != x))
        digits++;
    double ax = fabs(x);
    if (ax != 0 && (ax < 1e-4 || ax >= (f32 ? 1e7 : 1e16)))
        return buf;                      /* scientific: 1e+20, 1.5e-05 */
    int exponent = ax == 0 ? 0 : atoi(strchr(buf, 'e') + 1);
    snprintf(buf, len, "%.*f", digits - 1 - exponent > 0 ? digits - 1 - exponent : 0, x);
    if (!strchr(buf, '.') && strlen(buf) + 3 <= len)
        strcat(buf, ".0");
    return buf;
}

/* np.histogram's range found in the data, lo and hi: NumPy's ValueError
 * unless both are finite. Host code only (CUDA kernels: cuda/npx_device.h). */
#define NPX_RANGE_CHECKED(s, T, F32)                                                                             \
    static inline __attribute__((unused)) T npx_range_checked_##s(const npx_state *st, int line, T lo, T hi)   \
    {                                                                                                          \
        char a[32], b[32];                                                                                     \
        if (!isfinite(lo) || !isfinite(hi))                                                                    \
            npx_runtime_error(st, line, "autodetected range of [%s, %s] is not finite",                        \
                              npx_float_str(a, sizeof a, lo, F32), npx_float_str(b, sizeof b, hi, F32));       \
        return lo;                                                                                             \
    }
NPX_RANGE_CHECKED(f32, float, true)
NPX_RANGE_CHECKED(f64, double, false)
#undef NPX_RANGE_CHECKED

/* np.histogram's n bins, after finding whether two of its edges are equal
 * (too_close): NumPy's ValueError if so. Host code only. */
static inline __attribute__((unused)) int64_t npx_bins_checked(const npx_state *st, int line, int64_t too_close,
                                                               int64_t n)
{
    if (too_close)
        npx_runtime_error(st, line, "Too many bins for data range. Cannot create %lld finite-sized bins.",
                          (long long)n);
    return n;
}

/* np.digitize's bins' direction, 1 or -1: NumPy's ValueError when 0 (they
 * are sorted neither way). Host code only. */
static inline __attribute__((unused)) int64_t npx_monotonic_checked(const npx_state *st, int line, int64_t way)
{
    if (way == 0)
        npx_runtime_error(st, line, "bins must be monotonically increasing or decreasing");
    return way;
}

/* np.histogram's bin edges given as an array: NumPy's ValueError when they
 * fall anywhere (falls), else the lowest edge, lowest. Host code only. */
#define NPX_INCREASING_CHECKED(s, T)                                                                               \
    static inline __attribute__((unused)) T npx_increasing_checked_##s(const npx_state *st, int line, T falls,   \
                                                                       T lowest)                                 \
    {                                                                                                            \
        if (falls)                                                                                               \
            npx_runtime_error(st, line, "`bins` must increase monotonically, when an array");                   \
        return lowest;                                                                                           \
    }
NPX_INCREASING_CHECKED(i32, int32_t)
NPX_INCREASING_CHECKED(i64, int64_t)
NPX_INCREASING_CHECKED(f32, float)
NPX_INCREASING_CHECKED(f64, double)
#undef NPX_INCREASING_CHECKED

/* Position i of an axis of size n, read by take or x[idx]: from the end
 * when negative; NumPy's IndexError when out of range. Host code only (CUDA
 * kernels have their own, in cuda/npx_device.h). */
static inline __attribute__((unused)) int64_t npx_take(const npx_state *st, int line, int64_t i, int64_t n, int axis)
{
    if (i >= -n && i < n)
        return i < 0 ? i + n : i;
    npx_runtime_error(st, line, "index %lld is out of bounds for axis %d with size %lld", (long long)i, axis,
                      (long long)n);
    return 0;                    /* a library's parallel loop goes on to its end (the axis is not empty) */
}

/* Float to int as NumPy does it on x86 (cvttss2si / cvttsd2si): truncation,
 * and the type's minimum for NaN or a value out of range. */
NPX_INLINE int32_t npx_f64_to_i32(double x)
{
    return (x > -2147483649.0 && x < 2147483648.0) ? (int32_t)x : INT32_MIN;
}
NPX_INLINE int64_t npx_f64_to_i64(double x)
{
    return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? (int64_t)x : INT64_MIN;
}
NPX_INLINE int32_t npx_f32_to_i32(float x)
{
    return (x >= -2147483648.0f && x < 2147483648.0f) ? (int32_t)x : INT32_MIN;
}
NPX_INLINE int64_t npx_f32_to_i64(float x)
{
    return (x >= -9223372036854775808.0f && x < 9223372036854775808.0f) ? (int64_t)x : INT64_MIN;
}

/* Whether a comes before b in NumPy's sort order: ascending, NaN last. */
NPX_INLINE bool npx_sorts_before_bool(bool a, bool b) { return a < b; }
NPX_INLINE bool npx_sorts_before_i32(int32_t a, int32_t b) { return a < b; }
NPX_INLINE bool npx_sorts_before_i64(int64_t a, int64_t b) { return a < b; }
NPX_INLINE bool npx_sorts_before_f32(float a, float b) { return a < b || (b != b && a == a); }
NPX_INLINE bool npx_sorts_before_f64(double a, double b) { return a < b || (b != b && a == a); }

/* Python's slices of an axis of n elements (PySlice_AdjustIndices): the
 * first index a slice start:stop:step reads, and how many it reads. A bound
 * not written is NPX_NO_BOUND; negative bounds count from the end; bounds
 * past either end are clipped. */
#define NPX_NO_BOUND INT64_MIN

/* a / b, 0 when b is 0: a size that reshape infers (checked to divide). */
NPX_INLINE int64_t npx_quotient(int64_t a, int64_t b) { return b ? a / b : 0; }
NPX_INLINE int64_t npx_slice_bound(int64_t n, int64_t b, int64_t step, int64_t absent)
{
    if (b == NPX_NO_BOUND)
        return absent;
    if (b < 0)
        return b + n < 0 ? (step < 0 ? -1 : 0) : b + n;
    return b >= n ? (step < 0 ? n - 1 : n) : b;
}
NPX_INLINE int64_t npx_slice_first(int64_t n, int64_t start, int64_t step)
{
    return npx_slice_bound(n, start, step, step < 0 ? n - 1 : 0);
}
NPX_INLINE int64_t npx_slice_len(int64_t n, int64_t start, int64_t stop, int64_t step)
{
    int64_t first = npx_slice_first(n, start, step), end = npx_slice_bound(n, stop, step, step < 0 ? -1 : n);
    if (step < 0)
        return end < first ? (first - end - 1) / -step + 1 : 0;
    return first < end ? (end - first - 1) / step + 1 : 0;
}

#endif
