#!/usr/bin/env bash
# gpu.sh: make bench-gpu, the benchmark programs (bench/*.npx) on an NVIDIA
# GPU. Each is compiled with npxc -t cuda and nvcc, run at the sizes of its
# "# bench:" line with --bench 50 (device time between CUDA events: the
# kernels and the syncs inside the computation, not the uploads of inputs or
# downloads of outputs), and shown beside
#   - the bytes it must move (its inputs and outputs) per second, and that as
#     a share of the GPU's device-to-device copy bandwidth (bench/gpu_copy.cu),
#     the ceiling of a memory-bound program;
#   - CuPy running the same statements (tools/gpu_bench.py), where installed.
# Prints a Markdown table for bench/RESULTS.md or docs/gpu.md. Needs no network.
#   bench/gpu.sh [BUILD]       (default build/, made by `make`)
# Exit status: 0; 1 when a program did not build or run; 2 without a GPU.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
work=$build/bench-gpu
arch=${NPX_CUDA_ARCH:-sm_90}
mkdir -p "$work"
cd "$root" || exit 2

command -v nvcc >/dev/null || { echo "bench-gpu: nvcc is not on PATH" >&2; exit 2; }
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
[ -n "$gpu" ] || { echo "bench-gpu: no GPU answers nvidia-smi" >&2; exit 2; }

directive() { sed -n "s/^# $2:[[:space:]]*//p" "$1" | head -n 1; }

# The bytes of the .npy files NAMES... in DIR, headers aside (128 bytes each
# for the arrays written here).
npy_bytes() {
    local dir=$1 total=0 name size
    shift
    for name in "$@"; do
        size=$(stat -c %s "$dir/$name.npy" 2>/dev/null) || continue
        total=$((total + size - 128))
    done
    echo "$total"
}

copy="n/a"
if nvcc -O3 -arch="$arch" bench/gpu_copy.cu -o "$work/gpu_copy" 2>"$work/gpu_copy.log"; then
    copy=$("$work/gpu_copy" | sed -n 's/^copy_GBps=//p')
fi

status=0
rows=()
for src in bench/*.npx; do
    name=$(basename "$src" .npx)
    read -r -a args <<<"$(directive "$src" bench)"
    log=$work/$name.log
    if ! "$build/npxc" -t cuda "$src" -o "$work/$name.cu" >"$log" 2>&1 ||
        ! nvcc -O3 -arch="$arch" "$work/$name.cu" -o "$work/$name" -lcublas >>"$log" 2>&1; then
        rows+=("| $name | build failed: $log | | | | |")
        status=1
        continue
    fi
    rm -rf "$work/$name.trace" "$work/$name.out"
    median=$("$work/$name" "${args[@]}" --trace "$work/$name.trace" -o "$work/$name.out" >>"$log" 2>&1 &&
        "$work/$name" "${args[@]}" --bench 50 -o "$work/$name.bench" 2>>"$log" |
        sed -n 's/.*median_s=\([^ ]*\).*/\1/p')
    if [ -z "$median" ]; then
        rows+=("| $name | run failed: $log | | | | |")
        status=1
        continue
    fi
    mapfile -t inputs < <(sed -n 's/^input \([A-Za-z_][A-Za-z_0-9]*\):.*/\1/p' "$src")
    mapfile -t outputs < <(find "$work/$name.out" -name '*.npy' -printf '%f\n' | sed 's/\.npy$//')
    bytes=$(($(npy_bytes "$work/$name.trace" "${inputs[@]}") + $(npy_bytes "$work/$name.out" "${outputs[@]}")))
    cupy=$(python3 tools/gpu_bench.py "$src" "${args[@]}" 2>/dev/null || echo "")
    rows+=("$(awk -v n="$name" -v t="$median" -v b="$bytes" -v c="$copy" -v cp="$cupy" 'BEGIN {
        gbs = b / t / 1e9
        share = (c + 0 > 0) ? sprintf("%.0f%%", 100 * gbs / c) : "n/a"
        cupy = (cp + 0 > 0) ? sprintf("%.1f | %.2f", cp * 1e6, cp / t) : "- | -"
        printf "| %s | %.1f | %.1f | %s | %s |", n, t * 1e6, gbs, share, cupy }')")
done

echo
echo "## $(date -u '+%F %H:%M') UTC, $gpu ($arch)"
echo
echo "- device-to-device copy: $copy GB/s (bench/gpu_copy.cu, 1 GiB, median of 20)"
echo "- npxc: $("$build/npxc" --version 2>/dev/null | head -n 1), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "- time: device time of one run, median of 50 (--bench 50); GB/s: inputs + outputs per second"
echo
echo "| program | npxc us | GB/s | of copy | CuPy us | CuPy/npxc |"
echo "|---|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
exit "$status"
