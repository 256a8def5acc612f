/* warp.cu: warp-level functions.
 *   ./warp reduce   block sums by __shfl_down_sync within each warp, then
 *                   across warps through shared memory (256 threads, and a
 *                   2-D block of 32 x 4 whose warps are rows)
 *   ./warp lanes    __shfl_xor_sync (all-reduce), __shfl_sync (broadcast,
 *                   and width 8), __shfl_up_sync (inclusive scan), double and
 *                   long long values, __ballot_sync / __any_sync /
 *                   __all_sync, __syncthreads_count / _and / _or */
#include "npx_cuda.h"
#include "emu_check.h"

static __device__ __forceinline__ float warp_sum(float v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, (unsigned)off);
    return v;
}

/* out[b] = sum of the block's x, any block shape (threads a multiple of 32). */
__global__ void shfl_block_sum(const float *__restrict__ x, float *__restrict__ out)
{
    NPX_SHARED(float, warp_sums, 32);
    unsigned nt = blockDim.x * blockDim.y;
    unsigned t = threadIdx.x + threadIdx.y * blockDim.x;
    float v = warp_sum(x[blockIdx.x * nt + t]);
    if (t % 32 == 0)
        warp_sums[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = t < nt / 32 ? warp_sums[t] : 0.0f;
        v = warp_sum(v);
        if (t == 0)
            out[blockIdx.x] = v;
    }
}

struct lanes_out {
    float xor_sum;                 /* of lane values, at every lane */
    int bcast;                     /* lane 3's value */
    int seg;                       /* width 8: lane 2 of my group of 8 */
    int scan;                      /* inclusive scan of lane + 1 */
    double dsum;
    long long lsum;
    unsigned ballot;
    int any, all;
    int count, band, bor;
};

__global__ void lanes(lanes_out *out)
{
    unsigned t = threadIdx.x, lane = t % 32;
    lanes_out r;
    float f = (float)lane;
    for (int m = 16; m > 0; m >>= 1)
        f += __shfl_xor_sync(0xffffffffu, f, m);
    r.xor_sum = f;
    r.bcast = __shfl_sync(0xffffffffu, (int)(t * 10), 3);
    r.seg = __shfl_sync(0xffffffffu, (int)lane, 2, 8);
    int s = (int)lane + 1;
    for (unsigned off = 1; off < 32; off <<= 1) {
        int o = __shfl_up_sync(0xffffffffu, s, off);
        if (lane >= off)
            s += o;
    }
    r.scan = s;
    double d = 0.5 * lane;
    long long l = (long long)lane << 33;
    for (int off = 16; off > 0; off >>= 1) {
        d += __shfl_down_sync(0xffffffffu, d, (unsigned)off);
        l += __shfl_down_sync(0xffffffffu, l, (unsigned)off);
    }
    r.dsum = d;
    r.lsum = l;
    r.ballot = __ballot_sync(0xffffffffu, lane % 3 == 0);
    r.any = __any_sync(0xffffffffu, t == 40);
    r.all = __all_sync(0xffffffffu, lane < 31);
    r.count = __syncthreads_count(t % 4 == 0);
    r.band = __syncthreads_and(t < 1000);
    r.bor = __syncthreads_or(t == 63);
    out[t] = r;
}

static int warp_reduce(void)
{
    const int blocks = 20, nt = 256;
    float x[blocks * nt], got[blocks];
    for (int i = 0; i < blocks * nt; i++)
        x[i] = (float)(i % 13);
    float *d_x = emu_to_device(x, blocks * nt), *d_out;
    NPX_CUDA_CHECK(cudaMalloc(&d_out, sizeof got));
    for (int shape = 0; shape < 2; shape++) {
        int per = shape == 0 ? nt : 128;
        if (shape == 0)
            NPX_LAUNCH(shfl_block_sum, blocks, nt, 0, 0, d_x, d_out);
        else
            NPX_LAUNCH(shfl_block_sum, blocks, dim3(32, 4), 0, 0, d_x, d_out);
        NPX_CUDA_CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
        for (int b = 0; b < blocks; b++) {
            float want = 0;
            for (int i = 0; i < per; i++)
                want += x[b * per + i];
            EXPECT(got[b] == want, "block shape %d: sum[%d] = %g, expected %g", shape, b, got[b], want);
        }
    }
    NPX_CUDA_CHECK(cudaFree(d_x));
    NPX_CUDA_CHECK(cudaFree(d_out));
    return emu_status("reduce");
}

static int warp_lanes(void)
{
    const int nt = 64;
    lanes_out got[nt];
    lanes_out *d_out;
    NPX_CUDA_CHECK(cudaMalloc(&d_out, sizeof got));
    NPX_LAUNCH(lanes, 1, nt, 0, 0, d_out);
    NPX_CUDA_CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    for (int t = 0; t < nt; t++) {
        int lane = t % 32, warp0 = t - lane;
        const lanes_out &r = got[t];
        EXPECT(r.xor_sum == 496.0f, "thread %d: xor sum %g", t, r.xor_sum);
        EXPECT(r.bcast == (warp0 + 3) * 10, "thread %d: broadcast %d", t, r.bcast);
        EXPECT(r.seg == (lane & ~7) + 2, "thread %d: width-8 shuffle %d", t, r.seg);
        EXPECT(r.scan == (lane + 1) * (lane + 2) / 2, "thread %d: scan %d", t, r.scan);
        if (lane == 0) {
            EXPECT(r.dsum == 248.0, "thread %d: double sum %g", t, r.dsum);
            EXPECT(r.lsum == 496LL << 33, "thread %d: long long sum %lld", t, r.lsum);
        }
        EXPECT(r.ballot == 0x49249249u, "thread %d: ballot 0x%x", t, r.ballot);
        EXPECT(r.any == (warp0 == 32), "thread %d: any %d", t, r.any);
        EXPECT(r.all == 0, "thread %d: all %d", t, r.all);
        EXPECT(r.count == 16 && r.band == 1 && r.bor == 1, "thread %d: count %d and %d or %d", t, r.count,
               r.band, r.bor);
    }
    NPX_CUDA_CHECK(cudaFree(d_out));
    return emu_status("lanes");
}

static int warp_main(int argc, char **argv)
{
    static const char *const modes[] = {"reduce", "lanes", NULL};
    switch (emu_mode(argc, argv, modes)) {
    case 0: return warp_reduce();
    case 1: return warp_lanes();
    default: return 2;
    }
}

#ifndef EMU_ALL
int main(int argc, char **argv)
{
    return warp_main(argc, argv);
}
#endif
