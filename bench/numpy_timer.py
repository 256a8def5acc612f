#!/usr/bin/env python3
"""numpy_timer.py: times NumPy (and NumExpr) on one benchmark program, for run.py.

    numpy_timer.py PROG.npx --inputs DIR --out DIR [--target-s S] [--repeat K]

run.py starts it in a subprocess whose environment fixes the thread counts
(OPENBLAS_NUM_THREADS, OMP_NUM_THREADS, MKL_NUM_THREADS) before NumPy is
imported, which is why this is a separate process and not a function of run.py.

It evaluates the program's statements the way test/ref/npxref.py does (that
file's parser and namespace, so `exp`, `np.exp` and `x.sum(axis=1)` all mean
what NumPy says), on the inputs DIR/NAME.npy that run.py generated and that the
compiled program reads too. Timing is timeit-like: one warm-up run, whose
outputs are saved to OUT/numpy/NAME.npy for the correctness check, then K
groups of runs, each group lasting about S seconds; the result is the median
of the groups' median run times.

Where the program's header has `# numexpr: NAME = EXPR` lines, the same is
done with numexpr.evaluate (if NumExpr is installed), outputs in OUT/numexpr/.
Float literals in EXPR become float32 constants when the float inputs are
float32, as NEP 50 says a Python float next to a float32 array is (NumExpr
itself would make them float64 and the whole result float64).

Prints one JSON object on stdout: timings, library versions, the BLAS that
NumPy runs (threadpoolctl, when installed).
"""
import ast
import gc
import json
import os
import re
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True      # leave no __pycache__ in test/ref
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "test", "ref"))
import npxref  # noqa: E402


def parse_args(argv):
    opts = {"prog": None, "inputs": None, "out": None, "target_s": 1.0, "repeat": 3}
    it = iter(argv)
    for a in it:
        if a in ("--inputs", "--out"):
            opts[a[2:]] = next(it)
        elif a == "--target-s":
            opts["target_s"] = float(next(it))
        elif a == "--repeat":
            opts["repeat"] = int(next(it))
        elif opts["prog"] is None and not a.startswith("-"):
            opts["prog"] = a
        else:
            sys.exit("numpy_timer.py: unexpected argument %r" % a)
    if not (opts["prog"] and opts["inputs"] and opts["out"]):
        sys.exit(__doc__.split("\n\n")[1])
    return opts


def load_inputs(prog, directory):
    """The inputs, and the sizes their shapes bind (B is a Python int where a value goes)."""
    given = {name: os.path.join(directory, name + ".npy") for name, _, _, _ in prog.inputs}
    sizes = {}
    inputs = npxref.load_inputs(prog, given, None, sizes)
    return inputs, sizes


def numpy_runner(prog, inputs, sizes):
    """A function running the program's statements once; returns the outputs."""
    consts = {st[3]: st[4] for st in prog.stmts if st[0] == "const"}
    outputs = [name for name, _ in prog.outputs]
    glob = npxref.EVAL_GLOBALS

    def run_stmts(stmts, env):
        for st in stmts:
            if st[0] == "assign":
                env[st[3]] = eval(st[5], glob, env)
            elif st[0] == "unpack":                 # a, b = value: as Python unpacks it
                env.update(zip(st[3], eval(st[5], glob, env)))
            elif st[0] == "setitem":                # x[index] = v: in place, as NumPy does
                exec(st[5], glob, env)
            elif st[0] == "for":
                for i in eval(st[4], glob, dict(env, range=range)):
                    env[st[3]] = i
                    run_stmts(st[5], env)

    def run():
        env = npxref.Namespace()
        env.update(sizes)
        env.update(consts)
        env.update(inputs)
        run_stmts(prog.stmts, env)
        return {name: env[name] for name in outputs}
    return run


def numexpr_lines(path):
    """The `# numexpr: NAME = EXPR` lines of the program's comments."""
    lines = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            m = re.match(r"#\s*numexpr:\s*([A-Za-z_]\w*)\s*=\s*(.+?)\s*$", raw)
            if m:
                lines.append((m.group(1), m.group(2)))
    return lines


class _ToNumExpr(ast.NodeTransformer):
    """np.exp -> exp; float literals -> named constants of the inputs' float dtype."""

    def __init__(self, float_dtype):
        self.float_dtype, self.consts = float_dtype, {}

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id in ("np", "numpy"):
            return ast.copy_location(ast.Name(id=node.attr, ctx=ast.Load()), node)
        return node

    def visit_Constant(self, node):
        if isinstance(node.value, float):
            name = "_k%d" % len(self.consts)
            self.consts[name] = np.array(node.value, dtype=self.float_dtype)
            return ast.copy_location(ast.Name(id=name, ctx=ast.Load()), node)
        return node


def numexpr_runner(ne, lines, prog, inputs):
    floats = {np.asarray(v).dtype for v in inputs.values() if np.asarray(v).dtype.kind == "f"}
    float_dtype = np.float32 if floats == {np.dtype(np.float32)} else np.float64
    compiled, consts = [], {}
    for name, expr in lines:
        conv = _ToNumExpr(float_dtype)
        tree = conv.visit(ast.parse(expr, mode="eval"))
        consts.update(conv.consts)
        compiled.append((name, ast.unparse(tree)))

    def run():
        env = dict(inputs)
        env.update(consts)
        for name, text in compiled:
            env[name] = ne.evaluate(text, local_dict=env)
        return {name: env[name] for name, _ in lines}
    return run


def time_it(run, target_s, repeat):
    """Warm-up, then `repeat` groups of about target_s seconds each: the median
    of the groups' median run times, the fastest run, and the number of runs.
    The outputs are the warm-up's, copied: a program that assigns into an
    input (x[i] = v) changes it again in every later run."""
    outputs = {name: np.array(value, copy=True) for name, value in run().items()}
    medians, fastest, total = [], float("inf"), 0
    gc.disable()
    try:
        for _ in range(repeat):
            samples, start = [], time.perf_counter()
            while len(samples) < 3 or (time.perf_counter() - start < target_s and len(samples) < 10000):
                t0 = time.perf_counter()
                run()
                samples.append(time.perf_counter() - t0)
            medians.append(float(np.median(samples)))
            fastest = min(fastest, min(samples))
            total += len(samples)
    finally:
        gc.enable()
    return outputs, {"median_s": float(np.median(medians)), "min_s": fastest, "runs": total}


def save_all(directory, outputs):
    os.makedirs(directory, exist_ok=True)
    for f in os.listdir(directory):
        if f.endswith(".npy"):
            os.remove(os.path.join(directory, f))
    for name, value in outputs.items():
        np.save(os.path.join(directory, name + ".npy"), np.asarray(value, order="C"))


def blas_info():
    """Which BLAS NumPy calls, its kernel and threads, as one line."""
    try:
        import threadpoolctl
    except ImportError:
        try:
            blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
            return "%s %s (kernel unknown: threadpoolctl is not installed)" % (
                blas.get("name", "?"), blas.get("version", "?"))
        except Exception:
            return "unknown (threadpoolctl is not installed)"
    pools = [p for p in threadpoolctl.threadpool_info() if p.get("user_api") == "blas"]
    if not pools:
        return "none loaded"
    return "; ".join("%s %s, kernel %s, %s threads" % (
        p.get("internal_api"), p.get("version"), p.get("architecture", "?"), p.get("num_threads"))
        for p in pools)


def main(argv):
    np.seterr(all="ignore")
    opts = parse_args(argv)
    prog = npxref.Program(opts["prog"])
    inputs, sizes = load_inputs(prog, opts["inputs"])
    threads = os.environ.get("OMP_NUM_THREADS")
    report = {"numpy_version": np.__version__}

    outputs, report["numpy"] = time_it(numpy_runner(prog, inputs, sizes), opts["target_s"], opts["repeat"])
    save_all(os.path.join(opts["out"], "numpy"), outputs)
    report["blas"] = blas_info()     # after the runs: the BLAS is loaded lazily

    lines = numexpr_lines(opts["prog"])
    if not lines:
        report["numexpr"] = None
    else:
        try:
            import numexpr as ne
        except ImportError:
            report["numexpr"] = {"error": "NumExpr is not installed"}
        else:
            if threads:
                ne.set_num_threads(int(threads))
            report["numexpr_version"] = ne.__version__
            out, report["numexpr"] = time_it(numexpr_runner(ne, lines, prog, inputs),
                                             opts["target_s"], opts["repeat"])
            save_all(os.path.join(opts["out"], "numexpr"), out)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
