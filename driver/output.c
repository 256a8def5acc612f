/* output.c: writes the generated program (to a temporary file renamed into
 * place, so no half-written output is ever left) and, with --exe, builds it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../codegen/emit_c.h"
#include "../codegen/target.h"
#include "options.h"

static const char *default_output(Program *p, const char *input, const char *ext)
{
    size_t n = strlen(input);
    if (n > 4 && strcmp(input + n - 4, ".npx") == 0)
        n -= 4;
    return arena_printf(p->arena, "%.*s%s", (int)n, input, ext);
}

static int write_atomically(const char *path, const char *data, size_t len)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    mode_t mask = umask(0);                  /* mkstemp makes it 0600: give it the usual mode */
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    FILE *f = fdopen(fd, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    ok = (f ? fclose(f) == 0 : (close(fd), false)) && ok;
    if (!ok || rename(tmp, path) != 0) {
        int saved = errno;
        unlink(tmp);
        errno = saved;
        return -1;
    }
    return 0;
}

/* Splits s at spaces into argv (at most max entries). */
static int split(Arena *a, const char *s, char **argv, int n, int max)
{
    while (s && *s && n < max) {
        while (*s == ' ')
            s++;
        size_t len = strcspn(s, " ");
        if (len)
            argv[n++] = arena_strndup(a, s, len);
        s += len;
    }
    return n;
}

static int run(char **argv)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execvp(argv[0], argv);
        fprintf(stderr, "npxc: error: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* --blas links $NPX_BLAS_LIBS, else the OpenMP build of OpenBLAS where
 * Debian and Ubuntu install it (libopenblas0-openmp), else -lopenblas. The
 * OpenMP build shares one pool of threads with the generated loops; the
 * default pthreads build competes with OpenMP threads that still spin after
 * a loop (1.6x slower products in bench/autoencoder.npx). */
static const char *blas_libs(Program *p)
{
    static const char *const openmp_dirs[] = {
        "/usr/lib/x86_64-linux-gnu/openblas-openmp", "/usr/lib/aarch64-linux-gnu/openblas-openmp", NULL,
    };
    const char *libs = getenv("NPX_BLAS_LIBS");
    if (libs && *libs)
        return libs;
    for (int i = 0; openmp_dirs[i]; i++)
        if (access(arena_printf(p->arena, "%s/libopenblas.so.0", openmp_dirs[i]), R_OK) == 0)
            return arena_printf(p->arena, "-L%s -Wl,-rpath,%s -l:libopenblas.so.0", openmp_dirs[i], openmp_dirs[i]);
    return "-lopenblas";
}

/* The compiler and flags for --exe: $CC (OpenMP, the host's vector ISA, CBLAS
 * with --blas), or $NVCC for the GPU (sm_90 unless $NPX_CUDA_ARCH, cuBLAS). */
static int build_command(Program *p, const Options *o, char **argv, const char *exe, const char *path)
{
    const char *cc = getenv(o->cuda ? "NVCC" : "CC"), *arch = getenv("NPX_CUDA_ARCH");
    int n = split(p->arena, cc && *cc ? cc : o->cuda ? "nvcc" : "cc", argv, 0, 8);
    if (o->cuda)
        argv[n++] = arena_printf(p->arena, "-arch=%s", arch && *arch ? arch : "sm_90");
    n = split(p->arena, o->cuda ? "-O3" : NPX_C_FLAGS, argv, n, 16);
    argv[n++] = "-o";
    argv[n++] = (char *)exe;
    argv[n++] = "-x";       /* the language, whatever -o's extension says (prog, prog.cc) */
    argv[n++] = o->cuda ? "cu" : "c";
    argv[n++] = (char *)path;
    if (!o->cuda) {         /* files in $CFLAGS go by their extensions again */
        argv[n++] = "-x";
        argv[n++] = "none";
    }
    n = split(p->arena, getenv(o->cuda ? "NVCCFLAGS" : "CFLAGS"), argv, n, 240);
    if (o->cuda)
        argv[n++] = "-lcublas";
    else if (o->blas)
        n = split(p->arena, blas_libs(p), argv, n, 250);
    argv[n++] = "-lm";
    argv[n] = NULL;
    return n;
}

static int build(Program *p, const Options *o, const char *c_path)
{
    const char *exe = c_path;
    const char *dot = strrchr(c_path, '.'), *slash = strrchr(c_path, '/');
    if (dot && (!slash || dot > slash))
        exe = arena_printf(p->arena, "%.*s", (int)(dot - c_path), c_path);
    else
        exe = arena_printf(p->arena, "%s.out", c_path);
    char *argv[256];
    build_command(p, o, argv, exe, c_path);
    int status = run(argv);
    if (status != 0) {
        fprintf(stderr, "npxc: error: building %s failed (%s exited with %d)\n", exe, argv[0], status);
        return 2;
    }
    return 0;
}

/* --lib: the function is named after the file (build/my-grad.c: my_grad),
 * and declared in a header beside it (build/my-grad.h). */
static const char *lib_name(Program *p, const char *path, const char **header)
{
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path, *dot = strrchr(base, '.');
    size_t n = dot && dot > base ? (size_t)(dot - base) : strlen(base);
    *header = arena_printf(p->arena, "%.*s.h", (int)(base - path + n), path);
    bool digit = n && base[0] >= '0' && base[0] <= '9';
    char *name = (char *)arena_printf(p->arena, "%s%.*s", digit ? "npx_" : "", (int)n, base);
    for (char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
            *c = '_';
    if (!*name || (!digit && ir_c_reserved(name))) {   /* npx_2nd_pass is ours; npx_alloc is not free */
        fprintf(stderr, "npxc: error: --lib: a function named '%s' (after %s) would clash with C or npxc's own "
                        "names; choose another file name with -o\n", name, path);
        return NULL;
    }
    return name;
}

static int write_text(const char *path, const char *text, size_t len)
{
    if (strcmp(path, "-") == 0) {
        fwrite(text, 1, len, stdout);
        return 0;
    }
    if (write_atomically(path, text, len) == 0)
        return 0;
    fprintf(stderr, "npxc: error: cannot write '%s': %s\n", path, strerror(errno));
    return 2;
}

/* What emit writes (emit_program, or with --lib emit_lib_header), in memory. */
static char *render(Program *p, const Options *o, bool header, const char *c_path, size_t *len)
{
    char *text = NULL;
    FILE *mem = open_memstream(&text, len);
    if (!mem) {
        fprintf(stderr, "npxc: error: out of memory\n");
        return NULL;
    }
    if (header) {
        const char *slash = strrchr(c_path, '/');
        emit_lib_header(mem, p, slash ? slash + 1 : c_path);
    } else {
        emit_program(mem, p, o->cuda ? &target_cuda : &target_c);
    }
    fclose(mem);
    return text;
}

int write_output(const Options *o, Program *p)
{
    const char *path = o->output ? o->output : default_output(p, o->input, o->cuda ? ".cu" : ".c"), *header = NULL;
    if (o->lib && !(p->lib = lib_name(p, path, &header)))
        return 2;
    size_t len = 0, hlen = 0;
    char *text = render(p, o, false, path, &len), *htext = o->lib ? render(p, o, true, path, &hlen) : NULL;
    int status = !text || (o->lib && !htext) ? 2 : 0;
    if (status == 0 && header)
        status = write_text(header, htext, hlen);
    if (status == 0)
        status = write_text(path, text, len);
    free(text);
    free(htext);
    if (status == 0 && o->exe)
        status = build(p, o, path);
    return status;
}
