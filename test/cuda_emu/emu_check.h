/* emu_check.h: what the test programs of test/cuda_emu share. Each program
 * is a .cu file written as npxc writes one (npx_cuda.h first, kernels
 * launched with NPX_LAUNCH, every call checked), built with g++ for the
 * emulation and, all together through all.cu, with nvcc. A program takes a
 * mode as argv[1] and exits 0 when its results are right, 1 when they are
 * wrong (printing what differs), 4 on a CUDA error. */
#ifndef EMU_CHECK_H
#define EMU_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Results that differ: counted, and the first few printed. */
static int emu_wrong __attribute__((unused));

#define EXPECT(cond, ...)                                                      \
    do {                                                                       \
        if (!(cond)) {                                                         \
            if (emu_wrong++ < 5) {                                             \
                fprintf(stderr, "%s:%d: wrong: ", __FILE__, __LINE__);         \
                fprintf(stderr, __VA_ARGS__);                                  \
                fputc('\n', stderr);                                           \
            }                                                                  \
        }                                                                      \
    } while (0)

/* The exit status of a test program. */
static inline __attribute__((unused)) int emu_status(const char *what)
{
    if (emu_wrong) {
        printf("%s: wrong (%d mismatches)\n", what, emu_wrong);
        return 1;
    }
    printf("%s: ok\n", what);
    return 0;
}

/* argv[1] must be one of modes (NULL-terminated): its index, or -1 after a
 * usage message. */
static inline __attribute__((unused)) int emu_mode(int argc, char **argv, const char *const *modes)
{
    for (int i = 0; argc > 1 && modes[i]; i++)
        if (!strcmp(argv[1], modes[i]))
            return i;
    fprintf(stderr, "usage: %s MODE, MODE one of:", argv[0]);
    for (int i = 0; modes[i]; i++)
        fprintf(stderr, " %s", modes[i]);
    fputc('\n', stderr);
    return -1;
}

/* A device copy of n host values. */
template <typename T> static inline T *emu_to_device(const T *host, size_t n)
{
    T *d = nullptr;
    NPX_CUDA_CHECK(cudaMalloc(&d, n * sizeof(T)));
    NPX_CUDA_CHECK(cudaMemcpy(d, host, n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}
#endif
