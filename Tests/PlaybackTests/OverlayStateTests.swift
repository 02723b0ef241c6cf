// Overlays in EngineState, without threads: a layer tied to an item needs the item and goes with it
// (remove, clear, a restore onto a queue without it); changes are in the player snapshot the state
// recorder keeps; the presenter's view of the playing item follows the heard play for a picture-less one.

import Overlays
import QueueModel
import Testing

@testable import Playback

@Suite struct OverlayStateTests {
    let items = [MediaItem(uri: "/a.wav", title: "A"), MediaItem(uri: "/srv/b.wav")]

    @Test func aLayerTiedToAnItemNeedsItAndGoesWithIt() throws {
        let driver = try EngineStateDriver(items: items)
        let (a, b) = (driver.ids[0], driver.ids[1])
        #expect(throws: PlayerError.itemNotFound(ItemID(99))) {
            try driver.state.addOverlay(Overlay(content: .text("x"), scope: .item(99)))
        }
        let logo = try driver.state.addOverlay(Overlay(content: .image(path: "/logo.png")))
        let title = try driver.state.addOverlay(Overlay(content: .text("{title}"), scope: .item(a.rawValue)))
        let other = try driver.state.addOverlay(Overlay(content: .text("{title}"), scope: .item(b.rawValue)))
        let snapshot = driver.state.playerSnapshot(heard: 0)
        #expect(snapshot.overlays.overlays.map(\.id) == [logo, title, other])
        _ = driver.state.remove([a], heard: 0)
        #expect(driver.state.overlays.overlays.map(\.id) == [logo, other])
        #expect(driver.state.playerDiffers(from: snapshot), "the change is one for the recorder")
        driver.state.clear()
        #expect(driver.state.overlays.overlays.map(\.id) == [logo])
        #expect(throws: PlayerError.overlayNotFound(title)) { try driver.state.removeOverlays([logo, title]) }
        #expect(driver.state.overlays.overlays.map(\.id) == [logo], "all or nothing")
    }

    @Test func aRestoreDropsLayersOfItemsThatAreNotThere() throws {
        let driver = try EngineStateDriver(items: items)
        var saved = OverlaySet()
        _ = saved.add(Overlay(content: .text("kept")))
        _ = saved.add(Overlay(content: .text("{title}"), scope: .item(driver.ids[1].rawValue)))
        _ = saved.add(Overlay(content: .text("gone"), scope: .item(42)))
        driver.state.restore(PlayerSnapshot(overlays: saved), resumeAt: nil)
        #expect(driver.state.overlays.overlays.map(\.id) == [1, 2])
        #expect(driver.state.overlays.nextID == 4, "ids go on after the restore")
    }

    @Test func theItemOverlaysDescribeIsTheHeardOneWithItsTitleOrFileName() throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: driver.ids[1])
        let b = try #require(driver.openRequested(duration: 4))
        driver.written = 400
        driver.hear(150)
        let now = driver.state.overlayItemWithoutPicture(heard: 150)
        #expect(!now.keepsPictureItem, "an audio play shows no pictures: it is what overlays describe")
        #expect(now.item == PlayingItem(id: b.id.rawValue, title: "b.wav", position: 1.5, duration: 4))
        driver.state.stop()
        #expect(driver.state.overlayItemWithoutPicture(heard: 150).item == nil)
    }
}
