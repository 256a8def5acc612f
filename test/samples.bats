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
