import ResponderJSON
import ResponderProtocol

/// What an import made, counted from the world it built, so the user sees at once whether the dump came in whole:
/// a window that is a stand-in, or controllers whose root views are placeholders, mean the dump was not all there.
package struct ImportSummary: Equatable {
    package var nodes = 0
    /// Windows the dump printed.
    package var windows = 0
    /// Windows added to hold views or controllers the dump did not place in a window.
    package var standInWindows = 0
    package var controllers = 0
    package var controls = 0
    package var textInputs = 0
    /// Root views added for controllers whose views the dump did not show.
    package var placeholderViews = 0
    /// Views that name a UIKit class through `baseClass`.
    package var baseClasses = 0
    /// Gesture recognizers and control targets read from the dump's recognizer and target sections.
    package var recognizers = 0
    package var controlTargets = 0
    /// Annotation entries kept from the dump (keys the engine does not use; not the import's own notes).
    package var annotations = 0

    package init(world: JSON) {
        var stack: [JSON] = [world]
        while let node = stack.popLast() {
            let kind = node["kind"]?.stringValue
            let notes = node["annotations"]
            let addedByImport = notes?["imported"] != nil
            nodes += 1  // the application too, as `imported N nodes` counts them
            switch kind {
            case "window": if addedByImport { standInWindows += 1 } else { windows += 1 }
            case "viewController": controllers += 1
            case "control": controls += 1
            case "textField", "textView": textInputs += 1
            default: break
            }
            if addedByImport, kind != "window" { placeholderViews += 1 }
            if node["baseClass"] != nil { baseClasses += 1 }
            recognizers += node["gestureRecognizers"]?.arrayValue?.count ?? 0
            controlTargets += node["targets"]?.arrayValue?.count ?? 0
            if case .object(let entries)? = notes {
                annotations += entries.filter { $0.key != "imported" && $0.key != NodeDisplayName.key }.count
            }
            stack.append(contentsOf: node["children"]?.arrayValue ?? [])
        }
    }

    /// One line: `21 nodes: 1 window, 3 controllers, 4 controls, …`.
    package var text: String {
        func count(_ n: Int, _ one: String, _ many: String? = nil) -> String {
            "\(n) \(n == 1 ? one : (many ?? one + "s"))"
        }
        var parts = [
            count(windows, "window"), count(controllers, "controller"), count(controls, "control"),
            count(recognizers, "recognizer"), count(controlTargets, "control target")
        ]
        if textInputs > 0 { parts.append(count(textInputs, "text input")) }
        if baseClasses > 0 { parts.append(count(baseClasses, "view of a base class", "views of a base class")) }
        parts.append(count(annotations, "annotation") + " kept")
        if standInWindows > 0 { parts.append(count(standInWindows, "stand-in window")) }
        if placeholderViews > 0 { parts.append(count(placeholderViews, "placeholder root view")) }
        return count(nodes, "node") + ": " + parts.joined(separator: ", ")
    }
}
