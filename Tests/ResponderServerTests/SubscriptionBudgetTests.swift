import Testing

@testable import ResponderServer

@Suite("Subscriptions counted per connection and in total, and the connection to cut")
struct SubscriptionBudgetTests {
    let bounds = SubscriptionBudget.Bounds(
        topicBytes: 8, perConnection: 3, bytesPerConnection: 20, total: 5, bytesTotal: 1000)

    func topic(_ i: Int) -> [UInt8] { Array("t\(i)".utf8) }

    @Test("a connection past its count is cut once; the same prefix twice is one subscription")
    func perConnection() {
        var budget = SubscriptionBudget(bounds)
        for i in 0..<3 { #expect(budget.subscribe(topic(i), connection: 1) == nil) }
        #expect(budget.subscribe(topic(0), connection: 1) == nil)
        #expect(budget.subscribe(topic(3), connection: 1)?.contains("--max-subscriptions 3") == true)
        #expect(budget.subscribe(topic(4), connection: 1) == nil)
        #expect(budget.count == 5)
    }

    @Test("a long topic and the bytes of a connection are bounds of their own")
    func bytes() {
        var budget = SubscriptionBudget(bounds)
        #expect(
            budget.subscribe(Array("123456789".utf8), connection: 1)?.contains("--max-subscription-bytes 8") == true)
        #expect(budget.subscribe(Array("12345678".utf8), connection: 2) == nil)
        #expect(budget.subscribe(Array("abcdefgh".utf8), connection: 2) == nil)
        #expect(budget.subscribe(Array("ABCDEFGH".utf8), connection: 2)?.contains("--subscription-bytes 20") == true)
    }

    @Test("the connection that takes the socket past its total is the one cut")
    func total() {
        var budget = SubscriptionBudget(bounds)
        for i in 0..<3 { #expect(budget.subscribe(topic(i), connection: 1) == nil) }
        #expect(budget.subscribe(topic(10), connection: 2) == nil)
        #expect(budget.subscribe(topic(11), connection: 2) == nil)
        #expect(budget.subscribe(topic(12), connection: 2)?.contains("--max-subscriptions-total 5") == true)
    }

    @Test("a departed connection's unsubscriptions, which name no connection, are taken from a cut one first")
    func departed() {
        var budget = SubscriptionBudget(bounds)
        #expect(budget.subscribe(topic(0), connection: 1) == nil)
        for i in 0..<4 { _ = budget.subscribe(topic(i), connection: 2) }
        for i in 0..<4 { budget.unsubscribe(topic(i), connection: nil) }
        #expect(budget.count == 1 && budget.matches(Array("t0/tree".utf8)))
        // Connection 1 still holds t0: its own unsubscription removes it; one for a prefix it lacks changes nothing.
        budget.unsubscribe(topic(5), connection: 1)
        budget.unsubscribe(topic(0), connection: 1)
        #expect(budget.count == 0 && budget.bytes == 0 && !budget.matches(Array("t0/tree".utf8)))
        // Connection 2 is gone: a new connection with its bounds all its own.
        for i in 0..<3 { #expect(budget.subscribe(topic(i), connection: 3) == nil) }
    }
}
