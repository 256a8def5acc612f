/* ufuncs.h: every elementwise operation, one row each:
 *   X(name, nin, flags, bool C, int C, float C)
 * The C columns are templates the emitter fills in: $0 $1 $2 are the operands
 * (already converted to the computation dtype), $t the dtype's suffix (i32,
 * i64, f32, f64), $f the libm suffix ("f" for f32, "" for f64) and $l the
 * source line, for run-time errors. A NULL
 * column means NumPy has no loop for that kind, which is how the dtype of a
 * call is resolved (ir/dtype.c, as NumPy's ufunc type resolution does it):
 * bool inputs without a bool loop would compute in int8 or float16, which
 * npxc does not support yet; int inputs without an int loop compute in f64. */
#ifndef NPX_UFUNCS_H
#define NPX_UFUNCS_H

enum {
    UF_OUT_BOOL = 1,    /* the result is bool whatever the inputs */
    UF_INTERNAL = 2,    /* npxc's own step of a library function: no name reaches it */
    UF_OUT_I32 = 4,     /* the result is int32 whatever the inputs */
};

#define UFUNCS(X)                                                                          \
    X(add, 2, 0, "($0 | $1)", "npx_add_$t($0, $1)", "$0 + $1")                         \
    X(subtract, 2, 0, NULL, "npx_sub_$t($0, $1)", "$0 - $1")                           \
    X(multiply, 2, 0, "($0 & $1)", "npx_mul_$t($0, $1)", "$0 * $1")                    \
    X(true_divide, 2, 0, NULL, NULL, "$0 / $1")                                        \
    X(floor_divide, 2, 0, NULL, "npx_floordiv_$t($0, $1)", "npx_floordiv_$t($0, $1)")  \
    X(remainder, 2, 0, NULL, "npx_mod_$t($0, $1)", "npx_mod_$t($0, $1)")               \
    X(power, 2, 0, NULL, "npx_pow_checked_$t(st, $l, $0, $1)", "pow$f($0, $1)")                        \
    X(left_shift, 2, 0, NULL, "npx_shl_$t($0, $1)", NULL)                              \
    X(right_shift, 2, 0, NULL, "npx_shr_$t($0, $1)", NULL)                             \
    X(bitwise_and, 2, 0, "($0 & $1)", "($0 & $1)", NULL)                               \
    X(bitwise_or, 2, 0, "($0 | $1)", "($0 | $1)", NULL)                                \
    X(bitwise_xor, 2, 0, "($0 ^ $1)", "($0 ^ $1)", NULL)                               \
    X(less, 2, UF_OUT_BOOL, "$0 < $1", "$0 < $1", "$0 < $1")                           \
    X(less_equal, 2, UF_OUT_BOOL, "$0 <= $1", "$0 <= $1", "$0 <= $1")                  \
    X(greater, 2, UF_OUT_BOOL, "$0 > $1", "$0 > $1", "$0 > $1")                        \
    X(greater_equal, 2, UF_OUT_BOOL, "$0 >= $1", "$0 >= $1", "$0 >= $1")               \
    X(equal, 2, UF_OUT_BOOL, "$0 == $1", "$0 == $1", "$0 == $1")                       \
    X(not_equal, 2, UF_OUT_BOOL, "$0 != $1", "$0 != $1", "$0 != $1")                   \
    X(maximum, 2, 0, "($0 | $1)", "npx_maximum_$t($0, $1)", "npx_maximum_$t($0, $1)")  \
    X(minimum, 2, 0, "($0 & $1)", "npx_minimum_$t($0, $1)", "npx_minimum_$t($0, $1)")  \
    X(fmax, 2, 0, "($0 | $1)", "npx_maximum_$t($0, $1)", "npx_fmax_$t($0, $1)")        \
    X(fmin, 2, 0, "($0 & $1)", "npx_minimum_$t($0, $1)", "npx_fmin_$t($0, $1)")        \
    X(arctan2, 2, 0, NULL, NULL, "atan2$f($0, $1)")                                    \
    X(hypot, 2, 0, NULL, NULL, "hypot$f($0, $1)")                                      \
    X(copysign, 2, 0, NULL, NULL, "copysign$f($0, $1)")                                \
    X(heaviside, 2, 0, NULL, NULL, "npx_heaviside_$t($0, $1)")                         \
    X(logical_and, 2, UF_OUT_BOOL, "$0 && $1", "$0 != 0 && $1 != 0", "$0 != 0 && $1 != 0") \
    X(logical_or, 2, UF_OUT_BOOL, "$0 || $1", "$0 != 0 || $1 != 0", "$0 != 0 || $1 != 0")  \
    X(logical_xor, 2, UF_OUT_BOOL, "$0 != $1", "($0 != 0) != ($1 != 0)", "($0 != 0) != ($1 != 0)") \
    X(negative, 1, 0, NULL, "npx_neg_$t($0)", "-$0")                                   \
    X(positive, 1, 0, NULL, "$0", "$0")                                                \
    X(invert, 1, 0, "!$0", "~$0", NULL)                                                \
    X(absolute, 1, 0, "$0", "npx_abs_$t($0)", "fabs$f($0)")                            \
    X(logical_not, 1, UF_OUT_BOOL, "!$0", "$0 == 0", "$0 == 0")                        \
    X(isnan, 1, UF_OUT_BOOL, "false", "false", "isnan($0)")                            \
    X(isinf, 1, UF_OUT_BOOL, "false", "false", "isinf($0)")                            \
    X(isfinite, 1, UF_OUT_BOOL, "true", "true", "isfinite($0)")                        \
    X(signbit, 1, UF_OUT_BOOL, NULL, NULL, "signbit($0) != 0")                         \
    X(sign, 1, 0, NULL, "npx_sign_$t($0)", "npx_sign_$t($0)")                          \
    X(square, 1, 0, NULL, "npx_mul_$t($0, $0)", "$0 * $0")                             \
    X(reciprocal, 1, 0, NULL, "npx_f64_to_$t(1.0 / $0)", "1 / $0")                       \
    X(floor, 1, 0, "$0", "$0", "floor$f($0)")                                          \
    X(ceil, 1, 0, "$0", "$0", "ceil$f($0)")                                            \
    X(trunc, 1, 0, "$0", "$0", "trunc$f($0)")                                          \
    X(rint, 1, 0, NULL, NULL, "rint$f($0)")                                            \
    X(sqrt, 1, 0, NULL, NULL, "sqrt$f($0)")                                            \
    X(exp, 1, 0, NULL, NULL, "exp$f($0)")                                              \
    X(exp2, 1, 0, NULL, NULL, "exp2$f($0)")                                            \
    X(expm1, 1, 0, NULL, NULL, "expm1$f($0)")                                          \
    X(log, 1, 0, NULL, NULL, "log$f($0)")                                              \
    X(log2, 1, 0, NULL, NULL, "log2$f($0)")                                            \
    X(log10, 1, 0, NULL, NULL, "log10$f($0)")                                          \
    X(log1p, 1, 0, NULL, NULL, "log1p$f($0)")                                          \
    X(sin, 1, 0, NULL, NULL, "sin$f($0)")                                              \
    X(cos, 1, 0, NULL, NULL, "cos$f($0)")                                              \
    X(tan, 1, 0, NULL, NULL, "tan$f($0)")                                              \
    X(arcsin, 1, 0, NULL, NULL, "asin$f($0)")                                          \
    X(arccos, 1, 0, NULL, NULL, "acos$f($0)")                                          \
    X(arctan, 1, 0, NULL, NULL, "atan$f($0)")                                          \
    X(sinh, 1, 0, NULL, NULL, "sinh$f($0)")                                            \
    X(cosh, 1, 0, NULL, NULL, "cosh$f($0)")                                            \
    X(tanh, 1, 0, NULL, NULL, "tanh$f($0)")                                            \
    X(arcsinh, 1, 0, NULL, NULL, "asinh$f($0)")                                        \
    X(arccosh, 1, 0, NULL, NULL, "acosh$f($0)")                                        \
    X(arctanh, 1, 0, NULL, NULL, "atanh$f($0)")                                        \
    X(cbrt, 1, 0, NULL, NULL, "cbrt$f($0)")                                            \
    X(fabs, 1, 0, NULL, NULL, "fabs$f($0)")                                            \
    X(deg2rad, 1, 0, NULL, NULL, "$0 * (3.14159265358979323846$f / 180.0$f)")          \
    X(rad2deg, 1, 0, NULL, NULL, "$0 * (180.0$f / 3.14159265358979323846$f)")          \
    X(where, 3, 0, "$0 ? $1 : $2", "$0 ? $1 : $2", "$0 ? $1 : $2")                     \
    X(weights_divide, 2, UF_INTERNAL, NULL, NULL, "npx_weights_divide_$t(st, $l, $0, $1)")     \
    X(unravel_checked, 2, UF_INTERNAL, NULL, "npx_unravel_checked(st, $l, $0, $1)", NULL)               \
    X(range_checked, 2, UF_INTERNAL, NULL, NULL, "npx_range_checked_$t(st, $l, $0, $1)")                \
    X(bins_checked, 2, UF_INTERNAL, NULL, "npx_bins_checked(st, $l, $0, $1)", NULL)                    \
    X(monotonic_checked, 1, UF_INTERNAL, NULL, "npx_monotonic_checked(st, $l, $0)", NULL)               \
    X(increasing_checked, 2, UF_INTERNAL, NULL, "npx_increasing_checked_$t(st, $l, $0, $1)",            \
      "npx_increasing_checked_$t(st, $l, $0, $1)")                                                      \
    X(frexp_mantissa, 1, UF_INTERNAL, NULL, NULL, "npx_frexp_mantissa_$t($0)")                          \
    X(frexp_exponent, 1, UF_INTERNAL | UF_OUT_I32, NULL, NULL, "npx_frexp_exponent_$t($0)")

typedef enum {
#define X(name, nin, flags, b, i, f) UF_##name,
    UFUNCS(X)
#undef X
    UF_COUNT
} Ufunc;

typedef struct {
    const char *name;
    int nin, flags;
    const char *c_bool, *c_int, *c_float;
} UfuncInfo;

extern const UfuncInfo ufunc_info[UF_COUNT];

/* NumPy's other names for the same ufuncs: X(alias, ufunc) */
#define UFUNC_ALIASES(X)            \
    X("abs", UF_absolute)           \
    X("divide", UF_true_divide)     \
    X("mod", UF_remainder)          \
    X("bitwise_not", UF_invert)     \
    X("bitwise_invert", UF_invert)  \
    X("pow", UF_power)              \
    X("radians", UF_deg2rad)        \
    X("degrees", UF_rad2deg)

#endif
