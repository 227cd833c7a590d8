import ArgumentParser
import FlyingFox
import Foundation
import ResponderClient
import ResponderOutput
import ResponderPicture
import ResponderProtocol
import ResponderWeb
import Synchronization

struct WebCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract:
            "A live inspector in the browser: the world drawn, its tree, every event of the session as it happens.",
        discussion: """
            Serves a page on http://127.0.0.1:PORT/ (static files inside this binary; nothing is fetched from the \
            internet) that follows the session as `watch` does, without gaps, from every client attached to it. Click \
            the picture to hit-test that point (or, with Tap on, to tap it for real) and see why on the picture and \
            beside it; pick a node in the outline to see its fields, its responder chain and why a tap does or does \
            not reach it (as `responder why` prints it, its culprit and hittable point drawn); search the outline \
            by class, text or id, widen it by dragging its edge; drag the scrubber to see the world as it was after \
            one of the last --history events. The header shows the session's profile (uikit or android); its \
            button copies the session's tree into a new session under the other profile (<session>-android or \
            -uikit, numbered when taken; the copy stays) and follows that one. Under android a click draws which \
            views a touch there is offered to and which consumes it (a dry run of event.tap), and the why panel \
            notes that why-not answers UIKit's rules. The page talks to this process over a \
            WebSocket, which takes only the printed address's secret token and this server's own pages (a page \
            of another site cannot drive it); this process talks to the engine as any client does. Runs until Ctrl-C.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Option(help: "Port to serve on; 0 picks a free one (printed).")
    var port: Int = 8420

    @Option(help: "Address to serve on. Anything but loopback lets other machines see and drive the session.")
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("Events the scrubber can step back through.", valueName: "n"))
    var history = 200

    func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be 0…65535") }
        if history < 1 { throw ValidationError("--history must be at least 1") }
    }

    func run() throws {
        let address: EngineAddress
        do { address = try global.address() } catch {
            global.report(error)
            throw ExitCode.failure
        }
        if !host.hasPrefix("127.") && host != "localhost" && host != "::1" {
            Output.error(
                "warning: serving on \(host): anyone who can reach it can see this session and tap in it (the engine's own access rules still apply to this process)"
            )
        }
        let timeout = global.timeout ?? Double(GlobalOptions.baseTimeout * 3)
        let inspector = Inspector(session: session.session, capacity: history)
        let global = self.global
        let connector = EngineThread.Connector(timeoutSeconds: timeout, clientName: "responder web", kind: "cli-web") {
            address
        }
        let requests: EngineThread
        do {
            requests = try EngineThread(name: "engine-requests", connector: connector)
            _ = try EngineFeed.start(
                connector: connector.finding { () throws(ClientError) in try global.address() },
                inspector: inspector)
        } catch {
            global.report(error)
            throw ExitCode.failure
        }
        let server: HTTPServer
        do {
            let ip = host == "localhost" ? "127.0.0.1" : host
            if ip.contains(":") {
                server = HTTPServer(address: try .inet6(ip6: ip, port: UInt16(port)), logger: .disabled)
            } else {
                server = HTTPServer(address: try .inet(ip4: ip, port: UInt16(port)), logger: .disabled)
            }
        } catch {
            Output.error("error: --host \(host): not an IP address (\(error))")
            throw ExitCode.failure
        }
        let session = self.session.session
        let shownHost = host
        let token = GuardedSocket.newToken()
        let done = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        Task {
            await WebPage.routes(server, inspector: inspector, requests: requests, token: token)
            let run = Task { try await server.run() }
            do {
                try await server.waitUntilListening()
                var port = self.port
                switch await server.listeningAddress {
                case .ip4(_, let p)?, .ip6(_, let p)?: port = Int(p)
                default: break
                }
                Output.line(
                    "responder web: http://\(shownHost.contains(":") ? "[\(shownHost)]" : shownHost):\(port)/?token=\(token) (session \(session); Ctrl-C stops)"
                )
                Output.flush()
                try await run.value
            } catch {
                failure.set("cannot serve on \(shownHost):\(self.port): \(error)")
            }
            done.signal()
        }
        done.wait()
        if let message = failure.message {
            Output.error("error: \(message)")
            throw ExitCode.failure
        }
    }
}

/// A message handed from the server's task to the command's thread.
private final class FailureBox: Sendable {
    private let text = Mutex<String?>(nil)
    func set(_ message: String) { text.withLock { $0 = message } }
    var message: String? { text.withLock { $0 } }
}
