/* gemm.cu: cuBLAS matrix products against a naive loop.
 *   ./gemm all      cublasSgemm and cublasDgemm, every transpose combination
 *                   (N, T, C), padded leading dimensions, alpha/beta, beta 0
 *                   over a C full of NaN, alpha 0, k 0, a stream, TF32 mode
 *   ./gemm bad-ld   lda smaller than the rows of A: NPX_CUBLAS_CHECK exits 4 */
#include <math.h>
#include "npx_cuda.h"
#include "emu_check.h"

/* C = alpha op(A) op(B) + beta C, column-major, in long double. */
template <typename T>
static void naive_gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, T alpha, const T *A,
                       int lda, const T *B, int ldb, T beta, T *C, int ldc)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            long double acc = 0;
            for (int l = 0; l < k; l++) {
                T a = ta == CUBLAS_OP_N ? A[i + l * lda] : A[l + i * lda];
                T b = tb == CUBLAS_OP_N ? B[l + j * ldb] : B[j + l * ldb];
                acc += (long double)a * b;
            }
            T c = C[i + j * ldc];
            C[i + j * ldc] = (T)(beta == 0 ? alpha * acc : alpha * acc + (long double)beta * c);
        }
}

static cublasStatus_t gemm_call(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                const float *alpha, const float *A, int lda, const float *B, int ldb,
                                const float *beta, float *C, int ldc)
{
    return cublasSgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
static cublasStatus_t gemm_call(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                const double *alpha, const double *A, int lda, const double *B, int ldb,
                                const double *beta, double *C, int ldc)
{
    return cublasDgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

/* One product on the device against naive_gemm; rtol relative to the size
 * of the terms (sum of |alpha a b| + |beta c|). */
template <typename T>
static void gemm_case(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, T alpha,
                      T beta, bool nan_c, double rtol)
{
    int arows = ta == CUBLAS_OP_N ? m : k, acols = ta == CUBLAS_OP_N ? k : m;
    int brows = tb == CUBLAS_OP_N ? k : n, bcols = tb == CUBLAS_OP_N ? n : k;
    int lda = arows + 3, ldb = brows + 1, ldc = m + 2;
    size_t asz = (size_t)lda * (acols > 0 ? acols : 1), bsz = (size_t)ldb * (bcols > 0 ? bcols : 1);
    size_t csz = (size_t)ldc * n;
    T *A = (T *)malloc(asz * sizeof(T)), *B = (T *)malloc(bsz * sizeof(T)), *C = (T *)malloc(csz * sizeof(T));
    T *want = (T *)malloc(csz * sizeof(T)), *got = (T *)malloc(csz * sizeof(T));
    for (size_t i = 0; i < asz; i++)
        A[i] = (T)((double)((i * 7919) % 1000) / 997.0 - 0.5);
    for (size_t i = 0; i < bsz; i++)
        B[i] = (T)((double)((i * 104729) % 1000) / 991.0 - 0.3);
    for (size_t i = 0; i < csz; i++)
        C[i] = nan_c ? (T)NAN : (T)((double)(i % 10) - 4.5);
    memcpy(want, C, csz * sizeof(T));
    naive_gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, want, ldc);
    T *d_A = emu_to_device(A, asz), *d_B = emu_to_device(B, bsz), *d_C = emu_to_device(C, csz);
    NPX_CUBLAS_CHECK(gemm_call(h, ta, tb, m, n, k, &alpha, d_A, lda, d_B, ldb, &beta, d_C, ldc));
    NPX_CUDA_CHECK(cudaMemcpy(got, d_C, csz * sizeof(T), cudaMemcpyDeviceToHost));
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            size_t at = (size_t)i + (size_t)j * ldc;
            double scale = fabs((double)beta) * (nan_c ? 0 : fabs((double)C[at])) + 1e-30;
            for (int l = 0; l < k; l++) {
                double a = ta == CUBLAS_OP_N ? A[i + l * lda] : A[l + i * lda];
                double b = tb == CUBLAS_OP_N ? B[l + j * ldb] : B[j + l * ldb];
                scale += fabs((double)alpha * a * b);
            }
            EXPECT(fabs((double)got[at] - (double)want[at]) <= rtol * scale,
                   "%s ta=%d tb=%d m=%d n=%d k=%d: C[%d, %d] = %.17g, expected %.17g",
                   sizeof(T) == 4 ? "Sgemm" : "Dgemm", (int)ta, (int)tb, m, n, k, i, j, (double)got[at],
                   (double)want[at]);
        }
    /* The padding between columns is left alone. */
    for (int j = 0; j < n; j++)
        for (int i = m; i < ldc; i++) {
            size_t at = (size_t)i + (size_t)j * ldc;
            EXPECT(memcmp(&got[at], &C[at], sizeof(T)) == 0, "padding C[%d, %d] was written", i, j);
        }
    NPX_CUDA_CHECK(cudaFree(d_A));
    NPX_CUDA_CHECK(cudaFree(d_B));
    NPX_CUDA_CHECK(cudaFree(d_C));
    free(A);
    free(B);
    free(C);
    free(want);
    free(got);
}

static int gemm_all(void)
{
    cublasHandle_t h;
    cudaStream_t stream;
    NPX_CUBLAS_CHECK(cublasCreate(&h));
    NPX_CUDA_CHECK(cudaStreamCreate(&stream));
    NPX_CUBLAS_CHECK(cublasSetStream(h, stream));
    NPX_CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
    for (cublasOperation_t ta : ops)
        for (cublasOperation_t tb : ops) {
            gemm_case<float>(h, ta, tb, 37, 23, 51, 1.0f, 0.0f, true, 1e-5);
            gemm_case<float>(h, ta, tb, 16, 9, 130, 1.5f, -0.5f, false, 1e-5);
            gemm_case<double>(h, ta, tb, 37, 23, 51, 1.0, 0.0, true, 1e-13);
            gemm_case<double>(h, ta, tb, 16, 9, 130, -2.0, 0.25, false, 1e-13);
        }
    gemm_case<float>(h, CUBLAS_OP_N, CUBLAS_OP_N, 5, 4, 0, 1.0f, 2.0f, false, 1e-5);   /* k = 0: C = beta C */
    gemm_case<double>(h, CUBLAS_OP_T, CUBLAS_OP_N, 5, 4, 3, 0.0, 0.5, false, 1e-13);   /* alpha = 0 */
    gemm_case<float>(h, CUBLAS_OP_N, CUBLAS_OP_T, 1, 1, 1000, 1.0f, 0.0f, false, 1e-5);
    /* TF32: inputs rounded to 10 mantissa bits, so within about 2^-10. */
    NPX_CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
    gemm_case<float>(h, CUBLAS_OP_N, CUBLAS_OP_N, 33, 17, 64, 1.0f, 0.0f, false, 2e-3);
    NPX_CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    NPX_CUDA_CHECK(cudaStreamSynchronize(stream));
    NPX_CUBLAS_CHECK(cublasDestroy(h));
    NPX_CUDA_CHECK(cudaStreamDestroy(stream));
    return emu_status("gemm");
}

static int gemm_bad_ld(void)
{
    cublasHandle_t h;
    float *d_a, *d_b, *d_c, one = 1.0f, zero = 0.0f;
    const int n = 8;
    NPX_CUBLAS_CHECK(cublasCreate(&h));
    NPX_CUDA_CHECK(cudaMalloc(&d_a, n * n * sizeof(float)));
    NPX_CUDA_CHECK(cudaMalloc(&d_b, n * n * sizeof(float)));
    NPX_CUDA_CHECK(cudaMalloc(&d_c, n * n * sizeof(float)));
    NPX_CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, d_a, n - 1, d_b, n, &zero, d_c, n));
    return 0;
}

static int gemm_main(int argc, char **argv)
{
    static const char *const modes[] = {"all", "bad-ld", NULL};
    switch (emu_mode(argc, argv, modes)) {
    case 0: return gemm_all();
    case 1: return gemm_bad_ld();
    default: return 2;
    }
}

#ifndef EMU_ALL
int main(int argc, char **argv)
{
    return gemm_main(argc, argv);
}
#endif
