// The shared method definitions: what a client encodes, the server decodes to the same value (by name and
// by position), and a result the server encodes, a client decodes to the same value. A definition whose
// two halves disagree fails here, before any socket is involved.

import QueueRPC
import Testing

@Suite struct APIDefinitionTests {
    /// `params` → the client's JSON → the server's reading, by name and by position: the same value back.
    private func roundTrip<Params: RPCMethodParams & Equatable>(_ params: Params) throws {
        let sent = params.json
        let byName = try Params(reading: try ParamReader(sent.flatMap(RPCParams.init(json:)), order: Params.order))
        #expect(byName == params, "by name: \(sent.map(JSON.string) ?? "none")")
        // The same values by position, in the document's order up to the last one sent. A name left out
        // before that cannot be sent by position (a null there means null: queue.update clears the field).
        let names = Params.order
        let lastSent = names.lastIndex { sent?[$0] != nil } ?? -1
        let positional = names.prefix(lastSent + 1).map { sent?[$0] }
        guard !positional.contains(where: { $0 == nil }) else { return }
        let elements = positional.compactMap { $0 }
        let byPosition = try Params(reading: try ParamReader(.byPosition(elements), order: Params.order))
        #expect(byPosition == params, "by position: \(JSON.string(.array(elements)))")
    }

    private func roundTrip<Result: RPCMethodResult & Equatable>(result: Result) {
        #expect(Result(json: result.json) == result, "\(JSON.string(result.json))")
    }

    @Test func queueParamsSurviveTheWire() throws {
        let items = [
            RPCItemInput(uri: "/a.mp4"),
            RPCItemInput(
                uri: "/b.flac", title: "B", loops: 0, start: 1.5, end: 9, duration: 12, trackEnd: .longest),
        ]
        try roundTrip(API.QueueAdd.Params(items: items))
        try roundTrip(API.QueueInsert.Params(items: items, place: .index(3)))
        try roundTrip(API.QueueInsert.Params(items: items, place: .after(7)))
        try roundTrip(API.QueueRemove.Params(ids: [1, 2, 3]))
        try roundTrip(API.QueueMove.Params(id: 4, index: 0))
        try roundTrip(API.QueueUpdate.Params(id: 4))
        try roundTrip(
            API.QueueUpdate.Params(id: 4, loops: 2, start: .set(1), end: .clear, title: .set("T"), trackEnd: .clear))
        try roundTrip(API.QueueUpdate.Params(id: 4, title: .clear, trackEnd: .set(.shortest)))
        try roundTrip(API.QueueSetLoops.Params(loops: 0))
        try roundTrip(API.QueueList.Params(offset: 10, limit: 20))
        try roundTrip(API.QueueGet.Params(ids: [5]))
    }

    @Test func playerAndSessionParamsSurviveTheWire() throws {
        try roundTrip(API.PlayerPlay.Params())
        try roundTrip(API.PlayerPlay.Params(id: 9))
        try roundTrip(API.PlayerSeek.Params(position: -2.5, relative: true))
        try roundTrip(API.PlayerSeek.Params(position: 30))
        try roundTrip(API.PlayerSet.Params(volume: 40, muted: true, rate: 1.5, fit: .fill, fullscreen: false))
        try roundTrip(API.PlayerSet.Params(rate: 0.5))
        try roundTrip(API.EventsSubscribe.Params())
        try roundTrip(API.EventsSubscribe.Params(events: [.itemStarted, .itemEnded], progressInterval: 0.25))
        try roundTrip(API.EventsUnsubscribe.Params(events: [.progress]))
        try roundTrip(NoParams())
    }

    @Test func resultsSurviveTheWire() {
        let item = RPCQueueItem(
            id: 3, uri: "/a.mp4", title: "A", loops: 0, plays: 2, duration: 4.5, state: "failed", error: "bad",
            start: 1, end: 3, trackEnd: "auto")
        roundTrip(result: API.IdsResult(ids: [1, 2]))
        roundTrip(result: API.QueueRemove.Result(removed: []))
        roundTrip(result: API.VersionResult(version: 12))
        roundTrip(result: API.QueueUpdate.Result(item: item))
        roundTrip(result: API.QueueSetLoops.Result(loops: 0, version: 3))
        roundTrip(
            result: API.QueueList.Result(
                items: [item, RPCQueueItem(id: 4, uri: "/b")], total: 9, version: 2, currentId: 3))
        roundTrip(result: API.QueueList.Result(items: [], total: 0, version: 0, currentId: nil))
        roundTrip(result: API.QueueGet.Result(items: [item]))
        roundTrip(
            result: RPCStatus(
                state: "playing", currentId: 3, position: 1.25, duration: 4, play: 2, title: "A", uri: "/a", loops: 0))
        roundTrip(result: API.PlayerScreenshot.Result(png: "iVBORw0KGgo="))
        roundTrip(result: API.EventsSubscribe.Result(events: ["status"], progressInterval: 0.5))
        roundTrip(result: API.EventsUnsubscribe.Result(events: []))
        roundTrip(
            result: API.DaemonInfo.Result(
                version: "0.3", pid: 42, socket: "/s", audio: "pulse", video: "none", uptime: 1))
    }

    /// The server's side of each definition rejects what the document forbids, with ParamReader's wording.
    @Test func strictDecodingNamesTheParam() throws {
        func error<Params: RPCMethodParams>(_ type: Params.Type, _ text: String) -> RPCError? {
            paramsError(type, text)
        }
        #expect(error(API.QueueAdd.Params.self, #"{"items": []}"#)?.message.contains("must not be empty") == true)
        #expect(
            error(API.QueueAdd.Params.self, #"{"items": [{"uri": "/a", "loops": -1}]}"#)?.data?["param"]
                == "items[0].loops")
        #expect(error(API.QueueInsert.Params.self, #"{"items": ["/a"]}"#)?.data?["param"] == "index")
        #expect(error(API.PlayerSet.Params.self, #"{}"#)?.message.contains("give at least one of") == true)
        #expect(error(API.PlayerSet.Params.self, #"{"rate": 3}"#)?.data?["param"] == "rate")
        #expect(error(API.EventsSubscribe.Params.self, #"{"events": ["nope"]}"#)?.data?["param"] == "events")
        #expect(
            error(API.QueueUpdate.Params.self, #"{"id": 1, "trackEnd": "sometimes"}"#)?.data?["param"] == "trackEnd")
        #expect(error(API.QueueList.Params.self, #"{"limit": 10001}"#)?.data?["param"] == "limit")
    }
}

extension APIDefinitionTests {
    /// An overlay offset as sent and as queuectl reads and shows it: a number of pixels, "12px", or "5%".
    @Test func overlayOffsetsReadAndShow() throws {
        #expect(try RPCLength(json: "5%", param: "x") == .percent(5))
        #expect(try RPCLength(json: "12px", param: "x") == .pixels(12))
        #expect(try RPCLength(json: -3, param: "x") == .pixels(-3))
        #expect(throws: RPCError.self) { try RPCLength(json: "five", param: "x") }
        #expect(RPCLength.percent(2.5).text == "2.5%")
        #expect(RPCLength.pixels(10).text == "10")
    }
}

extension APIDefinitionTests {
    /// Overlay fields are read by ParamReader like every other param: the same reason for the same mistake.
    @Test func overlayFieldsAreRefusedInTheAPIsOneWording() throws {
        func reason<Params: RPCMethodParams>(_ type: Params.Type, _ text: String) -> String? {
            paramsError(type, text)?.data?["reason"]?.stringValue
        }
        let add = API.OverlayAdd.Params.self
        #expect(reason(add, #"{"type": "text", "text": "x", "size": 0}"#) == "must be between 1 and 1000")
        #expect(reason(add, #"{"type": "text", "text": "x", "size": "big"}"#) == "must be an integer")
        #expect(reason(add, #"{"type": "text", "text": "x", "item": 0}"#) == "must be >= 1")
        #expect(reason(add, #"{"type": "text", "text": "x", "visible": "yes"}"#) == "must be a boolean")
        #expect(reason(add, #"{"type": "text", "text": "x", "opacity": 1.5}"#) == "must be between 0 and 1")
        #expect(reason(add, #"{"type": "text", "text": "x", "anchor": "middle"}"#)?.hasPrefix("must be one of") == true)
        #expect(reason(add, ##"{"type": "text", "text": "x", "colour": "#fff"}"##) == "unknown parameter")
        #expect(reason(API.OverlayUpdate.Params.self, #"{"id": 1, "type": "clock"}"#) == "unknown parameter")
        #expect(reason(add, #"["text", "x"]"#) == nil, "positional params name the fields in order")

        // An overlay.list entry reads back, nulls (no box, every item) included.
        let entry = try JSON.parse(
            #"{"id": 4, "type": "text", "text": "Lobby", "background": null, "item": null, "x": "5%"}"#)
        let overlay = try #require(RPCOverlay(json: entry))
        #expect(overlay.id == 4 && overlay.type == .text && overlay.text == "Lobby" && overlay.x == .percent(5))
        #expect(overlay.background == .some(nil) && overlay.item == .some(nil))
        #expect(RPCOverlay(json: try JSON.parse(#"{"type": "text", "shade": 1}"#)) == nil)
    }
}

/// The error reading `text` as `Params` gives (nil when it reads).
private func paramsError<Params: RPCMethodParams>(_ type: Params.Type, _ text: String) -> RPCError? {
    do {
        _ = try Params(reading: try ParamReader(RPCParams(json: try JSON.parse(text)), order: Params.order))
        return nil
    } catch let error as RPCError {
        return error
    } catch {
        return .internalError("\(error)")
    }
}
