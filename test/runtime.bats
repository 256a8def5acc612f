#!/usr/bin/env bats
# runtime.bats: the runtime of generated programs (runtime/), tools/embed and
# npxcmp. Most tests drive test/runtime/handmade.c, a hand-written stand-in
# for a generated program (x: f32[B, 3], n: i64[B], s: f64 -> y, n), built as
# npxc builds one: the embedded runtime text, then the program. Test programs
# are compiled with $CFLAGS (the suite is rerun with sanitizers).

npxcmp_from_env=${NPXCMP:-}
load test_helper
NPXCMP=${npxcmp_from_env:-$NPXCMP}     # $NPXCMP when set, else $NPX_BUILD/npxcmp
ROOT=$NPX_ROOT
RT="$ROOT/test/runtime"

# The runtime's files in the order they are embedded (as the Makefile has it).
rt_files() {
    echo "$ROOT/runtime/npx_rt.h" "$ROOT/runtime/npx_math.h"
    printf '%s\n' "$ROOT"/runtime/*.c | LC_ALL=C sort
}

strict_cc() {
    # shellcheck disable=SC2086  # CFLAGS is a list of flags
    "${CC:-cc}" -std=c11 -Wall -Wextra -Werror $CFLAGS "$@"
}

setup_file() {
    local d="$BATS_FILE_TMPDIR"
    strict_cc "$ROOT/tools/embed.c" -o "$d/embed"
    # shellcheck disable=SC2046
    "$d/embed" --raw $(rt_files) "$RT/handmade.c" > "$d/handmade_full.c"
    strict_cc "$d/handmade_full.c" -o "$d/handmade" -lm
    strict_cc -I"$ROOT/runtime" "$RT/npy_tool.c" "$ROOT"/runtime/*.c -o "$d/npy_tool" -lm
    strict_cc -I"$ROOT/runtime" "$RT/unit.c" "$ROOT"/runtime/*.c -o "$d/unit" -lm
    strict_cc -I"$ROOT/runtime" "$RT/math_check.c" -o "$d/math_check" -lm
    mkdir -p "$d/bad"
    "$PYTHON" "$RT/bad_npy.py" "$d/bad"
}

setup() {
    cd "$BATS_TEST_TMPDIR" || exit 1
    HM="$BATS_FILE_TMPDIR/handmade"
}

# x: f32[2, 3] = 0..5, n: i64[2] = [1, 0], s = 2.5 as a 0-d file.
good_inputs() {
    "$PYTHON" -c "
import numpy as np
np.save('x.npy', np.arange(6, dtype=np.float32).reshape(2, 3))
np.save('n.npy', np.array([1, 0], dtype=np.int64))
np.save('s.npy', np.array(2.5))"
}

# bad_x FILE MESSAGE: input x from bad_npy.py's FILE fails with MESSAGE.
bad_x() {
    good_inputs
    cp "$BATS_FILE_TMPDIR/bad/$1" .
    run -2 "$HM" x="$1" n=n.npy s=1
    [ "$output" = "handmade: error: x: $1: $2" ]
    [ ! -e y.npy ]
}

# ---- building ---------------------------------------------------------------

@test "the runtime compiles warning-free as one C file, with and without OpenMP" {
    [ -z "${NPX_SAN:-}" ] || skip "warning builds are skipped in the sanitizer round"
    strict_cc -O2 "$BATS_FILE_TMPDIR/handmade_full.c" -o hm_o2 -lm
    strict_cc -O2 -fopenmp "$BATS_FILE_TMPDIR/handmade_full.c" -o hm_omp -lm
}

@test "the runtime compiles warning-free as C++ and gives the same outputs" {
    # shellcheck disable=SC2086
    g++ -std=c++17 -x c++ -Wall -Wextra -Werror $CFLAGS "$BATS_FILE_TMPDIR/handmade_full.c" -o hm_cpp
    good_inputs
    run -0 ./hm_cpp x=x.npy n=n.npy s=2.5 -o cpp
    run -0 "$HM" x=x.npy n=n.npy s=2.5 -o c
    cmp cpp/y.npy c/y.npy
    cmp cpp/n.npy c/n.npy
}

@test "the runtime compiles warning-free with clang, as C and C++" {
    [ -z "${NPX_SAN:-}" ] || skip "warning builds are skipped in the sanitizer round"
    command -v clang > /dev/null || skip "no clang"
    clang -std=c11 -Wall -Wextra -Werror -O2 "$BATS_FILE_TMPDIR/handmade_full.c" -o hm_clang -lm
    clang++ -std=c++17 -x c++ -Wall -Wextra -Werror "$BATS_FILE_TMPDIR/handmade_full.c" -o hm_clangxx
}

@test "each runtime file compiles warning-free on its own" {
    [ -z "${NPX_SAN:-}" ] || skip "warning builds are skipped in the sanitizer round"
    for f in "$ROOT"/runtime/*.c; do
        strict_cc -D_POSIX_C_SOURCE=200809L -I"$ROOT" -c "$f" -o file.o
    done
}

@test "npx_math.h is warning-free when unused, in C and C++" {
    printf '#include "npx_math.h"\nint main(void) { return 0; }\n' > m.c
    strict_cc -I"$ROOT/runtime" m.c -o m
    g++ -std=c++17 -x c++ -Wall -Wextra -Werror -I"$ROOT/runtime" m.c -o m
}

@test "embed writes the runtime text as a char array that compiles under -pedantic" {
    # shellcheck disable=SC2046
    "$BATS_FILE_TMPDIR/embed" $(rt_files) > rt_embed.c
    "$BATS_FILE_TMPDIR/embed" --raw $(rt_files) > raw.txt
    cat > check.c <<'EOF'
#include <stdio.h>
#include <string.h>
#include "codegen/runtime_text.h"
int main(void)
{
    if (strlen(npx_runtime_text) != npx_runtime_len)
        return 1;
    fwrite(npx_runtime_text, 1, npx_runtime_len, stdout);
    return 0;
}
EOF
    strict_cc -pedantic -I"$ROOT" rt_embed.c check.c -o check
    ./check > text.txt
    cmp text.txt raw.txt
    grep -q "^/\* ---- $ROOT/runtime/npx_rt.h ---- \*/\$" text.txt
    grep -q "^/\* ---- $ROOT/runtime/npx_math.h ---- \*/\$" text.txt
    run -1 grep -E '#include "npx_(rt|math).h"' text.txt
}

# ---- running ----------------------------------------------------------------

@test "a run reads files and a number and writes every output" {
    good_inputs
    run -0 "$HM" x=x.npy n=n.npy s=2.5
    [ "$output" = "" ]
    "$PYTHON" -c "
import numpy as np
y, n = np.load('y.npy'), np.load('n.npy')
assert y.dtype == np.float64 and n.dtype == np.int64, (y.dtype, n.dtype)
assert np.array_equal(y, np.arange(6, dtype=np.float32).reshape(2, 3) * 2.5 + 1)
assert np.array_equal(n, [1, 0])"
}

@test "a scalar input may be a 0-d .npy file" {
    good_inputs
    run -0 "$HM" x=x.npy n=n.npy s=s.npy -o out
    "$PYTHON" -c "
import numpy as np
assert np.load('out/y.npy')[1, 2] == 5 * 2.5 + 1"
}

@test "-o creates the output directory" {
    good_inputs
    run -0 "$HM" x=x.npy n=n.npy s=1 -o a/b/c
    [ -f a/b/c/y.npy ] && [ -f a/b/c/n.npy ]
}

@test "outputs are renamed into place and leave no temporary file" {
    good_inputs
    run -0 "$HM" x=x.npy n=n.npy s=1 -o out
    [ "$(ls out)" = "$(printf 'n.npy\ny.npy')" ]
}

@test "--print prints each output like NumPy's repr" {
    good_inputs
    run -0 "$HM" x=x.npy n=n.npy s=2.5 -o out --print
    [ "${lines[0]}" = "y = array([[ 1. ,  3.5,  6. ]," ]
    [ "${lines[1]}" = "       [ 8.5, 11. , 13.5]])" ]
    [ "${lines[2]}" = "n = array([1, 0])" ]
    [ "${#lines[@]}" -eq 3 ]
}

@test "--help lists the inputs and outputs and exits 0" {
    run -0 "$HM" --help
    [[ "$output" == *"x: f32[B, 3]"* ]]
    [[ "$output" == *"n: i64[B]"* ]]
    [[ "$output" == *"s: f64"* ]]
    [[ "$output" == *"outputs: y, n"* ]]
}

# ---- bad arguments ----------------------------------------------------------

@test "missing inputs are all named" {
    good_inputs
    run -2 "$HM" x=x.npy
    [ "$output" = "handmade: error: missing inputs n, s (give NAME=FILE.npy for each, or --random SEED)" ]
}

@test "an unknown input name is an error" {
    run -2 "$HM" z=z.npy
    [ "$output" = "handmade: error: handmade.npx has no input named z (see --help)" ]
}

@test "an unknown option is an error" {
    run -2 "$HM" --frobnicate
    [ "$output" = "handmade: error: unknown option '--frobnicate' (see --help)" ]
}

@test "an argument that is neither an option nor NAME=VALUE is an error" {
    run -2 "$HM" x.npy
    [ "$output" = "handmade: error: unexpected argument 'x.npy' (give inputs as NAME=FILE.npy; see --help)" ]
}

@test "an input given twice is an error" {
    run -2 "$HM" x=a.npy x=b.npy
    [ "$output" = "handmade: error: input x is given twice (x=a.npy and x=b.npy)" ]
}

@test "an option without its value is an error" {
    run -2 "$HM" --random
    [ "$output" = "handmade: error: --random needs a value (see --help)" ]
}

@test "--random needs a non-negative integer seed" {
    run -2 "$HM" --random -1
    [ "$output" = "handmade: error: --random: '-1' is not a seed (an integer from 0 to 2^64-1)" ]
    run -2 "$HM" --random 18446744073709551616
    [[ "$output" == *"is not a seed"* ]]
}

@test "--dim names an existing symbol and a size" {
    run -2 "$HM" --dim Q=3
    [ "$output" = "handmade: error: --dim Q=3: handmade.npx has no size symbol named Q" ]
    run -2 "$HM" --dim B=-3
    [ "$output" = "handmade: error: --dim B=-3: '-3' is not a size (a non-negative integer)" ]
    run -2 "$HM" --dim B
    [ "$output" = "handmade: error: --dim B: expected SYM=N, e.g. --dim B=10" ]
    run -2 "$HM" --dim =3
    [ "$output" = "handmade: error: --dim =3: expected SYM=N, e.g. --dim B=10" ]
}

@test "--bench needs a positive count, at most 1000000000" {
    run -2 "$HM" --bench 0
    [ "$output" = "handmade: error: --bench: '0' is not a number of runs (an integer from 1 to 1000000000)" ]
    run -2 "$HM" --bench 99999999999
    [[ "$output" == *"'99999999999' is not a number of runs (an integer from 1 to 1000000000)"* ]]
    run -2 "$HM" --bench x
    [[ "$output" == *"'x' is not a number of runs"* ]]
}

@test "a missing file names the input and the file" {
    good_inputs
    run -2 "$HM" x=nope.npy n=n.npy s=1
    [ "$output" = "handmade: error: x: nope.npy: cannot open: No such file or directory" ]
}

@test "a directory given as a file is an error" {
    good_inputs
    mkdir d.npy
    run -2 "$HM" x=d.npy n=n.npy s=1
    [ "$output" = "handmade: error: x: d.npy: cannot read: Is a directory" ]
}

@test "an array input given a number is pointed to a .npy file" {
    good_inputs
    run -2 "$HM" x=5 n=n.npy s=1
    [ "$output" = "handmade: error: x: 5 is a number, but x is an array, f32[B, 3]; give a .npy file" ]
}

@test "a scalar given as a number must parse as its dtype" {
    good_inputs
    run -2 "$HM" x=x.npy n=n.npy s=abc
    [ "$output" = "handmade: error: s: 'abc' is not a number (s is a scalar f64)" ]
    run -2 "$HM" x=x.npy n=n.npy s=1e999
    [ "$output" = "handmade: error: s: '1e999' is out of range for f64 (s is a scalar f64)" ]
    run -2 "$HM" x=x.npy n=n.npy s=2.5x
    [ "$output" = "handmade: error: s: '2.5x' is not a number (s is a scalar f64)" ]
}

@test "a file of another dtype is rejected, never cast" {
    good_inputs
    cp "$BATS_FILE_TMPDIR/bad/x64.npy" .
    run -2 "$HM" x=x64.npy n=n.npy s=1
    [ "$output" = "handmade: error: x: x64.npy holds float64 data, but x is declared f32" ]
}

@test "a file of another rank is rejected" {
    good_inputs
    "$PYTHON" -c "import numpy as np; np.save('x1.npy', np.zeros(6, np.float32))"
    run -2 "$HM" x=x1.npy n=n.npy s=1
    [ "$output" = "handmade: error: x: x1.npy has shape (6,) (1 dimension), but x is declared f32[B, 3] (2 dimensions)" ]
    "$PYTHON" -c "import numpy as np; np.save('s1.npy', np.zeros(1))"
    run -2 "$HM" x=x.npy n=n.npy s=s1.npy
    [ "$output" = "handmade: error: s: s1.npy has shape (1,) (1 dimension), but s is declared f64 (0 dimensions)" ]
}

@test "a literal size must match" {
    good_inputs
    "$PYTHON" -c "import numpy as np; np.save('x4.npy', np.zeros((2, 4), np.float32))"
    run -2 "$HM" x=x4.npy n=n.npy s=1
    [ "$output" = "handmade: error: x: x4.npy has shape (2, 4), but x is declared f32[B, 3]: axis 1 must be 3" ]
}

@test "two inputs that disagree on a size symbol are named with their files" {
    good_inputs
    "$PYTHON" -c "import numpy as np; np.save('n3.npy', np.zeros(3, np.int64))"
    run -2 "$HM" x=x.npy n=n3.npy s=1
    [ "$output" = "handmade: error: size symbol B is 2 from x (x.npy) but 3 from n (n3.npy)" ]
}

@test "--dim binds a symbol that files must agree with" {
    good_inputs
    run -2 "$HM" x=x.npy n=n.npy s=1 --dim B=4
    [ "$output" = "handmade: error: size symbol B is 4 from --dim B=4 but 2 from x (x.npy)" ]
    run -0 "$HM" x=x.npy n=n.npy s=1 --dim B=2
}

# ---- malformed and unsupported .npy files -----------------------------------

@test "an empty file is not a .npy file" {
    bad_x empty.npy "not a .npy file (the file is empty)"
}

@test "a file with a bad magic string is not a .npy file" {
    bad_x bad_magic.npy 'not a .npy file (it does not start with the magic string \x93NUMPY)'
}

@test "an unsupported format version is rejected" {
    bad_x version4.npy "unsupported .npy format version 4.0 (this program reads 1.0, 2.0 and 3.0)"
}

@test "a file ending inside the preamble is a truncated header" {
    bad_x trunc_version.npy "truncated header: the file ends inside the format version"
}

@test "a truncated header is rejected" {
    bad_x trunc_header.npy "truncated header: expected 118 header bytes, found 30"
}

@test "a header that is not a dict is rejected" {
    bad_x not_dict.npy "the header is not a valid dict (it does not start with '{')"
    bad_x junk_after.npy "the header is not a valid dict (text after the closing '}')"
}

@test "a header without descr, fortran_order or shape is rejected" {
    bad_x no_descr.npy "the header has no 'descr' key"
    bad_x no_fortran.npy "the header has no 'fortran_order' key"
    bad_x no_shape.npy "the header has no 'shape' key"
}

@test "a header with an extra key is rejected" {
    bad_x extra_key.npy "the header has an unexpected key 'x' (a .npy header holds exactly 'descr', 'fortran_order' and 'shape')"
}

@test "invalid descr, fortran_order and shape values are rejected" {
    bad_x bad_descr.npy "'descr' is not a valid dtype descriptor"
    bad_x bad_fortran.npy "'fortran_order' is not True or False"
    bad_x bad_shape.npy "'shape' is not a tuple of integers"
    bad_x int_shape.npy "'shape' is not a tuple of integers"
}

@test "Fortran-order data is rejected" {
    bad_x fortran.npy "the data is in Fortran order (fortran_order: True); save a C-ordered array (np.ascontiguousarray)"
    bad_x x_fortran.npy "the data is in Fortran order (fortran_order: True); save a C-ordered array (np.ascontiguousarray)"
}

@test "big-endian data is rejected" {
    bad_x big_endian.npy "big-endian data ('>f4'); convert it with a.astype('<f4')"
}

@test "unsupported dtypes are named" {
    local tail="supported: bool, int32, int64, float32, float64"
    bad_x complex.npy "unsupported dtype complex128 ('<c16'); $tail"
    bad_x uint8.npy "unsupported dtype uint8 ('|u1'); $tail"
    bad_x float16.npy "unsupported dtype float16 ('<f2'); $tail"
    bad_x structured.npy "unsupported dtype: a structured dtype (fields); $tail"
    bad_x huge_itemsize.npy "unsupported dtype '<f999999999' ('<f999999999'); $tail"
}

@test "a rank above the limit is rejected" {
    bad_x rank9.npy "rank 9 is above the limit of 8 dimensions"
}

@test "a negative dimension is rejected" {
    bad_x negative.npy "negative dimension -2 in shape (-2, 3)"
}

@test "a shape whose size overflows is rejected" {
    bad_x overflow.npy "shape (4611686018427387904, 3) of float32 is too large: its size in bytes overflows"
}

@test "truncated data is rejected with both sizes" {
    bad_x trunc_data.npy "truncated data: expected 24 bytes of data, found 10"
}

@test "trailing data, versions 2.0 and 3.0 and double quotes are accepted" {
    good_inputs
    cp "$BATS_FILE_TMPDIR"/bad/{trailing,v2,v3,double_quotes}.npy .
    for f in trailing v2 v3 double_quotes; do
        run -0 "$HM" x=$f.npy n=n.npy s=1 -o "out_$f"
        cmp out_trailing/y.npy "out_$f/y.npy"
    done
}

# ---- --random ---------------------------------------------------------------

@test "--random fills every input with the documented generator" {
    run -0 "$HM" --random 12345678901234567890 --dim B=5 --trace tr -o out
    "$PYTHON" "$RT/random_ref.py" 12345678901234567890 0 f32 5,3 want_x.npy
    "$PYTHON" "$RT/random_ref.py" 12345678901234567890 1 i64 5 want_n.npy
    "$PYTHON" "$RT/random_ref.py" 12345678901234567890 2 f64 "" want_s.npy
    cmp tr/x.npy want_x.npy
    cmp tr/n.npy want_n.npy
    cmp tr/s.npy want_s.npy
}

@test "--random fills only the inputs not given, sized from the files" {
    good_inputs
    run -0 "$HM" x=x.npy --random 7 --trace tr
    "$PYTHON" "$RT/random_ref.py" 7 1 i64 2 want_n.npy
    cmp tr/n.npy want_n.npy
    cmp tr/x.npy x.npy
}

@test "--random with an unbound size symbol suggests --dim" {
    run -2 "$HM" --random 1
    [ "$output" = "handmade: error: x: cannot make random data for f32[B, 3]: no input gives the size B; give --dim B=N" ]
}

@test "--random with a size that overflows is an error" {
    run -2 "$HM" --random 1 --dim B=4611686018427387904
    [ "$output" = "handmade: error: x: random f32[B, 3] of shape (4611686018427387904, 3) is too large: its size in bytes overflows" ]
}

# ---- --bench, --trace -------------------------------------------------------

@test "--bench 3 prints exactly one line in the documented format" {
    run -0 --separate-stderr "$HM" --random 1 --dim B=100 --bench 3 -o out
    [ "${#lines[@]}" -eq 1 ]
    [[ "$output" =~ ^npx-bench:\ runs=3\ min_s=[0-9.e+-]+\ median_s=[0-9.e+-]+$ ]]
    [ -f out/y.npy ] && [ -f out/n.npy ]
}

@test "--bench reuses a freed big output: the memory a run holds does not grow with the number of runs" {
    peak_kb() {   # the largest resident set of one run of the program, in KB
        "$PYTHON" -c "
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)" "$HM" "$@"
    }
    # y is f64[1M, 3], 24 MB: glibc handed some runs new pages for it, which
    # the kernel had to zero (60 runs peaked at 190 MB against 100 MB for 2).
    local two sixty
    two=$(peak_kb --random 1 --dim B=1000000 --bench 2 -o out)
    sixty=$(peak_kb --random 1 --dim B=1000000 --bench 60 -o out)
    echo "peak: $two KB for 2 runs, $sixty KB for 60"
    [ "$sixty" -lt $((two + 24 * 1024 * 2)) ]
}

@test "--bench and --print cannot be combined" {
    run -2 "$HM" --random 1 --dim B=2 --bench 3 --print
    [ "$output" = "handmade: error: --print and --bench cannot be combined (--bench prints only its line)" ]
}

@test "--trace writes every named value and trace.txt in statement order" {
    good_inputs
    run -0 "$HM" x=x.npy n=n.npy s=2.5 --trace tr/deep -o out
    [ "$(cat tr/deep/trace.txt)" = "$(printf '%s\t%s\t%s\n' \
        x.npy 1 'input x: f32[B, 3]' n.npy 2 'input n: i64[B]' s.npy 3 'input s: f64' \
        y.npy 5 'y = x * s' y.2.npy 6 'y = y + 1' c.npy 7 'c = np.bincount(n)')" ]
    "$PYTHON" -c "
import numpy as np
d = 'tr/deep/'
assert np.array_equal(np.load(d + 'y.npy'), np.arange(6.0).reshape(2, 3) * 2.5)
assert np.array_equal(np.load(d + 'y.2.npy'), np.arange(6.0).reshape(2, 3) * 2.5 + 1)
assert np.array_equal(np.load(d + 'c.npy'), [1, 1])
assert np.load(d + 's.npy').shape == ()"
    [ "$(ls tr/deep | grep -c tmp)" = 0 ]
}

# ---- failures during and after the run ---------------------------------------

@test "a run-time error exits 3 with the source line and writes no output" {
    "$PYTHON" -c "
import numpy as np
np.save('x.npy', np.zeros((3, 3), np.float32))
np.save('n.npy', np.array([2, -1, 0]))"
    run -3 "$HM" x=x.npy n=n.npy s=1 -o out
    [ "$output" = "handmade: error: handmade.npx:7: bincount: n holds the negative value -1 at index 1" ]
    [ ! -e out ]
}

@test "an output that cannot be written exits 2 and leaves no file" {
    good_inputs
    mkdir -p out/y.npy
    touch out/y.npy/keep
    run -2 "$HM" x=x.npy n=n.npy s=1 -o out
    [[ "$output" == "handmade: error: output y: cannot create out/y.npy.tmp: "* ]] ||
        [[ "$output" == "handmade: error: output y: cannot rename out/y.npy.tmp to out/y.npy: "* ]]
    [ "$(ls out)" = "y.npy" ]
}

@test "an output directory that cannot be created exits 2" {
    good_inputs
    touch file
    run -2 "$HM" x=x.npy n=n.npy s=1 -o file/sub
    [ "$output" = "handmade: error: -o file/sub: file exists and is not a directory" ]
}

@test "a failed write of a later output leaves no earlier output behind" {
    good_inputs
    mkdir -p out/n.npy.tmp/full
    run -2 "$HM" x=x.npy n=n.npy s=1 -o out
    [[ "$output" == "handmade: error: output n: cannot create out/n.npy.tmp: "* ]]
    [ "$(ls out)" = "n.npy.tmp" ]
}

# ---- .npy I/O, numbers, npx_math.h -------------------------------------------

@test "npy files round-trip byte for byte with numpy.save, and print like repr" {
    run -0 "$PYTHON" "$RT/npy_check.py" "$BATS_FILE_TMPDIR/npy_tool" .
}

@test "scalar parsing, size checks, the generator and strip stores pass their unit checks" {
    run -0 "$BATS_FILE_TMPDIR/unit"
}

@test "npx_math.h matches NumPy on edge values" {
    "$BATS_FILE_TMPDIR/math_check" > cases.txt
    run -0 "$PYTHON" "$RT/math_check.py" < cases.txt
}

@test "npx_math.h matches NumPy when compiled as C++ with optimization" {
    # shellcheck disable=SC2086
    g++ -std=c++17 -x c++ -O2 -Wall -Wextra -Werror $CFLAGS -I"$ROOT/runtime" "$RT/math_check.c" -o mc
    ./mc > cases.txt
    run -0 "$PYTHON" "$RT/math_check.py" < cases.txt
}

# ---- npxcmp -----------------------------------------------------------------

# cmp_pair A_EXPR B_EXPR: a.npy and b.npy from two NumPy expressions.
cmp_pair() {
    "$PYTHON" -c "
import numpy as np
nan, inf = np.nan, np.inf
np.save('a.npy', $1)
np.save('b.npy', $2)"
}

@test "npxcmp: equal files match" {
    cmp_pair "np.arange(6.0).reshape(2, 3)" "np.arange(6.0).reshape(2, 3)"
    run -0 "$NPXCMP" a.npy b.npy
    [ "$output" = "a.npy: ok: max abs err 0, max rel err 0" ]
}

@test "npxcmp: float32 values within the default tolerance match" {
    cmp_pair "np.float32([1, 2, 3])" "np.float32([1, 2, 3.00001])"
    run -0 "$NPXCMP" a.npy b.npy
    [ "$output" = "a.npy: ok: max abs err 1e-05, max rel err 3.34e-06" ]
}

@test "npxcmp: a value outside the tolerance fails with its index" {
    cmp_pair "np.float32([[1, 2, 3], [4, 5, 6]])" "np.float32([[1, 2, 3], [4, 5, 6.5]])"
    run -1 "$NPXCMP" a.npy b.npy
    [ "$output" = "a.npy: FAIL: max abs err 0.5, max rel err 0.0769; 1 of 6 elements differ (rtol 1e-05, atol 1e-06); first failing index (1, 2): 6 in A, 6.5 in B" ]
}

@test "npxcmp: float64 defaults are tighter, and --rtol/--atol override them" {
    cmp_pair "np.float64([1.0])" "np.float64([1.0 + 1e-9])"
    run -1 "$NPXCMP" a.npy b.npy
    run -0 "$NPXCMP" a.npy b.npy --rtol 1e-8
    run -0 "$NPXCMP" a.npy b.npy --rtol 0 --atol 1e-8
    run -2 "$NPXCMP" a.npy b.npy --rtol x
    [ "$output" = "npxcmp: error: --rtol needs a non-negative number, not x" ]
}

@test "npxcmp: NaN equals NaN and infinities equal only with the same sign" {
    cmp_pair "np.array([nan, inf, -inf, 1.0])" "np.array([nan, inf, -inf, 1.0])"
    run -0 "$NPXCMP" a.npy b.npy
    cmp_pair "np.array([nan, inf])" "np.array([nan, -inf])"
    run -1 "$NPXCMP" a.npy b.npy
    [[ "$output" == *"first failing index (1,): inf in A, -inf in B" ]]
    cmp_pair "np.array([nan])" "np.array([1.0])"
    run -1 "$NPXCMP" a.npy b.npy
}

@test "npxcmp: integers and bools must be equal" {
    cmp_pair "np.array([1, 2, 3])" "np.array([1, 2, 4])"
    run -1 "$NPXCMP" a.npy b.npy
    [[ "$output" == *"first failing index (2,): 3 in A, 4 in B" ]]
    cmp_pair "np.array([True, False])" "np.array([True, True])"
    run -1 "$NPXCMP" a.npy b.npy --atol 1
    [[ "$output" == *"first failing index (1,): False in A, True in B" ]]
}

@test "npxcmp: a dtype or shape mismatch fails" {
    cmp_pair "np.zeros(3, np.float32)" "np.zeros(3)"
    run -1 "$NPXCMP" a.npy b.npy
    [ "$output" = "a.npy: FAIL: dtype differs: float32 in A, float64 in B" ]
    cmp_pair "np.zeros((2, 3))" "np.zeros((3, 2))"
    run -1 "$NPXCMP" a.npy b.npy
    [ "$output" = "a.npy: FAIL: shape differs: (2, 3) in A, (3, 2) in B" ]
}

@test "npxcmp: usage errors and unreadable files exit 2" {
    run -2 "$NPXCMP"
    run -2 "$NPXCMP" a.npy
    run -2 "$NPXCMP" --frob a b
    printf 'junk' > j.npy
    cmp_pair "np.zeros(2)" "np.zeros(2)"
    run -2 "$NPXCMP" j.npy a.npy
    [ "$output" = "npxcmp: error: j.npy: not a .npy file (it does not start with the magic string \\x93NUMPY)" ]
    mkdir d
    run -2 "$NPXCMP" d a.npy
    run -2 "$NPXCMP" missing.npy a.npy
}

@test "npxcmp: directories compare every file, and a missing one fails" {
    good_inputs
    "$HM" x=x.npy n=n.npy s=2 -o A
    "$HM" x=x.npy n=n.npy s=2 -o B
    run -0 "$NPXCMP" A B
    [ "${lines[2]}" = "ok: 0 of 2 files differ" ]
    rm B/n.npy
    run -1 "$NPXCMP" A B
    [ "${lines[0]}" = "n.npy: FAIL: missing in B (B)" ]
    run -1 "$NPXCMP" B A
    [ "${lines[1]}" = "n.npy: FAIL: missing in A (B)" ]
    [ "${lines[2]}" = "FAIL: 1 of 2 files differ" ]
}

@test "npxcmp: trace directories name the first source line that differs" {
    good_inputs
    "$HM" x=x.npy n=n.npy s=2 --trace A -o outA
    "$HM" x=x.npy n=n.npy s=2 --trace B -o outB
    run -0 "$NPXCMP" A B
    "$PYTHON" -c "
import numpy as np
np.save('B/y.2.npy', np.load('B/y.2.npy') + 1)
np.save('B/c.npy', np.array([5, 5]))"
    run -1 "$NPXCMP" A B
    [ "${lines[0]}" = "x.npy: ok: max abs err 0, max rel err 0" ]
    [ "${lines[4]%%:*}" = "y.2.npy" ]
    [ "${lines[6]}" = "first difference at y = y + 1 (line 6): y" ]
    [ "${lines[7]}" = "FAIL: 2 of 6 files differ" ]
}
