import ResponderProtocol

/// A problem on the CLI's side (an unreadable file, a malformed argument), reported as `error: …`.
package struct CLIError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
