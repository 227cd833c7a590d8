import ResponderJSON
import ResponderProtocol

/// The class fields (Protocol/ 8.6) a tree line shows among its flags: the state a UIKit class adds.
package enum UIKitFlags {
    package static func flags(_ node: JSON) -> [String] {
        var flags: [String] = []
        if let on = node["on"]?.boolValue { flags.append(on ? "on" : "off") }
        if let value = node["value"]?.doubleValue { flags.append("value \(Output.number(.number(value)))") }
        if let segment = node["selectedSegmentIndex"]?.intValue {
            flags.append(segment < 0 ? "no segment" : "segment \(segment)")
        }
        if let text = node["text"]?.stringValue {
            flags.append("text \"\(text.count > 24 ? text.prefix(24) + "…" : text)\"")
        }
        if let offset = node["boundsOrigin"]?.arrayValue, node["contentSize"] != nil,
            offset.contains(where: { $0.doubleValue != 0 })
        {
            flags.append("offset (" + offset.map { Output.number($0) }.joined(separator: ", ") + ")")
        }
        if let animating = node["animating"], !animating.isNull {
            flags.append(animating["allowUserInteraction"]?.boolValue == true ? "animating, interactive" : "animating")
        }
        if let style = node["modalPresentationStyle"]?.stringValue { flags.append(style) }
        if let pasteboard = node["pasteboard"]?.stringValue { flags.append("pasteboard \"\(pasteboard)\"") }
        // K14–K16: a cell's state and its table's delegate.
        if node["selected"]?.boolValue == true { flags.append("selected") }
        if node["highlighted"]?.boolValue == true { flags.append("highlighted") }
        if let delegate = node["delegate"]?.stringValue { flags.append("delegate \(delegate)") }
        return flags
    }
}
