/* dtype.c: NumPy's dtype rules for the five dtypes npxc has: promotion of two
 * arrays, same-kind casting, and the names a .npx file may use. The weak
 * Python scalars of NEP 50 are handled where operands meet (ir/build.c). */
#include <string.h>
#include "ir.h"

bool dtype_is_int(npx_dtype t) { return t == NPX_I32 || t == NPX_I64; }
bool dtype_is_float(npx_dtype t) { return t == NPX_F32 || t == NPX_F64; }

/* The five dtypes' spellings, from the runtime's table. */
static const struct {
    const char *name, *enum_name, *ctype;
    int size;
} dtype_info[] = {
#define X(e, name, ctype, descr) { name, #e, #ctype, (int)sizeof(ctype) },
    NPX_DTYPES(X)
#undef X
};

const char *dtype_name(npx_dtype t) { return dtype_info[t].name; }
const char *dtype_enum(npx_dtype t) { return dtype_info[t].enum_name; }
const char *dtype_ctype(npx_dtype t) { return dtype_info[t].ctype; }
int dtype_size(npx_dtype t) { return dtype_info[t].size; }
const char *dtype_python_type(npx_dtype t) { return t == NPX_BOOL ? "bool" : dtype_is_int(t) ? "int" : "float"; }

static int kind(npx_dtype t) { return t == NPX_BOOL ? 0 : dtype_is_int(t) ? 1 : 2; }

/* numpy.promote_types restricted to bool, int32, int64, float32, float64. */
npx_dtype dtype_promote(npx_dtype a, npx_dtype b)
{
    if (a == b)
        return a;
    if (a == NPX_BOOL)
        return b;
    if (b == NPX_BOOL)
        return a;
    if (kind(a) == kind(b))
        return a > b ? a : b;            /* i32 < i64, f32 < f64 */
    /* an int and a float: f32 cannot hold every int32, so both go to f64 */
    return NPX_F64;
}

static const struct { const char *name; npx_dtype t; } dtype_names[] = {
    { "bool", NPX_BOOL }, { "bool_", NPX_BOOL },
    { "i32", NPX_I32 }, { "int32", NPX_I32 },
    { "i64", NPX_I64 }, { "int64", NPX_I64 }, { "int", NPX_I64 }, { "int_", NPX_I64 },
    { "f32", NPX_F32 }, { "float32", NPX_F32 }, { "single", NPX_F32 },
    { "f64", NPX_F64 }, { "float64", NPX_F64 }, { "float", NPX_F64 }, { "double", NPX_F64 },
};

bool dtype_from_name(const char *name, npx_dtype *out)
{
    for (size_t i = 0; i < sizeof dtype_names / sizeof dtype_names[0]; i++)
        if (strcmp(name, dtype_names[i].name) == 0) {
            *out = dtype_names[i].t;
            return true;
        }
    return false;
}

npx_dtype dtype_default(npx_dtype t)
{
    return t == NPX_BOOL ? NPX_BOOL : dtype_is_int(t) ? NPX_I64 : NPX_F64;
}
