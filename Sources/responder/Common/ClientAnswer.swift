import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

extension Client {
    /// Sends `request` and returns its typed result, shown as `send(_:text:)` shows it, for a command whose exit
    /// status or next request depends on the answer: with --json the reply is printed exactly as it came and
    /// read leniently for the caller.
    func answer<R: RequestType>(_ request: R, text: (R.Response) throws -> Void) throws -> R.Response {
        guard options.json else {
            let response = try connection.send(request)
            try text(response)
            return response
        }
        let reply = try connection.call(R.method, ResponderConnection.params(of: request))
        Output.printJSON(reply)
        return try WireDecoder.decode(R.Response.self, from: reply, strict: false)
    }
}
