import ResponderJSON
import Testing

@testable import ResponderProtocol

/// The shortcuts in reading and writing nodes give what the general paths give.
@Suite struct NodeOutputTests {
    @Test(arguments: NodeKind.allCases)
    func defaultClassIsTheOneItsNameNames(_ kind: NodeKind) {
        #expect(kind.defaultUIKitClass == UIKitClass(rawValue: kind.defaultClassName))
        #expect(NodeSpec(id: "n", kind: kind).uikitClass == UIKitClass(rawValue: kind.defaultClassName))
    }

    /// A plain node (nothing out of line) is written from the per-kind plan; the same node with an out-of-line
    /// box holding only defaults takes the general path, field by field. Their bytes must be the same.
    @Test(arguments: NodeKind.allCases)
    func plainNodesWriteWhatTheGeneralPathWrites(_ kind: NodeKind) {
        var variants: [NodeSpec] = [NodeSpec(id: "n", kind: kind)]
        var changed = NodeSpec(id: "n", kind: kind)
        changed.frame = Rect(1, 2.5, 30, 40)
        changed.boundsOrigin = Point(0, 7)
        changed.hidden = true
        changed.alpha = 0.25
        changed.clipsToBounds = true
        changed.interactionSetting = false
        changed.multipleTouchEnabled = true
        changed.enabled = false
        changed.windowLevel = 2
        changed.key = true
        changed.canBecomeFirstResponder.toggle()
        changed.receivesRemoteControlEvents = true
        variants.append(changed)
        for plain in variants {
            #expect(plain.outOfLineFieldsUnset)
            var boxed = plain
            boxed.handles = [:]  // a box, holding defaults only
            #expect(!boxed.outOfLineFieldsUnset)
            #expect(boxed == plain)
            #expect(written(plain) == written(boxed))
        }
    }

    /// A node with out-of-line fields set writes them (the plan is only for plain nodes).
    @Test func outOfLineFieldsAreWritten() {
        var node = NodeSpec(id: "n", kind: .view)
        node.handles = ["touchesBegan": .handle]
        node.transform = AffineTransform(2, 0, 0, 2, 0, 0)
        let text = String(decoding: written(node), as: UTF8.self)
        #expect(text.contains(#""handles":{"touchesBegan":"handle"}"#))
        #expect(text.contains(#""transform":[2,0,0,2,0,0]"#))
        #expect(!text.contains(#""transform":null"#))
    }

    private func written(_ node: NodeSpec) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        NodeField.writeMembers(of: node, to: &w)
        w.endObject()
        return w.takeBytes()
    }
}

/// A plain frame is set without its field's reader; what it sets, and what it leaves to the reader,
/// must agree with the reader.
@Suite struct PlainFrameTests {
    @Test(arguments: [[1, 2, 3, 4], [0, 0, 0, 0], [-5.5, 1e6, 0.25, 10]] as [JSON])
    func aPlainFrameIsWhatTheFieldReads(_ frame: JSON) throws {
        let direct = try #require(NodeTree.plainFrame(frame))
        var node = NodeSpec(id: "v", kind: .view)
        try NodeField.named("frame")!.read(frame, into: &node, path: "")
        #expect(direct == node.frame)
    }

    @Test(arguments: [[1, 2, 3], [1, 2, -3, 4], [1, 2, 3, -0.5], ["1", 2, 3, 4], [1, 2, 3, 4, 5], "frame"] as [JSON])
    func anythingElseIsLeftToTheField(_ frame: JSON) {
        #expect(NodeTree.plainFrame(frame) == nil)
        var node = NodeSpec(id: "v", kind: .view)
        #expect(throws: RPCError.self) { try NodeField.named("frame")!.read(frame, into: &node, path: "") }
    }

    /// `null` (the default frame) is the field's to read too.
    @Test func nullIsLeftToTheField() throws {
        #expect(NodeTree.plainFrame(.null) == nil)
        var node = NodeSpec(id: "v", kind: .view)
        node.frame = Rect(1, 2, 3, 4)
        try NodeField.named("frame")!.read(.null, into: &node, path: "")
        #expect(node.frame == .zero)
    }
}
