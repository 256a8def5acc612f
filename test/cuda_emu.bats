#!/usr/bin/env bats
# cuda_emu.bats: the CUDA host emulation (runtime/cuda/npx_cuda.h). The
# programs in test/cuda_emu are .cu files written as npxc writes them; each is
# built the emulation's way, with $CXX (default g++) -std=c++17 -x c++ -Wall
# -Wextra -Werror $CFLAGS ... -lpthread, and run in each NPX_EMU_ORDER. All of
# them together (all.cu) are compiled once with nvcc when it is there, and
# run on the GPU when there is one. The suite is rerun with $CFLAGS holding
# -fsanitize=address,undefined: the fibers announce their switches to ASan.

load test_helper
EMU=$NPX_ROOT/test/cuda_emu
ORDERS="forward reverse shuffle"

emu_cxx() {
    # shellcheck disable=SC2086  # CFLAGS is a list of flags
    "${CXX:-g++}" -std=c++17 -x c++ -Wall -Wextra -Werror $CFLAGS \
        -I"$NPX_ROOT/runtime/cuda" -I"$NPX_ROOT/runtime" "$@" -lpthread
}

# Every program is built once, two at a time; a failed build shows in the
# tests that use it.
setup_file() {
    local p
    for p in reduce atomics warp elementwise gemm api; do
        emu_cxx "$EMU/$p.cu" -o "$BATS_FILE_TMPDIR/$p" >"$BATS_FILE_TMPDIR/$p.log" 2>&1 &
        if (($(jobs -r | wc -l) >= 2)); then wait -n || true; fi
    done
    wait || true
}

setup() {
    cd "$BATS_TEST_TMPDIR" || exit 1
}

# emu PROGRAM: sets P to the built program, or fails showing the compiler.
emu() {
    P=$BATS_FILE_TMPDIR/$1
    if [ ! -x "$P" ]; then
        echo "building test/cuda_emu/$1.cu failed:" >&2
        cat "$BATS_FILE_TMPDIR/$1.log" >&2
        return 1
    fi
}

# in_every_order PROGRAM ARGS...: right (exit 0) in every order.
in_every_order() {
    local o
    emu "$1"
    shift
    for o in $ORDERS; do
        NPX_EMU_ORDER=$o npx_exec "NPX_EMU_ORDER=$o $(basename "$P") $*" "$P" "$@"
    done
}

# wrong_in ORDER PROGRAM ARGS...: the program finds its results wrong (exit 1).
wrong_in() {
    local o=$1
    emu "$2"
    shift 2
    NPX_EMU_ORDER=$o run "$P" "$@"
    if ((status != 1)); then
        printf 'NPX_EMU_ORDER=%s %s %s: exit %d, expected 1 (a wrong result)\n%s\n' \
            "$o" "$(basename "$P")" "$*" "$status" "$output" >&2
        return 1
    fi
}

# cuda_error PROGRAM MODE REGEX: exit 4 and a last line matching REGEX.
cuda_error() {
    emu "$1"
    run -4 "$P" "$2"
    if ! [[ ${lines[-1]} =~ $3 ]]; then
        printf 'last line:\n  %s\ndoes not match:\n  %s\n' "${lines[-1]}" "$3" >&2
        return 1
    fi
}

nvcc_path() {
    command -v "${NVCC:-nvcc}" 2>/dev/null ||
        { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; }
}

# ---- building ---------------------------------------------------------------

@test "npx_cuda.h alone compiles warning-free as C++17 (and with clang++)" {
    printf '#include "npx_cuda.h"\nint main(void) { return 0; }\n' >empty.cu
    emu_cxx empty.cu -o empty
    ./empty
    [ -z "${NPX_SAN:-}" ] || return 0
    if command -v clang++ >/dev/null; then
        clang++ -std=c++17 -x c++ -Wall -Wextra -Werror -I"$NPX_ROOT/runtime/cuda" empty.cu -o empty_clang
    fi
}

@test "nvcc compiles every test kernel with -Werror all-warnings" {
    [ -z "${NPX_SAN:-}" ] || skip "compile-only check, skipped in the sanitizer round"
    local nvcc
    nvcc=$(nvcc_path) || skip "nvcc not found (set NVCC): the CUDA build of test/cuda_emu is not checked"
    npx_exec "nvcc" "$nvcc" -arch=sm_90 -Werror all-warnings -I"$NPX_ROOT/runtime/cuda" -I"$NPX_ROOT/runtime" \
        -c "$EMU/all.cu" -o all.o
}

@test "on a GPU, the test programs give the same results as the emulation" {
    [ -z "${NPX_SAN:-}" ] || skip "skipped in the sanitizer round"
    local nvcc
    nvcc=$(nvcc_path) || skip "nvcc not found"
    nvidia-smi -L >/dev/null 2>&1 || skip "no GPU here"
    npx_exec "nvcc" "$nvcc" -O3 -arch=sm_90 -I"$NPX_ROOT/runtime/cuda" -I"$NPX_ROOT/runtime" \
        "$EMU/all.cu" -o all -lcublas
    local m
    for m in "reduce sum 0" "reduce cumsum 0" "reduce rcumsum 0" "atomics histogram" "atomics minmax" \
        "warp reduce" "warp lanes" "elementwise gridstride" "elementwise transpose" "elementwise dynamic" \
        "elementwise barriers" "gemm all" "api events" "api graph"; do
        # shellcheck disable=SC2086  # m is a command line
        npx_exec "all $m (on the GPU)" ./all $m
    done
    run -4 ./all api oom
    [[ ${lines[-1]} == *"CUDA call failed: cudaMalloc(&big, (size_t)1 << 60) at "*": out of memory" ]]
    run -4 ./all api graph-sync
    [[ ${lines[-1]} == *": operation not permitted when stream is capturing" ]]
}

@test "a bare __shared__ array does not compile in the emulation" {
    cat >bare.cu <<'EOF'
#include "npx_cuda.h"
__global__ void k(float *y) { __shared__ float s[32]; s[threadIdx.x] = 1; y[0] = s[0]; }
int main(void) { return 0; }
EOF
    run ! emu_cxx bare.cu -o bare
    [[ $output == *"declare shared arrays with NPX_SHARED(type, name, count)"* ]]
}

# ---- barriers and the order of threads ------------------------------------------

@test "a block sum and per-block scans in shared memory are right in every order" {
    in_every_order reduce sum 0
    in_every_order reduce cumsum 0
    in_every_order reduce rcumsum 0
}

@test "a block sum without its barrier after the shared store is wrong in forward and shuffle order" {
    wrong_in forward reduce sum 1
    wrong_in shuffle reduce sum 1
}

@test "a block sum without the barrier in its tree loop is wrong in forward and shuffle order" {
    wrong_in forward reduce sum 2
    wrong_in shuffle reduce sum 2
}

@test "a scan writing before all reads are done is caught: cumsum by forward, reverse cumsum by reverse" {
    wrong_in forward reduce cumsum 1
    wrong_in shuffle reduce cumsum 1
    wrong_in reverse reduce rcumsum 1
    wrong_in shuffle reduce rcumsum 1
}

@test "NPX_EMU_ORDER with an unknown value is refused" {
    emu reduce
    NPX_EMU_ORDER=sideways run -2 "$P" sum 0
    [[ $output == *"error: NPX_EMU_ORDER must be forward, reverse or shuffle, not 'sideways'"* ]]
}

@test "256 threads x 1000 blocks with 9 barriers each finish in seconds" {
    emu elementwise
    SECONDS=0
    run -0 timeout 60 "$P" barriers
    echo "$output"
    ((SECONDS < 30))
}

@test "fibers switched by swapcontext (NPX_EMU_UCONTEXT=1) are right in every order too, and catch the same race" {
    export NPX_EMU_UCONTEXT=1
    in_every_order reduce sum 0
    in_every_order reduce cumsum 0
    in_every_order warp reduce
    in_every_order warp lanes
    emu elementwise
    npx_exec "NPX_EMU_UCONTEXT=1 elementwise barriers" "$P" barriers
    wrong_in shuffle reduce sum 1
    NPX_EMU_UCONTEXT=2 run -2 "$P" sum 0
    [[ $output == *"error: NPX_EMU_UCONTEXT must be an integer from 0 to 1, not '2'"* ]]
}

# ---- atomics, warps, shared memory -------------------------------------------------

@test "a histogram privatized in shared memory (atomicAdd int, ull, float, double) is right in every order" {
    in_every_order atomics histogram
}

@test "atomicMax and atomicMin on int, unsigned, long long and unsigned long long, atomicCAS, atomicExch" {
    in_every_order atomics minmax
}

@test "a block sum by __shfl_down_sync is right in every order, for 1-D and 2-D blocks" {
    in_every_order warp reduce
}

@test "shuffles (xor, idx, width 8, up, double, long long), votes and counting barriers" {
    in_every_order warp lanes
}

@test "half a warp at a shuffle while the rest waits at __syncthreads() is reported as a deadlock" {
    cuda_error api deadlock \
        "^api: error: CUDA emulation: kernel divergent, block \(0, 0, 0\): deadlock: 32 threads wait at __syncthreads\(\) and 32 at a warp function"
}

@test "a grid-stride kernel over 1M elements, with npx_math.h helpers, matches the host" {
    in_every_order elementwise gridstride
}

@test "a transpose through a 2-D shared tile (NPX_SHARED2) over a 2-D grid" {
    in_every_order elementwise transpose
}

@test "dynamic shared memory (NPX_SHARED_DYNAMIC) beside a static array" {
    in_every_order elementwise dynamic
}

@test "AddressSanitizer reports an index past a shared array" {
    cat >past.cu <<'EOF'
#include "npx_cuda.h"
__global__ void k(float *y, int i) {
    NPX_SHARED(float, a, 30);
    NPX_SHARED(float, b, 30);
    float *p = a;
    a[threadIdx.x] = b[threadIdx.x] = 1;
    __syncthreads();
    y[threadIdx.x] = p[i];
}
int main(int argc, char **argv) {
    float *y;
    NPX_CUDA_CHECK(cudaMalloc(&y, 30 * sizeof(float)));
    NPX_LAUNCH(k, 2, 30, 0, 0, y, argc > 1 ? atoi(argv[1]) : 0);
    return 0;
}
EOF
    emu_cxx -fsanitize=address -g past.cu -o past
    ./past 29
    run ! ./past 30
    [[ $output == *"ERROR: AddressSanitizer: use-after-poison"* ]]
    [[ $output != *"WARNING: ASan doesn't fully support"* ]]
}

# ---- cuBLAS -----------------------------------------------------------------------

@test "cublasSgemm and cublasDgemm match a naive loop for every transpose, alpha, beta and leading dimension" {
    emu gemm
    run -0 "$P" all
}

@test "a cuBLAS error exits 4 with the call text and cuBLAS's message" {
    cuda_error gemm bad-ld \
        "^gemm: error: cuBLAS call failed: cublasSgemm\(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, d_a, n - 1, d_b, n, &zero, d_c, n\) at .*/gemm\.cu:[0-9]+: an unsupported value or parameter was passed to the function$"
}

# ---- the runtime API ------------------------------------------------------------------

@test "events time a kernel (elapsed >= 0); streams, memset, device properties, last error" {
    emu api
    run -0 "$P" events
    [[ $output == *"132 multiprocessors, sm_90"* ]]
}

@test "cudaMalloc of an absurd size exits 4 with the call text and 'out of memory'" {
    cuda_error api oom \
        "^api: error: CUDA call failed: cudaMalloc\(&big, \(size_t\)1 << 60\) at .*/api\.cu:[0-9]+: out of memory$"
    [ "${#lines[@]}" -eq 1 ]
}

@test "a launch of 2048 threads per block exits 4, naming the launch" {
    cuda_error api bad-launch \
        "^api: error: CUDA call failed: fill<<<1, 2048, 0, 0>>> at .*/api\.cu:[0-9]+: invalid configuration argument$"
}

@test "a host pointer passed to a kernel is an illegal address" {
    cuda_error api host-pointer \
        "^api: error: CUDA call failed: fill<<<1, 64, 0, 0>>> at .*: an illegal memory access was encountered$"
    [[ ${lines[0]} == "api: CUDA emulation: kernel fill: argument 1 ("*") is not device memory: a host pointer passed to a kernel" ]]
}

@test "a host-to-device copy into host memory is refused" {
    cuda_error api bad-copy \
        "^api: error: CUDA call failed: cudaMemcpy\(host, d_y, sizeof host, cudaMemcpyHostToDevice\) at .*: invalid argument$"
    [[ ${lines[0]} == *"cudaMemcpy: destination "*" is not inside one cudaMalloc allocation" ]]
}

# ---- stream capture and graphs ---------------------------------------------------------

@test "a captured stream runs only when its graph is launched, again at every launch, memory and cuBLAS included" {
    emu api
    run -0 "$P" graph
    [[ $output == *"graph: ok"* ]]
}

@test "a copy that waits for the device during a capture fails and names itself" {
    cuda_error api graph-sync \
        "^api: error: CUDA call failed: cudaMemcpy\(host, d_y, sizeof host, cudaMemcpyDeviceToHost\) at .*: operation not permitted when stream is capturing$"
    [[ ${lines[0]} == "api: CUDA emulation: cudaMemcpy waits for the device while a stream is being captured" ]]
}

@test "a launch on the legacy stream during a capture fails" {
    cuda_error api graph-legacy \
        "^api: error: CUDA call failed: fill<<<1, 64, 0, 0>>> at .*: operation would make the legacy stream depend on a capturing blocking stream$"
}
