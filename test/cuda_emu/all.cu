/* all.cu: every test program of test/cuda_emu in one file, so that nvcc
 * (slow) compiles them once: ./all PROGRAM MODE..., e.g. ./all reduce sum 0.
 * On a machine with a GPU it runs the same checks on the real thing. */
#define EMU_ALL 1
#include "reduce.cu"
#include "atomics.cu"
#include "warp.cu"
#include "elementwise.cu"
#include "gemm.cu"
#include "api.cu"

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*main)(int, char **);
    } programs[] = {{"reduce", reduce_main}, {"atomics", atomics_main}, {"warp", warp_main},
                    {"elementwise", ew_main}, {"gemm", gemm_main},     {"api", api_main}};
    for (const auto &p : programs)
        if (argc > 1 && !strcmp(argv[1], p.name))
            return p.main(argc - 1, argv + 1);
    fprintf(stderr, "usage: %s reduce|atomics|warp|elementwise|gemm|api MODE...\n", argv[0]);
    return 2;
}
