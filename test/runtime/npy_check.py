"""npy_check.py: the runtime's .npy reader, writer and printer against NumPy.
Usage: python3 npy_check.py NPY_TOOL DIR
  - every dtype, ranks 0..3 (and empty arrays): numpy.save -> npy_tool copy
    gives the same bytes as numpy.save, and np.load reads it back equal;
  - npy_tool print gives what repr() gives, for a set of arrays;
  - a valid file cut at every length, or with a byte changed, is read or
    rejected cleanly (exit 0 or 1, nothing on stderr: no sanitizer report).
Prints each failure; exit 1 if there is one."""
import os
import subprocess
import sys

import numpy as np

TOOL, DIR = sys.argv[1], sys.argv[2]
DTYPES = [np.bool_, np.int32, np.int64, np.float32, np.float64]
SHAPES = [(), (1,), (5,), (2, 3), (3, 1, 4), (0,), (2, 0, 3), (1000,), (12345678901, 0)]
failures = []


def sample(dtype, shape):
    rng = np.random.default_rng(sum(shape) + len(shape))
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    return (rng.standard_normal(shape) * 100).astype(dtype)


def roundtrip(dtype, shape):
    a = sample(dtype, shape)
    src = os.path.join(DIR, "src.npy")
    dst = os.path.join(DIR, "dst.npy")
    np.save(src, a)
    r = subprocess.run([TOOL, "copy", src, dst], capture_output=True, text=True)
    what = f"{np.dtype(dtype).name} {shape}"
    if r.returncode != 0:
        failures.append(f"copy {what}: {r.stdout}{r.stderr}")
        return
    if open(src, "rb").read() != open(dst, "rb").read():
        failures.append(f"copy {what}: bytes differ from numpy.save")
    b = np.load(dst)
    if b.dtype != a.dtype or b.shape != a.shape or not np.array_equal(a, b):
        failures.append(f"copy {what}: np.load gives a different array")
    if os.path.exists(dst + ".tmp"):
        failures.append(f"copy {what}: left {dst}.tmp")


def printed(a):
    path = os.path.join(DIR, "p.npy")
    np.save(path, a)
    r = subprocess.run([TOOL, "print", path], capture_output=True, text=True)
    want = "a = " + repr(a) + "\n"
    if r.stdout != want:
        failures.append(f"print: want\n{want}got\n{r.stdout}{r.stderr}")


PRINT_CASES = [
    np.array(1.5), np.array(3, np.int32), np.array(True), np.array(-0.0, np.float32),
    np.arange(6, dtype=np.float32).reshape(2, 3), np.arange(6).reshape(2, 3) - 3,
    np.array([1.5, 2.25, -10.0]), np.array([0.1, 0.2, 0.3], np.float32),
    np.array([1e-5, 1.0, 1e10]), np.array([1.5e-5, 2.0]), np.array([1e20, -1e-20, 0.0]),
    np.array([np.nan, np.inf, -np.inf, 1.0]), np.array([np.nan, -np.inf]),
    np.array([1e6, 2.5], np.float32), np.array([123456.7], np.float32),
    np.array([True, False, True]), np.array([True, True]),
    np.linspace(0, 1, 40), np.arange(100, dtype=np.int32), np.arange(2000),
    np.arange(2000, dtype=np.float32) / 7, np.arange(24.0).reshape(2, 3, 4),
    np.arange(3000).reshape(30, 100), np.ones((11, 11, 11)), np.zeros((0, 3), np.float32),
    np.zeros(0, np.int64), np.array([-1, 10, -100], np.int64), np.array([0.0, -0.0]),
    np.array([1 / 3, 2 / 3], np.float32), np.array([1e-300, 1e300]),
    np.array([1e100, 1.0]), np.array([[1.0, 2.0], [np.nan, 4.0]]),
    np.array([1e-100, 1e100, 1.0, -0.0]), np.array([np.inf, 1e-10]),
    np.arange(6000.0).reshape(2000, 3), np.arange(2200).reshape(10, 11, 20) * 1e3,
    np.array([2**62, -2**62, 5]), np.array([np.nan], np.float32),
    np.random.default_rng(1).standard_normal((4, 5, 6)).astype(np.float32),
    np.random.default_rng(2).random((7, 9)), np.random.default_rng(3).random(3000) < 0.5,
    np.array([0.001, 1.0]), np.array([0.0001, 0.1]), np.array([99999999.0, 1.0]),
    np.array([1e8, 1.0]), np.array([999999.0], np.float32),
]

def robust():
    np.save(os.path.join(DIR, "good.npy"), np.arange(6, dtype=np.float32).reshape(2, 3))
    good = open(os.path.join(DIR, "good.npy"), "rb").read()
    rng = np.random.default_rng(7)
    cases = [good[:n] for n in range(len(good))]
    for _ in range(300):
        b = bytearray(good)
        b[rng.integers(0, 128)] = rng.integers(0, 256)
        cases.append(bytes(b))
    path = os.path.join(DIR, "r.npy")
    for k, content in enumerate(cases):
        with open(path, "wb") as f:
            f.write(content)
        r = subprocess.run([TOOL, "read", path], capture_output=True, text=True,
                           errors="replace")
        if r.returncode not in (0, 1) or r.stderr or "\ufffd" in r.stdout:
            failures.append(f"robustness case {k}: exit {r.returncode}\n{r.stderr}")


for dt in DTYPES:
    for sh in SHAPES:
        if np.prod(sh) < 10**6:
            roundtrip(dt, sh)
for case in PRINT_CASES:
    printed(case)
robust()
for f in failures:
    print(f)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
