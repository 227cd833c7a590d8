import Foundation
import ResponderJSON
import Testing

@testable import ResponderLocal

@Suite struct DiscoveryTests {
    @Test func theDefaultDirectoryIsUnderXDGRuntimeDirElseInTmpPerUser() {
        #expect(
            Discovery.defaultDirectory(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]) == "/run/user/1000/responder"
        )
        #expect(
            Discovery.defaultDirectory(environment: ["XDG_RUNTIME_DIR": "/run/user/1000//"])
                == "/run/user/1000/responder")
        #expect(Discovery.defaultDirectory(environment: ["XDG_RUNTIME_DIR": "/"]) == "/responder")
        #expect(Discovery.defaultDirectory(environment: ["XDG_RUNTIME_DIR": ""]) == "/tmp/responder-\(getuid())")
        #expect(Discovery.defaultDirectory(environment: [:]) == "/tmp/responder-\(getuid())")
        #expect(
            Discovery.defaultDirectory() == Discovery.defaultDirectory(environment: ProcessInfo.processInfo.environment)
        )
        #expect(Discovery.filePath(directory: "/d", name: "n") == "/d/n.json")
    }

    @Test func aFileIsWrittenWithEveryKeyInOrderAndReadBack() throws {
        let file = Discovery.File(
            name: "demo", pid: 42, version: "0.1.0", protocolVersion: 1, rpc: "ipc:///r", events: "ipc:///e",
            startedAt: "2026-01-01T00:00:00Z")
        let text = JSONCodec.encodeString(file.json)
        #expect(
            text
                == #"{"name":"demo","pid":42,"version":"0.1.0","protocol":1,"rpc":"ipc:///r","events":"ipc:///e","startedAt":"2026-01-01T00:00:00Z"}"#
        )
        #expect(Discovery.File(json: try JSONCodec.decode(text)) == file)
    }

    @Test func onlyTheEndpointsAreRequired() throws {
        let minimal = try #require(
            Discovery.File(json: ["rpc": "tcp://127.0.0.1:1", "events": "tcp://127.0.0.1:2", "extra": true]))
        #expect(
            minimal
                == Discovery.File(
                    name: nil, pid: nil, version: nil, protocolVersion: nil, rpc: "tcp://127.0.0.1:1",
                    events: "tcp://127.0.0.1:2", startedAt: nil))
        #expect(JSONCodec.encodeString(minimal.json) == #"{"rpc":"tcp://127.0.0.1:1","events":"tcp://127.0.0.1:2"}"#)
        #expect(Discovery.File(json: ["rpc": "x"]) == nil)
        #expect(Discovery.File(json: ["rpc": "x", "events": 3]) == nil)
        #expect(Discovery.File(json: [1, 2]) == nil)
    }
}
