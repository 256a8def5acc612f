/* gpu_copy.cu: the GPU's device-to-device copy bandwidth, the yardstick for
 * memory-bound programs in make bench-gpu: cudaMemcpy of 1 GiB, timed with
 * events, median of 20. Prints "copy_GBps=N" (bytes read + written per second). */
#include <cstdio>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudaError_t err_ = (call);                                                               \
        if (err_ != cudaSuccess) {                                                               \
            fprintf(stderr, "gpu_copy: %s: %s\n", #call, cudaGetErrorString(err_));              \
            return 4;                                                                            \
        }                                                                                        \
    } while (0)

int main()
{
    const size_t bytes = (size_t)1 << 30;
    void *src, *dst;
    CHECK(cudaMalloc(&src, bytes));
    CHECK(cudaMalloc(&dst, bytes));
    CHECK(cudaMemset(src, 1, bytes));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::vector<float> ms;
    for (int i = 0; i < 21; i++) {
        CHECK(cudaEventRecord(start));
        CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float t;
        CHECK(cudaEventElapsedTime(&t, start, stop));
        if (i)                                   /* the first is a warm-up */
            ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    printf("copy_GBps=%.1f\n", 2.0 * bytes / (ms[ms.size() / 2] * 1e-3) / 1e9);
    return 0;
}
