#!/usr/bin/env python3
"""survey.py: `make survey`: every test program at a large size, timed beside NumPy.

    python3 bench/survey.py [--elements N] [--build DIR] [--npxc PATH]
                            [--npxcmp PATH] [NAME ...]

    make survey SURVEY_ARGS='--elements 4000000 cov arg_ties'

The benchmark programs measure what npxc was tuned for; this looks for what it
was not. Each test/programs/NAME.npx (or those named) has its `# run:` sizes
scaled up by one factor until its largest input holds about N elements
(default 1M), then goes through run.py's steps with `--target-s 0.25 --repeat
3`: compiled with --exe, timed with --bench beside NumPy on the same inputs,
outputs compared. It prints a line per program, the slowest against NumPy
first. Nothing is saved; sizes a program's statements refuse (a reshape to a
fixed shape, a slice past a short axis) show as failed runs.

A ratio under 1 is worth a look, not always a fault: NumPy returns views where
npxc writes arrays out (transpose), orders ties of its unstable argsort its own
way, or overflows to inf at sizes the test was not written for.
"""
import os
import re
import shlex
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import run  # noqa: E402  (bench/run.py: its programs' steps)

PROGRAMS = os.path.join(ROOT, "test", "programs")


def run_line(text):
    """(seed, {symbol: size}) from a test program's `# run:` line, or None."""
    m = re.search(r"^# run: (.*)$", text, re.M)
    if not m:
        return None
    words, seed, dims = shlex.split(m.group(1)), 0, {}
    for i, w in enumerate(words[:-1]):
        if w == "--random":
            seed = int(words[i + 1])
        elif w == "--dim":
            sym, n = words[i + 1].split("=")
            dims[sym] = int(n)
    return seed, dims


def largest_input(prog, dims):
    sizes = [1]
    for _, _, decl, _ in prog.inputs:
        n = 1
        for d in decl:
            n *= dims[d] if isinstance(d, str) else d
        sizes.append(n)
    return max(sizes)


def scaled(prog, dims, elements):
    """dims times the smallest factor (a power of 1.25) that makes the largest input hold elements."""
    k = 1.0
    while True:
        out = {s: max(1, round(n * k)) for s, n in dims.items()}
        if largest_input(prog, out) >= elements or k > 1e6:
            return out
        k *= 1.25


def survey_one(opts, name, elements, work):
    """The table row of one program, with a `# bench:` line at the scaled sizes; None if it has no sizes."""
    with open(os.path.join(PROGRAMS, name + ".npx"), encoding="utf-8") as f:
        text = f.read()
    found = run_line(text)
    if not found or not found[1]:
        return None
    seed, dims = found
    prog = run.npxref.Program(os.path.join(PROGRAMS, name + ".npx"))
    if largest_input(prog, dims) <= 1:
        return None
    sizes = " ".join("--dim %s=%d" % kv for kv in scaled(prog, dims, elements).items())
    path = os.path.join(work, name + ".npx")
    with open(path, "w", encoding="utf-8") as f:
        f.write("# bench: --random %d %s\n%s" % (seed, sizes, text))
    return run.run_bench(opts, run.Bench(path))[0]


def speedup(row):
    """NumPy's time over npxc's; rows without both last."""
    if not row["npxc"] or not row["numpy"]:
        return float("inf")
    return row["numpy"]["median_s"] / row["npxc"]["median_s"]


def main(argv):
    elements, names, rest = 1 << 20, [], ["--build", os.path.join(ROOT, "build", "survey")]
    it = iter(argv)
    for a in it:
        if a == "--elements":
            elements = int(next(it))
        elif a in ("--build", "--npxc", "--npxcmp"):
            rest += [a, next(it)]
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            names.append(a)
    opts = run.parse_args(["--no-save", "--target-s", "0.25", "--repeat", "3"] + rest)
    work = os.path.join(opts["build"], "programs")
    os.makedirs(work, exist_ok=True)
    names = names or sorted(f[:-4] for f in os.listdir(PROGRAMS) if f.endswith(".npx"))
    rows = []
    for name in names:
        try:
            row = survey_one(opts, name, elements, work)
        except (run.BenchError, run.npxref.NpxError, OSError) as e:
            row = {"program": name, "size": "?", "npxc": None, "numpy": None, "numexpr": None, "goal": "",
                   "check": "n/a", "notes": [str(e)]}
        if row:
            row["program"] = name
            rows.append(row)
            cells = run.cells(row)
            sys.stderr.write("%s: NumPy/npxc %s %s\n" % (name, cells[4], row["check"]))
    for row in sorted(rows, key=speedup):
        c = run.cells(row)
        note = "; ".join(row["notes"]).replace("\n", " ")[:100]
        print("%-26s %-34s npxc %8s ms  NumPy %8s ms  NumPy/npxc %6s  %-4s %s"
              % (row["program"], c[1][:34], c[2], c[3], c[4], row["check"], note))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
