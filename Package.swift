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
        .library(name: "ResponderClient", targets: ["ResponderClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The official Model Context Protocol SDK, for `responder mcp` (issue 13).
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", exact: "0.12.1"),
        // HTTP and WebSocket server of `responder web` (issue 12): no SwiftNIO, so CI builds it quickly.
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
    ],
    targets: [
        // libzmq from the system (Debian: libzmq3-dev).
        .systemLibrary(name: "CZMQ", providers: [.apt(["libzmq3-dev"])]),
        // SQLite from the system (Debian: libsqlite3-dev): the engine's durable state (issue 14).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // Thin Swift wrapper over libzmq: context, socket, multipart messages, poll.
        .target(name: "ZMQ", dependencies: ["CZMQ"]),
        // Wire types: JSON value, codec seam, JSON-RPC envelope, error names. No dependencies.
        .target(name: "ResponderProtocol"),
        // Pure core: world model, validation, dispatch. Deterministic, no IO.
        .target(name: "ResponderCore", dependencies: ["ResponderProtocol"]),
        // Engine server: sockets, sessions, publishing, discovery.
        .target(name: "ResponderServer", dependencies: [
            "ResponderCore", "ResponderProtocol", "ZMQ", "CSQLite",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Client library used by the CLI and any Swift tool.
        .target(name: "ResponderClient", dependencies: ["ResponderProtocol", "ZMQ"]),
        // Pictures of a world (SVG, Graphviz): pure functions of the engine's replies, for `draw` and `web`.
        .target(name: "ResponderPicture", dependencies: ["ResponderProtocol"]),
        .executableTarget(name: "responderd", dependencies: [
            "ResponderServer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "responder", dependencies: [
            "ResponderClient", "ResponderProtocol", "ResponderPicture", "ResponderCore",
            .product(name: "FlyingFox", package: "FlyingFox"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "MCP", package: "swift-sdk"),
        ]),
        // The Swift sample subscriber (clients/README.md), on the same client library as the CLI.
        .executableTarget(name: "ResponderSubscribe", dependencies: [
            "ResponderClient", "ResponderProtocol",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], path: "clients/swift/SampleSubscriber"),
        // The benchmark suite (./dev bench): figures against baselines measured in the same run, among them a raw
        // libzmq echo process (`responder-bench echo`) and Chromium's CDP; `./dev profile` counts instructions.
        .executableTarget(name: "ResponderBench", dependencies: [
            "ResponderCore", "ResponderProtocol", "ResponderPicture", "ResponderServer", "ZMQ", "CZMQ",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "ZMQTests", dependencies: ["ZMQ"]),
        .testTarget(name: "ResponderProtocolTests", dependencies: ["ResponderProtocol"]),
        .testTarget(name: "ResponderPictureTests", dependencies: ["ResponderPicture", "ResponderProtocol"]),
        // The server only for its edge: a core error as a client reads it.
        .testTarget(name: "ResponderCoreTests", dependencies: ["ResponderCore", "ResponderProtocol", "ResponderServer"]),
        .testTarget(name: "ResponderServerTests", dependencies: [
            "ResponderServer", "ResponderClient", "ResponderCore", "ResponderProtocol", "ZMQ",
        ]),
    ]
)
