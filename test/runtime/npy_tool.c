/* npy_tool.c: the runtime's .npy functions from the command line, for tests:
 *   npy_tool read FILE        "float32 (2, 3)", or the reader's error (exit 1)
 *   npy_tool copy IN OUT      read IN, write it to OUT with npx_npy_write
 *   npy_tool print FILE       npx_array_print as "a = array(...)"
 * Linked with the runtime's .c files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "npx_rt.h"

int main(int argc, char **argv)
{
    npx_array a;
    char err[512], shape[NPX_MAX_RANK * 24 + 4];
    if (argc < 3 || (strcmp(argv[1], "copy") == 0 && argc < 4)) {
        fprintf(stderr, "usage: npy_tool read|print FILE | copy IN OUT\n");
        return 2;
    }
    if (npx_npy_read(argv[2], &a, err, sizeof err) != 0) {
        printf("%s\n", err);
        return 1;
    }
    int rc = 0;
    if (strcmp(argv[1], "read") == 0) {
        printf("%s %s\n", npx_dtype_numpy_name(a.dtype),
               npx_shape_str(shape, sizeof shape, a.ndim, a.shape));
    } else if (strcmp(argv[1], "print") == 0) {
        npx_array_print(stdout, "a", &a);
    } else if (npx_npy_write(argv[3], &a, err, sizeof err) != 0) {
        printf("%s\n", err);
        rc = 1;
    }
    free(a.data);
    return rc;
}
