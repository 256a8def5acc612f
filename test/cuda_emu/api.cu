/* api.cu: the runtime API around the kernels, and its failures.
 *   ./api events       events time a kernel (elapsed >= 0), streams, memset,
 *                      device properties, cudaGetLastError's reset
 *   ./api oom          cudaMalloc of 2^60 bytes: exit 4, "out of memory"
 *   ./api bad-launch   a block of 2048 threads: exit 4, "invalid
 *                      configuration argument", naming the launch
 *   ./api host-pointer a host array passed to a kernel: exit 4
 *   ./api bad-copy     a host-to-device copy into a host array: exit 4
 *   ./api deadlock     half a warp at a shuffle, the rest at __syncthreads():
 *                      the emulation reports a deadlock, exit 4 (on a GPU:
 *                      undefined, so not run there) */
#include "npx_cuda.h"
#include "emu_check.h"

__global__ void fill(int *y, int n, int v)
{
    for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += (int)(gridDim.x * blockDim.x))
        y[i] = v + i;
}

__global__ void divergent(float *y)
{
    float v = (float)threadIdx.x;
    if (threadIdx.x % 32 < 16)
        v += __shfl_down_sync(0xffffffffu, v, 1);
    __syncthreads();
    y[threadIdx.x] = v;
}

static int api_events(void)
{
    const int n = 100000;
    int *d_y, *y = (int *)malloc(n * sizeof(int));
    cudaEvent_t start, stop;
    cudaStream_t stream;
    NPX_CUDA_CHECK(cudaStreamCreate(&stream));
    NPX_CUDA_CHECK(cudaEventCreate(&start));
    NPX_CUDA_CHECK(cudaEventCreateWithFlags(&stop, cudaEventDefault));
    NPX_CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(int)));
#ifdef NPX_CUDA_EMULATION
    /* Fresh device memory is garbage (0xff bytes) in the emulation. */
    NPX_CUDA_CHECK(cudaMemcpy(y, d_y, n * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(y[0] == -1 && y[n - 1] == -1, "fresh device memory: %d %d", y[0], y[n - 1]);
#endif
    NPX_CUDA_CHECK(cudaMemsetAsync(d_y, 0, n * sizeof(int), stream));
    NPX_CUDA_CHECK(cudaEventRecord(start, stream));
    NPX_LAUNCH(fill, 64, 128, 0, stream, d_y, n, 5);
    NPX_CUDA_CHECK(cudaEventRecord(stop, stream));
    NPX_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = -1.0f;
    NPX_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    EXPECT(ms >= 0.0f, "elapsed %g ms", ms);
    NPX_CUDA_CHECK(cudaMemcpyAsync(y, d_y, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
    NPX_CUDA_CHECK(cudaStreamSynchronize(stream));
    for (int i = 0; i < n; i++)
        EXPECT(y[i] == 5 + i, "y[%d] = %d", i, y[i]);
    NPX_CUDA_CHECK(cudaMemset(d_y, 0xff, n * sizeof(int)));
    NPX_CUDA_CHECK(cudaMemcpy(y, d_y, n * sizeof(int), cudaMemcpyDefault));
    EXPECT(y[0] == -1 && y[n - 1] == -1, "after memset: %d %d", y[0], y[n - 1]);

    cudaDeviceProp prop;
    int sms = 0, warp = 0, threads = 0, major = 0;
    NPX_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    NPX_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    NPX_CUDA_CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0));
    NPX_CUDA_CHECK(cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerBlock, 0));
    NPX_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    EXPECT(sms > 0 && sms == prop.multiProcessorCount, "multiprocessors %d and %d", sms, prop.multiProcessorCount);
    EXPECT(warp == 32 && prop.warpSize == 32 && threads == 1024 && major >= 7, "warp %d, threads %d, sm %d", warp,
           threads, major);
    printf("device: %s, %d multiprocessors, sm_%d%d\n", prop.name, sms, prop.major, prop.minor);

    /* A failed call is the last error until cudaGetLastError reads it. */
    EXPECT(cudaEventElapsedTime(nullptr, start, stop) == cudaErrorInvalidValue, "elapsed time into NULL");
    EXPECT(cudaPeekAtLastError() == cudaErrorInvalidValue, "peek");
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue, "last error");
    EXPECT(cudaGetLastError() == cudaSuccess, "last error after reading it");
    EXPECT(!strcmp(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory"), "error string");

    NPX_CUDA_CHECK(cudaEventDestroy(start));
    NPX_CUDA_CHECK(cudaEventDestroy(stop));
    NPX_CUDA_CHECK(cudaStreamDestroy(stream));
    NPX_CUDA_CHECK(cudaFree(d_y));
    NPX_CUDA_CHECK(cudaDeviceSynchronize());
    free(y);
    return emu_status("events");
}

static int api_main(int argc, char **argv)
{
    static const char *const modes[] = {"events", "oom", "bad-launch", "host-pointer", "bad-copy", "deadlock", NULL};
    int mode = emu_mode(argc, argv, modes);
    int *d_y = nullptr, host[64];
    float *d_f = nullptr;
    switch (mode) {
    case 0:
        return api_events();
    case 1: {
        void *big = nullptr;
        NPX_CUDA_CHECK(cudaMalloc(&big, (size_t)1 << 60));
        return 0;
    }
    case 2:
        NPX_CUDA_CHECK(cudaMalloc(&d_y, 64 * sizeof(int)));
        NPX_LAUNCH(fill, 1, 2048, 0, 0, d_y, 64, 0);
        return 0;
    case 3:
        NPX_LAUNCH(fill, 1, 64, 0, 0, host, 64, 0);
        return 0;
    case 4:
        NPX_CUDA_CHECK(cudaMalloc(&d_y, 64 * sizeof(int)));
        NPX_CUDA_CHECK(cudaMemcpy(host, d_y, sizeof host, cudaMemcpyHostToDevice));
        return 0;
    case 5:
        NPX_CUDA_CHECK(cudaMalloc(&d_f, 64 * sizeof(float)));
        NPX_LAUNCH(divergent, 1, 64, 0, 0, d_f);
        NPX_CUDA_CHECK(cudaDeviceSynchronize());
        return 0;
    default:
        return 2;
    }
}

#ifndef EMU_ALL
int main(int argc, char **argv)
{
    return api_main(argc, argv);
}
#endif
