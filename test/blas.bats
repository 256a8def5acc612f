#!/usr/bin/env bats
# --blas: the C target's float matrix products call CBLAS (linked with
# -lopenblas); the results must still match NumPy.

load test_helper

setup() {
    compgen -G '/usr/lib/*/libopenblas.so' >/dev/null ||
        skip "libopenblas-dev is not installed (make deps installs it)"
}

# blas_check FILE.npx: compile with --blas, run on the file's # run: inputs,
# compare with NumPy within the file's tolerance.
blas_check() {
    local src=$1 d=$BATS_TEST_TMPDIR
    local -a args tol
    read -r -a args <<<"$(npx_directive "$src" run)"
    read -r -a tol <<<"$(npx_directive "$src" tolerance)"
    npx_exec "npxc --blas --exe" "$NPXC" --blas "$src" -o "$d/prog.c" --exe
    grep -q 'cblas_[sd]gemm(NPX_CBLAS_ROW_MAJOR' "$d/prog.c"
    npx_exec "the --blas program" "$d/prog" "${args[@]}" -o "$d/out"
    npx_exec "NumPy reference" "$PYTHON" "$NPXREF" "$src" "${args[@]}" -o "$d/ref"
    npx_exec "npxcmp" "$NPXCMP" "$d/out" "$d/ref" "${tol[@]}"
}

@test "the autoencoder's products through CBLAS match NumPy" {
    blas_check "$NPX_ROOT/samples/autoencoder.npx"
}

@test "matrix products of every 1-D and 2-D combination through CBLAS match NumPy" {
    blas_check "$NPX_ROOT/test/programs/linalg.npx"
}

@test "a product times a Python number goes to CBLAS as its alpha and matches NumPy" {
    blas_check "$NPX_ROOT/test/programs/matmul_scaled.npx"
    grep -q 'cblas_sgemm(.*, 0.5f, A, ' "$BATS_TEST_TMPDIR/prog.c"
}

@test "stacks of matrices go to CBLAS a matrix at a time and match NumPy" {
    blas_check "$NPX_ROOT/test/programs/matmul_stacked.npx"
    grep -q 'cblas_sgemm(.*, a + i \* M \* K, npx_blas_ld(K), one, ' "$BATS_TEST_TMPDIR/prog.c"
}

@test "a matrix times its own transpose goes to CBLAS's syrk, the lower triangle copied, and matches NumPy" {
    blas_check "$NPX_ROOT/test/programs/gemm_blocks.npx"
    local c=$BATS_TEST_TMPDIR/prog.c
    grep -qF 'cblas_ssyrk(NPX_CBLAS_ROW_MAJOR, NPX_CBLAS_UPPER, NPX_CBLAS_TRANS, (int)K, (int)M, 1.0f, a, npx_blas_ld(K), 0, gram, ' "$c"
    grep -qF 'cblas_ssyrk(NPX_CBLAS_ROW_MAJOR, NPX_CBLAS_UPPER, NPX_CBLAS_TRANS, (int)M, (int)K, 0.5f, at_2, ' "$c"
    grep -qF 'cblas_dsyrk(NPX_CBLAS_ROW_MAJOR, NPX_CBLAS_UPPER, NPX_CBLAS_NO_TRANS, (int)M, (int)K, 1.0, d, npx_blas_ld(K), ' "$c"
    [ "$(grep -c '^ *npx_mirror_upper_f[0-9]*(' "$c")" -eq 3 ]
    blas_check "$NPX_ROOT/test/programs/matmul_stacked.npx"
    [ "$(grep -c '^ *npx_mirror_upper_f[0-9]*(' "$BATS_TEST_TMPDIR/prog.c")" -eq 2 ]
    blas_check "$NPX_ROOT/test/programs/gemm_views.npx"      # x[T - 1].T @ x[1]: two blocks, a GEMM
    not grep -q 'syrk(NPX' "$BATS_TEST_TMPDIR/prog.c"
    npx_exec "npxc --explain --blas" "$NPXC" --explain --blas "$NPX_ROOT/test/programs/gemm_blocks.npx"
    grep -qF 'call: matmul -> gram f32[K, K]: cblas_ssyrk(a transposed), its upper triangle, the lower one copied from it' \
        <<<"$NPX_OUTPUT"
}

@test "products across block edges, and one with an empty shared dimension, through CBLAS match NumPy" {
    blas_check "$NPX_ROOT/test/programs/gemm_blocks.npx"
}

@test "products reading one block of an array in place through CBLAS match NumPy" {
    blas_check "$NPX_ROOT/test/programs/gemm_views.npx"
}

@test "--blas links the OpenMP build of OpenBLAS where it is installed, or NPX_BLAS_LIBS" {
    local d=$BATS_TEST_TMPDIR dir
    dir=$(compgen -G '/usr/lib/*/openblas-openmp' | head -n 1) || true
    [ -n "$dir" ] || skip "libopenblas0-openmp is not installed (make deps installs it)"
    npx_exec "npxc --blas --exe" "$NPXC" --blas "$NPX_ROOT/samples/autoencoder.npx" -o "$d/prog.c" --exe
    ldd "$d/prog" | grep -q "$dir/libopenblas.so.0"
    NPX_BLAS_LIBS=-lopenblas npx_exec "npxc --blas --exe" "$NPXC" --blas "$NPX_ROOT/samples/autoencoder.npx" \
        -o "$d/prog2.c" --exe
    ! ldd "$d/prog2" | grep -q openblas-openmp
}
