/* lib.c: the run behind a library function (npxc --lib). The caller's arrays
 * become the inputs as they are (not copied); a run-time error comes back as
 * a return value, and everything the run had allocated is freed. */
#include <stdlib.h>
#include <string.h>
#include "npx_rt.h"

/* The blocks a library run holds (its temporaries and outputs), while one
 * is on. Threads of a loop allocate too (row buffers, histograms): one at a
 * time. A block that cannot be recorded (no memory for the list) is only
 * leaked if the run then fails. */
static struct {
    void **blocks;
    size_t n, cap;
    bool on;
} npx_lib_held;

#ifdef _OPENMP
#define NPX_LIB_ONE_THREAD _Pragma("omp critical(npx_lib_held)")
#else
#define NPX_LIB_ONE_THREAD
#endif

void npx_lib_hold(void *p)
{
    if (!npx_lib_held.on)
        return;
    NPX_LIB_ONE_THREAD
    {
        if (npx_lib_held.n == npx_lib_held.cap) {
            size_t cap = npx_lib_held.cap ? 2 * npx_lib_held.cap : 64;
            void **b = (void **)realloc(npx_lib_held.blocks, cap * sizeof *b);
            if (b) {
                npx_lib_held.blocks = b;
                npx_lib_held.cap = cap;
            }
        }
        if (npx_lib_held.n < npx_lib_held.cap)
            npx_lib_held.blocks[npx_lib_held.n++] = p;
    }
}

void npx_lib_release(void *p)
{
    if (!npx_lib_held.on || !p)
        return;
    NPX_LIB_ONE_THREAD
    {
        for (size_t i = npx_lib_held.n; i-- > 0;)
            if (npx_lib_held.blocks[i] == p) {
                npx_lib_held.blocks[i] = npx_lib_held.blocks[--npx_lib_held.n];
                break;
            }
    }
}

/* The end of a run: what it still holds is the outputs (kept) or, after an
 * error, whatever it had (freed). */
static void npx_lib_end(bool free_held)
{
    npx_lib_held.on = false;
    for (size_t i = 0; free_held && i < npx_lib_held.n; i++)
        free(npx_lib_held.blocks[i]);
    free(npx_lib_held.blocks);
    memset(&npx_lib_held, 0, sizeof npx_lib_held);
}

int npx_lib_run(const npx_program *prog, const char *name, const int64_t *sym, const void *const *in,
                npx_array *out)
{
    npx_state st;
    jmp_buf on_error;
    memset(&st, 0, sizeof st);
    memset(out, 0, (size_t)prog->noutputs * sizeof *out);
    npx_prog_name = name;
    for (int s = 0; s < prog->nsyms; s++) {
        if (sym[s] < 0) {
            npx_error("%s: size %s is %lld; sizes are 0 or more", prog->source, prog->syms[s], (long long)sym[s]);
            return NPX_EXIT_USAGE;
        }
        st.sym[s] = sym[s];
    }
    npx_array *ins = (npx_array *)calloc((size_t)prog->ninputs + 1, sizeof *ins);
    if (!ins) {
        npx_error("out of memory");
        return NPX_EXIT_RUNTIME;
    }
    for (int j = 0; j < prog->ninputs; j++) {
        const npx_input_desc *d = &prog->inputs[j];
        ins[j].dtype = d->dtype;
        ins[j].ndim = d->ndim;
        for (int k = 0; k < d->ndim; k++)
            ins[j].shape[k] = d->dim_sym[k] >= 0 ? sym[d->dim_sym[k]] : d->dim[k];
        ins[j].data = (void *)in[j];
    }
    st.prog = prog;
    st.in = ins;
    st.out = out;
    st.on_error = &on_error;
    int rc = 0;
    npx_lib_held.on = true;
    if (setjmp(on_error) == 0)
        prog->run(&st);
    else
        rc = NPX_EXIT_RUNTIME;
    if (st.failed)                 /* an error inside a parallel loop: the run went on to its end */
        rc = NPX_EXIT_RUNTIME;
    npx_lib_end(rc != 0);          /* the outputs among them */
    if (rc != 0)
        memset(out, 0, (size_t)prog->noutputs * sizeof *out);
    free(ins);
    return rc;
}
