import Foundation
import ResponderProtocol
import Testing

@testable import ResponderServer

/// The request types, the engine's method table and Protocol/ name the same methods; the Rule enum and
/// Protocol/'s 12.1 table name the same rules.
@Suite struct RegistryTests {
    static var readme: String {
        get throws {
            try String(
                contentsOf: SpecAgreementTests.protocolDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        }
    }

    /// Method names documented as `### \`name\`` or `#### \`name\`` headings.
    static func documentedMethods() throws -> Set<String> {
        var names: Set<String> = []
        for line in try readme.split(separator: "\n") where line.hasPrefix("### `") || line.hasPrefix("#### `") {
            let parts = line.split(separator: "`")
            if parts.count >= 2 { names.insert(String(parts[1])) }
        }
        return names
    }

    @Test func everyRequestTypeIsServedAndEveryServedMethodHasAType() {
        let typed = Set(MethodRegistry.all.map { $0.method })
        #expect(typed.count == MethodRegistry.all.count, "two request types share a method name")
        #expect(typed == Set(Methods.names))
    }

    @Test func theRegistryMatchesProtocolMethodListBothWays() throws {
        let documented = try Self.documentedMethods()
        let typed = Set(MethodRegistry.names)
        #expect(
            typed.subtracting(documented).isEmpty,
            "methods without a section in Protocol/README.md: \(typed.subtracting(documented).sorted())")
        #expect(
            documented.subtracting(typed).isEmpty,
            "documented methods without a request type: \(documented.subtracting(typed).sorted())")
    }

    @Test func everyRuleOfTable12_1IsACaseAndEveryCaseIsInTheTable() throws {
        let text = try Self.readme
        let section = text.components(separatedBy: "### 12.1 Rules")[1].components(separatedBy: "### 12.2")[0]
        var tabled: [String] = []
        for line in section.split(separator: "\n") where line.hasPrefix("| ") {
            let id = line.dropFirst(2).prefix { $0 != " " }
            if id.count >= 2, id.first!.isUppercase, id.dropFirst().allSatisfy(\.isNumber) { tabled.append(String(id)) }
        }
        // 12.1 tables UIKit's rules; Android's (two-letter families) are on docs/rules-android.md, which it names.
        let uikit = Rule.allCases.map(\.rawValue).filter { $0.dropFirst().first?.isNumber == true }
        #expect(tabled == uikit, "12.1 lists \(tabled); Rule has \(uikit)")
        #expect(section.contains("docs/rules-android.md"))
    }
}
