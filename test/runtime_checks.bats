#!/usr/bin/env bats
# Checks the compiler leaves to run time: sizes that only the data fixes.

load test_helper

@test "a size symbol that disagrees with a literal size is a run-time error with the line, exit 3" {
    printf 'input x: f32[N]\ninput y: f32[5]\nz = x + y\noutput z\n' >"$BATS_TEST_TMPDIR/chk.npx"
    build_program "$BATS_TEST_TMPDIR/chk.npx"
    run -3 "$PROG" --random 1 --dim N=3 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"chk.npx:3: operands could not be broadcast together: N is 3, not 5"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/z.npy" ]
    run -0 "$PROG" --random 1 --dim N=5 -o "$BATS_TEST_TMPDIR/out"
    [ -f "$BATS_TEST_TMPDIR/out/z.npy" ]
}
