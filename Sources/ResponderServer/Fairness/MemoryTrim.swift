#if canImport(Glibc)
import Glibc
#endif

/// Gives freed heap pages back to the system after a large request. Reading a large tree.load allocates and
/// frees hundreds of megabytes of small blocks (the parsed document, the node list); glibc keeps freed pages
/// of its heap mapped, so without this the engine's resident size stays at the load's peak. Called off the
/// hot path only: after a request large enough to be read on the reader thread.
enum MemoryTrim {
    #if canImport(Glibc)
    /// glibc's `malloc_trim`, looked up once (Swift's Glibc module does not import <malloc.h>); nil elsewhere.
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
    #endif

    static func afterLargeRequest() {
        #if canImport(Glibc)
        _ = trim?(0)
        #endif
    }
}
