import Foundation
import ResponderJSON
import ResponderProtocol

/// The requests `profile` counts, by the names `--only` and a baseline file use.
enum ProfiledRequest: String, CaseIterable {
    case hitTest
    case tap
    case hitTestNone = "hitTest-none"
    case tapNone = "tap-none"
    case light

    var title: String {
        switch self {
        case .hitTest: "hitTest, 1,110 views"
        case .tap: "event.tap, demo world"
        case .hitTestNone: "hitTest trace none, 1,110 views"
        case .tapNone: "event.tap trace none, demo world"
        case .light: "responder.first (the light request)"
        }
    }

    var body: [UInt8] {
        switch self {
        case .hitTest: RoundTrip.hitBody
        case .tap: RoundTrip.tapBody
        case .hitTestNone: RoundTrip.hitNoneBody
        case .tapNone: RoundTrip.tapNoneBody
        case .light: RoundTrip.lightBody
        }
    }
}

/// Instruction counts per request kept in a file (`profile --save`), the regression guard's reference
/// (`profile --against`). Counts depend on the compiler and on what is counted, so a file says its mode and a
/// comparison across modes is refused rather than made.
struct InstructionBaseline {
    struct Mode: Equatable, CustomStringConvertible {
        /// "requests-only" or "whole-engine".
        var scope: String
        /// "none" (in memory), "normal" or "full".
        var durability: String
        /// The build counted ("release" or "debug": the engine runs from beside this executable, built alike).
        var build: String
        var description: String { "\(scope), durability \(durability), \(build) build" }

        static var thisBuild: String {
            #if DEBUG
            "debug"
            #else
            "release"
            #endif
        }
    }

    var mode: Mode
    /// Requests in the longer run.
    var requests: Int
    /// Instructions per request, by `ProfiledRequest` name.
    var counts: [String: Int]

    static let format = 1

    var json: JSON {
        let sorted = counts.keys.sorted().map { (key: $0, value: JSON(counts[$0]!)) }
        return .object([
            ("format", JSON(Self.format)), ("scope", .string(mode.scope)), ("durability", .string(mode.durability)),
            ("build", .string(mode.build)), ("requests", JSON(requests)), ("counts", .object(sorted))
        ])
    }

    func write(_ path: String) throws {
        var text = JSONCodec.encode(json)
        text.append(UInt8(ascii: "\n"))
        guard FileManager.default.createFile(atPath: path, contents: Data(text)) else {
            throw BenchError("cannot write \(path)")
        }
    }

    /// The file at `path`, which must hold counts made in `expecting`'s mode. Every refusal names the file
    /// and what is wrong in it.
    static func read(_ path: String, expecting: Mode) throws -> InstructionBaseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError("--against: cannot read \(path)")
        }
        let parsed: InstructionBaseline
        do { parsed = try parse(Array(data)) } catch let error as BenchError {
            throw BenchError("--against: \(path): \(error.description)")
        }
        guard parsed.mode == expecting else {
            throw BenchError(
                "--against: \(path) holds counts of \(parsed.mode), this run counts \(expecting): run with the options it was saved with"
            )
        }
        return parsed
    }

    static func parse(_ bytes: [UInt8]) throws -> InstructionBaseline {
        let document: JSON
        do { document = try JSONCodec.decode(bytes) } catch { throw BenchError("not JSON (\(error))") }
        guard case .object = document else { throw BenchError("not a JSON object") }
        guard document["format"]?.intValue == format else { throw BenchError("format: expected \(format)") }
        guard let scope = document["scope"]?.stringValue, ["requests-only", "whole-engine"].contains(scope) else {
            throw BenchError("scope: expected \"requests-only\" or \"whole-engine\"")
        }
        guard let durability = document["durability"]?.stringValue, ["none", "normal", "full"].contains(durability)
        else {
            throw BenchError("durability: expected \"none\", \"normal\" or \"full\"")
        }
        guard let build = document["build"]?.stringValue, ["release", "debug"].contains(build) else {
            throw BenchError("build: expected \"release\" or \"debug\"")
        }
        guard let requests = document["requests"]?.intValue, requests > 20 else {
            throw BenchError("requests: expected a count over 20")
        }
        guard case .object(let members)? = document["counts"] else { throw BenchError("counts: expected an object") }
        var counts: [String: Int] = [:]
        for (key, value) in members {
            guard ProfiledRequest(rawValue: key) != nil else {
                throw BenchError(
                    "counts.\(key): not a request that profile counts (\(ProfiledRequest.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            guard let n = value.intValue, n > 0 else {
                throw BenchError("counts.\(key): expected a positive whole number")
            }
            counts[key] = n
        }
        return InstructionBaseline(
            mode: Mode(scope: scope, durability: durability, build: build), requests: requests, counts: counts)
    }
}
