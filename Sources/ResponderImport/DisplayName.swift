/// The name a developer recognises a view by: its class plus the words the dump shows for it
/// (`UIButton "Save Changes"`), kept as the annotation `displayName` so answers and `responder find` can show it.
///
/// A view's own `text`, `title`, `placeholder`, accessibility identifier or label come first. A control, a text
/// input or a cell rarely prints words of its own: UIKit draws a button's title in a `UIButtonLabel`, a text
/// field's placeholder in a label inside it, and a cell's text in its content view, so the first words printed
/// inside it name it.
package enum DisplayName {
    /// The annotation keys that hold words, in the order they name a view.
    package static let wordKeys = ["text", "title", "placeholder", "accessibilityIdentifier", "accessibilityLabel"]

    /// Words longer than this are cut, so a paragraph does not become a name.
    static let longest = 40

    static func of(_ view: HierarchyDump.ViewLine) -> String {
        guard let words = ownWords(view) ?? (looksInside(view) ? innerWords(view) : nil) else {
            return view.className
        }
        let cut = words.count > longest ? words.prefix(longest) + "…" : Substring(words)
        return "\(view.className) \"\(cut)\""
    }

    private static func ownWords(_ view: HierarchyDump.ViewLine) -> String? {
        for key in wordKeys {
            if let value = view.annotations.last(where: { $0.0 == key })?.1, !value.isEmpty { return value }
        }
        return nil
    }

    private static func looksInside(_ view: HierarchyDump.ViewLine) -> Bool {
        view.kind == .control || view.kind == .textField || view.kind == .textView
            || view.className.hasSuffix("Cell")
            || view.annotations.contains { $0.0 == "baseClass" && $0.1.hasSuffix("Cell") }
    }

    /// The first words printed inside the view, depth first (bounded: a cell holds a handful of views).
    private static func innerWords(_ view: HierarchyDump.ViewLine) -> String? {
        var stack = Array(view.children.reversed())
        var visited = 0
        while let next = stack.popLast(), visited < 200 {
            visited += 1
            if let words = ownWords(next) { return words }
            stack.append(contentsOf: next.children.reversed())
        }
        return nil
    }
}
