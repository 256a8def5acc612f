/* print.c: --print. Prints an array the way NumPy 2.x's repr does: the same
 * float formatting (shortest round-trip digits up to 8, one format for the
 * whole array, scientific notation by NumPy's rule), 75-column wrapping, and
 * the summary with "..." beyond 1000 elements. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "npx_rt.h"

#define NPX_PR_WIDTH 75
#define NPX_PR_EDGE 3
#define NPX_PR_THRESHOLD 1000

/* How one array prints: the layout and the one format of its elements. */
typedef struct {
    FILE *out;
    const npx_array *a;
    bool summarize;             /* more than 1000 elements: show corners */
    int col;                    /* current output column, from "array(" */
    /* floats */
    bool exp;                   /* scientific notation */
    int pad_left, pad_right;    /* widths around the point (positional) */
    int prec, exp_size;         /* scientific: mantissa digits, exponent digits */
    /* integers and floats' first pass */
    int width;
    bool any_nonfinite, neg_inf, any_finite;
    double max_abs, min_abs;    /* over finite nonzero values */
} npx_pr;

static long long npx_pr_get_int(const npx_array *a, int64_t i)
{
    return a->dtype == NPX_I64 ? (long long)((const int64_t *)a->data)[i]
                               : (long long)npx_array_get(a, i);
}

/* Calls fn on the flat index of every element that is shown. */
static void npx_pr_visit(npx_pr *pr, int axis, int64_t base, void (*fn)(npx_pr *, int64_t))
{
    const npx_array *a = pr->a;
    if (axis == a->ndim) {
        fn(pr, base);
        return;
    }
    int64_t n = a->shape[axis];
    bool cut = pr->summarize && n > 2 * NPX_PR_EDGE;
    for (int64_t i = 0; i < n; i++) {
        if (cut && i == NPX_PR_EDGE)
            i = n - NPX_PR_EDGE;
        npx_pr_visit(pr, axis + 1, base * n + i, fn);
    }
}

/* Fewest digits (0..8) after the point that give x back: %.*f or %.*e. */
static int npx_pr_digits(const npx_pr *pr, double x, char conv)
{
    char buf[512];
    char fmt[8] = {'%', '.', '*', conv, 0};
    for (int p = 0; p < 8; p++) {
        snprintf(buf, sizeof buf, fmt, p, x);
        if (pr->a->dtype == NPX_F32 ? strtof(buf, NULL) == (float)x : strtod(buf, NULL) == x)
            return p;
    }
    snprintf(buf, sizeof buf, fmt, 8, x);
    char *end = conv == 'e' ? strchr(buf, 'e') : buf + strlen(buf);
    int p = 8;
    while (p > 0 && end[-1] == '0') {
        end--;
        p--;
    }
    return p;
}

static void npx_pr_scan(npx_pr *pr, int64_t i)
{
    double x = npx_array_get(pr->a, i), ax = fabs(x);
    if (!isfinite(x)) {
        pr->any_nonfinite = true;
        pr->neg_inf |= x < 0;
        return;
    }
    pr->any_finite = true;
    if (ax != 0 && (pr->max_abs < 0 || ax > pr->max_abs))
        pr->max_abs = ax;
    if (ax != 0 && (pr->min_abs < 0 || ax < pr->min_abs))
        pr->min_abs = ax;
}

static void npx_pr_measure(npx_pr *pr, int64_t i)
{
    double x = npx_array_get(pr->a, i);
    char buf[512];
    if (!isfinite(x))
        return;
    int p = npx_pr_digits(pr, x, pr->exp ? 'e' : 'f');
    snprintf(buf, sizeof buf, pr->exp ? "%.*e" : "%.*f", p, x);
    int ilen = (int)strcspn(buf, ".e");
    pr->pad_left = ilen > pr->pad_left ? ilen : pr->pad_left;
    if (pr->exp) {
        int elen = (int)strlen(strchr(buf, 'e') + 2);
        pr->prec = p > pr->prec ? p : pr->prec;
        pr->exp_size = elen > pr->exp_size ? elen : pr->exp_size;
    } else {
        pr->pad_right = p > pr->pad_right ? p : pr->pad_right;
    }
}

static void npx_pr_float_format(npx_pr *pr)
{
    pr->max_abs = pr->min_abs = -1;
    npx_pr_visit(pr, 0, 0, npx_pr_scan);
    double cutoff = pr->a->dtype == NPX_F32 ? 1e6 : 1e8;
    if (pr->max_abs > 0)
        pr->exp = pr->max_abs >= cutoff || pr->min_abs < 1e-4 || pr->max_abs / pr->min_abs > 1e3;
    npx_pr_visit(pr, 0, 0, npx_pr_measure);
    if (pr->exp)
        pr->pad_right = pr->exp_size + 2 + pr->prec;
    if (pr->any_nonfinite) {
        int offset = pr->pad_right + 1;
        if (3 - offset > pr->pad_left)
            pr->pad_left = 3 - offset;
        if (3 + pr->neg_inf - offset > pr->pad_left)
            pr->pad_left = 3 + pr->neg_inf - offset;
    }
}

static void npx_pr_int_width(npx_pr *pr, int64_t i)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%lld", npx_pr_get_int(pr->a, i));
    pr->width = n > pr->width ? n : pr->width;
}

/* A scientific number in the array's format: "1.500e-05". */
static void npx_pr_sci(const npx_pr *pr, double x, char *buf, size_t len)
{
    char raw[64];
    snprintf(raw, sizeof raw, "%.*e", pr->prec, x);
    char *e = strchr(raw, 'e');
    *e = 0;
    const char *frac = strchr(raw, '.');
    int ilen = frac ? (int)(frac - raw) : (int)strlen(raw);
    snprintf(buf, len, "%*s%.*s.%s%c%c%0*d", pr->pad_left - ilen, "", ilen, raw,
             frac ? frac + 1 : "", 'e', e[1], pr->exp_size, atoi(e + 2));
}

/* One element, padded to the array's width. */
static void npx_pr_elem(const npx_pr *pr, int64_t i, char *buf, size_t len)
{
    const npx_array *a = pr->a;
    if (a->dtype == NPX_BOOL) {
        snprintf(buf, len, "%s", npx_array_get(a, i) ? (a->ndim ? " True" : "True") : "False");
        return;
    }
    if (a->dtype == NPX_I32 || a->dtype == NPX_I64) {
        snprintf(buf, len, "%*lld", pr->width, npx_pr_get_int(a, i));
        return;
    }
    double x = npx_array_get(a, i);
    if (!isfinite(x)) {
        snprintf(buf, len, "%*s", pr->pad_left + pr->pad_right + 1,
                 isnan(x) ? "nan" : x < 0 ? "-inf" : "inf");
    } else if (pr->exp) {
        npx_pr_sci(pr, x, buf, len);
    } else {
        char raw[512];
        int p = npx_pr_digits(pr, x, 'f');
        snprintf(raw, sizeof raw, "%.*f", p, x);
        int ilen = (int)strcspn(raw, ".");
        const char *frac = raw[ilen] ? raw + ilen + 1 : "";
        snprintf(buf, len, "%*s%.*s.%s%*s", pr->pad_left - ilen, "", ilen, raw, frac,
                 pr->pad_right - p, "");
    }
}

static void npx_pr_put(npx_pr *pr, const char *s)
{
    fputs(s, pr->out);
    const char *nl = strrchr(s, '\n');
    pr->col = nl ? (int)strlen(nl + 1) : pr->col + (int)strlen(s);
}

static void npx_pr_indent(npx_pr *pr, int n)
{
    for (int k = 0; k < n; k++)
        npx_pr_put(pr, " ");
}

/* The last axis: words separated by ", ", wrapped before the width. */
static void npx_pr_row(npx_pr *pr, int64_t base, int indent, int width)
{
    int64_t n = pr->a->shape[pr->a->ndim - 1];
    bool cut = pr->summarize && n > 2 * NPX_PR_EDGE;
    int elem_width = width - 1;
    char word[600];
    for (int64_t i = 0; i < n; i++) {
        if (cut && i == NPX_PR_EDGE) {
            snprintf(word, sizeof word, "...");
            i = n - NPX_PR_EDGE - 1;
        } else {
            npx_pr_elem(pr, base * n + i, word, sizeof word);
        }
        if (i > 0) {
            bool wrap = pr->col + 1 + (int)strlen(word) > elem_width && pr->col + 1 > indent;
            npx_pr_put(pr, wrap ? "\n" : " ");
            if (wrap)
                npx_pr_indent(pr, indent);
        }
        npx_pr_put(pr, word);
        if (i < n - 1)
            npx_pr_put(pr, ",");
    }
}

/* One axis and those below it: "[...]", rows separated by ",\n". */
static void npx_pr_axis(npx_pr *pr, int axis, int64_t base, int indent, int width)
{
    const npx_array *a = pr->a;
    npx_pr_put(pr, "[");
    if (axis == a->ndim - 1) {
        npx_pr_row(pr, base, indent, width);
        npx_pr_put(pr, "]");
        return;
    }
    int64_t n = a->shape[axis];
    bool cut = pr->summarize && n > 2 * NPX_PR_EDGE;
    char sep[NPX_MAX_RANK + 2] = ",";
    for (int k = 0; k < a->ndim - axis - 1; k++)
        sep[k + 1] = '\n';
    for (int64_t i = 0; i < n; i++) {
        if (i > 0)
            npx_pr_indent(pr, indent);
        if (cut && i == NPX_PR_EDGE) {
            npx_pr_put(pr, "...");
            npx_pr_put(pr, sep);
            npx_pr_indent(pr, indent);
            i = n - NPX_PR_EDGE;
        }
        npx_pr_axis(pr, axis + 1, base * n + i, indent + 1, width - 1);
        if (i < n - 1)
            npx_pr_put(pr, sep);
    }
    npx_pr_put(pr, "]");
}

/* ", shape=(...), dtype=...)" where NumPy adds them. */
static void npx_pr_extras(npx_pr *pr, int64_t size)
{
    const npx_array *a = pr->a;
    char extra[NPX_MAX_RANK * 24 + 64] = "", shape[NPX_MAX_RANK * 24 + 4];
    bool implied = a->dtype == NPX_F64 || a->dtype == NPX_I64 || a->dtype == NPX_BOOL;
    if ((size == 0 && !(a->ndim == 1)) || size > NPX_PR_THRESHOLD)
        snprintf(extra, sizeof extra, "shape=%s",
                 npx_shape_str(shape, sizeof shape, a->ndim, a->shape));
    if (!implied || size == 0)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), "%sdtype=%s",
                 extra[0] ? ", " : "", npx_dtype_numpy_name(a->dtype));
    if (!extra[0]) {
        npx_pr_put(pr, ")");
        return;
    }
    npx_pr_put(pr, ",");
    if (pr->col + (int)strlen(extra) + 2 > NPX_PR_WIDTH)
        npx_pr_put(pr, "\n      ");
    else
        npx_pr_put(pr, " ");
    npx_pr_put(pr, extra);
    npx_pr_put(pr, ")");
}

void npx_array_print(FILE *out, const char *name, const npx_array *a)
{
    npx_pr pr;
    memset(&pr, 0, sizeof pr);
    pr.out = out;
    pr.a = a;
    int64_t size = npx_array_size(a);
    pr.summarize = size > NPX_PR_THRESHOLD;
    fprintf(out, "%s = ", name);
    npx_pr_put(&pr, "array(");
    if (size > 0 && (a->dtype == NPX_F32 || a->dtype == NPX_F64))
        npx_pr_float_format(&pr);
    else if (size > 0 && a->dtype != NPX_BOOL)
        npx_pr_visit(&pr, 0, 0, npx_pr_int_width);
    char word[600];
    if (size == 0) {
        npx_pr_put(&pr, "[]");
    } else if (a->ndim == 0) {
        npx_pr_elem(&pr, 0, word, sizeof word);
        npx_pr_put(&pr, word);
    } else {
        npx_pr_axis(&pr, 0, 0, 7, NPX_PR_WIDTH);
    }
    npx_pr_extras(&pr, size);
    fputc('\n', out);
}
