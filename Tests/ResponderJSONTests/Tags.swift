import Testing

extension Tag {
    /// A test that takes seconds rather than milliseconds (deep or large inputs, long random runs, child
    /// processes): the fast loop skips it, the full suite runs it (docs/testing.md).
    @Tag static var slow: Self
}
