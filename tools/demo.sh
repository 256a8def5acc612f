#!/usr/bin/env bash
# demo.sh BUILD: the main job end to end on the bundled autoencoder sample:
# compile it to C, show its shapes and one generated block, build and run it on
# --random inputs, and compare its outputs with NumPy's when NumPy is there.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$build/demo
mkdir -p "$out"
npxc=$build/npxc
sample=$root/samples/autoencoder.npx
run_args=(--random 1 --dim B=64 --dim V=784 --dim H=128)

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "the program: $sample"
grep -v '^#' "$sample" | sed '/^$/d'

step "npxc --shapes"
"$npxc" --shapes "$sample"

step "npxc -o $out/autoencoder.c --exe   (C, built with \$CC, OpenMP)"
"$npxc" "$sample" -o "$out/autoencoder.c" --exe
echo "the block generated for delta_h:"
awk '/line [0-9]+: delta_h =/ { on = 1 } /trace_dir/ { on = 0 } on' "$out/autoencoder.c"

step "run: $out/autoencoder ${run_args[*]} -o $out/c"
"$out/autoencoder" "${run_args[@]}" -o "$out/c"
ls -l "$out/c"
"$out/autoencoder" "${run_args[@]}" --bench 20

if python3 -c 'import numpy' 2>/dev/null; then
    step "NumPy evaluates the same statements on the same inputs (test/ref/npxref.py)"
    python3 "$root/test/ref/npxref.py" "$sample" "${run_args[@]}" -o "$out/numpy"
    step "npxcmp $out/c $out/numpy"
    "$build/npxcmp" "$out/c" "$out/numpy" --rtol 1e-4 --atol 1e-4
else
    echo "(NumPy is not installed: skipping the comparison; 'make deps' installs it)"
fi
