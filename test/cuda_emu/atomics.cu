/* atomics.cu: atomic updates of shared and global memory.
 *   ./atomics histogram   bincount of 200000 values into 100 bins, privatized
 *                         per block in shared memory (atomicAdd on unsigned
 *                         int), then added to global counts (unsigned long
 *                         long), and a weighted bincount (atomicAdd on float
 *                         and double)
 *   ./atomics minmax      atomicMax / atomicMin on int, unsigned, long long
 *                         and unsigned long long, and atomicCAS / atomicExch */
#include <stdint.h>
#include "npx_cuda.h"
#include "emu_check.h"

#define HIST_BLOCK 256
#define HIST_MAX_BINS 128

__global__ void histogram(const int *__restrict__ x, const float *__restrict__ w, int n, int nbins,
                          unsigned long long *__restrict__ counts, float *__restrict__ wsum_f,
                          double *__restrict__ wsum_d)
{
    NPX_SHARED(unsigned int, local, HIST_MAX_BINS);
    NPX_SHARED(float, local_w, HIST_MAX_BINS);
    for (int b = (int)threadIdx.x; b < nbins; b += (int)blockDim.x) {
        local[b] = 0;
        local_w[b] = 0.0f;
    }
    __syncthreads();
    for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += (int)(gridDim.x * blockDim.x)) {
        atomicAdd(&local[x[i]], 1u);
        atomicAdd(&local_w[x[i]], w[i]);
        atomicAdd(&wsum_d[x[i]], (double)w[i]);
    }
    __syncthreads();
    for (int b = (int)threadIdx.x; b < nbins; b += (int)blockDim.x) {
        if (local[b])
            atomicAdd(&counts[b], (unsigned long long)local[b]);
        atomicAdd(&wsum_f[b], local_w[b]);
    }
}

static int atomics_histogram(void)
{
    const int n = 200000, nbins = 100;
    int *x = (int *)malloc(n * sizeof(int));
    float *w = (float *)malloc(n * sizeof(float));
    unsigned long long want[nbins] = {0}, got[nbins];
    double want_w[nbins] = {0}, got_d[nbins];
    float got_f[nbins];
    for (int i = 0; i < n; i++) {
        x[i] = (int)(((unsigned)i * 2654435761u) % nbins);
        w[i] = (float)(i % 5);     /* small integers: float sums stay exact */
        want[x[i]]++;
        want_w[x[i]] += w[i];
    }
    int *d_x = emu_to_device(x, n);
    float *d_w = emu_to_device(w, n), *d_wf;
    unsigned long long *d_counts;
    double *d_wd;
    NPX_CUDA_CHECK(cudaMalloc(&d_counts, sizeof got));
    NPX_CUDA_CHECK(cudaMalloc(&d_wf, sizeof got_f));
    NPX_CUDA_CHECK(cudaMalloc(&d_wd, sizeof got_d));
    NPX_CUDA_CHECK(cudaMemset(d_counts, 0, sizeof got));
    NPX_CUDA_CHECK(cudaMemset(d_wf, 0, sizeof got_f));
    NPX_CUDA_CHECK(cudaMemset(d_wd, 0, sizeof got_d));
    NPX_LAUNCH(histogram, 50, HIST_BLOCK, 0, 0, d_x, d_w, n, nbins, d_counts, d_wf, d_wd);
    NPX_CUDA_CHECK(cudaMemcpy(got, d_counts, sizeof got, cudaMemcpyDeviceToHost));
    NPX_CUDA_CHECK(cudaMemcpy(got_f, d_wf, sizeof got_f, cudaMemcpyDeviceToHost));
    NPX_CUDA_CHECK(cudaMemcpy(got_d, d_wd, sizeof got_d, cudaMemcpyDeviceToHost));
    for (int b = 0; b < nbins; b++) {
        EXPECT(got[b] == want[b], "count[%d] = %llu, expected %llu", b, got[b], want[b]);
        EXPECT(got_f[b] == (float)want_w[b], "float weight[%d] = %g, expected %g", b, got_f[b], want_w[b]);
        EXPECT(got_d[b] == want_w[b], "double weight[%d] = %g, expected %g", b, got_d[b], want_w[b]);
    }
    NPX_CUDA_CHECK(cudaFree(d_x));
    NPX_CUDA_CHECK(cudaFree(d_w));
    NPX_CUDA_CHECK(cudaFree(d_counts));
    NPX_CUDA_CHECK(cudaFree(d_wf));
    NPX_CUDA_CHECK(cudaFree(d_wd));
    free(x);
    free(w);
    return emu_status("histogram");
}

/* The extremes of x, four ways; r[0..1] int, u[0..1] unsigned, l[0..1] and
 * ul[0..1] 64-bit (int64_t is long, so it is cast to long long as npxc
 * must). cas counts the threads whose atomicCAS won; last takes atomicExch. */
struct minmax_out {
    int imax, imin;
    unsigned umax, umin;
    long long lmax, lmin;
    unsigned long long ulmax, ulmin;
    int cas_winners, exch;
};

__global__ void minmax(const int64_t *__restrict__ x, int n, minmax_out *out, int *flag)
{
    for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += (int)(gridDim.x * blockDim.x)) {
        int64_t v = x[i];
        atomicMax(&out->imax, (int)(v % 1000000));
        atomicMin(&out->imin, (int)(v % 1000000));
        atomicMax(&out->umax, (unsigned)(v & 0xffff));
        atomicMin(&out->umin, (unsigned)(v & 0xffff));
        atomicMax((long long *)&out->lmax, (long long)v);
        atomicMin((long long *)&out->lmin, (long long)v);
        atomicMax(&out->ulmax, (unsigned long long)v);
        atomicMin(&out->ulmin, (unsigned long long)v);
        if (atomicCAS(flag, 0, i + 1) == 0)
            atomicAdd(&out->cas_winners, 1);
        atomicExch(&out->exch, 7);
    }
}

static int atomics_minmax(void)
{
    const int n = 10000;
    int64_t x[n];
    minmax_out want = {}, got;
    for (int i = 0; i < n; i++) {
        /* both signs, beyond 32 bits */
        x[i] = (int64_t)((uint64_t)i * 0x9E3779B97F4A7C15ull >> 20) - ((int64_t)1 << 42);
        if (i == 0 || (int)(x[i] % 1000000) > want.imax) want.imax = (int)(x[i] % 1000000);
        if (i == 0 || (int)(x[i] % 1000000) < want.imin) want.imin = (int)(x[i] % 1000000);
        if (i == 0 || (unsigned)(x[i] & 0xffff) > want.umax) want.umax = (unsigned)(x[i] & 0xffff);
        if (i == 0 || (unsigned)(x[i] & 0xffff) < want.umin) want.umin = (unsigned)(x[i] & 0xffff);
        if (i == 0 || x[i] > want.lmax) want.lmax = x[i];
        if (i == 0 || x[i] < want.lmin) want.lmin = x[i];
        if (i == 0 || (uint64_t)x[i] > want.ulmax) want.ulmax = (uint64_t)x[i];
        if (i == 0 || (uint64_t)x[i] < want.ulmin) want.ulmin = (uint64_t)x[i];
    }
    minmax_out init = {INT32_MIN, INT32_MAX, 0, UINT32_MAX, INT64_MIN, INT64_MAX, 0, UINT64_MAX, 0, 0};
    int64_t *d_x = emu_to_device(x, n);
    minmax_out *d_out = emu_to_device(&init, 1);
    int *d_flag;
    NPX_CUDA_CHECK(cudaMalloc(&d_flag, sizeof(int)));
    NPX_CUDA_CHECK(cudaMemset(d_flag, 0, sizeof(int)));
    NPX_LAUNCH(minmax, 7, 128, 0, 0, d_x, n, d_out, d_flag);
    NPX_CUDA_CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got.imax == want.imax && got.imin == want.imin, "int max/min %d %d, expected %d %d", got.imax,
           got.imin, want.imax, want.imin);
    EXPECT(got.umax == want.umax && got.umin == want.umin, "unsigned max/min %u %u, expected %u %u", got.umax,
           got.umin, want.umax, want.umin);
    EXPECT(got.lmax == want.lmax && got.lmin == want.lmin, "long long max/min %lld %lld, expected %lld %lld",
           got.lmax, got.lmin, want.lmax, want.lmin);
    EXPECT(got.ulmax == want.ulmax && got.ulmin == want.ulmin, "unsigned long long max/min %llu %llu",
           got.ulmax, got.ulmin);
    EXPECT(got.cas_winners == 1, "%d threads won the atomicCAS", got.cas_winners);
    EXPECT(got.exch == 7, "atomicExch left %d", got.exch);
    NPX_CUDA_CHECK(cudaFree(d_x));
    NPX_CUDA_CHECK(cudaFree(d_out));
    NPX_CUDA_CHECK(cudaFree(d_flag));
    return emu_status("minmax");
}

static int atomics_main(int argc, char **argv)
{
    static const char *const modes[] = {"histogram", "minmax", NULL};
    switch (emu_mode(argc, argv, modes)) {
    case 0: return atomics_histogram();
    case 1: return atomics_minmax();
    default: return 2;
    }
}

#ifndef EMU_ALL
int main(int argc, char **argv)
{
    return atomics_main(argc, argv);
}
#endif
