#!/usr/bin/env bats
# Valid programs (test/programs/*.npx): each is compiled with npxc --exe, run
# on the inputs of its "# run:" line, and compared with NumPy evaluating the
# same statements (test/ref/npxref.py). See check_program in test_helper.bash.

load test_helper

@test "float arithmetic operators match NumPy, with inf and nan from division by zero" {
    check_program "$BATS_TEST_DIRNAME/programs/arith_float.npx"
}

@test "integer arithmetic matches NumPy, with floor division and modulo by zero and negative operands" {
    check_program "$BATS_TEST_DIRNAME/programs/arith_int.npx"
}

@test "the most negative integers wrap under // % - and abs as in NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/int_edge.npx"
}

@test "bitwise operators and shifts past the width match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/bitwise.npx"
}

@test "comparisons between mixed dtypes and with NaN match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/comparisons.npx"
}

@test "exponentials, logarithms and roots match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/math_exp_log.npx"
}

@test "trigonometric and hyperbolic functions match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/math_trig.npx"
}

@test "rounding and sign functions match NumPy, rint rounding halves to even" {
    check_program "$BATS_TEST_DIRNAME/programs/math_rounding.npx"
}

@test "two-argument math functions match NumPy with their dtype promotion" {
    check_program "$BATS_TEST_DIRNAME/programs/math_binary.npx"
}

@test "NaN propagates through max, min and argmax and is ignored by fmax and fmin" {
    check_program "$BATS_TEST_DIRNAME/programs/nan_reductions.npx"
}

@test "where, isnan, isinf, isfinite, the logical functions and clip match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/logic.npx"
}

@test "astype converts between all five dtypes as NumPy does, out-of-range floats included" {
    check_program "$BATS_TEST_DIRNAME/programs/astype.npx"
}

@test "arithmetic between Python literals is folded as Python folds it" {
    check_program "$BATS_TEST_DIRNAME/programs/literal_folding.npx"
}

@test "every pair of array dtypes promotes as NEP 50 says" {
    check_program "$BATS_TEST_DIRNAME/programs/promotion_arrays.npx"
}

@test "Python literals are weak scalars under NEP 50" {
    check_program "$BATS_TEST_DIRNAME/programs/promotion_literals.npx"
}

@test "0-d inputs and reduction results are strong scalars under NEP 50" {
    check_program "$BATS_TEST_DIRNAME/programs/promotion_scalars.npx"
}

@test "broadcasting a row, a column, size-1 axes and rank 3 against rank 1 matches NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/broadcasting.npx"
}

@test "sum, mean and prod over every axis form match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/reductions_sum_mean_prod.npx"
}

@test "max, min, argmax, argmin, any, all and ptp over every axis form match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/reductions_minmax.npx"
}

@test "float32 reductions over 100k elements stay within float32 tolerance of NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/reductions_large_f32.npx"
}

@test "float64 reductions over a 317x331 matrix match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/reductions_large_f64.npx"
}

@test "float32 reductions along each axis of a 317x331 matrix match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/reductions_large_2d_f32.npx"
}

@test "a whole array's any and all, which stop at the chunk that decides them, match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/any_all_decided.npx"
}

@test "reductions whose results are few or lie side by side (the GPU shares them out by blocks and warps) match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/reductions_grid.npx"
}

@test "integer and float powers match NumPy, overflow wrapping included" {
    check_program "$BATS_TEST_DIRNAME/programs/power.npx"
}

@test "dot, matmul and @ with 1-D and 2-D operands, dot with stacks of matrices, and outer, match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/linalg.npx"
}

@test "matrix products of mixed, integer and boolean arrays match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/linalg_dtypes.npx"
}

@test "matmul of stacks of matrices broadcasts the stacks and matches NumPy in every dtype" {
    check_program "$BATS_TEST_DIRNAME/programs/matmul_stacked.npx"
}

@test "einsum with explicit, implicit and '...' outputs matches NumPy in every dtype" {
    check_program "$BATS_TEST_DIRNAME/programs/einsum.npx"
}

@test "einsum with a subscript twice in one operand takes its diagonal, as NumPy does" {
    check_program "$BATS_TEST_DIRNAME/programs/einsum_diagonal.npx"
}

@test "indexing with integer arrays and np.take match NumPy, negative positions and 2-D index arrays included" {
    check_program "$BATS_TEST_DIRNAME/programs/take.npx"
}

@test "transposes in every spelling match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/transpose.npx"
}

@test "a transposed read runs in tiles (partial ones, 3-D, cancelled, a size-1 axis) and its reductions along the rows" {
    check_program "$BATS_TEST_DIRNAME/programs/transpose_tiles.npx"
}

@test "shape, ndim and size are weak Python ints in arithmetic" {
    check_program "$BATS_TEST_DIRNAME/programs/shape_attrs.npx"
}

@test "zeros, ones, full, the _like functions and arange match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/creation.npx"
}

@test "a const works in shapes and as a weak integer in expressions" {
    check_program "$BATS_TEST_DIRNAME/programs/const.npx"
}

@test "bincount with weights and minlength matches NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/bincount.npx"
}

@test "bincount's minlength may be a size (K, x.shape[1]): k-means' cluster counts match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/bincount_sized.npx"
}

@test "a stack of products of empty matrices has NumPy's shape (GCC 12 with AVX-512 stored it as 1s)" {
    check_program "$BATS_TEST_DIRNAME/programs/empty_slice_product.npx"
}

@test "a dot of integer, bool or mixed-dtype vectors is a reduction that matches NumPy (int32 wrapping, bools as any)" {
    check_program "$BATS_TEST_DIRNAME/programs/dot_vectors.npx"
}

@test "bincount's length comes from one large element wherever it lies (on the GPU: any lane of a warp)" {
    check_program "$BATS_TEST_DIRNAME/programs/bincount_largest.npx"
}

@test "x[index] = v and x[index] op= v (masks, integers, slices, '...', in a loop) match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/setitem.npx"
}

@test "x[m] = f(y[m], z[m]) with the statement's own mask matches NumPy: clipped outliers, leaky ReLU, rows by a value per column, op=, ints" {
    check_program "$BATS_TEST_DIRNAME/programs/setitem_mask_values.npx"
}

@test "np.add.reduce, maximum.reduce, logical_and.reduce, add.accumulate and f.outer match NumPy's dtypes and axes" {
    check_program "$BATS_TEST_DIRNAME/programs/ufunc_methods.npx"
}

@test "take_along_axis along rows, columns, a vector and the flattened array matches NumPy (sorted rows, argmax picks, broadcast positions)" {
    check_program "$BATS_TEST_DIRNAME/programs/take_along_axis.npx"
}

@test "x[positions] = v and x[positions] op= v through an integer array match NumPy, repeated positions included" {
    check_program "$BATS_TEST_DIRNAME/programs/setitem_positions.npx"
}

@test "x[i, j] = v and np.add.at(x, (i, j), v) through two arrays broadcast together match NumPy (a confusion matrix)" {
    check_program "$BATS_TEST_DIRNAME/programs/setitem_two_arrays.npx"
}

@test "np.add.at, subtract.at, multiply.at, maximum.at and minimum.at match NumPy: repeats combine again, cast as ufunc.at casts" {
    check_program "$BATS_TEST_DIRNAME/programs/ufunc_at.npx"
}

@test "element assignment computes only the selected box, in place when nothing reads the old array, as NumPy assigns" {
    check_program "$BATS_TEST_DIRNAME/programs/update.npx"
}

@test "median, quantile and percentile match NumPy: along axes, of integers, with NaN, odd and even lengths, a list of q's" {
    check_program "$BATS_TEST_DIRNAME/programs/quantiles.npx"
    check_program "$BATS_TEST_DIRNAME/programs/quantiles.npx" --random 4 --dim N=8 --dim D=1
}

@test "quantile's lower, higher, nearest and midpoint methods match NumPy, of odd and even lengths" {
    check_program "$BATS_TEST_DIRNAME/programs/quantile_methods.npx"
    check_program "$BATS_TEST_DIRNAME/programs/quantile_methods.npx" --random 2 --dim N=8 --dim R=2
}

@test "median, quantile and percentile over several axes at once match NumPy, keepdims and lists of q's too" {
    check_program "$BATS_TEST_DIRNAME/programs/quantile_axes.npx"
}

@test "quantile's Hyndman and Fan methods (inverted_cdf ... normal_unbiased) match NumPy, at the bounds and at whole positions" {
    check_program "$BATS_TEST_DIRNAME/programs/quantile_hyndman_fan.npx"
    check_program "$BATS_TEST_DIRNAME/programs/quantile_hyndman_fan.npx" --random 3 --dim N=5 --dim R=2
}

@test "linalg.norm's ord=: vector and matrix norms match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/norms.npx"
    check_program "$BATS_TEST_DIRNAME/programs/norms.npx" --random 5 --dim N=3 --dim D=1
}

@test "unique matches NumPy (NaNs as one or not, every dtype, empty), and sizes of selections nothing else reads" {
    check_program "$BATS_TEST_DIRNAME/programs/unique.npx"
    check_program "$BATS_TEST_DIRNAME/programs/unique.npx" --random 4 --dim N=1 --dim D=2
    check_program "$BATS_TEST_DIRNAME/programs/unique.npx" --random 4 --dim N=0 --dim D=2
}

@test "pad (constant mode) matches NumPy: widths per side and per axis, casts, empty axes" {
    check_program "$BATS_TEST_DIRNAME/programs/pad.npx"
    check_program "$BATS_TEST_DIRNAME/programs/pad.npx" --random 4 --dim B=1 --dim T=0 --dim C=1 --dim N=0 --dim M=0
}

@test "pad's edge, wrap, reflect and symmetric modes match NumPy; wider than a run's axis, or of an empty one, exit 3" {
    check_program "$BATS_TEST_DIRNAME/programs/pad_modes.npx"
    run -3 "$PROG" --random 4 --dim N=3 -o "$BATS_TEST_TMPDIR/narrow"
    [[ $output == *"pad_modes.npx:18: pad(): mode='symmetric' 4 wide along axis 0, more than the axis holds, is not supported yet"* ]]
    run -3 "$PROG" --random 4 --dim N=0 -o "$BATS_TEST_TMPDIR/empty"
    [[ $output == *"pad_modes.npx:15: can't extend empty axis 0 using modes other than 'constant' or 'empty'"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/empty/e.npy" ]
}

@test "cov and corrcoef match NumPy: rows or columns, y, bias and ddof, one variable, one observation" {
    check_program "$BATS_TEST_DIRNAME/programs/cov.npx"
    check_program "$BATS_TEST_DIRNAME/programs/cov.npx" --random 4 --dim N=1 --dim D=2
}

@test "nansum, nanprod, nanmean, nanmax, nanmin, nanvar and nanstd match NumPy, all-NaN slices too" {
    check_program "$BATS_TEST_DIRNAME/programs/nanfunctions.npx"
    check_program "$BATS_TEST_DIRNAME/programs/nanfunctions.npx" --random 8 --dim N=2 --dim D=1
}

@test "arcsinh, arccosh, arctanh, cbrt, fabs, deg2rad, rad2deg, signbit, heaviside and copysign match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/math_more.npx"
}

@test "rebinding names and every op= form match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/rebinding.npx"
}

@test "an input can also be an output" {
    check_program "$BATS_TEST_DIRNAME/programs/input_as_output.npx"
}

@test "float32 arithmetic rounds after every operation as in NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/f32_precision.npx"
}

@test "overflow to inf, inf arithmetic and underflow match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/inf_overflow.npx"
}

@test "arithmetic on booleans matches NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/bool_arith.npx"
}

@test "a reduction that computes its elementwise reader as each result is final matches NumPy (C, CUDA)" {
    check_program "$BATS_TEST_DIRNAME/programs/reduce_finish.npx"
    check_program "$BATS_TEST_DIRNAME/programs/reduce_finish.npx" --random 62 --dim N=1 --dim M=9
    check_program "$BATS_TEST_DIRNAME/programs/reduce_finish.npx" --random 63 --dim N=300 --dim M=7
}

@test "a reduction's reader computed as each result is final with keepdims and in a row group (unit rows, standardized rows) matches NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/reduce_finish_rows.npx"
    check_program "$BATS_TEST_DIRNAME/programs/reduce_finish_rows.npx" --random 72 --dim N=1 --dim D=9
    check_program "$BATS_TEST_DIRNAME/programs/reduce_finish_rows.npx" --random 73 --dim N=300 --dim D=2000
}

@test "reductions of a transpose's rows (a.T.var(axis=1)), once row groups', build with OpenMP and match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/rows_transposed.npx"
    check_program "$BATS_TEST_DIRNAME/programs/rows_transposed.npx" --random 72 --dim N=300 --dim M=200
}

@test "long expressions mixing broadcasting and keepdims reductions match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/fused_chain.npx"
}

@test "a program of 0-d values with scalars from the command line matches NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/scalars_only.npx"
}

@test "a matrix product times a Python number folds the factor into the product and matches NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/matmul_scaled.npx"
}

@test "every file in test/programs has a test here" {
    local f name
    for f in "$BATS_TEST_DIRNAME"/programs/*.npx; do
        name=$(basename "$f" .npx)
        grep -q "/programs/$name.npx\"" "$BATS_TEST_FILENAME" || {
            echo "test/programs/$name.npx has no test in $BATS_TEST_FILENAME" >&2
            return 1
        }
    done
}

@test "statements over the same rows run row by row in one loop and match NumPy, with and without --trace" {
    check_program "$BATS_TEST_DIRNAME/programs/row_groups.npx"
}

@test "blocked matrix products match NumPy across block edges, with transposes, factors and float64" {
    check_program "$BATS_TEST_DIRNAME/programs/gemm_blocks.npx"
}

@test "float32 sums down the columns, along the rows and of all are as accurate as NumPy's or within a rounding of the result" {
    printf 'input x: f32[R, C]\ninput y: f32[N]\noutput cols, rows, total, means\ncols = x.sum(axis=0)\nrows = x.sum(axis=1)\ntotal = y.sum()\nmeans = x.mean(axis=0)\n' \
        >"$BATS_TEST_TMPDIR/sums.npx"
    build_program "$BATS_TEST_TMPDIR/sums.npx"
    npx_exec "the program" "$PROG" --random 5 --dim R=20000 --dim C=40 --dim N=3000000 -o "$BATS_TEST_TMPDIR/out"
    npx_exec "the program, its inputs traced" "$PROG" --random 5 --dim R=20000 --dim C=40 --dim N=3000000 --trace "$BATS_TEST_TMPDIR/in"
    # NumPy's float32 column sum adds a row at a time: about 4e-6 off here
    "$PYTHON" - "$BATS_TEST_TMPDIR" <<'PY'
import sys, numpy as np
d = sys.argv[1]
x, y = np.load(d + "/in/x.npy"), np.load(d + "/in/y.npy")
x64, y64 = x.astype(np.float64), y.astype(np.float64)
for name, numpy_value, exact in [("cols", x.sum(axis=0), x64.sum(axis=0)), ("rows", x.sum(axis=1), x64.sum(axis=1)),
                                 ("total", y.sum(), y64.sum()), ("means", x.mean(axis=0), x64.mean(axis=0))]:
    ours = np.load("%s/out/%s.npy" % (d, name)).astype(np.float64)
    err, numpy_err = (np.max(np.abs(v - exact) / np.abs(exact)) for v in (ours, numpy_value.astype(np.float64)))
    assert err <= max(numpy_err, 2.0 ** -23), (name, err, numpy_err)
PY
}

@test "small matrix products (row by row, blocked on one thread, shared) match NumPy, also in a time loop" {
    check_program "$BATS_TEST_DIRNAME/programs/gemm_small.npx"
}

@test "the portable matrix product loops (compilers without vector types) match NumPy too" {
    CFLAGS="${CFLAGS:-} -DNPX_PLAIN_GEMM" check_program "$BATS_TEST_DIRNAME/programs/gemm_blocks.npx"
}

@test "the blocked matrix products with AVX registers only (no AVX-512) match NumPy too" {
    CFLAGS="${CFLAGS:-} -mno-avx512f" check_program "$BATS_TEST_DIRNAME/programs/gemm_blocks.npx"
}

@test "matrix products reading one block of an array in place (x[t], x[2:5], a window, s[1, 0]) match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/gemm_views.npx"
}

@test "a row group whose rows do not fit in shared memory beside its reductions matches NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/row_groups_wide.npx"
}

@test "argmax and argmin over many ties and NaNs take the first, as NumPy does" {
    check_program "$BATS_TEST_DIRNAME/programs/arg_ties.npx"
}

@test "argmax and argmin in vectorized chunks: ties, NaNs, rising runs, bools, views and row groups as NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/arg_chunks.npx"
}

@test "loops on both sides of the parallel threshold match NumPy, built as they are, all in parallel, and none" {
    local others=() word
    for word in ${CFLAGS:-}; do      # (the sanitizer round sets its own threshold)
        [[ $word == -DNPX_PARALLEL_MIN=* ]] || others+=("$word")
    done
    CFLAGS="${others[*]}" check_program "$BATS_TEST_DIRNAME/programs/parallel_threshold.npx"
    CFLAGS="${others[*]} -DNPX_PARALLEL_MIN=0" check_program "$BATS_TEST_DIRNAME/programs/parallel_threshold.npx"
    CFLAGS="${others[*]} -DNPX_PARALLEL_MIN=INT64_MAX" check_program "$BATS_TEST_DIRNAME/programs/parallel_threshold.npx"
}

@test "results of 4 MiB and more, stored a strip at a time with streaming stores, match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/streamed_stores.npx"
}

@test "var and std match NumPy on every axis form, with ddof and keepdims, for floats, integers and bools" {
    check_program "$BATS_TEST_DIRNAME/programs/var_std.npx"
}

@test "eye, linspace, logspace and geomspace match NumPy, exact ends, negative ranges, integer dtypes, run-time ends" {
    check_program "$BATS_TEST_DIRNAME/programs/creation_more.npx"
}

@test "swapaxes, moveaxis, expand_dims, broadcast_to and atleast_1d/2d/3d read their arrays as NumPy's views do" {
    check_program "$BATS_TEST_DIRNAME/programs/shape_views.npx"
}

@test "indexing and slicing match NumPy: integers, every slice form, None, ..., squeeze, slices of size symbols" {
    check_program "$BATS_TEST_DIRNAME/programs/indexing.npx"
}

@test "reshape, ravel and flatten match NumPy in C order, with -1 inferred from size symbols" {
    check_program "$BATS_TEST_DIRNAME/programs/reshape.npx"
}

@test "concatenate and stack match NumPy along every axis, axis=None, mixed dtypes and symbolic lengths" {
    check_program "$BATS_TEST_DIRNAME/programs/concatenate.npx"
}

@test "concatenate along an axis whose length the data gives (masked arrays, a bincount, pad of them) matches NumPy, also empty and in a loop" {
    local sizes
    for sizes in "--random 3 --dim K=7 --dim B=6" "--random 4 --dim K=0 --dim B=0" "--random 5 --dim K=1 --dim B=1"; do
        # shellcheck disable=SC2086  # sizes is a list of options
        check_program "$BATS_TEST_DIRNAME/programs/concatenate_counted.npx" $sizes
    done
}

@test "cumsum and cumprod match NumPy's running sums and products in order and dtype, along each axis and flattened" {
    check_program "$BATS_TEST_DIRNAME/programs/cumsum.npx"
}

@test "running sums and products along lanes long enough to split among blocks on the GPU match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/cumsum_long.npx"
}

@test "comparisons and maximum with known answers (out-of-range Python ints, an array with itself) fold to NumPy's answers" {
    check_program "$BATS_TEST_DIRNAME/programs/known_comparisons.npx"
}

@test "a fused chain of 700 operations is one C expression of any length, as NumPy adds it" {
    # past the 4096 characters at which the C expression used to be cut (and
    # within what Python's own parser, the oracle's, can nest)
    "$PYTHON" -c "print('# run: --random 9 --dim N=70'); print('input a: f32[N]'); print('output y');
print('y = ' + ' + '.join(['a'] * 600) + ' - ' + ' * '.join(['a'] * 100))" >"$BATS_TEST_TMPDIR/chain.npx"
    check_program "$BATS_TEST_TMPDIR/chain.npx"
}

@test "names that C, C++, libm or the runtime use (npx_x, _Bool, NAN, expf, int64_t) are renamed in C only" {
    check_program "$BATS_TEST_DIRNAME/programs/c_names.npx"
}

@test "for loops: a training loop, carried names, the counter as a number and an index, nested and empty loops" {
    check_program "$BATS_TEST_DIRNAME/programs/loops.npx"
}

@test "a loop's temporaries, one buffer each for all its iterations: products, counts zeroed again, nested loops" {
    check_program "$BATS_TEST_DIRNAME/programs/loop_buffers.npx"
}

@test "a slice of a slice that holds at most one element keeps its size or is empty: a loop carries x[-1:][::-2]" {
    check_program "$BATS_TEST_DIRNAME/programs/slice_sizes.npx"
}

@test "a name carried by an outer loop and an inner one: the inner loop takes the buffer over, changes it in place, and matches NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/loops_nested_carry.npx"
    check_program "$BATS_TEST_DIRNAME/programs/loops_nested_carry.npx" --random 6 --dim V=5 --dim P=2 --dim Q=0
    run -0 "$NPXC" --explain "$BATS_TEST_DIRNAME/programs/loops_nested_carry.npx"
    [[ $output != *"copied once before the loop"* ]]       # each of the six carries takes its buffer over
    [ "$(grep -c "carried: .*its buffer before the loop taken over" <<<"$output")" -eq 6 ]
}

@test "minibatches: epochs over x.reshape(NB, BS, V)[b], the weights carried through nested loops" {
    check_program "$BATS_TEST_DIRNAME/programs/loops_minibatch.npx"
}

@test "sort and argsort along any axis or flattened, every dtype, NaN last, ties in order, empty lanes" {
    check_program "$BATS_TEST_DIRNAME/programs/sort.npx"
    check_program "$BATS_TEST_DIRNAME/programs/sort.npx" --random 4 --dim B=3 --dim N=2100
}

@test "one long lane's sort, split between threads, matches NumPy: keys alone, NaN, -0.0, ties in order, every dtype" {
    # three threads: slices of unequal lengths
    OMP_NUM_THREADS=3 check_program "$BATS_TEST_DIRNAME/programs/sort_long.npx"
}

@test "sort of integers spanning few values (counted, not radix-sorted) matches NumPy: one lane by the threads, rows, columns, unique's labels" {
    # three threads: histograms and output slices of unequal lengths
    OMP_NUM_THREADS=3 check_program "$BATS_TEST_DIRNAME/programs/sort_counted.npx"
}

@test "sort without AVX-512 (AVX2's network where the machine has it) matches NumPy too" {
    CFLAGS="${CFLAGS:-} -mno-avx512f" check_program "$BATS_TEST_DIRNAME/programs/sort.npx"
}

@test "sort without AVX2 (radix sort only) matches NumPy too" {
    CFLAGS="${CFLAGS:-} -mno-avx2" check_program "$BATS_TEST_DIRNAME/programs/sort.npx"
}

@test "boolean masks select elements or rows in order, every dtype, empty results, masked arrays used after; argwhere" {
    check_program "$BATS_TEST_DIRNAME/programs/mask.npx"
}

@test "a boolean mask beside slices, integers, '...' and None: its axis where NumPy puts it" {
    check_program "$BATS_TEST_DIRNAME/programs/mask_beside.npx"
}

@test "slices that move with a loop's counter: minibatches, sliding windows, two counters, read after the loop" {
    check_program "$BATS_TEST_DIRNAME/programs/loops_windows.npx"
}

@test "dtype= of sum, prod, mean and cumsum: converted, then summed in that dtype as NumPy does" {
    check_program "$BATS_TEST_DIRNAME/programs/reduce_dtype.npx"
}

@test "copy, len and the scalar types np.float32(v) ... np.bool_(v) compute as NumPy does" {
    check_program "$BATS_TEST_DIRNAME/programs/copy_len_scalars.npx"
}

@test "flip, flipud, fliplr, diff, hstack, vstack and column_stack compute as NumPy does" {
    check_program "$BATS_TEST_DIRNAME/programs/flip_diff_stack.npx"
}

@test "isclose, allclose, round, nan_to_num, linalg.norm and logaddexp compute as NumPy does" {
    check_program "$BATS_TEST_DIRNAME/programs/numeric_fns.npx"
}

@test "tril, triu, tile, repeat and roll compute as NumPy does" {
    check_program "$BATS_TEST_DIRNAME/programs/tri_tile_repeat_roll.npx"
}

@test "reductions over slices of a few elements at most (x[:, 2:5], x[:, -3:], x[:, 3::-1]) match NumPy, the axis shorter or longer" {
    check_program "$BATS_TEST_DIRNAME/programs/short_slices.npx"
    check_program "$BATS_TEST_DIRNAME/programs/short_slices.npx" --random 4 --dim N=3 --dim M=1
    check_program "$BATS_TEST_DIRNAME/programs/short_slices.npx" --random 5 --dim N=300 --dim M=2
    run -0 "$NPXC" -t cuda --explain "$BATS_TEST_DIRNAME/programs/short_slices.npx"
    [ "$(grep -c 'a thread per result' <<<"$output")" -eq 5 ]
    [ "$(grep -c 'a block per result' <<<"$output")" -eq 2 ]
}

@test "diagonal, diag and trace: offsets, vectors on a diagonal, sum's dtype" {
    check_program "$BATS_TEST_DIRNAME/programs/diagonals.npx"
    check_program "$BATS_TEST_DIRNAME/programs/diagonals.npx" --random 3 --dim N=1 --dim M=2
    check_program "$BATS_TEST_DIRNAME/programs/diagonals.npx" --random 4 --dim N=2 --dim M=0
}

@test "diagonals of a matrix of two size symbols are min(N,M) long (min(N,M-2) off the main one), computed when the program starts" {
    check_program "$BATS_TEST_DIRNAME/programs/diagonals_rectangular.npx"
    check_program "$BATS_TEST_DIRNAME/programs/diagonals_rectangular.npx" --random 6 --dim N=3 --dim M=7
    check_program "$BATS_TEST_DIRNAME/programs/diagonals_rectangular.npx" --random 7 --dim N=0 --dim M=4
    check_program "$BATS_TEST_DIRNAME/programs/diagonals_rectangular.npx" --random 8 --dim N=1 --dim M=1
    check_program "$BATS_TEST_DIRNAME/programs/diagonals_rectangular.npx" --random 9 --dim N=2 --dim M=0
}

@test "diag(v, k) puts a vector on the k-th diagonal of a matrix len(v) + |k| wide, in v's dtype: a tridiagonal operator" {
    check_program "$BATS_TEST_DIRNAME/programs/tridiagonal.npx"
    check_program "$BATS_TEST_DIRNAME/programs/tridiagonal.npx" --random 3 --dim N=1
    check_program "$BATS_TEST_DIRNAME/programs/tridiagonal.npx" --random 4 --dim N=2
}

@test "clip with one bound or none, identity, sinc, trapezoid, select, average, polyval, inner and vdot match NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/formulas.npx"
}

@test "searchsorted and interp match NumPy: sides, ties, NaN, sorter, values outside, repeated points" {
    check_program "$BATS_TEST_DIRNAME/programs/search.npx"
}

@test "np.array and np.asarray of lists, nested lists and arrays match NumPy, with NumPy's dtype for each list" {
    check_program "$BATS_TEST_DIRNAME/programs/array_literals.npx"
}

@test "--exe builds C whatever -o's extension says: prog gives prog.out, prog.cc gives prog" {
    local d=$BATS_TEST_TMPDIR
    npx_exec "npxc --exe -o prog" "$NPXC" --exe "$NPX_ROOT/bench/arith.npx" -o "$d/prog"
    npx_exec "npxc --exe -o p2.cc" "$NPXC" --exe "$NPX_ROOT/bench/arith.npx" -o "$d/p2.cc"
    grep -qF "/* line 19: y = (a * 2.0 + b) * c - a / (b + 1.0) */" "$d/prog"     # the C source
    npx_exec "prog.out" "$d/prog.out" --random 1 --dim N=5 -o "$d/one"
    npx_exec "p2" "$d/p2" --random 1 --dim N=5 -o "$d/two"
    run -0 "$NPXCMP" "$d/one/y.npy" "$d/two/y.npy"
}

@test "cross of 3-vectors matches NumPy: broadcast leading axes, integers, mixed dtypes" {
    check_program "$BATS_TEST_DIRNAME/programs/cross.npx"
}

@test "average with weights matches NumPy: along axes in any order, keepdims, integer data, mixed dtypes" {
    check_program "$BATS_TEST_DIRNAME/programs/average_weights.npx"
}

@test "kron matches NumPy: aligned axes of different counts, symbolic sizes, integers, booleans, numbers" {
    check_program "$BATS_TEST_DIRNAME/programs/kron.npx"
}

@test "tensordot matches NumPy: default, int and paired axes, transposes, outer products, 0-d results, inner of N-D" {
    check_program "$BATS_TEST_DIRNAME/programs/tensordot.npx"
}

@test "unpacking matches Python and NumPy: tuples, a swap, shapes, rows, in a loop, a name twice" {
    check_program "$BATS_TEST_DIRNAME/programs/unpack.npx"
}

@test "functions that return several arrays match NumPy: divmod, meshgrid, nonzero, average, unravel_index, modf, frexp" {
    check_program "$BATS_TEST_DIRNAME/programs/unpack_functions.npx"
}

@test "histogram matches NumPy over the data's own range: floats, integers, bools, all values equal" {
    check_program "$BATS_TEST_DIRNAME/programs/histogram.npx"
}

@test "histogram over a range given matches NumPy: values outside and NaN dropped, values on the edges" {
    check_program "$BATS_TEST_DIRNAME/programs/histogram_range.npx"
}

@test "histogram with weights and density matches NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/histogram_weights.npx"
}

@test "histogram of empty data, of masked data empty when the program runs, and of equal range ends matches NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/histogram_empty.npx"
}

@test "histogram with its bin edges given matches NumPy: repeated edges, NaN and values outside, integer edges, weights" {
    check_program "$BATS_TEST_DIRNAME/programs/histogram_edges.npx"
}

@test "arrays of one constant in another dtype are C constants (0, 0.0f); NaN, inf and out-of-range fills keep NumPy's cast" {
    check_program "$BATS_TEST_DIRNAME/programs/constant_fills.npx"
    run -0 "$NPXC" -t c -o - "$BATS_TEST_DIRNAME/programs/constant_fills.npx"
    [[ "$output" == *"zi[i0] = 0;"* ]]
    [[ "$output" == *"hf[i0] = -1.5f;"* ]]
    [[ "$output" == *"nanfill[i0] = npx_f64_to_i32((double)NAN);"* ]]
    [[ "$output" != *"(float)0.0"* && "$output" != *"npx_f64_to_i32(0.0)"* ]]
}

@test "integers, slices, positions and squeeze index an axis whose length only the data gives (a mask's, a bincount's), also in a loop" {
    check_program "$BATS_TEST_DIRNAME/programs/data_axis.npx"
}

@test "reshape, ravel and unique of arrays whose length only the data gives match NumPy, also in a loop" {
    check_program "$BATS_TEST_DIRNAME/programs/reshape_counted.npx"
}

@test "sigma clipping with a carried mask (the note's advice for a loop that shortens an array) matches NumPy" {
    check_program "$BATS_TEST_DIRNAME/programs/sigma_clip.npx"
}

@test "reductions computed once and read again (var after mean, a sum written twice, in a loop's body) match NumPy, also after a loop that runs no times" {
    check_program "$BATS_TEST_DIRNAME/programs/reused_reductions.npx"
    check_program "$BATS_TEST_DIRNAME/programs/reused_reductions.npx" --random 4 --dim R=6 --dim C=33 --dim K=0
}
