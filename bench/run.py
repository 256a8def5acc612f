#!/usr/bin/env python3
"""run.py: `make bench`: npxc's generated programs timed beside NumPy (and NumExpr).

    python3 bench/run.py [--quick] [--only NAME[,NAME...]] [--threads T]
                         [--target-s S] [--repeat K] [--save | --no-save]
                         [--build DIR] [--npxc PATH] [--npxcmp PATH]

For each bench/*.npx program (see bench/README.md):
  1. compile it with `npxc --exe` into build/bench/NAME/ (and once more per
     `# variant:` line of its header, e.g. --blas);
  2. generate its inputs once, as .npy files, with the documented --random
     generator (the same values `prog --random SEED` would make) at the sizes
     of its `# bench:` line (`# quick:` with --quick);
  3. run the program with NAME=FILE.npy ... --bench N, N chosen so one run
     set lasts about S seconds, K times: npxc's time is the median of the K
     medians; the outputs of a first --bench 1 run are the ones checked;
  4. time NumPy (and NumExpr where the header has `# numexpr:` lines) on the
     same inputs in a subprocess (bench/numpy_timer.py), with T threads;
  5. compare npxc's outputs with NumPy's (npxcmp --rtol 1e-3 --atol 1e-4).
Then it prints one table, and (full sizes only, unless --no-save) adds it as
a new section at the top of bench/RESULTS.md. The goals are informational:
nothing here passes or fails on a time.

Exit status: 0 when every program was built, ran and matched NumPy; 1 when a
correctness check failed or a program could not be built or run (the table
is printed and saved all the same); 2 on bad usage.
"""
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.dont_write_bytecode = True      # leave no __pycache__ in test/ref
sys.path.insert(0, os.path.join(ROOT, "test", "ref"))
import npxref  # noqa: E402

RTOL, ATOL = "1e-3", "1e-4"
RESULTS = os.path.join(HERE, "RESULTS.md")
RESULTS_MARK = "<!-- new results go below this line, newest first -->"
BENCH_RE = re.compile(r"npx-bench: runs=(\d+) min_s=(\S+) median_s=(\S+)")
HEADER_RE = re.compile(r"#\s*(bench|quick|numexpr|variant|goal(?:\s+--[\w-]+)?):\s*(.*?)\s*$")


class BenchError(Exception):
    """A step that failed for one program: the message goes in the table's notes."""


# ---- the programs --------------------------------------------------------------
class Bench:
    """One bench/*.npx program and what its header says about benchmarking it."""

    def __init__(self, path):
        self.path, self.name = path, os.path.splitext(os.path.basename(path))[0]
        self.header = {"numexpr": [], "variant": []}
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = HEADER_RE.match(line)
                if not m:
                    continue
                key, value = re.sub(r"\s+", " ", m.group(1)), m.group(2)
                if key in ("numexpr", "variant"):
                    self.header[key].append(value)
                else:
                    self.header[key] = value
        if "bench" not in self.header:
            raise BenchError("%s has no '# bench:' line" % path)
        self.prog = npxref.Program(path)

    def variants(self):
        """The npxc flag sets to build with: the default first."""
        return [""] + self.header["variant"]

    def goal(self, variant):
        return self.header.get("goal " + variant if variant else "goal", "")

    def run_args(self, quick):
        """(seed, {symbol: size}) from the `# bench:` (or `# quick:`) line."""
        text = self.header["quick" if quick and "quick" in self.header else "bench"]
        seed, dims, words = 0, {}, shlex.split(text)
        it = iter(words)
        for w in it:
            if w == "--random":
                seed = int(next(it))
            elif w == "--dim":
                sym, n = next(it).split("=")
                dims[sym] = int(n)
            else:
                raise BenchError("%s: '# bench:' may hold only --random and --dim, not %r"
                                 % (self.path, w))
        return seed, dims

    def shapes(self, dims):
        """Each input's (name, dtype, shape) in declaration order."""
        out = []
        for name, dtype, decl, _ in self.prog.inputs:
            shape = []
            for d in decl:
                if isinstance(d, str):
                    if d not in dims:
                        raise BenchError("%s: size %s of input %s needs --dim %s=N on the '# bench:' line"
                                         % (self.path, d, name, d))
                    d = dims[d]
                shape.append(d)
            out.append((name, np.dtype(dtype), tuple(shape)))
        return out


# The table's order; programs not named here follow, by name.
ORDER = ["arith", "transcend", "softmax", "sum_axis0", "sum_axis1", "sum_all",
         "bincount_i64", "bincount_i32", "autoencoder", "attention", "train", "rnn"]


def find_benches(only):
    names = sorted(f[:-4] for f in os.listdir(HERE) if f.endswith(".npx"))
    names.sort(key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))
    benches = [Bench(os.path.join(HERE, n + ".npx")) for n in names]
    if only:
        names = {b.name for b in benches}
        unknown = [n for n in only if n not in names]
        if unknown:
            raise BenchError("unknown program %s (have: %s)"
                             % (", ".join(unknown), ", ".join(sorted(names))))
        benches = [b for b in benches if b.name in only]
    return benches


def make_inputs(bench, directory, quick):
    """Writes every input as DIR/NAME.npy from the --random generator; returns
    the program's NAME=FILE arguments and the size column's text."""
    seed, dims = bench.run_args(quick)
    shapes = bench.shapes(dims)
    os.makedirs(directory, exist_ok=True)
    args = []
    for k, (name, dtype, shape) in enumerate(shapes):
        file = os.path.join(directory, name + ".npy")
        np.save(file, npxref.random_array(shape, dtype, seed, k))
        args.append("%s=%s" % (name, file))
    return args, size_text(shapes, dims)


def short_int(n):
    for unit, s in ((10 ** 6, "M"), (10 ** 3, "k")):
        if n >= unit and n % unit == 0:
            return "%d%s" % (n // unit, s)
    return str(n)


def size_text(shapes, dims):
    """'3 x f32[10M]' when the inputs are alike, else the sizes by symbol."""
    kinds = {(dt, sh) for _, dt, sh in shapes}
    if len(kinds) == 1:
        dt, sh = kinds.pop()
        count = "%d x " % len(shapes) if len(shapes) > 1 else ""
        return "%s%s[%s]" % (count, short_dtype(dt), ",".join(short_int(n) for n in sh))
    return " ".join("%s=%s" % (s, short_int(n)) for s, n in dims.items())


def short_dtype(dt):
    return {"float32": "f32", "float64": "f64", "int32": "i32", "int64": "i64", "bool": "bool"}[dt.name]


# ---- running things ------------------------------------------------------------
def run_cmd(cmd, env=None, timeout=600):
    try:
        return subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise BenchError("%s timed out after %d s" % (os.path.basename(cmd[0]), timeout))


def first_line(text):
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[0].strip() if lines else ""


def compile_prog(opts, bench, variant, directory):
    """npxc --exe; returns the program's path."""
    os.makedirs(directory, exist_ok=True)
    c_file = os.path.join(directory, bench.name + ".c")
    cmd = [opts["npxc"], bench.path, "-o", c_file, "--exe"] + shlex.split(variant)
    r = run_cmd(cmd)
    if r.returncode != 0:
        raise BenchError("npxc %s(exit %d): %s" % (variant + " " if variant else "", r.returncode,
                                                  first_line(r.stderr) or first_line(r.stdout)))
    return os.path.splitext(c_file)[0]


def bench_once(exe, args, n, out_dir, env, timeout):
    cmd = [exe] + args + ["--bench", str(n), "-o", out_dir]
    r = run_cmd(cmd, env=env, timeout=timeout)
    if r.returncode != 0:
        raise BenchError("%s exited %d: %s" % (os.path.basename(exe), r.returncode, first_line(r.stderr)))
    m = BENCH_RE.fullmatch(r.stdout.strip())
    if not m:
        raise BenchError("%s --bench printed %r, not one npx-bench line" % (os.path.basename(exe),
                                                                           r.stdout.strip()[:200]))
    return int(m.group(1)), float(m.group(2)), float(m.group(3))


def run_count(target_s, per_run_s):
    return int(min(10000, max(3, round(target_s / max(per_run_s, 1e-6)))))


def time_prog(opts, exe, args, out_dir):
    """The program's median time per run: a calibration run (whose outputs are
    the ones checked), a short probe set, then `repeat` run sets of about
    target_s seconds each. Each set's N comes from the wall time the last one
    took, not from its median alone: on a busy machine a few descheduled runs
    can make a set last many times N x median."""
    env = dict(os.environ, OMP_NUM_THREADS=str(opts["threads"]))
    shutil.rmtree(out_dir, ignore_errors=True)     # no outputs of an earlier build
    os.makedirs(out_dir)
    t0 = time.perf_counter()
    _, _, first = bench_once(exe, args, 1, out_dir, env, timeout=300)
    overhead = max(0.0, time.perf_counter() - t0 - 2 * first)   # start, inputs, outputs
    n = run_count(0.1 * opts["target_s"], first)     # a short probe set first, not counted
    medians, fastest, runs = [], float("inf"), 0
    scratch = out_dir + ".scratch"
    for k in range(-1, opts["repeat"]):
        t0 = time.perf_counter()
        _, lo, med = bench_once(exe, args, n, scratch, env,
                                timeout=max(120, 20 * (overhead + (n + 1) * first)))
        wall = time.perf_counter() - t0
        if k >= 0:
            medians.append(med)
            fastest = min(fastest, lo)
            runs += n
        n = run_count(opts["target_s"], max(med, (wall - overhead) / (n + 1)))
    shutil.rmtree(scratch, ignore_errors=True)
    return {"median_s": statistics.median(medians), "min_s": fastest, "runs": runs}


def numpy_env(threads):
    """The NumPy subprocess's environment: thread counts fixed before NumPy
    loads, and OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE unset (where a machine sets
    them for old OpenBLAS builds, they slow a current NumPy down)."""
    env = dict(os.environ)
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                "NUMEXPR_NUM_THREADS", "NUMEXPR_MAX_THREADS"):
        env[var] = str(threads)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    return env


def time_numpy(opts, bench, input_dir, out_dir):
    cmd = [sys.executable, os.path.join(HERE, "numpy_timer.py"), bench.path, "--inputs", input_dir,
           "--out", out_dir, "--target-s", str(opts["target_s"]), "--repeat", str(opts["repeat"])]
    r = run_cmd(cmd, env=numpy_env(opts["threads"]))
    if r.returncode != 0:
        raise BenchError("NumPy timing failed: %s" % (r.stderr.strip().splitlines() or ["?"])[-1])
    return json.loads(r.stdout.strip().splitlines()[-1])


def compare(opts, got_dir, ref_dir):
    """npxcmp of two output directories: ('ok' | 'FAIL', npxcmp's report)."""
    r = run_cmd([opts["npxcmp"], got_dir, ref_dir, "--rtol", RTOL, "--atol", ATOL])
    text = (r.stdout + r.stderr).strip()
    return ("ok" if r.returncode == 0 else "FAIL"), text


# ---- one program ---------------------------------------------------------------
def run_bench(opts, bench):
    """The table rows of one program: one per variant."""
    base = os.path.join(opts["build"], bench.name)
    input_dir = os.path.join(base, "inputs")
    rows = []
    args, size = make_inputs(bench, input_dir, opts["quick"])
    try:
        ref = time_numpy(opts, bench, input_dir, base)
    except BenchError as e:
        ref = {"error": str(e)}
    for variant in bench.variants():
        label = bench.name + (" " + variant if variant else "")
        row = {"program": label, "size": size, "goal": bench.goal(variant), "npxc": None,
               "numpy": ref.get("numpy"), "numexpr": ref.get("numexpr") if not variant else None,
               "check": "n/a", "notes": []}
        if "error" in ref:
            row["notes"].append(ref["error"])
        tag = re.sub(r"[^A-Za-z0-9]+", "", variant) or "default"
        try:
            exe = compile_prog(opts, bench, variant, os.path.join(base, tag))
            out_dir = os.path.join(base, tag, "out")
            row["npxc"] = time_prog(opts, exe, args, out_dir)
            if "error" not in ref:
                row["check"], report = compare(opts, out_dir, os.path.join(base, "numpy"))
                row["check_report"] = report
                if row["check"] != "ok":
                    row["notes"].append("npxcmp: " + report)
        except BenchError as e:
            row["notes"].append(str(e))
        ne = row["numexpr"]
        if ne and "error" not in ne:
            status, report = compare(opts, os.path.join(base, "numexpr"), os.path.join(base, "numpy"))
            if status != "ok":
                row["notes"].append("NumExpr's result differs from NumPy's: " + report)
        rows.append(row)
    for key in ("numpy_version", "numexpr_version", "blas"):
        if key in ref:
            opts["versions"][key] = ref[key]
    return rows


# ---- the table -----------------------------------------------------------------
COLUMNS = ["program", "size", "npxc ms", "NumPy ms", "NumPy/npxc", "best runs", "NumExpr ms",
           "NumExpr/npxc", "goal (NumPy/npxc)", "check"]


def ms(t):
    if t is None:
        return "n/a"
    v = t * 1e3
    return "%.3g" % v if v < 100 else "%.0f" % v


def ratio(num, den):
    if num is None or den is None or den <= 0:
        return "n/a"
    r = num / den
    return "%.1f" % r if r >= 10 else "%.2f" % r if r >= 0.1 else "%.2g" % r


def cells(row):
    npxc = row["npxc"]["median_s"] if row["npxc"] else None
    numpy_t = row["numpy"]["median_s"] if row["numpy"] else None
    best = ratio(row["numpy"]["min_s"] if row["numpy"] else None, row["npxc"]["min_s"] if row["npxc"] else None)
    ne = row["numexpr"]
    if ne is None:
        ne_t, ne_cell = None, "-"
    elif "error" in ne:
        ne_t, ne_cell = None, "n/a"
    else:
        ne_t = ne["median_s"]
        ne_cell = ms(ne_t)
    goal = row["goal"].replace(">=", "≥")
    return [row["program"], row["size"], ms(npxc), ms(numpy_t), ratio(numpy_t, npxc), best, ne_cell,
            ratio(ne_t, npxc) if ne_t is not None else "-", goal or "-", row["check"]]


def table(rows):
    body = [cells(r) for r in rows]
    widths = [max(len(c), *(len(b[i]) for b in body)) for i, c in enumerate(COLUMNS)]
    right = {2, 3, 4, 5, 6, 7}

    def line(cs):
        return "| " + " | ".join(c.rjust(w) if i in right else c.ljust(w)
                                 for i, (c, w) in enumerate(zip(cs, widths))) + " |"
    sep = "|" + "|".join(("-" * (w + 1) + ":") if i in right else ("-" * (w + 2))
                         for i, w in enumerate(widths)) + "|"
    return "\n".join([line(COLUMNS), sep] + [line(b) for b in body])


def notes_text(rows):
    out = []
    for r in rows:
        for n in r["notes"]:
            n = " ".join(n.split())
            out.append("- %s: %s" % (r["program"], n if len(n) < 600 else n[:600] + " ..."))
    return "\n".join(out)


# ---- the machine -----------------------------------------------------------------
def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def tool_line(cmd):
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=30)
        return first_line(r.stdout) or "unknown"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def git_commit():
    commit = tool_line(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"])
    dirty = tool_line(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"])
    return commit + (" with uncommitted changes" if dirty not in ("", "unknown") else "")


def npxc_build_state(opts):
    """When build/npxc was built, and whether `make -q` finds it out of date."""
    built = datetime.datetime.fromtimestamp(os.path.getmtime(opts["npxc"]), datetime.timezone.utc)
    text = "built %s" % built.strftime("%Y-%m-%d %H:%M UTC")
    if opts["npxc"] == os.path.join(ROOT, "build", "npxc"):
        try:
            r = subprocess.run(["make", "-q", "-C", ROOT, "all"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=60)
            if r.returncode == 1:
                text += "; older than the sources: make would rebuild it"
        except (OSError, subprocess.TimeoutExpired):
            pass
    return text


def loadavg():
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def machine_lines(opts):
    v = opts["versions"]
    cc = os.environ.get("CC", "cc")
    coretype = [k + "=" + os.environ[k] for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if k in os.environ]
    lines = [
        "machine: %s, %s, %s cores (%s threads used by both sides)"
        % (platform.machine(), cpu_model(), os.cpu_count(), opts["threads"]),
        "NumPy %s, BLAS: %s" % (v.get("numpy_version", np.__version__), v.get("blas", "not loaded")),
        "NumExpr: %s" % v.get("numexpr_version", "not installed"),
        "C compiler ($CC=%s): %s; flags: those of npxc --exe" % (cc, tool_line([cc, "--version"])),
        "npxc: %s, commit %s, %s" % (tool_line([opts["npxc"], "--version"]), git_commit(),
                                     opts["npxc_state"]),
        "method: each program runs %d times with --bench N (N for ~%.1f s a set), npxc's time is the median of "
        "the medians; NumPy: warm-up, then %d groups of ~%.1f s, the median of the group medians; "
        "check: npxcmp --rtol %s --atol %s against NumPy's outputs"
        % (opts["repeat"], opts["target_s"], opts["repeat"], opts["target_s"], RTOL, ATOL),
    ]
    load = opts.get("load")
    if load:
        lines.append("load average (1 min) at the start and the end: %s and %.2f%s"
                     % (load, loadavg(), "; other work was running: the 2-thread npxc programs suffer "
                        "more from it than single-threaded NumPy" if max(float(load), loadavg()) > 0.5 else ""))
    if coretype:
        lines.append("environment: %s (unset for the NumPy timing only)" % " ".join(coretype))
    return lines


def save_results(opts, rows, started):
    title = "## %s, %s%s" % (started.strftime("%Y-%m-%d %H:%M UTC"),
                            "quick sizes" if opts["quick"] else "full sizes",
                            (" (only " + ", ".join(opts["only"]) + ")") if opts["only"] else "")
    section = [title, ""] + ["- " + ln for ln in machine_lines(opts)] + ["", table(rows), ""]
    notes = notes_text(rows)
    if notes:
        section += ["Notes:", "", notes, ""]
    if os.path.exists(RESULTS):
        with open(RESULTS, encoding="utf-8") as f:
            text = f.read()
    else:
        text = ("# Benchmark results\n\n"
                "Written by `make bench` (bench/run.py): one section per run, newest first. Times are "
                "milliseconds per run (median); NumPy/npxc above 1 means npxc is faster. The goals are "
                "what npxc aims for, not a pass mark. See bench/README.md.\n\n" + RESULTS_MARK + "\n")
    if RESULTS_MARK not in text:
        text = text.rstrip("\n") + "\n\n" + RESULTS_MARK + "\n"
    head, tail = text.split(RESULTS_MARK, 1)
    older = tail.strip("\n")
    text = head + RESULTS_MARK + "\n\n" + "\n".join(section) + ("\n" + older if older else "")
    tmp = RESULTS + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text.rstrip("\n") + "\n")
    os.replace(tmp, RESULTS)


# ---- main ------------------------------------------------------------------------
USAGE = __doc__.split("\n\n")[1]


def parse_args(argv):
    opts = {"quick": False, "only": [], "threads": 2, "target_s": None, "repeat": None, "save": None,
            "build": os.path.join(ROOT, "build", "bench"), "npxc": os.path.join(ROOT, "build", "npxc"),
            "npxcmp": os.path.join(ROOT, "build", "npxcmp"), "versions": {}}
    it = iter(argv)
    try:
        for a in it:
            if a == "--quick":
                opts["quick"] = True
            elif a == "--only":
                opts["only"] += [n for n in next(it).split(",") if n]
            elif a in ("--threads", "--repeat"):
                opts[a[2:]] = int(next(it))
            elif a == "--target-s":
                opts["target_s"] = float(next(it))
            elif a in ("--save", "--no-save"):
                opts["save"] = a == "--save"
            elif a in ("--build", "--npxc", "--npxcmp"):
                opts[a[2:]] = os.path.abspath(next(it))
            elif a in ("-h", "--help"):
                print(__doc__)
                sys.exit(0)
            else:
                raise ValueError(a)
    except (StopIteration, ValueError) as e:
        sys.stderr.write("run.py: bad argument %s\n%s\n" % (e, USAGE))
        sys.exit(2)
    # --quick: small sizes, short run sets, not saved unless asked.
    if opts["target_s"] is None:
        opts["target_s"] = 0.2 if opts["quick"] else 1.0
    if opts["repeat"] is None:
        opts["repeat"] = 2 if opts["quick"] else 3
    if opts["save"] is None:
        opts["save"] = not opts["quick"]
    return opts


def main(argv):
    opts = parse_args(argv)
    for tool in ("npxc", "npxcmp"):
        if not os.access(opts[tool], os.X_OK):
            sys.stderr.write("run.py: %s not found: run make first\n" % opts[tool])
            return 2
    started = datetime.datetime.now(datetime.timezone.utc)
    opts["load"] = "%.2f" % loadavg()
    opts["npxc_state"] = npxc_build_state(opts)
    try:
        benches = find_benches(opts["only"])
    except (BenchError, npxref.NpxError) as e:
        sys.stderr.write("run.py: %s\n" % e)
        return 2
    rows = []
    for k, bench in enumerate(benches, 1):
        t0 = time.perf_counter()
        sys.stderr.write("[%d/%d] %s ..." % (k, len(benches), bench.name))
        sys.stderr.flush()
        try:
            new = run_bench(opts, bench)
        except (BenchError, npxref.NpxError, OSError) as e:
            new = [{"program": bench.name, "size": "?", "goal": bench.goal(""), "npxc": None, "numpy": None,
                    "numexpr": None, "check": "n/a", "notes": [str(e)]}]
        rows += new
        sys.stderr.write(" %.1f s: %s\n" % (time.perf_counter() - t0, "; ".join(
            "%s npxc %s ms, NumPy %s ms, %s" % (r["program"], cells(r)[2], cells(r)[3], r["check"])
            for r in new)))
    print()
    print("\n".join(machine_lines(opts)))
    print()
    print(table(rows))
    notes = notes_text(rows)
    if notes:
        print("\nNotes:\n" + notes)
    os.makedirs(opts["build"], exist_ok=True)
    with open(os.path.join(opts["build"], "results.json"), "w", encoding="utf-8") as f:
        json.dump({"started": started.isoformat(), "quick": opts["quick"], "threads": opts["threads"],
                   "versions": opts["versions"], "rows": rows}, f, indent=1)
    if opts["save"]:
        save_results(opts, rows, started)
        print("\nsaved to %s" % os.path.relpath(RESULTS))
    bad = [r for r in rows if r["check"] == "FAIL" or (r["npxc"] is None and not is_unimplemented(r))]
    return 1 if bad else 0


def is_unimplemented(row):
    """A variant npxc declines ('not implemented yet') is n/a, not a failure."""
    return any("not implemented" in n for n in row["notes"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
