import Foundation
import ResponderLocal
import ResponderProtocol
import Testing
import ZMQ

@testable import ResponderServer

/// Who is admitted (Protocol/README.md 2.1), decided without sockets.
@Suite("Security: admission policy")
struct SecurityPolicyTests {
    static let (authorized, _) = try! CurveKey.generatePair()
    static let (stranger, _) = try! CurveKey.generatePair()
    let policy = ZAPPolicy(ownUID: 1000, allowedUIDs: [1001]) { [authorized] }

    @Test("ipc: the engine's uid and --allow-uid ones are admitted, others and unknown peers are not")
    func ipcByUID() {
        let ipc = TransportPolicy.peerUID.zapDomain
        #expect(
            policy.decide(domain: ipc, address: "localhost:1000:1000:42", mechanism: "NULL", credentials: nil)
                == .allow(principal: "uid:1000"))
        #expect(
            policy.decide(domain: ipc, address: ":1001:100:43", mechanism: "NULL", credentials: nil)
                == .allow(principal: "uid:1001"))
        #expect(
            policy.decide(domain: ipc, address: "localhost:1002:1002:44", mechanism: "NULL", credentials: nil)
                != .allow(principal: "uid:1002"))
        #expect(
            policy.decide(domain: ipc, address: "", mechanism: "NULL", credentials: nil)
                == .deny("the peer's uid is unknown (no SO_PEERCRED)"))
    }

    @Test("tcp: only listed CURVE keys, and never NULL on a CURVE socket")
    func tcpByKey() {
        let curve = TransportPolicy.curve.zapDomain
        #expect(
            policy.decide(domain: curve, address: "127.0.0.1", mechanism: "CURVE", credentials: Self.authorized.bytes)
                == .allow(principal: "curve:\(Self.authorized.z85)"))
        #expect(
            policy.decide(domain: curve, address: "127.0.0.1", mechanism: "CURVE", credentials: Self.stranger.bytes)
                != .allow(principal: "curve:\(Self.stranger.z85)"))
        #expect(
            policy.decide(domain: curve, address: "127.0.0.1", mechanism: "NULL", credentials: nil)
                == .deny("mechanism NULL is not accepted on this socket"))
    }

    @Test("endpoints: ipc by uid, tcp by CURVE, --insecure-tcp on loopback only")
    func transportPolicy() throws {
        #expect(try TransportPolicy(endpoint: "ipc:///tmp/x.rpc", insecureTCP: false) == .peerUID)
        #expect(try TransportPolicy(endpoint: "tcp://127.0.0.1:*", insecureTCP: false) == .curve)
        #expect(try TransportPolicy(endpoint: "tcp://0.0.0.0:5555", insecureTCP: false) == .curve)
        for loopback in ["tcp://127.0.0.1:*", "tcp://127.1.2.3:9", "tcp://[::1]:5555", "tcp://localhost:1"] {
            #expect(try TransportPolicy(endpoint: loopback, insecureTCP: true) == .insecureLoopback, "\(loopback)")
        }
        for open in [
            "tcp://0.0.0.0:5555", "tcp://*:5555", "tcp://192.168.1.2:1", "tcp://eth0:1", "tcp://127.0.0.256:1",
            "ws://127.0.0.1:1"
        ] {
            #expect(throws: EngineError.self, "\(open)") { try TransportPolicy(endpoint: open, insecureTCP: true) }
        }
    }

    @Test("authorized_clients: keys with comments, # lines and blanks; bad lines reported, not fatal")
    func authorizedClientsFile() throws {
        let dir = "/tmp/ac-" + String(UInt32.random(in: 0 ... .max), radix: 36)
        mkdir(dir, 0o700)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = "# who may connect\n\n\(Self.authorized.z85) alice@box\nnot-a-key\n  \(Self.stranger.z85)\n"
        try OwnedFile.create("\(dir)/authorized_clients", Array(text.utf8), what: "test")
        let read = AuthorizedClients.read(directory: dir)
        #expect(read.keys == [Self.authorized, Self.stranger])
        #expect(read.problem?.contains("lines 4") == true)
        chmod("\(dir)/authorized_clients", 0o666)
        let refused = AuthorizedClients.read(directory: dir)
        #expect(
            refused.keys.isEmpty && refused.problem?.contains("group or others may write") == true,
            "a file others may write authorizes no one")
    }

    @Test("CURVE keys: Z85 both ways, and the engine key made once and kept")
    func keys() throws {
        let (pub, sec) = try CurveKey.generatePair()
        #expect(CurveKey(z85: pub.z85) == pub && pub.z85.utf8.count == 40)
        #expect(try CurveKey.publicKey(of: sec) == pub)
        #expect(CurveKey(z85: "short") == nil)
        let dir = "/tmp/ek-" + String(UInt32.random(in: 0 ... .max), radix: 36)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try EngineKeys.loadOrCreate(directory: "\(dir)/state")
        let again = try EngineKeys.loadOrCreate(directory: "\(dir)/state")
        #expect(first.publicKey == again.publicKey)
        var st = stat()
        stat("\(dir)/state/engine.key", &st)
        #expect(st.st_mode & 0o777 == 0o600)
    }

    @Test("a User-Id from the ZAP handler names the principal and the connection")
    func peerStamp() {
        #expect(PeerStamp(userID: "curve:abc def 12") == PeerStamp(userID: "curve:abc def 12"))
        #expect(PeerStamp(userID: "uid:0 7")?.principal == "uid:0" && PeerStamp(userID: "uid:0 7")?.connection == 7)
        #expect(PeerStamp(userID: "") == nil)
    }
}
