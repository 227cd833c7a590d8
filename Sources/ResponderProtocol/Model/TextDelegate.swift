import ResponderJSON

/// K11–K13: what a text field's (or text view's) delegate answers. The engine runs no app code, so a node
/// declares its delegate's answers; each defaults to true, as UIKit's does when the delegate does not implement
/// the method.
public struct TextDelegate: Sendable, Equatable {
    /// K11: textFieldShouldBeginEditing(_:) / textViewShouldBeginEditing(_:).
    public var shouldBeginEditing = true
    /// K11: textFieldShouldEndEditing(_:) / textViewShouldEndEditing(_:); not asked when the end is forced.
    public var shouldEndEditing = true
    /// K13: textFieldShouldReturn(_:).
    public var shouldReturn = true
    /// K12: textField(_:shouldChangeCharactersIn:replacementString:) / textView(_:shouldChangeTextIn:replacementText:).
    public var shouldChangeCharacters = true

    public init() {}

    static let members: [(name: String, keyPath: WritableKeyPath<TextDelegate, Bool> & Sendable)] = [
        ("shouldBeginEditing", \.shouldBeginEditing), ("shouldEndEditing", \.shouldEndEditing),
        ("shouldReturn", \.shouldReturn), ("shouldChangeCharacters", \.shouldChangeCharacters)
    ]
}

extension NodeSpec {
    /// K11–K13: the delegate's answers (all true without one).
    public var textDelegate: TextDelegate { uikit.textDelegate ?? TextDelegate() }
}

extension NodeField {
    /// K11–K13: `textDelegate` on text fields and text views, written only when set.
    static let editingFields: [NodeField] = [
        field(
            "textDelegate", \.uikit.textDelegate, \.uikit.textDelegate, on: textInputs,
            read: { (v, bad) throws(RPCError) in
                var r = try ParamReader(v, path: bad.field + ".", errorName: .invalidNode)
                var d = TextDelegate()
                for (name, keyPath) in TextDelegate.members {
                    if let answer = try r.bool(name) { d[keyPath: keyPath] = answer }
                }
                try r.finish()
                return d
            },
            write: { v, w in
                guard let d = v else { return w.null() }
                w.beginObject()
                for (name, keyPath) in TextDelegate.members {
                    w.key(name)
                    w.bool(d[keyPath: keyPath])
                }
                w.endObject()
            }, written: { $0.uikit.textDelegate != nil })
    ]
}
