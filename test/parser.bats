#!/usr/bin/env bats
# parser.bats: the front end (lexer/lexer.l, parser/parser.y, parser/ast.c)
# through `npxc --dump-ast`: the tree it builds, and the syntax errors it gives.

load test_helper

# src LINE...: the test's .npx file, one argument per line.
src() {
    SRC=$BATS_TEST_TMPDIR/t.npx
    printf '%s\n' "$@" >"$SRC"
}

# dump LINE...: parse; it must succeed. The dump is in $output.
dump() {
    src "$@"
    run -0 "$NPXC" --dump-ast "$SRC"
}

# fails LINE...: parse; it must fail with status 1. The diagnostics are in $output.
fails() {
    src "$@"
    run -1 "$NPXC" --dump-ast "$SRC"
}

# same EXPECTED: the dump is exactly EXPECTED (one argument per line).
same() {
    local want
    want=$(printf '%s\n' "$@")
    if [ "$output" != "$want" ]; then
        printf -- '--- expected:\n%s\n--- got:\n%s\n' "$want" "$output" >&2
        return 1
    fi
}

# error LINE:COL TEXT: the diagnostics hold "t.npx:LINE:COL: error: TEXT".
error() {
    if [[ $output != *"t.npx:$1: error: $2"* ]]; then
        printf -- '--- expected: t.npx:%s: error: %s\n--- got:\n%s\n' "$1" "$2" "$output" >&2
        return 1
    fi
}

# note LINE:COL TEXT: the same for a note.
note() {
    if [[ $output != *"t.npx:$1: note: $2"* ]]; then
        printf -- '--- expected: t.npx:%s: note: %s\n--- got:\n%s\n' "$1" "$2" "$output" >&2
        return 1
    fi
}

# errors N: exactly N errors were reported.
errors() {
    local n
    n=$(grep -c ': error: ' <<<"$output" || true)
    if [ "$n" != "$1" ]; then
        printf -- '--- expected %s errors, got %s:\n%s\n' "$1" "$n" "$output" >&2
        return 1
    fi
}

# ---- the tree ---------------------------------------------------------------

@test "arithmetic follows Python's precedence" {
    dump 'y = a + b * c - d / e // f % g' 'z = a - b - c'
    same 'assign y = ((a + (b * c)) - (((d / e) // f) % g))' \
         'assign z = ((a - b) - c)'
}

@test "bitwise operators and shifts bind as in Python, comparisons loosest" {
    dump 'y = a | b ^ c & d << 1 + 2' 'z = a < b | c' 'w = ~a == b'
    same 'assign y = (a | (b ^ (c & (d << (1 + 2)))))' \
         'assign z = (a < (b | c))' \
         'assign w = ((~a) == b)'
}

@test "a unary minus on the left of ** applies to the power" {
    dump 'y = -x**2' 'z = -2 ** 2 * 3'
    same 'assign y = (-(x ** 2))' \
         'assign z = ((-(2 ** 2)) * 3)'
}

@test "** is right-associative and takes a negative exponent" {
    dump 'y = a ** b ** c' 'z = 2**-1' 'w = 2 ** -x ** 2'
    same 'assign y = (a ** (b ** c))' \
         'assign z = (2 ** (-1))' \
         'assign w = (2 ** (-(x ** 2)))'
}

@test "an attribute binds tighter than @" {
    dump 'y = a @ b.T' 'z = (a @ b).T'
    same 'assign y = (a @ b.T)' \
         'assign z = (a @ b).T'
}

@test "a method call takes keyword arguments" {
    dump 'y = x.sum(axis=1, keepdims=True)' 'z = x.astype(f32).max()' 'w = f(a, b,)'
    same 'assign y = x.sum(axis=1, keepdims=True)' \
         'assign z = x.astype(f32).max()' \
         'assign w = f(a, b)'
}

@test "an index takes integers, slices, None and an ellipsis" {
    dump 'y = x[1:3, None, ..., ::2, -1]' 'z = x[:]' 'w = x[a:, :b, (0, 1)][0]'
    same 'assign y = x[1:3:, None, ..., ::2, (-1)]' \
         'assign z = x[::]' \
         'assign w = x[a::, :b:, (0, 1)][0]'
}

@test "tuples and lists are written as in Python" {
    dump 'y = zeros((a, b))' 'z = f((a,), (), [1, 2], [])' 'w = a, b'
    same 'assign y = zeros((a, b))' \
         'assign z = f((a,), (), [1, 2], [])' \
         'assign w = (a, b)'
}

@test "several names take a value apart as in Python, with or without brackets" {
    dump 'a, b = b, a' '(q, r) = divmod(x, y)' '[lo, hi] = x'
    same 'assign a, b = (b, a)' \
         'assign q, r = divmod(x, y)' \
         'assign lo, hi = x'
}

@test "numbers take underscores and every float spelling" {
    dump 'y = [1_000, 1., .5, 1e-3, 2.5E+4, 1_0.2_5, 0, 9223372036854775807]'
    same 'assign y = [1000, 1.0, 0.5, 0.001, 25000.0, 10.25, 0, 9223372036854775807]'
}

@test "True, False and None are literals" {
    dump 'y = where(m, True, False)' 'z = x.sum(axis=None)'
    same 'assign y = where(m, True, False)' \
         'assign z = x.sum(axis=None)'
}

@test "a line continues inside brackets" {
    dump 'y = f(a,' '      b)  # the call goes on' 'z = x[0,' '' '      1] + (a' '  - b)'
    same 'assign y = f(a, b)' \
         'assign z = (x[0, 1] + (a - b))'
}

@test "a backslash at the end of a line continues it" {
    dump 'y = a + \' '    b'
    same 'assign y = (a + b)'
}

@test "comments and blank lines make no statements" {
    dump '# a comment' '' '   ' 'y = a  # after a statement' '    # indented comment' ''
    same 'assign y = a'
}

@test "an empty file parses to nothing" {
    dump
    same ''
}

@test "the last line needs no newline, and CRLF line ends are accepted" {
    printf 'y = a\r\nz = b' >"$BATS_TEST_TMPDIR/t.npx"
    run -0 "$NPXC" --dump-ast "$BATS_TEST_TMPDIR/t.npx"
    same 'assign y = a' 'assign z = b'
}

@test "np. and numpy. prefixes fold into the name" {
    dump 'y = np.exp(x) + numpy.log(x)' 'z = x.astype(np.float32) * np.pi' \
         'w = np.linalg.norm(x)' 'v = (np).exp(x)'
    same 'assign y = (np.exp(x) + np.log(x))' \
         'assign z = (x.astype(np.float32) * np.pi)' \
         'assign w = np.linalg.norm(x)' \
         'assign v = np.exp(x)'
}

@test "the name numpy is imported as folds too" {
    dump 'import numpy as xp' 'y = xp.exp(x)'
    same 'assign y = np.exp(x)'
}

@test "every statement form parses" {
    dump 'import numpy as np' 'import numpy' \
         'input x: f32[B, 784]' 'input W: np.float32[784, H]' 'input lr: f32' \
         'const K = 1000' 'y = x @ W' 'y += 1' 'output y, W'
    same 'input x: f32[B, 784]' \
         'input W: float32[784, H]' \
         'input lr: f32' \
         'const K = 1000' \
         'assign y = (x @ W)' \
         'assign y += 1' \
         'output y, W'
}

@test "the lines indented under a for are its body, nested loops and blank or comment lines too" {
    dump 'for i in range(3):' '    y = x' '' '    # a comment' '    for j in range(i, 5, 2):' \
         '        y += j' '    z = (1,' '2)' 'w = y'
    same 'for i in range(3):' \
         '    assign y = x' \
         '    for j in range(i, 5, 2):' \
         '        assign y += j' \
         '    assign z = (1, 2)' \
         'assign w = y'
}

@test "a tab where the block is indented with spaces is an error, as Python's TabError" {
    fails 'for i in range(3):' '    y = 1' '	z = 2'
    [[ $output == *"t.npx:3:2: error: inconsistent use of tabs and spaces in indentation"* ]]
}

@test "every augmented assignment parses" {
    local op ops=(+ - '*' / // % '**' @ '&' '|' ^ '<<' '>>') lines=() want=()
    for op in "${ops[@]}"; do
        lines+=("x $op= y")
        want+=("assign x $op= y")
    done
    dump "${lines[@]}"
    same "${want[@]}"
}

# ---- errors -----------------------------------------------------------------

@test "a missing operand is reported after its operator" {
    fails 'y = x *' 'z = a + * b'
    error 1:8 "expected an expression after '*'"
    error 2:9 "expected an expression after '+'"
    errors 2
}

@test "a missing closing bracket is reported at its opening" {
    fails 'y = f(a, (b + c)'
    error 1:17 "expected ')' to close '(' opened at 1:6"
    note 1:6 "'(' opened here"
    errors 1
}

@test "a statement that runs on for want of a ']' is reported where it ran on" {
    fails 'y = x[0, 1' 'z = 1' 'w = 2 +'
    error 2:1 "expected ']' to close '[' opened at 1:6"
    note 1:6 "'[' opened here"
    error 3:8 "expected an expression after '+'"
    errors 2
}

@test "a closing bracket that does not match, or matches nothing, is reported" {
    fails 'y = f(a]' 'z = a)'
    error 1:8 "closing ']' does not match '(' opened at 1:6"
    error 2:6 "unmatched ')'"
    errors 2
}

@test "a line that ends too early says what was expected" {
    fails 'input x' 'output'
    error 1:8 "unexpected end of line; expected ':'"
    error 2:7 "expected a name after 'output'"
}

@test "a missing operator is reported at the second operand" {
    fails 'y = a b'
    error 1:7 "unexpected name 'b'; expected an operator, ',' or end of line"
}

@test "'and', 'or' and 'not' suggest '&', '|' and '~'" {
    fails 'y = a and b' 'z = a or b' 'w = not a'
    error 1:7 "use '&' instead of 'and' (NumPy arrays have no truth value)"
    error 2:7 "use '|' instead of 'or' (NumPy arrays have no truth value)"
    error 3:5 "use '~' instead of 'not' (NumPy arrays have no truth value)"
    errors 3
}

@test "'and' between comparisons suggests parentheses too" {
    fails 'm = x > 0 and x < 1'
    error 1:11 "use '&' instead of 'and' (NumPy arrays have no truth value), with each comparison in parentheses: (x > 0) & (x < 1)"
}

@test "comparisons cannot be chained" {
    fails 'm = a < b < c < d'
    error 1:11 "comparisons cannot be chained; use (a < b) & (b < c)"
    errors 1
}

@test "a comparison split by '&' explains that '&' binds tighter" {
    fails 'm = x > 0 & x < 1'
    error 1:11 "comparisons cannot be chained, and '&' binds tighter than '>': write (x > 0) & (x < 1)"
}

@test "a junk character is reported" {
    fails 'y = a $ b' 'z = a ; b' 'w = "s' "v = 'a\\b'"
    error 1:7 "unexpected character '\$'"
    error 2:7 "unexpected character ';'"
    error 3:5 "unterminated string; a string ends on its line and has no '\\' escapes"
    error 4:5 "unterminated string; a string ends on its line and has no '\\' escapes"
    errors 4
}

@test "trailing junk after a number is reported" {
    fails 'y = 12abc' 'z = 1__0' 'w = 1.T'
    error 1:5 "trailing junk after numeric literal: '12abc'"
    error 2:5 "trailing junk after numeric literal: '1__0'"
    error 3:5 "trailing junk after numeric literal: '1.T'"
}

@test "an integer literal too large for int64 is reported" {
    fails 'y = 9223372036854775808'
    error 1:5 "integer literal 9223372036854775808 is too large for int64"
}

@test "assignment to a subscript of an expression or to an attribute is reported, also in an unpacking" {
    fails '(x + 1)[0] = 1' 'x[:, 1][0] += 2' 'x.T = y' 'a, x[0] = 1, 2' '(a, b), c = y' 'a, x.T = 1, 2'
    error 1:1 "assignment to an element of an expression is not supported; index a name: x[i, j] = v"
    error 2:1 "assignment to an element of an expression is not supported"
    error 3:1 "assignment to an attribute is not supported"
    error 4:4 "unpacking into an element is not supported yet"
    error 5:1 "nested unpacking is not supported yet; unpack into names"
    error 6:4 "assignment to an attribute is not supported"
}

@test "a positional argument after a keyword argument is reported" {
    fails 'y = f(axis=1, x)' 'z = g(a=1, a=2)'
    error 1:15 "positional argument follows keyword argument"
    error 2:12 "keyword argument 'a' is repeated"
}

@test "reserved words are reported" {
    fails 'f = lambda x: x' 'y = a if c else b'
    error 1:5 "'lambda' is not supported in .npx"
    error 2:7 "conditional expressions are not supported in .npx; use np.where(condition, a, b)"
    errors 2
}

@test "an expression alone is not a statement" {
    fails 'x + 1'
    error 1:1 "this expression's value is not used"
}

@test "input sizes must be integers or names" {
    fails 'input x: f32[3.5, B]' 'input y: f32[]' 'input z:'
    error 1:14 "a size must be an integer or a name"
    error 2:14 "expected a size (a number or a name) after '['"
    error 3:9 "expected a dtype (such as f32) after ':'"
}

@test "every error in a file is reported, each on its line" {
    fails 'input x: f32[N]' \
          'y = x *' \
          'z = x + 1' \
          'w = x and z' \
          'v = (x + 1' \
          '' \
          'u = 12abc' \
          'x.T = 1' \
          't = a < b < c' \
          's = f(a $ b)' \
          'r = np.exp(x' \
          'output y'
    error 2:8 "expected an expression after '*'"
    error 4:7 "use '&' instead of 'and'"
    error 7:1 "expected ')' to close '(' opened at 5:5"
    error 8:1 "assignment to an attribute is not supported"
    error 9:11 "comparisons cannot be chained"
    error 10:9 "unexpected character '\$'"
    error 12:1 "expected ')' to close '(' opened at 11:11"
    errors 7
}
