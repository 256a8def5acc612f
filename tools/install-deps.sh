#!/usr/bin/env bash
# install-deps.sh: install what `make check` needs, when it is missing:
#   flex, bison      to build npxc's scanner and parser
#   cc, make         (gcc and make) to build everything
#   bats             the test runner (bats-core)
#   NumPy 2          for the reference runner test/ref/npxref.py (pip, into
#                    the python3 on PATH, or $PYTHON)
#   parallel         optional: GNU parallel lets bats run two tests at a time
#   libopenblas-dev  optional: the --blas tests link with -lopenblas (skipped without)
#   libopenblas0-openmp  optional: OpenBLAS built on OpenMP, which npxc --blas
#                    links when it is there (one pool of threads with the loops)
# With --bench (make bench), also the benchmark's other baselines: NumExpr
# (its column of the table) and threadpoolctl (which OpenBLAS kernel NumPy
# runs), from pip; optional: the table says "not installed" without them.
# Quiet when everything is there. Debian packages come from apt-get (with
# apt-get update only when a first install fails). Not root: prints what to
# install and exits 1 (0 when only the optional parallel is missing).
set -euo pipefail

PYTHON=${PYTHON:-python3}
bench=0
[ "${1:-}" = --bench ] && bench=1

# command -> Debian package
declare -A DEB=([flex]=flex [bison]=bison [bats]=bats [make]=make [cc]=gcc [parallel]=parallel)
missing=() optional=()
for cmd in flex bison bats make cc; do
    command -v "$cmd" >/dev/null 2>&1 || missing+=("${DEB[$cmd]}")
done
command -v parallel >/dev/null 2>&1 || optional+=(parallel)
compgen -G '/usr/lib/*/libopenblas.so' >/dev/null || optional+=(libopenblas-dev)
compgen -G '/usr/lib/*/openblas-openmp/libopenblas.so.0' >/dev/null || optional+=(libopenblas0-openmp)
command -v "$PYTHON" >/dev/null 2>&1 || missing+=(python3 python3-pip)

numpy_ok() {
    "$PYTHON" -c 'import sys, numpy; sys.exit(int(numpy.__version__.split(".")[0]) < 2)' >/dev/null 2>&1
}
need_numpy=0
numpy_ok || need_numpy=1
# --bench: the Python modules the benchmark's table also reads (pip installs them by these names)
bench_missing=()
if ((bench)); then
    for mod in numexpr threadpoolctl; do
        "$PYTHON" -c "import $mod" >/dev/null 2>&1 || bench_missing+=("$mod")
    done
fi

if ((${#missing[@]} + ${#optional[@]} + need_numpy + ${#bench_missing[@]} == 0)); then
    exit 0
fi

if [ "$(id -u)" != 0 ]; then
    if ((${#missing[@]} + need_numpy == 0)); then
        ((${#optional[@]} == 0)) ||
            echo "install-deps: optional: apt-get install ${optional[*]} (two tests at a time; the --blas tests)" >&2
        ((${#bench_missing[@]} == 0)) ||
            echo "install-deps: optional: $PYTHON -m pip install ${bench_missing[*]} (the benchmark's NumExpr column and BLAS kernel)" >&2
        exit 0
    fi
    echo "install-deps: missing tools; as root, run:" >&2
    echo "  apt-get install -y ${missing[*]} ${optional[*]}" >&2
    ((need_numpy == 0)) || echo "  $PYTHON -m pip install 'numpy>=2'" >&2
    exit 1
fi

# apt_install PKG...: install, with apt-get update only if the first try fails.
apt_install() {
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q "$@" >/dev/null 2>&1 && return 0
    apt-get update -q >/dev/null 2>&1 || true
    apt-get install -y -q "$@" >/dev/null
}

if ((${#missing[@]} > 0)); then
    echo "install-deps: installing ${missing[*]}" >&2
    apt_install "${missing[@]}"
fi
if ((${#optional[@]} > 0)); then
    echo "install-deps: installing ${optional[*]}" >&2
    apt_install "${optional[@]}" || echo "install-deps: could not install ${optional[*]}; tests that need it are skipped" >&2
fi
# GNU parallel asks for a citation once, unless told it was seen.
if command -v parallel >/dev/null 2>&1 && [ ! -e "$HOME/.parallel/will-cite" ]; then
    mkdir -p "$HOME/.parallel" && touch "$HOME/.parallel/will-cite"
fi

# pip_install PKG...: into $PYTHON; a Debian python3 refuses pip installs
# outside a venv (PEP 668) unless told.
pip_install() {
    "$PYTHON" -m pip install -q "$@" 2>/dev/null ||
        "$PYTHON" -m pip install -q --break-system-packages "$@"
}

if ! numpy_ok; then
    echo "install-deps: installing NumPy 2 for $PYTHON" >&2
    pip_install 'numpy>=2'
    numpy_ok || { echo "install-deps: NumPy 2 is still not importable by $PYTHON" >&2; exit 1; }
fi
if ((${#bench_missing[@]} > 0)); then
    echo "install-deps: installing ${bench_missing[*]} for $PYTHON (benchmark baselines)" >&2
    pip_install "${bench_missing[@]}" ||
        echo "install-deps: could not install ${bench_missing[*]}; the table says so" >&2
fi
