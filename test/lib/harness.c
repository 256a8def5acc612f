/* harness.c: a C program that calls two npxc libraries (test/lib.bats):
 * softmax (bench/softmax.npx) and stats (stats.npx), built with npxc --lib
 * and linked together.
 *   ./harness run DIR      calls both on inputs it makes, writes the inputs
 *                          to DIR/in/NAME.npy and the outputs to
 *                          DIR/out/NAME.npy for the test to compare with NumPy
 *   ./harness errors       a negative bincount value and a negative exponent
 *                          (found inside a parallel loop) come back as 3, a
 *                          negative size as 2; the program and the library
 *                          go on */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "softmax.h"
#include "stats.h"

/* A .npy file (format 1.0, C order) of ndim axes. */
static void npy_write(const char *dir, const char *name, const char *descr, int ndim, const int64_t *shape,
                      const void *data, size_t itemsize)
{
    char path[4096], header[256];
    int64_t count = 1;
    int n = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (int k = 0; k < ndim; k++) {
        n += snprintf(header + n, sizeof header - (size_t)n, "%lld,%s", (long long)shape[k], k + 1 < ndim ? " " : "");
        count *= shape[k];
    }
    n += snprintf(header + n, sizeof header - (size_t)n, "), }");
    while ((n + 11) % 64 != 0)
        header[n++] = ' ';
    header[n++] = '\n';
    snprintf(path, sizeof path, "%s/%s.npy", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    unsigned char len[2] = { (unsigned char)(n & 0xff), (unsigned char)(n >> 8) };
    fwrite("\x93NUMPY\x01\x00", 1, 8, f);
    fwrite(len, 1, 2, f);
    fwrite(header, 1, (size_t)n, f);
    fwrite(data, itemsize, (size_t)count, f);
    fclose(f);
}

static int run(const char *dir)
{
    char in[4096], out[4096];
    snprintf(in, sizeof in, "%s/in", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    enum { B = 5, C = 7, N = 100 };
    float x[B * C];
    int64_t n[N], e[N];
    double w[N], scale = 0.5, total;
    for (int i = 0; i < B * C; i++)
        x[i] = 3.0f * sinf((float)i);
    for (int i = 0; i < N; i++) {
        n[i] = (i * 7) % 13;
        w[i] = cos(i);
        e[i] = i % 5;
    }
    float *y = NULL;
    int64_t *counts = NULL, *powers = NULL, counts_len = -1;
    double *scaled = NULL;
    if (softmax(B, C, x, &y) != 0 ||
        stats(N, n, w, e, scale, &counts, &total, &scaled, &powers, &counts_len) != 0) {
        fprintf(stderr, "harness: a library call failed\n");
        return 1;
    }
    const int64_t xs[] = { B, C }, ns[] = { N }, cs[] = { counts_len };
    npy_write(in, "x", "<f4", 2, xs, x, sizeof *x);
    npy_write(in, "n", "<i8", 1, ns, n, sizeof *n);
    npy_write(in, "w", "<f8", 1, ns, w, sizeof *w);
    npy_write(in, "e", "<i8", 1, ns, e, sizeof *e);
    npy_write(out, "y", "<f4", 2, xs, y, sizeof *y);
    npy_write(out, "counts", "<i8", 1, cs, counts, sizeof *counts);
    npy_write(out, "total", "<f8", 0, NULL, &total, sizeof total);
    npy_write(out, "scaled", "<f8", 1, ns, scaled, sizeof *scaled);
    npy_write(out, "powers", "<i8", 1, ns, powers, sizeof *powers);
    free(y);
    free(counts);
    free(scaled);
    free(powers);
    return 0;
}

static int errors(void)
{
    enum { N = 1000 };
    static int64_t n[N], e[N];
    static double w[N];
    double total = -1;
    int64_t *counts = NULL, *powers = NULL, counts_len = -1;
    double *scaled = NULL;
    float x[1] = { 0 }, *y = NULL;
    for (int i = 0; i < N; i++) {
        n[i] = i % 10;
        e[i] = i >= N / 2 && i % 3 == 0 ? -1 : 2;   /* in the second thread's half */
    }
    int rc = 0, failed = 0;
    for (int k = 0; k < 20; k++) { /* a thread that jumps out of the loop would crash one of them */
        rc = stats(N, n, w, e, 1.0, &counts, &total, &scaled, &powers, &counts_len);
        failed += rc == 3;
    }
    printf("negative exponent: %d (%d of 20), outputs untouched: %s\n", rc, failed,
           !counts && !scaled && !powers && total == -1 && counts_len == -1 ? "yes" : "no");
    for (int i = 0; i < N; i++)
        e[i] = 1;
    n[7] = -2;
    rc = stats(N, n, w, e, 1.0, &counts, &total, &scaled, &powers, &counts_len);
    printf("negative value: %d, outputs untouched: %s\n", rc,
           !counts && !scaled && !powers && total == -1 && counts_len == -1 ? "yes" : "no");
    rc = softmax(-1, 1, x, &y);
    printf("negative size: %d, output untouched: %s\n", rc, y ? "no" : "yes");
    n[7] = 7;                      /* and the library still works */
    rc = stats(N, n, w, e, 1.0, &counts, &total, &scaled, &powers, &counts_len);
    printf("then a good call: %d, %lld bins, 2 ** 1 = %lld\n", rc, (long long)counts_len, (long long)powers[0]);
    free(counts);
    free(scaled);
    free(powers);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "run"))
        return run(argv[2]);
    if (argc == 2 && !strcmp(argv[1], "errors"))
        return errors();
    fprintf(stderr, "usage: harness run DIR | harness errors\n");
    return 2;
}
