#!/usr/bin/env bats
# Every test program and sample compiled with -t cuda is built by the real
# CUDA compiler for sm_90 with warnings as errors (SPEC 5). The programs are
# built once, two at a time, in setup_file; running them needs a GPU (make
# check-gpu). The emulated runs are in check_program (test_helper.bash).

load test_helper

setup_file() {
    if ! command -v nvcc >/dev/null 2>&1 || [ -n "${NPX_SAN:-}" ]; then
        return 0
    fi
    local dir=$BATS_FILE_TMPDIR/nvcc
    mkdir -p "$dir"
    # shellcheck disable=SC2016
    printf '%s\n' "$NPX_ROOT"/test/programs/*.npx "$NPX_ROOT"/samples/*.npx |
        xargs -P 2 -I{} sh -c 'n=$(basename "$(dirname "$1")")_$(basename "$1" .npx); "$2" -t cuda "$1" -o "$3/$n.cu" &&
            nvcc -O1 -arch=sm_90 -Werror all-warnings "$3/$n.cu" -o "$3/$n" -lcublas >"$3/$n.log" 2>&1 ||
            echo "$n" >>"$3/failed"' _ {} "$NPXC" "$dir"
}

@test "every program builds with nvcc for sm_90 without a warning" {
    command -v nvcc >/dev/null 2>&1 || skip "nvcc is not installed here"
    [ -z "${NPX_SAN:-}" ] || skip "built once, in the plain round"
    local dir=$BATS_FILE_TMPDIR/nvcc
    if [ -s "$dir/failed" ]; then
        for n in $(cat "$dir/failed"); do
            echo "== $n" >&2
            head -20 "$dir/$n.log" >&2
        done
        return 1
    fi
    local count
    count=$(find "$dir" -maxdepth 1 -type f -perm -u+x | wc -l)
    [ "$count" -eq $(($(ls "$NPX_ROOT"/test/programs/*.npx "$NPX_ROOT"/samples/*.npx | wc -l))) ]
}

@test "elementwise kernels read and write 16 bytes at a time (ld/st.global.v4 in the PTX)" {
    command -v nvcc >/dev/null 2>&1 || skip "nvcc is not installed here"
    [ -z "${NPX_SAN:-}" ] || skip "checked once, in the plain round"
    local d=$BATS_TEST_TMPDIR
    npx_exec "npxc -t cuda" "$NPXC" -t cuda "$NPX_ROOT/bench/arith.npx" -o "$d/arith.cu"
    npx_exec "nvcc -ptx" nvcc -O3 -arch=sm_90 -ptx "$d/arith.cu" -o "$d/arith.ptx"
    [ "$(grep -cE 'ld\.global(\.nc)?\.v4\.f32' "$d/arith.ptx")" -ge 3 ]
    grep -qE 'st\.global\.v4\.f32' "$d/arith.ptx"
}
