import ResponderLocal
import ResponderProtocol

/// Sessions created with an `owner` token (Protocol/README.md 7.1): reading, subscribing and dispatching stay
/// open to every peer the engine admitted; changing the tree (`tree.load`, `tree.apply`, `window.makeKey`) and
/// `session.delete` need the token. A dry run changes nothing and needs none.
enum SessionOwnership {
    static func validate(_ owner: String?) throws(RPCError) {
        guard let owner else { return }
        guard (16...256).contains(owner.utf8.count) else {
            throw RPCError(
                .invalidParams, "owner: a token of 16…256 bytes (make it secret and random)", [("field", "owner")])
        }
    }

    static func check<R: SessionRequest>(_ request: R, _ host: SessionHost) throws(RPCError) {
        guard let token = host.ownerToken, let gated = request as? any OwnerGated else { return }
        if let dry = request as? any DryRunnable, dry.isDryRun { return }
        guard let given = gated.owner, Secrets.equal(token, given) else {
            throw RPCError(
                .sessionOwned,
                "session \"\(host.name)\" has an owner: \(R.method) needs its owner token"
                    + (gated.owner == nil ? "" : " (the one given is not it)"),
                [("session", .string(host.name)), ("field", "owner")])
        }
    }
}
