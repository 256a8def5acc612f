/* scalar.c: NAME=NUMBER for scalar inputs. Parses the text as exactly the
 * declared dtype: no silent rounding of 1.5 into an int, no out-of-range
 * values, no trailing junk. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "npx_rt.h"

static int npx_scalar_float(const char *text, npx_dtype t, void *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    double d = 0;
    float f = 0;
    if (t == NPX_F32)
        f = strtof(text, &end);
    else
        d = strtod(text, &end);
    if (*end || end == text) {
        snprintf(err, errlen, "'%s' is not a number", text);
        return -1;
    }
    if (errno == ERANGE && (t == NPX_F32 ? isinf(f) : isinf(d))) {
        snprintf(err, errlen, "'%s' is out of range for %s", text, npx_dtype_name(t));
        return -1;
    }
    if (t == NPX_F32)
        *(float *)out = f;
    else
        *(double *)out = d;
    return 0;
}

static int npx_scalar_int(const char *text, npx_dtype t, void *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (*end || end == text) {
        strtod(text, &end);
        snprintf(err, errlen, *end || end == text ? "'%s' is not a number"
                 : "'%s' is not an integer", text);
        return -1;
    }
    if (errno == ERANGE || (t == NPX_I32 && (v < INT32_MIN || v > INT32_MAX))) {
        snprintf(err, errlen, "'%s' is out of range for %s", text, npx_dtype_name(t));
        return -1;
    }
    if (t == NPX_I32)
        *(int32_t *)out = (int32_t)v;
    else
        *(int64_t *)out = (int64_t)v;
    return 0;
}

static int npx_scalar_bool(const char *text, void *out, char *err, size_t errlen)
{
    static const char *const truth[] = {"True", "true", "1", "False", "false", "0"};
    for (int k = 0; k < 6; k++) {
        if (strcmp(text, truth[k]) == 0) {
            *(bool *)out = k < 3;
            return 0;
        }
    }
    snprintf(err, errlen, "'%s' is not a bool (True, False, 1 or 0)", text);
    return -1;
}

int npx_parse_scalar(const char *text, npx_dtype t, void *out, char *err, size_t errlen)
{
    if (!text[0] || text[0] == ' ' || text[0] == '\t' || text[0] == '\n') {
        snprintf(err, errlen, "'%s' is not a number", text);
        return -1;
    }
    switch (t) {
    case NPX_F32:
    case NPX_F64: return npx_scalar_float(text, t, out, err, errlen);
    case NPX_I32:
    case NPX_I64: return npx_scalar_int(text, t, out, err, errlen);
    case NPX_BOOL: return npx_scalar_bool(text, out, err, errlen);
    default:
        snprintf(err, errlen, "unknown dtype");
        return -1;
    }
}
