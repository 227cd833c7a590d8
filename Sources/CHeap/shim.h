#ifndef RESPONDER_CHEAP_SHIM_H
#define RESPONDER_CHEAP_SHIM_H

#if defined(__linux__)
#include <malloc.h>
#endif

/// Returns freed heap pages to the system where the C library can (glibc's `malloc_trim`); elsewhere does
/// nothing. Returns 1 when memory was released.
static inline int responder_heap_trim(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}

#endif
