/* npy_read.c: the .npy reader (format 1.0, 2.0, 3.0; little-endian, C order;
 * bool, int32, int64, float32, float64). Each malformed or unsupported file
 * gets its own sentence in err, never an exit, so npxcmp and fuzzers can use
 * it too. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "npx_rt.h"

#define NPX_NPY_MAX_HEADER (1 << 20)

/* What the header dict says. */
typedef struct {
    char descr[64];             /* the 'descr' string, e.g. "<f4" */
    bool descr_list;            /* 'descr' is a list: a structured dtype */
    int fortran;                /* -1 missing, else 0 / 1 */
    int ndim;                   /* -1 missing; may exceed NPX_MAX_RANK */
    int64_t shape[NPX_MAX_RANK];
    int64_t bad_dim;            /* first negative dim, 0 if none */
} npx_hdr;

/* A cursor over the header text; err/errlen receive the first problem. */
typedef struct {
    const char *p, *end;
    char *err;
    size_t errlen;
} npx_hdr_cur;

static int npx_hdr_fail(npx_hdr_cur *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int npx_hdr_fail(npx_hdr_cur *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static void npx_hdr_ws(npx_hdr_cur *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static bool npx_hdr_eat(npx_hdr_cur *c, char ch)
{
    npx_hdr_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

/* A quoted string into buf (truncated to len - 1; bytes that are not
 * printable ASCII become '?', since messages quote it). */
static int npx_hdr_string(npx_hdr_cur *c, char *buf, size_t len)
{
    npx_hdr_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return -1;
    char q = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != q) {
        unsigned char ch = (unsigned char)*c->p++;
        if (n + 1 < len)
            buf[n++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
    }
    buf[n] = 0;
    if (c->p >= c->end)
        return -1;
    c->p++;
    return 0;
}

/* A list or tuple skipped whole (a structured 'descr'). */
static int npx_hdr_skip_nested(npx_hdr_cur *c)
{
    int depth = 0;
    char q = 0;
    for (; c->p < c->end; c->p++) {
        char ch = *c->p;
        if (q) {
            q = ch == q ? 0 : q;
        } else if (ch == '\'' || ch == '"') {
            q = ch;
        } else if (ch == '[' || ch == '(') {
            depth++;
        } else if ((ch == ']' || ch == ')') && --depth == 0) {
            c->p++;
            return 0;
        }
    }
    return -1;
}

static int npx_hdr_descr(npx_hdr_cur *c, npx_hdr *h)
{
    npx_hdr_ws(c);
    if (c->p < c->end && *c->p == '[') {
        h->descr_list = true;
        snprintf(h->descr, sizeof h->descr, "[...]");
        if (npx_hdr_skip_nested(c) == 0)
            return 0;
    } else if (npx_hdr_string(c, h->descr, sizeof h->descr) == 0) {
        return 0;
    }
    return npx_hdr_fail(c, "'descr' is not a valid dtype descriptor");
}

static int npx_hdr_bool(npx_hdr_cur *c, npx_hdr *h)
{
    npx_hdr_ws(c);
    size_t left = (size_t)(c->end - c->p);
    if (left >= 4 && memcmp(c->p, "True", 4) == 0) {
        h->fortran = 1;
        c->p += 4;
    } else if (left >= 5 && memcmp(c->p, "False", 5) == 0) {
        h->fortran = 0;
        c->p += 5;
    } else {
        return npx_hdr_fail(c, "'fortran_order' is not True or False");
    }
    return 0;
}

/* One Python int: [-]digits, saturating past INT64_MAX (caught later as an
 * overflowing size). */
static int npx_hdr_int(npx_hdr_cur *c, int64_t *v)
{
    npx_hdr_ws(c);
    bool neg = c->p < c->end && *c->p == '-';
    if (neg)
        c->p++;
    if (c->p >= c->end || !isdigit((unsigned char)*c->p))
        return -1;
    uint64_t u = 0;
    while (c->p < c->end && isdigit((unsigned char)*c->p)) {
        unsigned d = (unsigned)(*c->p++ - '0');
        u = u > ((uint64_t)INT64_MAX - d) / 10 ? (uint64_t)INT64_MAX : u * 10 + d;
    }
    if (c->p < c->end && *c->p == 'L')
        c->p++;
    *v = neg ? -(int64_t)u : (int64_t)u;
    return 0;
}

/* A tuple of ints: "()", "(3,)", "(2, 3)". */
static int npx_hdr_shape(npx_hdr_cur *c, npx_hdr *h)
{
    if (!npx_hdr_eat(c, '('))
        return npx_hdr_fail(c, "'shape' is not a tuple of integers");
    bool comma = false;
    h->ndim = 0;
    while (!npx_hdr_eat(c, ')')) {
        int64_t v;
        if ((h->ndim > 0 && !comma) || npx_hdr_int(c, &v) != 0)
            return npx_hdr_fail(c, "'shape' is not a tuple of integers");
        if (h->ndim < NPX_MAX_RANK)
            h->shape[h->ndim] = v;
        if (v < 0 && h->bad_dim == 0)
            h->bad_dim = v;
        h->ndim++;
        comma = npx_hdr_eat(c, ',');
    }
    if (h->ndim == 1 && !comma)     /* "(3)" is the int 3 in Python */
        return npx_hdr_fail(c, "'shape' is not a tuple of integers");
    return 0;
}

static int npx_hdr_entry(npx_hdr_cur *c, npx_hdr *h)
{
    char key[32];
    if (npx_hdr_string(c, key, sizeof key) != 0)
        return npx_hdr_fail(c, "the header is not a valid dict (expected a quoted key)");
    if (!npx_hdr_eat(c, ':'))
        return npx_hdr_fail(c, "the header is not a valid dict (expected ':' after '%s')", key);
    bool seen = strcmp(key, "descr") == 0 ? h->descr[0] || h->descr_list
              : strcmp(key, "fortran_order") == 0 ? h->fortran >= 0
              : strcmp(key, "shape") == 0 ? h->ndim >= 0 : false;
    if (seen)
        return npx_hdr_fail(c, "the header gives the key '%s' twice", key);
    if (strcmp(key, "descr") == 0)
        return npx_hdr_descr(c, h);
    if (strcmp(key, "fortran_order") == 0)
        return npx_hdr_bool(c, h);
    if (strcmp(key, "shape") == 0)
        return npx_hdr_shape(c, h);
    return npx_hdr_fail(c, "the header has an unexpected key '%s' (a .npy header holds "
                        "exactly 'descr', 'fortran_order' and 'shape')", key);
}

/* The whole header text: a Python dict literal, then only whitespace. */
static int npx_hdr_parse(const char *text, size_t len, npx_hdr *h, char *err, size_t errlen)
{
    npx_hdr_cur c = {text, text + len, err, errlen};
    memset(h, 0, sizeof *h);
    h->fortran = -1;
    h->ndim = -1;
    if (!npx_hdr_eat(&c, '{'))
        return npx_hdr_fail(&c, "the header is not a valid dict (it does not start with '{')");
    while (!npx_hdr_eat(&c, '}')) {
        if (npx_hdr_entry(&c, h) != 0)
            return -1;
        if (!npx_hdr_eat(&c, ',') && !(c.p < c.end && *c.p == '}'))
            return npx_hdr_fail(&c, "the header is not a valid dict (expected ',' or '}')");
    }
    npx_hdr_ws(&c);
    if (c.p != c.end)
        return npx_hdr_fail(&c, "the header is not a valid dict (text after the closing '}')");
    if (!h->descr[0] && !h->descr_list)
        return npx_hdr_fail(&c, "the header has no 'descr' key");
    if (h->fortran < 0)
        return npx_hdr_fail(&c, "the header has no 'fortran_order' key");
    if (h->ndim < 0)
        return npx_hdr_fail(&c, "the header has no 'shape' key");
    return 0;
}

/* The NumPy name of a descr this runtime does not read: "complex128". */
static void npx_hdr_dtype_name(const char *descr, char *buf, size_t len)
{
    const char *d = descr[0] && strchr("<>|=", descr[0]) ? descr + 1 : descr;
    char *end = NULL;
    long bytes = d[0] ? strtol(d + 1, &end, 10) : 0;
    int bits = (int)(8 * bytes);
    if (d[0] && strchr("fciub", d[0]) && (bytes <= 0 || bytes > 64 || *end)) {
        snprintf(buf, len, "'%s'", descr);      /* not a size NumPy has */
        return;
    }
    switch (d[0]) {
    case 'f': snprintf(buf, len, "float%d", bits); return;
    case 'c': snprintf(buf, len, "complex%d", bits); return;
    case 'i': snprintf(buf, len, "int%d", bits); return;
    case 'u': snprintf(buf, len, "uint%d", bits); return;
    case 'b': snprintf(buf, len, "bool (%d bytes)", bits / 8); return;
    case 'U': snprintf(buf, len, "str"); return;
    case 'S': snprintf(buf, len, "bytes"); return;
    case 'O': snprintf(buf, len, "object"); return;
    case 'M': snprintf(buf, len, "datetime64"); return;
    case 'm': snprintf(buf, len, "timedelta64"); return;
    case 'V': snprintf(buf, len, "void"); return;
    default: snprintf(buf, len, "'%s'", descr); return;
    }
}

/* The dtype of descr, or -1 with err filled. */
static int npx_hdr_dtype(const npx_hdr *h, npx_dtype *t, char *err, size_t errlen)
{
    if (h->descr_list) {
        snprintf(err, errlen, "unsupported dtype: a structured dtype (fields); supported: "
                 "bool, int32, int64, float32, float64");
        return -1;
    }
    char order = h->descr[0];
    const char *d = order && strchr("<>|=", order) ? h->descr + 1 : h->descr;
#define X(e, nm, ct, ds)                                                  \
    if (strcmp(d, &ds[1]) == 0) {                                        \
        if (order == '>' && sizeof(ct) > 1) {                             \
            snprintf(err, errlen, "big-endian data ('%s'); convert it "  \
                     "with a.astype('%s')", h->descr, ds);                \
            return -1;                                                    \
        }                                                                 \
        *t = NPX_##e;                                                     \
        return 0;                                                         \
    }
    NPX_DTYPES(X)
#undef X
    char name[96];
    npx_hdr_dtype_name(h->descr, name, sizeof name);
    snprintf(err, errlen, "unsupported dtype %s ('%s'); supported: bool, int32, int64, "
             "float32, float64", name, h->descr);
    return -1;
}

/* Reads exactly n bytes, returning how many were there. */
static size_t npx_npy_fill(FILE *f, void *buf, size_t n)
{
    return n ? fread(buf, 1, n, f) : 0;
}

/* Magic, version and header length: the offset of the header text. */
static int npx_npy_preamble(FILE *f, uint32_t *hlen, char *err, size_t errlen)
{
    unsigned char b[12];
    size_t got = npx_npy_fill(f, b, 8);
    if (got == 0 && !ferror(f)) {
        snprintf(err, errlen, "not a .npy file (the file is empty)");
        return -1;
    }
    if (got < 6 || memcmp(b, "\x93NUMPY", 6) != 0) {
        snprintf(err, errlen, "not a .npy file (it does not start with the magic "
                 "string \\x93NUMPY)");
        return -1;
    }
    if (got < 8) {
        snprintf(err, errlen, "truncated header: the file ends inside the format version");
        return -1;
    }
    if (b[6] < 1 || b[6] > 3 || b[7] != 0) {
        snprintf(err, errlen, "unsupported .npy format version %d.%d (this program reads "
                 "1.0, 2.0 and 3.0)", b[6], b[7]);
        return -1;
    }
    size_t lsize = b[6] == 1 ? 2 : 4;
    if (npx_npy_fill(f, b + 8, lsize) < lsize) {
        snprintf(err, errlen, "truncated header: the file ends inside the header length");
        return -1;
    }
    *hlen = b[8] | (uint32_t)b[9] << 8;
    if (lsize == 4)
        *hlen |= (uint32_t)b[10] << 16 | (uint32_t)b[11] << 24;
    return 0;
}

/* The header dict, parsed and checked against what this runtime reads. */
static int npx_npy_header(FILE *f, npx_array *out, char *err, size_t errlen)
{
    uint32_t hlen;
    if (npx_npy_preamble(f, &hlen, err, errlen) != 0)
        return -1;
    if (hlen > NPX_NPY_MAX_HEADER) {
        snprintf(err, errlen, "the header length %lu is too large", (unsigned long)hlen);
        return -1;
    }
    char *text = (char *)malloc(hlen + 1);
    if (!text) {
        snprintf(err, errlen, "out of memory reading the header");
        return -1;
    }
    size_t got = npx_npy_fill(f, text, hlen);
    npx_hdr h;
    int rc = -1;
    if (got < hlen)
        snprintf(err, errlen, "truncated header: expected %lu header bytes, found %zu",
                 (unsigned long)hlen, got);
    else if (npx_hdr_parse(text, hlen, &h, err, errlen) == 0
             && npx_hdr_dtype(&h, &out->dtype, err, errlen) == 0)
        rc = 0;
    free(text);
    if (rc != 0)
        return -1;
    if (h.ndim > NPX_MAX_RANK) {
        snprintf(err, errlen, "rank %d is above the limit of %d dimensions", h.ndim,
                 NPX_MAX_RANK);
        return -1;
    }
    out->ndim = h.ndim;
    memcpy(out->shape, h.shape, sizeof h.shape);
    char shape[NPX_MAX_RANK * 24 + 4];
    npx_shape_str(shape, sizeof shape, h.ndim, h.shape);
    if (h.bad_dim < 0) {
        snprintf(err, errlen, "negative dimension %lld in shape %s", (long long)h.bad_dim, shape);
        return -1;
    }
    if (h.fortran == 1 && h.ndim > 1) {
        snprintf(err, errlen, "the data is in Fortran order (fortran_order: True); save a "
                 "C-ordered array (np.ascontiguousarray)");
        return -1;
    }
    if (npx_shape_bytes(h.ndim, h.shape, npx_dtype_size(out->dtype)) < 0) {
        snprintf(err, errlen, "shape %s of %s is too large: its size in bytes overflows",
                 shape, npx_dtype_numpy_name(out->dtype));
        return -1;
    }
    return 0;
}

/* The data after the header; bools are normalized to 0 and 1. */
static int npx_npy_data(FILE *f, npx_array *out, char *err, size_t errlen)
{
    int64_t bytes = npx_shape_bytes(out->ndim, out->shape, npx_dtype_size(out->dtype));
    size_t n = bytes > 0 ? (size_t)bytes : 0;    /* checked by the header's reader */
    out->data = malloc(n ? n : 1);
    if (!out->data) {
        snprintf(err, errlen, "out of memory: cannot allocate %zu bytes for the data", n);
        return -1;
    }
    size_t got = npx_npy_fill(f, out->data, n);
    if (got < n) {
        if (ferror(f))
            snprintf(err, errlen, "cannot read: %s", strerror(errno));
        else
            snprintf(err, errlen, "truncated data: expected %zu bytes of data, found %zu", n, got);
        free(out->data);
        out->data = NULL;
        return -1;
    }
    if (out->dtype == NPX_BOOL) {
        unsigned char *b = (unsigned char *)out->data;
        for (size_t i = 0; i < n; i++)
            b[i] = b[i] != 0;
    }
    return 0;
}

int npx_npy_read(const char *path, npx_array *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    errno = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open: %s", strerror(errno));
        return -1;
    }
    int rc = npx_npy_header(f, out, err, errlen);
    if (rc == 0)
        rc = npx_npy_data(f, out, err, errlen);
    else if (ferror(f))
        snprintf(err, errlen, "cannot read: %s", strerror(errno));
    fclose(f);
    return rc;
}
