import ResponderJSON
import ResponderProtocol

extension JSON {
    /// The element at `index` of an array.
    subscript(index: Int) -> JSON? {
        guard let items = arrayValue, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
