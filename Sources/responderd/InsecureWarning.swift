import Foundation

/// `--insecure-tcp`: said loudly on standard error, whatever the log level.
enum InsecureWarning {
    static func print(rpc: String, events: String) {
        let plain = [rpc, events].filter { $0.hasPrefix("tcp://") }
        guard !plain.isEmpty else { return }
        let text = """
            ************************************************************************************************
            responderd: WARNING: --insecure-tcp: plain tcp without CURVE on \(plain.joined(separator: ", ")).
            responderd: WARNING: any process on this machine, of any user, can connect, read every session
            responderd: WARNING: and change it; the traffic is not encrypted. Use it for local experiments only.
            ************************************************************************************************

            """
        FileHandle.standardError.write(Data(text.utf8))
    }
}
