import ZMQ

/// How an endpoint is secured (Protocol/README.md §2.1): ipc by the peer's uid (ZAP), tcp by CURVE, plain tcp
/// only on loopback with `--insecure-tcp`.
enum TransportPolicy: Equatable {
    case peerUID
    case curve
    case insecureLoopback

    /// The ZAP domain of a socket secured this way: the handler tells the cases apart by it.
    var zapDomain: String {
        switch self {
        case .peerUID: return "responder-ipc"
        case .curve: return "responder-curve"
        case .insecureLoopback: return "responder-insecure"
        }
    }

    init(endpoint: String, insecureTCP: Bool) throws {
        if endpoint.hasPrefix("ipc://") || endpoint.hasPrefix("inproc://") {
            self = .peerUID
            return
        }
        if insecureTCP {
            guard endpoint.hasPrefix("tcp://"), let host = Self.host(of: endpoint), Self.isLoopback(host) else {
                throw EngineError.socket(
                    "--insecure-tcp allows plain tcp on a loopback address only (tcp://127.0.0.1:…, tcp://[::1]:…, tcp://localhost:…), not \(endpoint)"
                )
            }
            self = .insecureLoopback
            return
        }
        guard ZMQ.has("curve") else {
            throw EngineError.socket(
                "binding \(endpoint) requires CURVE encryption, which this libzmq lacks (zmq_has(\"curve\") is false); use ipc, or --insecure-tcp on a loopback address"
            )
        }
        self = .curve
    }

    /// `endpoint` as libzmq binds it: a tcp bind takes an address or an interface name, and `localhost` is
    /// neither (it fails with ENODEV), so `tcp://localhost:P` binds IPv4 loopback, `tcp://127.0.0.1:P`.
    static func bindable(_ endpoint: String) -> String {
        guard endpoint.hasPrefix("tcp://"), host(of: endpoint) == "localhost" else { return endpoint }
        return "tcp://127.0.0.1" + endpoint.dropFirst("tcp://localhost".count)
    }

    /// "127.0.0.1" of tcp://127.0.0.1:5555, "::1" of tcp://[::1]:5555.
    static func host(of endpoint: String) -> String? {
        let rest = endpoint.dropFirst("tcp://".count)
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            return String(rest[rest.index(after: rest.startIndex)..<close])
        }
        guard let colon = rest.lastIndex(of: ":") else { return nil }
        return String(rest[..<colon])
    }

    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
