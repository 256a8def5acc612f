/* c_names.c: the names a generated file cannot give a variable: C11's and
 * C++'s keywords (the CUDA file is C++), what its headers declare and the
 * generated code uses (libm in all three precisions, the C library's macros
 * and types, OpenMP's and CUDA's names), and the emitters' own variables. A
 * source name among them gets another C name (schedule.c). */
#include <string.h>
#include "ir.h"

static const char *const reserved[] = {
    /* C11 */
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
    "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
    "volatile", "while", "bool", "true", "false", "main",
    /* C++ */
    "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "catch", "class", "compl", "concept",
    "consteval", "constexpr", "constinit", "const_cast", "decltype", "delete", "dynamic_cast", "explicit",
    "export", "friend", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator",
    "or", "or_eq", "private", "protected", "public", "reinterpret_cast", "requires", "static_assert",
    "static_cast", "template", "this", "thread_local", "throw", "try", "typeid", "typename", "using",
    "virtual", "xor", "xor_eq", "std",
    /* the C library's macros and types, and what generated code calls besides libm */
    "NULL", "NAN", "INFINITY", "HUGE_VAL", "HUGE_VALF", "HUGE_VALL", "EOF", "errno", "assert", "stdin",
    "stdout", "stderr", "FILE", "BUFSIZ", "CHAR_BIT", "EXIT_SUCCESS", "EXIT_FAILURE", "CLOCKS_PER_SEC",
    "MATH_ERRNO", "MATH_ERREXCEPT", "offsetof", "va_list", "va_start", "va_end", "va_arg", "va_copy",
    /* errno's */
    "EDOM", "ERANGE", "EILSEQ", "EINVAL", "ENOMEM", "EAGAIN", "EACCES", "EBADF", "EBUSY", "EEXIST", "EFAULT",
    "EFBIG", "EINTR", "EIO", "EISDIR", "EMFILE", "ENFILE", "ENODEV", "ENOENT", "ENOEXEC", "ENOSPC", "ENOTDIR",
    "ENOTTY", "ENXIO", "EPERM", "EPIPE", "EROFS", "ESPIPE", "ESRCH", "EXDEV", "E2BIG", "ECHILD", "EMLINK",
    "EOVERFLOW", "ETIMEDOUT", "EDEADLK", "ENAMETOOLONG", "ENOLCK", "ENOSYS", "ENOTEMPTY", "ELOOP",
    "memcpy", "memset", "isnan", "isinf", "isfinite", "signbit", "fpclassify", "isnormal",
    /* CUDA */
    "dim3", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "uint3",
    /* the emitters' own variables */
    "st", "i", "j", "k", "p", "acc", "best", "elem", "shape", "a_ip", "accs", "parts", "ib", "q", "quads",
    "lo", "hi", "mine", "bin", "hists", "nan_seen", "lane", "half", "part", "o", "rest", "bins", "ev",
    "dev_status", "part_at", "elem_at", "at", "end", "strip", "graph", "rows_bytes", "rows_shared", "shared_rows",
    "chunk_elem", "chunk_best", "splits", "share", "task", "j_from", "j_to", "parts_at", "rest_o", "rest_j",
    "grid_step", "rest_step", "tile", "tile_total", "before", "carry", "up", "warp", NULL,
};

/* libm, each also with the suffixes f and l */
static const char *const math[] = {
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logb", "sqrt", "cbrt", "pow", "sin", "cos",
    "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "floor",
    "ceil", "fabs", "abs", "hypot", "trunc", "rint", "lrint", "llrint", "round", "lround", "llround",
    "nearbyint", "fmax", "fmin", "fmod", "remainder", "remquo", "copysign", "nan", "erf", "erfc", "lgamma",
    "tgamma", "frexp", "ldexp", "modf", "scalbn", "scalbln", "ilogb", "fdim", "fma", "nextafter",
    "nexttoward", "sincos", NULL,
};

bool ir_c_reserved(const char *s)
{
    for (int i = 0; reserved[i]; i++)
        if (strcmp(reserved[i], s) == 0)
            return true;
    size_t n = strlen(s);
    for (int i = 0; math[i]; i++) {
        size_t m = strlen(math[i]);
        if (strncmp(math[i], s, m) == 0 && (n == m || (n == m + 1 && (s[m] == 'f' || s[m] == 'l'))))
            return true;
    }
    return (n > 2 && strcmp(s + n - 2, "_t") == 0) || ir_c_reserved_prefix(s);   /* int64_t, size_t */
}

bool ir_c_reserved_prefix(const char *s)
{
    static const char *const prefixes[] = { "npx_", "NPX_", "omp_", "cuda", "cublas", "__", "INT_", "INT8_",
                                            "INT16_", "INT32_", "INT64_", "INTMAX_", "INTPTR_", "UINT", "SIZE_",
                                            "PTRDIFF_", "FLT_", "DBL_", "LDBL_", "M_", "FP_", NULL };
    for (int i = 0; prefixes[i]; i++)
        if (strncmp(s, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
    size_t n = strlen(s);                        /* CHAR_MAX, LONG_MIN: limits.h's */
    bool upper = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") == n;
    if (upper && n > 4 && (strcmp(s + n - 4, "_MAX") == 0 || strcmp(s + n - 4, "_MIN") == 0))
        return true;
    return s[0] == '_' && s[1] >= 'A' && s[1] <= 'Z';             /* _Bool, _Atomic */
}
