/* trace.c: --trace DIR. Writes every named value to DIR/NAME.npy (a rebound
 * name to NAME.2.npy, NAME.3.npy, ...) and a line per value to
 * DIR/trace.txt: "FILE<TAB>LINE<TAB>SOURCE TEXT". A write error ends the
 * program with exit status 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "npx_rt.h"

/* How often one name has been written. */
typedef struct {
    char *name;
    int count;
} npx_trace_name;

/* st->trace: the open trace.txt and the names written so far. */
typedef struct {
    FILE *txt;
    int n, cap;
    npx_trace_name *names;
} npx_trace_book;

int npx_trace_open(npx_state *st)
{
    char err[1024];
    if (npx_mkdirs(st->trace_dir, err, sizeof err) != 0) {
        npx_error("--trace %s: %s", st->trace_dir, err);
        return -1;
    }
    npx_trace_book *b = (npx_trace_book *)calloc(1, sizeof *b);
    char *path = npx_path_join(st->trace_dir, "trace.txt");
    FILE *txt = path ? fopen(path, "w") : NULL;
    if (!b || !txt) {
        npx_error("--trace: cannot create %s", path ? path : "trace.txt");
        free(b);
        free(path);
        return -1;
    }
    free(path);
    b->txt = txt;
    st->trace = b;
    return 0;
}

void npx_trace_close(npx_state *st)
{
    npx_trace_book *b = (npx_trace_book *)st->trace;
    if (!b)
        return;
    fclose(b->txt);
    for (int k = 0; k < b->n; k++)
        free(b->names[k].name);
    free(b->names);
    free(b);
    st->trace = NULL;
}

/* How many values named name have been traced, counting this one. */
static int npx_trace_count(npx_trace_book *b, const char *name)
{
    for (int k = 0; k < b->n; k++)
        if (strcmp(b->names[k].name, name) == 0)
            return ++b->names[k].count;
    if (b->n == b->cap) {
        int cap = b->cap ? 2 * b->cap : 16;
        void *grown = realloc(b->names, (size_t)cap * sizeof *b->names);
        if (!grown)
            return -1;
        b->names = (npx_trace_name *)grown;
        b->cap = cap;
    }
    size_t len = strlen(name) + 1;
    char *copy = (char *)malloc(len);
    if (!copy)
        return -1;
    memcpy(copy, name, len);
    b->names[b->n].name = copy;
    b->names[b->n].count = 1;
    b->n++;
    return 1;
}

/* The source text on one line: newlines and tabs become single spaces. */
static void npx_trace_text(FILE *f, const char *text)
{
    for (const char *c = text; *c; c++) {
        if (*c == '\n' || *c == '\r') {
            fputc(' ', f);
            while (c[1] == ' ' || c[1] == '\t' || c[1] == '\n' || c[1] == '\r')
                c++;
        } else {
            fputc(*c == '\t' ? ' ' : *c, f);
        }
    }
}

__attribute__((noreturn)) static void npx_trace_fail(const char *what)
{
    npx_error("--trace: %s", what);
    exit(NPX_EXIT_USAGE);
}

void npx_trace(npx_state *st, const char *name, int line, const char *text,
               npx_dtype dtype, int ndim, const int64_t *shape, const void *data)
{
    if (!st->trace_dir)
        return;
    if (!st->trace && npx_trace_open(st) != 0)
        exit(NPX_EXIT_USAGE);
    npx_trace_book *b = (npx_trace_book *)st->trace;
    int count = npx_trace_count(b, name);
    if (count < 0)
        npx_trace_fail("out of memory");
    char file[512], err[1024];
    if (count == 1)
        snprintf(file, sizeof file, "%s.npy", name);
    else
        snprintf(file, sizeof file, "%s.%d.npy", name, count);
    npx_array a;
    memset(&a, 0, sizeof a);
    a.dtype = dtype;
    a.ndim = ndim;
    if (ndim > 0)
        memcpy(a.shape, shape, (size_t)ndim * sizeof *shape);
    a.data = (void *)data;
    char *path = npx_path_join(st->trace_dir, file);
    if (!path || npx_npy_write(path, &a, err, sizeof err) != 0)
        npx_trace_fail(path ? err : "out of memory");
    free(path);
    fprintf(b->txt, "%s\t%d\t", file, line);
    npx_trace_text(b->txt, text);
    fputc('\n', b->txt);
    if (fflush(b->txt) != 0)
        npx_trace_fail("cannot write trace.txt");
}
