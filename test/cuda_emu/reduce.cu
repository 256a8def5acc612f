/* reduce.cu: block-level work in shared memory between barriers, and what
 * the emulation's thread orders make of a missing barrier.
 *   ./reduce sum DROP      sum of 100000 values: a grid-stride loop, then a
 *                          tree in shared memory (DROP 1: without the
 *                          barrier after the store; 2: without the one in
 *                          the tree loop)
 *   ./reduce cumsum DROP   per-block inclusive scan (Hillis-Steele), reading
 *                          the element off places to the left
 *   ./reduce rcumsum DROP  the same from the right (reads to the right)
 *                          (DROP 1: without the barrier between a step's
 *                          reads and its writes)
 * DROP 0 must be right in every NPX_EMU_ORDER; each dropped barrier must
 * give a wrong answer in at least one order (see cuda_emu.bats). */
#include "npx_cuda.h"
#include "emu_check.h"

#define REDUCE_BLOCK 256

/* partial[b] = sum of x[i] over the i that block b visits. */
__global__ void block_sum(const float *__restrict__ x, float *__restrict__ partial, int n, int drop)
{
    NPX_SHARED(float, buf, REDUCE_BLOCK);
    unsigned tid = threadIdx.x;
    float acc = 0.0f;
    for (int i = (int)(blockIdx.x * blockDim.x + tid); i < n; i += (int)(gridDim.x * blockDim.x))
        acc += x[i];
    buf[tid] = acc;
    if (drop != 1)
        __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            buf[tid] += buf[tid + s];
        if (drop != 2)
            __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = buf[0];
}

/* y = per-block inclusive cumsum of x (dir 1), or from the right (dir -1). */
__global__ void block_scan(const int *__restrict__ x, int *__restrict__ y, int n, int dir, int drop)
{
    NPX_SHARED(int, buf, REDUCE_BLOCK);
    int tid = (int)threadIdx.x, nt = (int)blockDim.x;
    int i = (int)(blockIdx.x * blockDim.x) + tid;
    buf[tid] = i < n ? x[i] : 0;
    __syncthreads();
    for (int off = 1; off < nt; off <<= 1) {
        int from = tid - dir * off;
        int v = from >= 0 && from < nt ? buf[from] : 0;
        if (drop != 1)
            __syncthreads();       /* every read of this step before any write */
        buf[tid] += v;
        __syncthreads();
    }
    if (i < n)
        y[i] = buf[tid];
}

static int reduce_sum(int drop)
{
    const int n = 100000, blocks = 40;
    float *x = (float *)malloc(n * sizeof(float));
    double want = 0;
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 7);     /* integers: every order adds exactly */
        want += x[i];
    }
    float *d_x = emu_to_device(x, n), *d_partial;
    NPX_CUDA_CHECK(cudaMalloc(&d_partial, blocks * sizeof(float)));
    NPX_LAUNCH(block_sum, blocks, REDUCE_BLOCK, 0, 0, d_x, d_partial, n, drop);
    float partial[blocks];
    NPX_CUDA_CHECK(cudaMemcpy(partial, d_partial, sizeof partial, cudaMemcpyDeviceToHost));
    double got = 0;
    for (int b = 0; b < blocks; b++)
        got += partial[b];
    EXPECT(got == want, "sum %.17g, expected %.17g", got, want);
    NPX_CUDA_CHECK(cudaFree(d_x));
    NPX_CUDA_CHECK(cudaFree(d_partial));
    free(x);
    return emu_status("sum");
}

static int reduce_scan(int dir, int drop)
{
    const int n = 1000, blocks = (n + REDUCE_BLOCK - 1) / REDUCE_BLOCK;
    int x[n], y[n];
    for (int i = 0; i < n; i++)
        x[i] = (i * 37) % 11 - 5;
    int *d_x = emu_to_device(x, n), *d_y;
    NPX_CUDA_CHECK(cudaMalloc(&d_y, sizeof y));
    NPX_LAUNCH(block_scan, blocks, REDUCE_BLOCK, 0, 0, d_x, d_y, n, dir, drop);
    NPX_CUDA_CHECK(cudaMemcpy(y, d_y, sizeof y, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int lo = b * REDUCE_BLOCK, hi = lo + REDUCE_BLOCK < n ? lo + REDUCE_BLOCK : n, acc = 0;
        for (int k = 0; k < hi - lo; k++) {
            int i = dir > 0 ? lo + k : hi - 1 - k;
            acc += x[i];
            EXPECT(y[i] == acc, "scan y[%d] = %d, expected %d", i, y[i], acc);
        }
    }
    NPX_CUDA_CHECK(cudaFree(d_x));
    NPX_CUDA_CHECK(cudaFree(d_y));
    return emu_status(dir > 0 ? "cumsum" : "rcumsum");
}

static int reduce_main(int argc, char **argv)
{
    static const char *const modes[] = {"sum", "cumsum", "rcumsum", NULL};
    int mode = emu_mode(argc, argv, modes);
    if (mode < 0 || argc != 3)
        return 2;
    int drop = atoi(argv[2]);
    return mode == 0 ? reduce_sum(drop) : reduce_scan(mode == 1 ? 1 : -1, drop);
}

#ifndef EMU_ALL
int main(int argc, char **argv)
{
    return reduce_main(argc, argv);
}
#endif
