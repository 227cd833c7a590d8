import CZMQ

/// Namespace for library-wide helpers (`version`, `poll`).
public enum ZMQ {
    /// The libzmq version linked at run time.
    public static var version: (major: Int, minor: Int, patch: Int) {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        zmq_version(&major, &minor, &patch)
        return (Int(major), Int(minor), Int(patch))
    }
}
