/* math_check.c: prints npx_math.h's result for every edge case, one line
 * each: "TYPE OP A B RESULT" (floats as the hex of their bits, integers in
 * decimal). math_check.py recomputes each line with NumPy and compares. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "npx_math.h"

typedef int32_t i32;
typedef int64_t i64;

static const int32_t i32v[] = {0, 1, -1, 2, -2, 3, -3, 5, -5, 7, -7, 31, 32, 33, 63, 64, 65, 100,
                               -100, 65536, -65536, INT32_MAX, INT32_MIN, INT32_MAX - 1,
                               INT32_MIN + 1};
static const int64_t i64v[] = {0, 1, -1, 2, -2, 3, -3, 5, -5, 7, -7, 31, 32, 33, 63, 64, 65, 100,
                               -100, 4294967296LL, -4294967296LL, INT64_MAX, INT64_MIN,
                               INT64_MAX - 1, INT64_MIN + 1, INT32_MAX, INT32_MIN};
#define NF64 25
static double f64v[NF64];
static float f32v[NF64];

static void fill_floats(void)
{
    const double v[NF64] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -2.5, 3.0, -3.0, 7.0, -7.0,
                            0.1, -0.1, 1e-300, -1e-300, 1e300, -1e300, 5e-324, 1e30, -1e30,
                            INFINITY, -INFINITY, NAN, 2.75};
    for (int k = 0; k < NF64; k++) {
        f64v[k] = v[k];
        f32v[k] = (float)v[k];
    }
    f32v[14] = 1e-40f;      /* a float32 subnormal instead of an underflow to 0 */
    f32v[15] = -1e-40f;
    f32v[16] = FLT_MAX;
    f32v[17] = -FLT_MAX;
}

static unsigned long long bits64(double x)
{
    uint64_t u;
    memcpy(&u, &x, 8);
    return (unsigned long long)u;
}

static unsigned bits32(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

#define N(a) (int)(sizeof(a) / sizeof((a)[0]))
#define INT_BINARY(T, vals, fmt, op, cond)                                           \
    for (int i = 0; i < N(vals); i++)                                                \
        for (int j = 0; j < N(vals); j++) {                                          \
            T a = vals[i], b = vals[j];                                              \
            if (cond)                                                                \
                printf(#T " " #op " %" fmt " %" fmt " %" fmt "\n", a, b, npx_##op(a, b)); \
        }
#define INT_UNARY(T, vals, fmt, op)                                                  \
    for (int i = 0; i < N(vals); i++)                                                \
        printf(#T " " #op " %" fmt " 0 %" fmt "\n", vals[i], npx_##op(vals[i]));

static void ints(void)
{
    INT_BINARY(i32, i32v, PRId32, add_i32, 1)
    INT_BINARY(i32, i32v, PRId32, sub_i32, 1)
    INT_BINARY(i32, i32v, PRId32, mul_i32, 1)
    INT_BINARY(i32, i32v, PRId32, floordiv_i32, 1)
    INT_BINARY(i32, i32v, PRId32, mod_i32, 1)
    INT_BINARY(i32, i32v, PRId32, pow_i32, b >= 0)
    INT_BINARY(i32, i32v, PRId32, shl_i32, 1)
    INT_BINARY(i32, i32v, PRId32, shr_i32, 1)
    INT_UNARY(i32, i32v, PRId32, neg_i32)
    INT_UNARY(i32, i32v, PRId32, abs_i32)
    INT_UNARY(i32, i32v, PRId32, sign_i32)
    INT_BINARY(i64, i64v, PRId64, add_i64, 1)
    INT_BINARY(i64, i64v, PRId64, sub_i64, 1)
    INT_BINARY(i64, i64v, PRId64, mul_i64, 1)
    INT_BINARY(i64, i64v, PRId64, floordiv_i64, 1)
    INT_BINARY(i64, i64v, PRId64, mod_i64, 1)
    INT_BINARY(i64, i64v, PRId64, pow_i64, b >= 0)
    INT_BINARY(i64, i64v, PRId64, shl_i64, 1)
    INT_BINARY(i64, i64v, PRId64, shr_i64, 1)
    INT_UNARY(i64, i64v, PRId64, neg_i64)
    INT_UNARY(i64, i64v, PRId64, abs_i64)
    INT_UNARY(i64, i64v, PRId64, sign_i64)
}

#define F64_BINARY(op)                                                               \
    for (int i = 0; i < NF64; i++)                                                   \
        for (int j = 0; j < NF64; j++)                                               \
            printf("f64 " #op " %016llx %016llx %016llx\n", bits64(f64v[i]),         \
                   bits64(f64v[j]), bits64(npx_##op##_f64(f64v[i], f64v[j])));
#define F32_BINARY(op)                                                               \
    for (int i = 0; i < NF64; i++)                                                   \
        for (int j = 0; j < NF64; j++)                                               \
            printf("f32 " #op " %08x %08x %08x\n", bits32(f32v[i]), bits32(f32v[j]), \
                   bits32(npx_##op##_f32(f32v[i], f32v[j])));

static void floats(void)
{
    F64_BINARY(floordiv) F64_BINARY(mod) F64_BINARY(maximum) F64_BINARY(minimum)
    F64_BINARY(fmax) F64_BINARY(fmin)
    F32_BINARY(floordiv) F32_BINARY(mod) F32_BINARY(maximum) F32_BINARY(minimum)
    F32_BINARY(fmax) F32_BINARY(fmin)
    for (int i = 0; i < NF64; i++) {
        printf("f64 sign %016llx 0 %016llx\n", bits64(f64v[i]), bits64(npx_sign_f64(f64v[i])));
        printf("f32 sign %08x 0 %08x\n", bits32(f32v[i]), bits32(npx_sign_f32(f32v[i])));
    }
}

static void conversions(void)
{
    const double v[] = {0.0, -0.0, 1.9, -1.9, 2147483647.0, 2147483647.5, 2147483648.0,
                        -2147483648.0, -2147483648.5, -2147483649.0, 4294967296.0, 1e10, -1e10,
                        9.2e18, 9223372036854775807.0, -9223372036854775808.0, 1e19, -1e19,
                        1e300, -1e300, INFINITY, -INFINITY, NAN, 123456.75, -0.5};
    for (int i = 0; i < N(v); i++) {
        float f = (float)v[i];
        printf("f64 to_i32 %016llx 0 %" PRId32 "\n", bits64(v[i]), npx_f64_to_i32(v[i]));
        printf("f64 to_i64 %016llx 0 %" PRId64 "\n", bits64(v[i]), npx_f64_to_i64(v[i]));
        printf("f32 to_i32 %08x 0 %" PRId32 "\n", bits32(f), npx_f32_to_i32(f));
        printf("f32 to_i64 %08x 0 %" PRId64 "\n", bits32(f), npx_f32_to_i64(f));
    }
}

int main(void)
{
    fill_floats();
    ints();
    floats();
    conversions();
    return 0;
}
