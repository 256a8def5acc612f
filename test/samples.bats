#!/usr/bin/env bats
# The samples (samples/*.npx), each compiled and run on its "# run:" inputs
# and compared with NumPy, like the test programs.

load test_helper

@test "the autoencoder sample's gradients match NumPy" {
    check_program "$NPX_ROOT/samples/autoencoder.npx"
}

@test "the bincount sample counts a million integers as NumPy does" {
    check_program "$NPX_ROOT/samples/bincount.npx"
}

@test "the softmax sample matches NumPy row by row" {
    check_program "$NPX_ROOT/samples/softmax.npx"
}

@test "the logistic regression sample's loss and gradient match NumPy" {
    check_program "$NPX_ROOT/samples/logreg.npx"
}

@test "the heat equation sample's stencil of slices matches NumPy" {
    check_program "$NPX_ROOT/samples/heat.npx"
}

@test "the training sample's loop of gradient steps matches NumPy's" {
    check_program "$NPX_ROOT/samples/train.npx"
}

@test "every sample has a test" {
    local f name
    for f in "$NPX_ROOT"/samples/*.npx; do
        name=$(basename "$f" .npx)
        grep -q "samples/$name.npx" "$BATS_TEST_FILENAME" || {
            echo "samples/$name.npx has no test in $BATS_TEST_FILENAME" >&2
            return 1
        }
    done
}

# OpenMP aside: clang cannot vectorize some of the loops marked `omp simd`,
# and says so (-Wpass-failed).
@test "every sample's C (without OpenMP) and emulated CUDA build warning-free with clang too, argmax's chunks also" {
    [ -z "${NPX_SAN:-}" ] || skip "compile-only check, skipped in the sanitizer round"
    command -v clang >/dev/null && command -v clang++ >/dev/null || skip "no clang"
    local f n d=$BATS_TEST_TMPDIR
    for f in "$NPX_ROOT"/samples/*.npx "$NPX_ROOT/test/programs/arg_chunks.npx"; do
        n=$(basename "$f" .npx)
        npx_exec "npxc $n.npx" "$NPXC" "$f" -o "$d/$n.c"
        npx_exec "clang $n.c" clang -std=c11 -O2 -Wall -Wextra -Werror -c "$d/$n.c" -o "$d/$n.o"
        npx_exec "npxc -t cuda $n.npx" "$NPXC" -t cuda "$f" -o "$d/$n.cu"
        npx_exec "clang++ $n.cu" clang++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -x c++ "$d/$n.cu"
    done
}
