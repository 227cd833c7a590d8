import Foundation

/// The process's open-file limit (RLIMIT_NOFILE), raised at start to what `--max-clients` needs.
enum FileLimit {
    /// Descriptors besides the clients' connections (listeners, libzmq's own, logs, state files) plus room for
    /// connections accepted beyond the cap in a burst, before the gate has shut them down.
    static let margin = 1024

    /// Raises the soft limit towards `2 × maxClients + margin` (two sockets, each capped), within the hard
    /// limit. Returns the cap that fits what was obtained (lower than asked when the hard limit is too low) and
    /// the soft limit now in force.
    static func raise(for maxClients: Int) -> (maxClients: Int, limit: Int) {
        var rl = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &rl) == 0 else { return (maxClients, -1) }
        let wanted = rlim_t(2 * maxClients + margin)
        if rl.rlim_cur < wanted {
            var raised = rl
            raised.rlim_cur = min(wanted, rl.rlim_max)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { rl = raised }
        }
        let limit = rl.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(rl.rlim_cur)
        return (min(maxClients, fitting(limit)), limit)
    }

    /// Clients per socket that `limit` descriptors hold. Under a low hard limit (1024 is common) the full margin
    /// would leave nothing for clients: the margin shrinks to a quarter of the limit, never under 64.
    static func fitting(_ limit: Int) -> Int {
        let reserve = limit == Int.max ? margin : max(64, min(margin, limit / 4))
        return max(1, (limit - reserve) / 2)
    }
}
