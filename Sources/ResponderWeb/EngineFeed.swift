import Foundation
import ResponderClient
import ResponderProtocol

/// Follows the session on an EngineThread of its own (SessionFollower: snapshot, then every event in seq order,
/// gaps recovered from the replay ring), handing each item to `inspector`. When the engine goes away it says
/// so and joins again from a fresh snapshot once it is back.
package enum EngineFeed {
    /// `connector` finds the engine anew after each failure. The session is the inspector's: when the page
    /// switches to another, the feed leaves the old one and joins the new one from its snapshot.
    package static func start(connector: EngineThread.Connector, inspector: Inspector)
        throws(ClientError) -> EngineThread
    {
        try EngineThread(name: "engine-feed", connector: connector) { context in
            while !context.isStopping {
                let session = inspector.session
                do {
                    let connection = try context.connection()
                    let follower = try SessionFollower(connection: connection, session: session)
                    var nextHello = Date().addingTimeInterval(30)
                    while !context.isStopping, inspector.session == session {
                        if Date() >= nextHello {
                            // Stay listed by `responder clients` (the engine's idle window).
                            nextHello = Date().addingTimeInterval(30)
                            try? connector.hello(connection)
                        }
                        guard let item = try follower.next(timeoutMs: 1000) else {
                            _ = try connector.locate()  // the engine is still there
                            continue
                        }
                        inspector.receive(item, from: session, connection: connection)
                    }
                } catch {
                    context.disconnect()
                    inspector.status("not following \(session): \(error)")
                    context.wait(seconds: 2)
                }
            }
        }
    }
}
