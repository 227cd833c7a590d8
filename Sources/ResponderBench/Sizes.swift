/// How much the suite measures: the full run (the README's table) or the quick smoke run of CI.
struct Sizes {
    var rounds: Int
    var perRound: Int
    var pipelined: Int
    var scale: [Int]
    var chain: Int
    var subscribers: Int
    var fanoutSeconds: Double
    var mutationSeconds: Double
    var cdp: Int
    var drawRuns: Int

    static let full = Sizes(
        rounds: 7, perRound: 1000, pipelined: 20_000, scale: [10_000, 100_000, 1_000_000], chain: 100_000,
        subscribers: 32, fanoutSeconds: 2, mutationSeconds: 1, cdp: 2000, drawRuns: 7)
    static let quick = Sizes(
        rounds: 2, perRound: 100, pipelined: 2000, scale: [1_000, 10_000], chain: 1_000,
        subscribers: 4, fanoutSeconds: 0.3, mutationSeconds: 0.2, cdp: 100, drawRuns: 2)
}
