/* lib.c: the run behind a library function (npxc --lib). The caller's arrays
 * become the inputs as they are (not copied); a run-time error comes back as
 * a return value, with the outputs made so far freed (not the temporaries
 * of a run that stopped in the middle). */
#include <stdlib.h>
#include <string.h>
#include "npx_rt.h"

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
    if (setjmp(on_error) == 0)
        prog->run(&st);
    else
        rc = NPX_EXIT_RUNTIME;
    if (st.failed)                 /* an error inside a parallel loop: the run went on to its end */
        rc = NPX_EXIT_RUNTIME;
    if (rc != 0) {
        for (int j = 0; j < prog->noutputs; j++)
            npx_free(out[j].data);
        memset(out, 0, (size_t)prog->noutputs * sizeof *out);
    }
    free(ins);
    return rc;
}
