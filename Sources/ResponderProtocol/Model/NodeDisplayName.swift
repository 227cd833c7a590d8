import ResponderJSON

/// The name a developer recognises a node by, kept as its annotation `displayName` (`UIButton "Sign in"`:
/// `responder import` writes it), and the one way every text answer, picture and outline writes it beside the id.
public enum NodeDisplayName {
    /// The annotation that holds it.
    public static let key = "displayName"

    /// A node's display name (a `tree.get` node as JSON), if it has one.
    public static func of(_ node: JSON) -> String? {
        guard let name = node["annotations"]?[key]?.stringValue, !name.isEmpty else { return nil }
        return name
    }

    /// `0x7f8a5c514000 (UIButton "Sign in")`, or the id alone for a node without a name.
    public static func label(_ id: String, name: String?) -> String {
        guard let name else { return id }
        return "\(id) (\(name))"
    }
}
