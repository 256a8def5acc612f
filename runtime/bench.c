/* bench.c: --bench timing: a monotonic clock and the min and median of the
 * timed runs. */
#include <stdlib.h>
#include <time.h>
#include "npx_rt.h"

double npx_time_now(void)
{
    struct timespec ts;
#ifdef CLOCK_MONOTONIC
    clock_gettime(CLOCK_MONOTONIC, &ts);
#else
    timespec_get(&ts, TIME_UTC);
#endif
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int npx_bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void npx_bench_stats(double *samples, int64_t n, double *min, double *median)
{
    qsort(samples, (size_t)n, sizeof *samples, npx_bench_cmp);
    *min = samples[0];
    *median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}
