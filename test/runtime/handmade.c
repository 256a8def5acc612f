/* handmade.c: a hand-written stand-in for the program npxc would generate
 * from this .npx file, to test npx_main end to end without the compiler:
 *   1  input x: f32[B, 3]
 *   2  input n: i64[B]
 *   3  input s: f64
 *   4  output y, n
 *   5  y = x * s
 *   6  y = y + 1
 *   7  c = np.bincount(n)        # a negative n is a run-time error
 * Built the way a generated file is: the runtime's text (embed --raw
 * runtime/npx_rt.h runtime/npx_math.h, then every runtime .c file) and this
 * file after it, with the runtime's #include lines dropped. */
#include "npx_rt.h"
#include "npx_math.h"

/* c = np.bincount(n): length max(n) + 1, counts as i64. */
static void handmade_bincount(npx_state *st, const int64_t *n, int64_t len)
{
    int64_t top = -1;
    for (int64_t i = 0; i < len; i++) {
        if (n[i] < 0)
            npx_runtime_error(st, 7, "bincount: n holds the negative value %lld at index %lld",
                              (long long)n[i], (long long)i);
        top = n[i] > top ? n[i] : top;
    }
    int64_t shape[1] = {top + 1};
    int64_t *c = (int64_t *)npx_alloc_zero(npx_bytes(top + 1, sizeof *c, "c"));
    for (int64_t i = 0; i < len; i++)
        c[n[i]]++;
    npx_trace(st, "c", 7, "c = np.bincount(n)", NPX_I64, 1, shape, c);
    npx_free(c);
}

static void npx_run(npx_state *st)
{
    const int64_t B = st->sym[0];
    const float *x = (const float *)st->in[0].data;
    const int64_t *n = (const int64_t *)st->in[1].data;
    const double s = *(const double *)st->in[2].data;
    npx_trace(st, "x", 1, "input x: f32[B, 3]", NPX_F32, 2, st->in[0].shape, x);
    npx_trace(st, "n", 2, "input n: i64[B]", NPX_I64, 1, st->in[1].shape, n);
    npx_trace(st, "s", 3, "input s: f64", NPX_F64, 0, st->in[2].shape, &s);

    /* y = x * s */
    npx_array *y = &st->out[0];
    y->dtype = NPX_F64;
    y->ndim = 2;
    y->shape[0] = B;
    y->shape[1] = 3;
    double *yd = (double *)npx_alloc(npx_bytes(B * 3, sizeof(double), "y"));
    for (int64_t i = 0; i < B * 3; i++)
        yd[i] = (double)x[i] * s;
    y->data = yd;
    npx_trace(st, "y", 5, "y = x * s", NPX_F64, 2, y->shape, yd);

    /* y = y + 1 */
    for (int64_t i = 0; i < B * 3; i++)
        yd[i] = yd[i] + 1;
    npx_trace(st, "y", 6, "y = y + 1", NPX_F64, 2, y->shape, yd);

    /* c = np.bincount(n) */
    handmade_bincount(st, n, B);

    /* output n */
    npx_array *no = &st->out[1];
    no->dtype = NPX_I64;
    no->ndim = 1;
    no->shape[0] = B;
    no->data = npx_alloc(npx_bytes(B, sizeof(int64_t), "n"));
    for (int64_t i = 0; i < B; i++)
        ((int64_t *)no->data)[i] = n[i];
}

static const npx_input_desc npx_inputs[] = {
    {"x", NPX_F32, 2, {0, -1}, {0, 3}, 1},
    {"n", NPX_I64, 1, {0}, {0}, 2},
    {"s", NPX_F64, 0, {0}, {0}, 3},
};
static const char *const npx_syms[] = {"B"};
static const char *const npx_outputs[] = {"y", "n"};
static const npx_program npx_prog = {"handmade.npx", 1, npx_syms, 3, npx_inputs, 2, npx_outputs,
                                     npx_run};

int main(int argc, char **argv)
{
    return npx_main(argc, argv, &npx_prog);
}
