import Foundation
import ResponderClient
import ResponderJSON
import ResponderLocal
import ResponderProtocol
import Testing

@testable import ResponderServer

/// How the engine stops and how clients find it.
@Suite struct EnginePlumbingTests {
    @Test func stopWakesTheEngineAtOnceRatherThanAtItsNextTick() throws {
        let t = try TestEngine(tickMilliseconds: 600_000)
        _ = try t.connect().call("engine.info")
        let start = ContinuousClock.now
        t.stop()
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func theDiscoveryFileHoldsEveryKeyAndClientsReadIt() throws {
        let t = try TestEngine()
        defer { t.stop() }
        let data = try #require(FileManager.default.contents(atPath: t.engine.discoveryPath))
        let json = try JSONCodec.decode(Array(data))
        // Every key but curveServerKey, which an ipc engine has no use for (Protocol/README.md 2.1).
        #expect(
            json.objectMembers?.map(\.key)
                == Discovery.File.Key.allCases.map(\.rawValue).filter { $0 != "curveServerKey" })
        let file = try #require(Discovery.File(json: json))
        #expect(file.name == t.name)
        #expect(file.pid == Int(getpid()))
        #expect(file.version == EngineConfig.version)
        #expect(file.protocolVersion == EngineConfig.protocolVersion)
        #expect(file.rpc == t.engine.config.rpcEndpoint)
        #expect(file.events == t.engine.config.eventsEndpoint)
        #expect(file.startedAt?.isEmpty == false)
        #expect(try t.address == EngineAddress(rpc: file.rpc, events: file.events, name: file.name, pid: file.pid))
        #expect(t.engine.discoveryPath == Discovery.filePath(directory: t.directory, name: t.name))
    }

    @Test func engineAndClientsDefaultToTheSameDirectory() {
        #expect(RuntimeDirectory.defaultPath() == EngineAddress.defaultDirectory())
        #expect(EngineConfig(name: "x").directory == EngineAddress.defaultDirectory())
    }
}
