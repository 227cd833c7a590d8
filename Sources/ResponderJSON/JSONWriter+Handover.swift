extension JSONWriter {
    /// Appends already-encoded JSON text, part of a larger text, as one value: a trace body copied from inside
    /// the event that carries it, with no array made of the part first.
    @inlinable public mutating func raw(_ encoded: ArraySlice<UInt8>) {
        separate()
        encoded.withUnsafeBytes { append($0) }
    }
}
