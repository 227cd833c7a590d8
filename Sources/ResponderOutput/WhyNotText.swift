import ResponderProtocol

/// `whyNot`'s answer in a few lines, the same for `responder why`, `responder tap --view` and the MCP tools:
/// the decisive cause first with its rule id, then the others, then where a tap is the view's own.
package enum WhyNotText {
    package static func lines(_ answer: WhyNotAnswer, view: String) -> [String] {
        var lines: [String] = answer.ok ? ["\(view): ok"] : []
        for (i, cause) in answer.causes.enumerated() {
            let lead = i == 0 ? "\(view): not ok" : "  also"
            lines.append("\(lead) (\(cause.rule.rawValue), \(cause.reason.rawValue)): \(cause.detail)")
        }
        lines.append(hittable(answer.hittable))
        return lines
    }

    /// What `responder why` prints and the inspector's why panel shows: `lines`, then what each rule cited means.
    package static func report(_ answer: WhyNotAnswer, view: String) -> [String] {
        lines(answer, view: view) + legend(answer)
    }

    /// `rules:` and one line per rule the causes cite.
    package static func legend(_ answer: WhyNotAnswer) -> [String] {
        StepFormatter.legend(Set(answer.causes.map(\.rule)).sorted())
    }

    /// `hittable over 80% of it, e.g. at (60, 35)`, or `hittable nowhere`.
    package static func hittable(_ hittable: Hittable) -> String {
        let share = Int((hittable.fraction * 100).rounded())
        guard let p = hittable.point else { return "hittable nowhere" }
        return "hittable over \(share)% of it, e.g. at \(Output.point(p))"
    }
}
