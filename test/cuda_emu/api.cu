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
 *                      undefined, so not run there)
 *   ./api graph        a stream captured as a graph (allocations, a memset,
 *                      kernels, cuBLAS, frees) runs only when launched, and
 *                      again at each launch; relaunching one that keeps its
 *                      memory needs cudaGraphInstantiateFlagAutoFreeOnLaunch
 *   ./api graph-sync   a cudaMemcpy during a capture: exit 4, "operation not
 *                      permitted when stream is capturing"
 *   ./api graph-legacy a launch on the legacy stream during a capture: exit 4 */
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

__global__ void affine(float *y, const float *x, float a, float b, int n)
{
    for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += (int)(gridDim.x * blockDim.x))
        y[i] = a * x[i] + b;
}

/* Captures t = 2x + 1 (t allocated and freed in the graph), y = t t^T / 2
 * (cuBLAS, y allocated in the graph and left to the caller), z = 0 then
 * z += 3 y: everything in stream order on one stream. */
static cudaGraph_t api_capture(cudaStream_t stream, cublasHandle_t blas, const float *d_x, float **d_y,
                               float **d_z, int n)
{
    cudaGraph_t graph;
    float *t;
    NPX_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    NPX_CUDA_CHECK(cudaMallocAsync(&t, n * sizeof(float), stream));
    NPX_CUDA_CHECK(cudaMallocAsync(d_y, n * n * sizeof(float), stream));
    NPX_LAUNCH(affine, 2, 64, 0, stream, t, d_x, 2.0f, 1.0f, n);
    {
        const float half = 0.5f, zero = 0.0f;      /* gone before the graph runs */
        NPX_CUBLAS_CHECK(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_T, n, n, 1, &half, t, n, t, n, &zero, *d_y, n));
    }
    NPX_CUDA_CHECK(cudaMemsetAsync(*d_z, 0, n * sizeof(float), stream));
    NPX_LAUNCH(affine, 2, 64, 0, stream, *d_z, *d_y, 3.0f, 0.0f, n);
    NPX_CUDA_CHECK(cudaFreeAsync(t, stream));
    NPX_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    return graph;
}

static int api_graph(void)
{
    const int n = 100;
    float x[n], y[n * n], z[n], *d_x, *d_y = nullptr, *d_z;
    cudaStream_t stream;
    cublasHandle_t blas;
    cudaGraphExec_t exec;
    for (int i = 0; i < n; i++)
        x[i] = (float)i;
    NPX_CUDA_CHECK(cudaStreamCreate(&stream));
    NPX_CUBLAS_CHECK(cublasCreate(&blas));
    NPX_CUBLAS_CHECK(cublasSetStream(blas, stream));
    NPX_CUDA_CHECK(cudaMalloc(&d_x, sizeof x));
    NPX_CUDA_CHECK(cudaMalloc(&d_z, sizeof z));
    NPX_CUDA_CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));
    NPX_CUDA_CHECK(cudaMemset(d_z, 0xff, sizeof z));
    cudaGraph_t graph = api_capture(stream, blas, d_x, &d_y, &d_z, n);
    NPX_CUDA_CHECK(cudaMemcpy(z, d_z, sizeof z, cudaMemcpyDeviceToHost));
    EXPECT(z[0] != z[0], "z was written during the capture: %g", z[0]);   /* still the 0xff bytes: NaN */
    NPX_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    cudaGraphExec_t second;
    EXPECT(cudaGraphInstantiate(&second, graph, 0) != cudaSuccess, "a second instance of a graph with memory");
    (void)cudaGetLastError();
    for (int launch = 0; launch < 3; launch++) {
        NPX_CUDA_CHECK(cudaMemset(d_z, 0xff, sizeof z));
        NPX_CUDA_CHECK(cudaGraphLaunch(exec, stream));
        NPX_CUDA_CHECK(cudaStreamSynchronize(stream));
        NPX_CUDA_CHECK(cudaMemcpy(z, d_z, sizeof z, cudaMemcpyDeviceToHost));
        NPX_CUDA_CHECK(cudaMemcpy(y, d_y, sizeof y, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++)
            EXPECT(z[i] == 1.5f * (2 * i + 1), "launch %d: z[%d] = %g", launch, i, z[i]);
        EXPECT(y[5 + 7 * n] == 0.5f * 11 * 15, "launch %d: y[5, 7] = %g", launch, y[5 + 7 * n]);
    }
    NPX_CUDA_CHECK(cudaGraphExecDestroy(exec));
    /* Without the flag, the memory left allocated must be freed first. */
    NPX_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    NPX_CUDA_CHECK(cudaGraphDestroy(graph));
    NPX_CUDA_CHECK(cudaFreeAsync(d_y, stream));
    NPX_CUDA_CHECK(cudaGraphLaunch(exec, stream));
    EXPECT(cudaGraphLaunch(exec, stream) == cudaErrorInvalidValue, "a relaunch with the graph's memory allocated");
    (void)cudaGetLastError();
    NPX_CUDA_CHECK(cudaStreamSynchronize(stream));
    NPX_CUDA_CHECK(cudaFreeAsync(d_y, stream));
    NPX_CUDA_CHECK(cudaStreamSynchronize(stream));
    NPX_CUDA_CHECK(cudaGraphExecDestroy(exec));
    NPX_CUBLAS_CHECK(cublasDestroy(blas));
    NPX_CUDA_CHECK(cudaStreamDestroy(stream));
    NPX_CUDA_CHECK(cudaFree(d_x));
    NPX_CUDA_CHECK(cudaFree(d_z));
    return emu_status("graph");
}

static int api_main(int argc, char **argv)
{
    static const char *const modes[] = {"events", "oom", "bad-launch", "host-pointer", "bad-copy", "deadlock",
                                        "graph", "graph-sync", "graph-legacy", NULL};
    int mode = emu_mode(argc, argv, modes);
    int *d_y = nullptr, host[64];
    float *d_f = nullptr;
    cudaStream_t stream;
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
    case 6:
        return api_graph();
    case 7:
    case 8:
        NPX_CUDA_CHECK(cudaMalloc(&d_y, 64 * sizeof(int)));
        NPX_CUDA_CHECK(cudaStreamCreate(&stream));
        NPX_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
        NPX_LAUNCH(fill, 1, 64, 0, stream, d_y, 64, 0);
        if (mode == 7)
            NPX_CUDA_CHECK(cudaMemcpy(host, d_y, sizeof host, cudaMemcpyDeviceToHost));
        else
            NPX_LAUNCH(fill, 1, 64, 0, 0, d_y, 64, 0);
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
