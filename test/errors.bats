#!/usr/bin/env bats
# Bad programs (test/errors/*.npx): npxc must exit 1 with each diagnostic of
# the file's "# expect: LINE:COL: error: TEXT" lines, a caret line, and no
# output file. See check_diagnostic in test_helper.bash.

load test_helper

@test "a name that is never bound is reported where it is used" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/undefined_name.npx"
}

@test "operands of literal sizes that cannot broadcast are a compile-time error" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/broadcast_mismatch.npx"
}

@test "a broadcasting mismatch inside a function call is reported at the call" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/broadcast_mismatch_call.npx"
}

@test "matrix products with different inner sizes are rejected, and a dot with too many axes to pair" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/matmul_mismatch.npx"
}

@test "a reduction axis outside the array is rejected" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/axis_out_of_range.npx"
}

@test "an output that is never bound is rejected" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/output_unbound.npx"
}

@test "an input declared twice is rejected" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/input_twice.npx"
}

@test "op= that would change the dtype is rejected as NumPy rejects the cast" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/inplace_cast.npx"
}

@test "and, or and not are rejected with a hint to use & | and ~" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/and_or_not.npx"
}

@test "an integer array to a negative literal power is rejected" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/int_pow_negative.npx"
}

@test "negative and non-integer sizes are rejected" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/bad_dims.npx"
}

@test "a const that is not an integer is rejected" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/bad_const.npx"
}

@test "an unknown function is reported by name" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/unknown_function.npx"
}

@test "a NumPy function called as a method arrays do not have is reported by name" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/not_a_method.npx"
}

@test "an unknown dtype is reported by name, and x.dtype where a value goes or of a Python number" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/unknown_dtype.npx"
}

@test "a keyword argument the function does not take is rejected" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/wrong_keyword.npx"
}

@test "einsum's subscripts are checked as NumPy checks them, each mistake at its character" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/einsum.npx"
}

@test "index arrays that are not integers, take along an axis that is not there or in a mode NumPy lacks, are located" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/take.npx"
}

@test "a string anywhere but as einsum's subscripts is reported" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/strings.npx"
}

@test "later-milestone features are reported as not supported yet" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/not_supported_yet.npx"
}

@test "syntax errors on several lines are all reported" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/syntax_errors.npx"
}

@test "a bracket that is never closed is reported" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/unclosed_bracket.npx"
}

@test "three independent errors are all reported, not only the first" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/multiple_errors.npx"
}

@test "a Python integer too large for the array's dtype is rejected" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/literal_out_of_bounds.npx"
}

@test "subtraction and negation of booleans are rejected" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/bool_minus.npx"
}

@test "bitwise operators on floats are rejected" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/bitwise_float.npx"
}

@test "chained comparisons are rejected" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/chained_comparison.npx"
}

@test "every file in test/errors has a test here" {
    local f name
    for f in "$BATS_TEST_DIRNAME"/errors/*.npx; do
        name=$(basename "$f" .npx)
        grep -q "/errors/$name.npx\"" "$BATS_TEST_FILENAME" || {
            echo "test/errors/$name.npx has no test in $BATS_TEST_FILENAME" >&2
            return 1
        }
    done
}

@test "max, min, argmax and argmin over a literal empty axis are NumPy's errors at compile time" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/empty_reduction.npx"
}

@test "mistakes with swapaxes, broadcast_to, expand_dims, eye, cumsum, moveaxis and geomspace are located" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/shape_functions.npx"
}

@test "indexing mistakes are located: out of bounds, too many indices, two ellipses, a zero step" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/indexing.npx"
}

@test "bincount's minlength: negative, a float, an array or a loop's counter is located" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/bincount.npx"
}

@test "x[index] = v mistakes are located with NumPy's words: broadcasting, bounds, casts, a scalar's elements" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/setitem.npx"
}

@test "np.add.at mistakes are located: values that do not fit, float positions, a position past the axis" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/ufunc_at.npx"
}

@test "np.add.at written wrong: not a name, three arguments, another ufunc's at, a bare expression" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/ufunc_at_syntax.npx"
}

@test "median, quantile and percentile mistakes are located with NumPy's words" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/quantiles.npx"
}

@test "linalg.norm's ord= mistakes are located with NumPy's words" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/norms.npx"
}

@test "pad mistakes are located: a negative width, too many pairs, a pair of three" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/pad.npx"
}

@test "cov and corrcoef of more than two axes are NumPy's errors" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/cov.npx"
}

@test "reshape mistakes are located with NumPy's words: sizes that differ, two -1, a Python number" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/reshape.npx"
}

@test "concatenate and stack mistakes are located with NumPy's words" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/concatenate.npx"
}

@test "integer constants that overflow, divisions by zero and arrays too big are located errors, not crashes" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/constants.npx"
}

@test "a long source line is shown around its caret, so that each of 2000 errors stays short and aligned" {
    "$PYTHON" -c "print('output y'); print('y = ' + ' + '.join(['a'] * 2000))" >"$BATS_TEST_TMPDIR/long.npx"
    run -1 "$NPXC" "$BATS_TEST_TMPDIR/long.npx" -o "$BATS_TEST_TMPDIR/long.c"
    [ "$(grep -c "error: name 'a' is not defined" <<<"$output")" -eq 2000 ]
    # every echoed line is at most the window and '...' on each side; the caret is under an 'a'
    printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/long.err"
    "$PYTHON" - "$BATS_TEST_TMPDIR/long.err" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
for i, l in enumerate(lines):
    if "^" in l and "error:" not in l:
        src = lines[i - 1]
        assert len(src) <= 166, len(src)
        assert src[l.index("^")] == "a", (src, l)
PY
}

@test "a chain of 20000 operations is a located error, not a stack overflow" {
    "$PYTHON" -c "print('input a: f32[3]'); print('output y'); print('y = ' + ' + '.join(['a'] * 20000))" \
        >"$BATS_TEST_TMPDIR/deep.npx"
    run -1 "$NPXC" "$BATS_TEST_TMPDIR/deep.npx" -o "$BATS_TEST_TMPDIR/deep.c"
    [[ $output == *"deep.npx:3:5: error: expression is nested too deeply (more than 2000 operations inside one another)"* ]]
}

@test "the errors of one line print left to right, syntax and semantic alike" {
    printf 'input x: f32[3]\noutput y, z\ny = not not not x\nz = x[1, 2, 3] + undefined_name + np.swapaxes(x, 0, 5)\n' \
        >"$BATS_TEST_TMPDIR/order.npx"
    run -1 "$NPXC" "$BATS_TEST_TMPDIR/order.npx" -o "$BATS_TEST_TMPDIR/order.c"
    [ "$(grep -o 'order.npx:3:[0-9]*' <<<"$output" | tr '\n' ' ')" = "order.npx:3:5 order.npx:3:9 order.npx:3:13 " ]
    printf 'input x: f32[3]\noutput z\nz = x[1, 2, 3] + undefined_name + np.swapaxes(x, 0, 5)\n' >"$BATS_TEST_TMPDIR/order2.npx"
    run -1 "$NPXC" "$BATS_TEST_TMPDIR/order2.npx" -o "$BATS_TEST_TMPDIR/order2.c"
    [ "$(grep -o 'order2.npx:3:[0-9]*' <<<"$output" | tr '\n' ' ')" = "order2.npx:3:5 order2.npx:3:18 order2.npx:3:53 " ]
}

@test "loops over anything but a range, and carried names that change dtype or shape, are located" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/loops.npx"
}

@test "a loop that shortens a carried array by a mask (sigma clipping) is refused with a note that shows the mask to carry" {
    printf 'input x: f32[N]\noutput r\nr = x\nfor i in range(3):\n    r = r[np.abs(r - r.mean()) < 2 * r.std()]\n' \
        >"$BATS_TEST_TMPDIR/clip.npx"
    run -1 "$NPXC" "$BATS_TEST_TMPDIR/clip.npx" -o "$BATS_TEST_TMPDIR/clip.c"
    [[ $output == *"clip.npx:5:5: error: 'r' must keep its dtype and shape from one iteration to the next: it is f32[N] before the loop and f32[?nonzero] after this statement"* ]]
    [[ $output == *"clip.npx:4:1: note: a length the data decide that changes in a loop is not supported yet; carry a boolean mask instead ('keep = keep & (...)' in the loop)"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/clip.c" ]
}

@test "indentation outside a loop's body is rejected as Python rejects it" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/indentation.npx"
}

@test "sort's axis, kind and order are checked as NumPy checks them; x.sort() in place is refused" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/sort.npx"
}

@test "a boolean mask that does not fit its array is NumPy's IndexError, located" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/mask.npx"
}

@test "len of a 0-d value and a Python int out of int32's range are rejected" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/len_scalar_types.npx"
}

@test "np.where with a Python int its other operand's int32 cannot hold is OverflowError, as in the ufuncs (not NumPy's unchecked cast)" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/where_python_int.npx"
}

@test "flip, diff and the stacking functions reject axes, orders and shapes as NumPy does" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/arrange.npx"
}

@test "linalg.norm over three axes, and round and logaddexp of bools, are rejected" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/numeric.npx"
}

@test "tril of a 0-d value, negative copies and a roll axis out of range are rejected" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/tri_tile_repeat_roll.npx"
}

@test "diagonals of what has none are NumPy's errors, located" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/diagonals.npx"
}

@test "ufunc methods npxc lacks or NumPy refuses (exp.outer, subtract.reduce, add.foo, accumulate over all axes) are reported" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/ufunc_methods.npx"
}

@test "clip, select, trapezoid, cross and average's weights written wrong are located errors, with NumPy's words" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/formulas.npx"
}

@test "searchsorted and interp written wrong are located errors, with NumPy's words" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/search.npx"
}

@test "np.array of lists whose elements differ in shape is a located error, where they differ" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/array_literals.npx"
}

@test "tensordot's axes written wrong are NumPy's errors, each at the axis or the call" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/tensordot.npx"
}

@test "an unpacking into the wrong number of names, of a number, or of divmod as one value is located" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/unpack.npx"
}

@test "histogram's bad bins, ranges and weights, and digitize's bins not 1-D, are located in NumPy's words" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/histogram.npx"
}

@test "a program whose first statement fails, the names it binds read after it, is one error, not a crash" {
    check_diagnostic "$BATS_TEST_DIRNAME/errors/failed_first_statement.npx"
}

@test "any of the first statements of every program, broken four ways, with or without its inputs, is a located error" {
    run "$PYTHON" "$BATS_TEST_DIRNAME/errors/break_statements.py" "$NPXC" "$NPX_ROOT" "$BATS_TEST_TMPDIR"
    echo "$output" | tail -n 40
    [ "$status" -eq 0 ]
}
