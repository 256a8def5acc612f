# test_helper.bash: what every .bats file of the suite shares. Load it at the
# top of the file (outside any function):
#
#   load test_helper
#
# Environment:
#   NPX_BUILD  the build folder holding npxc and npxcmp (default: build/ beside test/)
#   CC         C compiler for the warning checks (npxc --exe reads it too; default cc)
#   CFLAGS     passed through to `npxc --exe`, which appends it when it builds the
#              generated C (the sanitizer round puts -fsanitize=address,undefined here)
#   NPX_SAN    set in the sanitizer round: the extra warning builds are skipped
#   PYTHON     a Python 3 with NumPy 2 for the reference runner (default python3)
#   NPX_TIMEOUT  seconds any one step (compile, run, compare) may take (default 120)
#
# Every test has its own scratch folder, $BATS_TEST_TMPDIR (bats-core makes a
# fresh one per test and removes it afterwards); the helpers write only there.
#
# Helpers:
#   check_program FILE.npx [RUN ARGS...]   compile, run, compare with NumPy
#   check_diagnostic FILE.npx              a bad program gives its # expect: errors
#   check_cuda FILE.npx [RUN ARGS...]      (from check_program) the CUDA target, emulated
#   build_program FILE.npx                 compile with --exe; sets PROG (the binary)
#                                          and fails if the build warns (-Wall -Wextra)
#   npy_write FILE.npy PYEXPR              write np.asarray(PYEXPR) (np is NumPy)
#   npy_check FILE.npy PYEXPR              fail unless PYEXPR holds, `a` being the array
#   npx_directive FILE KEY                 the text after the first "# KEY:" line
#   npx_exec DESC CMD...                   run CMD; on failure show it and its output

bats_require_minimum_version 1.5.0

NPX_ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
NPX_BUILD=${NPX_BUILD:-$NPX_ROOT/build}
case $NPX_BUILD in /*) ;; *) NPX_BUILD=$PWD/$NPX_BUILD ;; esac
NPXC=$NPX_BUILD/npxc
NPXCMP=$NPX_BUILD/npxcmp
NPXREF=$NPX_ROOT/test/ref/npxref.py
PYTHON=${PYTHON:-python3}
export CFLAGS

# npx_limit CMD...: CMD, killed after NPX_TIMEOUT seconds (exit 124) when
# coreutils' timeout is there.
npx_limit() {
    if command -v timeout >/dev/null 2>&1; then
        timeout -k 10 "${NPX_TIMEOUT:-120}" "$@"
    else
        "$@"
    fi
}

# not CMD...: succeeds when CMD fails. Write it where `! CMD` would go: bash's
# errexit ignores a negated command, so `! CMD` fails a test only on its last
# line, and anywhere else could never fail.
not() {
    ! "$@"
}

# npx_exec DESC CMD...: run CMD with stdout and stderr captured, for at most
# NPX_TIMEOUT seconds (default 120); when it fails, print DESC, the command
# line and everything it printed, and return 1. On success its output is left
# in NPX_OUTPUT.
npx_exec() {
    local desc=$1 status=0
    shift
    NPX_OUTPUT=$(npx_limit "$@" 2>&1) || status=$?
    if ((status != 0)); then
        {
            if ((status == 124 || status == 137)); then
                printf '%s timed out or was killed (NPX_TIMEOUT is %s s):\n ' "$desc" "${NPX_TIMEOUT:-120}"
            else
                printf '%s failed (exit %d):\n ' "$desc" "$status"
            fi
            printf ' %q' "$@"
            printf '\n%s\n' "$NPX_OUTPUT"
        } >&2
        return 1
    fi
}

# npx_directive FILE KEY: the rest of the first line "# KEY: ..." of FILE.
npx_directive() {
    sed -n "s/^#[[:space:]]*$2:[[:space:]]*//p" "$1" | head -n 1
}

# Absolute path of an existing file.
npx_abspath() {
    [ -f "$1" ] || { echo "no such file: $1" >&2; return 1; }
    local dir
    dir=$(cd "$(dirname "$1")" && pwd)
    echo "$dir/$(basename "$1")"
}

# build_program FILE.npx: npxc FILE.npx -o $BATS_TEST_TMPDIR/prog.c --exe; sets
# PROG to the program it built. Fails if that build printed a warning.
build_program() {
    local src
    src=$(npx_abspath "$1")
    [ -x "$NPXC" ] || { echo "npxc is not built: $NPXC (run make)" >&2; return 1; }
    # The generated C builds warning-free with npxc's own flags (OpenMP, -O3,
    # the host's vector ISA) and -Wall -Wextra (SPEC 2); not checked under
    # sanitizers, whose instrumentation changes warnings.
    local warnings=""
    [ -n "${NPX_SAN:-}" ] || warnings="-Wall -Wextra -Werror"
    CFLAGS="${CFLAGS:-} $warnings" npx_exec "npxc --exe" "$NPXC" "$src" -o "$BATS_TEST_TMPDIR/prog.c" --exe
    PROG=$BATS_TEST_TMPDIR/prog
    [ -x "$PROG" ] || { echo "npxc --exe did not build $PROG" >&2; return 1; }
}

# build_cuda_program FILE.npx: compile FILE.npx with npxc -t cuda and build
# it against the host emulation; CUDA_PROG is the program.
build_cuda_program() {
    local base
    base=$BATS_TEST_TMPDIR/$(basename "$1" .npx)
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$1" -o "$base.cu"
    npx_exec "g++ (emulated CUDA)" "${CXX:-g++}" -std=c++17 -O1 -x c++ "$base.cu" -o "${base}_cuda" -lpthread
    CUDA_PROG=${base}_cuda
}

# npx_same_files DIR1 DIR2: both hold the same .npy names.
npx_same_files() {
    local a b
    a=$(find "$1" -maxdepth 1 -name '*.npy' -printf '%f ' | tr ' ' '\n' | sort | tr '\n' ' ')
    b=$(find "$2" -maxdepth 1 -name '*.npy' -printf '%f ' | tr ' ' '\n' | sort | tr '\n' ' ')
    if [ "$a" != "$b" ]; then
        printf 'different output files:\n  %s: %s\n  %s: %s\n' "$1" "$a" "$2" "$b" >&2
        return 1
    fi
    [ -n "${a// /}" ] || { echo "no output files in $1" >&2; return 1; }
}

# npx_compare OUT REF TRACE REFTRACE [NPXCMP OPTIONS]: the program's outputs
# against NumPy's; on a mismatch, also the traces, to name the first source
# line where they part ways.
npx_compare() {
    local out=$1 ref=$2 trace=$3 reftrace=$4
    shift 4
    npx_same_files "$out" "$ref"
    if ! npx_exec "npxcmp (program vs NumPy)" "$NPXCMP" "$out" "$ref" "$@"; then
        if [ -f "$trace/trace.txt" ] && [ -f "$reftrace/trace.txt" ]; then
            echo "--- traces (program vs NumPy), for the first line that differs:" >&2
            "$NPXCMP" "$trace" "$reftrace" "$@" >&2 2>&1 || true
        fi
        return 1
    fi
}

# check_program FILE.npx [RUN ARGS...]: compile FILE.npx with npxc --exe (with
# -Werror), check that the generated C also builds warning-free without
# OpenMP at -O2 (not under NPX_SAN), run the program, run the NumPy reference on the
# same inputs, and compare every output with npxcmp. RUN ARGS default to the
# file's "# run:" line; "# tolerance: --rtol R --atol A" sets npxcmp's
# tolerances. Relative .npy paths in RUN ARGS are taken from FILE's folder.
check_program() {
    local src srcdir d=$BATS_TEST_TMPDIR cc=${CC:-cc}
    src=$(npx_abspath "$1")
    shift
    srcdir=$(dirname "$src")
    local -a args=("$@") tol=()
    if (($# == 0)); then
        read -r -a args <<<"$(npx_directive "$src" run)"
    fi
    read -r -a tol <<<"$(npx_directive "$src" tolerance)"
    [ -x "$NPXCMP" ] || { echo "npxcmp is not built: $NPXCMP (run make)" >&2; return 1; }

    build_program "$src"
    if [ -z "${NPX_SAN:-}" ]; then
        npx_exec "$cc -Werror (serial)" \
            "$cc" -std=c11 -O2 -Wall -Wextra -Werror "$d/prog.c" -o "$d/prog_serial" -lm
    fi

    mkdir -p "$d/out" "$d/trace" "$d/ref" "$d/reftrace"
    (cd "$srcdir" && npx_exec "NumPy reference (npxref.py)" \
        "$PYTHON" "$NPXREF" "$src" "${args[@]}" -o "$d/ref" --trace "$d/reftrace")
    (cd "$srcdir" && npx_exec "the compiled program" \
        "$PROG" "${args[@]}" -o "$d/out" --trace "$d/trace")
    npx_compare "$d/out" "$d/ref" "$d/trace" "$d/reftrace" "${tol[@]}"
    # without --trace, temporaries of row groups live a row at a time
    mkdir -p "$d/out_untraced"
    (cd "$srcdir" && npx_exec "the compiled program without --trace" "$PROG" "${args[@]}" -o "$d/out_untraced")
    npx_compare "$d/out_untraced" "$d/ref" "" "" "${tol[@]}"

    if [ -z "${NPX_SAN:-}" ]; then
        mkdir -p "$d/out_serial"
        (cd "$srcdir" && npx_exec "the program built without OpenMP" \
            "$d/prog_serial" "${args[@]}" -o "$d/out_serial")
        npx_compare "$d/out_serial" "$d/ref" "" "" "${tol[@]}"
    fi
    check_cuda "$src" "${args[@]}"
}

# check_cuda FILE.npx RUN ARGS...: the same program through the CUDA target,
# built against the host emulation and run with its threads in shuffled
# order (so that a missing barrier shows); its outputs must match the C
# program's (left in $BATS_TEST_TMPDIR/out by check_program) and NumPy's, and
# its trace the C program's, statement by statement.
check_cuda() {
    local src=$1 d=$BATS_TEST_TMPDIR
    shift
    local -a tol=() cflags=()
    read -r -a tol <<<"$(npx_directive "$src" tolerance)"
    read -r -a cflags <<<"${CFLAGS:-}"
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$src" -o "$d/prog.cu"
    npx_exec "the emulated CUDA build (g++ -x c++)" \
        "${CXX:-g++}" -std=c++17 -O1 -Wall -Wextra -Werror "${cflags[@]}" -x c++ "$d/prog.cu" \
        -o "$d/prog_cuda" -lpthread
    mkdir -p "$d/out_cuda" "$d/trace_cuda"
    (cd "$(dirname "$src")" && NPX_EMU_ORDER=shuffle npx_exec "the emulated CUDA program" \
        "$d/prog_cuda" "$@" -o "$d/out_cuda" --trace "$d/trace_cuda")
    npx_exec "npxcmp (CUDA trace vs C trace)" "$NPXCMP" "$d/trace_cuda" "$d/trace" "${tol[@]}"
    npx_compare "$d/out_cuda" "$d/ref" "$d/trace_cuda" "$d/reftrace" "${tol[@]}"
    # without --trace, row groups keep temporaries' rows in shared memory
    mkdir -p "$d/out_cuda_untraced"
    (cd "$(dirname "$src")" && NPX_EMU_ORDER=shuffle npx_exec "the emulated CUDA program without --trace" \
        "$d/prog_cuda" "$@" -o "$d/out_cuda_untraced")
    npx_compare "$d/out_cuda_untraced" "$d/ref" "" "" "${tol[@]}"
}

# check_diagnostic FILE.npx: FILE is a bad program. Each of its lines
#   # expect: LINE:COL: error: TEXT
# means npxc's stderr must hold "FILE.npx:LINE:COL: error: " followed, on the
# same line, by something containing TEXT (case aside). All expectations are
# checked (every error must be reported, not only the first); npxc must exit 1,
# print a caret line, and leave no output file behind.
check_diagnostic() {
    local src=$1 d=$BATS_TEST_TMPDIR status=0 failed=0
    [ -f "$src" ] || { echo "no such file: $src" >&2; return 1; }
    [ -x "$NPXC" ] || { echo "npxc is not built: $NPXC (run make)" >&2; return 1; }
    local -a expects
    mapfile -t expects < <(sed -n 's/^#[[:space:]]*expect:[[:space:]]*//p' "$src")
    ((${#expects[@]} > 0)) || { echo "$src has no '# expect:' line" >&2; return 1; }

    mkdir -p "$d/o"
    npx_limit "$NPXC" "$src" -o "$d/o/prog.c" >"$d/stdout" 2>"$d/stderr" || status=$?
    local err
    err=$(<"$d/stderr")

    if ((status == 124 || status == 137)); then
        echo "npxc timed out or was killed (NPX_TIMEOUT is ${NPX_TIMEOUT:-120} s)" >&2
        failed=1
    elif ((status != 1)); then
        echo "npxc exited $status, expected 1 (errors in the program)" >&2
        failed=1
    fi
    local e line col text prefix l rest found
    for e in "${expects[@]}"; do
        if ! [[ $e =~ ^([0-9]+):([0-9]+):\ error:\ (.*)$ ]]; then
            echo "malformed expectation in $src: '$e'" >&2
            failed=1
            continue
        fi
        line=${BASH_REMATCH[1]} col=${BASH_REMATCH[2]} text=${BASH_REMATCH[3]}
        prefix="$src:$line:$col: error: "
        found=0
        while IFS= read -r l; do
            if [[ $l == *"$prefix"* ]]; then
                rest=${l#*"$prefix"}
                if [[ ${rest,,} == *"${text,,}"* ]]; then found=1; fi
            fi
        done <<<"$err"
        if ((!found)); then
            echo "missing diagnostic: $prefix...$text..." >&2
            failed=1
        fi
    done
    if ! grep -Eq '^[[:space:]0-9|]*\^[~^]*[[:space:]]*$' <<<"$err"; then
        echo "no caret line (^ under the column) in the diagnostics" >&2
        failed=1
    fi
    if [ -n "$(ls -A "$d/o")" ]; then
        echo "npxc left files behind after an error: $(ls -A "$d/o")" >&2
        failed=1
    fi
    if ((failed)); then
        printf -- '--- npxc stderr:\n%s\n--- npxc stdout:\n%s\n' "$err" "$(<"$d/stdout")" >&2
        return 1
    fi
}

# npy_write FILE.npy PYEXPR: save np.asarray(PYEXPR), e.g.
#   npy_write "$BATS_TEST_TMPDIR/x.npy" 'np.arange(6, dtype=np.float32).reshape(2, 3)'
npy_write() {
    npx_exec "npy_write" "$PYTHON" -c \
        'import sys, numpy as np; np.save(sys.argv[1], np.asarray(eval(sys.argv[2])))' "$1" "$2"
}

# npy_check FILE.npy PYEXPR: fail, showing the array, unless PYEXPR is true
# with `a` the array loaded from FILE, e.g.
#   npy_check out/y.npy 'a.dtype == np.float32 and a.shape == (5, 7)'
npy_check() {
    npx_exec "npy_check $1: $2" "$PYTHON" -c '
import sys, numpy as np
a = np.load(sys.argv[1])
if not eval(sys.argv[2]):
    np.set_printoptions(precision=17, threshold=200)
    sys.exit("false: %s\n  a = %r (dtype %s, shape %s)" % (sys.argv[2], a, a.dtype, a.shape))
' "$1" "$2"
}
