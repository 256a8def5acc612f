/* inputs.c: the inputs of a generated program. Reads each given input (a .npy
 * file or, for a scalar, a number), checks it against its declaration (dtype
 * exactly, rank, literal sizes), binds the size symbols (every use of a
 * symbol must agree, --dim included), then fills the missing inputs with
 * --random. Each problem is one message naming the input and the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "npx_rt.h"

#define NPX_FROM_DIM (-1)      /* a symbol bound by --dim */
#define NPX_UNBOUND (-2)

/* Loading state: which input bound each size symbol (its index, or above). */
typedef struct {
    npx_state *st;
    const npx_opts *o;
    int from[64];
} npx_loader;

/* "x (x.npy)" or "--dim B=5": where symbol s got its value. */
static void npx_in_origin(const npx_loader *l, int s, char *buf, size_t len)
{
    const npx_program *p = l->st->prog;
    if (l->from[s] == NPX_FROM_DIM)
        snprintf(buf, len, "--dim %s=%lld", p->syms[s], (long long)l->st->sym[s]);
    else
        snprintf(buf, len, "%s (%s)", p->inputs[l->from[s]].name, l->o->value[l->from[s]]);
}

/* Axis j of input k has size n (from its file): check it or bind it. */
static int npx_in_bind(npx_loader *l, int k, int j, int64_t n, const char *shape)
{
    const npx_program *p = l->st->prog;
    const npx_input_desc *d = &p->inputs[k];
    int s = d->dim_sym[j];
    char type[NPX_MAX_RANK * 40 + 16], origin[1024];
    if (s < 0 && n != d->dim[j]) {
        npx_error("%s: %s has shape %s, but %s is declared %s: axis %d must be %lld", d->name,
                  l->o->value[k], shape, d->name, npx_input_type_str(p, k, type, sizeof type), j,
                  (long long)d->dim[j]);
        return -1;
    }
    if (s < 0)
        return 0;
    if (l->from[s] == NPX_UNBOUND) {
        l->st->sym[s] = n;
        l->from[s] = k;
        return 0;
    }
    if (l->st->sym[s] == n)
        return 0;
    npx_in_origin(l, s, origin, sizeof origin);
    npx_error("size symbol %s is %lld from %s but %lld from %s (%s)", p->syms[s],
              (long long)l->st->sym[s], origin, (long long)n, d->name, l->o->value[k]);
    return -1;
}

/* The array read for input k against its declaration. */
static int npx_in_check(npx_loader *l, int k, const npx_array *a)
{
    const npx_program *p = l->st->prog;
    const npx_input_desc *d = &p->inputs[k];
    const char *file = l->o->value[k];
    char type[NPX_MAX_RANK * 40 + 16], shape[NPX_MAX_RANK * 24 + 4];
    npx_input_type_str(p, k, type, sizeof type);
    npx_shape_str(shape, sizeof shape, a->ndim, a->shape);
    if (a->dtype != d->dtype) {
        npx_error("%s: %s holds %s data, but %s is declared %s", d->name, file,
                  npx_dtype_numpy_name(a->dtype), d->name, npx_dtype_name(d->dtype));
        return -1;
    }
    if (a->ndim != d->ndim) {
        npx_error("%s: %s has shape %s (%d dimension%s), but %s is declared %s (%d dimension%s)",
                  d->name, file, shape, a->ndim, a->ndim == 1 ? "" : "s", d->name, type, d->ndim,
                  d->ndim == 1 ? "" : "s");
        return -1;
    }
    for (int j = 0; j < a->ndim; j++)
        if (npx_in_bind(l, k, j, a->shape[j], shape) != 0)
            return -1;
    return 0;
}

static int npx_in_file(npx_loader *l, int k, npx_array *a);

/* Input k given as a number (or, when it is not one, a file that exists). */
static int npx_in_number(npx_loader *l, int k, npx_array *a)
{
    const npx_input_desc *d = &l->st->prog->inputs[k];
    char err[512];
    memset(a, 0, sizeof *a);
    a->dtype = d->dtype;
    a->data = malloc(8);
    if (!a->data) {
        npx_error("out of memory");
        return -1;
    }
    if (npx_parse_scalar(l->o->value[k], d->dtype, a->data, err, sizeof err) != 0) {
        FILE *f = fopen(l->o->value[k], "rb");
        if (f) {
            fclose(f);
            free(a->data);
            return npx_in_file(l, k, a);
        }
        npx_error("%s: %s (%s is a scalar %s)", d->name, err, d->name, npx_dtype_name(d->dtype));
        return -1;
    }
    return 0;
}

/* Input k given as a file. */
static int npx_in_file(npx_loader *l, int k, npx_array *a)
{
    const npx_program *p = l->st->prog;
    const npx_input_desc *d = &p->inputs[k];
    const char *file = l->o->value[k];
    char err[512], err2[512], type[NPX_MAX_RANK * 40 + 16], scratch[8];
    if (npx_npy_read(file, a, err, sizeof err) == 0)
        return npx_in_check(l, k, a);
    if (strncmp(err, "cannot open", 11) == 0 && d->ndim > 0
        && npx_parse_scalar(file, NPX_F64, scratch, err2, sizeof err2) == 0)
        npx_error("%s: %s is a number, but %s is an array, %s; give a .npy file", d->name,
                  file, d->name, npx_input_type_str(p, k, type, sizeof type));
    else
        npx_error("%s: %s: %s", d->name, file, err);
    return -1;
}

static bool npx_in_is_npy_name(const char *v)
{
    size_t n = strlen(v);
    return n >= 4 && strcmp(v + n - 4, ".npy") == 0;
}

/* The shape of a --random input from literals and bound symbols. */
static int npx_in_random(npx_loader *l, int k, npx_array *a)
{
    const npx_program *p = l->st->prog;
    const npx_input_desc *d = &p->inputs[k];
    char type[NPX_MAX_RANK * 40 + 16];
    memset(a, 0, sizeof *a);
    a->dtype = d->dtype;
    a->ndim = d->ndim;
    for (int j = 0; j < d->ndim; j++) {
        int s = d->dim_sym[j];
        if (s >= 0 && l->from[s] == NPX_UNBOUND) {
            npx_error("%s: cannot make random data for %s: no input gives the size %s; "
                      "give --dim %s=N", d->name, npx_input_type_str(p, k, type, sizeof type),
                      p->syms[s], p->syms[s]);
            return -1;
        }
        a->shape[j] = s >= 0 ? l->st->sym[s] : d->dim[j];
    }
    int64_t n = npx_shape_bytes(a->ndim, a->shape, npx_dtype_size(a->dtype));
    char shape[NPX_MAX_RANK * 24 + 4];
    if (n < 0) {
        npx_error("%s: random %s of shape %s is too large: its size in bytes overflows",
                  d->name, npx_input_type_str(p, k, type, sizeof type),
                  npx_shape_str(shape, sizeof shape, a->ndim, a->shape));
        return -1;
    }
    a->data = malloc(n ? (size_t)n : 1);
    if (!a->data) {
        npx_error("%s: out of memory (%lld bytes)", d->name, (long long)n);
        return -1;
    }
    npx_random_fill(a, l->o->seed, k);
    return 0;
}

/* Without --random every input must be given: name all that are not. */
static int npx_in_missing(const npx_program *p, const npx_opts *o)
{
    char names[2048] = "";
    int n = 0;
    for (int k = 0; k < p->ninputs; k++) {
        if (o->value[k])
            continue;
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", n ? ", " : "", p->inputs[k].name);
        n++;
    }
    if (n == 0 || o->random)
        return 0;
    npx_error("missing input%s %s (give NAME=FILE.npy for each, or --random SEED)",
              n == 1 ? "" : "s", names);
    return -1;
}

int npx_inputs_load(npx_state *st, const npx_opts *o)
{
    const npx_program *p = st->prog;
    npx_loader l;
    l.st = st;
    l.o = o;
    for (int s = 0; s < 64; s++) {
        l.from[s] = o->dim_set[s] ? NPX_FROM_DIM : NPX_UNBOUND;
        st->sym[s] = o->dim_set[s] ? o->dim[s] : 0;
    }
    if (npx_in_missing(p, o) != 0)
        return -1;
    st->in = (npx_array *)calloc((size_t)p->ninputs + 1, sizeof *st->in);
    if (!st->in) {
        npx_error("out of memory");
        return -1;
    }
    for (int k = 0; k < p->ninputs; k++) {
        const char *v = o->value[k];
        if (v && p->inputs[k].ndim == 0 && !npx_in_is_npy_name(v)) {
            if (npx_in_number(&l, k, &st->in[k]) != 0)
                return -1;
        } else if (v && npx_in_file(&l, k, &st->in[k]) != 0) {
            return -1;
        }
    }
    for (int k = 0; k < p->ninputs; k++)
        if (!o->value[k] && npx_in_random(&l, k, &st->in[k]) != 0)
            return -1;
    return 0;
}

void npx_inputs_free(npx_state *st)
{
    if (!st->in)
        return;
    for (int k = 0; k < st->prog->ninputs; k++)
        free(st->in[k].data);
    free(st->in);
    st->in = NULL;
}
