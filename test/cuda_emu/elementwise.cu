/* elementwise.cu: kernels over big arrays, with the runtime headers pasted
 * after npx_cuda.h as in a generated program (npx_math.h's helpers run in
 * the kernels through NPX_INLINE).
 *   ./elementwise gridstride  y = maximum(a * 2 - b, 0) // 3 over 1M elements,
 *                             a grid-stride loop sized from the device's
 *                             multiprocessor count, on a stream
 *   ./elementwise transpose   a 1000 x 777 f64 transpose through a 32 x 33
 *                             shared tile (NPX_SHARED2, 2-D grid and block)
 *   ./elementwise dynamic     dynamic shared memory (NPX_SHARED_DYNAMIC)
 *   ./elementwise barriers    256 threads x 1000 blocks, 9 barriers each: the
 *                             emulation must take seconds, not minutes */
#include "npx_cuda.h"
#include "npx_rt.h"
#include "npx_math.h"
#include "emu_check.h"

__global__ void scale_sub_relu(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ y,
                               int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        float v = npx_maximum_f32(a[i] * 2.0f - b[i], 0.0f);
        y[i] = npx_floordiv_f32(v, 3.0f);
    }
}

static int ew_gridstride(void)
{
    const int64_t n = 1 << 20;
    float *a = (float *)malloc(n * sizeof(float)), *b = (float *)malloc(n * sizeof(float));
    float *y = (float *)malloc(n * sizeof(float));
    for (int64_t i = 0; i < n; i++) {
        a[i] = (float)(i % 1000) * 0.25f;
        b[i] = (float)(i % 777) * 0.5f;
    }
    int sms = 0;
    NPX_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaStream_t stream;
    NPX_CUDA_CHECK(cudaStreamCreate(&stream));
    float *d_a, *d_b, *d_y;
    NPX_CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(float)));
    NPX_CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(float)));
    NPX_CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
    NPX_CUDA_CHECK(cudaMemcpyAsync(d_a, a, n * sizeof(float), cudaMemcpyHostToDevice, stream));
    NPX_CUDA_CHECK(cudaMemcpyAsync(d_b, b, n * sizeof(float), cudaMemcpyHostToDevice, stream));
    NPX_LAUNCH(scale_sub_relu, sms * 4, 256, 0, stream, d_a, d_b, d_y, n);
    NPX_CUDA_CHECK(cudaMemcpyAsync(y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    NPX_CUDA_CHECK(cudaStreamSynchronize(stream));
    for (int64_t i = 0; i < n; i++) {
        float want = npx_floordiv_f32(npx_maximum_f32(a[i] * 2.0f - b[i], 0.0f), 3.0f);
        EXPECT(y[i] == want, "y[%lld] = %g, expected %g", (long long)i, y[i], want);
    }
    NPX_CUDA_CHECK(cudaStreamDestroy(stream));
    NPX_CUDA_CHECK(cudaFree(d_a));
    NPX_CUDA_CHECK(cudaFree(d_b));
    NPX_CUDA_CHECK(cudaFree(d_y));
    free(a);
    free(b);
    free(y);
    return emu_status("gridstride");
}

#define TILE 32
/* y (cols x rows) = x (rows x cols) transposed; blocks of TILE x 8 threads. */
__global__ void transpose(const double *__restrict__ x, double *__restrict__ y, int rows, int cols)
{
    NPX_SHARED2(double, tile, TILE, TILE + 1);
    int c = (int)(blockIdx.x * TILE + threadIdx.x);
    for (int k = (int)threadIdx.y; k < TILE; k += (int)blockDim.y) {
        int r = (int)blockIdx.y * TILE + k;
        if (r < rows && c < cols)
            tile[k][threadIdx.x] = x[(int64_t)r * cols + c];
    }
    __syncthreads();
    int r = (int)(blockIdx.y * TILE + threadIdx.x);
    for (int k = (int)threadIdx.y; k < TILE; k += (int)blockDim.y) {
        int c2 = (int)blockIdx.x * TILE + k;
        if (r < rows && c2 < cols)
            y[(int64_t)c2 * rows + r] = tile[threadIdx.x][k];
    }
}

static int ew_transpose(void)
{
    const int rows = 1000, cols = 777;
    double *x = (double *)malloc(sizeof(double) * rows * cols), *y = (double *)malloc(sizeof(double) * rows * cols);
    for (int i = 0; i < rows * cols; i++)
        x[i] = i * 0.5;
    double *d_x = emu_to_device(x, (size_t)rows * cols), *d_y;
    NPX_CUDA_CHECK(cudaMalloc(&d_y, sizeof(double) * rows * cols));
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), block(TILE, 8);
    NPX_LAUNCH(transpose, grid, block, 0, 0, d_x, d_y, rows, cols);
    NPX_CUDA_CHECK(cudaMemcpy(y, d_y, sizeof(double) * rows * cols, cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            EXPECT(y[c * rows + r] == x[r * cols + c], "y[%d, %d] = %g, expected %g", c, r, y[c * rows + r],
                   x[r * cols + c]);
    NPX_CUDA_CHECK(cudaFree(d_x));
    NPX_CUDA_CHECK(cudaFree(d_y));
    free(x);
    free(y);
    return emu_status("transpose");
}

/* out[b] = sum of block b's x, reversed through dynamic shared memory. */
__global__ void reverse_dot(const int *__restrict__ x, int *__restrict__ out)
{
    NPX_SHARED_DYNAMIC(int, buf);
    NPX_SHARED(int, total, 1);
    unsigned t = threadIdx.x, n = blockDim.x;
    buf[t] = x[blockIdx.x * n + t];
    if (t == 0)
        total[0] = 0;
    __syncthreads();
    atomicAdd(&total[0], buf[n - 1 - t] * (int)t);
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = total[0];
}

static int ew_dynamic(void)
{
    const int blocks = 6, nt = 96;
    int x[blocks * nt], got[blocks];
    for (int i = 0; i < blocks * nt; i++)
        x[i] = i % 17 - 8;
    int *d_x = emu_to_device(x, blocks * nt), *d_out;
    NPX_CUDA_CHECK(cudaMalloc(&d_out, sizeof got));
    NPX_LAUNCH(reverse_dot, blocks, nt, nt * sizeof(int), 0, d_x, d_out);
    NPX_CUDA_CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int want = 0;
        for (int t = 0; t < nt; t++)
            want += x[b * nt + nt - 1 - t] * t;
        EXPECT(got[b] == want, "block %d: %d, expected %d", b, got[b], want);
    }
    NPX_CUDA_CHECK(cudaFree(d_x));
    NPX_CUDA_CHECK(cudaFree(d_out));
    return emu_status("dynamic");
}

__global__ void tree_sums(const float *__restrict__ x, float *__restrict__ out)
{
    NPX_SHARED(float, buf, 256);
    unsigned t = threadIdx.x;
    buf[t] = x[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned s = 128; s > 0; s >>= 1) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = buf[0];
}

static int ew_barriers(void)
{
    const int blocks = 1000, n = 256 * blocks;
    float *x = (float *)malloc(n * sizeof(float)), got[blocks];
    for (int i = 0; i < n; i++)
        x[i] = (float)(i % 3);
    float *d_x = emu_to_device(x, n), *d_out;
    NPX_CUDA_CHECK(cudaMalloc(&d_out, sizeof got));
    cudaEvent_t start, stop;
    NPX_CUDA_CHECK(cudaEventCreate(&start));
    NPX_CUDA_CHECK(cudaEventCreate(&stop));
    NPX_CUDA_CHECK(cudaEventRecord(start, 0));
    NPX_LAUNCH(tree_sums, blocks, 256, 0, 0, d_x, d_out);
    NPX_CUDA_CHECK(cudaEventRecord(stop, 0));
    NPX_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = -1;
    NPX_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    NPX_CUDA_CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        float want = 0;
        for (int i = 0; i < 256; i++)
            want += x[b * 256 + i];
        EXPECT(got[b] == want, "block %d: %g, expected %g", b, got[b], want);
    }
    printf("256 x %d threads, 9 barriers each: %.0f ms\n", blocks, ms);
    NPX_CUDA_CHECK(cudaEventDestroy(start));
    NPX_CUDA_CHECK(cudaEventDestroy(stop));
    NPX_CUDA_CHECK(cudaFree(d_x));
    NPX_CUDA_CHECK(cudaFree(d_out));
    free(x);
    return emu_status("barriers");
}

static int ew_main(int argc, char **argv)
{
    static const char *const modes[] = {"gridstride", "transpose", "dynamic", "barriers", NULL};
    switch (emu_mode(argc, argv, modes)) {
    case 0: return ew_gridstride();
    case 1: return ew_transpose();
    case 2: return ew_dynamic();
    case 3: return ew_barriers();
    default: return 2;
    }
}

#ifndef EMU_ALL
int main(int argc, char **argv)
{
    return ew_main(argc, argv);
}
#endif
