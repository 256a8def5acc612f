#!/usr/bin/env bats
# lib.bats: npxc --lib, a program as one function in a file of its own and a
# header. test/lib/harness.c calls two such libraries, bench/softmax.npx and
# test/lib/stats.npx (a scalar input, a 0-d output, bincount's run-time
# length), linked into one program, and writes what went in and came out as
# .npy files; NumPy then runs the same statements on the same inputs.

load test_helper
LIB=$NPX_ROOT/test/lib

# c_flags: $CFLAGS as an array, in CF (the sanitizer round's -fsanitize flags
# must reach every compile and the link).
c_flags() {
    read -r -a CF <<<"${CFLAGS:-}"
}

# libs TARGET: both libraries for TARGET (c or cuda) and the harness, built in
# $BATS_TEST_TMPDIR; sets H to the harness.
libs() {
    local d=$BATS_TEST_TMPDIR ext=c
    c_flags
    [ "$1" = c ] || ext=cu
    npx_exec "npxc --lib" "$NPXC" -t "$1" --lib "$NPX_ROOT/bench/softmax.npx" -o "$d/softmax.$ext"
    npx_exec "npxc --lib" "$NPXC" -t "$1" --lib "$LIB/stats.npx" -o "$d/stats.$ext"
    local f
    for f in softmax stats; do
        if [ "$1" = c ]; then
            npx_exec "cc -c $f.c" "${CC:-cc}" -std=c11 -O2 -fopenmp -Wall -Wextra -Werror "${CF[@]}" \
                -c "$d/$f.c" -o "$d/$f.o"
        else
            npx_exec "g++ -c $f.cu" "${CXX:-g++}" -std=c++17 -O1 -Wall -Wextra -Werror "${CF[@]}" \
                -x c++ -c "$d/$f.cu" -o "$d/$f.o"
        fi
    done
    npx_exec "cc -c harness.c" "${CC:-cc}" -std=c11 -Wall -Wextra -Werror "${CF[@]}" -I"$d" -c "$LIB/harness.c" \
        -o "$d/harness.o"
    if [ "$1" = c ]; then
        npx_exec "the link" "${CC:-cc}" "${CF[@]}" "$d/harness.o" "$d/softmax.o" "$d/stats.o" -o "$d/harness" \
            -fopenmp -lm
    else
        npx_exec "the link" "${CXX:-g++}" "${CF[@]}" "$d/harness.o" "$d/softmax.o" "$d/stats.o" -o "$d/harness" \
            -lpthread
    fi
    H=$d/harness
}

# matches_numpy: the harness's outputs against NumPy's on its inputs.
matches_numpy() {
    local d=$BATS_TEST_TMPDIR
    mkdir -p "$d/r/in" "$d/r/out"
    npx_exec "harness run" "$H" run "$d/r"
    npx_exec "NumPy" "$PYTHON" "$NPXREF" "$NPX_ROOT/bench/softmax.npx" x="$d/r/in/x.npy" -o "$d/ref"
    npx_exec "NumPy" "$PYTHON" "$NPXREF" "$LIB/stats.npx" n="$d/r/in/n.npy" w="$d/r/in/w.npy" e="$d/r/in/e.npy" \
        scale=0.5 -o "$d/ref"
    npx_same_files "$d/r/out" "$d/ref"
    npx_exec "npxcmp" "$NPXCMP" "$d/r/out" "$d/ref"
}

@test "two C libraries from npxc --lib link into one program, and their results match NumPy" {
    libs c
    grep -qF 'int stats(int64_t N, const int64_t *n, const double *w, const int64_t *e, double scale,' \
        "$BATS_TEST_TMPDIR/stats.h"
    grep -qF ' *   counts_len   set to the size ?bincount of counts, known after the run' "$BATS_TEST_TMPDIR/stats.h"
    not grep -q 'int main(' "$BATS_TEST_TMPDIR/softmax.c"
    matches_numpy
}

@test "a library function returns run-time errors and bad sizes, and its caller goes on" {
    libs c
    run -0 "$H" errors
    # found by the threads of a loop: reported once per call (20 calls)
    [ "$(grep -c 'stats: error: stats.npx:10: integers to negative integer powers are not allowed (exponent -1)' \
        <<<"$output")" -eq 20 ]
    [[ $output == *"negative exponent: 3 (20 of 20), outputs untouched: yes"* ]]
    [[ $output == *"stats: error: stats.npx:11: bincount: element 7 of the input is -2; bincount counts non-negative integers only"* ]]
    [[ $output == *"negative value: 3, outputs untouched: yes"* ]]
    [[ $output == *"softmax: error: softmax.npx: size B is -1; sizes are 0 or more"* ]]
    [[ $output == *"negative size: 2, output untouched: yes"* ]]
    [[ $output == *"then a good call: 0, 10 bins, 2 ** 1 = 2"* ]]
}

@test "CUDA libraries (emulated) link into the same C program and match NumPy" {
    libs cuda
    grep -qF 'extern "C" int softmax(int64_t B, int64_t C, const float *x, float **y) {' "$BATS_TEST_TMPDIR/softmax.cu"
    matches_numpy
    run -0 "$H" errors
    [[ $output == *"negative exponent: 3 (20 of 20), outputs untouched: yes"* ]]
    [[ $output == *"negative value: 3, outputs untouched: yes"* ]]
}

@test "nvcc compiles a CUDA library without a warning" {
    [ -z "${NPX_SAN:-}" ] || skip "compile-only check, skipped in the sanitizer round"
    local nvcc
    nvcc=$(command -v "${NVCC:-nvcc}" 2>/dev/null || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; }) ||
        skip "nvcc not found"
    npx_exec "npxc --lib" "$NPXC" -t cuda --lib "$LIB/stats.npx" -o "$BATS_TEST_TMPDIR/stats.cu"
    npx_exec "nvcc -c" "$nvcc" -O3 -arch=sm_90 -Werror all-warnings -c "$BATS_TEST_TMPDIR/stats.cu" \
        -o "$BATS_TEST_TMPDIR/stats.o"
}

@test "--lib refuses -o -, --exe, and a file name that would make a clashing function" {
    run -2 "$NPXC" --lib "$LIB/stats.npx" -o -
    [[ $output == *"--lib needs an output file, not -o - (its header goes beside it)"* ]]
    run -2 "$NPXC" --lib --exe "$LIB/stats.npx" -o "$BATS_TEST_TMPDIR/s.c"
    [[ $output == *"--lib and --exe cannot be combined"* ]]
    run -2 "$NPXC" --lib "$LIB/stats.npx" -o "$BATS_TEST_TMPDIR/main.c"
    [[ $output == *"--lib: a function named 'main' (after $BATS_TEST_TMPDIR/main.c) would clash with C or npxc's own names"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/main.c" ] && [ ! -e "$BATS_TEST_TMPDIR/main.h" ]
    npx_exec "npxc --lib" "$NPXC" --lib "$LIB/stats.npx" -o "$BATS_TEST_TMPDIR/2nd-pass.c"
    grep -qF 'int npx_2nd_pass(int64_t N,' "$BATS_TEST_TMPDIR/2nd-pass.h"
}

@test "every test program compiles warning-free as a C library, outputs named like inputs included (x_out)" {
    [ -z "${NPX_SAN:-}" ] || skip "compile-only check, skipped in the sanitizer round"
    local f n
    for f in "$NPX_ROOT"/test/programs/*.npx "$NPX_ROOT"/samples/*.npx; do
        n=lib_$(basename "$f" .npx)
        npx_exec "npxc --lib $(basename "$f")" "$NPXC" --lib "$f" -o "$BATS_TEST_TMPDIR/$n.c"
        npx_exec "cc -c $n.c" "${CC:-cc}" -std=c11 -O1 -fopenmp -Wall -Wextra -Werror \
            -c "$BATS_TEST_TMPDIR/$n.c" -o "$BATS_TEST_TMPDIR/$n.o"
    done
    grep -q "float \*\*x_out" "$BATS_TEST_TMPDIR/lib_input_as_output.h"
}
