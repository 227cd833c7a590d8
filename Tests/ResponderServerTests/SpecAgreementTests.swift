import Foundation
import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderServer

/// The published spec and the code list the same errors and methods, so neither can drift alone.
@Suite struct SpecAgreementTests {
    static let protocolDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Protocol")

    @Test func everyErrorNameAndCodeIsInProtocolErrorsJSON() throws {
        let data = try Data(contentsOf: Self.protocolDirectory.appendingPathComponent("errors.json"))
        let listed = try JSONCodec.decode(Array(data)).arrayValue ?? []
        var spec: [String: Int] = [:]
        for entry in listed {
            if let name = entry["name"]?.stringValue, let code = entry["code"]?.intValue { spec[name] = code }
        }
        let code = Dictionary(uniqueKeysWithValues: ErrorName.allCases.map { ($0.rawValue, $0.code) })
        #expect(spec == code)
    }

    @Test func everyMethodHasParamsAndResultSchemasAndIsInTheSpec() throws {
        let readme = try String(contentsOf: Self.protocolDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        let schemas = Self.protocolDirectory.appendingPathComponent("schemas/methods")
        for method in Methods.names {
            #expect(
                FileManager.default.fileExists(atPath: schemas.appendingPathComponent("\(method).params.json").path),
                "\(method) has no params schema")
            #expect(
                FileManager.default.fileExists(atPath: schemas.appendingPathComponent("\(method).result.json").path),
                "\(method) has no result schema")
            #expect(readme.contains("`\(method)`"), "Protocol/README.md does not document \(method)")
        }
        // And no schema describes a method the engine does not have.
        let files = try FileManager.default.contentsOfDirectory(atPath: schemas.path)
        let documented = Set(
            files.compactMap { $0.hasSuffix(".params.json") ? String($0.dropLast(".params.json".count)) : nil })
        #expect(documented == Set(Methods.names))
    }
}
