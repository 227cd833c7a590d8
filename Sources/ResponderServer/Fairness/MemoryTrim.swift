import CHeap

/// Gives freed heap pages back to the system after a large request. Reading a large tree.load allocates and
/// frees hundreds of megabytes of small blocks (the parsed document, the node list); glibc keeps freed pages
/// of its heap mapped, so without this the engine's resident size stays at the load's peak. Called off the
/// hot path only: after a request large enough to be read on the reader thread.
enum MemoryTrim {
    static func afterLargeRequest() {
        // glibc's `malloc_trim(0)` through the C shim; a no-op where the C library has none.
        _ = responder_heap_trim()
    }
}
