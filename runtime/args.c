/* args.c: the command line of a generated program, parsed into npx_opts:
 *   NAME=FILE.npy | NAME=NUMBER, --random SEED, --dim SYM=N, -o DIR,
 *   --print, --bench N, --trace DIR, --help
 * (long options also as --opt=VALUE). Also the --help text. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "npx_rt.h"

char *npx_input_type_str(const npx_program *p, int k, char *buf, size_t len)
{
    const npx_input_desc *d = &p->inputs[k];
    size_t used = (size_t)snprintf(buf, len, "%s", npx_dtype_name(d->dtype));
    for (int j = 0; j < d->ndim && used < len; j++) {
        const char *open = j == 0 ? "[" : ", ";
        if (d->dim_sym[j] >= 0)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", open, p->syms[d->dim_sym[j]]);
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%lld", open, (long long)d->dim[j]);
    }
    if (d->ndim > 0 && used < len)
        snprintf(buf + used, len - used, "]");
    return buf;
}

void npx_usage(FILE *out, const npx_program *p)
{
    char type[NPX_MAX_RANK * 40 + 16];
    fprintf(out, "usage: %s [NAME=FILE.npy | NAME=NUMBER ...] [--random SEED] "
            "[--dim SYM=N ...]\n          [-o DIR] [--print] [--bench N] [--trace DIR]\n"
            "Runs %s: reads the inputs from .npy files (a scalar input may be a\n"
            "number), writes each output to DIR/NAME.npy.\n\ninputs:\n", npx_prog_name,
            p->source);
    for (int k = 0; k < p->ninputs; k++)
        fprintf(out, "  %s: %s\n", p->inputs[k].name, npx_input_type_str(p, k, type, sizeof type));
    fprintf(out, "outputs:");
    for (int j = 0; j < p->noutputs; j++)
        fprintf(out, "%s %s", j ? "," : "", p->outputs[j]);
    fprintf(out, "\n\noptions:\n"
            "  --random SEED  fill every input not given with the documented generator\n"
            "                 (floats uniform in [0, 1), integers in [0, 1000))\n"
            "  --dim SYM=N    set size symbol SYM (sizes of --random inputs)\n"
            "  -o DIR         write the outputs to DIR (default .)\n"
            "  --print        also print the outputs\n"
            "  --bench N      time N runs after a warm-up; print one npx-bench line\n"
            "  --trace DIR    write every named value to DIR, with DIR/trace.txt\n"
            "  --help         this text\n");
}

/* The value of option opt in argv[*i] ("--opt VALUE" or "--opt=VALUE"):
 * 0 not this option, 1 found (*v set, *i advanced), -1 value missing. */
static int npx_arg_take(int argc, char **argv, int *i, const char *opt, const char **v)
{
    const char *a = argv[*i];
    size_t n = strlen(opt);
    if (strncmp(a, opt, n) != 0 || (a[n] != 0 && (a[n] != '=' || opt[1] != '-')))
        return 0;
    if (a[n] == '=') {
        *v = a + n + 1;
        return 1;
    }
    if (*i + 1 >= argc) {
        npx_error("%s needs a value (see --help)", opt);
        return -1;
    }
    *v = argv[++*i];
    return 1;
}

/* A decimal integer in [lo, hi], the whole text. */
static bool npx_arg_int(const char *text, long long lo, long long hi, long long *out)
{
    char *end;
    if (!(text[0] >= '0' && text[0] <= '9') && !(text[0] == '-' && text[1]))
        return false;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static int npx_arg_seed(const char *v, npx_opts *o)
{
    char *end = NULL;
    errno = 0;
    unsigned long long s = strtoull(v, &end, 10);
    if (!(v[0] >= '0' && v[0] <= '9') || errno || *end) {
        npx_error("--random: '%s' is not a seed (an integer from 0 to 2^64-1)", v);
        return -1;
    }
    o->random = true;
    o->seed = (uint64_t)s;
    return 0;
}

static int npx_arg_dim(const npx_program *p, const char *v, npx_opts *o)
{
    const char *eq = strchr(v, '=');
    long long n;
    if (!eq || eq == v) {
        npx_error("--dim %s: expected SYM=N, e.g. --dim %s=10", v, p->nsyms ? p->syms[0] : "B");
        return -1;
    }
    int s = 0;
    while (s < p->nsyms && (strncmp(p->syms[s], v, (size_t)(eq - v)) != 0
                            || p->syms[s][eq - v] != 0))
        s++;
    if (s == p->nsyms) {
        npx_error("--dim %s: %s has no size symbol named %.*s", v, p->source, (int)(eq - v), v);
        return -1;
    }
    if (!npx_arg_int(eq + 1, 0, INT64_MAX, &n)) {
        npx_error("--dim %s: '%s' is not a size (a non-negative integer)", v, eq + 1);
        return -1;
    }
    if (o->dim_set[s] && o->dim[s] != n) {
        npx_error("--dim gives %s twice: %lld and %lld", p->syms[s], (long long)o->dim[s], n);
        return -1;
    }
    o->dim[s] = n;
    o->dim_set[s] = true;
    return 0;
}

static int npx_arg_bench(const char *v, npx_opts *o)
{
    long long n;
    if (!npx_arg_int(v, 1, 1000000000, &n)) {
        npx_error("--bench: '%s' is not a number of runs (an integer from 1 to 1000000000)", v);
        return -1;
    }
    o->bench = n;
    return 0;
}

static int npx_arg_dir(const char *opt, const char *v, const char **dst)
{
    if (!v[0]) {
        npx_error("%s needs a directory", opt);
        return -1;
    }
    *dst = v;
    return 0;
}

/* One option starting with '-'. */
static int npx_arg_option(const npx_program *p, int argc, char **argv, int *i, npx_opts *o)
{
    const char *a = argv[*i], *v = NULL;
    int r;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
        o->help = true;
        return 0;
    }
    if (strcmp(a, "--print") == 0) {
        o->print = true;
        return 0;
    }
    if ((r = npx_arg_take(argc, argv, i, "--random", &v)) != 0)
        return r < 0 ? -1 : npx_arg_seed(v, o);
    if ((r = npx_arg_take(argc, argv, i, "--dim", &v)) != 0)
        return r < 0 ? -1 : npx_arg_dim(p, v, o);
    if ((r = npx_arg_take(argc, argv, i, "--bench", &v)) != 0)
        return r < 0 ? -1 : npx_arg_bench(v, o);
    if ((r = npx_arg_take(argc, argv, i, "-o", &v)) != 0)
        return r < 0 ? -1 : npx_arg_dir("-o", v, &o->out_dir);
    if ((r = npx_arg_take(argc, argv, i, "--trace", &v)) != 0)
        return r < 0 ? -1 : npx_arg_dir("--trace", v, &o->trace_dir);
    npx_error("unknown option '%s' (see --help)", a);
    return -1;
}

/* NAME=VALUE for an input. */
static int npx_arg_input(const npx_program *p, const char *a, npx_opts *o)
{
    const char *eq = strchr(a, '=');
    size_t n = (size_t)(eq - a);
    int k = 0;
    while (k < p->ninputs && (strncmp(p->inputs[k].name, a, n) != 0 || p->inputs[k].name[n]))
        k++;
    if (k == p->ninputs) {
        npx_error("%s has no input named %.*s (see --help)", p->source, (int)n, a);
        return -1;
    }
    if (!eq[1]) {
        npx_error("%s: expected %s=FILE.npy%s", a, p->inputs[k].name,
                  p->inputs[k].ndim == 0 ? " or a number" : "");
        return -1;
    }
    if (o->value[k]) {
        npx_error("input %s is given twice (%s=%s and %s)", p->inputs[k].name,
                  p->inputs[k].name, o->value[k], a);
        return -1;
    }
    o->value[k] = eq + 1;
    return 0;
}

int npx_args_parse(int argc, char **argv, const npx_program *p, npx_opts *o)
{
    memset(o, 0, sizeof *o);
    o->out_dir = ".";
    o->value = (const char **)calloc((size_t)p->ninputs + 1, sizeof *o->value);
    if (!o->value) {
        npx_error("out of memory");
        return -1;
    }
    if (p->nsyms > 64) {
        npx_error("%s has %d size symbols; this runtime handles 64", p->source, p->nsyms);
        return -1;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc;
        if (a[0] == '-' && a[1])
            rc = npx_arg_option(p, argc, argv, &i, o);
        else if (strchr(a, '=') && a[0] != '=')
            rc = npx_arg_input(p, a, o);
        else {
            npx_error("unexpected argument '%s' (give inputs as NAME=FILE.npy; see --help)", a);
            rc = -1;
        }
        if (rc != 0)
            return -1;
    }
    return 0;
}

void npx_opts_free(npx_opts *o)
{
    free((void *)o->value);
    o->value = NULL;
}
