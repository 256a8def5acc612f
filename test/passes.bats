#!/usr/bin/env bats
# What the passes did, read from --explain and --dump-ir: fusion of
# elementwise chains and of producers into reductions, products that fold a
# factor or a transpose, row groups, and -O0 turning all of it off. (That the
# fused programs compute the right numbers is programs.bats's job.)

load test_helper

# explain FILE.npx [NPXC OPTIONS]: npxc --explain's output, in NPX_OUTPUT
explain() {
    local src=$1
    shift
    npx_exec "npxc --explain" "$NPXC" --explain "$@" "$src"
}

# program TEXT: writes TEXT to $BATS_TEST_TMPDIR/p.npx
program() {
    printf '%s\n' "$1" >"$BATS_TEST_TMPDIR/p.npx"
}

@test "a loop that reads an array across its rows goes in tiles (on the GPU a block a tile); a transpose's reductions go along the array's rows" {
    program $'input X: f64[M, K]\ninput Y: f64[K, M]\noutput a, b, s0, s1\na = X.T * 2.0\nb = Y * 2.0\ns0 = X.T.sum(axis=0)\ns1 = X.T.sum(axis=1)'
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'for (int64_t i0_tile = 0; i0_tile < K; i0_tile += NPX_TILE) {' "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'for (int64_t i1 = i1_tile; i1 < NPX_BLOCK_END(i1_tile, M, NPX_TILE); i1++) {' "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'a[i0 * M + i1] = X[i1 * K + i0] * 2.0;' "$BATS_TEST_TMPDIR/p.c"
    [ "$(grep -c 'i0_tile = 0' "$BATS_TEST_TMPDIR/p.c")" -eq 1 ]      # not b, read in order
    grep -qF 'const double elem = X[i1 * K + i0];' "$BATS_TEST_TMPDIR/p.c"   # s0: along X's rows
    grep -qF 'const double elem = X[i0 * K + j];' "$BATS_TEST_TMPDIR/p.c"    # s1: 8 of X's rows at a time
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'loop: multiply -> a f64[K, M] (fused: transpose), in tiles of 32 x 32: it reads an array across its rows' \
        <<<"$NPX_OUTPUT"
    [ "$(grep -c 'in tiles' <<<"$NPX_OUTPUT")" -eq 1 ]
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    local cu=$BATS_TEST_TMPDIR/p.cu
    sed -n '/line 4: a = /,/^}/p' "$cu" | tr -d ' ' | tr '\n' ' ' |
        grep -qF 'for(int64_ttile=blockIdx.x;tile<i0_tiles*i1_tiles;tile+=gridDim.x){ int64_trest=tile; constint64_ti1=rest%i1_tiles*NPX_TILE+threadIdx.x%NPX_TILE; rest/=i1_tiles; constint64_ti0_tile=rest*NPX_TILE; if(i1>=M) continue; for(int64_ti0=i0_tile+threadIdx.x/NPX_TILE;i0<NPX_BLOCK_END(i0_tile,K,NPX_TILE); i0+=blockDim.x/NPX_TILE){ a[i0*M+i1]=X[i1*K+i0]*2.0; } }'
    grep -qF 'NPX_LAUNCH(k_a_1, npx_dev_blocks(NPX_TILES(K) * NPX_TILES(M) * NPX_THREADS)' "$cu"
    [ "$(grep -c 'i0_tile = ' "$cu")" -eq 1 ]      # not b, read in order
    explain "$BATS_TEST_TMPDIR/p.npx" -t cuda
    grep -qF 'kernel: multiply -> a f64[K, M] (fused: transpose), a block a tile of 32 x 32 at a time: it reads an array across its rows' \
        <<<"$NPX_OUTPUT"
    [ "$(grep -c 'a block a tile' <<<"$NPX_OUTPUT")" -eq 1 ]
    # a tile 3 wide would idle most of a block's threads: the GPU keeps the flat order there
    program $'input X: f32[M, 3]\noutput a\na = X.T * 2.0'
    explain "$BATS_TEST_TMPDIR/p.npx" -t cuda
    [ "$(grep -c 'a block a tile' <<<"$NPX_OUTPUT")" -eq 0 ]
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    [ "$(grep -c 'i0_tiles' "$BATS_TEST_TMPDIR/p.cu")" -eq 0 ]
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'in tiles of 32 x 32' <<<"$NPX_OUTPUT"
}

@test "a dot of vectors no GEMM computes is a reduction of their product (host threads, GPU blocks); float vectors stay a BLAS call on the GPU and with --blas" {
    explain "$BATS_TEST_DIRNAME/programs/dot_vectors.npx"
    grep -qF 'loop: sum -> ii i32 (fused: multiply)' <<<"$NPX_OUTPUT"
    grep -qF 'loop: any -> bb bool (fused: logical_and, equal, remainder, equal, remainder)' <<<"$NPX_OUTPUT"
    grep -qF 'loop: sum -> fd f64 (fused: multiply)' <<<"$NPX_OUTPUT"
    [ "$(grep -c 'matmul' <<<"$NPX_OUTPUT")" -eq 0 ]
    explain "$BATS_TEST_DIRNAME/programs/dot_vectors.npx" -t cuda
    grep -qF 'kernel: sum -> ein i64 (fused: multiply), a block per result; when the results are too few to fill the GPU' \
        <<<"$NPX_OUTPUT"
    program $'input u: f32[N]\ninput w: f32[N]\noutput d\nd = np.dot(u, w)'
    explain "$BATS_TEST_TMPDIR/p.npx" -t cuda
    grep -qF 'call: matmul -> d f32: cublasSgemm(u, w)' <<<"$NPX_OUTPUT"
    # the C target: a reduction shared by the threads, unless --blas asks for CBLAS
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'loop: sum -> d f32 (fused: multiply)' <<<"$NPX_OUTPUT"
    explain "$BATS_TEST_TMPDIR/p.npx" --blas
    grep -qF 'call: matmul -> d f32' <<<"$NPX_OUTPUT"
}

@test "a reduction over one axis of an element read both ways (A - A.T) goes 8 rows at a time, over either axis" {
    program $'input A: f64[N, N]\noutput c0, c1\nc0 = np.abs(A - A.T).max(axis=0)\nc1 = np.abs(A - A.T).max(axis=1)'
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    [ "$(grep -c 'for (int64_t ib = 0; ib < N - N % 8; ib += 8) {' "$BATS_TEST_TMPDIR/p.c")" -eq 2 ]
    grep -qF 'const double elem = fabs(A[i0 * N + j] - A[j * N + i0]);' "$BATS_TEST_TMPDIR/p.c"   # c0
    grep -qF 'const double elem = fabs(A[j * N + i0] - A[i0 * N + j]);' "$BATS_TEST_TMPDIR/p.c"   # c1
}

@test "a whole reduction of an element read across rows: loops swapped when all its reads are, a matrix read both ways 8 rows at a time, else tiles; argmax neither" {
    program $'input A: f64[N, N]\ninput t: f64[B, N, N]\noutput d, s, at, m, c\nd = np.abs(A - A.T).max()\ns = (A * A.T).sum(axis=1)\nat = np.argmax(A - A.T)\nm = np.abs(A.T).max()\nc = np.abs(t - t.transpose(0, 2, 1)).max()'
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    sed -n '/line 4: d = /,/line 5: /p' "$BATS_TEST_TMPDIR/p.c" | grep -qF 'for (int64_t ib = 0; ib < N - N % 8; ib += 8) {'
    sed -n '/line 4: d = /,/line 5: /p' "$BATS_TEST_TMPDIR/p.c" | grep -qF 'const double elem = fabs(A[i0 * N + j] - A[j * N + i0]);'
    sed -n '/line 4: d = /,/line 5: /p' "$BATS_TEST_TMPDIR/p.c" | grep -qF 'for (int64_t j = 0; j < parts * N; j++) {'
    sed -n '/line 8: c = /,$p' "$BATS_TEST_TMPDIR/p.c" | grep -A2 -F 'NPX_IF_LARGE(B * N * N, NPX_PARALLEL_MAXIMUM,' |
        grep -qF 'for (int64_t i1_tile = 0; i1_tile < N; i1_tile += NPX_TILE) {'
    grep -B1 -F 'for (int64_t i2 = i2_tile; i2 < NPX_BLOCK_END(i2_tile, N, NPX_TILE); i2++) {' "$BATS_TEST_TMPDIR/p.c" |
        grep -qF 'NPX_SIMD_MAX'
    [ "$(grep -c '_tile = 0' "$BATS_TEST_TMPDIR/p.c")" -eq 2 ]      # c's two: not d, s (blocks) nor at (the first index)
    sed -n '/line 7: m = /,/elem = /p' "$BATS_TEST_TMPDIR/p.c" | tr -d ' ' | tr '\n' ' ' |
        grep -qF 'for(int64_ti1=0;i1<N;i1++){ NPX_SIMD_MAX for(int64_ti0=0;i0<N;i0++){ constdoubleelem=fabs(A[i1*N+i0]);'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'loop: max -> d f64 (fused: absolute, subtract, transpose), 8 rows at a time' <<<"$NPX_OUTPUT"
    grep -qF 'loop: sum -> s f64[N] (fused: multiply, transpose), 8 rows at a time' <<<"$NPX_OUTPUT"
    grep -qF 'loop: max -> c f64 (fused: absolute, subtract, transpose), in tiles of 32 x 32: it reads an array across its rows' \
        <<<"$NPX_OUTPUT"
    [ "$(grep -c 'in tiles' <<<"$NPX_OUTPUT")" -eq 1 ]
    [ "$(grep -c 'rows at a time' <<<"$NPX_OUTPUT")" -eq 2 ]
    grep -qF 'loop: max -> m f64 (fused: absolute, transpose), its loops swapped: it reads its arrays along their rows' \
        <<<"$NPX_OUTPUT"
}

@test "an elementwise chain is one loop with no temporaries" {
    explain "$NPX_ROOT/bench/arith.npx"
    grep -qF 'loop: subtract -> y f32[N] (fused: multiply, add, multiply, true_divide, add)' <<<"$NPX_OUTPUT"
    [ "$(grep -c 'loop:' <<<"$NPX_OUTPUT")" -eq 1 ]
    ! grep -q temporary <<<"$NPX_OUTPUT"
}

@test "a result that may be large is computed a strip at a time and stored past the cache; a small one is not" {
    npx_exec "npxc" "$NPXC" "$NPX_ROOT/bench/arith.npx" -o "$BATS_TEST_TMPDIR/a.c"
    grep -qF 'strip[i - i0] = (a[i] * 2.0f + b[i]) * c[i] - a[i] / (b[i] + 1.0f);' "$BATS_TEST_TMPDIR/a.c"
    grep -qF 'npx_store(y + i0, strip, sizeof(float) * (i1 - i0), sizeof(float) * N);' "$BATS_TEST_TMPDIR/a.c"
    grep -qF 'npx_store_fence();' "$BATS_TEST_TMPDIR/a.c"
    program $'input x: f64[1000, 600]\ninput y: f32[100]\noutput a, b\na = x * 2.0\nb = y + 1.0'
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'npx_store(a + i0, strip, sizeof(double) * (i1 - i0), sizeof(double) * 600000);' \
        "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'b[i] = y[i] + 1.0f;' "$BATS_TEST_TMPDIR/p.c"
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$NPX_ROOT/bench/arith.npx" -o "$BATS_TEST_TMPDIR/a.cu"
    ! grep -q 'strip\[' "$BATS_TEST_TMPDIR/a.cu"
}

@test "-O0 gives every operation its own loop" {
    explain "$NPX_ROOT/bench/arith.npx" -O0
    [ "$(grep -c 'loop:' <<<"$NPX_OUTPUT")" -eq 6 ]
    [ "$(grep -c '(temporary)' <<<"$NPX_OUTPUT")" -eq 5 ]
}

@test "a reduction computes its elementwise operand in its own loop" {
    program $'input x: f32[N]\ninput y: f32[N]\noutput s\ns = (x * y + 1.0).sum()'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'loop: sum -> s f32 (fused: add, multiply)' <<<"$NPX_OUTPUT"
    [ "$(grep -c 'loop:' <<<"$NPX_OUTPUT")" -eq 1 ]
}

@test "var and std square x - mean where their sum reads it, never storing it: whole, along rows, C and GPU" {
    program $'input x: f32[N, M]\ninput k: i64[N]\noutput s, v, n\ns = x.std()\nv = x.var(axis=1)\nn = np.linalg.norm(k)'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qxF '    loop: sum -> sum f32 (temporary) (fused: multiply, subtract)' <<<"$NPX_OUTPUT"
    grep -qF '    loop: sum -> v f32[N] (fused: multiply, subtract)' <<<"$NPX_OUTPUT"
    ! grep -qF 'subtract f32' <<<"$NPX_OUTPUT"
    ! grep -qF 'astype f64' <<<"$NPX_OUTPUT"
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    grep -qF 'const double elem = (double)((x[i0 * M + i1] - mean[0]) * (x[i0 * M + i1] - mean[0]));' "$BATS_TEST_TMPDIR/p.cu"
    ! grep -qF '"subtract"' "$BATS_TEST_TMPDIR/p.cu"
    check_program "$BATS_TEST_TMPDIR/p.npx" --random 2 --dim N=40 --dim M=700   # C, CUDA emulated, NumPy
}

@test "a reduction already computed is read again: layer norm's var takes mu's mean, a.T's var its mean; not after a loop, nor under -O0" {
    explain "$NPX_ROOT/bench/layernorm.npx"
    [ "$(grep -c 'loop: mean' <<<"$NPX_OUTPUT")" -eq 1 ]
    grep -qxF '    loop: mean -> mu f32[R, 1]' <<<"$NPX_OUTPUT"
    explain "$NPX_ROOT/bench/layernorm.npx" -O0
    [ "$(grep -c 'loop: mean' <<<"$NPX_OUTPUT")" -eq 2 ]
    program $'input x: f32[N, M]\ninput w: f32[K]\noutput a, b\nfor k in range(w.shape[0]):\n    a = x.sum(axis=0) * w[k]\n    b = x.sum(axis=0) + w[k]\nb = x.sum(axis=0)'
    explain "$BATS_TEST_TMPDIR/p.npx"
    [ "$(grep -c 'loop: sum' <<<"$NPX_OUTPUT")" -eq 2 ]   # once in the body, once after it
    explain "$BATS_TEST_DIRNAME/programs/rows_transposed.npx"   # a.T written five times is one view
    [ "$(grep -c 'loop: mean' <<<"$NPX_OUTPUT")" -eq 1 ]
}

@test "parts joined, sliced or given a new axis are computed where they are stored; a broadcast part is stored first" {
    program $'input a: f32[N, 3]\ninput b: f32[N, 3]\noutput c\nc = np.cross(a, b)'
    explain "$BATS_TEST_TMPDIR/p.npx"
    [ "$(grep -c 'loop:' <<<"$NPX_OUTPUT")" -eq 1 ]
    not grep -q temporary <<<"$NPX_OUTPUT"
    program $'input x: f32[N]\ninput y: f32[N]\noutput j, t\nj = np.concatenate([x * 2.0, np.sqrt(y)[1:]])\nt = np.stack([x + y, np.exp(x)], axis=1) * 2.0'
    explain "$BATS_TEST_TMPDIR/p.npx"
    [ "$(grep -c 'loop:' <<<"$NPX_OUTPUT")" -eq 2 ]
    not grep -q temporary <<<"$NPX_OUTPUT"
    # a reduction's vectorized loop does not branch into a part's work: the parts are stored
    program $'input x: f32[N]\ninput y: f32[N]\noutput s\ns = (np.concatenate([np.exp(x), y + 1.0]) * 2.0).sum()'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'loop: multiply -> multiply f32[N+N] (temporary) (fused: concatenate, exp, add)' <<<"$NPX_OUTPUT"
    grep -qF 'loop: sum -> s f32' <<<"$NPX_OUTPUT"
    program $'input x: f32[N]\ninput y: f32[M]\noutput z, w\nz = np.exp(x)[:, None] * y\nw = np.exp(y) * x[:, None]'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qE '^    loop: exp -> exp[_0-9]* f32\[M\] \(temporary\)$' <<<"$NPX_OUTPUT"
    grep -qE '^    loop: exp -> exp[_0-9]* f32\[N\] \(temporary\)$' <<<"$NPX_OUTPUT"
}

@test "--dump-ir shows each run-time check as the generated code tests it" {
    program $'input x: f32[N, M]\ninput v: f32[M]\ninput p: i64[K]\noutput y, z, w, g\ny = x[-2]\nz = x.reshape(-1, 4)\nw = x[:, :1] - v\ng = x * 1.0\ng[p, 0] = 2.0\nfor t in range(2):\n    u = x[t:t+2]\n    y = y + u[0]'
    npx_exec "npxc --dump-ir" "$NPXC" --dump-ir "$BATS_TEST_TMPDIR/p.npx"
    grep -qxF '    check index -2 in an axis of N' <<<"$NPX_OUTPUT"
    grep -qxF '    check 4 divides N*M' <<<"$NPX_OUTPUT"
    grep -qxF '    check M[:1] == 1 or M[:1] == M' <<<"$NPX_OUTPUT"
    grep -qxF '    check N > 0 or K == 0 (positions taken)' <<<"$NPX_OUTPUT"
    grep -qE '^    check 2 elements from %[0-9]+ in an axis of N$' <<<"$NPX_OUTPUT"
    not grep -qF 'check N == K' <<<"$NPX_OUTPUT"
    grep -qE '= take axis=0 %[0-9]+, %[0-9]+ : f32\[K\]' <<<"$NPX_OUTPUT"     # (not 'take sum')
}

@test "a factor and transposes fold into the matrix product, never copied" {
    program $'input a: f32[M, K]\ninput b: f32[N, K]\noutput g\ng = 0.5 * np.dot(a, b.T)'
    npx_exec "npxc --dump-ir" "$NPXC" --dump-ir "$BATS_TEST_TMPDIR/p.npx"
    grep -qE 'matmul scale=0.5 %[0-9]+, %[0-9]+ : f32\[M, N\]  -> g$' <<<"$NPX_OUTPUT"
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'call: matmul -> g f32[M, N]: npx_gemm_f32(a, b transposed), times 0.5 in the call' <<<"$NPX_OUTPUT"
    [ "$(grep -c 'loop:' <<<"$NPX_OUTPUT")" -eq 0 ]
    npx_exec "npxc --blas" "$NPXC" --blas "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'cblas_sgemm(NPX_CBLAS_ROW_MAJOR, NPX_CBLAS_NO_TRANS, NPX_CBLAS_TRANS, (int)M, (int)N, (int)K, 0.5f, a,' \
        "$BATS_TEST_TMPDIR/p.c"
}

@test "softmax runs row by row, its exponentials kept one row at a time" {
    explain "$NPX_ROOT/bench/softmax.npx"
    grep -qF 'softmax.npx:16-19: row by row: one loop over the rows runs these lines on each of the B rows' \
        <<<"$NPX_OUTPUT"
    grep -qF 'loop: exp -> e f32[B, C] (fused: subtract) (one row at a time)' <<<"$NPX_OUTPUT"
    [ "$(grep -c 'one row at a time' <<<"$NPX_OUTPUT")" -eq 1 ]
    npx_exec "npxc" "$NPXC" "$NPX_ROOT/bench/softmax.npx" -o "$BATS_TEST_TMPDIR/s.c"
    [ "$(grep -c 'NPX_FOR_NOWAIT' "$BATS_TEST_TMPDIR/s.c")" -ge 1 ]
    grep -qF 'e_row[i1] = expf(x[i0 * C + i1] - m[i0]);' "$BATS_TEST_TMPDIR/s.c"
}

@test "a row group streams out a large matrix it reads no more; one it reads again, a column or a small one stays where it is written" {
    npx_exec "npxc" "$NPXC" "$NPX_ROOT/bench/softmax.npx" -o "$BATS_TEST_TMPDIR/s.c"
    grep -qF 'strip[i1 - j0] = e_row[i1] / s[i0];' "$BATS_TEST_TMPDIR/s.c"
    grep -qF 'npx_store(y + i0 * C + j0, strip, sizeof(float) * (j1 - j0), sizeof(float) * B * C);' \
        "$BATS_TEST_TMPDIR/s.c"
    [ "$(grep -c 'npx_store_fence();' "$BATS_TEST_TMPDIR/s.c")" -eq 1 ]
    program $'input x: f32[B, C]\noutput y, d, lse\nm = x.max(axis=1, keepdims=True)\nd = x - m\ne = np.exp(d)\ns = e.sum(axis=1, keepdims=True)\nlse = m + np.log(s)\ny = e / s'
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'd[i0 * C + i1] = x[i0 * C + i1] - m[i0];' "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'npx_store(y + i0 * C + j0, strip' "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'lse[i0] = m[i0] + logf(s[i0]);' "$BATS_TEST_TMPDIR/p.c"       # one element a row: no loop
    not grep -qF 'npx_store(lse' "$BATS_TEST_TMPDIR/p.c"
    program $'input x: f32[64, 32]\noutput y\ne = np.exp(x - x.max(axis=1, keepdims=True))\ny = e / e.sum(axis=1, keepdims=True)'
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'y[i0 * 32 + i1] = e_row[i1] / sum[i0];' "$BATS_TEST_TMPDIR/p.c"
    ! grep -qF 'npx_store_fence();' "$BATS_TEST_TMPDIR/p.c"
}

@test "on the GPU, softmax is one kernel with a block per row, its exponentials' row in shared memory" {
    explain "$NPX_ROOT/bench/softmax.npx" -t cuda
    grep -qF 'softmax.npx:16-19: row by row: one kernel, a block per row, runs these lines' <<<"$NPX_OUTPUT"
    grep -qF 'kernel: exp -> e f32[B, C] (fused: subtract) (one row at a time)' <<<"$NPX_OUTPUT"
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$NPX_ROOT/bench/softmax.npx" -o "$BATS_TEST_TMPDIR/s.cu"
    [ "$(grep -c '^__global__ void k_' "$BATS_TEST_TMPDIR/s.cu")" -eq 1 ]
    grep -qF 'for (int64_t i0 = blockIdx.x; i0 < B; i0 += gridDim.x) {' "$BATS_TEST_TMPDIR/s.cu"
    grep -qF 'float *e_row = e ? e + i0 * C : (float *)shared_rows;' "$BATS_TEST_TMPDIR/s.cu"
}

@test "on the GPU a few results share their elements among blocks, and results side by side go a warp across 32" {
    program $'input x: f32[N]\ninput M: f32[R, C]\noutput s, c, r, a\ns = x.sum()\nc = M.sum(axis=0)\nr = M.sum(axis=1)\na = np.argmax(M.T, axis=1)'
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    local cu=$BATS_TEST_TMPDIR/p.cu
    # s: tasks that split x among blocks, a second kernel combines their parts
    grep -qF 'const int64_t splits = npx_dev_splits(1, N, NPX_THREADS); /* tasks for each result */' "$cu"
    grep -qF 'for (int64_t j = j_from + threadIdx.x; j < j_to; j += blockDim.x) {' "$cu"
    grep -qF '__global__ void k_s_1_parts(float *s, const double *parts, int64_t splits)' "$cu"
    grep -qF 'NPX_LAUNCH(k_s_1, npx_dev_blocks(splits * NPX_THREADS), NPX_THREADS, 0, npx_dev_stream(), x, s, N, parts, splits);' "$cu"
    # c: a warp across 32 columns, each thread down its own, read where the element lies
    grep -qF 'const int64_t splits = npx_dev_splits((C + 31) / 32, R, NPX_THREADS / 32);' "$cu"
    grep -qF 'const int64_t o = task / splits * 32 + threadIdx.x % 32, j_from = task % splits * share;' "$cu"
    grep -qF 'for (int64_t j = j_from + threadIdx.x / 32; j < j_to; j += blockDim.x / 32) {' "$cu"
    grep -qF 'const int64_t i = j * C + o;' "$cu"
    # r: a block along each row; a: argmax of M's columns through a transpose, by warps too
    grep -qF 'const int64_t i = o * C + j;' "$cu"
    sed -n '/line 7: a = /,$p' "$cu" | grep -qF 'const int64_t splits = npx_dev_splits((C + 31) / 32, R, NPX_THREADS / 32);'
    grep -qF 'int64_t *parts_at = splits > 1 ?' "$cu"
    explain "$BATS_TEST_TMPDIR/p.npx" -t cuda
    grep -qF 'kernel: sum -> s f32, a block per result; when the results are too few to fill the GPU, blocks share each one' <<<"$NPX_OUTPUT"
    grep -qF 'kernel: sum -> c f32[C], a warp across 32 results, a thread down each;' <<<"$NPX_OUTPUT"
    grep -qF 'kernel: sum -> r f32[R], a block per result;' <<<"$NPX_OUTPUT"
    [ "$(grep -c 'a warp across 32 results' <<<"$NPX_OUTPUT")" -eq 2 ]      # c and a, not r
}

@test "a reduction computes its one elementwise reader as each result is final: its results are never stored; -O0 stores them" {
    program $'input x: f32[N, M]\ninput b: f32[N]\noutput n, s2, k, loss\nn = np.sqrt((x * x).sum(axis=1)) - b\ns2 = x.sum(axis=1) * x.max(axis=1)\nt = (x * 2.0).sum(axis=1)\nk = t + np.exp(t)\nloss = np.sqrt(b.mean())'
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    local c=$BATS_TEST_TMPDIR/p.c cu=$BATS_TEST_TMPDIR/p.cu
    grep -qF 'n[i0] = sqrtf((float)acc) - b[i0];' "$c"
    [ "$(grep -cF 'n[i0] = sqrtf((float)acc) - b[i0];' "$cu")" -eq 2 ]    # a block's result, or its parts'
    grep -qF 's2[i0] = (float)acc * max[i0];' "$c"                     # one of two reductions: max is stored
    ! grep -qF '"sum"' "$c"
    ! grep -qF '"sum"' "$cu"
    grep -qF 't[i0] = (float)acc;' "$c"                                 # a named value is stored
    grep -qF 'float loss = sqrtf(mean);' "$c"                           # C: a number's reader is a local
    [ "$(grep -cF 'loss[0] = sqrtf((float)(acc / (double)(N)));' "$cu")" -eq 2 ]   # GPU: not a launch of its own
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qxF '    loop: sum -> n f32[N] (fused: multiply), then from each result: subtract, sqrt (the results themselves are not stored)' <<<"$NPX_OUTPUT"
    grep -qxF '    loop: max -> max f32[N] (temporary)' <<<"$NPX_OUTPUT"
    explain "$BATS_TEST_TMPDIR/p.npx" -O0
    grep -qxF '    loop: sum -> sum f32[N] (temporary)' <<<"$NPX_OUTPUT"
    ! grep -qF 'then from each result' <<<"$NPX_OUTPUT"
    check_program "$BATS_TEST_TMPDIR/p.npx" --random 4 --dim N=50 --dim M=300   # C, CUDA emulated, NumPy
}

@test "on the GPU results of a few elements each (a 3-vector's norm, an argmax of 32) are a thread each, not a block of mostly idle threads" {
    program $'input v: f32[N, 3]\ninput M: f32[R, 32]\ninput W: f32[R, 33]\noutput n, a, w\nn = np.sqrt((v * v).sum(axis=-1))\na = np.argmax(M, axis=1)\nw = W.sum(axis=1)'
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    local cu=$BATS_TEST_TMPDIR/p.cu
    grep -qF 'for (int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; o < N; o += (int64_t)gridDim.x * blockDim.x) {' "$cu"
    grep -qF 'for (int64_t j = 0; j < 3; j++) {' "$cu"
    grep -qF 'for (int64_t j = 0; j < 32; j++) {' "$cu"
    grep -qF 'NPX_LAUNCH(k_n_1, npx_dev_blocks(N), NPX_THREADS, 0, npx_dev_stream(), v, n, N);' "$cu"
    explain "$BATS_TEST_TMPDIR/p.npx" -t cuda
    [ "$(grep -c 'a thread per result: each has a few elements' <<<"$NPX_OUTPUT")" -eq 2 ]     # n and a
    grep -qF 'kernel: sum -> w f32[R], a block per result;' <<<"$NPX_OUTPUT"                    # 33 elements
    check_program "$BATS_TEST_TMPDIR/p.npx" --random 3 --dim N=1000 --dim R=40      # C, CUDA emulated, NumPy
}

@test "on the GPU a running sum along rows is scanned by blocks, split among them when the lanes are few; down columns, a thread a lane" {
    program $'input x: f32[N]\ninput M: f32[R, C]\noutput c, d, e\nc = np.cumsum(x)\nd = np.cumsum(M, axis=0)\ne = np.cumsum(M, axis=1)'
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    local cu=$BATS_TEST_TMPDIR/p.cu
    grep -qF 'const int64_t splits = npx_dev_splits(1, N, NPX_THREADS); /* tasks for each lane */' "$cu"
    grep -qF '__global__ void k_c_1_totals(const float *x, int64_t N, float *parts, int64_t splits)' "$cu"
    grep -qF '__global__ void k_c_1_offsets(float *parts, int64_t splits)' "$cu"
    grep -qF "float carry = task % splits ? parts[task - 1] : 0; /* the lane's total before the share */" "$cu"
    grep -qF 'const float before = __shfl_up_sync(0xffffffffu, acc, up);' "$cu"
    grep -qF 'c[j] = carry + before + acc;' "$cu"
    grep -qF 'e[i0 * C + j] = carry + before + acc;' "$cu"
    sed -n '/line 5: d = /,/^}/p' "$cu" | grep -qF 'for (int64_t p = 0; p < R; p++) {'
    explain "$BATS_TEST_TMPDIR/p.npx" -t cuda
    [ "$(grep -c 'kernel: cumsum -> [ce] f32.*, a block along each lane, a tile at a time' <<<"$NPX_OUTPUT")" -eq 2 ]
    grep -qxF '    kernel: cumsum -> d f32[R, C], a thread along each lane' <<<"$NPX_OUTPUT"
}

@test "on the GPU a running sum along rows known to be short is a thread a lane, not a block of mostly idle threads" {
    program $'input S: f32[R, 8]\ninput L: i64[R, 33]\noutput s, l\ns = np.cumsum(S, axis=1)\nl = np.cumprod(L % 3 + 1, axis=-1)'
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    local cu=$BATS_TEST_TMPDIR/p.cu
    sed -n '/line 4: s = /,/^}/p' "$cu" | grep -qF 'for (int64_t p = 0; p < 8; p++) {'
    ! grep -qF 'k_s_1_totals' "$cu"
    grep -qF '__global__ void k_l_2_totals(' "$cu"                           # 33 elements: blocks
    explain "$BATS_TEST_TMPDIR/p.npx" -t cuda
    grep -qxF '    kernel: cumsum -> s f32[R, 8], a thread along each lane' <<<"$NPX_OUTPUT"
    grep -qF 'kernel: cumprod -> l i64[R, 33] (fused: add, remainder), a block along each lane' <<<"$NPX_OUTPUT"
    check_program "$BATS_TEST_TMPDIR/p.npx" --random 5 --dim R=300      # C, CUDA emulated, NumPy
}

@test "a whole array's any and all go in chunks that stop once one decides them, its flag shared by the threads" {
    program $'input x: f32[N]\ninput M: bool[R, C]\noutput a, b, c\na = (x > 0.5).any()\nb = M.all()\nc = M.all(axis=1)'
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    local c=$BATS_TEST_TMPDIR/p.c
    [ "$(grep -c 'i0 += NPX_DECIDE) {' "$c")" -eq 2 ]      # a and b, not c: a row is short
    grep -qF 'NPX_IF_LARGE(N, NPX_PARALLEL_ANY,' "$c"
    grep -qF 'const bool elem = x[i] > 0.5f;' "$c"
    grep -qF 'const bool elem = M[i];' "$c"
    grep -A2 -F 'NPX_ATOMIC_READ' "$c" | grep -qF 'if (stop)'
    grep -qF '#define NPX_ATOMIC_WRITE _Pragma("omp atomic write")' "$c"
}

@test "on the GPU a kernel over several axes divides a thread's first index once, then steps its indices by adding" {
    program $'input A: f32[N, N]\ninput v: f32[N]\ninput t: f32[B, N, N]\noutput S, T\nS = A + v\nT = t * v[:, None]'
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    local cu=$BATS_TEST_TMPDIR/p.cu
    sed -n '/line 5: S = /,/^}/p' "$cu" | tr -d ' ' | tr '\n' ' ' |
        grep -qF 'for(;;){ S[i0*N+i1]=A[i0*N+i1]+v[i1]; if((i+=grid_step)>=N*N) break; i1+=i1_step; i0+=i0_step; if(i1>=N){ i1-=N; i0++; } }'
    sed -n '/line 6: T = /,/^}/p' "$cu" | grep -qF 'if (i2 >= N) {'
    sed -n '/line 6: T = /,/^}/p' "$cu" | grep -qF 'if (i1 >= N) {'
    ! sed -n '/for (;;) {/,/^}/p' "$cu" | grep -q '%'
}

@test "a row group ends at a statement that needs other rows, and what is read after it is stored whole" {
    explain "$BATS_TEST_DIRNAME/programs/row_groups.npx"
    grep -qF 'row_groups.npx:14-25: row by row' <<<"$NPX_OUTPUT"
    grep -qF 'row_groups.npx:28-33: row by row' <<<"$NPX_OUTPUT"
    grep -qF 'loop: subtract -> xc f32[B, C]' <<<"$NPX_OUTPUT"
    ! grep -q 'xc f32\[B, C\].*one row at a time' <<<"$NPX_OUTPUT"
}

@test "a statement that reads an array across its rows (a.T.var(axis=1)) makes no row group: its reductions go along a's rows" {
    explain "$BATS_TEST_DIRNAME/programs/rows_transposed.npx"
    not grep -q 'row by row' <<<"$NPX_OUTPUT"
    grep -qxF '    loop: mean -> mean f32[M, 1] (temporary) (fused: transpose), 8 rows at a time: each thread folds its rows into its own accumulators' <<<"$NPX_OUTPUT"
    explain "$BATS_TEST_DIRNAME/programs/rows_transposed.npx" -t cuda
    not grep -q 'row by row' <<<"$NPX_OUTPUT"
    grep -qF 'kernel: mean -> mean f32[M, 1] (temporary) (fused: transpose), a warp across 32 results, a thread down each' <<<"$NPX_OUTPUT"
}

@test "statements whose rows are single elements, and -O0, make no row group" {
    program $'input a: f32[N]\ninput b: f32[N]\noutput y, z\nd = a - b\ny = d * d\nz = np.exp(d) + y'
    explain "$BATS_TEST_TMPDIR/p.npx"
    not grep -q 'row by row' <<<"$NPX_OUTPUT"
    explain "$NPX_ROOT/bench/softmax.npx" -O0
    ! grep -q 'row by row' <<<"$NPX_OUTPUT"
}

@test "--explain on the CUDA target names its kernels and every time the host waits for the device" {
    explain "$NPX_ROOT/samples/bincount.npx" -t cuda
    grep -qF 'kernel: bincount -> counts i64[?bincount]' <<<"$NPX_OUTPUT"
    [ "$(grep -c 'sync:' <<<"$NPX_OUTPUT")" -eq 1 ]
    grep -qF 'sync: the host reads the largest value (and any device error) to size counts' <<<"$NPX_OUTPUT"
    grep -qF 'bincount.npx: end: one sync (device errors are checked), then the outputs come back: counts, most, total' \
        <<<"$NPX_OUTPUT"
    explain "$NPX_ROOT/bench/softmax.npx" -t cuda
    ! grep -q 'sync:' <<<"$NPX_OUTPUT"
}

@test "a histogram counts its bins where it finds them, in one loop or kernel with no sync, its length known" {
    printf 'input x: f32[N]\noutput h\nh = np.histogram(x, bins=100)[0]\n' >"$BATS_TEST_TMPDIR/h.npx"
    explain "$BATS_TEST_TMPDIR/h.npx" -t cuda
    grep -qE 'kernel: bincount -> counts i64\[101\] \(temporary\) \(fused: where, logical_and, .*take' <<<"$NPX_OUTPUT"
    not grep -q 'sync:' <<<"$NPX_OUTPUT"
    explain "$BATS_TEST_TMPDIR/h.npx"
    grep -qE 'loop: bincount -> counts i64\[101\] \(temporary\) \(fused: where, ' <<<"$NPX_OUTPUT"
}

@test "matrix products of floats go to the blocked GEMM by default, to CBLAS with --blas, transposes as flags" {
    npx_exec "npxc" "$NPXC" "$NPX_ROOT/bench/autoencoder.npx" -o "$BATS_TEST_TMPDIR/a.c"
    grep -qF 'npx_gemm_f32(false, true, B, H, V, 1.0f, delta_o, V, W, V, dot, H);' "$BATS_TEST_TMPDIR/a.c"
    grep -qF 'npx_gemm_f32(true, false, V, H, B, 1.0f, x, V, delta_h, H, grad_W, H);' "$BATS_TEST_TMPDIR/a.c"
    npx_exec "npxc --blas" "$NPXC" --blas "$NPX_ROOT/bench/autoencoder.npx" -o "$BATS_TEST_TMPDIR/b.c"
    [ "$(grep -c 'cblas_sgemm(NPX_CBLAS_ROW_MAJOR' "$BATS_TEST_TMPDIR/b.c")" -eq 2 ]
    ! grep -qE '^ +npx_gemm_f32\((true|false),' "$BATS_TEST_TMPDIR/b.c"
}

@test "a stack of matrix products is one GEMM per matrix (one strided batched cuBLAS call), a shared matrix not copied" {
    program $'input q: f32[S, T, D]\ninput k: f32[S, T, D]\ninput w: f32[D, D]\noutput att, proj\natt = q @ np.swapaxes(k, 1, 2)\nproj = q @ w'
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'npx_gemm_f32(false, true, T, T, D, 1.0f, q_2 + i * T * D, D, k_2 + i * T * D, D, att + i * T * T, T);' \
        "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'npx_gemm_f32(false, false, T, D, D, 1.0f, q_2 + i * T * D, D, w, D, proj + i * T * D, D);' \
        "$BATS_TEST_TMPDIR/p.c"
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    grep -qF 'cublasSgemmStridedBatched(npx_dev_blas(), CUBLAS_OP_N, CUBLAS_OP_N, (int)D, (int)T, (int)D, &scale, w, npx_blas_ld(D), 0, q_2,' \
        "$BATS_TEST_TMPDIR/p.cu"
}

@test "einsum of two matrices or stacks of them is a matrix product, a chain is products in turn, other sums one fused loop" {
    program $'input a: f32[M, K]\ninput b: f32[K, N]\ninput s: f32[S, M, K]\ninput t: f32[S, K, N]\ninput u: f32[N, L]\noutput c, d, e, f, g\nc = np.einsum(\'ij,jk->ki\', a, b)\nd = np.einsum(\'sij,sjk->sik\', s, t)\ne = np.einsum(\'sij,sjk->ik\', s, t)\nf = np.einsum(\'ij,ij->i\', a, a)\ng = np.einsum(\'ij,jk,kl->il\', a, b, u)'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'call: matmul -> c f32[N, M]: npx_gemm_f32(b transposed, a transposed)' <<<"$NPX_OUTPUT"
    grep -qF 'call: matmul -> d f32[S, M, N]: npx_gemm_f32(s, t) once for each matrix of the stack' <<<"$NPX_OUTPUT"
    grep -qF 'loop: sum -> e f32[M, N] (fused: multiply, newaxis, transpose, newaxis, transpose)' <<<"$NPX_OUTPUT"
    grep -qF 'loop: sum -> f f32[M] (fused: multiply)' <<<"$NPX_OUTPUT"
    grep -qF 'call: matmul -> dot f32[M, N] (temporary): npx_gemm_f32(a, b)' <<<"$NPX_OUTPUT"
    grep -qF 'call: matmul -> g f32[M, L]: npx_gemm_f32(dot, u)' <<<"$NPX_OUTPUT"
    [ "$(grep -c 'loop:' <<<"$NPX_OUTPUT")" -eq 2 ] && [ "$(grep -c 'call:' <<<"$NPX_OUTPUT")" -eq 4 ]
}

@test "a view a float product reads that is no block of its array (every other row, a reordering) is stored once, the product a GEMM" {
    program $'input x: f32[B, V]\ninput W: f32[V, H]\ninput s: f32[S, V, B]\noutput y, z\ny = x[::2] @ W\nz = s.transpose(0, 2, 1).T.T @ W'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'loop: index -> part_2 f32[B[::2], V] (temporary)' <<<"$NPX_OUTPUT"
    grep -qF 'call: matmul -> y f32[B[::2], H]: npx_gemm_f32(part_2, W)' <<<"$NPX_OUTPUT"
    grep -qF 'call: matmul -> z f32[S, B, H]: npx_gemm_f32(s transposed, W) once for each matrix of the stack' \
        <<<"$NPX_OUTPUT"
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'npx_gemm_f32(false, false, B_2, H, V, 1.0f, part_2, V, W, H, y, H);' "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'npx_gemm_f32(true, false, B, H, V, 1.0f, s + i * V * B, B, W, H, z + i * B * H, H);' "$BATS_TEST_TMPDIR/p.c"
}

@test "--explain tells a GEMM call from loops: a vector product is loops, a call with --blas" {
    program $'input a: f32[M, K]\ninput v: f32[K]\noutput y, z\ny = a @ v\nz = a.T @ a'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'loop: matmul -> y f32[M]' <<<"$NPX_OUTPUT"
    grep -qF 'call: matmul -> z f32[K, K]: npx_gemm_f32(a transposed, a), when large the tiles on and above the diagonal' \
        <<<"$NPX_OUTPUT"
    explain "$BATS_TEST_TMPDIR/p.npx" --blas
    grep -qF 'call: matmul -> y f32[M]: cblas_sgemm(a, v)' <<<"$NPX_OUTPUT"
    grep -qF 'call: matmul -> z f32[K, K]: cblas_ssyrk(a transposed), its upper triangle, the lower one copied' <<<"$NPX_OUTPUT"
    ! grep -qF 'loop:' <<<"$NPX_OUTPUT"
}

@test "a float product reads a block of an array (x[t], x[1:], a window) where it lies, on both targets: no copy" {
    program $'input x: f32[T, B, D]\ninput W: f32[D, H]\ninput U: f32[H, H]\noutput h, y, z, w\nh = np.zeros((T, B, H), dtype=np.float32)\nfor t in range(1, T):\n    h[t] = x[t] @ W + h[t - 1] @ U\ny = x[1:] @ W\nz = x[0, 2:4] @ W\nfor b in range(2):\n    w = x[1, b * 2:(b + 1) * 2] @ W'
    explain "$BATS_TEST_TMPDIR/p.npx"
    not grep -qE '(take|index) -> .*temporary' <<<"$NPX_OUTPUT"
    grep -qF 'call: matmul -> dot f32[B, H] (temporary): npx_gemm_f32(a block of x in place, W)' <<<"$NPX_OUTPUT"
    grep -qF 'call: matmul -> dot_2 f32[B, H] (temporary): npx_gemm_f32(a block of h_2 in place, U)' <<<"$NPX_OUTPUT"
    grep -qF 'call: matmul -> y f32[T-1, B, H]: npx_gemm_f32(a block of x in place, W) once for each matrix' \
        <<<"$NPX_OUTPUT"
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'npx_gemm_f32(false, false, B, H, D, 1.0f, x + npx_take(st, 7, t, T, 0) * B * D, D, W, H, ' "$BATS_TEST_TMPDIR/p.c"
    grep -qF '1.0f, h_2 + npx_take(st, 7, npx_sub_i64(t, 1), T, 0) * B * H, H, U, H, ' "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'npx_gemm_f32(false, false, B, H, D, 1.0f, x + B * D + i * B * D, D, W, H, y + i * B * H, H);' "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'npx_gemm_f32(false, false, B_2_4, H, D, 1.0f, x + 2 * D, D, W, H, z, H);' "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'npx_gemm_f32(false, false, 2, H, D, 1.0f, x + B * D + npx_mul_i64(b, 2) * D, D, W, H, w, H);' "$BATS_TEST_TMPDIR/p.c"
    npx_exec "npxc --target cuda" "$NPXC" --target cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    grep -qF 'W, npx_blas_ld(H), x + npx_take(st, 7, t, T, 0) * B * D, npx_blas_ld(D), ' "$BATS_TEST_TMPDIR/p.cu"
    explain "$BATS_TEST_TMPDIR/p.npx" -t cuda
    grep -qF 'call: matmul -> y f32[T-1, B, H]: cublasSgemmStridedBatched(a block of x in place, W)' <<<"$NPX_OUTPUT"
}

@test "on CUDA an integer the host knows (t - 1) is computed in the kernel that reads it, not by a kernel of its own" {
    program $'input x: f32[T, D]\noutput y\ny = np.zeros((D,), dtype=np.float32)\nfor t in range(1, T):\n    y = y + x[t - 1] * 2.0'
    explain "$BATS_TEST_TMPDIR/p.npx" -t cuda
    grep -qF 'kernel: add -> y_3 f32[D] (fused: multiply, take, subtract)' <<<"$NPX_OUTPUT"
    [ "$(grep -c 'kernel:' <<<"$NPX_OUTPUT")" -eq 2 ]       # (the zeros, and the loop's one)
    explain "$BATS_TEST_TMPDIR/p.npx"                      # C: a local, computed once per iteration
    grep -qF 'loop: subtract -> subtract i64 (temporary)' <<<"$NPX_OUTPUT"
}

@test "a loop shares its work among the threads only when large: sizes that are numbers decide in npxc, symbols at run time" {
    program $'input x: f32[B, C]\ninput s: f32[64]\ninput t: f32[300, 200]\ninput z: f64[N]\noutput m, u, v, w, q, hi, pos\nm = x.sum(axis=1)\nu = s + 1.0\nv = t * 3.0\nw = x.sum()\nq = z.sum()\nhi = z.max()\npos = (z > 0.0).all()'
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    local c=$BATS_TEST_TMPDIR/p.c
    grep -qF '#define NPX_PARALLEL_MIN 32768' "$c"
    # B rows of C elements each: the reduced axis counts in the work
    grep -A1 -F 'NPX_IF_LARGE(B * C, NPX_PARALLEL_FOR,' "$c" | grep -qF 'for (int64_t i0 = 0; i0 < B; i0++) {'
    grep -B1 -F 'u[i] = s[i] + 1.0f;' "$c" | grep -qF 'for (int64_t i = 0; i < 64; i++) {'
    grep -B2 -F 'u[i] = s[i] + 1.0f;' "$c" | not grep -q 'NPX_'                 # 64 elements: no pragma
    grep -B2 -F 'v[i] = t[i] * 3.0f;' "$c" | grep -qx ' *NPX_PARALLEL_FOR'     # 60000: always
    grep -qF 'NPX_IF_LARGE(B * C, NPX_PARALLEL_SUM,' "$c"
    # a one-thread sum still vectorizes
    grep -qF 'NPX_IF_LARGE_ELSE(N, NPX_PARALLEL_SUM_SIMD, NPX_SIMD_SUM,' "$c"
    # so do a whole array's max (with its NaN flag) and all (its chunks, on one thread or shared)
    grep -qF 'NPX_IF_LARGE_ELSE(N, NPX_PARALLEL_MAXIMUM_SIMD, NPX_SIMD_MAX,' "$c"
    sed -n '/line 12: pos = /,$p' "$c" | grep -A1 -F 'NPX_IF_LARGE(N, NPX_PARALLEL_ALL,' |
        grep -qF 'for (int64_t i0 = 0; i0 < N; i0 += NPX_DECIDE) {'
    sed -n '/line 12: pos = /,$p' "$c" | grep -A1 -F 'NPX_SIMD_ALL' | grep -qF 'for (int64_t i = i0; i < i1; i++) {'
}

# (The row loop is the program's only expf, and the runtime has none: a call
# of glibc's vector expf, _ZGV..._expf, in the object is that loop vectorized;
# _ZGVeN16v_expf is the AVX-512 one.) The flags are those of the file's own
# "Build:" line, the ones npxc --exe uses.
@test "a row loop that calls vector math (softmax's exp) vectorizes at the file's build flags, in a program and in a --lib library" {
    "${CC:-cc}" -v 2>&1 | grep -q '^gcc version' || skip "needs gcc's simd declarations of libmvec"
    local d=$BATS_TEST_TMPDIR f flags want=' U _ZGV[a-z]N[0-9]*v_expf$'
    grep -qw avx512f /proc/cpuinfo && want=' U _ZGVeN16v_expf$'
    for f in prog lib; do
        npx_exec "npxc" "$NPXC" $([ "$f" = lib ] && echo --lib) "$NPX_ROOT/bench/softmax.npx" -o "$d/$f.c"
        grep -q 'e_row\[i1\] = expf(' "$d/$f.c"
        flags=$(sed -n 's/^ \* Build: cc \(.*\) \(-c \)\{0,1\}THIS_FILE\.c.*/\1/p' "$d/$f.c")
        [ -n "$flags" ]
        # shellcheck disable=SC2086  # the flags are words
        "${CC:-cc}" $flags -c "$d/$f.c" -o "$d/$f.o"
        nm "$d/$f.o" | grep -q "$want" ||
            { echo "the exp loop of $f.c ($flags) has no vector expf of this machine's width,$want: $(nm "$d/$f.o" | grep expf)" >&2; return 1; }
    done
}

# A loop whose exp sits in a select (np.where) vectorizes only if gcc may
# compute both sides: -fno-trapping-math, in the Build line. AVX-512's masked
# operations would hide its absence; an AVX2 machine (-mno-avx512f) shows it.
@test "an exp under np.where vectorizes at the file's build flags without AVX-512" {
    "${CC:-cc}" -v 2>&1 | grep -q '^gcc version' || skip "needs gcc's simd declarations of libmvec"
    [ "$(uname -m)" = x86_64 ] || skip "the AVX2 case is x86's"
    local d=$BATS_TEST_TMPDIR flags
    program $'input x: f32[N]\noutput y\ny = np.where(x > 0.0, np.exp(-x) * 2.0 + 1.0, x * 0.5)'
    npx_exec "npxc" "$NPXC" "$d/p.npx" -o "$d/p.c"
    flags=$(sed -n 's/^ \* Build: cc \(.*\) THIS_FILE\.c.*/\1/p' "$d/p.c")
    # shellcheck disable=SC2086
    "${CC:-cc}" $flags -mno-avx512f -c "$d/p.c" -o "$d/p.o"
    nm "$d/p.o" | grep -q ' U _ZGV[a-z]N[0-9]*v_expf$' ||
        { echo "the np.where loop did not vectorize at $flags: $(nm "$d/p.o" | grep expf)" >&2; return 1; }
}

@test "argmax looks for its winner where a stored array lies; a computed operand's chunk is kept aside" {
    program $'input x: f32[B, C]\noutput p, q\np = x.argmax(axis=1)\nq = (x * 2.0).argmin(axis=1)'
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    # x's rows are searched again in place: no buffer in p's statement
    sed -n '/line 3: p = /,/line 4: q = /p' "$BATS_TEST_TMPDIR/p.c" >"$BATS_TEST_TMPDIR/p_stmt.c"
    not grep -q 'chunk_elem' "$BATS_TEST_TMPDIR/p_stmt.c"
    [ "$(grep -c 'const float elem = x\[i0 \* C + i1\];' "$BATS_TEST_TMPDIR/p_stmt.c")" -eq 3 ]
    # x * 2.0 is computed once per element: the search reads it from the chunk's buffer
    sed -n '/line 4: q = /,$p' "$BATS_TEST_TMPDIR/p.c" | grep -q 'const float elem = chunk_elem\[i1 - lo\];'
}

@test "a loop's carried names are copied once before it (or take over a buffer) and moved at each iteration's end" {
    explain "$NPX_ROOT/samples/train.npx"
    grep -qF 'loop: lines 23-27 run once for each value of step' <<<"$NPX_OUTPUT"
    grep -qF 'carried: W f32[H, V], its buffer before the loop taken over (nothing else reads it); each iteration' \
        <<<"$NPX_OUTPUT"
    grep -qF 'carried: loss f32, bound in the loop, read after it' <<<"$NPX_OUTPUT"
    not grep -qF 'carried: delta_h' <<<"$NPX_OUTPUT"
    npx_exec "npxc" "$NPXC" "$NPX_ROOT/samples/train.npx" -o "$BATS_TEST_TMPDIR/t.c"
    grep -qF 'for (int64_t step = 0; step < 25; step++) {' "$BATS_TEST_TMPDIR/t.c"
    grep -A1 -F 'npx_free(W_2);' "$BATS_TEST_TMPDIR/t.c" | grep -qF 'W_2 = W_3;'
    grep -qF 'float *W_2 = W; /* the loop takes over' "$BATS_TEST_TMPDIR/t.c"
    not grep -qF '= W_3[i]' "$BATS_TEST_TMPDIR/t.c"
    explain "$NPX_ROOT/test/programs/loops.npx"
    grep -qF 'carried: W f32[V, H], copied once before the loop' <<<"$NPX_OUTPUT"
}

@test "a sort reads its operand where it is stored: a flattened input is not copied, a view or expression is stored first" {
    program $'input x: f32[B, N]\noutput a, b\na = np.sort(x, axis=None)\nb = np.argsort(x.T * 2.0, axis=0)'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'loop: sort -> a f32[B*N] (fused: reshape)' <<<"$NPX_OUTPUT"
    grep -qF 'loop: multiply -> multiply f32[N, B] (temporary) (fused: transpose)' <<<"$NPX_OUTPUT"
    grep -qF 'loop: argsort -> b i64[N, B]' <<<"$NPX_OUTPUT"
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'npx_sort_f32(x, a, 1, B_N, 1);' "$BATS_TEST_TMPDIR/p.c"
}

@test "a boolean mask's operands are stored, and on CUDA the host reads its length: one sync, no graph" {
    program $'input x: f32[B, N]\noutput a\na = x[x[:, 0] > 0.5] * 2.0'
    explain "$BATS_TEST_TMPDIR/p.npx" -t cuda
    grep -qF 'kernel: compress -> selected f32[?nonzero, N] (temporary)' <<<"$NPX_OUTPUT"
    grep -qF 'sync: the host reads how many elements the mask selects to size selected' <<<"$NPX_OUTPUT"
    grep -qF 'keeps it from being a CUDA graph' <<<"$NPX_OUTPUT"
    grep -qF 'kernel: multiply -> a f32[?nonzero, N]' <<<"$NPX_OUTPUT"
}

@test "a boolean mask on a later axis (x[:, mask]) selects in place: no transposed copy of x" {
    program $'input x: f32[B, N]\noutput a\na = x[:, x[0] > 0.5]'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'loop: compress -> a f32[B, ?nonzero]' <<<"$NPX_OUTPUT"
    ! grep -q 'transpose' <<<"$NPX_OUTPUT"
}

@test "x[m] = 0 is one loop over x, x[np.arange(B), y] -= 1 one over the rows in x's own buffer, no temporaries" {
    program $'input x: f32[B, N]\ninput h: f32[B, N]\ninput y: i64[B]\noutput g\ng = x * 2.0\ng[h <= 0] = 0\ng[np.arange(B), y] -= 1.0'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'loop: where -> g_2 f32[B, N] (fused: less_equal)' <<<"$NPX_OUTPUT"
    grep -qF 'loop: setitem -> g_3 f32[B, N] (fused: subtract, take, arange)' <<<"$NPX_OUTPUT"
    grep -qF "writes only the f32[B] elements selected, in place in g's buffer" <<<"$NPX_OUTPUT"
    not grep -q 'temporary\|compress' <<<"$NPX_OUTPUT"
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'g_3[i0 * N + npx_take(st, 7, y[i0], N, 1)] = g_2[' "$BATS_TEST_TMPDIR/p.c"
    ! grep -qF 'int64_t *arange' "$BATS_TEST_TMPDIR/p.c"   # (no arange stored)
}

@test "x[p] = v writes in x's own buffer, each thread its block of x's rows in order; x[p] += v stores its new rows first" {
    program $'input x: f32[N, D]\ninput v: f32[K, D]\ninput p: i64[K]\noutput g\ng = x * 2.0\ng[p] = v\ng[p] += v'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qxF '    loop: setitem -> g_2 f32[N, D]' <<<"$NPX_OUTPUT"
    grep -qF "writes only the f32[K, D] elements selected, in place in g's buffer (nothing reads the old g after), in the positions' order" <<<"$NPX_OUTPUT"
    grep -qF 'loop: add -> add f32[K, D] (temporary) (fused: take)' <<<"$NPX_OUTPUT"
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'const int64_t mine = N * NPX_THREAD_NUM / NPX_NUM_THREADS, end = N * (NPX_THREAD_NUM + 1) / NPX_NUM_THREADS;' "$BATS_TEST_TMPDIR/p.c"
    grep -A1 -F 'const int64_t at = npx_take(st, 7, p_2[i0], N, 0);' "$BATS_TEST_TMPDIR/p.c" | grep -qF 'if (at < mine || at >= end)'
    grep -qF 'g_3[at * D + i1] = add[i0 * D + i1];' "$BATS_TEST_TMPDIR/p.c"
    # x[:, p] = v: in parallel over the rows, the positions in order in each
    program $'input x: f32[N, D]\ninput v: f32[N, K]\ninput p: i64[K]\noutput g\ng = x * 2.0\ng[:, p] = v'
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    grep -A2 -F 'for (int64_t i0 = 0; i0 < N; i0++) {' "$BATS_TEST_TMPDIR/p.c" | grep -qF 'for (int64_t i1 = 0; i1 < K; i1++) {'
    # on the device: a kernel marks each position's last element, a second writes only those
    npx_exec "npxc -t cuda" "$NPXC" -t cuda --explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF "a repeated position's last value (a kernel before marks which element that is)" <<<"$NPX_OUTPUT"
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    grep -qF 'atomicMax(&g_2_last[npx_take(st, 6, p_2[i1], D, 1)], (unsigned long long)(i1) + 1);' "$BATS_TEST_TMPDIR/p.cu"
    grep -qF 'if (g_2_last[npx_take(st, 6, p_2[i1], D, 1)] == (unsigned long long)(i1) + 1)' "$BATS_TEST_TMPDIR/p.cu"
}

@test "x[i, j] = v on the device: a kernel marks each (i, j) place's last element, a second writes them in parallel" {
    program $'input x: f32[N, M]\ninput v: f32[K]\ninput p: i64[K]\ninput q: i64[K]\noutput g\ng = x * 2.0\ng[p, q] = v'
    npx_exec "npxc -t cuda" "$NPXC" -t cuda --explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF "a repeated position's last value (a kernel before marks which element that is)" <<<"$NPX_OUTPUT"
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    grep -qF 'npx_dev_alloc(sizeof(unsigned long long) * N * M, true)' "$BATS_TEST_TMPDIR/p.cu"
    grep -qF 'atomicMax(&g_2_last[npx_take(st, 7, p_2[i0], N, 0) * M + npx_take(st, 7, q_2[i0], M, 1)], (unsigned long long)(i0) + 1);' "$BATS_TEST_TMPDIR/p.cu"
    grep -qF 'if (g_2_last[npx_take(st, 7, p_2[i0], N, 0) * M + npx_take(st, 7, q_2[i0], M, 1)] == (unsigned long long)(i0) + 1)' "$BATS_TEST_TMPDIR/p.cu"
    not grep -qF 'in order: where a position repeats' "$BATS_TEST_TMPDIR/p.cu"
    # the same value at every position (a mask's points): one kernel, no marks
    program $'input x: f32[N, M]\ninput v: f32[M]\ninput p: i64[K]\ninput q: i64[K]\noutput g, h\ng = x * 2.0\ng[p, q] = 1.0\nh = x * 3.0\nh[p] = v * 2.0'
    npx_exec "npxc -t cuda" "$NPXC" -t cuda --explain "$BATS_TEST_TMPDIR/p.npx"
    [ "$(grep -cF 'in any order (a repeated position gets the same value each time)' <<<"$NPX_OUTPUT")" -eq 2 ]
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    not grep -qF '_last' "$BATS_TEST_TMPDIR/p.cu"
    grep -qF 'h_2[npx_take(st, 9, p_2[i0], N, 0) * M + i1] = ' "$BATS_TEST_TMPDIR/p.cu"
}

@test "np.add.at is one loop in x's buffer with no temporary (C: blocks of rows per thread; CUDA: atomicAdd)" {
    program $'input E: f32[V, D]\ninput t: i64[K]\ninput g: f32[K, D]\noutput dE\ndE = np.zeros_like(E)\nnp.add.at(dE, t, g)'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF "in the positions' order, each value combined by add (a repeated position again)" <<<"$NPX_OUTPUT"
    not grep -q 'temporary' <<<"$NPX_OUTPUT"
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'dE_2[at * D + i1] += g[i0 * D + i1];' "$BATS_TEST_TMPDIR/p.c"
    npx_exec "npxc -t cuda" "$NPXC" -t cuda --explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'each value added by atomicAdd (a repeated position adds again; floats in any order)' <<<"$NPX_OUTPUT"
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    grep -qF 'atomicAdd(&dE_2[npx_take(st, 6, t[i0], V, 0) * D + i1], g[i0 * D + i1]);' "$BATS_TEST_TMPDIR/p.cu"
}

@test "np.maximum.at and np.minimum.at on the device: a thread an element, each combined by an atomic, not in order" {
    program $'input s: f32[K]\ninput t: i64[K]\ninput n: i32[K]\noutput hi, lo\nhi = np.zeros(8, dtype=np.float32)\nnp.maximum.at(hi, t, s)\nlo = np.zeros((8, 2), dtype=np.int32)\nnp.minimum.at(lo, t, n[:, None] - 5)'
    npx_exec "npxc -t cuda" "$NPXC" -t cuda --explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'each value combined by atomicMax (a repeated position again: the largest in any order)' <<<"$NPX_OUTPUT"
    grep -qF 'each value combined by atomicMin (a repeated position again: the smallest in any order)' <<<"$NPX_OUTPUT"
    not grep -qF "in the positions' order" <<<"$NPX_OUTPUT"
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    grep -qF 'npx_atomic_max(&hi_2_2[npx_take(st, 6, t[i0], 8, 0)], s[i0]);' "$BATS_TEST_TMPDIR/p.cu"
    grep -qF 'npx_atomic_min(&lo_2_2[npx_take(st, 8, t[i0], 8, 0) * 2 + i1], subtract[i0]);' "$BATS_TEST_TMPDIR/p.cu"
    not grep -qF 'in order: where a position repeats' "$BATS_TEST_TMPDIR/p.cu"
}

@test "h[t] = ... in a loop writes one row of h's own buffer per iteration: no copy of h, fused, freed once" {
    program $'input x: f32[T, B, D]\ninput W: f32[D, H]\ninput U: f32[H, H]\noutput h\nh = np.zeros((T, B, H), dtype=np.float32)\nfor t in range(1, T):\n    h[t] = np.tanh(x[t] @ W + h[t - 1] @ U)'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'loop: setitem -> h_3 f32[T, B, H] (fused: tanh, add)' <<<"$NPX_OUTPUT"
    grep -qF "writes only the f32[B, H] elements selected, in place in h's buffer" <<<"$NPX_OUTPUT"
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'h_3[t * B * H + i0 * H + i1] = tanhf(' "$BATS_TEST_TMPDIR/p.c"
    not grep -q 'h_3\[i\] = h_2\[i\]' "$BATS_TEST_TMPDIR/p.c"       # (no copy of h)
    ! grep -q 'npx_free(h_2)' "$BATS_TEST_TMPDIR/p.c"             # (the loop's end frees nothing)
}

@test "an update copies an input, and stores new elements that read the array elsewhere first" {
    program $'input x: f32[N]\noutput x, y\nx[0] = 1.0\ny = x * 2.0\ny[1:] = y[:-1]'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF "writes only the one element selected, into a copy of x (an input" <<<"$NPX_OUTPUT"
    grep -qF 'loop: index -> part_2 f32[N-1] (temporary)' <<<"$NPX_OUTPUT"
    grep -qF "writes only the f32[N-1] elements selected, in place in y's buffer" <<<"$NPX_OUTPUT"
}

@test "a take read in part is stored whole where its positions may be out of range, not where npxc made them (a roll's, a diagonal's)" {
    program $'input x: f32[N, M]\ninput s: f32[N, N]\ninput p: i64[K]\noutput d, g, e, f\nd = np.roll(x, 1, axis=0)[0]\ng = np.diagonal(s.T)[1:]\ne = x[p][0]\nf = x[N - 1][1:]'
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'loop: index -> d f32[M] (fused: take, remainder, subtract, arange)' <<<"$NPX_OUTPUT"
    grep -qF 'loop: take -> taken f32[K, M] (temporary)' <<<"$NPX_OUTPUT"
    [ "$(grep -c 'loop: take' <<<"$NPX_OUTPUT")" -eq 1 ]    # not d's, g's or f's (a position the host checks)
}

@test "a loop's temporaries are allocated once before it and freed after it, not in every iteration" {
    program $'input x: f64[T, S, N]\ninput A: f64[N, N]\noutput x\nfor t in range(1, T):\n    x[t] = x[t - 1] @ A + x[t - 1] @ A.T'
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    local c=$BATS_TEST_TMPDIR/p.c
    # the two products' buffers: allocated before the loop, freed after it, nothing in it
    sed -n '/line 4: for t/,/for (int64_t t = 1/p' "$c" | grep -qF 'double *dot = (double *)npx_alloc(npx_bytes(S * N'
    sed -n '/line 4: for t/,/for (int64_t t = 1/p' "$c" | grep -qF 'double *dot_2 = (double *)npx_alloc(npx_bytes(S * N'
    sed -n '/} \/\* for t \*\//,/} \/\* npx_run/p' "$c" | grep -qF 'npx_free(dot_2);'
    [ "$(sed -n '/for (int64_t t = 1/,/} \/\* for t \*\//p' "$c" | grep -c 'npx_alloc\|npx_free')" -eq 0 ]
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    [ "$(sed -n '/for (int64_t t = 1/,/} \/\* for t \*\//p' "$BATS_TEST_TMPDIR/p.cu" | grep -c 'npx_dev_alloc\|npx_dev_free')" -eq 0 ]
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'allocated once before the loop, for all its iterations: dot, dot_2' <<<"$NPX_OUTPUT"
}

@test "on CUDA a comparison of integers the host knows (np.histogram's N == 0) is computed where it is read, not by a kernel of its own" {
    program $'input x: f32[N]\noutput h, edges\nh, edges = np.histogram(x, bins=10)'
    run -0 "$NPXC" -t cuda -o - "$BATS_TEST_TMPDIR/p.npx"
    [[ "$output" == *"N == 0 ? 1.0f : acc"* ]]
    ! grep -qE '\[0\] = N == 0;' <<<"$output"
}

@test "Python ints computed from literals are numbers in the C (7 // 2 is 3; np.histogram's 11 - 1 is 10), and linspace's known count picks its formula" {
    run -0 "$NPXC" -t c -o - "$BATS_TEST_DIRNAME/programs/literal_folding.npx"
    [[ "$output" == *"npx_add_i32(n[i"*"], 3)"* ]]
    [[ "$output" == *"npx_mul_i32(n[i"*"], -8)"* ]]
    [[ "$output" != *"npx_py_int32(st"* && "$output" != *"npx_floordiv_i64(7, 2)"* ]]
    run -0 "$NPXC" -t c -o - "$BATS_TEST_DIRNAME/programs/histogram.npx"
    ! grep -qE 'npx_[a-z]+_i64\(-?[0-9]+, -?[0-9]+\)|true \?|false \?' <<<"$output"
    [[ "$output" == *"/ 10.0f;"* ]]
}

@test "a Python int power of literals folds by squaring: 1 ** 10**12 and 3 ** 39 are numbers at once, not 10**12 multiplications" {
    program $'const A = 1 ** 1000000000000\ninput x: f32[N]\noutput y\ny = x + A + (-1) ** 1000000000001 + 3 ** 39 + (-2) ** 63'
    run -0 timeout 20 "$NPXC" -t c -o - "$BATS_TEST_TMPDIR/p.npx"
    [[ "$output" == *"x[i"*"] + 1.0f + -1.0f + (float)INT64_C(4052555153018976267) + (float)INT64_MIN;"* ]]
}

@test "Python ints that may pass int64 are checked once, before the loop that reads them plain; those whose bounds npxc knows are not: N - 1, a counter minus 1, 3 * a short slice's length" {
    program $'input x: f32[N]\noutput y, z, w\ny = x * 0 + (N - 1) + N * 3 + 2 ** N\nz = x\nfor i in range(N // 2):\n    z = z + (i - 1) * (i * 2)\nw = x * (x[2:5].shape[0] * 3000000000000000000)'
    run -0 "$NPXC" -t c -o - "$BATS_TEST_TMPDIR/p.npx"
    [[ "$output" == *$'(void)npx_py_mul(st, 3, N, 3);\n    (void)npx_py_pow(st, 3, 2, N);\n'* ]]
    [[ "$output" == *"(float)npx_sub_i64(N, 1) + (float)npx_mul_i64(N, 3) + (float)npx_pow_checked_i64(st, 3, 2, N)"* ]]
    [[ "$output" == *"(void)npx_py_mul(st, 6, npx_sub_i64(i_2, 1), npx_py_mul(st, 6, i_2, 2));"* ]]
    [[ "$output" == *"z_2[i0] + (float)npx_mul_i64(npx_sub_i64(i_2, 1), npx_mul_i64(i_2, 2))"* ]]
    [[ "$output" != *"npx_py_sub(st, 3, N, 1)"* ]]
    [[ "$output" == *"x[i0] * (float)npx_mul_i64(N_2_5, INT64_C(3000000000000000000))"* ]]   # (x[2:5] holds 3 at most)
}

@test "integer maximum, minimum and clip are calls that name their operands once: a clip of an expression does not write it four times" {
    program $'input n: i32[N]\ninput x: f32[N]\noutput c\nc = np.clip((x * 10).astype(np.int32), 0, n)'
    run -0 "$NPXC" -t c -o - "$BATS_TEST_TMPDIR/p.npx"
    [[ "$output" == *"npx_minimum_i32(npx_maximum_i32(npx_f32_to_i32(x[i"*"] * 10.0f), 0), n[i"* ]]
    [ "$(grep -o 'npx_f32_to_i32(x\[' <<<"$output" | wc -l)" -eq 1 ]
}

@test "the square of an expression names it once (npx_square_f32(x - y * 2)); of an element it stays x * x" {
    program $'input x: f32[N]\ninput y: f32[N]\ninput k: i32[N]\noutput a, b\na = (x - y * 2) ** 2 + np.square(np.exp(x)) + x ** 2\nb = (k + 3) ** 2'
    run -0 "$NPXC" -t c -o - "$BATS_TEST_TMPDIR/p.npx"
    [[ "$output" == *"npx_square_f32(x[i"*"] - y[i"*"] * 2.0f) + npx_square_f32(expf(x[i"*"])) + x[i"*"] * x[i"*"];"* ]]
    [[ "$output" == *"npx_square_i32(npx_add_i32(k"*"[i"*"], 3));"* ]]
    [ "$(grep -c 'expf(x\[' <<<"$output")" -eq 1 ]
}

@test "a reduction kept as an axis (keepdims) and one in a row group compute their reader too: unit-length rows store the roots, not the sums" {
    program $'input x: f32[N, D]\noutput unit\nunit = x / np.sqrt((x ** 2).sum(axis=1, keepdims=True))'
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.cu"
    grep -qF 'sqrt_2[i0] = sqrtf((float)acc);' "$BATS_TEST_TMPDIR/p.c"
    grep -qF 'sqrt_2[i0] = sqrtf((float)acc);' "$BATS_TEST_TMPDIR/p.cu"       # the block that sums the row
    ! grep -qF '"sum"' "$BATS_TEST_TMPDIR/p.c"
    ! grep -qF '"sum"' "$BATS_TEST_TMPDIR/p.cu"
    explain "$BATS_TEST_TMPDIR/p.npx"
    grep -qF 'row by row' <<<"$NPX_OUTPUT"
    grep -qxF '    loop: sum -> sqrt_2 f32[N, 1] (temporary) (fused: square), then from each result: sqrt (the results themselves are not stored)' <<<"$NPX_OUTPUT"
}

@test "in a row group a value of one element a row (np.log(total) of a [B, 1] total) is one statement, not a loop of one" {
    run -0 "$NPXC" -t c -o - "$NPX_ROOT/samples/softmax.npx"
    [[ "$output" == *"            log_2[i0] = logf(total[i0]);"* ]]
    [[ "$output" != *"i1 < 1;"* ]]
    run -0 "$NPXC" -t cuda -o - "$NPX_ROOT/samples/softmax.npx"
    [[ "$output" == *$'if (threadIdx.x == 0)\n            log_2[i0] = logf(total[i0]);'* ]]
    [[ "$output" != *"i1 < 1;"* ]]
}
