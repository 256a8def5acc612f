#!/usr/bin/env python3
"""gpu_bench.py PROG.npx RUN ARGS...: times the program's statements in CuPy,
on the inputs the generated program would see (npxref.py's parser and
--random generator), and prints the median seconds of one run (device time,
by CUDA events). Exits 1 when CuPy is not installed. Used by check-gpu.sh."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "test", "ref"))
import npxref  # noqa: E402

try:
    import cupy as cp
except ImportError:
    sys.exit(1)


class CupyNamespace(npxref.Namespace):
    ALIASES = dict(npxref.Namespace.ALIASES, np=cp, numpy=cp)

    def __missing__(self, name):
        if name in self.ALIASES:
            return self.ALIASES[name]
        if not name.startswith("_") and hasattr(cp, name):
            return getattr(cp, name)
        raise KeyError(name)


def run_once(prog, inputs):
    env = CupyNamespace()
    for st in prog.stmts:
        kind, name = st[0], st[3]
        if kind == "input":
            env[name] = inputs[name]
        elif kind == "const":
            env[name] = st[4]
        elif kind == "unpack":                  # a, b = value: as Python unpacks it
            env.update(zip(name, eval(st[5], npxref.EVAL_GLOBALS, env)))
        else:
            env[name] = eval(st[5], npxref.EVAL_GLOBALS, env)


def main(argv):
    opts = npxref.parse_args(argv)
    prog = npxref.Program(opts["prog"])
    host = npxref.load_inputs(prog, opts["given"], opts["seed"], dict(opts["dims"]))
    inputs = {k: cp.asarray(v) for k, v in host.items()}
    run_once(prog, inputs)
    times = []
    for _ in range(50):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        run_once(prog, inputs)
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) * 1e-3)
    times.sort()
    print("%.9g" % times[len(times) // 2])


if __name__ == "__main__":
    main(sys.argv[1:])
