#!/usr/bin/env bats
# Checks the compiler leaves to run time: sizes that only the data fixes.

load test_helper

@test "a size symbol that disagrees with a literal size is a run-time error with the line, exit 3" {
    printf 'input x: f32[N]\ninput y: f32[5]\nz = x + y\noutput z\n' >"$BATS_TEST_TMPDIR/chk.npx"
    build_program "$BATS_TEST_TMPDIR/chk.npx"
    run -3 "$PROG" --random 1 --dim N=3 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"chk.npx:3: operands could not be broadcast together: N is 3, not 5"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/z.npy" ]
    run -0 "$PROG" --random 1 --dim N=5 -o "$BATS_TEST_TMPDIR/out"
    [ -f "$BATS_TEST_TMPDIR/out/z.npy" ]
}

@test "max and argmax over an axis that is empty at run time are NumPy's errors, exit 3, also in a row group" {
    printf 'input x: f32[B, C]\noutput m, y, a\nm = x.max(axis=1, keepdims=True)\ny = x - m\na = x.argmax(axis=0)\n' \
        >"$BATS_TEST_TMPDIR/chk.npx"
    build_program "$BATS_TEST_TMPDIR/chk.npx"
    run -3 "$PROG" --random 1 --dim B=3 --dim C=0 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"chk.npx:3: zero-size array to reduction operation maximum which has no identity"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/m.npy" ]
    run -3 "$PROG" --random 1 --dim B=0 --dim C=4 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"chk.npx:5: attempt to get argmax of an empty sequence"* ]]
    run -0 "$PROG" --random 1 --dim B=2 --dim C=4 -o "$BATS_TEST_TMPDIR/out"
}

@test "counts with minlength=K meet arrays of length K when no value reaches K; a larger one is a broadcast error" {
    printf 'input lab: i64[N]\ninput w: f32[K]\noutput r\nr = np.bincount(lab %% 5, minlength=K) * w\n' \
        >"$BATS_TEST_TMPDIR/bk.npx"
    build_program "$BATS_TEST_TMPDIR/bk.npx"
    run -0 "$PROG" --random 1 --dim N=50 --dim K=8 -o "$BATS_TEST_TMPDIR/out"
    [ -f "$BATS_TEST_TMPDIR/out/r.npy" ]
    run -3 "$PROG" --random 1 --dim N=50 --dim K=3 -o "$BATS_TEST_TMPDIR/out3"
    [[ $output == *"bk.npx:4: operands could not be broadcast together: ?bincount is 5 but K is 3"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out3/r.npy" ]
}

@test "an error that every thread of a loop meets is one message, whole, on one line" {
    printf 'input x: f32[N]\ninput i: i64[M]\noutput y\ny = x[i + 5]\n' >"$BATS_TEST_TMPDIR/all.npx"
    build_program "$BATS_TEST_TMPDIR/all.npx"
    for _ in 1 2 3 4 5; do
        OMP_NUM_THREADS=2 run -3 --separate-stderr "$PROG" --random 1 --dim N=4 --dim M=200000 -o "$BATS_TEST_TMPDIR/out"
        [ "${#stderr_lines[@]}" -eq 1 ]
        [[ $stderr =~ ^prog:\ error:\ .*all\.npx:4:\ index\ [0-9]+\ is\ out\ of\ bounds\ for\ axis\ 0\ with\ size\ 4$ ]]
    done
}

@test "x[np.arange(B), labels] = v: a label past the row is NumPy's IndexError, exit 3, no output" {
    printf 'input g: f32[B, K]\ninput y: i64[B]\noutput g\ng[np.arange(B), y %% 7 - 3] -= 1.0\n' >"$BATS_TEST_TMPDIR/lab.npx"
    build_program "$BATS_TEST_TMPDIR/lab.npx"
    run -3 "$PROG" --random 1 --dim B=40 --dim K=3 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"lab.npx:4: index 3 is out of bounds for axis 1 with size 3"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/g.npy" ]
    run -0 "$PROG" --random 1 --dim B=40 --dim K=4 -o "$BATS_TEST_TMPDIR/out"
    [ -f "$BATS_TEST_TMPDIR/out/g.npy" ]
}

@test "x[p] = v with a position past the axis is NumPy's IndexError, exit 3, no output; on the CUDA target too" {
    printf 'input x: f32[N, 2]\ninput p: i64[K]\noutput x\nx[p %% 7 - 3] += 1.0\n' >"$BATS_TEST_TMPDIR/sc.npx"
    build_program "$BATS_TEST_TMPDIR/sc.npx"
    run -3 "$PROG" --random 1 --dim N=3 --dim K=50 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"sc.npx:4: index 3 is out of bounds for axis 0 with size 3"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/x.npy" ]
    run -0 "$PROG" --random 1 --dim N=4 --dim K=50 -o "$BATS_TEST_TMPDIR/out"
    [ -f "$BATS_TEST_TMPDIR/out/x.npy" ]
    build_cuda_program "$BATS_TEST_TMPDIR/sc.npx"
    run -3 "$CUDA_PROG" --random 1 --dim N=3 --dim K=50 -o "$BATS_TEST_TMPDIR/out_cuda"
    [[ $output == *"sc.npx:4: index 3 is out of bounds for axis 0 with size 3"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out_cuda/x.npy" ]
}

@test "x[i] = v with i past the axis at run time is NumPy's IndexError before anything is written, exit 3" {
    printf 'input x: f32[N]\noutput x\nfor i in range(5):\n    x[i - 4] = 1.0\n' >"$BATS_TEST_TMPDIR/pos.npx"
    build_program "$BATS_TEST_TMPDIR/pos.npx"
    run -3 "$PROG" --random 1 --dim N=3 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"pos.npx:4: index -4 is out of bounds for axis 0 with size 3"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/x.npy" ]
    run -0 "$PROG" --random 1 --dim N=4 -o "$BATS_TEST_TMPDIR/out"
}

@test "a negative bincount input is an error naming the first negative element, exit 3, no output" {
    printf 'input n: i64[N]\noutput c\nc = np.bincount(n - 500)\n' >"$BATS_TEST_TMPDIR/neg.npx"
    build_program "$BATS_TEST_TMPDIR/neg.npx"
    "$PYTHON" -c 'import numpy as np; np.save("'"$BATS_TEST_TMPDIR"'/n.npy", np.array([700, 3, 900, 2, 501], np.int64))'
    run -3 "$PROG" "n=$BATS_TEST_TMPDIR/n.npy" -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"neg.npx:3: bincount: element 1 of the input is -497; bincount counts non-negative integers only"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/c.npy" ]
}

@test "an index array with a position past its axis, or any position of an empty axis, is NumPy's IndexError, exit 3" {
    printf 'input W: f32[V, 2]\ninput idx: i32[N]\noutput e, s\ne = W[idx]\ns = np.take(W, idx, axis=0).sum()\n' \
        >"$BATS_TEST_TMPDIR/take.npx"
    build_program "$BATS_TEST_TMPDIR/take.npx"
    "$PYTHON" -c 'import numpy as np; np.save("'"$BATS_TEST_TMPDIR"'/i.npy", np.array([0, -3, 2, 3], np.int32))'
    run -3 "$PROG" "idx=$BATS_TEST_TMPDIR/i.npy" --random 1 --dim V=3 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"take.npx:4: index 3 is out of bounds for axis 0 with size 3"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/e.npy" ]
    run -3 "$PROG" "idx=$BATS_TEST_TMPDIR/i.npy" --random 1 --dim V=2 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"take.npx:4: index "*" is out of bounds for axis 0 with size 2"* ]]
    run -0 "$PROG" "idx=$BATS_TEST_TMPDIR/i.npy" --random 1 --dim V=4 -o "$BATS_TEST_TMPDIR/out"
    run -3 "$PROG" "idx=$BATS_TEST_TMPDIR/i.npy" --random 1 --dim V=0 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"take.npx:4: index is out of bounds for axis 0 with size 0"* ]]
}

@test "np.take from an empty axis is an error only where the axes before it are not empty, as NumPy's take; indexing always, on both targets" {
    printf 'input a: f32[R, C]\ninput k: i64[N]\noutput t, s\nt = np.take(a, k, 1)\ns = np.take(a @ a.T, k, -1)\n' \
        >"$BATS_TEST_TMPDIR/et.npx"
    sed 's/np.take(\(.*\), k, .*)$/\1[:, k]/' "$BATS_TEST_TMPDIR/et.npx" >"$BATS_TEST_TMPDIR/ei.npx"
    build_program "$BATS_TEST_TMPDIR/et.npx"
    build_cuda_program "$BATS_TEST_TMPDIR/et.npx"
    for prog in "$PROG" "$CUDA_PROG"; do
        run -0 "$prog" --random 1 --dim R=0 --dim C=0 --dim N=4 -o "$BATS_TEST_TMPDIR/out"   # no row: nothing taken
        "$PYTHON" -c 'import numpy as np, sys; assert np.load(sys.argv[1]).shape == (0, 4)' "$BATS_TEST_TMPDIR/out/t.npy"
        run -3 "$prog" --random 1 --dim R=2 --dim C=0 --dim N=4 -o "$BATS_TEST_TMPDIR/out2"
        [[ $output == *"et.npx:4: cannot do a non-empty take from an empty axes."* ]]
        [ ! -e "$BATS_TEST_TMPDIR/out2/t.npy" ]
    done
    build_program "$BATS_TEST_TMPDIR/ei.npx"
    run -3 "$PROG" --random 1 --dim R=0 --dim C=0 --dim N=4 -o "$BATS_TEST_TMPDIR/out3"
    [[ $output == *"ei.npx:4: index is out of bounds for axis 1 with size 0"* ]]
}

@test "an integer index past a symbolic size is NumPy's IndexError at run time, exit 3; a slice past it is empty" {
    printf 'input x: f32[B, V]\ninput u: f32[K, 3]\noutput y, z, w\ny = x[-3, 1]\nz = x[5:, ::2] * 2.0\nw = np.squeeze(u, axis=0)\n' \
        >"$BATS_TEST_TMPDIR/ix.npx"
    build_program "$BATS_TEST_TMPDIR/ix.npx"
    run -3 "$PROG" --random 1 --dim B=2 --dim V=2 --dim K=1 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"ix.npx:4: index -3 is out of bounds for axis 0 with size 2 (B)"* ]]
    run -3 "$PROG" --random 1 --dim B=3 --dim V=1 --dim K=1 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"ix.npx:4: index 1 is out of bounds for axis 1 with size 1 (V)"* ]]
    run -3 "$PROG" --random 1 --dim B=3 --dim V=2 --dim K=2 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"ix.npx:6: cannot select an axis to squeeze out which has size not equal to one: K is 2, not 1"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/y.npy" ]
    run -0 "$PROG" --random 1 --dim B=3 --dim V=2 --dim K=1 -o "$BATS_TEST_TMPDIR/out"
    "$PYTHON" -c 'import numpy as np, sys; z = np.load(sys.argv[1]); assert z.shape == (0, 1), z.shape' \
        "$BATS_TEST_TMPDIR/out/z.npy"
}

@test "a position the host computes on an empty axis is NumPy's message with the position, exit 3" {
    printf 'input x: f32[T, D]\noutput y\ny = x[T - 1] * 2.0\n' >"$BATS_TEST_TMPDIR/empty.npx"
    build_program "$BATS_TEST_TMPDIR/empty.npx"
    run -3 "$PROG" --random 1 --dim T=0 --dim D=3 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"empty.npx:3: index -1 is out of bounds for axis 0 with size 0"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/y.npy" ]
}

@test "a reshape whose sizes only disagree at run time is an error naming the shape, exit 3" {
    printf 'input x: f32[B, V]\noutput y, z\ny = x.reshape(-1, 4)\nz = x.reshape(V, 3)\n' >"$BATS_TEST_TMPDIR/rs.npx"
    build_program "$BATS_TEST_TMPDIR/rs.npx"
    run -3 "$PROG" --random 1 --dim B=3 --dim V=3 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"rs.npx:3: cannot reshape array into shape (-1, 4): the size is 9"* ]]
    run -3 "$PROG" --random 1 --dim B=2 --dim V=2 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"rs.npx:4: cannot reshape array: the sizes differ: B*V is 4 but V*3 is 6"* ]]
    run -0 "$PROG" --random 1 --dim B=3 --dim V=4 -o "$BATS_TEST_TMPDIR/out"
    "$PYTHON" -c 'import numpy as np, sys; y = np.load(sys.argv[1]); assert y.shape == (3, 4), y.shape' \
        "$BATS_TEST_TMPDIR/out/y.npy"
    # NumPy refuses to infer -1 next to sizes whose product is 0
    printf 'input x: f32[B, V]\noutput a\na = x.reshape(B, -1)\n' >"$BATS_TEST_TMPDIR/r0.npx"
    build_program "$BATS_TEST_TMPDIR/r0.npx"
    run -3 "$PROG" --random 1 --dim B=0 --dim V=3 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"r0.npx:3: cannot reshape array into shape (B, -1): the size is 0, B is 0"* ]]
}

@test "an empty program compiles warning-free, runs, and writes nothing" {
    printf 'import numpy as np\nconst K = 3\n' >"$BATS_TEST_TMPDIR/empty.npx"
    build_program "$BATS_TEST_TMPDIR/empty.npx"
    npx_exec "cc -Werror" "${CC:-cc}" -std=c11 -Wall -Wextra -Werror -c "$BATS_TEST_TMPDIR/prog.c" \
        -o "$BATS_TEST_TMPDIR/empty.o"
    mkdir "$BATS_TEST_TMPDIR/out"
    run -0 "$PROG" -o "$BATS_TEST_TMPDIR/out"
    [ -z "$(ls -A "$BATS_TEST_TMPDIR/out")" ]
}

@test "a slice at most 1 long broadcasts when it is 1, and an empty one meets only an empty axis" {
    printf 'input x: f32[H, B]\ninput y: f32[4]\noutput a, b\na = x[:, :1] - x\nb = x[0, 2:3] + y\n' >"$BATS_TEST_TMPDIR/u.npx"
    build_program "$BATS_TEST_TMPDIR/u.npx"
    run -3 "$PROG" --random 1 --dim H=2 --dim B=2 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"u.npx:5: operands could not be broadcast together: B[2:3] is 0, not 4"* ]]
    run -0 "$PROG" --random 1 --dim H=2 --dim B=3 -o "$BATS_TEST_TMPDIR/out"
    printf 'input x: f32[H, B]\noutput a\na = x[:, :1] - x\n' >"$BATS_TEST_TMPDIR/e.npx"
    build_program "$BATS_TEST_TMPDIR/e.npx"
    run -0 "$PROG" --random 1 --dim H=2 --dim B=0 -o "$BATS_TEST_TMPDIR/out0"
    "$PYTHON" -c 'import numpy as np, sys; a = np.load(sys.argv[1]); assert a.shape == (2, 0), a.shape' \
        "$BATS_TEST_TMPDIR/out0/a.npy"
}

@test "broadcast_to stretches only axes of 1: 5 elements to (1,), or an empty x[-1:] to 1, are NumPy's ValueError, exit 3" {
    printf 'input x: f32[N]\ninput y: f32[V, H]\noutput a, b\na = np.broadcast_to(x, (1,))\nb = np.broadcast_to(y[-1:], (2, 1, H))\n' \
        >"$BATS_TEST_TMPDIR/bt.npx"
    build_program "$BATS_TEST_TMPDIR/bt.npx"
    build_cuda_program "$BATS_TEST_TMPDIR/bt.npx"
    for prog in "$PROG" "$CUDA_PROG"; do
        out=$BATS_TEST_TMPDIR/out_$(basename "$prog")
        run -3 "$prog" --random 1 --dim N=5 --dim V=2 --dim H=3 -o "$out"
        [[ $output == *"bt.npx:4: operands could not be broadcast together: N is 5, not 1"* ]]
        run -3 "$prog" --random 1 --dim N=1 --dim V=0 --dim H=3 -o "$out"
        [[ $output == *"bt.npx:5: operands could not be broadcast together: V[-1:] is 0, not 1"* ]]
        [ ! -e "$out/a.npy" ]
        run -0 "$prog" --random 1 --dim N=1 --dim V=2 --dim H=3 -o "$out"
        [ -f "$out/b.npy" ]
    done
}

@test "a name bound only in a loop that ran zero times is undefined after it, as in Python, exit 3" {
    printf 'input x: f32[B]\noutput y\nfor i in range(B):\n    y = x * i\n' >"$BATS_TEST_TMPDIR/loop.npx"
    build_program "$BATS_TEST_TMPDIR/loop.npx"
    run -3 "$PROG" --random 1 --dim B=0 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"loop.npx:3: name 'y' is not defined (the loop on line 3 ran zero times)"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/y.npy" ]
    run -0 "$PROG" --random 1 --dim B=3 -o "$BATS_TEST_TMPDIR/out"
    [ -f "$BATS_TEST_TMPDIR/out/y.npy" ]
    # only a read that runs fails: here in a loop that runs zero times too, or on a later line
    printf 'input x: f32[B]\noutput a\nfor i in range(B):\n    t = x * i\nfor j in range(B):\n    u = t\na = x + 1.0\nb = t\n' \
        >"$BATS_TEST_TMPDIR/later.npx"
    build_program "$BATS_TEST_TMPDIR/later.npx"
    run -3 "$PROG" --random 1 --dim B=0 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"later.npx:8: name 't' is not defined (the loop on line 3 ran zero times)"* ]]
    printf 'input x: f32[B]\noutput a\nfor i in range(B):\n    t = x * i\nfor j in range(B):\n    u = t\na = x + 1.0\n' \
        >"$BATS_TEST_TMPDIR/never.npx"
    build_program "$BATS_TEST_TMPDIR/never.npx"
    run -0 "$PROG" --random 1 --dim B=0 -o "$BATS_TEST_TMPDIR/out"
    # read by statements that run row by row (a softmax), checked before the rows
    printf 'input x: f32[B, V]\ninput m: i64\noutput y\nfor i in range(m):\n    t = x * i\ns = t - t.max(axis=1, keepdims=True)\ne = np.exp(s)\ny = e / e.sum(axis=1, keepdims=True)\n' \
        >"$BATS_TEST_TMPDIR/rows.npx"
    build_program "$BATS_TEST_TMPDIR/rows.npx"
    run -3 "$PROG" --random 1 --dim B=3 --dim V=4 m=0 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"rows.npx:6: name 't' is not defined (the loop on line 4 ran zero times)"* ]]
    # a read of its shape alone, which npxc knows before the program runs
    printf 'input x: f32[B]\noutput n\nfor i in range(B):\n    t = x * i\nn = t.shape[0] + 1\n' >"$BATS_TEST_TMPDIR/shape.npx"
    build_program "$BATS_TEST_TMPDIR/shape.npx"
    run -3 "$PROG" --random 1 --dim B=0 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"shape.npx:5: name 't' is not defined (the loop on line 3 ran zero times)"* ]]
    # its shape read by the range of a later loop, which runs zero times too
    printf 'input x: f32[B]\noutput y\ny = x\nfor i in range(B // 2):\n    t = x * i\nfor k in range(t.shape[0] - 1):\n    y = y + 1.0\n' \
        >"$BATS_TEST_TMPDIR/range.npx"
    build_program "$BATS_TEST_TMPDIR/range.npx"
    run -3 "$PROG" --random 1 --dim B=1 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"range.npx:6: name 't' is not defined (the loop on line 4 ran zero times)"* ]]
    run -0 "$PROG" --random 1 --dim B=2 -o "$BATS_TEST_TMPDIR/out"
}

@test "a name a loop that may not run binds, rebound by a second loop, is read only where that loop reads it: exit 3 there, on both targets" {
    printf 'input x: f32[B]\ninput m: i64\noutput a, b\nfor i in range(B - 1):\n    t = x * 2.0\nfor j in range(m):\n    t = t + 1.0\na = x + 1.0\nb = t\n' \
        >"$BATS_TEST_TMPDIR/re.npx"
    head -8 "$BATS_TEST_TMPDIR/re.npx" | sed 's/^output a, b$/output a/' >"$BATS_TEST_TMPDIR/skip.npx"
    sed 's/^b = t$/b = np.ones_like(t)/' "$BATS_TEST_TMPDIR/re.npx" >"$BATS_TEST_TMPDIR/shape.npx"  # its shape only
    for src in re skip shape; do
        build_program "$BATS_TEST_TMPDIR/$src.npx"
        cp "$PROG" "$BATS_TEST_TMPDIR/${src}_c"
        build_cuda_program "$BATS_TEST_TMPDIR/$src.npx"
    done
    for target in c cuda; do
        re=$BATS_TEST_TMPDIR/re_$target skip=$BATS_TEST_TMPDIR/skip_$target out=$BATS_TEST_TMPDIR/out_$target
        run -3 "$re" --random 1 --dim B=1 m=2 -o "$out"
        [[ $output == *"re.npx:7: name 't' is not defined (the loop on line 4 ran zero times)"* ]]
        run -3 "$re" --random 1 --dim B=1 m=0 -o "$out"
        [[ $output == *"re.npx:9: name 't' is not defined (the loop on line 4 ran zero times)"* ]]
        [ ! -e "$out/a.npy" ]
        run -0 "$skip" --random 1 --dim B=1 m=0 -o "$out"      # neither loop runs: NumPy never reads t
        [ -f "$out/a.npy" ]
        run -0 "$re" --random 1 --dim B=3 m=2 -o "$out"
        [ -f "$out/b.npy" ]
        run -3 "$BATS_TEST_TMPDIR/shape_$target" --random 1 --dim B=1 m=0 -o "$out/shape"
        [[ $output == *"shape.npx:9: name 't' is not defined (the loop on line 4 ran zero times)"* ]]
        run -0 "$BATS_TEST_TMPDIR/shape_$target" --random 1 --dim B=3 m=0 -o "$out/shape"
        [ -f "$out/shape/b.npy" ]
    done
}

@test "a number a loop that may not run binds, carried by a second loop, is read only where that loop reads it: exit 3 there, on both targets" {
    printf 'input x: f32[B]\ninput m: i64\noutput y, a\na = 1.0\nfor i in range(B - 1):\n    t = 7.0 * a\nfor j in range(m):\n    a = a + t\n    t = t + 1.0\ny = x + 1.0\n' \
        >"$BATS_TEST_TMPDIR/num.npx"
    build_program "$BATS_TEST_TMPDIR/num.npx"
    build_cuda_program "$BATS_TEST_TMPDIR/num.npx"
    for prog in "$PROG" "$CUDA_PROG"; do
        run -0 "$prog" --random 1 --dim B=1 m=0 -o "$BATS_TEST_TMPDIR/out"  # NumPy never reads t
        [ -f "$BATS_TEST_TMPDIR/out/a.npy" ]
        run -3 "$prog" --random 1 --dim B=1 m=2 -o "$BATS_TEST_TMPDIR/out2"
        [[ $output == *"num.npx:8: name 't' is not defined (the loop on line 5 ran zero times)"* ]]
        run -0 "$prog" --random 1 --dim B=3 m=2 -o "$BATS_TEST_TMPDIR/out3"
        "$PYTHON" -c 'import numpy as np, sys; assert np.load(sys.argv[1]) == 1.0 + 7.0 + 8.0' "$BATS_TEST_TMPDIR/out3/a.npy"
    done
}

@test "a name a loop that may not run binds, carried on by nested loops that do not run either, is never read: exit 0, on both targets" {
    printf 'input x: f32[B]\ninput p: i64\ninput q: i64\noutput y\nfor r in range(B - 1):\n    t = x * 2.0\nfor i in range(p):\n    for j in range(q):\n        t = t + 1.0\ny = x + 1.0\n' \
        >"$BATS_TEST_TMPDIR/nest.npx"
    build_program "$BATS_TEST_TMPDIR/nest.npx"
    build_cuda_program "$BATS_TEST_TMPDIR/nest.npx"
    for prog in "$PROG" "$CUDA_PROG"; do
        run -0 "$prog" --random 1 --dim B=1 p=2 q=0 -o "$BATS_TEST_TMPDIR/out"  # NumPy never reads t
        [ -f "$BATS_TEST_TMPDIR/out/y.npy" ]
        run -3 "$prog" --random 1 --dim B=1 p=2 q=1 -o "$BATS_TEST_TMPDIR/out2"
        [[ $output == *"nest.npx:9: name 't' is not defined (the loop on line 5 ran zero times)"* ]]
        [ ! -e "$BATS_TEST_TMPDIR/out2/y.npy" ]
        run -0 "$prog" --random 1 --dim B=2 p=2 q=1 -o "$BATS_TEST_TMPDIR/out3"
    done
}

@test "a mask of another length, or two masked arrays of different lengths, are run-time errors, exit 3" {
    printf 'input x: f32[B]\ninput m: bool[4]\noutput y\ny = x[m]\n' >"$BATS_TEST_TMPDIR/mask.npx"
    build_program "$BATS_TEST_TMPDIR/mask.npx"
    run -3 "$PROG" --random 1 --dim B=3 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"mask.npx:4: boolean index did not match indexed array: B is 3, not 4"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/y.npy" ]
    printf 'input x: f32[B]\noutput d\nd = x[x > 0.5] - x[x > 0.25]\n' >"$BATS_TEST_TMPDIR/two.npx"
    build_program "$BATS_TEST_TMPDIR/two.npx"
    run -3 "$PROG" --random 1 --dim B=40 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"two.npx:3: operands could not be broadcast together: ?nonzero is "*" but ?nonzero2 is "* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/d.npy" ]
}

@test "Python numbers known at run time divided by zero are Python's ZeroDivisionError, exit 3, on both targets" {
    printf 'input z: f32[V]\noutput t, u, w\nt = 3 %% V\nu = z[:1] * (7 // (V - 1))\nw = z[:1] * (1.0 / (V - 2))\n' \
        >"$BATS_TEST_TMPDIR/zd.npx"
    build_program "$BATS_TEST_TMPDIR/zd.npx"
    run -3 "$PROG" --random 1 --dim V=0 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"zd.npx:3: integer modulo by zero"* ]]
    run -3 "$PROG" --random 1 --dim V=1 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"zd.npx:4: integer division or modulo by zero"* ]]
    run -3 "$PROG" --random 1 --dim V=2 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"zd.npx:5: division by zero"* ]]
    run -0 "$PROG" --random 1 --dim V=3 -o "$BATS_TEST_TMPDIR/out"
    build_cuda_program "$BATS_TEST_TMPDIR/zd.npx"
    run -3 "$CUDA_PROG" --random 1 --dim V=1 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"zd.npx:4: integer division or modulo by zero"* ]]
    run -3 "$CUDA_PROG" --random 1 --dim V=2 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"zd.npx:5: division by zero"* ]]
}

@test "a Python number that fails fails before its statement, as Python computes it first: also where no element reads it" {
    # each statement's number fails for its own size set to 2; no element
    # reads it where k is empty (N = 0) or where picks k
    printf '%s\n' 'input k: i32[N]' 'input s: f32[A, B, C, D]' 'output a, b, c, w' 'a = k + A * 1500000000' \
        'b = k * (7 // (B - 2))' 'c = k * (3 ** (C + 38) // 3 ** (C + 38))' 'w = np.where(k == k, k, D << 30)' \
        >"$BATS_TEST_TMPDIR/first.npx"
    check_program "$BATS_TEST_TMPDIR/first.npx" --random 1 --dim N=3 --dim A=1 --dim B=1 --dim C=1 --dim D=1
    build_program "$BATS_TEST_TMPDIR/first.npx"
    build_cuda_program "$BATS_TEST_TMPDIR/first.npx"
    local prog n k sizes=(A B C D) message=(
        "first.npx:4: Python integer 3000000000 out of bounds for int32"
        "first.npx:5: integer division or modulo by zero"
        "first.npx:6: Python int 3 ** 40 is out of int64's range"
        "first.npx:7: Python integer 2147483648 out of bounds for int32")
    for prog in "$PROG" "$CUDA_PROG"; do   # (not i: bats's run -N sets a global i)
        for n in 0 3; do
            for k in 0 1 2 3; do
                local dims=(--dim N=$n --dim A=1 --dim B=1 --dim C=1 --dim D=1)
                dims[$((2 * k + 3))]=${sizes[k]}=2
                run -3 "$prog" --random 1 "${dims[@]}" -o "$BATS_TEST_TMPDIR/out$k"
                [[ $output == *"${message[k]}"* ]]
                [ ! -e "$BATS_TEST_TMPDIR/out$k/a.npy" ]
            done
        done
    done
}

@test "a position past its axis is NumPy's IndexError even where nothing is read (an empty result)" {
    printf 'input x: f32[B, V]\noutput y\nfor i in range(3):\n    y = x[:, i][:0]\n' >"$BATS_TEST_TMPDIR/pos.npx"
    build_program "$BATS_TEST_TMPDIR/pos.npx"
    run -0 "$PROG" --random 1 --dim B=2 --dim V=3 -o "$BATS_TEST_TMPDIR/out"
    run -3 "$PROG" --random 1 --dim B=2 --dim V=2 -o "$BATS_TEST_TMPDIR/out2"
    [[ $output == *"pos.npx:4: index 2 is out of bounds for axis 1 with size 2"* ]]
}

@test "a slice that moves with a loop's counter past its axis stops with exit 3 on both targets, no output written" {
    printf 'input x: f32[N, 2]\noutput s\nconst BS = 4\ns = x[:BS].sum(axis=0)\nfor b in range(1, N // 3):\n    s = s + x[b*BS - 2:(b+1)*BS - 2].sum(axis=0)\n' \
        >"$BATS_TEST_TMPDIR/win.npx"
    build_program "$BATS_TEST_TMPDIR/win.npx"
    run -0 "$PROG" --random 1 --dim N=10 -o "$BATS_TEST_TMPDIR/out"
    run -3 "$PROG" --random 1 --dim N=12 -o "$BATS_TEST_TMPDIR/out2"
    [[ $output == *"win.npx:6: the slice 10:14 does not fit in axis 0 with size 12"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out2/s.npy" ]
    build_cuda_program "$BATS_TEST_TMPDIR/win.npx"
    run -0 "$CUDA_PROG" --random 1 --dim N=10 -o "$BATS_TEST_TMPDIR/out3"
    run -3 "$CUDA_PROG" --random 1 --dim N=12 -o "$BATS_TEST_TMPDIR/out4"
    [[ $output == *"win.npx:6: the slice 10:14 does not fit in axis 0 with size 12"* ]]
}

@test "a Python int known at run time that int32 cannot hold is NumPy's OverflowError, exit 3, and compares exactly" {
    printf 'input k: i32[N]\noutput a, b\nb = k < N * 1500000000\na = k + N * 1500000000\n' >"$BATS_TEST_TMPDIR/ov.npx"
    build_program "$BATS_TEST_TMPDIR/ov.npx"
    run -0 "$PROG" --random 1 --dim N=1 -o "$BATS_TEST_TMPDIR/out1"
    run -3 "$PROG" --random 1 --dim N=2 -o "$BATS_TEST_TMPDIR/out2"
    [[ $output == *"ov.npx:4: Python integer 3000000000 out of bounds for int32"* ]]
    printf 'input k: i32[N]\noutput b\nb = k < N * 1500000000\n' >"$BATS_TEST_TMPDIR/cmp.npx"
    check_program "$BATS_TEST_TMPDIR/cmp.npx" --random 1 --dim N=2
    build_cuda_program "$BATS_TEST_TMPDIR/ov.npx"
    run -0 "$CUDA_PROG" --random 1 --dim N=1 -o "$BATS_TEST_TMPDIR/out3"
    run -3 "$CUDA_PROG" --random 1 --dim N=2 -o "$BATS_TEST_TMPDIR/out4"
    [[ $output == *"ov.npx:4: Python integer 3000000000 out of bounds for int32"* ]]
    # np.where too, as the ufuncs (NumPy 2's where casts it unchecked, numpy/numpy#27006)
    printf 'input k: i32[N]\noutput w\nfor m in range(N):\n    w = np.where(k > 0, k, m << m)\n' >"$BATS_TEST_TMPDIR/wh.npx"
    build_program "$BATS_TEST_TMPDIR/wh.npx"
    run -0 "$PROG" --random 1 --dim N=27 -o "$BATS_TEST_TMPDIR/out5"
    run -3 "$PROG" --random 1 --dim N=28 -o "$BATS_TEST_TMPDIR/out6"
    [[ $output == *"wh.npx:4: Python integer 3623878656 out of bounds for int32"* ]]
}

@test "a Python int known at run time past int64 is an error naming it, exit 3, not a wrapped number, on both targets" {
    # each statement reads its own size: A * 4e18 fits for A = 2, B + (2**63 - 8)
    # for B = 7, and so on; one more does not (Python's ints would hold it)
    printf '%s\n' 'input x: f32[A]' 'input z: f32[B, C, D, E, F]' 'output y' \
        'm = A * 4000000000000000000' 's = B + 9223372036854775800' 'd = -9223372036854775800 - C' \
        'p = 2 ** (D + 60)' 'h = 1 << (E + 60)' 'n = -(A - 9223372036854775807 - 2)' \
        'q = (F - 9223372036854775807 - 2) // -1' \
        'y = x + m + s + d + p + h + n + q + z.shape[0] * 3' >"$BATS_TEST_TMPDIR/big.npx"
    local fits="A=2 B=7 C=8 D=2 E=2 F=2"
    # sizes: the --dim arguments of fits, with $1 (N=value) in place of N's
    sizes() { local d; for d in $fits; do [ "${d%%=*}" = "${1%%=*}" ] && d=$1; echo "--dim $d"; done; }
    # shellcheck disable=SC2046  # a list of arguments
    check_program "$BATS_TEST_TMPDIR/big.npx" --random 1 $(sizes)
    build_program "$BATS_TEST_TMPDIR/big.npx"
    local what=(A=3 B=8 C=9 D=3 E=3 A=1 F=1) message=(
        "big.npx:4: Python int 3 * 4000000000000000000 is out of int64's range"
        "big.npx:5: Python int 8 + 9223372036854775800 is out of int64's range"
        "big.npx:6: Python int -9223372036854775800 - 9 is out of int64's range"
        "big.npx:7: Python int 2 ** 63 is out of int64's range"
        "big.npx:8: Python int 1 << 63 is out of int64's range"
        "big.npx:9: Python int -(-9223372036854775808) is out of int64's range"
        "big.npx:10: Python int -9223372036854775808 // -1 is out of int64's range")
    local k
    for k in "${!what[@]}"; do
        # shellcheck disable=SC2046
        run -3 "$PROG" --random 1 $(sizes "${what[$k]}") -o "$BATS_TEST_TMPDIR/bad"
        [[ $output == *"${message[$k]}, in which npxc computes Python ints"* ]]
    done
    [ ! -e "$BATS_TEST_TMPDIR/bad/y.npy" ]
    build_cuda_program "$BATS_TEST_TMPDIR/big.npx"
    # shellcheck disable=SC2046
    run -0 "$CUDA_PROG" --random 1 $(sizes) -o "$BATS_TEST_TMPDIR/out"
    # shellcheck disable=SC2046
    run -3 "$CUDA_PROG" --random 1 $(sizes D=3) -o "$BATS_TEST_TMPDIR/out2"
    [[ $output == *"${message[3]}"* ]]
}

@test "op= with an operand whose size may differ from the name's is checked at run time, NumPy's error, exit 3" {
    printf 'input y: f32[B, V]\noutput a\na = y[:1]\na += y\n' >"$BATS_TEST_TMPDIR/opeq.npx"
    build_program "$BATS_TEST_TMPDIR/opeq.npx"
    run -0 "$PROG" --random 1 --dim B=1 --dim V=3 -o "$BATS_TEST_TMPDIR/out1"
    run -3 "$PROG" --random 1 --dim B=2 --dim V=3 -o "$BATS_TEST_TMPDIR/out2"
    [[ $output == *"opeq.npx:4: non-broadcastable output operand: B[:1] is 1 but B is 2"* ]]
}

@test "a position the loop computes, read twice in a statement (x[t - 1] and z[t - 1]), is checked once" {
    printf 'input x: f32[T, D]\ninput z: f32[T, D]\noutput y\nfor t in range(T):\n    y = x[t - 1] + z[t - 1]\n' >"$BATS_TEST_TMPDIR/p.npx"
    npx_exec "npxc" "$NPXC" "$BATS_TEST_TMPDIR/p.npx" -o "$BATS_TEST_TMPDIR/p.c"
    [ "$(grep -c 'const int64_t npx_position = npx_sub_i64(t, 1);' "$BATS_TEST_TMPDIR/p.c")" -eq 1 ]
}

@test "a value whose length the program learns does not broadcast into the selection: NumPy's error, exit 3, masks too" {
    printf 'input x: f32[N, D]\ninput v: f32[3]\noutput x\nx[x[:, 0] > 0.5] = v\n' >"$BATS_TEST_TMPDIR/fit.npx"
    build_program "$BATS_TEST_TMPDIR/fit.npx"
    run -0 "$PROG" --random 1 --dim N=4 --dim D=3 -o "$BATS_TEST_TMPDIR/out1"
    run -3 "$PROG" --random 1 --dim N=4 --dim D=4 -o "$BATS_TEST_TMPDIR/out2"
    [[ $output == *"fit.npx:4: could not broadcast input array into the selection"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out2/x.npy" ]
    printf 'input x: f32[N, D]\ninput v: f32[3]\noutput y\ny = x * 1.0\ny[1:3, 1:] = v\n' >"$BATS_TEST_TMPDIR/box.npx"
    build_program "$BATS_TEST_TMPDIR/box.npx"
    run -0 "$PROG" --random 1 --dim N=4 --dim D=4 -o "$BATS_TEST_TMPDIR/out3"
    run -3 "$PROG" --random 1 --dim N=4 --dim D=3 -o "$BATS_TEST_TMPDIR/out4"
    [[ $output == *"box.npx:5: could not broadcast input array into the selection"* ]]
}

@test "interp of sample points empty or of two lengths at run time is NumPy's ValueError, exit 3" {
    printf 'input xp: f64[N]\ninput fp: f64[K]\ninput x: f32[M]\noutput y\ny = np.interp(x, xp, fp, left=0, right=1)\n' \
        >"$BATS_TEST_TMPDIR/chk.npx"
    build_program "$BATS_TEST_TMPDIR/chk.npx"
    run -3 "$PROG" --random 1 --dim N=0 --dim K=0 --dim M=3 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"chk.npx:5: array of sample points is empty"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/y.npy" ]
    run -3 "$PROG" --random 1 --dim N=4 --dim K=3 --dim M=3 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"chk.npx:5: fp and xp are not of the same length"* ]]
    run -0 "$PROG" --random 1 --dim N=4 --dim K=4 --dim M=3 -o "$BATS_TEST_TMPDIR/out"
    [ -f "$BATS_TEST_TMPDIR/out/y.npy" ]
}

@test "tensordot's summed axes of a symbol and a literal must agree when the program runs: exit 3, no output" {
    printf 'input p: f32[J, 3]\ninput q: f32[3, 4]\noutput r\nr = np.tensordot(p, q, axes=([0, 1], [1, 0]))\n' \
        >"$BATS_TEST_TMPDIR/td.npx"
    build_program "$BATS_TEST_TMPDIR/td.npx"
    run -3 "$PROG" --random 1 --dim J=5 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"td.npx:4: tensordot: shape-mismatch for sum: J is 5, not 4"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/r.npy" ]
    run -0 "$PROG" --random 1 --dim J=4 -o "$BATS_TEST_TMPDIR/out"
    [ -f "$BATS_TEST_TMPDIR/out/r.npy" ]
}

@test "average's weights that sum to zero are NumPy's ZeroDivisionError, exit 3, no output, on both targets" {
    printf 'input x: f32[B, V]\ninput w: f32[V]\noutput r\nr = np.average(x, axis=1, weights=w - w[0])\n' \
        >"$BATS_TEST_TMPDIR/avg.npx"
    build_program "$BATS_TEST_TMPDIR/avg.npx"
    run -3 "$PROG" --random 1 --dim B=3 --dim V=1 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"avg.npx:4: Weights sum to zero, can't be normalized"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/r.npy" ]
    run -0 "$PROG" --random 1 --dim B=3 --dim V=4 -o "$BATS_TEST_TMPDIR/out"
    [ -f "$BATS_TEST_TMPDIR/out/r.npy" ]
    build_cuda_program "$BATS_TEST_TMPDIR/avg.npx"
    run -3 "$CUDA_PROG" --random 1 --dim B=3 --dim V=1 -o "$BATS_TEST_TMPDIR/cout"
    [[ $output == *"avg.npx:4: Weights sum to zero, can't be normalized"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/cout/r.npy" ]
}

@test "an unpacking of rows of a size symbol's length checks it when the program runs: exit 3, no output" {
    printf 'input x: f32[B, 3]\noutput lo, hi\nlo, hi = x\n' >"$BATS_TEST_TMPDIR/rows.npx"
    build_program "$BATS_TEST_TMPDIR/rows.npx"
    run -3 "$PROG" --random 1 --dim B=3 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"rows.npx:3: wrong number of values to unpack (expected 2): B is 3, not 2"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/lo.npy" ]
    run -0 "$PROG" --random 1 --dim B=2 -o "$BATS_TEST_TMPDIR/out"
    [ -f "$BATS_TEST_TMPDIR/out/hi.npy" ]
}

@test "unravel_index of a flat index past the shape's size is NumPy's ValueError, exit 3, no output, on both targets" {
    printf 'input x: f32[B, 3]\ninput k: i64\noutput i, j\ni, j = np.unravel_index(k, x.shape)\n' >"$BATS_TEST_TMPDIR/ur.npx"
    build_program "$BATS_TEST_TMPDIR/ur.npx"
    run -3 "$PROG" --random 1 --dim B=2 k=6 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"ur.npx:4: index 6 is out of bounds for array with size 6"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/i.npy" ]
    run -3 "$PROG" --random 1 --dim B=2 k=-1 -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"ur.npx:4: index -1 is out of bounds for array with size 6"* ]]
    run -0 "$PROG" --random 1 --dim B=2 k=5 -o "$BATS_TEST_TMPDIR/out"
    [ -f "$BATS_TEST_TMPDIR/out/j.npy" ]
    build_cuda_program "$BATS_TEST_TMPDIR/ur.npx"
    run -3 "$CUDA_PROG" --random 1 --dim B=2 k=6 -o "$BATS_TEST_TMPDIR/cout"
    [[ $output == *"ur.npx:4: index 6 is out of bounds for array with size 6"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/cout/i.npy" ]
}

@test "histogram of data with NaN or infinity, too many bins for its range, or weights of another length is NumPy's ValueError, exit 3" {
    printf 'input x: f32[N]\ninput s: f32\noutput h\nh = np.histogram(x * s, bins=4)[0]\n' >"$BATS_TEST_TMPDIR/h.npx"
    build_program "$BATS_TEST_TMPDIR/h.npx"
    run -3 "$PROG" --random 1 --dim N=5 s=nan -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"h.npx:4: autodetected range of [nan, nan] is not finite"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/h.npy" ]
    run -0 "$PROG" --random 1 --dim N=5 s=0 -o "$BATS_TEST_TMPDIR/out"    # all equal: widened by 0.5
    run -0 "$PROG" --random 1 --dim N=5 s=100000000 -o "$BATS_TEST_TMPDIR/out"
    [ -f "$BATS_TEST_TMPDIR/out/h.npy" ]
    build_cuda_program "$BATS_TEST_TMPDIR/h.npx"
    run -3 "$CUDA_PROG" --random 1 --dim N=5 s=-inf -o "$BATS_TEST_TMPDIR/cout"
    [[ $output == *"h.npx:4: autodetected range of [-inf, -inf] is not finite"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/cout/h.npy" ]
    printf 'input x: f32[N]\noutput h\nh = np.histogram(x * 0 + 1e8, bins=4)[0]\n' >"$BATS_TEST_TMPDIR/b.npx"
    build_program "$BATS_TEST_TMPDIR/b.npx"
    run -3 "$PROG" --random 1 --dim N=5 -o "$BATS_TEST_TMPDIR/out2"
    [[ $output == *"b.npx:3: Too many bins for data range. Cannot create 4 finite-sized bins."* ]]
    build_cuda_program "$BATS_TEST_TMPDIR/b.npx"
    run -3 "$CUDA_PROG" --random 1 --dim N=5 -o "$BATS_TEST_TMPDIR/cout2"
    [[ $output == *"b.npx:3: Too many bins for data range. Cannot create 4 finite-sized bins."* ]]
    printf 'input x: f32[N]\noutput h\nh = np.histogram(x, bins=4, weights=x[1:])[0]\n' >"$BATS_TEST_TMPDIR/w.npx"
    build_program "$BATS_TEST_TMPDIR/w.npx"
    run -3 "$PROG" --random 1 --dim N=5 -o "$BATS_TEST_TMPDIR/out3"
    [[ $output == *"w.npx:3: weights should have the same shape as a: N is 5 but N-1 is 4"* ]]
}

@test "digitize's bins sorted neither way are NumPy's ValueError, exit 3, no output, on both targets" {
    printf 'input x: f32[N]\ninput b: f64[4]\noutput d\nd = np.digitize(x, b)\n' >"$BATS_TEST_TMPDIR/d.npx"
    "$PYTHON" -c 'import numpy as np, sys; np.save(sys.argv[1], np.array([1.0, 3.0, 2.0, 4.0])); np.save(sys.argv[2], np.array([4.0, 3.0, 3.0, 1.0]))' \
        "$BATS_TEST_TMPDIR/zigzag.npy" "$BATS_TEST_TMPDIR/falling.npy"
    build_program "$BATS_TEST_TMPDIR/d.npx"
    run -3 "$PROG" --random 1 --dim N=5 b="$BATS_TEST_TMPDIR/zigzag.npy" -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *"d.npx:4: bins must be monotonically increasing or decreasing"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/d.npy" ]
    run -0 "$PROG" --random 1 --dim N=5 b="$BATS_TEST_TMPDIR/falling.npy" -o "$BATS_TEST_TMPDIR/out"
    build_cuda_program "$BATS_TEST_TMPDIR/d.npx"
    run -3 "$CUDA_PROG" --random 1 --dim N=5 b="$BATS_TEST_TMPDIR/zigzag.npy" -o "$BATS_TEST_TMPDIR/cout"
    [[ $output == *"d.npx:4: bins must be monotonically increasing or decreasing"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/cout/d.npy" ]
}

@test "histogram's bin edges that fall somewhere are NumPy's ValueError, exit 3, no output, on both targets" {
    printf 'input x: f32[N]\ninput b: f64[4]\noutput h\nh = np.histogram(x, bins=b)[0]\n' >"$BATS_TEST_TMPDIR/h.npx"
    "$PYTHON" -c 'import numpy as np, sys; np.save(sys.argv[1], np.array([0.0, 0.5, 0.4, 1.0])); np.save(sys.argv[2], np.array([0.0, 0.5, 0.5, 1.0]))' \
        "$BATS_TEST_TMPDIR/falls.npy" "$BATS_TEST_TMPDIR/flat.npy"
    build_program "$BATS_TEST_TMPDIR/h.npx"
    run -3 "$PROG" --random 1 --dim N=5 b="$BATS_TEST_TMPDIR/falls.npy" -o "$BATS_TEST_TMPDIR/out"
    [[ $output == *'h.npx:4: `bins` must increase monotonically, when an array'* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/h.npy" ]
    run -0 "$PROG" --random 1 --dim N=5 b="$BATS_TEST_TMPDIR/flat.npy" -o "$BATS_TEST_TMPDIR/out"
    build_cuda_program "$BATS_TEST_TMPDIR/h.npx"
    run -3 "$CUDA_PROG" --random 1 --dim N=5 b="$BATS_TEST_TMPDIR/falls.npy" -o "$BATS_TEST_TMPDIR/cout"
    [[ $output == *'h.npx:4: `bins` must increase monotonically, when an array'* ]]
    [ ! -e "$BATS_TEST_TMPDIR/cout/h.npy" ]
}

@test "a take's positions that check themselves are checked where another axis empties the take, as NumPy does" {
    # m[2:5] of one row is empty, so the take reads none of its positions;
    # NumPy computes np.take(s, s) first, and its position 5 fails
    printf 'input m: f64[B, N]\ninput s: i64[2]\noutput g\ng = m[2:5, np.take(s, s) %% N]\n' >"$BATS_TEST_TMPDIR/empty.npx"
    "$PYTHON" -c 'import numpy as np, sys; np.save(sys.argv[1], np.array([0, 5], np.int64))' "$BATS_TEST_TMPDIR/s.npy"
    build_program "$BATS_TEST_TMPDIR/empty.npx"
    build_cuda_program "$BATS_TEST_TMPDIR/empty.npx"
    for prog in "$PROG" "$CUDA_PROG"; do
        run -3 "$prog" s="$BATS_TEST_TMPDIR/s.npy" --random 1 --dim B=1 --dim N=3 -o "$BATS_TEST_TMPDIR/out"
        [[ $output == *"empty.npx:4: index 5 is out of bounds for axis 0 with size 2"* ]]
        [ ! -e "$BATS_TEST_TMPDIR/out/g.npy" ]
    done
}

@test "what a take or an integer power checks as it computes is checked whole where only part of it is read, as NumPy does" {
    # NumPy computes np.take(y, p) (or k ** e) whole before [0] picks one
    # element: a bad position or exponent anywhere fails, not only where read.
    printf 'input y: f64[N]\ninput p: i64[2]\ninput q: i64[2]\ninput r: i64[2]\ninput e: i64[2]\noutput t, u, v, w\nt = np.take(y, p)[0]\nu = (y[q] * 2.0)[::2]\nv = y[r][r %% 1]\nw = (r ** e)[0]\n' \
        >"$BATS_TEST_TMPDIR/part.npx"
    "$PYTHON" -c 'import numpy as np, sys
for name, a in (("ok", [0, 1]), ("bad", [0, 5]), ("neg", [1, -1])):
    np.save(sys.argv[1] + "/" + name + ".npy", np.array(a, np.int64))' "$BATS_TEST_TMPDIR"
    build_program "$BATS_TEST_TMPDIR/part.npx"
    build_cuda_program "$BATS_TEST_TMPDIR/part.npx"
    local d=$BATS_TEST_TMPDIR
    for prog in "$PROG" "$CUDA_PROG"; do
        run -0 "$prog" {p,q,r,e}="$d/ok.npy" --random 1 --dim N=2 -o "$d/out"
        run -3 "$prog" p="$d/bad.npy" {q,r,e}="$d/ok.npy" --random 1 --dim N=2 -o "$d/out_p"
        [[ $output == *"part.npx:7: index 5 is out of bounds for axis 0 with size 2"* ]]
        run -3 "$prog" q="$d/bad.npy" {p,r,e}="$d/ok.npy" --random 1 --dim N=2 -o "$d/out_q"
        [[ $output == *"part.npx:8: index 5 is out of bounds for axis 0 with size 2"* ]]
        run -3 "$prog" r="$d/bad.npy" {p,q,e}="$d/ok.npy" --random 1 --dim N=2 -o "$d/out_r"
        [[ $output == *"part.npx:9: index 5 is out of bounds for axis 0 with size 2"* ]]
        run -3 "$prog" e="$d/neg.npy" {p,q,r}="$d/ok.npy" --random 1 --dim N=2 -o "$d/out_e"
        [[ $output == *"part.npx:10: integers to negative integer powers are not allowed"* ]]
        [ ! -e "$d/out_p/t.npy" ] && [ ! -e "$d/out_r/t.npy" ] && [ ! -e "$d/out_e/t.npy" ]
    done
}

@test "a where's side that checks as it computes (x[p], k ** e) is checked whole, also where the where does not pick it, as NumPy does" {
    # NumPy computes x[p] and p ** e whole before where picks from them
    printf 'input x: f32[N]\ninput p: i64[N]\ninput e: i64[N]\ninput c: bool[N]\noutput y, z\ny = np.where(c, x[p], 0)\nz = np.where(c, 0, p ** e)\n' \
        >"$BATS_TEST_TMPDIR/side.npx"
    "$PYTHON" -c 'import numpy as np, sys
d = sys.argv[1]
np.save(d + "/x.npy", np.zeros(3, np.float32))
np.save(d + "/c.npy", np.array([True, True, False]))
for name, a in (("p", [0, 1, 7]), ("e", [1, 1, -1]), ("ok", [0, 1, 2])):
    np.save(d + "/" + name + ".npy", np.array(a, np.int64))' "$BATS_TEST_TMPDIR"
    build_program "$BATS_TEST_TMPDIR/side.npx"
    build_cuda_program "$BATS_TEST_TMPDIR/side.npx"
    local d=$BATS_TEST_TMPDIR prog
    for prog in "$PROG" "$CUDA_PROG"; do
        run -0 "$prog" x="$d/x.npy" p="$d/ok.npy" e="$d/ok.npy" c="$d/c.npy" -o "$d/out"
        run -3 "$prog" x="$d/x.npy" p="$d/p.npy" e="$d/ok.npy" c="$d/c.npy" -o "$d/out_p"
        [[ $output == *"side.npx:6: index 7 is out of bounds for axis 0 with size 3"* ]]
        run -3 "$prog" x="$d/x.npy" p="$d/ok.npy" e="$d/e.npy" c="$d/c.npy" -o "$d/out_e"
        [[ $output == *"side.npx:7: integers to negative integer powers are not allowed"* ]]
        [ ! -e "$d/out_p/y.npy" ] && [ ! -e "$d/out_e/y.npy" ]
    done
}

@test "positions are checked where another axis empties the result: x[p] with no columns, x[:, p] with no rows; np.take's where the axes after theirs are empty, not before" {
    # NumPy: np.zeros((3, 0))[[0, 5]] and np.zeros((0, 3))[:, [0, 5]] are
    # IndexErrors, as is np.take(np.zeros((3, 0)), [0, 5], axis=0);
    # np.take(np.zeros((0, 3)), [0, 5], axis=1) is an empty (0, 2) array
    "$PYTHON" -c 'import numpy as np, sys
np.save(sys.argv[1] + "/p.npy", np.array([0, 5], np.int64))
np.save(sys.argv[1] + "/x30.npy", np.zeros((3, 0), np.float32))
np.save(sys.argv[1] + "/x03.npy", np.zeros((0, 3), np.float32))' "$BATS_TEST_TMPDIR"
    local d=$BATS_TEST_TMPDIR prog k
    local statement=('y = x[p]' 'y = x[:, p]' 'y = np.take(x, p, axis=0)' 'y = np.take(x, p, axis=1)')
    local x=(x30 x03 x30 x03) message=("axis 0 with size 3" "axis 1 with size 3" "axis 0 with size 3" "")
    for k in 0 1 2 3; do
        printf 'input x: f32[B, M]\ninput p: i64[K]\noutput y\n%s\n' "${statement[k]}" >"$d/rest$k.npx"
        build_program "$d/rest$k.npx"
        build_cuda_program "$d/rest$k.npx"
        for prog in "$PROG" "$CUDA_PROG"; do
            if [ -z "${message[k]}" ]; then
                run -0 "$prog" x="$d/${x[k]}.npy" p="$d/p.npy" -o "$d/out$k"
            else
                run -3 "$prog" x="$d/${x[k]}.npy" p="$d/p.npy" -o "$d/out$k"
                [[ $output == *"rest$k.npx:4: index 5 is out of bounds for ${message[k]}"* ]]
                [ ! -e "$d/out$k/y.npy" ]
            fi
        done
    done
}

@test "positions the statement computes first (an argsort's, an argmax) are checked where another axis empties the result, as NumPy does" {
    # NumPy: np.zeros((0, 3))[:, np.argsort(y)] with y of 5 elements, and
    # [:, y.argmax()] with argmax 4, are IndexErrors though nothing is read
    "$PYTHON" -c 'import numpy as np, sys
np.save(sys.argv[1] + "/y.npy", np.array([4, 3, 2, 1, 0], np.float32))
np.save(sys.argv[1] + "/ymax.npy", np.array([0, 1, 2, 3, 9], np.float32))
np.save(sys.argv[1] + "/x03.npy", np.zeros((0, 3), np.float32))
np.save(sys.argv[1] + "/x05.npy", np.zeros((0, 5), np.float32))' "$BATS_TEST_TMPDIR"
    local d=$BATS_TEST_TMPDIR prog k
    local statement=('r = x[:, np.argsort(y)]' 'r = x[:, y.argmax()]') y=(y ymax)
    for k in 0 1; do
        printf 'input x: f32[B, M]\ninput y: f32[K]\noutput r\n%s\n' "${statement[k]}" >"$d/made$k.npx"
        build_program "$d/made$k.npx"
        build_cuda_program "$d/made$k.npx"
        for prog in "$PROG" "$CUDA_PROG"; do
            run -3 "$prog" x="$d/x03.npy" y="$d/${y[k]}.npy" -o "$d/bad"
            [[ $output == *"made$k.npx:4: index 4 is out of bounds for axis 1 with size 3"* ]]
            [ ! -e "$d/bad/r.npy" ]
            run -0 "$prog" x="$d/x05.npy" y="$d/${y[k]}.npy" -o "$d/good"
        done
    done
}

@test "positions the data counts (v[n[n > 0]]) into an axis of a size symbol: NumPy's IndexError where that axis is empty and some are taken, exit 3; none taken is an empty result" {
    printf 'input v: f32[N]\ninput n: i64[5]\noutput m, t\nm = v[n[n > 0]]\nt = np.take(v, np.flatnonzero(n > 1))\n' >"$BATS_TEST_TMPDIR/counted.npx"
    "$PYTHON" -c 'import numpy as np, sys
d = sys.argv[1]
np.save(d + "/some.npy", np.array([0, 2, -1, 1, 0], np.int64))
np.save(d + "/none.npy", np.array([0, 0, -1, 0, 0], np.int64))
np.save(d + "/v3.npy", np.arange(3, dtype=np.float32))
np.save(d + "/v0.npy", np.zeros(0, np.float32))' "$BATS_TEST_TMPDIR"
    build_program "$BATS_TEST_TMPDIR/counted.npx"
    build_cuda_program "$BATS_TEST_TMPDIR/counted.npx"
    local d=$BATS_TEST_TMPDIR prog
    for prog in "$PROG" "$CUDA_PROG"; do
        run -0 "$prog" v="$d/v3.npy" n="$d/some.npy" --print
        [[ $output == *"m = array([2., 1.], dtype=float32)"* && $output == *"t = array([1.], dtype=float32)"* ]]
        run -3 "$prog" v="$d/v0.npy" n="$d/some.npy" -o "$d/out"
        [[ $output == *"counted.npx:4: index is out of bounds for axis 0 with size 0"* ]]
        [ ! -e "$d/out/m.npy" ]
        run -0 "$prog" v="$d/v0.npy" n="$d/none.npy" --print
        [[ $output == *"m = array([], dtype=float32)"* ]]
    done
}

@test "an index or a reshape of an axis whose length the data gives (a mask's, a bincount's) is checked once the data has counted: NumPy's IndexError or ValueError, exit 3, no output" {
    local d=$BATS_TEST_TMPDIR prog
    printf 'input x: f32[B]\ninput n: i64[K]\noutput a, c, p\nv = x[x > 0.5]\na = v[-1] * 2.0\nc = np.bincount(n)[3]\np = v.reshape(-1, 2)\n' >"$d/data_axis.npx"
    npy_write "$d/x2.npy" 'np.array([0.75, 0.25, 0.875], np.float32)'
    npy_write "$d/x3.npy" 'np.array([0.75, 0.25, 0.875, 0.625], np.float32)'
    npy_write "$d/x0.npy" 'np.array([0.25], np.float32)'
    npy_write "$d/n4.npy" '[0, 3]'
    npy_write "$d/n3.npy" '[1, 2]'
    build_program "$d/data_axis.npx"
    build_cuda_program "$d/data_axis.npx"
    for prog in "$PROG" "$CUDA_PROG"; do
        run -0 "$prog" x="$d/x2.npy" n="$d/n4.npy" --print
        [[ $output == *"a = array(1.75, dtype=float32)"* && $output == *"c = array(1)"* ]]
        [[ $output == *"p = array([[0.75 , 0.875]], dtype=float32)"* ]]
        run -3 "$prog" x="$d/x0.npy" n="$d/n4.npy" -o "$d/out"
        [[ $output == *"data_axis.npx:5: index -1 is out of bounds for axis 0 with size 0"* ]]
        run -3 "$prog" x="$d/x2.npy" n="$d/n3.npy" -o "$d/out"
        [[ $output == *"data_axis.npx:6: index 3 is out of bounds for axis 0 with size 3"* ]]
        run -3 "$prog" x="$d/x3.npy" n="$d/n4.npy" -o "$d/out"
        [[ $output == *"data_axis.npx:7: cannot reshape array into shape (-1, 2): the size is 3"* ]]
        [ ! -e "$d/out/a.npy" ]
    done
}
