// state.apply and session.confine, carried out. state.apply checks every part of the wanted state first — the
// items expanded (playlists and directories, under the connection's confinement), each overlay built as
// overlay.add builds it (its image found) — and only then changes anything: the queue and rev, the settings,
// the overlays swapped as one set. A refused state leaves queue, settings, overlays and appliedRev as they were.

import MediaPaths
import Overlays
import Playback
import QueueModel
import ScreenLayout
import QueueRPC

extension Dispatcher {
    static func stateMethods(_ engine: PlayerEngine, zones: (any ZoneEngines)?) -> [RPCMethod] {
        [
            .answering(API.StateApply.self, .change) { params, session in
                // Checked, all of it, before any change.
                let items = params.items.isEmpty ? [] : try ItemInputs.mediaItems(params.items, confinement: session.confinement)
                var layers: [Overlay]?
                if let overlays = params.overlays {
                    layers = []
                    for (index, fields) in overlays.enumerated() {
                        do {
                            try confineImage(fields, session.confinement)
                            layers?.append(try OverlayInput.overlay(from: fields))
                        } catch let error as RPCError where error.code == RPCError.Code.invalidParams {
                            let param = error.data?["param"]?.stringValue.map { "overlays[\(index)].\($0)" } ?? "overlays[\(index)]"
                            throw RPCError.invalidParams(param: param, reason: error.data?["reason"]?.stringValue ?? error.message)
                        }
                    }
                }
                // The zones: the layout as it would be applied, every zone's items expanded, each zone named.
                var layout: Layout?
                if let wire = params.layout {
                    guard let zones else { throw RPCError.badState("this daemon has no zones") }
                    do {
                        layout = try zones.check(try LayoutWire.layout(wire))
                    } catch let error as LayoutError {
                        throw RPCError.invalidParams(param: "layout", reason: error.message)
                    }
                }
                var zoneQueues: [(String, [MediaItem], Int64?)] = []
                for (name, queue) in (params.zones ?? [:]).sorted(by: { $0.key < $1.key }) {
                    let target = layout ?? zones?.layout() ?? .fullScreen
                    guard name != Layout.mainZone, target.zone(named: name) != nil else {
                        throw RPCError.invalidParams(
                            param: "zones.\(name.prefix(40))",
                            reason: name == Layout.mainZone ? "main's queue is `items`" : "no such zone in the layout")
                    }
                    let items = queue.items.isEmpty ? [] : try ItemInputs.mediaItems(queue.items, confinement: session.confinement)
                    zoneQueues.append((name, items, queue.loops))
                }
                // Then carried out: none of these can fail on a value already checked.
                if let layout, let zones, layout != zones.layout() { _ = try zones.setLayout(layout, at: .now) }
                for (name, items, loops) in zoneQueues {
                    guard let zoneEngine = zones?.engine(forZone: name) else { continue }
                    _ = try zoneEngine.replace(with: items, loops: loops.map { Int($0) }, rev: nil, at: params.at == .itemEnd ? .itemEnd : .now)
                    // Answered once that zone's journal has kept it too.
                    if let keeper = zones?.keeper(forZone: name) { session.zoneKeeps.append((keeper, keeper.lastRecorded)) }
                }
                let replaced = try engine.replace(
                    with: items, loops: params.loops.map { Int($0) }, rev: params.rev,
                    at: params.at == .itemEnd ? .itemEnd : .now)
                if let settings = params.settings { try applySettings(settings, to: engine) }
                if let layers { _ = try engine.replaceOverlays(with: layers) }
                return .init(ids: Wire.ids(replaced.ids), version: Int64(replaced.version))
            },
            .answering(API.SessionConfine.self, .query) { params, session in
                guard session.confinement == nil else {
                    throw RPCError.badState("this connection is confined already; a confinement is never changed")
                }
                let confinement = FolderConfinement(folders: params.folders, network: params.network)
                session.confinement = confinement
                return .init(folders: confinement.folders, network: confinement.network)
            },
        ]
    }
}
