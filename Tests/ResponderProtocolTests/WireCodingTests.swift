import ResponderJSON
import ResponderProtocol
import Testing

/// The typed request and reply layer: strict where the engine reads, lenient where a client reads.
@Suite("Wire decoding and encoding of the method types")
struct WireCodingTests {
    func decodeError<T: Decodable>(_ type: T.Type, _ params: JSON) -> RPCError? {
        do {
            _ = try WireDecoder.decode(type, from: params)
            return nil
        } catch {
            return error
        }
    }

    @Test("an unknown member is named by its path, at the top and inside arrays")
    func unknownMembers() {
        #expect(decodeError(HitTestRequest.self, ["point": [1, 2], "pointt": 1])?.detail("field") == "pointt")
        let touch: JSON = ["touches": [["touch": "t", "phase": "began", "point": [1, 1], "force": 1]]]
        #expect(decodeError(TouchRequest.self, touch)?.detail("field") == "touches[0].force")
        #expect(decodeError(EngineInfoRequest.self, ["verbose": true])?.detail("field") == "verbose")
        #expect(decodeError(EngineInfoRequest.self, [:]) == nil)
    }

    @Test("wrong types, missing members and bad enum values name the field; null is absent for optionals")
    func typesAndRequired() throws {
        #expect(
            decodeError(TouchRequest.self, ["touches": [["touch": "t", "phase": 7]]])?.detail("field")
                == "touches[0].phase")
        #expect(
            decodeError(TouchRequest.self, ["touches": [["touch": "t", "phase": "hover"]]])?.message.contains(
                "expected one of began") == true)
        #expect(decodeError(ResponderChainRequest.self, [:])?.detail("field") == "id")
        #expect(decodeError(ResponderChainRequest.self, ["id": .null])?.detail("field") == "id")
        #expect(decodeError(HitTestRequest.self, ["point": [1]])?.detail("field") == "point")
        #expect(decodeError(TapRequest.self, ["point": [1, 1], "tapCount": 0])?.detail("field") == "tapCount")
        #expect(
            decodeError(TouchRequest.self, ["touches": [["touch": "", "phase": "began"]]])?.detail("field")
                == "touches[0].touch")
        let r = try WireDecoder.decode(
            SendActionRequest.self, from: ["action": "copy:", "target": .null, "session": "s"])
        #expect(r.target == nil && r.sessionName == "s")
        #expect(try WireDecoder.decode(SendActionRequest.self, from: ["action": "copy:"]).sessionName == "default")
    }

    @Test("touch and press ids keep their type: 1 and \"1\" differ")
    func eventIDs() throws {
        let r = try WireDecoder.decode(
            TouchRequest.self,
            from: [
                "touches": [
                    ["touch": 1, "phase": "began", "point": [0, 0]], ["touch": "1", "phase": "began", "point": [0, 0]]
                ]
            ])
        #expect(r.touches.map(\.touch) == [.integer(1), .string("1")])
        #expect(WireEncoder.encode(r)["touches"]?.arrayValue?.map { $0["touch"] } == [1, "1"])
    }

    @Test(
        "nil optionals are written as null, @OmitNil ones are left out; outcomes come first, then the trace repeating them"
    )
    func encodingShapes() {
        let outcome = ActionOutcome(performed: true, by: "V", visited: ["V"], reason: nil)
        let traced = Traced(
            outcome,
            trace: Trace(
                kind: .action,
                steps: [
                    .action(action: "copy:", target: nil, sender: nil, performed: true, by: "V", rule: .a4, reason: nil)
                ]))
        let json = WireEncoder.encode(traced)
        #expect(json["reason"] == nil)
        #expect(json["trace"]?["outcome"] == ["performed": true, "by": "V", "visited": ["V"]])
        #expect(
            json["trace"]?["steps"] == [
                [
                    "step": "action", "action": "copy:", "target": .null, "sender": .null, "performed": true, "by": "V",
                    "rule": "A4"
                ]
            ])
        let miss = HitVisit(id: "A", point: nil, result: .miss, reason: .singularTransform, rule: .h4)
        #expect(
            WireEncoder.encode(miss) == [
                "id": "A", "result": "miss", "reason": "singular-transform", "rule": "H4", "point": .null
            ])
    }

    @Test("a reply read back gives the same typed value; replies are read leniently")
    func roundTripAndLenience() throws {
        let step = TraceStep.deliver(
            to: "V", message: "touchesBegan", disposition: .handledAndSuper, rule: .t2, reason: nil, tag: .touch(7))
        let traced = Traced(TouchOutcome(deliveries: []), trace: Trace(kind: .touch, steps: [step]))
        var json = WireEncoder.encode(traced)
        #expect(try WireDecoder.decode(Traced<TouchOutcome>.self, from: json, strict: false) == traced)
        json = json.setting("newMember", 1)
        #expect(try WireDecoder.decode(Traced<TouchOutcome>.self, from: json, strict: false) == traced)
        // A newer engine's profile switch does not break a client reading a snapshot or session.create.
        let profile = Profile.uikit.wire.setting("futureSwitch", "on")
        #expect(try WireDecoder.decode(Profile.self, from: profile, strict: false) == .uikit)
        #expect((try? WireDecoder.decode(Profile.self, from: profile)) == nil)
    }

    @Test("every method type has a distinct method name")
    func registry() {
        #expect(Set(MethodRegistry.names).count == MethodRegistry.all.count)
        #expect(MethodRegistry.names.contains("event.touch"))
    }
}
