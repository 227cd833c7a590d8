#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A writer's finished text in the `malloc` allocation it was written in (`JSONWriter.handOver()`): a reply of a
/// few kilobytes goes from its writer to the socket without being copied into an array on the way. It frees
/// the allocation when it goes, unless `take()` has handed it on.
///
/// Unchecked Sendable: the allocation is reached only through this object, and `take()` leaves it holding none.
public final class WrittenText: @unchecked Sendable {
    private var base: UnsafeMutablePointer<UInt8>?
    public let count: Int

    /// `base`: a `malloc` allocation of at least `count` bytes, the text's, which this object now owns.
    init(owning base: UnsafeMutablePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    deinit { free(base) }

    /// The text, read where it is. Empty once taken.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : count))
    }

    /// A copy of the text. Empty once taken.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Hands the allocation on: whoever takes it frees it with `free`. Taken once; this object holds nothing after.
    public func take() -> UnsafeMutableRawPointer {
        guard let taken = base else { preconditionFailure("WrittenText taken twice") }
        base = nil
        return UnsafeMutableRawPointer(taken)
    }
}

extension JSONWriter {
    /// The text written so far, handed over in its allocation rather than copied (`takeBytes`), shrunk when
    /// much of it is unused room (a large text may have grown to twice its size). The writer is empty
    /// afterwards, with no room: a write after this makes a new allocation.
    public mutating func handOver() -> WrittenText {
        var text = base
        let count = written
        if capacity - count > Self.keptAfterTake, let shrunk = realloc(base, max(count, 1)) {
            text = shrunk.bindMemory(to: UInt8.self, capacity: max(count, 1))
        }
        capacity = 0
        written = 0
        return WrittenText(owning: text, count: count)
    }
}
