#!/usr/bin/env python3
"""npxref.py: the NumPy reference runner, the oracle of the test suite.

    npxref.py PROG.npx [NAME=FILE.npy | NAME=NUMBER ...] [--random SEED]
              [--dim SYM=N ...] [-o DIR] [--trace DIR] [--print]

It reads a .npx file the way npxc does (declarations, statements, bracket line
continuation, # comments) but evaluates every expression with NumPy itself:
each right-hand side is Python's own expression syntax, evaluated by `eval` in
a namespace where every NumPy name is visible with and without the `np.` /
`numpy.` prefix (so `exp`, `sum`, `max`, `abs` are NumPy's) and the dtype names
`bool i32 i64 f32 f64` are NumPy's dtypes. Whatever NumPy answers is, by the
SPEC's first rule, the right answer.

Inputs come from .npy files, from numbers (0-d inputs: a 0-d array of the
declared dtype, a strong value under NEP 50), or from --random SEED, which
re-implements the generator documented in runtime/npx_rt.h in vectorized
uint64 arithmetic, so that npxref.py and the generated programs see the same
data. Every output is written to DIR/NAME.npy; --trace DIR writes every named
value in statement order (NAME.npy, NAME.2.npy, ... and trace.txt), as a
generated program's --trace does.

Exit status 0 on success; on any error, a message on stderr and exit 1.
Needs Python 3 and NumPy 2 only.
"""
import ast
import os
import re
import sys
import warnings
from fractions import Fraction

import numpy as np

# The five dtypes of the first version, under every spelling the language accepts.
DTYPES = {
    "bool": np.bool_, "bool_": np.bool_,
    "i32": np.int32, "int32": np.int32,
    "i64": np.int64, "int64": np.int64,
    "f32": np.float32, "float32": np.float32,
    "f64": np.float64, "float64": np.float64,
}
SUPPORTED = {np.dtype(t) for t in DTYPES.values()}

AUG_OPS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
    ast.Mod: "%", ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|",
    ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
}

NAME_RE = r"[A-Za-z_][A-Za-z_0-9]*"


class NpxError(Exception):
    """An error in the program or its inputs; line is the .npx line, or None."""

    def __init__(self, msg, line=None):
        super().__init__(msg)
        self.line = line


# ---- the --random generator (runtime/npx_rt.h) ------------------------------
MASK64 = (1 << 64) - 1


def mix64(z):
    """SplitMix64's step on a uint64 array (wrapping arithmetic)."""
    z = z + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def random_array(shape, dtype, seed, k):
    """Input number k (0-based, declaration order) filled from SEED.
    r_i = mix64(mix64(seed ^ ((k + 1) * 0xD1B54A32D192ED03)) + i), i in C order."""
    n = int(np.prod(shape, dtype=np.int64))
    key = (seed ^ (((k + 1) * 0xD1B54A32D192ED03) & MASK64)) & MASK64
    base = mix64(np.array([key], dtype=np.uint64))
    r = mix64(base + np.arange(n, dtype=np.uint64))
    dt = np.dtype(dtype)
    if dt == np.float32:
        v = (r >> np.uint64(40)).astype(np.float32) * np.float32(2.0 ** -24)
    elif dt == np.float64:
        v = (r >> np.uint64(11)).astype(np.float64) * (2.0 ** -53)
    elif dt == np.bool_:
        v = (r >> np.uint64(63)).astype(np.bool_)
    else:
        v = (r % np.uint64(1000)).astype(dt)
    return v.reshape(shape)


# ---- reading the program -----------------------------------------------------
def logical_lines(text):
    """(first line number, indent, code) per statement: comments dropped, lines
    joined while a bracket is open, blank lines skipped."""
    depth, buf, start = 0, [], None
    for no, raw in enumerate(text.splitlines(), 1):
        code = raw.split("#", 1)[0]
        if not buf and not code.strip():
            continue
        if not buf:
            start, indent = no, code[:len(code) - len(code.lstrip())]
        buf.append(code)
        for ch in code:
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
        if depth <= 0:
            yield start, indent, " ".join(s.strip() for s in buf).strip()
            depth, buf = 0, []
    if buf:
        raise NpxError("unexpected end of file: a bracket is never closed", start)


def parse_dtype(text, line):
    t = text.strip()
    for prefix in ("np.", "numpy."):
        if t.startswith(prefix):
            t = t[len(prefix):]
    if t not in DTYPES:
        raise NpxError("unknown dtype '%s'" % text.strip(), line)
    return np.dtype(DTYPES[t])


class Program:
    """The statements of one .npx file, checked for what can be checked
    before running."""

    def __init__(self, path):
        self.path = path
        with open(path, encoding="utf-8") as f:
            text = f.read()
        self.stmts = []        # ("input", line, text, name, dtype, dims) | ("const", ...) | ("assign", ...)
                               # | ("for", line, text, name, range code, body statements)
        self.inputs = []       # (name, dtype, dims, line) in declaration order
        self.consts = {}
        self.outputs = []      # (name, line)
        bound = set()
        blocks = [("", self.stmts)]   # the open blocks: their indent and statements
        for line, indent, code in logical_lines(text):
            if len(blocks[-1][1]) and blocks[-1][1][-1][0] == "for" and not blocks[-1][1][-1][5] \
                    and len(indent) > len(blocks[-1][0]) and indent.startswith(blocks[-1][0]):
                blocks.append((indent, blocks[-1][1][-1][5]))
            while indent != blocks[-1][0] and len(blocks) > 1 and len(indent) < len(blocks[-1][0]):
                blocks.pop()
            if indent != blocks[-1][0]:
                raise NpxError("unexpected indent or unindent", line)
            stmts, self.stmts = self.stmts, blocks[-1][1]
            self._statement(line, code, bound)
            self.stmts = stmts
        for block in self._loops(self.stmts):
            if not block[5]:
                raise NpxError("expected an indented block after 'for'", block[1])
        for name, line in self.outputs:
            if name not in bound:
                raise NpxError("output '%s' is never bound" % name, line)

    def _statement(self, line, code, bound):
        if re.fullmatch(r"import\s+numpy(\s+as\s+np)?", code):
            return
        m = re.fullmatch(r"input\s+(%s)\s*:\s*([\w.]+)\s*(?:\[(.*)\])?" % NAME_RE, code)
        if m:
            name = m.group(1)
            if any(name == i[0] for i in self.inputs):
                raise NpxError("input '%s' is declared twice" % name, line)
            if name in self.consts:
                raise NpxError("'%s' is already a const" % name, line)
            dtype = parse_dtype(m.group(2), line)
            dims = self._dims(m.group(3), line) if m.group(3) is not None else []
            self.inputs.append((name, dtype, dims, line))
            self.stmts.append(("input", line, code, name))
            bound.add(name)
            return
        if re.match(r"input\b", code) and not re.match(r"input\s*(=|[-+*/%@&|^<>]+=)", code):
            raise NpxError("malformed input declaration (input NAME: DTYPE[DIMS])", line)
        m = re.fullmatch(r"const\s+(%s)\s*=\s*(.+)" % NAME_RE, code)
        if m:
            name = m.group(1)
            if name in self.consts or any(name == i[0] for i in self.inputs):
                raise NpxError("'%s' is declared twice" % name, line)
            value = self._const_value(m.group(2), line)
            self.consts[name] = value
            self.stmts.append(("const", line, code, name, value))
            bound.add(name)
            return
        m = re.fullmatch(r"output\s+(%s(?:\s*,\s*%s)*)\s*,?" % (NAME_RE, NAME_RE), code)
        if m:
            for name in re.split(r"\s*,\s*", m.group(1).strip()):
                self.outputs.append((name, line))
            return
        if re.match(r"for\b", code):
            return self._loop(line, code, bound)
        if re.match(r"(output|const)\b", code) and not re.match(r"(output|const)\s*(=|[-+*/%@&|^<>]+=)", code):
            raise NpxError("malformed declaration", line)
        self._assignment(line, code, bound)

    def _loops(self, stmts):
        for st in stmts:
            if st[0] == "for":
                yield st
                yield from self._loops(st[5])

    def _loop(self, line, code, bound):
        m = re.fullmatch(r"for\s+(%s)\s+in\s+(range\s*\(.*\))\s*:" % NAME_RE, code)
        if not m:
            raise NpxError("syntax error: expected for NAME in range(...):", line)
        tree = ast.parse(m.group(2), mode="eval")
        check_expr(tree, line)
        self.stmts.append(("for", line, code, m.group(1), compile(tree, self.path, "eval"), []))
        bound.add(m.group(1))

    def _dims(self, text, line):
        dims = []
        if not text.strip():
            return dims
        for d in text.split(","):
            d = d.strip()
            if re.fullmatch(r"[0-9]+", d):
                dims.append(int(d))
            elif re.fullmatch(NAME_RE, d):
                dims.append(self.consts.get(d, d))
            else:
                raise NpxError("a size must be a non-negative integer or a size symbol, not '%s'" % d, line)
        return dims

    def _const_value(self, text, line):
        try:
            tree = ast.parse(text.strip(), mode="eval")
        except SyntaxError as e:
            raise NpxError("syntax error in const: %s" % e.msg, line)
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Expression, ast.Constant, ast.Name, ast.Load, ast.BinOp,
                                     ast.UnaryOp, ast.operator, ast.unaryop)):
                raise NpxError("a const must be an integer expression", line)
        try:
            value = eval(compile(tree, self.path, "eval"), {"__builtins__": {}}, dict(self.consts))
        except Exception as e:
            raise NpxError("const: %s" % e, line)
        if type(value) is not int:
            raise NpxError("a const must be an integer, not %r" % (value,), line)
        return value

    def _assignment(self, line, code, bound):
        try:
            tree = ast.parse(code, mode="exec")
        except SyntaxError as e:
            raise NpxError("syntax error: %s" % e.msg, line)
        if len(tree.body) != 1:
            raise NpxError("syntax error: one statement per line", line)
        st = tree.body[0]
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            name, op, value = st.targets[0].id, None, st.value
        elif isinstance(st, ast.AugAssign) and isinstance(st.target, ast.Name):
            name, op, value = st.target.id, st.op, st.value
        elif self._setitem(line, code, st, bound) or self._ufunc_at(line, code, st, bound) \
                or self._unpack(line, code, st, bound):
            return
        else:
            raise NpxError("syntax error: expected NAME = EXPR or NAME op= EXPR", line)
        if name in self.consts:
            raise NpxError("cannot assign to const '%s'" % name, line)
        check_expr(value, line)
        if op is not None:
            value = ast.BinOp(left=ast.Name(id=name, ctx=ast.Load()), op=op, right=value)
        expr = ast.Expression(body=value)
        ast.fix_missing_locations(expr)
        ast.increment_lineno(expr, line - 1)
        code_obj = compile(expr, self.path, "eval")
        self.stmts.append(("assign", line, code, name, op, code_obj))
        bound.add(name)


    def _unpack(self, line, code, st, bound):
        """a, b = value: Python's unpacking into names, each bound to its part."""
        target = st.targets[0] if isinstance(st, ast.Assign) and len(st.targets) == 1 else None
        if not (isinstance(target, (ast.Tuple, ast.List)) and target.elts
                and all(isinstance(t, ast.Name) for t in target.elts)):
            return False
        names = [t.id for t in target.elts]
        for name in names:
            if name in self.consts:
                raise NpxError("cannot assign to const '%s'" % name, line)
        check_expr(st.value, line)
        expr = ast.Expression(body=st.value)
        ast.fix_missing_locations(expr)
        ast.increment_lineno(expr, line - 1)
        self.stmts.append(("unpack", line, code, names, None, compile(expr, self.path, "eval")))
        bound.update(names)
        return True

    def _setitem(self, line, code, st, bound):
        """x[index] = v, x[index] op= v: run as the statement itself, in place."""
        target = st.targets[0] if isinstance(st, ast.Assign) and len(st.targets) == 1 else getattr(st, "target", None)
        if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)):
            return False
        name = target.value.id
        if name in self.consts:
            raise NpxError("cannot assign to const '%s'" % name, line)
        check_expr(st.value, line)
        check_expr(target.slice, line)
        module = ast.Module(body=[st], type_ignores=[])
        ast.fix_missing_locations(module)
        ast.increment_lineno(module, line - 1)
        self.stmts.append(("setitem", line, code, name, None, compile(module, self.path, "exec")))
        bound.add(name)
        return True


    def _ufunc_at(self, line, code, st, bound):
        """np.add.at(x, indices, v) and the other ufuncs' at: x changes in place."""
        call = st.value if isinstance(st, ast.Expr) else None
        f = call.func if isinstance(call, ast.Call) else None
        if not (isinstance(f, ast.Attribute) and f.attr == "at" and isinstance(f.value, ast.Attribute)
                and isinstance(f.value.value, ast.Name) and f.value.value.id in ("np", "numpy")
                and call.args and isinstance(call.args[0], ast.Name)):
            return False
        check_expr(call, line)
        module = ast.Module(body=[st], type_ignores=[])
        ast.fix_missing_locations(module)
        ast.increment_lineno(module, line - 1)
        self.stmts.append(("setitem", line, code, call.args[0].id, None, compile(module, self.path, "exec")))
        bound.add(call.args[0].id)
        return True


def check_expr(tree, line):
    """Reject the Python that is not npx (SPEC section 1)."""
    strings = set()         # npx's strings are arguments: einsum('ij,jk'), astype('f4'), mode='raise'
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            strings.update(id(a) for a in node.args)
        if isinstance(node, ast.keyword):
            strings.add(id(node.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.BoolOp):
            word = "and" if isinstance(node.op, ast.And) else "or"
            raise NpxError("'%s' is not supported on arrays: use '%s'" % (word, "&" if word == "and" else "|"), line)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            raise NpxError("'not' is not supported on arrays: use '~'", line)
        if isinstance(node, ast.Compare) and len(node.ops) > 1:
            raise NpxError("chained comparisons are not supported", line)
        if isinstance(node, (ast.Lambda, ast.IfExp, ast.ListComp, ast.GeneratorExp, ast.DictComp,
                             ast.SetComp, ast.Dict, ast.Set, ast.JoinedStr, ast.NamedExpr,
                             ast.Await, ast.Yield, ast.YieldFrom, ast.Starred)):
            raise NpxError("%s is not part of the npx language" % type(node).__name__, line)
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes, complex)) and id(node) not in strings:
            raise NpxError("%r is not an npx literal" % (node.value,), line)


# ---- running it ---------------------------------------------------------------
class Namespace(dict):
    """The names an expression sees: the program's values first, then the
    dtype spellings, then anything in NumPy (np.exp and exp alike), and
    Python's len."""

    ALIASES = dict(DTYPES, np=np, numpy=np, len=len)

    def __missing__(self, name):
        if name in self.ALIASES:
            return self.ALIASES[name]
        if not name.startswith("_") and hasattr(np, name):
            return getattr(np, name)
        raise KeyError(name)


# No Python builtins in expressions (sum, max, abs... are NumPy's through
# Namespace), except __import__, which NumPy's C code needs from the caller's
# frame when it imports lazily.
EVAL_GLOBALS = {"__builtins__": {"__import__": __import__}}


def as_value(value, what, line):
    """Check that a bound value is something npx has: a number or an array of
    one of the five dtypes."""
    if isinstance(value, (bool, int, float, np.generic, np.ndarray)):
        arr = np.asarray(value)
        if arr.dtype not in SUPPORTED:
            raise NpxError("%s has dtype %s, which npx does not support" % (what, arr.dtype), line)
        return value
    raise NpxError("%s is a %s, not an array or a number" % (what, type(value).__name__), line)


def nearest_f32(text):
    """text correctly rounded to float32 (as C's strtof does), not rounded to
    float64 first and then to float32."""
    v = np.float32(float(text))
    if not np.isfinite(v):
        return v
    try:
        exact = Fraction(text.strip())
    except ValueError:
        return v
    best = v
    for c in (np.nextafter(v, np.float32(-np.inf)), np.nextafter(v, np.float32(np.inf))):
        if not np.isfinite(c):
            continue
        dc, db = abs(Fraction(float(c)) - exact), abs(Fraction(float(best)) - exact)
        if dc < db or (dc == db and int(c.view(np.uint32)) % 2 == 0):
            best = c
    return best


def parse_number(text, dtype):
    """NAME=NUMBER for a 0-d input, or None when text is not a number. Accepts
    what the generated programs accept (runtime/scalar.c)."""
    t = text
    if dtype == np.bool_:
        table = {"True": True, "true": True, "1": True, "False": False, "false": False, "0": False}
        return np.array(table[t], dtype) if t in table else None
    if dtype.kind == "i":
        if not re.fullmatch(r"[+-]?[0-9]+", t):
            if re.fullmatch(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", t):
                raise NpxError("'%s' is not an integer" % t)
            return None
        v = int(t)
        info = np.iinfo(dtype)
        if not info.min <= v <= info.max:
            raise NpxError("'%s' is out of range for %s" % (t, dtype))
        return np.array(v, dtype)
    try:
        float(t)
    except ValueError:
        return None
    if dtype == np.float32:
        return np.array(nearest_f32(t), dtype)
    return np.array(float(t), dtype)


def bind_size(sizes, sym, n, what):
    if sym in sizes and sizes[sym] != n:
        raise NpxError("size symbol %s is bound to %d and to %d (%s)" % (sym, sizes[sym], n, what))
    sizes[sym] = n


def load_inputs(prog, given, seed, sizes):
    """Every input's value, in declaration order: given ones checked against
    their declaration, missing ones from --random."""
    declared = {name: (dtype, dims, line) for name, dtype, dims, line in prog.inputs}
    for name in given:
        if name not in declared:
            raise NpxError("'%s' is not an input of %s" % (name, prog.path))
    values = {}
    for name, dtype, dims, line in prog.inputs:
        if name not in given:
            continue
        text = given[name]
        v = parse_number(text, dtype) if not dims else None
        if v is None:
            try:
                v = np.load(text, allow_pickle=False)
            except Exception as e:
                raise NpxError("input %s: cannot read %s: %s" % (name, text, e))
            if v.dtype != dtype:
                raise NpxError("input %s: %s has dtype %s, declared %s" % (name, text, v.dtype, dtype), line)
            if v.ndim != len(dims):
                raise NpxError("input %s: %s has %d dimensions, declared %d" % (name, text, v.ndim, len(dims)), line)
            for k, (d, n) in enumerate(zip(dims, v.shape)):
                if isinstance(d, int):
                    if d != n:
                        raise NpxError("input %s: %s has size %d on axis %d, declared %d" % (name, text, n, k, d), line)
                else:
                    bind_size(sizes, d, n, "input %s from %s" % (name, text))
            v = np.ascontiguousarray(v) if v.ndim else v
        values[name] = v
    for k, (name, dtype, dims, line) in enumerate(prog.inputs):
        if name in values:
            continue
        if seed is None:
            raise NpxError("input %s is missing: give %s=FILE.npy or --random SEED" % (name, name), line)
        shape = []
        for d in dims:
            if not isinstance(d, int):
                if d not in sizes:
                    raise NpxError("size symbol %s of input %s is unknown: give --dim %s=N" % (d, name, d), line)
                d = sizes[d]
            shape.append(d)
        values[name] = random_array(tuple(shape), dtype, seed, k)
    return values


class Tracer:
    """--trace DIR: every named value in statement order, as the generated
    programs write it (runtime/npx_rt.h, npx_trace)."""

    def __init__(self, path, directory):
        self.path, self.dir, self.count = os.path.basename(path), directory, {}
        if directory:
            os.makedirs(directory, exist_ok=True)
            open(os.path.join(directory, "trace.txt"), "w").close()

    def __call__(self, name, line, text, value):
        if not self.dir:
            return
        n = self.count[name] = self.count.get(name, 0) + 1
        fname = name + (".%d" % n if n > 1 else "") + ".npy"
        save(os.path.join(self.dir, fname), value)
        with open(os.path.join(self.dir, "trace.txt"), "a") as f:
            f.write("%s\t%d\t%s\n" % (self.path, line, text))


def save(path, value):
    arr = np.asarray(value, order="C")
    if arr.dtype not in SUPPORTED:
        raise NpxError("cannot write %s: dtype %s" % (path, arr.dtype))
    np.save(path, arr)


def run(prog, given, seed, sizes, trace_dir):
    inputs = load_inputs(prog, given, seed, sizes)
    env = Namespace()
    env.update(sizes)                    # a size symbol is a Python int where a value goes
    execute(prog.stmts, env, inputs, Tracer(prog.path, trace_dir))
    return {name: env[name] for name, _ in prog.outputs}


def evaluate(code, env, line):
    try:
        return eval(code, EVAL_GLOBALS, env)
    except NameError as e:
        raise NpxError(str(e), line)
    except NpxError:
        raise
    except Exception as e:
        raise NpxError("%s: %s" % (type(e).__name__, e), line)


def run_statement(code, env, line):
    try:
        exec(code, EVAL_GLOBALS, env)
    except Exception as e:
        raise NpxError("%s: %s" % (type(e).__name__, e), line)


def execute(stmts, env, inputs, trace):
    for st in stmts:
        kind, line, text, name = st[:4]
        if kind == "input":
            env[name] = inputs[name]
            trace(name, line, text, inputs[name])
        elif kind == "const":
            env[name] = st[4]
        elif kind == "for":
            for i in evaluate(st[4], dict(env, range=range), line):
                env[name] = i
                execute(st[5], env, inputs, trace)
        elif kind == "unpack":
            value = evaluate(st[5], env, line)
            try:
                parts = list(value)
            except TypeError as e:
                raise NpxError("TypeError: %s" % e, line)
            if len(parts) != len(name):
                raise NpxError("ValueError: %s values to unpack (expected %d, got %d)"
                               % ("too many" if len(parts) > len(name) else "not enough", len(name), len(parts)),
                               line)
            parts = [as_value(part, "'%s'" % n, line) for n, part in zip(name, parts)]
            for n, part in zip(name, parts):
                env[n] = part
                trace(n, line, text, part)
        elif kind == "setitem":
            if name not in env:
                raise NpxError("name '%s' is not defined" % name, line)
            run_statement(st[5], env, line)
            trace(name, line, text, env[name])
        else:
            op, code = st[4], st[5]
            if op is not None and name not in env:
                raise NpxError("name '%s' is not defined" % name, line)
            value = as_value(evaluate(code, env, line), "'%s'" % name, line)
            if op is not None:
                old, new = np.asarray(env[name]), np.asarray(value)
                if old.dtype != new.dtype:
                    raise NpxError("%s %s= ...: cannot cast the result, %s, back to %s's dtype %s "
                                   "(NumPy refuses the in-place cast)"
                                   % (name, AUG_OPS[type(op)], new.dtype, name, old.dtype), line)
                if old.shape != new.shape:
                    raise NpxError("%s %s= ...: the result's shape %s is not %s's shape %s"
                                   % (name, AUG_OPS[type(op)], new.shape, name, old.shape), line)
            env[name] = value
            trace(name, line, text, value)


USAGE = ("usage: npxref.py PROG.npx [NAME=FILE.npy | NAME=NUMBER ...] [--random SEED] "
         "[--dim SYM=N ...] [-o DIR] [--trace DIR] [--print]")


def parse_args(argv):
    opts = {"prog": None, "given": {}, "seed": None, "dims": {}, "out": ".", "trace": None, "print": False}
    it = iter(argv)
    for a in it:
        def value():
            v = next(it, None)
            if v is None:
                raise NpxError("%s needs a value\n%s" % (a, USAGE))
            return v
        if a == "--random":
            s = value()
            if not re.fullmatch(r"[0-9]+", s) or int(s) > MASK64:
                raise NpxError("--random needs an integer seed in [0, 2^64), not '%s'" % s)
            opts["seed"] = int(s)
        elif a == "--dim":
            m = re.fullmatch(r"(%s)=([0-9]+)" % NAME_RE, value())
            if not m:
                raise NpxError("--dim needs SYM=N with N a non-negative integer")
            bind_size(opts["dims"], m.group(1), int(m.group(2)), "--dim")
        elif a == "-o":
            opts["out"] = value()
        elif a == "--trace":
            opts["trace"] = value()
        elif a == "--print":
            opts["print"] = True
        elif a in ("-h", "--help"):
            print(USAGE)
            sys.exit(0)
        elif a.startswith("-"):
            raise NpxError("unknown option %s\n%s" % (a, USAGE))
        elif "=" in a:
            name, v = a.split("=", 1)
            if not re.fullmatch(NAME_RE, name):
                raise NpxError("bad argument '%s'" % a)
            opts["given"][name] = v
        elif opts["prog"] is None:
            opts["prog"] = a
        else:
            raise NpxError("unexpected argument '%s'\n%s" % (a, USAGE))
    if opts["prog"] is None:
        raise NpxError(USAGE)
    return opts


def main(argv):
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    path = None
    try:
        opts = parse_args(argv)
        path = opts["prog"]
        prog = Program(path)
        known = {d for _, _, dims, _ in prog.inputs for d in dims if isinstance(d, str)}
        for sym in opts["dims"]:
            if sym not in known:
                raise NpxError("--dim %s: %s has no size symbol %s" % (sym, path, sym))
        outputs = run(prog, opts["given"], opts["seed"], dict(opts["dims"]), opts["trace"])
        os.makedirs(opts["out"], exist_ok=True)
        for name, value in outputs.items():
            save(os.path.join(opts["out"], name + ".npy"), value)
            if opts["print"]:
                print("%s = %r" % (name, np.asarray(value)))
    except NpxError as e:
        where = "%s:%d: " % (path, e.line) if path and e.line else (path + ": " if path else "")
        print("npxref: error: %s%s" % (where, e), file=sys.stderr)
        return 1
    except Exception as e:          # anything else: still a clean message and exit 1
        print("npxref: error: %s%s: %s" % (path + ": " if path else "", type(e).__name__, e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
