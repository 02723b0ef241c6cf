// An item's transition on the wire and as text: what each form accepts, what it refuses (with the place
// named), and that a value survives both round trips.

import QueueRPC
import Testing

@Suite struct RPCTransitionTests {
    @Test func theTextFormReadsWhatItWrites() {
        #expect(RPCTransition(text: "fade:1.5") == RPCTransition(type: "fade", duration: 1.5))
        #expect(RPCTransition(text: "fade") == RPCTransition(type: "fade"))
        #expect(RPCTransition(text: "dip:0.8:#FF8800") == RPCTransition(type: "dip", duration: 0.8, color: "#ff8800"))
        #expect(RPCTransition(text: "cut") == RPCTransition(type: "cut"))
        for bad in ["cut:1", "wipe", "fade:x", "dip:1:#12", "fade:1:#ffffff", ""] {
            #expect(RPCTransition(text: bad) == nil, "\(bad)")
        }
        for text in ["cut", "fade:2", "fade:0.5", "dip:1:#0a0b0c"] {
            #expect(RPCTransition(text: text)?.text == text)
        }
        #expect(RPCTransition(text: "fade:6")?.isValid == false && RPCTransition(text: "fade:5")?.isValid == true)
    }

    @Test func theWireFormIsCheckedFieldByField() throws {
        let dip = RPCTransition(type: "dip", duration: 1, color: "#ffffff")
        #expect(try RPCTransition(json: dip.json, name: "t") == dip)
        func refusal(_ json: JSONValue) -> String? {
            do {
                _ = try RPCTransition(json: json, name: "items[0].transition")
                return nil
            } catch {
                return error.data?["param"]?.stringValue
            }
        }
        #expect(refusal(["type": "wipe"]) == "items[0].transition.type")
        #expect(refusal(["type": "fade", "duration": 9]) == "items[0].transition.duration")
        #expect(refusal(["type": "fade", "color": "#ffffff"]) == "items[0].transition.color")
        #expect(refusal(["type": "fade", "speed": 1]) == "items[0].transition.speed")
        #expect(refusal("fade") == "items[0].transition")
        let input = try RPCItemInput(
            json: ["uri": "/a.png", "transition": ["type": "fade", "duration": 2]], name: "items[0]")
        #expect(input.transition == RPCTransition(type: "fade", duration: 2))
        #expect(try RPCItemInput(json: input.json, name: "items[0]") == input)
    }

    @Test func motionIsAutoOrTwoFramesOnTheWireAndAsText() throws {
        let glide = RPCMotion(
            from: .init(x: 0, y: 0, width: 1, height: 1), to: .init(x: 0.25, y: 0.2, width: 0.5, height: 0.5))
        #expect(try RPCMotion(json: glide.json, name: "m") == glide)
        #expect(try RPCMotion(json: "auto", name: "m") == .auto && RPCMotion.auto.json == "auto")
        #expect(RPCMotion(text: "0,0,1,1>0.25,0.2,0.5,0.5") == glide && glide.text == "0,0,1,1>0.25,0.2,0.5,0.5")
        #expect(RPCMotion(text: "auto") == .auto)
        for bad in ["", "0,0,1>0,0,1,1", "0,0,1,1", "0,0,2,1>0,0,1,1", "a,b,c,d>0,0,1,1"] {
            #expect(RPCMotion(text: bad) == nil, "\(bad)")
        }
        func refusal(_ json: JSONValue) -> String? {
            do {
                _ = try RPCMotion(json: json, name: "items[0].motion")
                return nil
            } catch {
                return error.data?["param"]?.stringValue
            }
        }
        let frame: JSONValue = ["x": 0, "y": 0, "width": 1, "height": 1]
        #expect(refusal("zoom") == "items[0].motion")
        #expect(refusal(["from": frame]) == "items[0].motion.to")
        #expect(refusal(["from": frame, "to": ["x": 0, "y": 0, "width": 1.5, "height": 1]]) == "items[0].motion.to.width")
        #expect(refusal(["from": frame, "to": frame, "speed": 1]) == "items[0].motion.speed")
    }
}
