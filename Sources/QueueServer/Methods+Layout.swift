// layout.set and layout.get: the wire's zones turned into ScreenLayout's and back. The daemon (ZoneEngines)
// checks the layout whole and applies it; a refusal is invalid params naming the zones at fault.

import QueueRPC
import ScreenLayout

extension Dispatcher {
    static func layoutMethods(_ zones: (any ZoneEngines)?) -> [RPCMethod] {
        [
            .answering(API.LayoutSet.self, .change) { params, _ in
                guard let zones else { throw RPCError.badState("this daemon has no zones (it runs without a video output)") }
                let moment: LayoutMoment = params.at == .itemEnd ? .itemEnd : .now
                let plan = try params.layouts.map(LayoutWire.plan)
                let layout = plan == nil ? try LayoutWire.layout(params.zones) : nil
                let outcome: Result<(inForce: Layout, pending: Bool), LayoutError> = Result { () throws(LayoutError) in
                    if let plan { return try zones.setPlan(plan, at: moment) }
                    return try zones.setLayout(layout ?? .fullScreen, at: moment)
                }
                switch outcome {
                case .success(let (inForce, pending)): return .init(zones: LayoutWire.zones(inForce), pending: pending)
                case .failure(let error): throw RPCError.invalidParams(param: plan == nil ? "zones" : "layouts", reason: error.message)
                }
            },
            .answering(API.LayoutGet.self, .query) { _, _ in
                let size = zones?.outputSize()
                let inForce = zones?.layout() ?? .fullScreen
                return .init(
                    zones: LayoutWire.zones(inForce), width: size.map { Int64($0.width) },
                    height: size.map { Int64($0.height) }, layouts: zones?.plan().map(LayoutWire.layouts),
                    active: zones?.plan() == nil ? nil : inForce.name)
            },
        ]
    }
}

/// Zones between the wire and ScreenLayout.
public enum LayoutWire {
    /// The layout the wire's zones describe, with the defaults filled in (checked later, whole).
    public static func layout(_ wire: [RPCZone]) throws(RPCError) -> Layout {
        var zones: [Zone] = []
        for (index, zone) in wire.enumerated() {
            var made = Zone(name: zone.name, rect: zone.rect.map(rect))
            if let z = zone.z { made.z = Int(clamping: z) }
            if let fit = zone.fit { made.fit = ZoneFit(rawValue: fit.rawValue) ?? .fit }
            if let rotate = zone.rotate { made.rotate = Int(clamping: rotate) }
            if let background = zone.background {
                guard let colour = colour(background) else {
                    throw .invalidParams(param: "zones[\(index)].background", reason: "must be a colour \"#rrggbb\"")
                }
                made.background = colour
            }
            made.audio = zone.audio ?? false
            if let content = zone.content { made.content = ZoneContent(rawValue: content.rawValue) ?? .video }
            if let duck = zone.duck { made.duck = duck }
            if let duckRamp = zone.duckRamp { made.duckRamp = duckRamp }
            zones.append(made)
        }
        // Without a zone that says so, main has the sound.
        if !zones.contains(where: { $0.audio }), let main = zones.firstIndex(where: { $0.name == Layout.mainZone }) {
            zones[main].audio = true
        }
        return Layout(zones: zones)
    }

    /// Layouts by daypart as sent: each layout's zones and its schedule (checked as items' are).
    public static func plan(_ wire: [RPCLayout]) throws(RPCError) -> LayoutPlan {
        var layouts: [Layout] = []
        for (index, entry) in wire.enumerated() {
            var layout = try Self.layout(entry.zones)
            layout.name = entry.name ?? "layout \(index + 1)"
            layout.schedule = try entry.schedule.map { schedule throws(RPCError) in
                try ScheduleInput.itemSchedule(schedule, param: "layouts[\(index)].schedule")
            }
            layouts.append(layout)
        }
        return LayoutPlan(layouts: layouts)
    }

    public static func layouts(_ plan: LayoutPlan) -> [RPCLayout] {
        plan.layouts.map { RPCLayout(name: $0.name, schedule: $0.schedule.map(ScheduleInput.wire), zones: zones($0)) }
    }

    /// The wire's form of `layout` (every field, background and the music's duck only where they apply).
    public static func zones(_ layout: Layout) -> [RPCZone] {
        layout.zones.map { zone in
            var wire = RPCZone(name: zone.name, rect: zone.rect.map(rect))
            wire.z = Int64(zone.z)
            wire.fit = RPCFit(rawValue: zone.fit.rawValue)
            wire.rotate = Int64(zone.rotate)
            wire.background = zone.background.map(hex)
            wire.audio = zone.audio
            wire.content = RPCZone.Content(rawValue: zone.content.rawValue)
            if zone.isMusic {
                wire.duck = zone.duck
                wire.duckRamp = zone.duckRamp
            }
            return wire
        }
    }

    private static func rect(_ wire: RPCZone.Rect) -> ZoneRect {
        ZoneRect(x: length(wire.x), y: length(wire.y), width: length(wire.w), height: length(wire.h))
    }

    private static func rect(_ rect: ZoneRect) -> RPCZone.Rect {
        RPCZone.Rect(x: length(rect.x), y: length(rect.y), w: length(rect.width), h: length(rect.height))
    }

    private static func length(_ wire: RPCZoneLength) -> ZoneLength {
        switch wire {
        case .pixels(let value): .pixels(value)
        case .percent(let value): .share(value / 100)
        }
    }

    private static func length(_ length: ZoneLength) -> RPCZoneLength {
        switch length {
        case .pixels(let value): .pixels(value)
        case .share(let value): .percent((value * 100_000).rounded() / 1000)
        }
    }

    /// "#rrggbb" as 0xRRGGBB.
    static func colour(_ text: String) -> UInt32? {
        guard text.utf8.count == 7, text.hasPrefix("#") else { return nil }
        return UInt32(text.dropFirst(), radix: 16)
    }

    static func hex(_ colour: UInt32) -> String {
        let digits = String(colour, radix: 16)
        return "#" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}
