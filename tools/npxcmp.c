/* npxcmp.c: compares .npy outputs (SPEC section 4).
 *   npxcmp A B [--rtol R] [--atol A]
 * A and B are two .npy files or two directories (every .npy in one must be in
 * the other). Dtypes and shapes must match; integers and bools exactly;
 * floats |a-b| <= atol + rtol*|b|, NaN equal to NaN, infinities equal when
 * their signs are. For each file prints the largest absolute and relative
 * errors and the first failing index. When A holds a trace.txt (--trace),
 * files are compared in statement order and the first source line whose
 * values differ is named. Exit: 0 all match, 1 differences, 2 usage or an
 * unreadable file. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "runtime/npx_rt.h"

typedef struct {
    double rtol, atol;
    bool rtol_set, atol_set;
} Tol;

/* How two arrays of the same dtype and shape differ. */
typedef struct {
    int64_t bad;                /* elements that fail */
    int64_t first;              /* flat index of the first, -1 if none */
    double max_abs, max_rel;
} Diff;

static bool cmp_int_equal(const npx_array *a, const npx_array *b, int64_t i)
{
    if (a->dtype == NPX_I64)
        return ((const int64_t *)a->data)[i] == ((const int64_t *)b->data)[i];
    return npx_array_get(a, i) == npx_array_get(b, i);
}

/* One element pair: whether it matches, and its errors (inf when a NaN or
 * infinity does not match). */
static bool cmp_elem(const npx_array *a, const npx_array *b, int64_t i, const Tol *t,
                     double *abs_err, double *rel_err)
{
    double x = npx_array_get(a, i), y = npx_array_get(b, i);
    bool fl = a->dtype == NPX_F32 || a->dtype == NPX_F64;
    *abs_err = *rel_err = 0;
    if (fl && (isnan(x) || isnan(y) || isinf(x) || isinf(y))) {
        bool same = (isnan(x) && isnan(y)) || x == y;
        *abs_err = *rel_err = same ? 0 : INFINITY;
        return same;
    }
    *abs_err = fabs(x - y);
    *rel_err = y != 0 ? *abs_err / fabs(y) : *abs_err != 0 ? INFINITY : 0;
    if (!fl)
        return cmp_int_equal(a, b, i);
    return *abs_err <= t->atol + t->rtol * fabs(y);
}

static Diff cmp_arrays(const npx_array *a, const npx_array *b, const Tol *t)
{
    Diff d = {0, -1, 0, 0};
    int64_t n = npx_array_size(a);
    for (int64_t i = 0; i < n; i++) {
        double ae, re;
        if (!cmp_elem(a, b, i, t, &ae, &re)) {
            d.bad++;
            if (d.first < 0)
                d.first = i;
        }
        d.max_abs = ae > d.max_abs ? ae : d.max_abs;
        d.max_rel = re > d.max_rel ? re : d.max_rel;
    }
    return d;
}

/* The default tolerances of a dtype, where not given. */
static Tol cmp_tol_for(const Tol *given, npx_dtype dt)
{
    Tol t = *given;
    if (!t.rtol_set)
        t.rtol = dt == NPX_F32 ? 1e-5 : dt == NPX_F64 ? 1e-12 : 0;
    if (!t.atol_set)
        t.atol = dt == NPX_F32 ? 1e-6 : dt == NPX_F64 ? 1e-14 : 0;
    return t;
}

/* Flat index i of an array as a tuple: "(1, 2)". */
static void cmp_index_str(const npx_array *a, int64_t i, char *buf, size_t len)
{
    int64_t idx[NPX_MAX_RANK];
    for (int k = a->ndim - 1; k >= 0; k--) {
        idx[k] = a->shape[k] ? i % a->shape[k] : 0;
        i = a->shape[k] ? i / a->shape[k] : 0;
    }
    npx_shape_str(buf, len, a->ndim, idx);
}

static void cmp_value_str(const npx_array *a, int64_t i, char *buf, size_t len)
{
    if (a->dtype == NPX_F32 || a->dtype == NPX_F64)
        snprintf(buf, len, "%.*g", a->dtype == NPX_F32 ? 9 : 17, npx_array_get(a, i));
    else if (a->dtype == NPX_BOOL)
        snprintf(buf, len, "%s", npx_array_get(a, i) ? "True" : "False");
    else
        snprintf(buf, len, "%lld", a->dtype == NPX_I64
                 ? (long long)((const int64_t *)a->data)[i] : (long long)npx_array_get(a, i));
}

/* Compares two read arrays and prints the line for label. 0 or 1. */
static int cmp_report(const char *label, const npx_array *a, const npx_array *b, const Tol *given)
{
    char sa[NPX_MAX_RANK * 24 + 4], sb[NPX_MAX_RANK * 24 + 4];
    if (a->dtype != b->dtype) {
        printf("%s: FAIL: dtype differs: %s in A, %s in B\n", label,
               npx_dtype_numpy_name(a->dtype), npx_dtype_numpy_name(b->dtype));
        return 1;
    }
    npx_shape_str(sa, sizeof sa, a->ndim, a->shape);
    npx_shape_str(sb, sizeof sb, b->ndim, b->shape);
    if (strcmp(sa, sb) != 0) {
        printf("%s: FAIL: shape differs: %s in A, %s in B\n", label, sa, sb);
        return 1;
    }
    Tol t = cmp_tol_for(given, a->dtype);
    Diff d = cmp_arrays(a, b, &t);
    printf("%s: %s: max abs err %.3g, max rel err %.3g", label, d.bad ? "FAIL" : "ok",
           d.max_abs, d.max_rel);
    if (d.bad) {
        char idx[NPX_MAX_RANK * 24 + 4], va[64], vb[64];
        cmp_index_str(a, d.first, idx, sizeof idx);
        cmp_value_str(a, d.first, va, sizeof va);
        cmp_value_str(b, d.first, vb, sizeof vb);
        printf("; %lld of %lld elements differ (rtol %g, atol %g); first failing index %s: "
               "%s in A, %s in B", (long long)d.bad, (long long)npx_array_size(a), t.rtol,
               t.atol, idx, va, vb);
    }
    printf("\n");
    return d.bad ? 1 : 0;
}

/* Two .npy files: 0 match, 1 differ, 2 unreadable. */
static int cmp_files(const char *label, const char *pa, const char *pb, const Tol *t)
{
    npx_array a, b;
    char err[512];
    int rc = 2;
    if (npx_npy_read(pa, &a, err, sizeof err) != 0) {
        fprintf(stderr, "npxcmp: error: %s: %s\n", pa, err);
        return 2;
    }
    if (npx_npy_read(pb, &b, err, sizeof err) != 0)
        fprintf(stderr, "npxcmp: error: %s: %s\n", pb, err);
    else
        rc = cmp_report(label, &a, &b, t);
    free(a.data);
    if (rc != 2)
        free(b.data);
    return rc;
}

/* ---- directories -------------------------------------------------------- */

/* A list of names. */
typedef struct {
    char **s;
    int n, cap;
} Names;

static int names_add(Names *l, const char *s)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 32;
        char **grown = (char **)realloc(l->s, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        l->s = grown;
        l->cap = cap;
    }
    size_t len = strlen(s) + 1;
    if (!(l->s[l->n] = (char *)malloc(len)))
        return -1;
    memcpy(l->s[l->n++], s, len);
    return 0;
}

static int names_find(const Names *l, const char *s)
{
    for (int k = 0; k < l->n; k++)
        if (strcmp(l->s[k], s) == 0)
            return k;
    return -1;
}

static void names_free(Names *l)
{
    for (int k = 0; k < l->n; k++)
        free(l->s[k]);
    free(l->s);
}

static int names_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .npy files of dir, sorted. */
static int cmp_list(const char *dir, Names *out)
{
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return -1;
    }
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL && rc == 0) {
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".npy") == 0)
            rc = names_add(out, e->d_name);
    }
    closedir(d);
    if (out->n > 1)
        qsort(out->s, (size_t)out->n, sizeof *out->s, names_cmp);
    return rc;
}

/* A directory's trace.txt: files in statement order, and each file's
 * "LINE<TAB>TEXT". Absent trace.txt: nothing. */
static int cmp_trace(const char *dir, Names *files, Names *where)
{
    char *path = npx_path_join(dir, "trace.txt");
    FILE *f = path ? fopen(path, "r") : NULL;
    free(path);
    if (!f)
        return 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] == '\n')
            line[len - 1] = 0;
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = 0;
        rc = names_add(files, line) | names_add(where, tab + 1);
    }
    free(line);
    fclose(f);
    return rc;
}

/* "y.2.npy" names the value y. */
static void cmp_value_name(const char *file, char *buf, size_t len)
{
    snprintf(buf, len, "%s", file);
    char *dot = strrchr(buf, '.');
    if (dot)
        *dot = 0;
    dot = strrchr(buf, '.');
    if (dot && dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1))
        *dot = 0;
}

/* The order to compare in: trace order first, then the rest of A sorted. */
static int cmp_order(const Names *trace, const Names *in_a, Names *order)
{
    int rc = 0;
    for (int k = 0; k < trace->n && rc == 0; k++)
        if (names_find(in_a, trace->s[k]) >= 0 && names_find(order, trace->s[k]) < 0)
            rc = names_add(order, trace->s[k]);
    for (int k = 0; k < in_a->n && rc == 0; k++)
        if (names_find(order, in_a->s[k]) < 0)
            rc = names_add(order, in_a->s[k]);
    return rc;
}

/* One file of A against B. */
static int cmp_dir_entry(const char *da, const char *db, const char *name, const Names *in_b,
                         const Tol *t)
{
    if (names_find(in_b, name) < 0) {
        printf("%s: FAIL: missing in B (%s)\n", name, db);
        return 1;
    }
    char *pa = npx_path_join(da, name), *pb = npx_path_join(db, name);
    int rc = pa && pb ? cmp_files(name, pa, pb, t) : 2;
    free(pa);
    free(pb);
    return rc;
}

/* "first difference at TEXT (line N): NAME" for the first failing file
 * listed in the trace. */
static void cmp_first_difference(const char *file, const Names *trace, const Names *where)
{
    int k = names_find(trace, file);
    if (k < 0)
        return;
    char value[512], *tab = strchr(where->s[k], '\t');
    cmp_value_name(file, value, sizeof value);
    printf("first difference at %s (line %.*s): %s\n", tab ? tab + 1 : "",
           tab ? (int)(tab - where->s[k]) : 0, where->s[k], value);
}

static int cmp_dirs_in_order(const char *da, const char *db, const Names *in_a,
                             const Names *in_b, const Names *trace, const Names *where,
                             const Tol *t)
{
    Names order = {NULL, 0, 0};
    int worst = cmp_order(trace, in_a, &order) == 0 ? 0 : 2, bad = 0;
    const char *first = NULL;
    for (int k = 0; k < order.n; k++) {
        int rc = cmp_dir_entry(da, db, order.s[k], in_b, t);
        worst = rc > worst ? rc : worst;
        bad += rc != 0;
        if (rc != 0 && !first && names_find(trace, order.s[k]) >= 0)
            first = order.s[k];
    }
    int total = order.n;
    for (int k = 0; k < in_b->n; k++) {
        if (names_find(in_a, in_b->s[k]) < 0) {
            printf("%s: FAIL: missing in A (%s)\n", in_b->s[k], da);
            worst = worst > 1 ? worst : 1;
            bad++;
            total++;
        }
    }
    if (first)
        cmp_first_difference(first, trace, where);
    printf("%s: %d of %d files differ\n", bad ? "FAIL" : "ok", bad, total);
    names_free(&order);
    return worst;
}

static int cmp_dirs(const char *da, const char *db, const Tol *t)
{
    Names in_a = {NULL, 0, 0}, in_b = {NULL, 0, 0}, trace = {NULL, 0, 0}, where = {NULL, 0, 0};
    int rc = 2;
    if (cmp_list(da, &in_a) == 0 && cmp_list(db, &in_b) == 0 && cmp_trace(da, &trace, &where) == 0)
        rc = cmp_dirs_in_order(da, db, &in_a, &in_b, &trace, &where, t);
    names_free(&in_a);
    names_free(&in_b);
    names_free(&trace);
    names_free(&where);
    return rc;
}

/* ---- command line ------------------------------------------------------- */

static int cmp_usage(void)
{
    fprintf(stderr, "usage: npxcmp A B [--rtol R] [--atol A]\n"
            "  A, B: two .npy files or two directories of them\n"
            "  defaults: float32 rtol 1e-5 atol 1e-6; float64 rtol 1e-12 atol 1e-14;\n"
            "  integers and bools must be equal\n");
    return 2;
}

static int cmp_tol_arg(const char *opt, const char *v, double *out, bool *set)
{
    char *end;
    double x = v ? strtod(v, &end) : -1;
    if (!v || !v[0] || *end || !(x >= 0) || isinf(x)) {
        fprintf(stderr, "npxcmp: error: %s needs a non-negative number%s%s\n", opt,
                v ? ", not " : "", v ? v : "");
        return -1;
    }
    *out = x;
    *set = true;
    return 0;
}

/* 0 and the two paths and tolerances, or 2. */
static int cmp_args(int argc, char **argv, const char **path, Tol *t)
{
    int np = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--rtol") == 0 || strcmp(a, "--atol") == 0) {
            bool rt = a[2] == 'r';
            const char *v = i + 1 < argc ? argv[++i] : NULL;
            if (cmp_tol_arg(a, v, rt ? &t->rtol : &t->atol, rt ? &t->rtol_set : &t->atol_set))
                return 2;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            cmp_usage();
            exit(0);
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "npxcmp: error: unknown option '%s'\n", a);
            return cmp_usage();
        } else if (np < 2) {
            path[np++] = a;
        } else {
            return cmp_usage();
        }
    }
    return np == 2 ? 0 : cmp_usage();
}

int main(int argc, char **argv)
{
    const char *path[2];
    Tol t = {0, 0, false, false};
    npx_prog_name = "npxcmp";
    if (cmp_args(argc, argv, path, &t) != 0)
        return 2;
    struct stat sa, sb;
    for (int k = 0; k < 2; k++) {
        if (stat(path[k], k ? &sb : &sa) != 0) {
            fprintf(stderr, "npxcmp: error: cannot read %s: %s\n", path[k], strerror(errno));
            return 2;
        }
    }
    if (S_ISDIR(sa.st_mode) != S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "npxcmp: error: %s and %s must both be .npy files or both "
                "directories\n", path[0], path[1]);
        return 2;
    }
    if (S_ISDIR(sa.st_mode))
        return cmp_dirs(path[0], path[1], &t);
    const char *slash = strrchr(path[0], '/');
    return cmp_files(slash ? slash + 1 : path[0], path[0], path[1], &t);
}
