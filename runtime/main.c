/* main.c: npx_main, the whole life of a generated program: parse the command
 * line, load the inputs, run (once, or a warm-up and N timed runs for
 * --bench), then write every output through a temporary file and a rename,
 * all outputs or none, and print them for --print. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "npx_rt.h"

static void npx_main_free_outputs(npx_state *st)
{
    if (!st->out)
        return;
    for (int j = 0; j < st->prog->noutputs; j++)
        npx_free(st->out[j].data);
    memset(st->out, 0, (size_t)st->prog->noutputs * sizeof *st->out);
}

/* One timed run of --bench: sample i of the computation's time (the device's,
 * for a run that times itself) and of its copies. */
static void npx_main_timed_run(npx_state *st, double *t, int64_t n, int64_t i)
{
    npx_main_free_outputs(st);
    double t0 = npx_time_now();
    st->prog->run(st);
    if (!st->replayed)             /* a replay wrote its N samples itself */
        t[i] = st->device_timed ? st->device_s : npx_time_now() - t0;
    t[n + i] = st->h2d_s;
    t[2 * n + i] = st->d2h_s;
}

/* --bench N: a warm-up run (the one that traces), then N timed runs. The
 * first timed run is offered all N (st->replays): a CUDA run whose
 * computation can be a graph captures it once and replays it N times,
 * timing each; any other run is the first of N. */
static int npx_main_bench(npx_state *st, int64_t n)
{
    double *t = (double *)malloc((size_t)n * 3 * sizeof *t), min, median, h2d, d2h;
    if (!t) {
        npx_error("--bench: out of memory");
        return -1;
    }
    st->prog->run(st);
    st->trace_dir = NULL;
    st->replays = n;
    st->replay_s = t;
    npx_main_timed_run(st, t, n, 0);
    st->replays = 0;
    for (int64_t i = 1; i < n && !st->replayed; i++)
        npx_main_timed_run(st, t, n, i);
    for (int64_t i = 1; i < n && st->replayed; i++) {  /* its copies happened once */
        t[n + i] = t[n];
        t[2 * n + i] = t[2 * n];
    }
    npx_bench_stats(t, n, &min, &median);
    printf("npx-bench: runs=%lld min_s=%.9g median_s=%.9g\n", (long long)n, min, median);
    if (st->device_timed) {
        npx_bench_stats(t + n, n, &min, &h2d);
        npx_bench_stats(t + 2 * n, n, &min, &d2h);
        printf("npx-bench-copy: h2d_s=%.9g d2h_s=%.9g\n", h2d, d2h);
    }
    free(t);
    return 0;
}

/* Every output, as the program left it, is a valid array. */
static int npx_main_check_outputs(const npx_state *st)
{
    for (int j = 0; j < st->prog->noutputs; j++) {
        const npx_array *a = &st->out[j];
        int64_t n = a->ndim >= 0 && a->ndim <= NPX_MAX_RANK
                  ? npx_shape_bytes(a->ndim, a->shape, npx_dtype_size(a->dtype)) : -1;
        if (n < 0 || (n > 0 && !a->data)) {
            npx_error("internal error: %s did not set output %s", st->prog->source,
                      st->prog->outputs[j]);
            return -1;
        }
    }
    return 0;
}

static char *npx_main_concat(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *s = (char *)malloc(la + lb + 1);
    if (s) {
        memcpy(s, a, la);
        memcpy(s + la, b, lb + 1);
    }
    return s;
}

/* Output j to DIR/NAME.npy.tmp; path[j] and tmp[j] get both names. */
static int npx_main_write_tmp(npx_state *st, const char *dir, int j, char **path, char **tmp)
{
    const char *name = st->prog->outputs[j];
    char err[1024], *file = npx_main_concat(name, ".npy");
    path[j] = file ? npx_path_join(dir, file) : NULL;
    tmp[j] = path[j] ? npx_main_concat(path[j], ".tmp") : NULL;
    free(file);
    if (!tmp[j]) {
        npx_error("out of memory");
        return -1;
    }
    if (npx_npy_write_direct(tmp[j], &st->out[j], err, sizeof err) != 0) {
        npx_error("output %s: %s", name, err);
        free(tmp[j]);
        tmp[j] = NULL;
        return -1;
    }
    return 0;
}

/* Writes all outputs to temporaries, then renames them all: a failure
 * before the renames leaves no file behind. */
static int npx_main_write(npx_state *st, const char *dir)
{
    int n = st->prog->noutputs, rc = 0;
    char err[1024];
    if (npx_mkdirs(dir, err, sizeof err) != 0) {
        npx_error("-o %s: %s", dir, err);
        return -1;
    }
    char **path = (char **)calloc(2 * (size_t)n + 1, sizeof *path), **tmp = path + n;
    if (!path) {
        npx_error("out of memory");
        return -1;
    }
    for (int j = 0; j < n && rc == 0; j++)
        rc = npx_main_write_tmp(st, dir, j, path, tmp);
    for (int j = 0; j < n && rc == 0; j++) {
        if (rename(tmp[j], path[j]) != 0) {
            npx_error("output %s: cannot rename %s to %s: %s", st->prog->outputs[j], tmp[j],
                      path[j], strerror(errno));
            rc = -1;
        } else {
            free(tmp[j]);
            tmp[j] = NULL;
        }
    }
    for (int j = 0; j < n; j++) {
        if (tmp[j])
            remove(tmp[j]);
        free(tmp[j]);
        free(path[j]);
    }
    free(path);
    return rc;
}

static const char *npx_main_basename(const char *argv0)
{
    const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
    return slash ? slash + 1 : argv0 && argv0[0] ? argv0 : "npx";
}

/* Inputs loaded: run, write, print. */
static int npx_main_run(npx_state *st, const npx_opts *o)
{
    st->out = (npx_array *)calloc((size_t)st->prog->noutputs + 1, sizeof *st->out);
    if (!st->out) {
        npx_error("out of memory");
        return -1;
    }
    if (st->trace_dir && npx_trace_open(st) != 0)
        return -1;
    if (o->bench > 0) {
        if (npx_main_bench(st, o->bench) != 0)
            return -1;
    } else {
        st->prog->run(st);
    }
    if (npx_main_check_outputs(st) != 0 || npx_main_write(st, o->out_dir) != 0)
        return -1;
    for (int j = 0; j < st->prog->noutputs && o->print; j++)
        npx_array_print(stdout, st->prog->outputs[j], &st->out[j]);
    return 0;
}

int npx_main(int argc, char **argv, const npx_program *prog)
{
    npx_opts o;
    npx_state st;
    memset(&st, 0, sizeof st);
    st.prog = prog;
    npx_alloc_keep();
    npx_prog_name = npx_main_basename(argc > 0 ? argv[0] : NULL);
    int rc = npx_args_parse(argc, argv, prog, &o);
    if (rc == 0 && o.help) {
        npx_usage(stdout, prog);
        npx_opts_free(&o);
        return NPX_EXIT_OK;
    }
    if (rc == 0 && o.print && o.bench) {
        npx_error("--print and --bench cannot be combined (--bench prints only its line)");
        rc = -1;
    }
    st.trace_dir = o.trace_dir;
    if (rc == 0)
        rc = npx_inputs_load(&st, &o);
    if (rc == 0)
        rc = npx_main_run(&st, &o);
    npx_trace_close(&st);
    npx_main_free_outputs(&st);
    free(st.out);
    npx_inputs_free(&st);
    npx_opts_free(&o);
    return rc == 0 ? NPX_EXIT_OK : NPX_EXIT_USAGE;
}
