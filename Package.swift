// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ResponderEngine",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "responderd", targets: ["responderd"]),
        .executable(name: "responder", targets: ["responder"]),
        .executable(name: "responder-subscribe", targets: ["ResponderSubscribe"]),
        .executable(name: "responder-bench", targets: ["ResponderBench"]),
        .library(name: "ResponderClient", targets: ["ResponderClient"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The official Model Context Protocol SDK, for `responder mcp`.
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", exact: "0.12.1"),
        // HTTP and WebSocket server of `responder web`: no SwiftNIO, so CI builds it quickly.
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1")
    ],
    targets: [
        // libzmq from the system (Debian: libzmq3-dev).
        .systemLibrary(name: "CZMQ", providers: [.apt(["libzmq3-dev"])]),
        // SQLite from the system (Debian: libsqlite3-dev): the engine's durable state. Its shim hands over the
        // macros Swift cannot import (SQLITE_TRANSIENT).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // The C library's heap: glibc's `malloc_trim`, which Swift's Glibc module does not import.
        .systemLibrary(name: "CHeap"),
        // The compiler's prefetch hint, which Swift does not expose: a large load's id index is filled at random
        // positions, and each insertion waits on a cache miss unless the next ones are asked for early.
        .systemLibrary(name: "CPrefetch"),
        // Thin Swift wrapper over libzmq: context, socket, multipart messages, poll.
        .target(name: "ZMQ", dependencies: ["CZMQ"]),
        // JSON: the value, its parser (with a caller's table of strings to share) and writer, iterative release
        // of deep values, Codable bridging. Knows nothing of the protocol. No dependencies.
        .target(name: "ResponderJSON"),
        // Wire types and their coding: JSON-RPC envelope, requests and replies, error names, wire enums.
        .target(name: "ResponderProtocol", dependencies: ["ResponderJSON"]),
        // Files, keys and discovery on this machine: owner-checked files, key files, discovery files, secret
        // comparison. Shared by the engine and the client library.
        .target(name: "ResponderLocal", dependencies: ["ResponderJSON"]),
        // Pure core: world model, validation, dispatch. Deterministic, no IO.
        .target(name: "ResponderCore", dependencies: ["ResponderProtocol", "ResponderJSON", "CPrefetch"]),
        // Engine server: sockets, sessions, publishing, discovery.
        .target(
            name: "ResponderServer",
            dependencies: [
                "ResponderCore", "ResponderProtocol", "ResponderJSON", "ResponderLocal", "ZMQ", "CSQLite", "CHeap",
                .product(name: "Logging", package: "swift-log")
            ]),
        // Client library used by the CLI and any Swift tool.
        .target(name: "ResponderClient", dependencies: ["ResponderProtocol", "ResponderJSON", "ResponderLocal", "ZMQ"]),
        // Pictures of a world (SVG, Graphviz): pure functions of the engine's replies, for `draw` and `web`.
        .target(name: "ResponderPicture", dependencies: ["ResponderProtocol", "ResponderJSON"]),
        // The CLI's words: replies, traces and events as text, tables, the status line; shared by the commands and
        // the front doors below.
        .target(
            name: "ResponderOutput",
            dependencies: ["ResponderClient", "ResponderProtocol", "ResponderJSON", "ResponderPicture"]),
        // lldb hierarchy dumps read into a world: `responder import` and the MCP server's import_hierarchy.
        .target(name: "ResponderImport", dependencies: ["ResponderProtocol", "ResponderJSON"]),
        // `responder mcp`'s server: the official MCP SDK's tools and resources over an EngineThread.
        .target(
            name: "ResponderMCP",
            dependencies: [
                "ResponderClient", "ResponderProtocol", "ResponderJSON", "ResponderOutput", "ResponderImport",
                "ResponderPicture", .product(name: "MCP", package: "swift-sdk")
            ]),
        // `responder web`'s inspector: the page, its WebSocket, the session mirrored from the engine's events.
        .target(
            name: "ResponderWeb",
            dependencies: [
                "ResponderClient", "ResponderProtocol", "ResponderJSON", "ResponderLocal", "ResponderCore",
                "ResponderPicture",
                "ResponderOutput", .product(name: "FlyingFox", package: "FlyingFox")
            ]),
        // `responder bridge`: LSP framing on stdio, the relay to the engine, bridge.subscribe.
        .target(name: "ResponderBridge", dependencies: ["ResponderClient", "ResponderProtocol", "ResponderJSON"]),
        .executableTarget(
            name: "responderd",
            dependencies: [
                "ResponderServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log")
            ]),
        .executableTarget(
            name: "responder",
            dependencies: [
                "ResponderClient", "ResponderProtocol", "ResponderJSON", "ResponderLocal", "ResponderPicture",
                "ResponderOutput",
                "ResponderImport", "ResponderMCP", "ResponderWeb", "ResponderBridge",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]),
        // The Swift sample subscriber (clients/README.md), on the same client library as the CLI.
        .executableTarget(
            name: "ResponderSubscribe",
            dependencies: [
                "ResponderClient", "ResponderProtocol", "ResponderJSON",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ], path: "clients/swift/SampleSubscriber"),
        // The benchmark suite (./dev bench): figures against baselines measured in the same run, among them a raw
        // libzmq echo process (`responder-bench echo`) and Chromium's CDP; `./dev profile` counts instructions.
        .executableTarget(
            name: "ResponderBench",
            dependencies: [
                "ResponderCore", "ResponderProtocol", "ResponderJSON", "ResponderPicture", "ResponderServer", "ZMQ",
                "CZMQ",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]),
        .testTarget(name: "ZMQTests", dependencies: ["ZMQ"]),
        // What tests of every layer share and that depends on nothing (a thread with a small stack).
        .target(name: "ResponderTestBasics", dependencies: ["ResponderJSON"], path: "Tests/Basics"),
        .testTarget(name: "ResponderJSONTests", dependencies: ["ResponderJSON", "ResponderTestBasics"]),
        .testTarget(
            name: "ResponderProtocolTests", dependencies: ["ResponderProtocol", "ResponderJSON", "ResponderTestBasics"]),
        .testTarget(name: "ResponderLocalTests", dependencies: ["ResponderLocal", "ResponderJSON"]),
        .testTarget(
            name: "ResponderPictureTests", dependencies: ["ResponderPicture", "ResponderProtocol", "ResponderJSON"]),
        // The server only for its edge: a core error as a client reads it.
        .testTarget(
            name: "ResponderCoreTests",
            dependencies: ["ResponderCore", "ResponderProtocol", "ResponderJSON", "ResponderServer"]),
        // A real engine in-process for the tests of the client library and the front doors.
        .target(
            name: "ResponderTestSupport",
            dependencies: ["ResponderServer", "ResponderClient", "ResponderProtocol", "ResponderJSON"],
            path: "Tests/Support"),
        .testTarget(
            name: "ResponderClientTests",
            dependencies: ["ResponderClient", "ResponderProtocol", "ResponderJSON", "ResponderTestSupport"]),
        .testTarget(
            name: "ResponderMCPTests",
            dependencies: [
                "ResponderMCP", "ResponderClient", "ResponderProtocol", "ResponderJSON", "ResponderTestSupport",
                .product(name: "MCP", package: "swift-sdk")
            ]),
        .testTarget(
            name: "ResponderWebTests",
            dependencies: [
                "ResponderWeb", "ResponderClient", "ResponderProtocol", "ResponderJSON", "ResponderTestSupport",
                .product(name: "FlyingFox", package: "FlyingFox")
            ]),
        .testTarget(
            name: "ResponderBridgeTests",
            dependencies: [
                "ResponderBridge", "ResponderClient", "ResponderProtocol", "ResponderJSON", "ResponderTestSupport"
            ]),
        .testTarget(
            name: "ResponderServerTests",
            dependencies: [
                "ResponderServer", "ResponderClient", "ResponderCore", "ResponderProtocol", "ResponderJSON",
                "ResponderLocal", "ResponderTestBasics",
                "ZMQ", .product(name: "Logging", package: "swift-log")
            ]),
        // The built `responder` binary end to end (run as a child process against an in-process engine).
        .testTarget(
            name: "ResponderCLITests",
            dependencies: [
                "ResponderServer", "ResponderClient", "ResponderCore", "ResponderProtocol", "ResponderJSON",
                "ResponderTestSupport", "ResponderTestBasics"
            ])
    ]
)
