/* runtime_text.h: the runtime's source text (runtime/npx_rt.h, npx_math.h,
 * then the runtime's .c files in sorted order), embedded into npxc at build
 * time by tools/embed as build/rt_embed.c. Generated programs start with it. */
#ifndef NPX_RUNTIME_TEXT_H
#define NPX_RUNTIME_TEXT_H
#include <stddef.h>

extern const char npx_runtime_text[];   /* NUL-terminated */
extern const size_t npx_runtime_len;    /* strlen(npx_runtime_text) */
/* The CUDA target's layers: the CUDA subset and its host emulation
 * (runtime/cuda/npx_cuda.h), then the device helpers (npx_device.h). */
extern const char npx_cuda_text[];
extern const size_t npx_cuda_len;
extern const char npx_device_text[];
extern const size_t npx_device_len;

#endif
