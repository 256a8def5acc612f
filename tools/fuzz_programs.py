#!/usr/bin/env python3
"""fuzz_programs.py: a differential fuzzer for npxc, with NumPy as the oracle.

    tools/fuzz_programs.py [--seed S] [--count N] [--first I] [--cuda-every K]
                           [--keep DIR] [--build DIR] [--work DIR] [--hostile P]
                           [--loops P] [--sorts W] [--masks W] [--setitems P]
                           [--statistics W] [--rearranging W] [--ignore REGEX ...]
                           [--show] [-v]

It writes random valid .npx programs and checks, for each one, that
  1. `npxc P.npx -o P.c --exe` and `npxc -O0 ...` succeed, warning-free (a
     diagnostic on a program NumPy accepts, a crash or a failed C build is a bug);
  2. the program run on `--random SEED --dim ...` gives what test/ref/npxref.py
     (NumPy 2 itself) gives on the same inputs: same files, dtypes and shapes,
     integers and booleans equal, floats within npxcmp tolerances (per output:
     f32 --rtol 1e-4 --atol 1e-5, f64 --rtol 1e-9 --atol 1e-12);
  3. likewise for the -O0 build, and every K-th program for the CUDA target
     built against the host emulation (g++ -x c++, NPX_EMU_ORDER=shuffle);
  4. on sizes where NumPy raises (an index past a short axis, max of an empty
     axis, reshape(B, -1) of nothing ...), every build exits 3, a run-time error.
Each program runs on up to three sets of sizes: ordinary ones (2..257, at most
40000 elements in all; 6000 for the CUDA-emulated ones, as the emulation runs a
reduction's blocks one by one) and edge ones (0, 1, 7, 33); when NumPy raises on
the edge sizes, they become the set of step 4, and a set with the zeros made
ones is added.

What the programs use: arithmetic, comparison and bitwise operators, op=, the
elementwise math and logic functions, astype, reductions (axis int/tuple/None,
keepdims), argmax/argmin, var/std (ddof, keepdims, axis tuples), cumsum (each
axis and None), dot/matmul/@/outer on 1-D and 2-D floats, matmul/@ of stacks of
matrices in every dtype (3-D and 4-D operands, inputs among them; stacks that
broadcast, [1, K, N], a matrix or a vector against a stack; operands made by
swapaxes/.T/transpose, [None], expand_dims, stack), einsum (1-3 operands:
arrays of every dtype, transposed, swapped or sliced, and Python numbers or
sizes; labels shared where lengths agree or one is 1, upper- and lowercase,
spaces; '...' under some axes of some operands; explicit and implicit outputs;
optimize=True/False), transpose/.T/swapaxes,
expand_dims, squeeze (axis= or all), broadcast_to, reshape (-1, literal factors,
symbols, NAME.shape[k], regrouped axes), ravel/.flatten(), concatenate (2-4
arrays, any axis or None) and stack, basic indexing (integer constants incl.
negative, slices with constant bounds and negative steps, None, `...`, on
literal and symbolic axes, so lengths like B-1 and V[::-2]), zeros/ones/full
(_like), arange, linspace (endpoint=, dtype=, num a literal or a size), eye
(N, M, k, dtype=), and size symbols, NAME.shape[k], .ndim and .size as values;
integer-array indexing of every dtype, on inputs and computed values (x[idx],
x[:, idx], x[0, idx], x[idx, 1:], x[None, idx], `...`; one index array or two on
neighbouring axes, broadcast together as they are or as i[:, None] with j or
j[None, :]; 0-d and 1-D and 2-D index arrays, a size as a Python int), and
np.take / .take (axis None, k or negative, mode='raise'); dtypes also as strings
('float32', 'f8', 'i4', 'int64', '?', ...) in astype and dtype=.

Sorting (--sorts W: its weight among the expressions, arithmetic's being 8):
np.sort, np.argsort and .argsort along an axis (default, negative, positional)
or axis=None, of every dtype, with kind= (quicksort, heapsort, mergesort,
stable, None) or stable=True/False; argsort only of exact operands (its
positions are discontinuous) and always stable (kind='stable'/'mergesort' or
stable=True: NumPy's other kinds leave the order of ties unspecified); sort of
any operand (its values are continuous). Now and then argsort's positions
gather: a[np.argsort(a, kind='stable')], np.take(a, np.argsort(a, axis=None)).

Boolean masks (--masks W): x[mask], the mask over all of x's axes or its first
ones (rows), made from x (x > 0.5, x % 2 == 0, x[..., 0] > t, x.max(axis=...)
< t, a bool x), from another exact value of the right shape, or a bool value,
the threshold in a loop now and then moving with the counter (x > i * 0.25);
np.flatnonzero; np.count_nonzero (axis None, int, tuple, positional; keepdims).
A masked value's length (?nonzero) is data: the Node says so (nz), and what
npxc does not support on such a value is not generated: indexing, slicing,
gathering from it or with it, reshape/ravel and concatenate of it, squeezing it
(its axes are not taken for literal 1s), a carried name of that shape, reading
a name bound only in a loop to such a value after the loop. A mask whose
count is 1 on a generic size set is thrown away: that 1 would broadcast, which
npxc never does for a length it learns at run time (nor for a symbol's).
--loops 0 --sorts 0 --masks 0 gives the programs of before, program for program.

Element assignment (--setitems P: the rate of statements that are one):
x[mask] = v, x[0] += v, x[-1] -= v, x[1::2] *= v, x[:-1] = v, x[...] = v with a
literal value (op= only of the array's kind), with a mask a value made from
what the same mask selects (x[x > 0.5] = x[x > 0.5] * 2), or, by integers and slices, a
part of x that overlaps the selection (x[:-1] = x[1:], x[0] += x[-1],
x[1::2] = x[1::2][::-1]), on arrays of a length the sizes give. NumPy changes every name that shares the array; npxc refuses those
programs ("changing a shared array is not supported yet"), counted as
discarded. Statistics (--statistics W): median, quantile, percentile (one
axis or None, keepdims), nansum, nanmean, nanmax, nanmin, nanvar, nanstd
(NaNs made by a mask first, now and then), cumprod, unique and pad.
--setitems 0 --statistics 0 gives the programs of before.

Rearranging (--rearranging W, 0 by default): flip (an axis, a pair or all),
flipud, fliplr, roll (a shift, an axis or flattened), diff (n=1, 2; any axis),
tril/triu (k), tile, repeat (a count, an axis or flattened), diagonal, diag and
trace (of square matrices or matrices of literal sizes: npxc does not know yet
the length of other diagonals; diag of a vector), nan_to_num (NaNs made first;
nan=, posinf=/neginf=), logaddexp, isclose and round (decimals 0, 1, 2, -1).

For loops (--loops P: the rate of top-level statements that are loops; 0 gives
the programs of before loops, program for program): `for NAME in range(...):`
with range(stop), range(start, stop), range(start, stop, step), bounds of
literals, size symbols, NAME.shape[k] (of axes not too long), arithmetic of
them (B - 1, B // 2, 2 * i + 1) and enclosing loops' counters; steps of +-1,
2, 3; loops that never run (range(0), range(4, 1), range(B, 0), range(i, i));
at most one loop of a nest runs over a size. A body (1-4 statements, indented
by 2, 3, 4 or 8) holds assignments, op=, nested loops (two deep) and, most of
all, rebindings y = f(y, e) of names bound before the loop, which the loop
carries: arrays (y * 0.5 + e, np.maximum(y, e), np.where(c, y, e), y[::-1],
cast back with astype when only the dtype changed) and Python numbers
(acc = acc * 3 + (i - j), acc = (acc + i) % 7), often accumulators bound just
before the loop (0, 0.0, np.zeros((), dtype=f32), zeros_like(x)). A carried
name must keep its type (Python number or array), dtype and shape, else the
candidate is thrown away (npxc's compile error, NumPy's behaviour otherwise).
The counter is a Python int in expressions (x * i, i % 7 // j) and indexes:
x[i], x[..., -1 - i], x[:, i % V], x[i % L - L, 1:]. Names bound only in a body
keep their last iteration's value and may be read after the loop or be
outputs; where a loop runs zero times on some sizes (range(B - 1) on B = 0,
an inner range(i)), NumPy's NameError is the fuzzer's too: every build must
exit 3 there (step 4). A name bound only in a loop that never runs is never
read after it. A name bound only inside an inner loop whose range
depends on an enclosing loop's counter (for j in range(i)) is never read after
that loop (npxc: not supported yet). The generator evaluates a loop as Python does, every
iteration, on the generic sizes (the body is written against its first
iteration; a carried name must also keep its "exactness", see below).

How programs stay valid and comparisons stay meaningful:
  * Every expression is evaluated with NumPy while it is generated, on inputs of
    two sets of "generic" sizes (GENERIC: each size symbol a prime no literal
    size or other symbol equals, different in the two sets), so anything NumPy
    rejects (broadcasting, NEP 50 overflow of a literal, an unsupported result
    dtype such as int8, an index out of range) is thrown away before it is
    written; what remains is valid for every binding of the symbols, except
    where a short axis meets an index, an empty axis meets max, or a derived
    length (x[:3], B-1) meets a literal: step 4 checks npxc's errors there.
    Sizes where a value's rank would depend on them (squeeze() of an axis of
    run-time length 1) are never run: npxc fixes ranks at compile time, and
    squeezes only the axes of literal length 1.
  * Divisibility: a program may constrain one symbol to multiples of m (2, 3, 4
    or 6; the generic sizes are then multiples too), and every size set run
    keeps that, so reshape(-1, 6) of f32[B, V] (B*V/6) is generated and valid.
  * Floats are compared with tolerances, so discontinuous operations (floor,
    //, %, comparisons, astype to int or bool, argmax, any/all, sign ...) only
    take "exact" float operands: inputs, literals, and results of correctly
    rounded or data-movement operations (+ - * / sqrt, max, where, slices,
    reshape, concatenate ...), never results of transcendental functions, of
    sums, cumsum, var or linspace (except dyadic linspaces), whose last bits
    legitimately differ. Integer and boolean results are always exact.
  * Conditioning: the program is evaluated again with every inexact operation
    perturbed by a few ulps (reductions, scans and matrix products by a few
    ulps of the sum of their terms' magnitudes); a name whose value moves by
    more than a tenth of its tolerance is ill-conditioned (cancellation) and is
    not an output.
  * --hostile P: with probability P a new name is one C or libm also uses
    (HOSTILE: _Bool, NAN, expf, ...), which the generated C must rename.
  * Index arrays are made in the program so that their positions are in range
    for every size binding: n % L, n % L - L (negative), np.arange(L) and
    np.arange(L)[::-1], for integer values n of any rank and L a way to write
    the indexed axis's length (dim_leaves, NAME.size for take without axis);
    now and then positions in range on the generic sizes only (np.arange(3),
    n % 5), out of range on the edge sizes, which step 4 checks. An index array
    of an empty axis is NumPy's IndexError too (n % 0 is 0): step 4 as well.
  * einsum with optimize=True is kept only where NumPy gives what it gives
    without it (its other algorithm sums bool operands pairwise, as OR, and
    accepts '...' axes that the output omits); npxc ignores optimize=.
  * Never generated (npxc does not support them): masks beside index arrays
    (x[mask, idx]), x.sort() (in place), order=, three or more
    index arrays, index arrays apart from each other or from the integers
    indexing with them (s[i, :, j], s[0, :, i]), take's mode='clip'/'wrap',
    einsum diagonals ('ii->i') and its sublist form, dtype= on
    var/std/cumsum; in loops, a counter in a size, a slice that moves with a
    counter past its axis on some size set (npxc stops where NumPy returns a
    shorter slice), a range over an input's value, a Python number that a loop
    turns into an array.

Options for a long run: --ignore REGEX counts a program whose every failure
matches one of the REGEXes as "known" (bugs already reported); --show prints
the programs without running anything.

Prints one line per failure and a summary; exits 1 if any program failed.
Program I of seed S is the same for a given S whatever --count is (its sizes
depend on --cuda-every too), so a failure named `sS_iI` can be regenerated
with `--seed S --first I --count 1`.
Needs Python 3 and NumPy 2 only; npxc and npxcmp come from --build (default build/).
"""
import argparse
import operator
import os
import random
import re
import shutil
import subprocess
import sys
import warnings

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "ref"))
import npxref  # noqa: E402  (the oracle's --random generator, shared)

# Generation-time sizes of the symbols: two sets, so that a coincidence of one
# (H-2 == V) does not make a program valid for these sizes only.
GENERIC = [{"B": 23, "V": 29, "H": 31}, {"B": 37, "V": 43, "H": 47}]
MULT = {2: (26, 38), 3: (33, 51), 4: (28, 44), 6: (30, 42)}   # a symbol constrained to multiples of m
CUDA_CAP = 6000                                 # elements of the ordinary sizes, CUDA-emulated programs
ITER_CAP = 5000                                 # iterations of all loops in one evaluation
SIZES = "#sizes"                                # the key of an environment's symbol bindings
DT = {"bool": np.bool_, "i32": np.int32, "i64": np.int64, "f32": np.float32, "f64": np.float64}
SPELL = {"bool": ["bool"], "i32": ["i32", "np.int32", "int32"], "i64": ["i64", "np.int64"],
         "f32": ["f32", "np.float32", "float32"], "f64": ["f64", "np.float64"]}
# dtypes as strings, as NumPy reads them ('float32', 'i8', '?')
STRSPELL = {"bool": ["bool", "?", "b1"], "i32": ["int32", "i4"], "i64": ["int64", "i8"],
            "f32": ["float32", "f4"], "f64": ["float64", "f8", "double"]}
SUPPORTED = {np.dtype(t) for t in DT.values()}
TOL = {"f32": (1e-4, 1e-5), "f64": (1e-9, 1e-12)}
BINOPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
          "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "&": operator.and_,
          "|": operator.or_, "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
          "@": operator.matmul, "<": operator.lt, "<=": operator.le, ">": operator.gt,
          ">=": operator.ge, "==": operator.eq, "!=": operator.ne}
PREC = {"|": 2, "^": 3, "&": 4, "<<": 5, ">>": 5, "+": 6, "-": 6, "*": 7, "/": 7, "//": 7,
        "%": 7, "@": 7, "**": 9}
# Unary math: continuous and correctly rounded, continuous but inexact, discontinuous.
EXACT_FN = ["abs", "absolute", "negative", "positive", "sqrt", "square"]
ULP_FN = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
          "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "sinc"]
STEP_FN = ["floor", "ceil", "trunc", "rint", "sign", "isnan", "isinf", "isfinite", "logical_not"]
BIN_FN = {"maximum": "exact", "minimum": "exact", "fmax": "exact", "fmin": "exact",
          "power": "ulp", "hypot": "ulp", "arctan2": "ulp", "true_divide": "exact",
          "divide": "exact", "mod": "step", "remainder": "step", "floor_divide": "step",
          "logical_and": "step", "logical_or": "step", "logical_xor": "step"}
# Constant slices, as written (start:stop:step); some are empty on short axes.
SLICES = ["1:", ":-1", "::2", "::-1", "1:-1", "-3:", ":3", "2:5", "::-2", "-1:0:-1", "5:1:-2",
          "1::3", "-2::-1", ":0", "3:1", "0:1", "-1:", ":-2:3", "4:", ":1", ":", "::", "-4:-1",
          "::-3", "10:", "-100:100"]
# linspace(start, stop, num, endpoint) whose values are dyadic, computed exactly by any method.
EXACT_LINSPACE = [(0, 12, 5, True), (-4, 4, 5, True), (0, 8, 4, False), (10, 0, 6, True),
                  (1, 2, 5, True), (0.5, -1.5, 5, True), (0, 1, 4, False), (3, 3, 3, True)]


# Python names that are also names in C, libm, OpenMP or the generated code.
HOSTILE = ["expf", "sinhf", "log1p", "exp2", "y0", "j1", "free", "malloc", "exit", "printf",
           "errno", "index", "time", "size_t", "int64_t", "float_t", "M_PI", "NAN", "INFINITY",
           "stdout", "omp_get_thread_num", "argc", "argv", "main", "st", "i0", "n", "strip",
           "dot", "add_2", "sum_1", "tmp", "signed", "char", "int", "long", "double", "float",
           "void", "register", "restrict", "_Bool", "inline", "__m256", "rint", "fabsf", "out",
           "M_SQRT1", "M_PI_2", "M_LN2", "FP_NAN", "LONG_MAX", "EINVAL", "CLOCKS_PER_SEC", "B_1", "H_V"]


class Reject(Exception):
    """The candidate is not a valid or meaningful program; draw another."""


class Unbound(NameError):
    """A name read where it has no value: bound only in a loop that ran zero times."""


NUMPY_ERRORS = (ValueError, TypeError, IndexError, OverflowError, ZeroDivisionError,
                AttributeError, np.exceptions.AxisError, DeprecationWarning, NameError)
GEN_ERRORS = (Reject, MemoryError) + NUMPY_ERRORS      # what throws a candidate away


def kind(v):
    return np.asarray(v).dtype.kind                 # 'b', 'i' or 'f'


def check_value(v):
    if isinstance(v, (bool, int, float)) and not isinstance(v, np.generic):
        if isinstance(v, int) and not -2**63 <= v < 2**63:
            raise Reject("Python int out of int64 range")
        return v
    if not isinstance(v, (np.ndarray, np.generic)) or v.dtype not in SUPPORTED:
        raise Reject("not an npx value: %r" % type(v))
    if v.ndim > 4 or v.size > 300000:
        raise Reject("too big")
    return v


def not_too_big(*shapes):
    """Raise Reject before an operation whose operands broadcast to too many elements
    (x[:, None] * y[None, :] of two long vectors would take gigabytes)."""
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        return
    if np.prod(shape, dtype=np.float64) > 300000:
        raise Reject("too big")


def sig(v):
    """What a name carried by a loop must keep: a Python number's type, or an
    array's dtype and shape (a NumPy scalar is a 0-d array)."""
    if isinstance(v, (bool, int, float)) and not isinstance(v, np.generic):
        return type(v)
    return np.asarray(v).dtype, np.shape(v)


def same_kind_of_value(vs):
    """The values of one expression in the generic size sets: same type, dtype, rank."""
    t = [(type(v), np.asarray(v).dtype, np.ndim(v)) for v in vs]
    if any(x != t[0] for x in t):
        raise Reject("the dtype or rank depends on the sizes")


def perturb(v, how, vals, mag, rng):
    """v moved by what a different but correct implementation may give."""
    a = np.asarray(v)
    if a.dtype.kind != "f":
        return v
    eps, u = np.finfo(a.dtype).eps, rng.uniform(-1, 1, a.shape)
    if how == "ulp":
        out = a * (1 + 4 * eps * u)
    else:
        out = a + 4 * eps * u * np.asarray(mag(*vals), dtype=np.float64)
    out = np.asarray(out).astype(a.dtype)
    if isinstance(v, float) and not isinstance(v, np.generic):
        return float(out)
    return out if isinstance(v, np.ndarray) else a.dtype.type(out)


class Node:
    """An expression: source text, Python precedence (10 = atom), how to compute
    it from its operands (fn), how far it may drift (how: exact/ulp/sum, mag for
    sums) and its values gs on the generic inputs, one per size set of GENERIC
    (computed now: raises if invalid); g is the first."""
    name = None                                         # a Leaf of a name sets it

    def __init__(self, text, prec, kids, fn, how="exact", mag=None, exact=None, gs=None):
        self.text, self.prec, self.kids, self.fn, self.how, self.mag = text, prec, kids, fn, how, mag
        if gs is None:
            for i in range(len(GENERIC)):
                not_too_big(*[np.shape(k.gs[i]) for k in kids])
            gs = [fn(*[k.gs[i] for k in kids]) for i in range(len(GENERIC))]
        self.gs = [check_value(v) for v in gs]
        same_kind_of_value(self.gs)
        self.g = self.gs[0]
        # nz: a shape that depends on the data (an axis of length ?nonzero), maybe
        self.nz = np.ndim(self.g) > 0 and any(k.nz for k in kids)
        if exact is None:
            exact = kind(self.g) != "f" or how == "exact" and all(k.exact for k in kids)
        self.exact = exact

    def ev(self, env, rng=None):
        vals = [k.ev(env, rng) for k in self.kids]
        v = self.fn(*vals)
        if rng is not None and self.how != "exact":
            v = perturb(v, self.how, vals, self.mag, rng)
        return v


class Leaf(Node):
    """A name (name set), a literal (is_lit), a size (a symbol, NAME.shape[k]) or a
    creation with literal arguments: value_fn(env) is its value in an environment."""

    def __init__(self, text, value_fn, envs, exact, prec=10, is_lit=False, name=None):
        self.value_fn, self.is_lit, self.name = value_fn, is_lit, name
        super().__init__(text, prec, [], None, exact=exact, gs=[value_fn(e) for e in envs])

    def ev(self, env, rng=None):
        return self.value_fn(env)


class Loop:
    """for counter in range(*args): body. args: Nodes of Python ints (the range's
    bounds and step), body: statements, (name, Node) or (None, Loop); unit: the
    body's indentation."""

    def __init__(self, counter, args, unit):
        self.counter, self.args, self.unit, self.body = counter, args, unit, []

    def header(self):
        return "for %s in range(%s):" % (self.counter, ", ".join(a.text for a in self.args))

    def run(self, env, rng, budget):
        """Run it as Python does: body-only names keep their last value, the
        counter has none after the loop (npx), nothing is bound if it runs zero times."""
        try:
            bounds = [a.ev(env, rng) for a in self.args]
        except KeyError as e:                      # range(t.shape[0]), t bound in a loop that ran zero times
            raise Unbound("name %s is not defined" % e)
        if not all(type(b) is int for b in bounds):
            raise Reject("range() of a non-int")
        for v in range(*bounds):
            budget[0] -= 1
            if budget[0] < 0:
                raise Reject("too many iterations")
            env[self.counter] = v
            run_stmts(self.body, env, rng, budget)
        env.pop(self.counter, None)


def run_stmts(stmts, env, rng, budget):
    """Execute statements on env (perturbed when rng is given)."""
    for t, node in stmts:
        if t is None:
            node.run(env, rng, budget)
            continue
        try:
            v = check_value(node.ev(env, rng))
        except KeyError as e:
            raise Unbound("name %s is not defined" % e)
        if np.ndim(v) != np.ndim(node.g):
            raise Reject("%s: the rank depends on the sizes (squeeze)" % t)
        if (type(sig(v)) is type) != (type(sig(node.g)) is type) or np.asarray(v).dtype != np.asarray(node.g).dtype:
            raise Reject("%s: its type depends on the values (2 ** i)" % t)
        env[t] = v


def bindings(stmts):
    """(name, Node) of every assignment of statements, loops' bodies included."""
    out = []
    for t, node in stmts:
        out += bindings(node.body) if t is None else [(t, node)]
    return out


def assigned(stmts):
    """The names statements bind, loops' bodies included (not the counters)."""
    out = []
    for t, node in stmts:
        out += assigned(node.body) if t is None else [t]
    return out


def stmt_lines(stmts, indent):
    out = []
    for t, node in stmts:
        if t is None:
            out.append(indent + node.header())
            out += stmt_lines(node.body, indent + " " * node.unit)
        else:
            out.append(indent + node.text)
    return out


class Frame:
    """A loop being generated: its counter, the names bound before it (pre), whether
    it may run long (over a size), its counter's values in the generic size sets
    (in the first iteration of the loops around it)."""

    def __init__(self, counter, pre, long, vals):
        self.counter, self.pre, self.long, self.vals = counter, pre, long, vals


def uses(node, names):
    """Whether an expression reads one of names."""
    return node.name in names or any(uses(k, names) for k in node.kids)


def loop_count(stmts):
    return sum(1 + loop_count(n.body) for t, n in stmts if t is None)


def par(n, need):
    return n.text if n.prec >= need else "(" + n.text + ")"


def binop(op, a, b, how="exact", exact=None):
    if op == "**":
        text = par(a, 10) + " ** " + par(b, 8)
    elif op in ("<", "<=", ">", ">=", "==", "!="):
        text = par(a, 2) + " " + op + " " + par(b, 2)
    else:
        text = par(a, PREC[op]) + " " + op + " " + par(b, PREC[op] + 1)
    return Node(text, PREC.get(op, 1), [a, b], BINOPS[op], how, exact=exact)


def refuse_negative_int_power(a, b):
    if kind(a) in "bi" and kind(b) in "bi" and np.any(np.asarray(b) < 0):
        raise Reject("integer to a negative power")


def int_power(a, b):
    refuse_negative_int_power(a, b)
    return a ** b


def np_power(a, b):
    """np.power: of two Python ints an int64, not a Python int as a ** b."""
    refuse_negative_int_power(a, b)
    return np.power(a, b)


def where_checked(c, a, b):
    """np.where, but a Python int that the other operand's integer dtype cannot
    hold is an OverflowError, as in every ufunc and in npxc; NumPy 2's where
    casts it unchecked (numpy/numpy#27006)."""
    for x, other in ((a, b), (b, a)):
        if type(x) is int and kind(other) in "iu" and not isinstance(other, int):
            info = np.iinfo(np.asarray(other).dtype)
            if not info.min <= x <= info.max:
                raise OverflowError("Python integer %d out of bounds for %s" % (x, info.dtype))
    return np.where(c, a, b)


def to_int_checked(dt):
    def fn(a):
        x = np.asarray(a)
        if x.dtype.kind == "f" and dt.kind == "i":
            info = np.iinfo(dt)
            if not np.all(np.isfinite(x)) or np.any(x >= 2.0**(info.bits - 1)) or np.any(x < info.min):
                raise Reject("float out of the integer range: undefined cast")
        return a.astype(dt)
    return fn


def prod_order_free(x, ax):
    """x, if a float product over ax cannot overflow or underflow midway (then
    the result depends on the order of the products: inf * 0, 0 * 1e30)."""
    if kind(x) == "f":
        a = np.abs(np.asarray(x))
        big = np.prod(np.maximum(a, 1), axis=ax)
        small = np.prod(np.where(a == 0, 1, np.minimum(a, 1)), axis=ax)
        if np.any(np.isinf(big)) or np.any((small == 0) & (big > 1)):
            raise Reject("a product whose value depends on the order")
    return x


def slice_of(text):
    """The slice object of a constant slice as written ('1:-1', '::-2')."""
    return slice(*[int(p) if p else None for p in text.split(":")])


def matmul_shape(sa, sb):
    """The shape of a @ b for operands of shapes sa and sb; None where NumPy refuses."""
    if not sa or not sb or sa[-1] != (sb[-2] if len(sb) >= 2 else sb[0]):
        return None
    try:
        stack = np.broadcast_shapes(sa[:-2], sb[:-2])
    except ValueError:
        return None
    return tuple(stack) + tuple(sa[-2:-1]) + tuple(sb[-1:] if len(sb) >= 2 else ())


def tuple_text(parts):
    return "(%s,)" % parts[0] if len(parts) == 1 else "(%s)" % ", ".join(parts)


class Gen:
    """One random program: inputs, statements, and the generic values of its names
    (envs: one environment per size set of GENERIC; env is the first)."""

    def __init__(self, rng, hostile, loops=0.0, sorts=0, masks=0, setitems=0.0, statistics=0, rearranging=0):
        self.rng, self.hostile, self.loops, self.setitems = rng, hostile, loops, setitems
        self.rearranging = rearranging                  # the weight of flip, roll, diff, tile ...
        self.statistics = statistics                    # the weight of median, nan-functions, unique ...
        self.sorts, self.masks = sorts, masks           # the weights of sort and mask among expressions
        self.nzn = set()                                # names whose shape depends on the data (x[mask])
        self.hidden = set()                             # names bound but not to be read (see make_loop)
        self.inputs, self.stmts, self.exact = [], [], {}
        self.body = self.stmts                          # where statements go: the program or a loop's body
        self.frames = []                                # the loops around them, outermost first
        self.nstmt = 0
        self.envs = [{SIZES: dict(s)} for s in GENERIC]
        self.env = self.envs[0]
        self.mult = {}                                  # symbol -> m: its sizes are multiples of m
        self.syms = []                                  # the symbols the inputs declare
        self.ntemp, self.when = 0, {}

    def names(self, ok=None):
        return [n for n in self.env if n != SIZES and n not in self.hidden and (ok is None or ok(self.env[n]))]

    # ---- declarations --------------------------------------------------------
    def declare(self):
        r = self.rng
        syms = list(GENERIC[0])
        r.shuffle(syms)
        if r.random() < 0.3:
            m = r.choice(list(MULT))
            self.mult[syms[0]] = m
            for e, v in zip(self.envs, MULT[m]):
                e[SIZES][syms[0]] = v
        frame = [s if r.random() < 0.8 else r.choice([1, 3, 4]) for s in syms]
        for k in range(r.randint(2, 5)):
            dt = r.choice(["f32", "f32", "f64", "f64", "i32", "i64", "bool"])
            if r.random() < 0.2:                                 # a matrix-product partner
                dims = [frame[2], r.choice(syms)]
                x = r.random()
                if x < 0.45:                                     # a stack of them, 3-D or 4-D
                    free = [f for f in frame[:2] if f not in dims] + [1, 1, 2]
                    dims = [r.choice(free)] + dims
                    if x < 0.15:
                        dims = [r.choice([1, 2, 3])] + dims
            else:
                rank = r.choice([0, 1, 1, 2, 2, 2, 3, 3])
                dims = [d if r.random() > 0.2 else 1 for d in frame[3 - rank:]]
            name = "xyzwu"[k]
            self.inputs.append((name, dt, dims))
            for e in self.envs:
                shape = tuple(e[SIZES].get(d, d) for d in dims)
                e[name] = npxref.random_array(shape, np.dtype(DT[dt]), 12345, k)
            self.exact[name] = True
        self.syms = sorted({d for _, _, dims in self.inputs for d in dims if isinstance(d, str)})

    # ---- leaves --------------------------------------------------------------
    def inputs_by_name(self):
        return [(n, dt) for n, dt, _ in self.inputs]

    def leaf(self, text, value_fn, exact=True, **kw):
        out = Leaf(text, value_fn, self.envs, exact, **kw)
        out.nz = kw.get("name") in self.nzn and np.ndim(out.g) > 0
        return out

    def name_leaf(self, ok=None):
        names = self.names(ok)
        if not names:
            raise Reject("no name fits")
        n = self.rng.choices(names, [1 + 2 * self.when.get(m, 0) for m in names])[0]  # recent first
        return self.leaf(n, lambda env, n=n: env[n], self.exact[n], name=n)

    def literal(self):
        r = self.rng
        v = r.choice([0, 1, 2, 3, 7, 100, -1, -5, 2147483647, 2.0, 0.5, 1.5, -0.25, 0.1, 3.0,
                      1e-3, 10.0, True, False, "np.pi", "np.e", "np.inf", "np.nan"])
        if isinstance(v, str):
            return self.leaf(v, lambda env, v=v: eval(v, {"np": np}), is_lit=True)
        alt = {0.5: ".5", 2.0: "2.", 0.001: "1e-3", 10.0: "1e1", 3.0: "3."}
        text = alt[v] if v in alt and type(v) is float and r.random() < 0.4 else repr(v)
        return self.leaf(text, lambda env, v=v: v, prec=10 if v >= 0 else 8, is_lit=True)

    def sym_leaf(self, s):
        return self.leaf(s, lambda env: env[SIZES][s])

    def shape_leaf(self):
        """NAME.shape[k], NAME.ndim, NAME.size or a size symbol, as a value (a Python int)."""
        r = self.rng
        if self.syms and r.random() < 0.2:
            return self.sym_leaf(r.choice(self.syms))
        n = r.choice(self.names(lambda v: np.ndim(v) > 0) or [None])
        if n is None:
            raise Reject("no array")
        nd = np.ndim(self.env[n])
        if r.random() < 0.15:
            what = r.choice(["ndim", "size"])
            return self.leaf("%s.%s" % (n, what), lambda env: getattr(env[n], what))
        k = r.randrange(nd)
        text = "%s.shape[%d]" % (n, k - nd if r.random() < 0.2 else k)
        return self.leaf(text, lambda env: env[n].shape[k])

    def size_leaf(self):
        """A size argument: a small literal, a size symbol or NAME.shape[k]."""
        r = self.rng
        arrs = self.names(lambda v: np.ndim(v) > 0)
        x = r.random()
        if arrs and x < 0.4:
            n = r.choice(arrs)
            k = r.randrange(np.ndim(self.env[n]))
            return self.leaf("%s.shape[%d]" % (n, k), lambda env: env[n].shape[k])
        if self.syms and x < 0.6:
            return self.sym_leaf(r.choice(self.syms))
        v = r.choice([1, 2, 3, 5])
        return self.leaf(str(v), lambda env: v)

    def small(self, leaves, times=1):
        """leaves (sizes), if an array of that shape (times that many) is not too big."""
        for i in range(len(GENERIC)):
            if np.prod([float(l.gs[i]) for l in leaves]) * times > 300000:
                raise Reject("too big")
        return leaves

    def dim_leaves(self, a, k):
        """Every way to write the length of axis k of a as a size argument: a's own
        NAME.shape[k], a symbol, a literal, another name's shape, all checked on
        every generic size set."""
        vals = [np.shape(g)[k] for g in a.gs]
        out = []
        if a.name:
            out.append(self.leaf("%s.shape[%d]" % (a.name, k), lambda env: env[a.name].shape[k]))
        for s in self.syms:
            if all(e[SIZES][s] == v for e, v in zip(self.envs, vals)):
                out.append(self.sym_leaf(s))
        if all(v == vals[0] for v in vals):
            out.append(self.leaf(str(vals[0]), lambda env: vals[0]))
        for n in self.names(lambda v: np.ndim(v) > 0):
            for j in range(np.ndim(self.env[n])):
                if n != a.name and all(np.shape(e[n])[j] == v for e, v in zip(self.envs, vals)):
                    out.append(self.leaf("%s.shape[%d]" % (n, j), lambda env, n=n, j=j: env[n].shape[j]))
        return out

    def operand(self, d, ok=lambda n: True, lit=True, exact=False):
        for _ in range(12):
            r = self.rng.random()
            try:
                if r < 0.12 and lit:
                    n = self.literal()
                elif r < 0.14:
                    n = self.shape_leaf()
                elif r < 0.6 or d <= 0:
                    n = self.name_leaf()
                else:
                    n = self.expr(d - 1)
            except Reject:
                continue
            if ok(n) and (n.exact or not exact):
                return n
        raise Reject("no operand")

    def array_operand(self, d, ok=lambda n: True, exact=False):
        return self.operand(d, lambda n: isinstance(n.g, (np.ndarray, np.generic)) and ok(n),
                            lit=False, exact=exact)

    # ---- expressions ---------------------------------------------------------
    def expr(self, d):
        builders = [(self.arith, 8), (self.unary, 2), (self.compare, 3), (self.bitwise, 2),
                    (self.math1, 5), (self.math2, 3), (self.where, 2), (self.clip, 1),
                    (self.astype, 2), (self.reduce, 4), (self.argm, 1), (self.transpose, 1),
                    (self.matmul, 3), (self.create, 3), (self.index, 5), (self.reshape, 3),
                    (self.join, 3), (self.var_std, 2), (self.cumsum, 2), (self.axes_op, 2),
                    (self.broadcast_to, 1), (self.einsum, 4), (self.gather, 5), (self.stats, self.statistics)]
        if self.sorts:
            builders.append((self.sort, self.sorts))
        if self.masks:
            builders.append((self.mask, self.masks))
        if self.rearranging:
            builders.append((self.rearrange, self.rearranging))
        if self.frames:
            builders.append((self.loop_expr, 8))
        fns, weights = zip(*builders)
        for _ in range(10):
            try:
                return self.rng.choices(fns, weights)[0](d)
            except GEN_ERRORS:
                pass
        return self.name_leaf()

    def fcall(self, name, args, kids, fn, how="exact", mag=None, exact=None):
        pre = self.rng.choice(["np.", "np.", ""])
        if name in self.env:                # a name the program binds (rint = ...) hides the function
            pre = "np."
        return Node("%s%s(%s)" % (pre, name, ", ".join(args)), 10, kids, fn, how, mag, exact)

    def method_or_call(self, name, a, args, kids, fn, how="exact", mag=None):
        """a.name(args) or np.name(a, args), at random."""
        if self.rng.random() < 0.5:
            return Node("%s.%s(%s)" % (par(a, 10), name, ", ".join(args)), 10, kids, fn, how, mag)
        return self.fcall(name, [a.text] + args, kids, fn, how, mag)

    def arith(self, d):
        op = self.rng.choice(["+", "+", "-", "*", "*", "/", "//", "%", "**"])
        step = op in ("//", "%")
        a = self.operand(d, exact=step)
        b = self.operand(d, exact=step, lit=not getattr(a, "is_lit", False))
        if op == "**":
            return Node(par(a, 10) + " ** " + par(b, 8), 9, [a, b], int_power, "ulp")
        return binop(op, a, b)

    def unary(self, d):
        op = self.rng.choice(["-", "+", "~"])
        a = self.operand(d, lambda n: op != "~" or kind(n.g) in "bi", lit=False)
        fn = {"-": operator.neg, "+": operator.pos, "~": operator.invert}[op]
        return Node(op + par(a, 8), 8, [a], fn)

    def compare(self, d):
        op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
        return binop(op, self.operand(d, exact=True), self.operand(d, exact=True))

    def bitwise(self, d):
        op = self.rng.choice(["&", "|", "^", "&", "|", "<<", ">>"])
        ok = (lambda n: kind(n.g) == "i") if op in ("<<", ">>") else (lambda n: kind(n.g) in "bi")
        return binop(op, self.operand(d, ok), self.operand(d, ok))

    def math1(self, d):
        r = self.rng.random()
        name = self.rng.choice(EXACT_FN if r < 0.3 else ULP_FN if r < 0.75 else STEP_FN)
        a = self.operand(d, exact=name in STEP_FN, lit=self.rng.random() < 0.1)
        how = "ulp" if name in ULP_FN else "exact"
        return self.fcall(name, [a.text], [a], getattr(np, name), how)

    def math2(self, d):
        name = self.rng.choice(list(BIN_FN))
        how = BIN_FN[name]
        a = self.operand(d, exact=how == "step")
        b = self.operand(d, exact=how == "step", lit=not getattr(a, "is_lit", False))
        fn = np_power if name == "power" else getattr(np, name)
        return self.fcall(name, [a.text, b.text], [a, b], fn, "exact" if how == "step" else how)

    def where(self, d):
        c = self.operand(d, lambda n: kind(n.g) in "bi" and np.ndim(n.g) > 0, lit=False, exact=True)
        a, b = self.operand(d), self.operand(d)
        return self.fcall("where", [c.text, a.text, b.text], [c, a, b], where_checked)

    def clip(self, d):
        a = self.operand(d, lambda n: np.ndim(n.g) > 0, lit=False)
        lo, hi = self.operand(d), self.operand(d)
        if self.rng.random() < 0.3:              # one bound None (the other is clipped to)
            if self.rng.random() < 0.5:
                return self.fcall("clip", [a.text, "None", hi.text], [a, hi], lambda x, h: np.clip(x, None, h))
            return self.fcall("clip", [a.text, lo.text, "None"], [a, lo], lambda x, l: np.clip(x, l, None))
        if self.rng.random() < 0.5:
            return Node("%s.clip(%s, %s)" % (par(a, 10), lo.text, hi.text), 10, [a, lo, hi],
                        lambda x, l, h: x.clip(l, h))
        return self.fcall("clip", [a.text, lo.text, hi.text], [a, lo, hi], np.clip)

    def astype(self, d):
        t = self.rng.choice(list(DT))
        dt = np.dtype(DT[t])
        a = self.array_operand(d, exact=dt.kind in "bi")
        return Node("%s.astype(%s)" % (par(a, 10), self.spell(t)), 10, [a],
                    to_int_checked(dt))

    def spell(self, t):
        """A way to write dtype t: a name (f32, np.float32) or, now and then, a string."""
        r = self.rng
        if r.random() < 0.2:
            return r.choice(["'%s'", '"%s"']) % r.choice(STRSPELL[t])
        return r.choice(SPELL[t])

    def axis_args(self, nd, tuples=True):
        r = self.rng
        if nd == 0 or r.random() < 0.3:
            return None, []
        if tuples and nd >= 2 and r.random() < 0.3:
            ax = tuple(sorted(r.sample(range(nd), 2)))
            return ax, ["axis=(%d, %d)" % ax]
        ax = r.randrange(-nd, nd)
        return ax, ["axis=%d" % ax]

    def reduce(self, d):
        name = self.rng.choice(["sum", "sum", "prod", "mean", "max", "min", "amax", "amin", "any", "all"])
        a = self.operand(d, lambda n: np.ndim(n.g) > 0, lit=False, exact=name in ("any", "all"))
        ax, args = self.axis_args(np.ndim(a.g))
        kd = self.rng.random() < 0.3
        args += ["keepdims=True"] if kd else []
        f = getattr(np, name)
        fn = lambda x: f(x, axis=ax, keepdims=kd)
        how, mag = "exact", None
        if name in ("sum", "mean"):
            how, mag = "sum", (lambda x: getattr(np, name)(np.abs(x.astype(np.float64)), axis=ax, keepdims=kd))
        elif name == "prod":
            how, mag = "sum", (lambda x: np.abs(fn(x)).astype(np.float64) * x.size)
            fn = lambda x, f=fn: f(prod_order_free(x, ax))
        if self.rng.random() < 0.5 and name not in ("amax", "amin"):
            return Node("%s.%s(%s)" % (par(a, 10), name, ", ".join(args)), 10, [a], fn, how, mag)
        return self.fcall(name, [a.text] + args, [a], fn, how, mag)

    def argm(self, d):
        name = self.rng.choice(["argmax", "argmin"])
        a = self.operand(d, lambda n: np.ndim(n.g) > 0, lit=False, exact=True)
        ax, args = self.axis_args(np.ndim(a.g), tuples=False)
        kd = ax is not None and self.rng.random() < 0.2
        args += ["keepdims=True"] if kd else []
        fn = lambda x: getattr(np, name)(x, axis=ax, keepdims=kd)
        if self.rng.random() < 0.5:
            return Node("%s.%s(%s)" % (par(a, 10), name, ", ".join(args)), 10, [a], fn)
        return self.fcall(name, [a.text] + args, [a], fn)

    def var_std(self, d):
        """var/std with an axis (int, tuple, None), ddof= and keepdims=."""
        r = self.rng
        name = r.choice(["var", "std"])
        a = self.array_operand(d)
        ax, args = self.axis_args(np.ndim(a.g))
        ddof = r.choice([0, 0, 1, 1, 2])
        if ddof or r.random() < 0.2:
            args.append("ddof=%d" % ddof)
        kd = r.random() < 0.3
        args += ["keepdims=True"] if kd else []
        f = getattr(np, name)
        fn = lambda x: f(x, axis=ax, ddof=ddof, keepdims=kd)
        p = 2 if name == "var" else 1
        mag = lambda x: np.mean(np.abs(x.astype(np.float64)), axis=ax, keepdims=kd) ** p * 4
        return self.method_or_call(name, a, args, [a], fn, "sum", mag)

    def cumsum(self, d):
        """cumsum along each axis (negative too) or flattened, as function or method."""
        r = self.rng
        a = self.array_operand(d)
        nd = np.ndim(a.g)
        ax = r.randrange(-nd, nd) if nd and r.random() < 0.8 else None
        args = [] if ax is None and r.random() < 0.5 else [r.choice(["axis=%s", "%s"]) % ax]
        mag = lambda x: np.cumsum(np.abs(np.asarray(x).astype(np.float64)), axis=ax)
        return self.method_or_call("cumsum", a, args, [a], lambda x: np.cumsum(x, axis=ax), "sum", mag)

    def stats(self, d):
        """median, quantile and percentile (one axis or None, keepdims), the
        nan-functions (NaNs made by a mask first, now and then), cumprod,
        unique (a length the data give: nz) and pad with a constant."""
        r = self.rng
        name = r.choice(["median", "quantile", "percentile", "nansum", "nanmean", "nanmax", "nanmin", "nanvar",
                         "nanstd", "cumprod", "unique", "pad"])
        a = self.array_operand(d, exact=name in ("unique", "median", "quantile", "percentile", "nanmax", "nanmin"))
        nd = np.ndim(a.g)
        if name == "unique":
            if nd == 0 or a.nz:
                raise Reject("unique of a 0-d or data-length array")
            node = self.fcall("unique", [a.text], [a], np.unique)
            node.nz = True
            if any(np.shape(g)[0] == 1 for g in node.gs):
                raise Reject("a length 1 that broadcasts on the generic sizes only (npxc: never)")
            return node
        if name == "pad":
            if nd == 0 or a.nz:
                raise Reject("pad of a 0-d or data-length array")
            width = r.choice([1, (0, 2), ((1, 0),) * nd])
            value = r.choice([0, 1.5, -1])
            return self.fcall("pad", [a.text, repr(width), "constant_values=%r" % value], [a],
                              lambda v: np.pad(v, width, constant_values=value))
        if nd == 0 or a.nz:
            raise Reject("a statistic of a 0-d or data-length array")
        if name == "cumprod":
            ax = r.randrange(-nd, nd) if r.random() < 0.8 else None
            fn = lambda x: np.cumprod(prod_order_free(x, ax), axis=ax)
            mag = lambda x: np.abs(fn(x)).astype(np.float64) * np.size(x)
            return self.method_or_call("cumprod", a, ["axis=%s" % ax], [a], fn, "sum", mag)
        ax = r.randrange(-nd, nd) if r.random() < 0.7 else None
        kd = r.random() < 0.3
        args = ["axis=%s" % ax] + (["keepdims=True"] if kd else [])
        if name in ("median", "quantile", "percentile"):
            q = [] if name == "median" else [r.choice(["0.5", "0.25", "1", "0"]) if name == "quantile"
                                              else r.choice(["50", "90", "0", "100"])]
            f = getattr(np, name)
            # padded, so that no axis is empty: there NumPy's median warns and gives NaN where
            # npxc stops (documented)
            a = Node("np.pad(%s, 1)" % a.text, 10, [a], lambda v: np.pad(v, 1), exact=a.exact)
            # q as the program writes it: an integer q keeps an integer array's dtype in NumPy 2
            fn = lambda x: f(x, *[int(v) if v.isdigit() else float(v) for v in q], axis=ax, keepdims=kd)
            return self.fcall(name, [a.text] + q + args, [a], fn)
        if r.random() < 0.5 and kind(a.g) == "f":      # some NaNs to ignore
            a = Node("np.where(%s > 0.75, np.nan, %s)" % (par(a, 2), a.text), 10, [a],
                     lambda v: np.where(v > 0.75, np.nan, v), exact=a.exact)
        f = getattr(np, name)
        if name in ("nanvar", "nanstd"):
            ddof = r.choice([0, 1])
            fn = lambda x: f(x, axis=ax, ddof=ddof, keepdims=kd)
            p2 = 2 if name == "nanvar" else 1
            mag = lambda x: np.nanmean(np.abs(x.astype(np.float64)), axis=ax, keepdims=kd) ** p2 * 4
            return self.fcall(name, [a.text] + args + ["ddof=%d" % ddof], [a], fn, "sum", mag)
        fn = lambda x: f(x, axis=ax, keepdims=kd)
        if name in ("nanmax", "nanmin"):
            return self.fcall(name, [a.text] + args, [a], fn)
        mag = lambda x: np.nansum(np.abs(x.astype(np.float64)), axis=ax, keepdims=kd)
        return self.fcall(name, [a.text] + args, [a], fn, "sum", mag)

    def rearrange(self, d):
        """flip (flipud, fliplr), roll, diff, tril/triu, tile, repeat, diagonal,
        diag and trace (--rearranging W): views and gathers whose shapes follow
        the sizes, beside a few numeric functions (nan_to_num, logaddexp,
        isclose, round)."""
        r = self.rng
        name = r.choice(["flip", "flipud", "fliplr", "roll", "diff", "tril", "triu", "tile", "repeat",
                         "diagonal", "diag", "trace", "nan_to_num", "logaddexp", "isclose", "round"])
        a = self.array_operand(d, exact=name in ("isclose", "round"))
        nd = np.ndim(a.g)
        if a.nz or nd == 0:
            raise Reject("%s of a 0-d or data-length array" % name)
        if name in ("flip", "flipud", "fliplr"):
            if name != "flip":
                if nd < 1 + (name == "fliplr"):
                    raise Reject("fliplr of a vector")
                return self.fcall(name, [a.text], [a], getattr(np, name))
            ax = r.choice([None, r.randrange(-nd, nd), tuple(sorted(r.sample(range(nd), min(nd, 2))))])
            args = [] if ax is None else [r.choice(["%s", "axis=%s"]) % (ax,)]
            return self.fcall("flip", [a.text] + args, [a], lambda x: np.flip(x, ax))
        if name == "roll":
            shift = r.choice([1, -1, 2, -3, 7, 0])
            ax = r.choice([None, r.randrange(-nd, nd)])
            args = [str(shift)] + ([] if ax is None else ["axis=%d" % ax])
            return self.fcall("roll", [a.text] + args, [a], lambda x: np.roll(x, shift, ax))
        if name == "diff":
            n, ax = r.choice([1, 1, 2]), r.choice([-1, r.randrange(-nd, nd)])
            args = ([] if n == 1 else ["n=%d" % n]) + ([] if ax == -1 else ["axis=%d" % ax])
            return self.fcall("diff", [a.text] + args, [a], lambda x: np.diff(x, n=n, axis=ax))
        if name in ("tril", "triu"):
            if nd > 2:
                raise Reject("tril of a stack")
            k = r.choice([0, 0, 1, -1, 2])
            args = [] if k == 0 else [r.choice(["%d", "k=%d"]) % k]
            return self.fcall(name, [a.text] + args, [a], lambda x: getattr(np, name)(x, k))
        if name == "tile":
            reps = r.choice([2, 3, (2, 1), (1, 2), (2, 1, 2)])
            return self.fcall("tile", [a.text, repr(reps)], [a], lambda x: np.tile(x, reps))
        if name == "repeat":
            n, ax = r.choice([0, 1, 2, 3]), r.choice([None, r.randrange(-nd, nd)])
            args = [str(n)] + ([] if ax is None else ["axis=%d" % ax])
            return self.method_or_call("repeat", a, args, [a], lambda x: np.repeat(x, n, ax))
        if name in ("diagonal", "diag", "trace"):
            square = all(np.shape(g)[0] == np.shape(g)[-1] for g in a.gs)
            fixed = all(np.shape(g) == np.shape(a.g) for g in a.gs)
            if name == "diag" and nd == 1:
                return self.fcall("diag", [a.text], [a], np.diag)
            if nd != 2:
                raise Reject("%s of a stack" % name)
            k = r.choice([0, 0, 1, -1]) if fixed else 0
            if not (square or fixed):
                raise Reject("a diagonal whose length only the run knows (npxc: not yet)")
            args = [] if k == 0 else [str(k)]
            if name == "trace":
                mag = lambda x: np.trace(np.abs(x.astype(np.float64)), k)
                return self.method_or_call("trace", a, args, [a], lambda x: np.trace(x, k), "sum", mag)
            if name == "diag":
                return self.fcall("diag", [a.text] + args, [a], lambda x: np.diag(x, k))
            return self.method_or_call("diagonal", a, args, [a], lambda x: np.diagonal(x, k))
        if name == "nan_to_num":
            if kind(a.g) != "f":
                raise Reject("nan_to_num of integers")
            a = Node("np.where(%s > 0.75, np.nan, %s)" % (par(a, 2), a.text), 10, [a],
                     lambda v: np.where(v > 0.75, np.nan, v), exact=a.exact)
            extra = r.choice([[], ["nan=-1.0"], ["posinf=9.0", "neginf=-9.0"]])
            kw = dict(x.split("=") for x in extra)
            kw = {k: float(v) for k, v in kw.items()}
            return self.fcall("nan_to_num", [a.text] + extra, [a], lambda x: np.nan_to_num(x, **kw))
        b = self.operand(d, lambda n: kind(n.g) != "b", exact=name == "isclose")
        if kind(a.g) == "b":
            raise Reject("%s of bool (float16 in NumPy)" % name)
        if name == "logaddexp":
            return self.fcall("logaddexp", [a.text, b.text], [a, b], np.logaddexp, "ulp")
        if name == "isclose":
            return self.fcall("isclose", [a.text, b.text], [a, b], np.isclose)
        dec = r.choice([0, 1, 2, -1])
        args = [] if dec == 0 else [str(dec)]
        return self.method_or_call("round", a, args, [a], lambda x: np.round(x, dec))

    def transpose(self, d):
        a = self.operand(d, lambda n: np.ndim(n.g) >= 2, lit=False)
        perm = list(range(np.ndim(a.g)))
        self.rng.shuffle(perm)
        form = self.rng.randrange(3)
        if form == 0:
            return Node(par(a, 10) + ".T", 10, [a], lambda x: x.T)
        if form == 1:
            return self.fcall("transpose", [a.text], [a], np.transpose)
        return Node("%s.transpose(%s)" % (par(a, 10), ", ".join(map(str, perm))), 10, [a],
                    lambda x: x.transpose(perm))

    def axes_op(self, d):
        """expand_dims, squeeze (of literal 1 axes, or all), swapaxes."""
        r = self.rng
        a = self.array_operand(d)
        nd = np.ndim(a.g)
        form = r.randrange(3)
        if form == 0:
            if r.random() < 0.25:
                ax = tuple(sorted(r.sample(range(-(nd + 2), nd + 2), 2)))
                axt = "(%d, %d)" % ax
            else:
                ax = r.randrange(-(nd + 1), nd + 1)
                axt = str(ax)
            arg = r.choice(["%s", "axis=%s"]) % axt
            return self.fcall("expand_dims", [a.text, arg], [a], lambda x: np.expand_dims(x, ax))
        if form == 1:
            ones = [k for k in range(nd) if all(np.shape(g)[k] == 1 for g in a.gs)] if not a.nz else []
            if r.random() < 0.25 or not ones:     # every length-1 axis
                def squeeze_all(x, n=nd - len(ones)):
                    y = np.squeeze(x)             # npxc removes the literal ones only
                    if np.ndim(y) != n:
                        raise Reject("squeeze() of an axis of run-time length 1")
                    return y
                return self.method_or_call("squeeze", a, [], [a], squeeze_all)
            ks = r.sample(ones, r.randint(1, len(ones)))
            ks = [k - nd if r.random() < 0.3 else k for k in ks]
            axt = str(ks[0]) if len(ks) == 1 and r.random() < 0.7 else tuple_text([str(k) for k in ks])
            ax = ks[0] if axt == str(ks[0]) else tuple(ks)
            arg = r.choice(["%s", "axis=%s"]) % axt
            return self.method_or_call("squeeze", a, [arg], [a], lambda x: np.squeeze(x, axis=ax))
        if nd == 0:
            raise Reject("swapaxes of a 0-d value")
        i, j = r.randrange(-nd, nd), r.randrange(-nd, nd)
        return self.method_or_call("swapaxes", a, [str(i), str(j)], [a], lambda x: np.swapaxes(x, i, j))

    def index(self, d):
        """Basic indexing: integer constants, constant slices, None and `...`."""
        r = self.rng
        a = self.array_operand(d, lambda n: not n.nz)        # npxc: no index of a ?nonzero axis
        nd = np.ndim(a.g)
        items = []                                       # (text, index object) per axis
        for k in range(nd):
            lens = [np.shape(g)[k] for g in a.gs]
            x = r.random()
            if x < 0.25:
                i = r.choice([0, 1, -1, -2]) if len(set(lens)) > 1 else r.randrange(-lens[0], max(lens[0], 1))
                items.append((str(i), i))
            elif x < 0.4:
                items.append((":", slice(None)))
            else:
                s = r.choice(SLICES)
                items.append((s, slice_of(s)))
        while items and items[-1][0] == ":" and r.random() < 0.7:
            items.pop()                                  # trailing axes left implicit
        if r.random() < 0.3 or (not items and r.random() < 0.5):
            i = r.randint(0, len(items))                 # `...` for a run of ':' (maybe none)
            j = i
            while j < len(items) and items[j][0] == ":":
                j += 1
            items[i:j] = [("...", Ellipsis)]
        for _ in range(r.choice([0, 0, 0, 1, 1, 2])):
            items.insert(r.randint(0, len(items)), ("None", None))
        if not items:
            raise Reject("no index")
        idx = tuple(o for _, o in items)
        return Node("%s[%s]" % (par(a, 10), ", ".join(t for t, _ in items)), 10, [a],
                    lambda x: x[idx])

    def positions(self, d, a, k, L=None):
        """An integer index array (or 0-d integer) whose positions are in range for
        axis k of a (of length L, a size leaf, if given) in every size set: n % L,
        n % L - L, arange(L), arange(L)[::-1] for an integer operand n of any rank;
        now and then positions in range on the generic sizes only (np.arange(3),
        n % 5), which step 4 checks on the edge sizes."""
        r = self.rng
        if L is None:
            lens = self.dim_leaves(a, k)
            if not lens:
                raise Reject("no way to write the length")
            L = r.choice(lens)
        x = r.random()
        if x < 0.08:                                   # maybe out of range on short axes
            c = r.choice([1, 2, 3, 5])
            if r.random() < 0.5:
                return self.leaf("np.arange(%d)" % c, lambda env: np.arange(c))
            L = self.leaf(str(c), lambda env: c)
            x = 0.5
        if x < 0.25 and not L.text.endswith(".size"):  # npxc: a size argument is no .size
            node = Node("np.arange(%s)" % L.text, 10, [L], np.arange)
            if r.random() < 0.4:
                node = Node(node.text + "[::-1]", 10, [node], lambda v: v[::-1])
            return node
        pyint = r.random() < 0.15                      # a Python int (a size) now and then
        n = self.operand(d, lambda m: kind(m.g) == "i" and not m.nz and np.ndim(m.g) <= 2 and
                         (pyint or isinstance(m.g, (np.ndarray, np.generic))), lit=False)
        node = Node("%s %% %s" % (par(n, 7), par(L, 8)), 7, [n, L], operator.mod)
        if r.random() < 0.3:
            node = binop("-", node, L)                 # negative positions
        return node

    def gather(self, d):
        """Integer-array indexing: one index array, or two on neighbouring axes that
        broadcast together, among slices, None, `...` and integers next to them;
        np.take / .take."""
        r = self.rng
        a = self.array_operand(d, lambda n: np.ndim(n.g) > 0 and not n.nz)
        nd = np.ndim(a.g)
        if r.random() < 0.3:
            return self.take(d, a)
        two = nd >= 2 and r.random() < 0.35
        k = r.randrange(nd - 1 if two else nd)
        arrs = [self.positions(d, a, k)]
        if two:
            j = self.positions(d, a, k + 1)
            form = r.randrange(4)
            if form == 1 and np.ndim(arrs[0].g) == 1 and np.ndim(j.g) == 1:   # an outer pair
                arrs[0] = Node(par(arrs[0], 10) + "[:, None]", 10, [arrs[0]], lambda v: v[:, None])
                if r.random() < 0.5:
                    j = Node(par(j, 10) + "[None, :]", 10, [j], lambda v: v[None, :])
            elif form == 2 and np.ndim(arrs[0].g) == 1:
                arrs[0] = Node(par(arrs[0], 10) + "[:, None]", 10, [arrs[0]], lambda v: v[:, None])
            arrs.append(j)
            not_too_big(*[np.shape(x.g) for x in arrs])
        items = []                                     # (text, index object or kid number)
        end = k + len(arrs)
        for m in range(nd):
            lens = [np.shape(g)[m] for g in a.gs]
            if k <= m < end:
                items.append((None, m - k + 1))
            elif m in (k - 1, end) and r.random() < 0.25:   # an integer next to the arrays
                i = r.choice([0, 1, -1]) if len(set(lens)) > 1 else r.randrange(-lens[0], max(lens[0], 1))
                items.append((str(i), i))
            elif r.random() < 0.5:
                items.append((":", slice(None)))
            else:
                s = r.choice(SLICES)
                items.append((s, slice_of(s)))
        while items and items[-1][0] == ":" and r.random() < 0.7:
            items.pop()
        if r.random() < 0.25:                          # `...` for a run of ':' (maybe none)
            i = r.choice([0, len(items)])
            j = i
            while j < len(items) and items[j][0] == ":":
                j += 1
            items[i:j] = [("...", Ellipsis)]
        for _ in range(r.choice([0, 0, 0, 1, 1, 2])):  # None, outside the run of arrays and integers
            adv = [p for p, (t, o) in enumerate(items) if t is None or isinstance(o, int)]
            items.insert(r.choice(list(range(0, adv[0] + 1)) + list(range(adv[-1] + 1, len(items) + 1))),
                         ("None", None))
        texts = [t if t is not None else arrs[o - 1].text for t, o in items]

        def fn(x, *ix):
            return x[tuple(ix[o - 1] if t is None else o for t, o in items)]
        return Node("%s[%s]" % (par(a, 10), ", ".join(texts)), 10, [a] + arrs, fn)

    def take(self, d, a):
        """np.take(a, idx), axis None, k or negative; a.take(idx, axis=k); mode='raise'."""
        r = self.rng
        nd = np.ndim(a.g)
        if r.random() < 0.25:
            ax, L = None, None
            if a.name and r.random() < 0.5:
                L = self.leaf("%s.size" % a.name, lambda env: env[a.name].size)
            idx = self.positions(d, a, 0, L)           # axis 0's length is at most the size
        else:
            k = r.randrange(nd)
            ax = k - nd if r.random() < 0.3 else k
            idx = self.positions(d, a, k)
        args = [idx.text]
        if ax is not None:
            args.append(r.choice(["axis=%d", "%d"]) % ax)
        elif r.random() < 0.3:
            args.append("axis=None")
        if r.random() < 0.1:
            args.append("mode='raise'")
        fn = lambda x, i: np.take(x, i, axis=ax)
        if r.random() < 0.4:
            return Node("%s.take(%s)" % (par(a, 10), ", ".join(args)), 10, [a, idx], fn)
        return self.fcall("take", [a.text] + args, [a, idx], fn)

    def sort(self, d):
        """np.sort / np.argsort / .argsort along an axis (negative, positional, the
        default -1) or None (flattened), kind= or stable=; argsort always stable
        (kind='stable', 'mergesort' or stable=True: its operand may have ties), of an
        exact operand (positions are discontinuous); now and then the positions used
        to gather: a[np.argsort(a)], np.take(a, np.argsort(a, axis=None))."""
        r = self.rng
        arg = r.random() < 0.45
        a = self.array_operand(d, exact=arg)
        nd = np.ndim(a.g)
        x = r.random()
        if x < 0.2 or nd == 0:
            ax, axt = None, ["axis=None"]
        elif x < 0.45:
            ax, axt = -1, [] if r.random() < 0.8 else ["axis=-1"]
        else:
            ax = r.randrange(-nd, nd)
            axt = [r.choice(["axis=%d", "axis=%d", "%d"]) % ax]
        if arg:
            kw = r.choice([{"kind": "stable"}, {"kind": "stable"}, {"kind": "mergesort"}, {"stable": True}])
        else:
            kw = r.choice([{}, {}, {}, {"kind": "quicksort"}, {"kind": "heapsort"}, {"kind": "stable"},
                           {"kind": "mergesort"}, {"stable": True}, {"stable": False}, {"kind": None}])
        args = axt + ["%s=%r" % kv for kv in kw.items()]
        name = "argsort" if arg else "sort"
        fn = lambda v: getattr(np, name)(v, axis=ax, **kw)
        if arg and r.random() < 0.25:                  # the positions gather the sorted values
            node = Node("np.argsort(%s)" % ", ".join([a.text] + args), 10, [a], fn)
            if ax is None:
                return self.fcall("take", [a.text, node.text], [a, node], lambda v, i: np.take(v, i))
            if nd == 1:
                return Node("%s[%s]" % (par(a, 10), node.text), 10, [a, node], lambda v, i: v[i])
        if arg:
            if r.random() < 0.5:
                return Node("%s.argsort(%s)" % (par(a, 10), ", ".join(args)), 10, [a], fn)
            return self.fcall("argsort", [a.text] + args, [a], fn)
        return self.fcall("sort", [a.text] + args, [a], fn)

    def mask_of(self, e, loose=False):
        """A bool array of e's shape: e itself if bool (or ~e), else a comparison of
        an exact e with a threshold that splits the inputs' values (in a loop, maybe
        one that moves with the counter)."""
        r = self.rng
        k = kind(e.g)
        if k == "b":
            return e if r.random() < 0.7 else Node("~" + par(e, 8), 8, [e], operator.invert)
        if not e.exact:
            raise Reject("a mask of rounded values")
        if k == "i" and r.random() < 0.4:
            m = self.lit(r.choice([2, 3, 7]))
            rem = binop("%", e, m)
            return binop(r.choice(["==", "!="]), rem, self.lit(r.choice([0, 1])))
        op = r.choice(["<", "<=", ">", ">=", "!="] + ["=="] * loose)
        if self.frames and r.random() < 0.4:
            c = self.counter_leaf(self.frames[-1].counter)
            thr = binop("*", c, self.lit(0.25 if k == "f" else 100))
        elif k == "f":
            thr = self.lit(r.choice([0.5, 0.5, 0.25, 0.9, 0.0, 2.0, -1]))
        else:
            thr = self.lit(r.choice([500, 500, 100, 0, 990]))
        return binop(op, e, thr)

    def mask(self, d):
        """Boolean masks x[mask] (mask over all of x's axes, or its first ones: rows),
        the mask made from x, from another value of the right shape, or a bool value;
        flatnonzero; count_nonzero (axis None, int, tuple; keepdims). A masked array's
        length is data (?nonzero): it is never carried by a loop (nz)."""
        r = self.rng
        x = r.random()
        if x < 0.12:
            a = self.array_operand(d, exact=True)
            node = self.fcall("flatnonzero", [a.text], [a], np.flatnonzero)
            node.nz = True
            if any(np.shape(g)[0] == 1 for g in node.gs):
                raise Reject("a length 1 that broadcasts on the generic sizes only (npxc: never)")
            return node
        if x < 0.27:
            a = self.array_operand(d, exact=True)
            nd = np.ndim(a.g)
            ax, args = self.axis_args(nd)
            kd = r.random() < 0.25
            args += ["keepdims=True"] if kd else []
            if args and args[0].startswith("axis=") and r.random() < 0.2:
                args[0] = args[0][5:]                  # axis as the second positional argument
            return self.fcall("count_nonzero", [a.text] + args, [a],
                              lambda v: np.count_nonzero(v, axis=ax, keepdims=kd))
        a = self.array_operand(d, lambda n: np.ndim(n.g) > 0)
        nd = np.ndim(a.g)
        k = nd if nd == 1 or r.random() < 0.55 else r.randint(1, nd - 1)
        if k < nd and r.random() < 0.4:
            return self.mask_beside(a, k)
        shapes = [np.shape(g)[:k] for g in a.gs]
        y = r.random()
        m = None
        if y < 0.45 and a.exact or kind(a.g) == "b":
            if k == nd:
                e = a
            elif k == nd - 1 and not a.nz and r.random() < 0.5:
                j = r.choice([0, -1])
                e = Node("%s[..., %d]" % (par(a, 10), j), 10, [a], lambda v: v[..., j])
            else:
                red = r.choice(["max", "min", "any", "all"] if a.exact else ["any", "all"])
                axes = tuple(range(k, nd))
                axt = str(axes[0]) if len(axes) == 1 else tuple_text([str(q) for q in axes])
                e = Node("%s.%s(axis=%s)" % (par(a, 10), red, axt), 10, [a],
                         lambda v: getattr(np, red)(v, axis=axes))
            m = self.mask_of(e)
        if m is None:
            fits = lambda n: all(np.shape(g) == s for g, s in zip(n.gs, shapes)) and (
                n.exact or kind(n.g) == "b")
            e = self.array_operand(d, fits)
            m = self.mask_of(e)
        if np.ndim(m.g) == 0:
            raise Reject("a 0-d mask")
        node = Node("%s[%s]" % (par(a, 10), m.text), 10, [a, m], lambda v, b: v[b])
        if any(np.shape(g)[0] == 1 for g in node.gs):
            raise Reject("a length 1 that broadcasts on the generic sizes only (npxc: never)")
        node.nz = True
        return node

    def mask_beside(self, a, k):
        """A k-axis mask beside other indices: x[:, mask], x[0, mask, 1:], x[1:, :, mask],
        the mask's axes after p others (slices, or an integer, which NumPy puts apart
        from the mask, or beside it), made from x's values reduced over the other axes
        or from another value of their shape."""
        r = self.rng
        nd = np.ndim(a.g)
        p = r.randint(1, nd - k)
        shapes = [np.shape(g)[p:p + k] for g in a.gs]
        if a.exact and not a.nz and r.random() < 0.5:
            others = tuple(q for q in range(nd) if not p <= q < p + k)
            red = r.choice(["max", "min"])
            axt = str(others[0]) if len(others) == 1 else tuple_text([str(q) for q in others])
            e = Node("%s.%s(axis=%s)" % (par(a, 10), red, axt), 10, [a],
                     lambda v: getattr(np, red)(v, axis=others))
        else:
            e = self.array_operand(2, lambda n: all(np.shape(g) == s for g, s in zip(n.gs, shapes))
                                   and (n.exact or kind(n.g) == "b"))
        m = self.mask_of(e)
        texts, objs = [], []
        for q in range(p):
            lens = [np.shape(g)[q] for g in a.gs]
            c = r.random()
            if c < 0.25 and all(n > 0 for n in lens):
                texts.append("0"), objs.append(0)
            elif c < 0.4:
                texts.append("1:"), objs.append(slice(1, None))
            else:
                texts.append(":"), objs.append(slice(None))
        rest = [":"] * r.randint(0, nd - p - k)
        if rest and r.random() < 0.5:
            rest = ["..."]

        def fn(v, b):
            return v[tuple(objs) + (b,) + tuple(Ellipsis if t == "..." else slice(None) for t in rest)]
        node = Node("%s[%s]" % (par(a, 10), ", ".join(texts + [m.text] + rest)), 10, [a, m], fn)
        if any(1 in np.shape(g) for g in node.gs):
            raise Reject("a length 1 that broadcasts on the generic sizes only (npxc: never)")
        node.nz = True
        return node

    def reshape(self, d):
        """reshape with -1, literal factors, sizes, regrouped or reordered axes; ravel, flatten."""
        r = self.rng
        a = self.array_operand(d, lambda n: not n.nz)        # npxc: no size derived from ?nonzero
        nd = np.ndim(a.g)
        form = r.randrange(5)
        if form == 0:
            if r.random() < 0.5:
                return self.method_or_call("ravel", a, [], [a], np.ravel)
            return Node(par(a, 10) + ".flatten()", 10, [a], lambda x: x.flatten())
        if form == 1:
            parts = [self.leaf("-1", lambda env: -1)]
        elif form == 2:                                  # -1 and a literal factor: B*V/6
            k = r.choice([2, 3, 4, 6])
            parts = [self.leaf(str(k), lambda env: k), self.leaf("-1", lambda env: -1)]
            r.shuffle(parts)
        else:                                            # axes regrouped, -1 for a group
            cuts = sorted(r.sample(range(1, nd), r.randint(0, nd - 1))) if nd > 1 else []
            groups = [list(range(lo, hi)) for lo, hi in zip([0] + cuts, cuts + [nd])] if nd else []
            minus, parts = r.random() < 0.7 or any(len(g) > 1 for g in groups), []
            for g in groups:
                opts = self.dim_leaves(a, g[0]) if len(g) == 1 else []
                if not opts or (minus and r.random() < 1.0 / len(groups)):
                    parts.append(self.leaf("-1", lambda env: -1))
                else:
                    parts.append(r.choice(opts))
            if sum(p.text == "-1" for p in parts) > 1:
                raise Reject("two -1 in a reshape")
            for _ in range(r.choice([0, 0, 1, 2])):
                parts.insert(r.randint(0, len(parts)), self.leaf("1", lambda env: 1))
            if form == 4:
                r.shuffle(parts)                         # the same sizes, another order
            if not parts:
                parts = [self.leaf("()", lambda env: ())]   # reshape(()) of a one-element value
                if a.gs[0].size != 1:
                    raise Reject("reshape(()) of many")
        texts = [p.text for p in parts]
        fn = lambda x, *s: np.reshape(x, s if s != ((),) else ())
        style = r.randrange(3)
        if texts == ["()"] or style == 0:
            arg = texts[0] if len(texts) == 1 and r.random() < 0.5 and texts != ["()"] else tuple_text(texts)
            if texts == ["()"]:
                arg = "()"
            if r.random() < 0.5:
                return self.fcall("reshape", [a.text, arg], [a] + parts, fn)
            return Node("%s.reshape(%s)" % (par(a, 10), arg), 10, [a] + parts, fn)
        return Node("%s.reshape(%s)" % (par(a, 10), ", ".join(texts)), 10, [a] + parts, fn)

    def join(self, d):
        """concatenate 2-4 arrays along an axis or None, or stack 2-3 on a new axis."""
        r = self.rng
        stack = r.random() < 0.35
        a = self.array_operand(d, lambda n: (stack or not n.nz) and (stack or np.ndim(n.g) > 0 or r.random() < 0.2))
        nd, shp = np.ndim(a.g), np.shape(a.g)
        if stack:
            ax = r.randrange(-(nd + 1), nd + 1)
            fits = lambda n: np.shape(n.g) == shp
        else:
            ax = None if nd == 0 or r.random() < 0.2 else r.randrange(-nd, nd)
            fits = lambda n: ax is None or (np.ndim(n.g) == nd and all(
                np.shape(n.g)[k] == shp[k] for k in range(nd) if k != ax % nd))
        arrs = [a]
        for _ in range(r.choice([1, 1, 2, 3] if not stack else [1, 1, 2])):
            try:
                arrs.append(self.array_operand(d, lambda n: fits(n) and (stack or not n.nz)))
            except Reject:
                arrs.append(r.choice(arrs))              # the same array twice
        seq = ("[%s]" if r.random() < 0.3 else "(%s)") % ", ".join(n.text for n in arrs)
        args = [seq]
        if ax is None:
            args.append("axis=None")
        elif ax != 0 or r.random() < 0.7:
            args.append(r.choice(["axis=%d", "%d"]) % ax)
        name = "stack" if stack else "concatenate"
        f = getattr(np, name)
        return self.fcall(name, args, arrs, lambda *xs: f(xs, axis=ax))

    def broadcast_to(self, d):
        r = self.rng
        a = self.array_operand(d)
        nd = np.ndim(a.g)
        parts = [self.size_leaf() for _ in range(r.choice([0, 0, 1, 1, 2]))]
        for k in range(nd):
            if all(np.shape(g)[k] == 1 for g in a.gs) and not a.nz and r.random() < 0.6:
                parts.append(self.size_leaf())
            else:
                opts = self.dim_leaves(a, k)
                if not opts:
                    raise Reject("no way to write the size")
                parts.append(r.choice(opts))
        if not parts:
            raise Reject("broadcast_to(a, ())")
        self.small(parts)
        return self.fcall("broadcast_to", [a.text, tuple_text([p.text for p in parts])], [a] + parts,
                          lambda x, *s: np.broadcast_to(x, s))

    def matmul(self, d):
        if self.rng.random() < 0.5:
            return self.stacked_matmul(d)
        fl = lambda n: kind(n.g) == "f" and np.ndim(n.g) in (1, 2)
        a = self.operand(d, fl, lit=False)
        k = np.shape(a.g)[-1]
        if self.rng.random() < 0.15 and np.ndim(a.g) == 1:
            b = self.operand(d, lambda n: kind(n.g) == "f" and np.ndim(n.g) == 1, lit=False)
            if any(np.size(x) * np.size(y) > 300000 for x, y in zip(a.gs, b.gs)):
                raise Reject("too big")
            return self.fcall("outer", [a.text, b.text], [a, b], np.outer)
        try:
            b = self.operand(d, lambda n: fl(n) and np.shape(n.g)[0] == k, lit=False)
        except Reject:
            b = Node(par(a, 10) + ".T", 10, [a], lambda x: x.T)
        mag = lambda x, y: np.abs(x.astype(np.float64)) @ np.abs(y.astype(np.float64))
        form = self.rng.randrange(4)
        if form == 0:
            return Node(par(a, 7) + " @ " + par(b, 8), 7, [a, b], operator.matmul, "sum", mag)
        if form == 1:
            return Node("%s.dot(%s)" % (par(a, 10), b.text), 10, [a, b], np.dot, "sum", mag)
        return self.fcall(["dot", "matmul", "matmul"][form - 1], [a.text, b.text], [a, b],
                          np.dot if form == 2 else np.matmul, "sum", mag)

    def swap_last(self, a):
        """a with its last two axes swapped: swapaxes, .T or transpose."""
        r, nd = self.rng, np.ndim(a.g)
        forms = ["np.swapaxes(%s, -1, -2)" % a.text, "np.swapaxes(%s, %d, %d)" % (a.text, nd - 1, nd - 2),
                 "%s.swapaxes(%d, -1)" % (par(a, 10), nd - 2)]
        if nd == 2:
            forms += [par(a, 10) + ".T", "np.transpose(%s)" % a.text]
        elif nd >= 3:
            forms.append("%s.transpose(%s)" % (par(a, 10), ", ".join(map(str, list(range(nd - 2)) + [nd - 1, nd - 2]))))
        return Node(r.choice(forms), 10, [a], lambda x: np.swapaxes(x, -1, -2))

    def stack_up(self, a):
        """a with new leading axes, a stack of 1 or 2 of it."""
        r, nd = self.rng, np.ndim(a.g)
        form = r.randrange(5 if nd <= 2 else 4)
        if form == 0:
            return Node(par(a, 10) + "[None]", 10, [a], lambda x: x[None])
        if form == 1:
            return self.fcall("expand_dims", [a.text, "0"], [a], lambda x: np.expand_dims(x, 0))
        if form == 2:
            return self.fcall("stack", ["(%s, %s)" % (a.text, a.text)], [a], lambda x: np.stack((x, x)))
        if form == 3:
            return Node(par(a, 10) + "[None, ...]", 10, [a], lambda x: x[None, ...])
        return Node(par(a, 10) + "[None, None]", 10, [a], lambda x: x[None, None])

    def stacked_matmul(self, d):
        """matmul or @ of N-D operands of any dtypes: stacks that broadcast ([1, K, N],
        a matrix or a vector against a stack), operands transposed by swapaxes."""
        r = self.rng
        a = self.array_operand(d, lambda n: 1 <= np.ndim(n.g) <= 4)
        if np.ndim(a.g) <= 3 and r.random() < 0.3:
            a = self.stack_up(a)
        if np.ndim(a.g) >= 2 and r.random() < 0.2:
            a = self.swap_last(a)

        def fits(n):
            return np.ndim(n.g) >= 1 and all(matmul_shape(np.shape(x), np.shape(y)) is not None
                                             for x, y in zip(a.gs, n.gs))
        cands = []
        for name in self.names(lambda v: np.ndim(v) >= 1):
            n = self.leaf(name, lambda env, name=name: env[name], self.exact[name], name=name)
            if fits(n):
                cands.append(n)
            if np.ndim(n.g) >= 2 and r.random() < 0.5:
                t = self.swap_last(n)
                if fits(t):
                    cands.append(t)
        if r.random() < 0.5:
            try:
                cands.append(self.array_operand(d, fits))
            except Reject:
                pass
        if cands:
            b = r.choice(cands)
        elif np.ndim(a.g) >= 2:
            b = self.swap_last(a)                        # a stack of Gram matrices
        else:
            raise Reject("no partner")
        if np.ndim(b.g) <= 3 and r.random() < 0.25:
            s = self.stack_up(b)
            b = s if fits(s) else b
        if r.random() < 0.5 and all(matmul_shape(np.shape(y), np.shape(x)) is not None
                                    for x, y in zip(a.gs, b.gs)):
            a, b = b, a
        if max(np.ndim(a.g), np.ndim(b.g)) < 3 and r.random() < 0.7:
            raise Reject("not a stack")
        for x, y in zip(a.gs, b.gs):
            if np.prod(matmul_shape(np.shape(x), np.shape(y)), dtype=np.float64) * np.shape(x)[-1] > 3e6:
                raise Reject("too big")
        mag = lambda x, y: np.abs(np.asarray(x, dtype=np.float64)) @ np.abs(np.asarray(y, dtype=np.float64))
        if r.random() < 0.5:
            return Node(par(a, 7) + " @ " + par(b, 8), 7, [a, b], operator.matmul, "sum", mag)
        return self.fcall("matmul", [a.text, b.text], [a, b], np.matmul, "sum", mag)

    def view_of(self, a):
        """a transposed, its axes swapped or reversed, or sliced."""
        r, nd = self.rng, np.ndim(a.g)
        if nd == 0:
            return a
        form = r.randrange(4)
        if form == 0 and nd >= 2:
            return self.swap_last(a) if r.random() < 0.5 else Node(par(a, 10) + ".T", 10, [a], lambda x: x.T)
        if form == 1 and nd >= 2:
            i, j = r.sample(range(nd), 2)
            return self.method_or_call("swapaxes", a, [str(i), str(j)], [a], lambda x: np.swapaxes(x, i, j))
        if a.nz:
            return a                                 # npxc: no slice of a ?nonzero axis
        k = r.randrange(nd)
        sl = r.choice(["::-1", "::2", "1:", ":-1", "::-2", ":", "-3:"])
        items = [":"] * k + [sl]
        idx = tuple([slice(None)] * k + [slice_of(sl)])
        return Node("%s[%s]" % (par(a, 10), ", ".join(items)), 10, [a], lambda x: x[idx])

    def einsum(self, d):
        """np.einsum of 1-3 operands (arrays of any dtype, viewed or not, or Python
        numbers): labels shared where the lengths agree or one is 1, '...' standing
        for some axes of some operands, an explicit or implicit output, upper- and
        lowercase letters, spaces, optimize=."""
        r = self.rng
        ops = []
        for _ in range(r.choice([1, 1, 2, 2, 2, 3, 3, 3])):
            x = r.random()
            if x < 0.08:
                ops.append(self.literal())
            elif x < 0.12:
                ops.append(self.shape_leaf())
            else:
                a = self.array_operand(d, lambda n: np.ndim(n.g) <= 4)
                ops.append(self.view_of(a) if r.random() < 0.3 else a)
        pool = list("ijklmnopqrstuvwxyzabc")
        if r.random() < 0.3:
            pool = list("IJKLMNXYZABC") + (pool if r.random() < 0.5 else [])
        r.shuffle(pool)
        size = {}                             # label -> its lengths in the generic sets (1 if broadcast)
        use_ell = r.random() < 0.3
        ell = [()] * len(GENERIC)             # the broadcast shape under '...', per generic set
        has_ell, terms = False, []
        for a in ops:
            shapes = [np.shape(g) for g in a.gs]
            nd, at, c = len(shapes[0]), None, 0
            if use_ell and r.random() < 0.8:
                c = r.randint(0, nd)
                at = r.randint(0, nd - c)
                try:
                    ell = [np.broadcast_shapes(e, s[at:at + c]) for e, s in zip(ell, shapes)]
                except ValueError:
                    raise Reject("the axes under '...' do not broadcast")
                has_ell = True
            toks = []
            for k in range(nd + 1):
                if k == at:
                    toks.append("...")
                if k == nd or (at is not None and at <= k < at + c):
                    continue
                n = tuple(s[k] for s in shapes)
                fit = [l for l, m in size.items() if l not in toks and
                       all(p == q or p == 1 or q == 1 for p, q in zip(m, n))]
                if fit and r.random() < 0.65:
                    l = r.choice(fit)
                else:
                    free = [l for l in pool if l not in size]
                    if not free:
                        raise Reject("out of letters")
                    l = free[0]
                size[l] = tuple(max(p, q) for p, q in zip(size.get(l, n), n))
                toks.append(l)
            terms.append(toks)
        count = {l: sum(t.count(l) for t in terms) for l in size}
        if r.random() < 0.35:
            out = None
            kept = [l for l in size if count[l] == 1]
        else:
            out = [l for l in size if r.random() < (0.8 if count[l] == 1 else 0.3)]
            r.shuffle(out)
            if has_ell and r.random() < 0.95 or r.random() < 0.05:
                out.insert(r.randint(0, len(out)), "...")
            kept = out
        for i in range(len(GENERIC)):
            if np.prod([size[l][i] for l in size] + list(ell[i]), dtype=np.float64) > 300000:
                raise Reject("too big")

        def spaced(toks):
            return "".join(t + (" " if r.random() < 0.07 else "") for t in toks)
        sub = ",".join((" " if r.random() < 0.05 else "") + spaced(t) for t in terms)
        if out is not None:
            sub += r.choice(["->", "->", " -> ", "-> "]) + spaced(out)
        q = r.choice(["'", "'", '"'])
        kw = {}
        args = [q + sub + q] + [o.text for o in ops]
        if r.random() < 0.15:
            kw["optimize"] = r.random() < 0.5
            args.append("optimize=%s" % kw["optimize"])
        summed = any(l not in kept for l in size)
        how = "exact" if len(ops) <= 2 and not summed and not (out is not None and has_ell and "..." not in out) else "sum"
        mag = lambda *xs: np.einsum(sub, *[np.abs(np.asarray(x, dtype=np.float64)) for x in xs])

        def fn(*xs):
            v = np.einsum(sub, *xs, **kw)
            if kw.get("optimize"):          # NumPy's other algorithm: where it differs, npxc follows the first
                w = np.einsum(sub, *xs)
                rtol, atol = TOL["f32" if w.dtype == np.float32 else "f64"]
                if v.dtype != w.dtype or v.shape != w.shape or not (
                        close(v, w, rtol / 10, atol / 10) if w.dtype.kind == "f" else np.array_equal(v, w)):
                    raise Reject("einsum gives another result with optimize=True")
            return v
        return self.fcall("einsum", args, ops, fn, how, mag)

    def create(self, d):
        r = self.rng
        form = r.randrange(6)
        t = r.choice(list(DT))
        dtarg = ["dtype=" + self.spell(t)] if r.random() < 0.5 else []
        dt = {"dtype": DT[t]} if dtarg else {}
        if form == 0:                                          # zeros/ones/full
            sizes = self.small([self.size_leaf() for _ in range(r.randint(1, 2))])
            shp = sizes[0].text if len(sizes) == 1 and r.random() < 0.5 else tuple_text([s.text for s in sizes])
            name = r.choice(["zeros", "ones", "full"])
            fill = self.literal() if name == "full" else None
            if fill is not None and (fill.text.startswith("np.") and fill.text != "np.pi"):
                raise Reject("keep fills finite")
            f = getattr(np, name)
            fn = lambda *s: f(s, *([fill.g] if fill else []), **dt)
            args = [shp] + ([fill.text] if fill else []) + dtarg
            return Node("np.%s(%s)" % (name, ", ".join(args)), 10, sizes, fn)
        if form == 1:                                          # *_like
            a = self.name_leaf(lambda v: isinstance(v, (np.ndarray, np.generic)))
            name = r.choice(["zeros_like", "ones_like", "full_like"])
            fill = self.literal() if name == "full_like" else None
            if fill is not None and fill.text.startswith("np.") and fill.text != "np.pi":
                raise Reject("keep fills finite")
            args = [a.text] + ([fill.text] if fill else []) + dtarg
            return self.fcall(name, args, [a], lambda x: getattr(np, name)(x, *([fill.g] if fill else []), **dt))
        if form == 2:                                          # arange(n)
            s = self.size_leaf()
            return Node("np.arange(%s%s)" % (s.text, "".join(", " + x for x in dtarg)), 10, [s],
                        lambda n: np.arange(n, **dt))
        if form == 3:                                          # eye(N, M, k, dtype)
            n, m = self.size_leaf(), (self.size_leaf() if r.random() < 0.5 else None)
            self.small([n, m or n])
            k = r.choice([0, 0, 1, -1, 2, -3])
            args = [n.text] + ([m.text] if m else [])
            if k and m and r.random() < 0.5:
                args.append(str(k))
            elif k:
                args.append("k=%d" % k)
            kids = [n] + ([m] if m else [])
            return self.fcall("eye", args + dtarg, kids,
                              lambda N, M=None: np.eye(N, M, k=k, **dt))
        if form == 4:                                          # linspace
            if r.random() < 0.4:
                start, stop, num, ep = r.choice(EXACT_LINSPACE)
                numl, how = self.leaf(str(num), lambda env: num), "exact"
            else:
                start, stop = r.choice([0, 1, -1, 0.5, 2.5, 10, -3.0]), r.choice([1, 2, 0.1, -2, 100, 1e-3])
                ep, numl, how = r.random() < 0.7, self.size_leaf(), "ulp"
                if dt and np.dtype(dt["dtype"]).kind != "f":
                    raise Reject("an integer linspace of rounded values")
            args = [repr(start), repr(stop), r.choice(["%s", "num=%s"]) % numl.text]
            args += [] if ep and r.random() < 0.7 else ["endpoint=%s" % ep]
            return self.fcall("linspace", args + dtarg, [numl],
                              lambda n: np.linspace(start, stop, n, endpoint=ep, **dt), how,
                              exact=how == "exact")
        start, stop, step = r.choice([(0, 10, 3), (2, 11, 3), (10, 0, -3), (0.0, 1.0, 0.25),
                                      (1, 2, 0.125), (-2.5, 2.5, 0.5), (5, -5, -1)])
        v = np.arange(start, stop, step)
        return self.leaf("np.arange(%r, %r, %r)" % (start, stop, step), lambda env: v, v.dtype.kind != "f")

    # ---- statements ----------------------------------------------------------
    def counters(self):
        return {f.counter for f in self.frames}

    def statement(self):
        r = self.rng
        if self.loops and len(self.frames) < 2 and r.random() < (0.25 if self.frames else self.loops):
            return self.loop()
        if self.frames and r.random() < 0.45:
            return self.rebind()
        depth = r.choice([1, 2, 2, 3])
        names = self.names(lambda v: isinstance(v, (np.ndarray, np.generic)))
        if self.setitems and r.random() < self.setitems:
            t, node = self.setitem()
        elif r.random() < 0.2 and names:
            t = r.choice(names)
            op = r.choice(["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"])
            rhs = self.expr(depth - 1)
            old = self.leaf(t, lambda env: env[t], self.exact[t], name=t)
            if op in ("//", "%", "&", "|", "^", "<<", ">>") and not (old.exact and rhs.exact):
                raise Reject("discontinuous")
            node = Node("%s %s= %s" % (t, op, rhs.text), 0, [old, rhs],
                        int_power if op == "**" else BINOPS[op], "ulp" if op == "**" else "exact")
            for og, ng in zip(old.gs, node.gs):
                o, n = np.asarray(og), np.asarray(ng)
                if o.dtype != n.dtype or o.shape != n.shape:
                    raise Reject("op= changes dtype or shape")
        else:
            temps = [n for n in self.names() if n not in dict(self.inputs_by_name()) and n not in self.counters()]
            if temps and r.random() < 0.2:
                t = r.choice(temps)
            else:
                self.ntemp += 1
                t = "t%d" % self.ntemp
                if r.random() < self.hostile and not set(HOSTILE) <= set(self.env):
                    t = r.choice([h for h in HOSTILE if h not in self.env])
            node = self.expr(depth)
            if r.random() < 0.06:                  # a weak scalar bound to a name
                a, b = self.literal(), self.literal()
                node = binop(r.choice(["+", "*", "-", "/"]), a, b) if r.random() < 0.7 else a
            node = Node("%s = %s" % (t, node.text), 0, [node], lambda v: v)
        self.bind(t, node)

    def setitem(self):
        """t[mask] = v, t[0] += v, t[1:] *= v ...: a new value of t, NumPy's
        assignment to elements (a copy here: names never share one array in
        the generator's model; npxc refuses the programs where NumPy's would)."""
        r = self.rng
        arrays = [n for n in self.names(lambda v: isinstance(v, np.ndarray) and v.ndim >= 1)
                  if n not in self.counters() and n not in self.nzn]   # (indexing ?nonzero: not yet)
        if not arrays:
            raise Reject("no array to assign to")
        t = r.choice(arrays)
        old = self.leaf(t, lambda env: env[t], self.exact[t], name=t)
        keys = {"0": 0, "-1": -1, "1::2": slice(1, None, 2), ":-1": slice(None, -1), "...": Ellipsis}
        index = r.choice(["mask", "mask", "mask"] + list(keys))
        sel = binop(r.choice(["<", ">", "!="]), old, self.literal()) if index == "mask" else None
        # or a value read from t itself, of the selection's shape, that overlaps it
        own = {"0": ("%s[-1]", lambda a: a[-1]), "-1": ("%s[0]", lambda a: a[0]), ":-1": ("%s[1:]", lambda a: a[1:]),
               "1::2": ("%s[1::2][::-1]", lambda a: a[1::2][::-1]), "...": ("%s[::-1]", lambda a: a[::-1])}
        dt = np.asarray(old.g).dtype
        if sel is None and r.random() < 0.5:
            text, part = own[index]
            value = self.leaf(text % t, lambda env, part=part: part(env[t]), self.exact[t])
        elif sel is not None and dt.kind != "b" and r.random() < 0.4:
            # or made elementwise from what the same mask selects: t[t > 0.5] * 2
            picked = Node("%s[%s]" % (t, sel.text), 10, [old, sel], lambda a, m: a[m])
            value = binop(r.choice(["+", "-", "*"]), picked, self.literal())
        else:
            value = self.literal()
        index = sel.text if sel is not None else index
        op = r.choice(["", "", "+", "-", "*"]) if dt.kind != "b" else ""
        if op and np.ndim(value.g) > 0 and np.asarray(value.g).dtype != dt:
            raise Reject("op= of a value NumPy would not cast back")
        if op and np.ndim(value.g) == 0 and (value.g is True or value.g is False or
                                             (dt.kind in "iu") != isinstance(value.g, int)):
            raise Reject("op= whose result NumPy would not cast back")

        def fn(a, *rest):
            out = np.array(a, copy=True)
            key = rest[0] if sel is not None else keys[index]
            v = rest[-1]
            if op:
                out[key] = BINOPS[op](out[key], v)
            else:
                out[key] = v
            return out

        kids = [old] + ([sel] if sel is not None else []) + [value]
        node = Node("%s[%s] %s= %s" % (t, index, op, value.text), 0, kids, fn, "exact")
        if any(np.asarray(g).dtype != np.asarray(o).dtype for g, o in zip(node.gs, old.gs)):
            raise Reject("assignment changes the dtype")
        return t, node

    def bind(self, t, node):
        """Append the statement node, binding t, to the current body; in a loop, a name
        bound before it (carried) must keep its type, dtype and shape, and its exactness
        (a statement before this one may have relied on it in the next iteration)."""
        if t in self.counters():
            raise Reject("a loop's counter cannot be rebound")
        if self.frames and t in self.frames[-1].pre and t in self.env:
            if any(sig(e[t]) != sig(v) for e, v in zip(self.envs, node.gs)):
                raise Reject("a carried name changes its type, dtype or shape")
            if self.exact[t] and not node.exact:
                raise Reject("a carried name would lose its exactness")
            if node.nz or t in self.nzn:
                raise Reject("a carried name of a shape that depends on the data")
        self.body.append((t, node))
        self.nstmt += 1
        self.when[t] = self.nstmt
        for e, v in zip(self.envs, node.gs):
            e[t] = v
        self.exact[t] = node.exact
        if node.nz:
            self.nzn.add(t)
        else:
            self.nzn.discard(t)

    # ---- loops ---------------------------------------------------------------
    def lit(self, v):
        return self.leaf(str(v), lambda env: v, prec=10 if v >= 0 else 8, is_lit=True)

    def counter_leaf(self, c):
        return self.leaf(c, lambda env: env[c], name=c)

    def loop(self):
        """A for loop (maybe with accumulators bound just before it); on Reject, the
        generator's state is as it was."""
        saved = ([dict(e) for e in self.envs], dict(self.exact), dict(self.when), self.ntemp,
                 len(self.body), self.nstmt, set(self.nzn), set(self.hidden))
        try:
            self.make_loop()
        except BaseException:
            for e, c in zip(self.envs, saved[0]):
                e.clear()
                e.update(c)
            self.exact, self.when, self.ntemp = saved[1], saved[2], saved[3]
            del self.body[saved[4]:]
            self.nstmt = saved[5]
            self.nzn, self.hidden = saved[6], saved[7]
            raise

    def make_loop(self):
        r = self.rng
        accs = []
        for _ in range(r.choice([0, 1, 1, 2])):
            try:
                accs.append(self.accumulator())
            except GEN_ERRORS:
                pass
        counter = self.counter_name()
        args, long = self.range_args()
        vals = [list(range(*[a.gs[i] for a in args])) for i in range(len(GENERIC))]
        if any(bool(v) != bool(vals[0]) for v in vals):
            raise Reject("the loop runs zero times on some generic sizes only")
        if max(len(v) for v in vals) > 120:
            raise Reject("too many iterations")
        loop = Loop(counter, args, r.choice([4, 4, 4, 4, 2, 3, 8]))
        pre = set(self.names())
        pre_envs, pre_exact = [dict(e) for e in self.envs], dict(self.exact)
        for e, v in zip(self.envs, vals):          # the body is generated in the first iteration
            e[counter] = v[0] if v else 0          # (a zero-trip body as if the counter were 0)
        self.exact[counter] = True
        self.when[counter] = self.nstmt + 3
        outer, self.body = self.body, loop.body
        self.frames.append(Frame(counter, pre, long or any(f.long for f in self.frames), vals))
        try:
            for a in accs:                         # each accumulator is updated first
                for _ in range(8):
                    try:
                        self.rebind(a)
                        break
                    except GEN_ERRORS:
                        pass
            n, tries = len(loop.body) + r.randint(1, 4), 0
            while len(loop.body) < n and tries < 30:
                tries += 1
                try:
                    self.statement()
                except GEN_ERRORS:
                    pass
        finally:
            self.body = outer
            self.frames.pop()
        if not loop.body:
            raise Reject("an empty body")
        # The state after the loop: the loop run, all its iterations, from the state before it.
        for e, c in zip(self.envs, pre_envs):
            e.clear()
            e.update(c)
        budget = [ITER_CAP]
        for e in self.envs:
            loop.run(e, None, budget)
        binds = bindings(loop.body)
        for t, _ in binds:
            if len({t in e for e in self.envs}) > 1:
                raise Reject("bound on some generic sizes only")
        self.exact = pre_exact
        for t, node in binds:                      # exact if every value it may have is
            self.exact[t] = self.exact.get(t, True) and node.exact
            if node.nz:
                self.nzn.add(t)
        # A range that depends on an enclosing loop's counter (range(i)) may run in one
        # iteration of that loop and not in the next: a name bound only in its body is
        # never read after it (npxc: not supported yet).
        if self.frames and any(uses(a, self.counters()) for a in args):
            self.hidden |= {t for t, _ in binds if t not in pre}
        # Nor a name bound only in a body to a value of a length the data decide
        # (npxc: not supported yet).
        self.hidden |= {t for t, node in binds if t not in pre and node.nz}
        self.body.append((None, loop))
        self.nstmt += 1
        for t, _ in binds:
            self.when[t] = self.nstmt

    def window(self, d, f, c):
        """A slice that moves with counter c: x[..., s*i + o:s*i + o + n, ...]. npxc stops
        where NumPy would return a shorter slice, so only windows inside the axis in every
        iteration on every size set: an axis whose length is the same on all of them (a
        literal), a loop whose counter takes the same values on all of them."""
        r = self.rng
        if any(v != f.vals[0] for v in f.vals) or not f.vals[0]:
            raise Reject("a window in a loop whose range depends on the sizes")
        a = self.array_operand(d, lambda n: np.ndim(n.g) > 0 and not n.nz)
        nd = np.ndim(a.g)
        k = r.randrange(nd)
        lens = {np.shape(g)[k] for g in a.gs}
        if len(lens) > 1:
            raise Reject("a window on an axis whose length depends on the sizes")
        length, vals = lens.pop(), f.vals[0]
        s, n = r.choice([1, 1, 2, 3]), r.randint(1, 3)
        lo, hi = -s * min(vals), length - n - s * max(vals)      # the offsets o that fit
        if lo > hi:
            raise Reject("no window fits")
        o = r.randint(lo, hi)
        first = c if s == 1 else binop("*", c, self.lit(s)) if r.random() < 0.5 else binop("*", self.lit(s), c)
        start = first if o == 0 else binop("+" if o > 0 else "-", first, self.lit(abs(o)))
        stop_text = r.choice(["%s + %d" % (start.text, n), "%s + %d" % (par(first, 6), o + n)]) \
            if o + n != 0 else first.text
        texts = [":"] * k + ["%s:%s" % (start.text, stop_text)]

        def fn(v, i):
            b = s * i + o
            return v[(slice(None),) * k + (slice(b, b + n),)]
        return Node("%s[%s]" % (par(a, 10), ", ".join(texts)), 10, [a, c], fn)

    def counter_name(self):
        r = self.rng
        taken = set(self.env) | set(self.env[SIZES]) | {"np", "numpy"}
        if r.random() < self.hostile:
            free = [h for h in HOSTILE if h not in taken]
        else:
            free = [c for c in ["i", "j", "k", "step", "it", "epoch", "r", "m"] if c not in taken]
        if not free:
            raise Reject("no name for the counter")
        return r.choice(free)

    def bound_sizes(self):
        """Sizes a loop may run over: the symbols, NAME.shape[k] of axes not too long."""
        out = [self.sym_leaf(s) for s in self.syms]
        for n in self.names(lambda v: np.ndim(v) > 0):
            for k in range(np.ndim(self.env[n])):
                if all(0 < np.shape(e[n])[k] < 100 for e in self.envs):
                    out.append(self.leaf("%s.shape[%d]" % (n, k), lambda env, n=n, k=k: env[n].shape[k]))
        if not out:
            raise Reject("no size to loop over")
        return out

    def range_args(self):
        """range()'s arguments, Nodes of Python ints, and whether the loop may be long
        (over a size): short ones (literals, maybe a negative step), long ones, ones
        bounded by an enclosing loop's counter, ones that run zero times."""
        r, lit = self.rng, self.lit
        long_ok = not any(f.long for f in self.frames)   # at most one long loop in a nest
        cs = [f.counter for f in self.frames]
        form = r.choice(["short", "short", "zero"] + ["long"] * 3 * long_ok + ["outer"] * 3 * bool(cs and long_ok))
        if form == "short":
            spec = r.choice([(3,), (1,), (4,), (5,), (1, 4), (-2, 3), (0, 6, 2), (4, -1, -1), (5, 0, -2),
                             (3, -3, -2), (2, 9, 3), (-1, 2), (2, 5, 1)])
            return [lit(v) for v in spec], False
        if form == "zero":
            x = r.randrange(6 + bool(cs))
            if x < 4:
                return [lit(v) for v in [(0,), (3, 3), (4, 1), (1, 5, -1)][x]], False
            s = r.choice(self.bound_sizes())
            if x == 4:
                return [s, lit(0)], False
            if x == 5:
                return [s, s], False
            c = self.counter_leaf(cs[-1])
            return [c, c], False
        if form == "long":
            s = r.choice(self.bound_sizes())
            one = lit(1)
            return r.choice([[s], [binop("-", s, one)], [one, s], [binop("-", s, one), lit(-1), lit(-1)],
                             [lit(0), s, lit(2)], [binop("//", s, lit(2))], [s, lit(-1), lit(-3)],
                             [binop("+", s, one)], [lit(2), binop("+", s, lit(2)), lit(3)]]), True
        c = self.counter_leaf(r.choice(cs))
        x = r.randrange(9)
        if x == 8:
            return [c, r.choice(self.bound_sizes())], True
        neg = Node("-" + par(c, 8), 8, [c], operator.neg)
        return [[c], [binop("+", c, lit(1))], [c, lit(4)], [binop("-", c, lit(1)), lit(-1), lit(-1)],
                [binop("+", binop("*", lit(2), c), lit(1))], [c, binop("+", c, lit(3))],
                [neg, binop("+", c, lit(1)), lit(2)], [lit(3), c, lit(-1)]][x], False

    def accumulator(self):
        """A name bound just before a loop, for the loop to carry: a Python number, an
        array like another one, zeros, a 0-d array."""
        r = self.rng
        self.ntemp += 1
        t = "acc%d" % self.ntemp
        x = r.random()
        if x < 0.3:
            node = self.lit(r.choice([0, 0, 1, 0.0, 0.0, 1.0, 0.5, -2]))
        elif x < 0.5:
            t0 = r.choice(["f32", "f64", "i32", "i64"])
            v = np.full((), 0, DT[t0])
            node = self.leaf("np.zeros((), dtype=%s)" % self.spell(t0), lambda env: v)
        elif x < 0.75:
            a = self.name_leaf(lambda v: isinstance(v, (np.ndarray, np.generic)) and kind(v) != "b")
            name = r.choice(["zeros_like", "ones_like"])
            node = self.fcall(name, [a.text], [a], getattr(np, name))
        else:
            node = self.array_operand(1)
        self.bind(t, Node("%s = %s" % (t, node.text), 0, [node], lambda v: v))
        return t

    def rebind(self, y=None):
        """In a loop: y = f(y, e), e another expression; for a name bound before the loop
        (carried), f keeps y's type, dtype and shape (or it is rejected)."""
        r = self.rng
        if y is None:
            inputs = dict(self.inputs_by_name())
            cands = [n for n in self.names() if n not in self.counters() and (n not in inputs or r.random() < 0.2)]
            pre = [n for n in cands if n in self.frames[-1].pre]
            if pre and r.random() < 0.7:
                cands = pre
            if not cands:
                raise Reject("nothing to rebind")
            y = r.choice(cands)
        old = self.env[y]
        Y = self.leaf(y, lambda env: env[y], self.exact[y], name=y)
        x = r.random()
        if isinstance(old, (bool, int, float)) and not isinstance(old, np.generic):
            e = self.py_expr()
            if x < 0.15:
                node = e
            elif x < 0.5:
                node = binop(r.choice(["+", "-"]), Y, e)
            elif x < 0.8 or type(old) is not int:
                node = binop("+", binop("*", Y, self.lit(r.choice([0.5, 2, 3, -1]))), e)
            else:
                node = binop(r.choice(["//", "%"]), binop("+", Y, e), self.lit(r.choice([7, 1000, 3])))
        else:
            e = self.operand(r.choice([0, 1, 1, 2]))
            if x < 0.15:
                node = e
            elif x < 0.45:
                node = binop(r.choice(["+", "-", "*"]), Y, e)
            elif x < 0.65:
                node = binop("+", binop("*", Y, self.lit(0.5)), e)
            elif x < 0.75:
                name = r.choice(["maximum", "minimum"])
                node = self.fcall(name, [Y.text, e.text], [Y, e], getattr(np, name))
            elif x < 0.85:
                c = self.operand(1, lambda n: kind(n.g) == "b" and np.ndim(n.g) > 0, lit=False, exact=True)
                node = self.fcall("where", [c.text, Y.text, e.text], [c, Y, e], where_checked)
            elif np.ndim(old) > 0:                 # the same values in another order
                k = r.randrange(np.ndim(old))
                node = Node("%s[%s]" % (y, ", ".join([":"] * k + ["::-1"])), 10, [Y],
                            lambda v: v[(slice(None),) * k + (slice(None, None, -1),)])
                if r.random() < 0.5:
                    node = binop(r.choice(["+", "-"]), node, e)
            else:
                node = binop("-", e, Y)
            want = np.asarray(old).dtype
            if (isinstance(node.g, (np.ndarray, np.generic)) and node.g.dtype != want and r.random() < 0.8
                    and all(np.shape(g) == np.shape(o) for g, o in zip(node.gs, [ev[y] for ev in self.envs]))):
                if want.kind in "bi" and not node.exact:
                    raise Reject("a cast of rounded values to an integer")
                tname = [k for k, v in DT.items() if np.dtype(v) == want][0]
                node = Node("%s.astype(%s)" % (par(node, 10), self.spell(tname)), 10, [node],
                            to_int_checked(want))
        self.bind(y, Node("%s = %s" % (y, node.text), 0, [node], lambda v: v))

    def py_expr(self):
        """A Python number: counters, Python-number names, sizes, literals, + - * / // %."""
        r = self.rng

        def atom():
            x = r.random()
            if x < 0.45:
                f = self.frames[-1] if r.random() < 0.6 else r.choice(self.frames)
                return self.counter_leaf(f.counter)
            if x < 0.6:
                n = self.names(lambda v: isinstance(v, (int, float)) and not isinstance(v, (bool, np.generic)))
                if n:
                    n = r.choice(n)
                    return self.leaf(n, lambda env: env[n], self.exact[n], name=n)
            if x < 0.75:
                return self.shape_leaf()
            return self.lit(r.choice([1, 2, 3, 7, 0.5, 1.5, -1, 10.0]))
        a = atom()
        for _ in range(r.choice([0, 1, 1, 2])):
            op = r.choice(["+", "-", "*", "+", "*", "//", "%", "/"])
            b = atom()
            a = binop(op, a, b) if r.random() < 0.7 else binop(op, b, a)
        return a

    def loop_expr(self, d):
        """An enclosing loop's counter: as an index (x[i], x[:, i % V], x[..., -1 - i],
        x[i % 3 - 3]), in a slice's bounds (a window) or a number in arithmetic."""
        r = self.rng
        f = self.frames[-1] if r.random() < 0.7 else r.choice(self.frames)
        c = self.counter_leaf(f.counter)
        if r.random() < 0.4:
            return self.window(d, f, c)
        if r.random() < 0.3:
            a = self.operand(d)
            op = r.choice(["+", "-", "*", "*"])
            return binop(op, a, c) if r.random() < 0.6 else binop(op, c, a)
        a = self.array_operand(d, lambda n: np.ndim(n.g) > 0 and not n.nz)
        nd = np.ndim(a.g)
        k = r.randrange(nd)
        lens = [np.shape(g)[k] for g in a.gs]
        inside = all(-n <= v < n for n, vs in zip(lens, f.vals) for v in vs)
        x = r.random()
        if inside and x < 0.5:
            idx = c
        elif inside and x < 0.65:
            idx = binop("-", self.lit(-1), c)
        else:
            ls = self.dim_leaves(a, k) + [self.lit(v) for v in (1, 2, 3) if all(v <= n for n in lens)]
            if not ls:
                raise Reject("no way to write the length")
            L = r.choice(ls)
            idx = binop("%", c, L)
            if r.random() < 0.3:
                idx = binop("-", idx, L)           # a negative position
        texts, objs = [":"] * k, [slice(None)] * k
        if k and k == nd - 1 and r.random() < 0.5:
            texts, objs = ["..."], [Ellipsis]
        texts, objs = texts + [None], objs + [None]
        if k + 1 < nd and r.random() < 0.3:
            s = r.choice(["1:", "::-1", ":-1", "::2"])
            texts, objs = texts + [s], objs + [slice_of(s)]

        def fn(v, i):
            return v[tuple(i if o is None else o for o in objs)]
        return Node("%s[%s]" % (par(a, 10), ", ".join(idx.text if t is None else t for t in texts)),
                    10, [a, idx], fn)

    def generate(self):
        self.declare()
        n, tries = self.rng.randint(3, 8), 0
        while len(self.stmts) < n and tries < 60:
            tries += 1
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("error", DeprecationWarning)
                    self.statement()
            except GEN_ERRORS:
                pass
        if not self.stmts:
            raise Reject("no statement")

    def evaluate(self, sizes, seed, rng=None):
        """Every final name's value on the actual inputs (perturbed when rng is given)."""
        env = {SIZES: sizes}
        for k, (name, dt, dims) in enumerate(self.inputs):
            shape = tuple(sizes.get(d, d) for d in dims)
            env[name] = npxref.random_array(shape, np.dtype(DT[dt]), seed, k)
        run_stmts(self.stmts, env, rng, [ITER_CAP])
        return env

    def text(self, outputs, title):
        lines = ["# " + title]
        for name, dt, dims in self.inputs:
            lines.append("input %s: %s%s" % (name, dt, "[%s]" % ", ".join(map(str, dims)) if dims else ""))
        lines.append("output " + ", ".join(outputs))
        lines += stmt_lines(self.stmts, "")
        return "\n".join(lines) + "\n"


def close(a, b, rtol, atol):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    with np.errstate(all="ignore"):
        ok = (np.abs(a - b) <= atol + rtol * np.abs(b)) | (np.isnan(a) & np.isnan(b)) | (a == b)
    return bool(np.all(ok))


def conditioned(gen, sizes, seed, nrng):
    """(values, final names whose values are stable under the perturbation; see module doc)."""
    plain = gen.evaluate(sizes, seed)
    good = set(assigned(gen.stmts))
    for _ in range(2):
        noisy = gen.evaluate(sizes, seed, nrng)
        for t in list(good):
            if t not in plain or t not in noisy:   # bound only in a loop that ran zero times
                if (t in plain) != (t in noisy):
                    good.discard(t)
                continue
            p, q = plain[t], noisy[t]
            if np.shape(p) != np.shape(q):
                good.discard(t)
            elif kind(p) == "f":
                rtol, atol = TOL["f32" if np.asarray(p).dtype == np.float32 else "f64"]
                if not close(q, p, rtol / 10, atol / 10):
                    good.discard(t)
            elif not np.array_equal(p, q):
                good.discard(t)
    return plain, good


def sh(cmd, cwd, timeout=180, env=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                           env=dict(os.environ, **(env or {})))
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return 124, "timed out after %d s" % timeout


def first_error(out):
    """The first line of a compiler's output that says error, else its first lines."""
    lines = out.strip().splitlines()
    errs = [l.strip() for l in lines if "error" in l]
    return (errs[0] if errs else " | ".join(lines[:3]))[:300]


def make_program(seed, i, hostile, cap=40000, loops=0.0, sorts=0, masks=0, setitems=0.0, statistics=0,
                 rearranging=0):
    """(Gen, outputs, size sets, run seed) for program i of seed, or None if discarded;
    the ordinary sizes have at most cap elements in all (the product of the symbols).
    A size set is (sizes, values): values is None where NumPy raises on those sizes."""
    rng = random.Random("%d:%d" % (seed, i))
    gen = Gen(rng, hostile, loops, sorts, masks, setitems, statistics, rearranging)
    try:
        gen.generate()
    except Reject:
        return None
    syms, mult = gen.syms, gen.mult
    run_seed = rng.randrange(1000)
    nrng = np.random.default_rng(rng.randrange(2**32))
    normal = {s: 300 for s in syms}                      # 300: a multiple of every m of MULT
    while np.prod(list(normal.values())) > cap:           # some long rows, but not too big
        normal = {s: rng.choice([2, 3, 5, 7, 8, 16, 33, 65, 130, 257]) for s in syms}
        normal = {s: v if s not in mult else mult[s] * max(1, v // 4) for s, v in normal.items()}
    edge = {s: rng.choice([0, 1, 1, 7, 33]) * mult.get(s, 1) for s in syms}
    size_sets, good = [], set(assigned(gen.stmts))
    for sizes in (normal, edge, {s: max(v, mult.get(s, 1)) for s, v in edge.items()}):
        if sizes in [s for s, _ in size_sets] or len([v for _, v in size_sets if v]) == 2:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", DeprecationWarning)
                plain, g = conditioned(gen, sizes, run_seed, nrng)
            good &= g
            size_sets.append((sizes, plain))
        except (Reject, MemoryError):
            if sizes is normal:
                return None
        except NUMPY_ERRORS:
            if sizes is normal:
                return None
            size_sets.append((sizes, None))            # npxc must stop with a run-time error
    modified = set(assigned(gen.stmts))
    final = [t for t in gen.names() if t in modified and t in good and t in size_sets[0][1]]
    if not final:
        return None
    outputs = sorted(rng.sample(final, min(len(final), rng.randint(2, 4))))
    # An output bound only in a loop that ran zero times: NumPy's NameError, npxc's exit 3.
    size_sets = [(s, v if v is None or all(o in v for o in outputs) else None) for s, v in size_sets]
    return gen, outputs, size_sets, run_seed


def check_one(args, seed, i, cuda):
    """Run program i of seed through npxc; returns (status, message)."""
    made = make_program(seed, i, args.hostile, CUDA_CAP if cuda else 40000, args.loops,
                        args.sorts, args.masks, args.setitems, args.statistics,
                        args.rearranging)
    if made is None:
        return "discarded", "", 0
    gen, outputs, size_sets, run_seed = made
    nloops = features(gen, outputs)
    tag = "s%d_i%d" % (seed, i)
    d = os.path.join(args.work, tag)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    src = os.path.join(d, "prog.npx")
    with open(src, "w") as f:
        f.write(gen.text(outputs, "fuzz_programs.py --seed %d --first %d" % (seed, i)))
    npxc, npxcmp = os.path.join(args.build, "npxc"), os.path.join(args.build, "npxcmp")
    builds = [("C", [npxc, "prog.npx", "-o", "prog.c", "--exe"], "./prog", {}),
              ("C -O0", [npxc, "-O0", "prog.npx", "-o", "prog0.c", "--exe"], "./prog0", {})]
    if cuda:
        builds.append(("CUDA emu", [npxc, "-t", "cuda", "prog.npx", "-o", "prog.cu"], "./prog_emu",
                       {"NPX_EMU_ORDER": "shuffle"}))
    fails = []

    def fail(what):
        fails.append(what)
        with open(os.path.join(d, "FAILURES.txt"), "a") as f:
            f.write(what + "\n")

    runnable = []
    for label, cmd, exe, env in builds:
        rc, out = sh(cmd, d)
        if rc == 0 and label == "CUDA emu":
            rc, out = sh(["g++", "-std=c++17", "-O1", "-x", "c++", "prog.cu", "-o", "prog_emu", "-lpthread"], d, 300)
            if rc != 0:
                fail("%s: g++ of the emulated CUDA failed: %s" % (label, first_error(out)))
                continue
        if rc != 0 and "changing a shared array is not supported yet" in out:
            shutil.rmtree(d, ignore_errors=True)  # x[...] = v on a name NumPy shares: npxc refuses (documented)
            return "discarded", "", 0
        if rc != 0:
            fail("%s: npxc exit %d: %s" % (label, rc, first_error(out)))
        elif "warning:" in out:
            fail("%s: the build warns: %s" % (label, [l for l in out.splitlines() if "warning:" in l][0].strip()))
        else:
            runnable.append((label, exe, env))
    for n, (sizes, plain) in enumerate(size_sets):
        dims = [a for s, v in sorted(sizes.items()) for a in ("--dim", "%s=%d" % (s, v))]
        run_args = ["--random", str(run_seed)] + dims
        ref = "ref%d" % n
        rc, out = sh([sys.executable, npxref.__file__, "prog.npx"] + run_args + ["-o", ref], d)
        if rc != 0 and plain is not None:
            continue                  # NumPy rejects what the fuzzer accepted: not npxc's business
        if rc == 0 and plain is None:
            fail("FUZZER: NumPy raised on %s while generating, npxref does not" % " ".join(run_args))
            continue
        if plain is None:             # NumPy raises: every build must stop with exit 3
            why = out.strip().splitlines()[-1][:200] if out.strip() else "?"
            for label, exe, env in runnable:
                rc, out = sh([exe] + run_args + ["-o", "out%d_%s" % (n, exe[2:])], d,
                             env=dict(env, OMP_NUM_THREADS="2"))
                if rc != 3:
                    fail("%s: %s: exit %d where NumPy raises (%s)%s" % (
                        label, " ".join(run_args), rc, why,
                        (": " + out.strip()[-200:]) if rc else ""))
            continue
        for name in outputs:          # the fuzzer's own evaluation must be the oracle's
            a, b = np.load(os.path.join(d, ref, name + ".npy")), np.asarray(plain[name])
            if kind(b) == "f":        # (to the last bits: BLAS's sums depend on the buffers' alignment)
                rtol, atol = TOL["f32" if b.dtype == np.float32 else "f64"]
                same = a.dtype == b.dtype and a.shape == b.shape and close(a, b, rtol / 100, atol / 100)
            else:
                same = np.array_equal(a, b) and a.dtype == b.dtype
            if not same:
                fail("FUZZER: its own evaluation of %s is not npxref's" % name)
        for label, exe, env in runnable:
            o = "out%d_%s" % (n, exe[2:])
            rc, out = sh([exe] + run_args + ["-o", o], d, env=dict(env, OMP_NUM_THREADS="2"))
            if rc != 0:
                fail("%s: run %s exit %d: %s" % (label, " ".join(run_args), rc, out.strip()[-300:]))
                continue
            for name in outputs:
                a, b = os.path.join(d, o, name + ".npy"), os.path.join(d, ref, name + ".npy")
                if not os.path.exists(a):
                    fail("%s: %s: no output %s.npy" % (label, " ".join(run_args), name))
                    continue
                dt = np.load(b).dtype
                rtol, atol = TOL["f32" if dt == np.float32 else "f64"]
                rc, out = sh([npxcmp, a, b, "--rtol", str(rtol), "--atol", str(atol)], d)
                if rc != 0:
                    fail("%s: %s: %s differs: %s" % (label, " ".join(run_args), name,
                                                     " ".join(out.split())[:300]))
    if fails:
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            shutil.copy(src, os.path.join(args.keep, tag + ".npx"))
        known = all(any(re.search(rx, f) for rx in args.ignore) for f in fails)
        return "known" if known else "failed", "%s (%d problems) first: %s" % (tag, len(fails), fails[0]), nloops
    shutil.rmtree(d, ignore_errors=True)
    return "ok", "", nloops


def features(gen, outputs):
    """What a program has that a summary counts: loops, sort/argsort, masks
    (x[mask], flatnonzero, count_nonzero)."""
    text = gen.text(outputs, "")
    out = set()
    if loop_count(gen.stmts):
        out.add("loops")
    if re.search(r"\b(sort|argsort)\(", text):
        out.add("sort")
    if gen.nzn or re.search(r"\b(flatnonzero|count_nonzero)\(", text) or any(
            getattr(n, "nz", False) for _, n in bindings(gen.stmts)):
        out.add("masks")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--first", type=int, default=0, help="index of the first program")
    ap.add_argument("--cuda-every", type=int, default=4, help="CUDA emulation for every K-th program (0: never)")
    ap.add_argument("--keep", help="copy the .npx of every failing program here")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="folder with npxc and npxcmp")
    ap.add_argument("--work", default="/tmp/npx_fuzz", help="scratch folder (failing programs stay there)")
    ap.add_argument("--hostile", type=float, default=0.15,
                    help="rate of names that are also C or libm names (HOSTILE)")
    ap.add_argument("--ignore", action="append", default=[], metavar="REGEX",
                    help="count a failure whose message matches REGEX as known, not failed")
    ap.add_argument("--loops", type=float, default=0.15,
                    help="rate of top-level statements that are for loops (0: none, the programs of before)")
    ap.add_argument("--sorts", type=float, default=3,
                    help="weight of sort/argsort among the expressions (arithmetic: 8; 0: none)")
    ap.add_argument("--masks", type=float, default=4,
                    help="weight of boolean masks, flatnonzero, count_nonzero (0: none)")
    ap.add_argument("--setitems", type=float, default=0.08,
                    help="rate of statements that assign to elements, x[mask] = v, x[0] += v (0: none)")
    ap.add_argument("--statistics", type=float, default=2,
                    help="weight of median, quantile, the nan-functions, cumprod, unique, pad (0: none)")
    ap.add_argument("--rearranging", type=float, default=0,
                    help="weight of flip, roll, diff, tril, tile, repeat, diagonal, nan_to_num, round ... (0: none)")
    ap.add_argument("--show", action="store_true", help="print the programs, run nothing")
    ap.add_argument("-v", "--verbose", action="store_true", help="a line for every program")
    args = ap.parse_args()
    np.seterr(all="ignore")
    warnings.simplefilter("ignore", RuntimeWarning)
    counts, feats = {}, {}
    for i in range(args.first, args.first + args.count):
        if args.show:
            cuda = args.cuda_every > 0 and i % args.cuda_every == 0
            made = make_program(args.seed, i, args.hostile, CUDA_CAP if cuda else 40000, args.loops,
                                args.sorts, args.masks, args.setitems, args.statistics,
                        args.rearranging)
            print(made[0].text(made[1], "s%d_i%d sizes %s" % (args.seed, i, [s for s, _ in made[2]]))
                  if made else "# discarded\n")
            continue
        cuda = args.cuda_every > 0 and i % args.cuda_every == 0
        status, msg, has = check_one(args, args.seed, i, cuda)
        counts[status] = counts.get(status, 0) + 1
        for f in has or ():
            feats.setdefault(f, [0, 0])
            feats[f][0] += 1
            feats[f][1] += cuda
        if status != "discarded":
            feats.setdefault("CUDA emulated", [0, 0])[0] += cuda
        if status == "failed" or args.verbose:
            print("%s: %s %s" % (status.upper(), "s%d_i%d" % (args.seed, i), msg), flush=True)
    print("fuzz_programs: seed %d, programs %d..%d: %s%s" % (
        args.seed, args.first, args.first + args.count - 1,
        ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())),
        "; run: %d CUDA emulated" % feats.pop("CUDA emulated")[0] + "".join(
            ", %d with %s (%d also CUDA emulated)" % (n, f, c) for f, (n, c) in sorted(feats.items()))
        if feats else ""),
        flush=True)
    return 1 if counts.get("failed") else 0


if __name__ == "__main__":
    sys.exit(main())
