#!/usr/bin/env bats
# The CUDA target's own behaviour, through the host emulation: errors raised
# on the device, --bench's two lines, --tf32. (Every program's numbers are
# checked against C and NumPy by check_program.)

load test_helper

# cuda_build FILE.npx [NPXC OPTIONS...]: .cu and its emulated build, $CU_PROG
cuda_build() {
    local src=$1 d=$BATS_TEST_TMPDIR
    local -a cflags
    shift
    read -r -a cflags <<<"${CFLAGS:-}"
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$@" "$src" -o "$d/prog.cu"
    npx_exec "the emulated build" "${CXX:-g++}" -std=c++17 -O1 -Wall -Wextra -Werror "${cflags[@]}" \
        -x c++ "$d/prog.cu" -o "$d/prog_cuda" -lpthread
    CU_PROG=$d/prog_cuda
}

@test "a negative bincount input found on the device is reported with its line, exit 3, no output" {
    cat >"$BATS_TEST_TMPDIR/neg.npx" <<'NPX'
input n: i64[N]
shifted = n - 500
counts = bincount(shifted)
output counts
NPX
    cuda_build "$BATS_TEST_TMPDIR/neg.npx"
    run -3 "$CU_PROG" --random 1 --dim N=1000 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"neg.npx:3: bincount: element "*" of the input is -"*"non-negative integers only"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/counts.npy" ]
}

@test "an integer array raised to a negative power on the device is reported, exit 3" {
    cat >"$BATS_TEST_TMPDIR/pow.npx" <<'NPX'
input n: i32[N]
e = n % 7 - 3
p = 2 ** e
output p
NPX
    cuda_build "$BATS_TEST_TMPDIR/pow.npx"
    run -3 "$CU_PROG" --random 1 --dim N=100
    [[ $output == *"pow.npx:3: integers to negative integer powers are not allowed"* ]]
}

@test "an index array with a position past its axis, found on the device, is reported with its line, exit 3" {
    cat >"$BATS_TEST_TMPDIR/take.npx" <<'NPX'
input W: f32[V, D]
input n: i64[N]
rows = W[n % (V + 1)]
total = np.take(W, n - 2000, axis=0).sum()
output rows, total
NPX
    cuda_build "$BATS_TEST_TMPDIR/take.npx"
    run -3 "$CU_PROG" --random 1 --dim N=1000 --dim V=5 --dim D=3 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"take.npx:3: index 5 is out of bounds for axis 0 with size 5"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/rows.npy" ]
    printf 'input W: f32[V, D]\ninput n: i64[N]\ntotal = np.take(W, n - 2000, axis=0).sum()\noutput total\n' \
        >"$BATS_TEST_TMPDIR/take.npx"
    cuda_build "$BATS_TEST_TMPDIR/take.npx"
    run -3 "$CU_PROG" --random 1 --dim N=1000 --dim V=5 --dim D=3 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"take.npx:3: index -"*" is out of bounds for axis 0 with size 5"* ]]
    run -3 "$CU_PROG" --random 1 --dim N=1000 --dim V=0 --dim D=3 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"take.npx:3: cannot do a non-empty take from an empty axes."* ]]   # NumPy's words
}

@test "--bench on the CUDA target prints the device time and, on its own line, the copies" {
    cuda_build "$NPX_ROOT/samples/softmax.npx"
    run -0 "$CU_PROG" --random 1 --dim B=8 --dim C=16 --bench 3 -o "$BATS_TEST_TMPDIR/out"
    [ "${#lines[@]}" -eq 2 ]
    [[ ${lines[0]} =~ ^npx-bench:\ runs=3\ min_s=[0-9.e-]+\ median_s=[0-9.e-]+$ ]]
    [[ ${lines[1]} =~ ^npx-bench-copy:\ h2d_s=[0-9.e-]+\ d2h_s=[0-9.e-]+$ ]]
}

# bench_replays FILE.npx ARGS...: the emulated program's outputs with --bench 2
# (the computation captured once and launched as a graph) are the plain run's.
bench_replays() {
    local src=$1 d=$BATS_TEST_TMPDIR
    shift
    rm -rf "$d/plain" "$d/bench"
    cuda_build "$src"
    npx_exec "the plain run" "$CU_PROG" "$@" -o "$d/plain"
    npx_exec "--bench 2" "$CU_PROG" "$@" --bench 2 -o "$d/bench"
    npx_same_files "$d/plain" "$d/bench"
    npx_exec "npxcmp" "$NPXCMP" "$d/plain" "$d/bench" --rtol 0 --atol 0
}

@test "--bench replays the computation as one CUDA graph, and its outputs are the plain run's" {
    npx_exec "npxc --explain" "$NPXC" -t cuda --explain "$NPX_ROOT/samples/autoencoder.npx"
    [[ ${NPX_OUTPUT##*$'\n'} == "autoencoder.npx: --bench: the computation is captured once as a CUDA graph, then each timed run is one launch of it" ]]
    bench_replays "$NPX_ROOT/samples/autoencoder.npx" --random 6 --dim B=32 --dim V=64 --dim H=32
    grep -qF 'const bool graph = npx_dev_capture(st);' "$BATS_TEST_TMPDIR/prog.cu"
    bench_replays "$NPX_ROOT/bench/softmax.npx" --random 3 --dim B=64 --dim C=256
    bench_replays "$NPX_ROOT/bench/sum_axis0.npx" --random 4 --dim R=100 --dim C=300
    bench_replays "$BATS_TEST_DIRNAME/programs/fused_chain.npx" --random 54 --dim B=13 --dim V=7
    NPX_CUDA_GRAPH=0 npx_exec "--bench 2 without the graph" "$CU_PROG" --random 54 --dim B=13 --dim V=7 \
        --bench 2 -o "$BATS_TEST_TMPDIR/nograph"
    npx_exec "npxcmp" "$NPXCMP" "$BATS_TEST_TMPDIR/plain" "$BATS_TEST_TMPDIR/nograph" --rtol 0 --atol 0
}

@test "a computation that syncs (bincount's length) is run again for each --bench run, not captured" {
    npx_exec "npxc --explain" "$NPXC" -t cuda --explain "$NPX_ROOT/bench/bincount_i64.npx"
    [[ $NPX_OUTPUT == *"bincount_i64.npx: --bench: every timed run launches the kernels again"* ]]
    bench_replays "$NPX_ROOT/bench/bincount_i64.npx" --random 5 --dim N=10000
    ! grep -q 'npx_dev_capture(st)' "$BATS_TEST_TMPDIR/prog.cu"
}

@test "--tf32 lets cuBLAS round float32 products to TF32; by default they are exact" {
    "$NPXC" -t cuda "$NPX_ROOT/samples/autoencoder.npx" -o "$BATS_TEST_TMPDIR/exact.cu"
    not grep -q 'cublasSetMathMode(npx_dev_blas(), CUBLAS_TF32_TENSOR_OP_MATH)' "$BATS_TEST_TMPDIR/exact.cu"
    cuda_build "$NPX_ROOT/samples/autoencoder.npx" --tf32
    grep -q 'cublasSetMathMode(npx_dev_blas(), CUBLAS_TF32_TENSOR_OP_MATH)' "$BATS_TEST_TMPDIR/prog.cu"
    local args=(--random 1 --dim B=16 --dim V=64 --dim H=32)
    npx_exec "the --tf32 program" "$CU_PROG" "${args[@]}" -o "$BATS_TEST_TMPDIR/tf32"
    npx_exec "NumPy" "$PYTHON" "$NPXREF" "$NPX_ROOT/samples/autoencoder.npx" "${args[@]}" -o "$BATS_TEST_TMPDIR/ref"
    # TF32 keeps 10 bits of mantissa: no longer float32-exact, still close
    run -1 "$NPXCMP" "$BATS_TEST_TMPDIR/tf32/grad_W.npy" "$BATS_TEST_TMPDIR/ref/grad_W.npy"
    run -0 "$NPXCMP" "$BATS_TEST_TMPDIR/tf32/grad_W.npy" "$BATS_TEST_TMPDIR/ref/grad_W.npy" --rtol 0.05 --atol 0.01
}

@test "npxc -t cuda writes FILE.cu beside the input, readable like any file" {
    cp "$NPX_ROOT/samples/softmax.npx" "$BATS_TEST_TMPDIR/softmax.npx"
    run -0 "$NPXC" -t cuda "$BATS_TEST_TMPDIR/softmax.npx"
    [ -f "$BATS_TEST_TMPDIR/softmax.cu" ]
    [ -r "$BATS_TEST_TMPDIR/softmax.cu" ] && [ "$(stat -c %a "$BATS_TEST_TMPDIR/softmax.cu")" != 600 ]
    grep -q '__global__ void' "$BATS_TEST_TMPDIR/softmax.cu"
    [ -z "$(ls "$BATS_TEST_TMPDIR" | grep '\.tmp\.')" ]
}

@test "a loop's range is computed on the host, from the host's copy of an input, never from device memory" {
    printf 'input n: i64\ninput x: f32[3]\noutput y\ny = x\nm = n * 2\nfor i in range(m):\n    y = y + 1.0\n' \
        >"$BATS_TEST_TMPDIR/hb.npx"
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/hb.npx" -o "$BATS_TEST_TMPDIR/hb.cu"
    grep -qF 'for (int64_t i_2 = 0; i_2 < npx_mul_i64((*(const int64_t *)st->in[0].data), 2); i_2++) {' \
        "$BATS_TEST_TMPDIR/hb.cu"
}
