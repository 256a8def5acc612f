"""break_statements.py: error recovery over every valid program.

Breaks one of the first assignments of each program in test/programs,
samples and bench in a few ways (a function NumPy lacks, a name never bound,
a syntax error, shapes that cannot broadcast), with the program's inputs kept
and with them dropped (then the statements that read them fail too), and
runs npxc on each: it must exit 1 with a located error and write no output,
never crash or hang. Prints one line per failure and exits 1 if any.
Usage: python3 break_statements.py NPXC ROOT WORKDIR"""
import glob
import os
import re
import subprocess
import sys

NPXC, ROOT, WORK = sys.argv[1:4]
BREAKS = ["np.frobnicate(1)", "never_bound", "x[", "np.zeros(2) + np.zeros(3)"]
ASSIGN = re.compile(r"^(\s*[A-Za-z_]\w*\s*=)[^=]")
FIRST_ASSIGNMENTS = 6

programs = sorted(glob.glob(os.path.join(ROOT, d, "*.npx")) for d in ("test/programs", "samples", "bench"))
failures = runs = 0
for path in (p for group in programs for p in group):
    lines = open(path).read().split("\n")
    for keep_inputs in (True, False):
        source = lines if keep_inputs else [l for l in lines if not l.startswith("input ")]
        assigns = [i for i, l in enumerate(source) if ASSIGN.match(l)][:FIRST_ASSIGNMENTS]
        for i in assigns:
            for broken in BREAKS:
                prog = os.path.join(WORK, "broken.npx")
                out = os.path.join(WORK, "out.c")
                with open(prog, "w") as f:
                    f.write("\n".join(source[:i] + [ASSIGN.match(source[i]).group(1) + " " + broken] + source[i + 1:]))
                runs += 1
                try:
                    r = subprocess.run([NPXC, prog, "-o", out], capture_output=True, text=True, timeout=60)
                    status, err = r.returncode, r.stderr
                except subprocess.TimeoutExpired:
                    status, err = "timeout", ""
                if status != 1 or ": error: " not in err or os.path.exists(out):
                    failures += 1
                    print("%s line %d as '%s'%s: exit %s\n%s" % (os.path.relpath(path, ROOT), i + 1, broken,
                          "" if keep_inputs else " (inputs dropped)", status, err[-400:]))
                    if os.path.exists(out):
                        os.remove(out)
print("%d broken programs, %d failures" % (runs, failures))
sys.exit(1 if failures else 0)
