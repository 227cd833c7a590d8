import Foundation
import ResponderProtocol
import Testing

/// docs/rules.md (UIKit) and docs/rules-android.md (Android) are the reference for the ids traces, tests and the
/// CLI print: each `Rule` case has its entry on one of them, and they define no id the engine does not have.
@Suite("docs/rules.md, docs/rules-android.md and the Rule enum name the same rules")
struct RuleDocumentTests {
    /// One rule's entry: `### H1 — title`, a paragraph saying what it does, and a `Rests on:` line.
    struct Entry {
        var id: String
        var title = ""
        var family: String?
        var body: [Substring] = []

        var restsOn: Substring? {
            body.first { $0.hasPrefix("Rests on:") }.map { $0.dropFirst("Rests on:".count).drop { $0 == " " } }
        }

        /// The text between the heading and `Rests on:`, blank lines left out.
        var description: [Substring] {
            body.prefix { !$0.hasPrefix("Rests on:") }.filter { !$0.allSatisfy(\.isWhitespace) }
        }
    }

    struct RuleDocument {
        var entries: [Entry] = []
        /// Headings below `##` that are not of the form `### <id> — <title>`: an entry a reader sees but the
        /// test could not count.
        var malformed: [String] = []

        init(_ text: String) {
            var family: String?
            var current: Int?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("## ") {
                    // A family section, `## H — Hit-testing`; any other section ends the current family.
                    family = line.wholeMatch(of: #/## ([A-Z]{1,2}) — \S.*/#).map { String($0.1) }
                    current = nil
                } else if line.hasPrefix("### ") {
                    if let m = line.wholeMatch(of: #/### ([A-Z]{1,2}[0-9]+) — (\S.*)/#) {
                        entries.append(Entry(id: String(m.1), title: String(m.2), family: family))
                        current = entries.count - 1
                    } else {
                        malformed.append(String(line))
                        current = nil
                    }
                } else if line.hasPrefix("#") && !line.hasPrefix("# ") {
                    malformed.append(String(line))
                    current = nil
                } else if let current {
                    entries[current].body.append(line)
                }
            }
        }

        var ids: [String] { entries.map(\.id) }
    }

    static let docs = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs")

    /// Both pages as one document, UIKit's first: the enum lists UIKit's rules, then Android's.
    static func document() throws -> RuleDocument {
        let uikit = try String(contentsOf: docs.appendingPathComponent("rules.md"), encoding: .utf8)
        let android = try String(contentsOf: docs.appendingPathComponent("rules-android.md"), encoding: .utf8)
        return RuleDocument(uikit + "\n" + android)
    }

    static var cases: [String] { Rule.allCases.map(\.rawValue) }

    @Test("every Rule case has an entry in docs/rules.md")
    func everyRuleCaseHasAnEntry() throws {
        let documented = Set(try Self.document().ids)
        let missing = Self.cases.filter { !documented.contains($0) }
        #expect(missing.isEmpty, "Rule cases without a `### <id> — ` entry in the rule pages: \(missing)")
    }

    @Test("every id docs/rules.md defines is a Rule case, once, and every heading is an entry")
    func everyDocumentedIdIsARuleCase() throws {
        let document = try Self.document()
        let cases = Set(Self.cases)
        let unknown = document.ids.filter { !cases.contains($0) }
        #expect(unknown.isEmpty, "the rule pages define ids that are not Rule cases: \(unknown)")
        let repeated = Dictionary(grouping: document.ids, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "the rule pages define these ids more than once: \(repeated)")
        #expect(
            document.malformed.isEmpty,
            "headings in the rule pages that are not `### <id> — <title>` entries: \(document.malformed)")
    }

    @Test("docs/rules.md lists the rules in the enum's order, each under its family's section")
    func entriesFollowTheEnum() throws {
        let document = try Self.document()
        #expect(document.ids == Self.cases)
        for entry in document.entries {
            #expect(
                entry.family == String(entry.id.prefix { $0.isLetter }),
                "\(entry.id) is under family \(entry.family ?? "none")")
        }
    }

    @Test("each entry says what the rule does and what it rests on")
    func everyEntryHasItsTextAndSource() throws {
        for entry in try Self.document().entries {
            #expect(!entry.description.isEmpty, "\(entry.id) has no text before `Rests on:`")
            #expect(entry.restsOn.map { !$0.isEmpty } == true, "\(entry.id) has no `Rests on:` line naming its source")
        }
    }

    @Test("each rule's one-line meaning, printed beside its id, is the title of its entry")
    func titlesAreTheEntriesTitles() throws {
        for entry in try Self.document().entries {
            guard let rule = Rule(rawValue: entry.id) else { continue }
            #expect(rule.title == entry.title, "\(entry.id): Rule.title differs from its entry")
        }
    }
}
