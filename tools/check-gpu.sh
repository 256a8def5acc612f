#!/usr/bin/env bash
# check-gpu.sh: the checks that need an NVIDIA GPU (make check-gpu). For every
# test program and sample: build the C program and the CUDA one (nvcc, sm_90,
# warnings as errors), run both on the same --random inputs, and compare them
# with npxcmp; then compute-sanitizer (memcheck, racecheck) on the samples;
# prints a short table; then the benchmarks (bench/gpu.sh, make bench-gpu).
# Needs no network.
#   tools/check-gpu.sh [BUILD]       (default build/, made by `make`)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
work=$build/gpu
arch=${NPX_CUDA_ARCH:-sm_90}
mkdir -p "$work"
cd "$root"

command -v nvcc >/dev/null || { echo "check-gpu: nvcc is not on PATH" >&2; exit 2; }
if ! nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; then
    echo "check-gpu: no GPU answers nvidia-smi" >&2
    exit 2
fi

directive() { sed -n "s/^# $2:[[:space:]]*//p" "$1" | head -n 1; }

# 1. build everything, two programs at a time per core
programs=(test/programs/*.npx samples/*.npx)
build_one() {
    local src=$1 work=$2 arch=$3 npxc=$4 name
    name=$(basename "$src" .npx)
    "$npxc" "$src" -o "$work/$name.c" --exe >"$work/$name.build.log" 2>&1 &&
        "$npxc" -t cuda "$src" -o "$work/$name.cu" >>"$work/$name.build.log" 2>&1 &&
        nvcc -O3 -arch="$arch" -Werror all-warnings "$work/$name.cu" -o "$work/${name}_gpu" -lcublas \
            >>"$work/$name.build.log" 2>&1 ||
        echo "$name" >>"$work/build-failures"
}
export -f build_one
rm -f "$work/build-failures"
printf '%s\n' "${programs[@]}" | xargs -P "$(nproc)" -I{} bash -c 'build_one "$@"' _ {} "$work" "$arch" "$build/npxc"

# 2. run and compare
pass=0 fail=0 failed=()
for src in "${programs[@]}"; do
    name=$(basename "$src" .npx)
    read -r -a args <<<"$(directive "$src" run)"
    read -r -a tol <<<"$(directive "$src" tolerance)"
    rm -rf "$work/$name.out" "$work/$name.gpu"
    if [ -x "$work/${name}_gpu" ] &&
        (cd "$(dirname "$src")" && "$work/$name" "${args[@]}" -o "$work/$name.out" >/dev/null &&
            "$work/${name}_gpu" "${args[@]}" -o "$work/$name.gpu" >/dev/null) &&
        "$build/npxcmp" "${tol[@]}" "$work/$name.gpu" "$work/$name.out" >"$work/$name.cmp" 2>&1; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        failed+=("$name")
    fi
done

# 3. compute-sanitizer on the samples
san="not installed"
if command -v compute-sanitizer >/dev/null; then
    san=ok
    for src in samples/*.npx; do
        name=$(basename "$src" .npx)
        read -r -a args <<<"$(directive "$src" run)"
        for tool in memcheck racecheck; do
            if ! compute-sanitizer --tool "$tool" --error-exitcode 9 "$work/${name}_gpu" "${args[@]}" \
                -o "$work/$name.san" >"$work/$name.$tool.log" 2>&1; then
                san="FAIL ($name, $tool: see $work/$name.$tool.log)"
            fi
        done
    done
fi

echo
echo "== check-gpu on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1), $(date -u +%F)"
echo "programs: $pass passed, $fail failed${failed[*]:+ (${failed[*]})}"
[ -s "$work/build-failures" ] && echo "build failures: $(tr '\n' ' ' <"$work/build-failures")"
echo "compute-sanitizer: $san"
ok=0
((fail == 0)) && [ ! -s "$work/build-failures" ] && ok=1

# 4. benchmarks: make bench-gpu
"$root/bench/gpu.sh" "$build" || ok=0
((ok == 1))
