#ifndef RESPONDER_CPREFETCH_SHIM_H
#define RESPONDER_CPREFETCH_SHIM_H

/// Asks the processor to bring the cache line at `address` in, for a write soon, without waiting for it: a hint
/// that changes no value, which Swift has no way to give. A load that misses the cache holds up every
/// instruction after it; a prefetch lets the next misses overlap the work of this one.
static inline void responder_prefetch_for_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
