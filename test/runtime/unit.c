/* unit.c: unit checks of runtime functions that npx_main reaches only through
 * one input: NAME=NUMBER parsing for every dtype, size overflow, the random
 * generator's known values, shapes as text, strips stored with and without
 * streaming stores. Prints each failure; exit 1 if
 * one fails. Linked with the runtime's .c files. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "npx_rt.h"

static int failures;

#define CHECK(cond)                                                     \
    do {                                                                \
        if (!(cond)) {                                                  \
            printf("%s:%d: failed: %s\n", __FILE__, __LINE__, #cond);   \
            failures++;                                                 \
        }                                                               \
    } while (0)

/* text parses as t, to the value want (as a double), or fails with err. */
static void scalar_ok(const char *text, npx_dtype t, double want)
{
    char err[256];
    union { bool b; int32_t i; int64_t l; float f; double d; } v;
    memset(&v, 0, sizeof v);
    int rc = npx_parse_scalar(text, t, &v, err, sizeof err);
    double got = t == NPX_BOOL ? v.b : t == NPX_I32 ? v.i : t == NPX_I64 ? (double)v.l
               : t == NPX_F32 ? v.f : v.d;
    if (rc != 0 || !(got == want || (isnan(got) && isnan(want)))) {
        printf("parse '%s' as %s: rc %d, got %g, want %g (%s)\n", text, npx_dtype_name(t), rc,
               got, want, rc ? err : "");
        failures++;
    }
}

static void scalar_bad(const char *text, npx_dtype t, const char *want_err)
{
    char err[256] = "";
    int64_t v;
    int rc = npx_parse_scalar(text, t, &v, err, sizeof err);
    if (rc == 0 || strcmp(err, want_err) != 0) {
        printf("parse '%s' as %s: rc %d, error '%s', want '%s'\n", text, npx_dtype_name(t), rc,
               err, want_err);
        failures++;
    }
}

static void test_scalars(void)
{
    scalar_ok("1.5", NPX_F64, 1.5);
    scalar_ok("-2e3", NPX_F64, -2000);
    scalar_ok("nan", NPX_F64, NAN);
    scalar_ok("-inf", NPX_F64, -INFINITY);
    scalar_ok("0.1", NPX_F32, (double)0.1f);
    scalar_ok("1e-50", NPX_F32, 0);
    scalar_ok("42", NPX_I32, 42);
    scalar_ok("-2147483648", NPX_I32, -2147483648.0);
    scalar_ok("+7", NPX_I64, 7);
    scalar_ok("9223372036854775807", NPX_I64, 9223372036854775807.0);
    scalar_ok("True", NPX_BOOL, 1);
    scalar_ok("0", NPX_BOOL, 0);
    scalar_bad("abc", NPX_F64, "'abc' is not a number");
    scalar_bad("", NPX_F64, "'' is not a number");
    scalar_bad(" 1", NPX_F64, "' 1' is not a number");
    scalar_bad("1.5x", NPX_F32, "'1.5x' is not a number");
    scalar_bad("1e999", NPX_F64, "'1e999' is out of range for f64");
    scalar_bad("1e39", NPX_F32, "'1e39' is out of range for f32");
    scalar_bad("1.5", NPX_I32, "'1.5' is not an integer");
    scalar_bad("1e3", NPX_I64, "'1e3' is not an integer");
    scalar_bad("abc", NPX_I64, "'abc' is not a number");
    scalar_bad("2147483648", NPX_I32, "'2147483648' is out of range for i32");
    scalar_bad("-2147483649", NPX_I32, "'-2147483649' is out of range for i32");
    scalar_bad("9223372036854775808", NPX_I64, "'9223372036854775808' is out of range for i64");
    scalar_bad("yes", NPX_BOOL, "'yes' is not a bool (True, False, 1 or 0)");
}

static void test_sizes(void)
{
    int64_t big[2] = {INT64_MAX / 4 + 1, 1}, ok[3] = {2, 3, 4}, neg[2] = {2, -1};
    int64_t empty[3] = {INT64_MAX, 0, INT64_MAX};
    CHECK(npx_shape_bytes(3, ok, 4) == 96);
    CHECK(npx_shape_bytes(0, ok, 8) == 8);
    CHECK(npx_shape_bytes(2, big, 4) == -1);
    CHECK(npx_shape_bytes(2, big, 2) > 0);
    CHECK(npx_shape_bytes(2, neg, 1) == -1);
    CHECK(npx_shape_bytes(3, empty, 8) == 0);
    CHECK(npx_bytes(10, 8, "t") == 80);
    char buf[64];
    CHECK(strcmp(npx_shape_str(buf, sizeof buf, 0, ok), "()") == 0);
    CHECK(strcmp(npx_shape_str(buf, sizeof buf, 1, ok), "(2,)") == 0);
    CHECK(strcmp(npx_shape_str(buf, sizeof buf, 3, ok), "(2, 3, 4)") == 0);
}

static void test_random(void)
{
    /* SplitMix64 from state 0 gives 0xE220A8397B1DCDAF first. */
    CHECK(npx_mix64(0) == 0xE220A8397B1DCDAFull);
    float f[4];
    npx_array a;
    memset(&a, 0, sizeof a);
    a.dtype = NPX_F32;
    a.ndim = 1;
    a.shape[0] = 4;
    a.data = f;
    npx_random_fill(&a, 1, 0);
    for (int i = 0; i < 4; i++)
        CHECK(f[i] >= 0 && f[i] < 1);
}

/* npx_store copies a strip exactly, at every alignment of its destination,
 * whether the array it belongs to is small (copied) or large (streamed), and
 * writes nothing outside it. */
static void test_store(void)
{
    unsigned char src[300], dst[400];
    for (int i = 0; i < (int)sizeof src; i++)
        src[i] = (unsigned char)(i * 7 + 1);
    const size_t arrays[] = { 64, NPX_STREAM_BYTES - 1, NPX_STREAM_BYTES, (size_t)1 << 30 };
    for (int a = 0; a < 4; a++)
        for (int off = 0; off < 40; off++)
            for (int len = 0; len <= (int)sizeof src; len += len < 70 ? 1 : 23) {
                memset(dst, 0xaa, sizeof dst);
                npx_store(dst + off, src, (size_t)len, arrays[a]);
                npx_store_fence();
                int bad = memcmp(dst + off, src, (size_t)len) != 0;
                for (int i = 0; i < (int)sizeof dst; i++)
                    bad |= (i < off || i >= off + len) && dst[i] != 0xaa;
                if (bad) {
                    printf("npx_store of %d bytes at offset %d (array of %zu bytes) is wrong\n", len, off,
                           arrays[a]);
                    failures++;
                }
            }
}

int main(void)
{
    test_scalars();
    test_sizes();
    test_random();
    test_store();
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
}
