/* npy_write.c: the .npy writer. Writes format 1.0 byte for byte as
 * numpy.save does (the same header text and padding), through PATH.tmp and
 * a rename so that no reader ever sees half a file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "npx_rt.h"

static const char *npx_npy_descr(npx_dtype t)
{
    switch (t) {
#define X(e, nm, ct, ds) case NPX_##e: return ds;
        NPX_DTYPES(X)
#undef X
    default: return "?";
    }
}

/* The whole preamble: magic, version 1.0, length, the dict, the spaces NumPy
 * leaves for growing axis 0 (21 digits), padding to 64 bytes, newline. */
static size_t npx_npy_preamble_text(const npx_array *a, char *buf, size_t len)
{
    char shape[NPX_MAX_RANK * 24 + 4], dim0[24];
    npx_shape_str(shape, sizeof shape, a->ndim, a->shape);
    int n = snprintf(buf + 10, len - 10, "{'descr': '%s', 'fortran_order': False, "
                     "'shape': %s, }", npx_npy_descr(a->dtype), shape);
    size_t h = (size_t)n;
    if (a->ndim > 0) {
        int growth = 21 - snprintf(dim0, sizeof dim0, "%lld", (long long)a->shape[0]);
        for (int k = 0; k < growth; k++)
            buf[10 + h++] = ' ';
    }
    size_t total = 10 + h + 1;
    size_t pad = 64 - total % 64;
    memset(buf + 10 + h, ' ', pad);
    total += pad;
    buf[total - 1] = '\n';
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (char)((total - 10) & 0xff);
    buf[9] = (char)((total - 10) >> 8);
    return total;
}

int npx_npy_write_direct(const char *path, const npx_array *a, char *err, size_t errlen)
{
    char pre[1024];
    size_t plen = npx_npy_preamble_text(a, pre, sizeof pre);
    size_t n = (size_t)npx_shape_bytes(a->ndim, a->shape, npx_dtype_size(a->dtype));
    errno = 0;
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    bool ok = fwrite(pre, 1, plen, f) == plen && (n == 0 || fwrite(a->data, 1, n, f) == n);
    int saved = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(saved ? saved : EIO));
        remove(path);
        return -1;
    }
    return 0;
}

int npx_npy_write(const char *path, const npx_array *a, char *err, size_t errlen)
{
    size_t len = strlen(path) + 5;
    char *tmp = (char *)malloc(len);
    if (!tmp) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(tmp, len, "%s.tmp", path);
    int rc = npx_npy_write_direct(tmp, a, err, errlen);
    if (rc == 0 && rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        remove(tmp);
        rc = -1;
    }
    free(tmp);
    return rc;
}
