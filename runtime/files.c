/* files.c: directories and paths for -o and --trace: mkdir -p and DIR/NAME. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "npx_rt.h"

/* One directory: created, or already there as a directory. */
static int npx_mkdir_one(const char *dir, char *err, size_t errlen)
{
    struct stat sb;
    if (mkdir(dir, 0777) == 0)
        return 0;
    int saved = errno;
    if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
        return 0;
    if (saved == EEXIST)
        snprintf(err, errlen, "%s exists and is not a directory", dir);
    else
        snprintf(err, errlen, "cannot create directory %s: %s", dir, strerror(saved));
    return -1;
}

int npx_mkdirs(const char *dir, char *err, size_t errlen)
{
    size_t n = strlen(dir);
    char *buf = (char *)malloc(n + 1);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(buf, dir, n + 1);
    int rc = 0;
    for (size_t i = 1; i <= n && rc == 0; i++) {
        if (buf[i] != '/' && buf[i] != 0)
            continue;
        if (buf[i - 1] == '/')
            continue;
        char saved = buf[i];
        buf[i] = 0;
        rc = npx_mkdir_one(buf, err, errlen);
        buf[i] = saved;
    }
    free(buf);
    return rc;
}

char *npx_path_join(const char *dir, const char *name)
{
    size_t dl = strlen(dir), nl = strlen(name);
    char *p = (char *)malloc(dl + nl + 2);
    if (!p)
        return NULL;
    memcpy(p, dir, dl);
    size_t at = dl;
    if (dl > 0 && dir[dl - 1] != '/')
        p[at++] = '/';
    memcpy(p + at, name, nl + 1);
    return p;
}
