"""random_ref.py: the --random generator of docs/random.md in NumPy, to check
a generated program's random inputs.
Usage: python3 random_ref.py SEED K DTYPE SHAPE OUT.npy
  (SHAPE like "5,3", "" for a scalar) writes input number K's values."""
import sys

import numpy as np

M = (1 << 64) - 1


def mix64(z):
    z = (z + 0x9E3779B97F4A7C15) & M
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)


def npx_random(seed, k, shape, dtype):
    base = mix64(seed ^ (((k + 1) * 0xD1B54A32D192ED03) & M))
    n = int(np.prod(shape))
    r = np.array([mix64((base + i) & M) for i in range(n)], dtype=np.uint64)
    if dtype == np.float32:
        v = (r >> np.uint64(40)).astype(np.float32) * np.float32(2.0 ** -24)
    elif dtype == np.float64:
        v = (r >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
    elif dtype == np.bool_:
        v = (r >> np.uint64(63)).astype(np.bool_)
    else:
        v = (r % np.uint64(1000)).astype(dtype)
    return v.reshape(shape)


if __name__ == "__main__":
    seed, k, dt, shape, out = sys.argv[1:6]
    dims = tuple(int(d) for d in shape.split(",") if d)
    dtype = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64,
             "bool": np.bool_}[dt]
    np.save(out, npx_random(int(seed), int(k), dims, dtype))
