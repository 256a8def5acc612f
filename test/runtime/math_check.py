"""math_check.py: checks math_check's output (npx_math.h) against NumPy.
Usage: math_check | python3 math_check.py
Each line "TYPE OP A B RESULT" is recomputed with NumPy on arrays (the
ufunc loops generated code must match); floats compare bit for bit, any NaN
equal to any NaN. Prints each mismatch; exit 1 if there is one."""
import sys
from collections import defaultdict

import numpy as np

DT = {"i32": np.int32, "i64": np.int64, "f32": np.float32, "f64": np.float64}
UINT = {"f32": np.uint32, "f64": np.uint64}
UFUNC = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "floordiv": np.floor_divide,
    "mod": np.remainder, "pow": np.power, "shl": np.left_shift, "shr": np.right_shift,
    "neg": np.negative, "abs": np.abs, "sign": np.sign, "maximum": np.maximum,
    "minimum": np.minimum, "fmax": np.fmax, "fmin": np.fmin,
}
UNARY = {"neg", "abs", "sign"}


def decode(t, texts):
    if t in UINT:
        return np.array([int(s, 16) for s in texts], dtype=UINT[t]).view(DT[t])
    return np.array([int(s) for s in texts], dtype=DT[t])


def numpy_result(t, op, a, b):
    with np.errstate(all="ignore"):
        if op.startswith("to_"):
            return a.astype(DT[op[3:]])
        if op.split("_")[0] in UNARY:
            return UFUNC[op.split("_")[0]](a)
        return UFUNC[op.split("_")[0]](a, b)


def same(x, y):
    if x.dtype.kind == "f":
        return (np.isnan(x) & np.isnan(y)) | (x.view(UINT["f32" if x.itemsize == 4 else "f64"])
                                              == y.view(UINT["f32" if y.itemsize == 4 else "f64"]))
    return x == y


def main():
    groups = defaultdict(list)
    for line in sys.stdin:
        t, op, a, b, r = line.split()
        groups[(t, op)].append((a, b, r))
    bad = 0
    for (t, op), rows in sorted(groups.items()):
        a = decode(t, [row[0] for row in rows])
        b = decode(t, [row[1] for row in rows]) if not op.startswith("to_") else None
        rt = op[3:] if op.startswith("to_") else t
        got = decode(rt, [row[2] for row in rows])
        want = numpy_result(t, op, a, b)
        ok = same(got, want)
        for k in np.nonzero(~ok)[0]:
            bad += 1
            bk = "" if b is None else f", {b[k]!r}"
            print(f"{t} {op}({a[k]!r}{bk}): npx_math {got[k]!r}, NumPy {want[k]!r}")
    print(f"{sum(len(r) for r in groups.values())} cases, {bad} mismatches")
    sys.exit(1 if bad else 0)


main()
