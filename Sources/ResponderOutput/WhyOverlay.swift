import ResponderClient
import ResponderPicture
import ResponderProtocol

extension OverlayReplies {
    /// `whyNot` about `view` (a tap anywhere on it), with the area where a tap is its own: the highlight, and
    /// its words as `responder why` prints them. `name` writes the view as the answers do.
    package static func why(_ connection: ResponderConnection, session: String, view: String, name: String)
        throws(ClientError) -> Overlay
    {
        let answer = try connection.send(WhyNotRequest(session: session, view: view, area: true))
        return why(answer, view: view, name: name)
    }

    package static func why(_ answer: WhyNotAnswer, view: String, name: String) -> Overlay {
        Overlay(
            title: "whyNot \(name)",
            why: WhyHighlight(view: view, answer: answer, lines: WhyNotText.lines(answer, view: name)))
    }
}
