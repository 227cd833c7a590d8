import Foundation

/// Closes the engine's side of a peer's connections to one of its endpoints, found by the peer's address as libzmq
/// reports it in a message's "Peer-Address" (`:uid:gid:pid` over ipc, the numeric host over tcp). An XPUB socket
/// has no way to drop one peer, and that address is all a subscription carries of where it came from, so every
/// connection of the same process (ipc) or host (tcp) to the endpoint is cut. `shutdown(2)` leaves the descriptor
/// to libzmq, which sees the connection end and closes it, as the connection gate does for connections over the cap.
enum PeerCut {
    /// Returns the number of connections shut down.
    @discardableResult
    static func shutdown(endpoint: String, peerAddress: String) -> Int {
        guard let listener = Listener(endpoint), let peer = Peer(peerAddress, ipc: listener.isIPC) else { return 0 }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return 0 }
        var cut = 0
        for name in names {
            guard let fd = Int32(name), listener.accepted(fd), peer.owns(fd) else { continue }
            if Glibc.shutdown(fd, Int32(SHUT_RDWR)) == 0 { cut += 1 }
        }
        return cut
    }

    /// The engine's end: an ipc path or a tcp port.
    private struct Listener {
        let isIPC: Bool
        let path: String
        let port: UInt16

        init?(_ endpoint: String) {
            if endpoint.hasPrefix("ipc://") {
                (isIPC, path, port) = (true, String(endpoint.dropFirst(6)), 0)
            } else if endpoint.hasPrefix("tcp://"), let colon = endpoint.lastIndex(of: ":"),
                let port = UInt16(endpoint[endpoint.index(after: colon)...])
            {
                (isIPC, path, self.port) = (false, "", port)
            } else {
                return nil
            }
        }

        /// Whether `fd` is a connection accepted on this endpoint (its local address is the endpoint's).
        func accepted(_ fd: Int32) -> Bool {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let ok = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
            }
            guard ok else { return false }
            switch Int32(storage.ss_family) {
            case AF_UNIX where isIPC:
                var local = withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr_un.self, capacity: 1) { $0.pointee }
                }
                let localPath = withUnsafeBytes(of: &local.sun_path) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                return localPath == path
            case AF_INET where !isIPC:
                let sin = withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
                }
                return UInt16(bigEndian: sin.sin_port) == port
            case AF_INET6 where !isIPC:
                let sin6 = withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }
                }
                return UInt16(bigEndian: sin6.sin6_port) == port
            default:
                return false
            }
        }
    }

    /// The peer: its process's credentials (ipc) or its numeric host (tcp).
    private enum Peer {
        case process(uid: UInt32, gid: UInt32, pid: Int32)
        case host(String)

        init?(_ address: String, ipc: Bool) {
            guard ipc else {
                self = .host(address)
                return
            }
            let fields = address.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count >= 3, let uid = UInt32(fields[fields.count - 3]),
                let gid = UInt32(fields[fields.count - 2]), let pid = Int32(fields[fields.count - 1])
            else { return nil }
            self = .process(uid: uid, gid: gid, pid: pid)
        }

        func owns(_ fd: Int32) -> Bool {
            switch self {
            case .process(let uid, let gid, let pid):
                // struct ucred { pid_t pid; uid_t uid; gid_t gid; }, which Glibc hides without _GNU_SOURCE.
                var cred: (Int32, UInt32, UInt32) = (0, 0, 0)
                var size = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
                guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &size) == 0 else { return false }
                return cred.0 == pid && cred.1 == uid && cred.2 == gid
            case .host(let host):
                var storage = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let ok = withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) == 0 }
                }
                guard ok else { return false }
                var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                let named = withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        getnameinfo($0, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
                    }
                }
                return named == 0
                    && String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == host
            }
        }
    }
}
