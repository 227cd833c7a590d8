import Foundation
import Testing
import ResponderClient
import ResponderProtocol
@testable import ResponderServer

/// How the engine stops.
@Suite struct EnginePlumbingTests {
    @Test func stopWakesTheEngineAtOnceRatherThanAtItsNextTick() throws {
        let t = try TestEngine(tickMilliseconds: 600_000)
        _ = try t.connect().call("engine.info")
        let start = ContinuousClock.now
        t.stop()
        #expect(ContinuousClock.now - start < .seconds(5))
    }
}
