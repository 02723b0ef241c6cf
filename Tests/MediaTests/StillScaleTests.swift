// How small a still may be decoded for its screen (StillScale): the shorter side never below the output's
// longer side, so any turn, rotation or fit fills the output without enlarging; the JPEG decoder's halvings
// stop before that line.

import Testing

@testable import Media

struct StillScaleTests {
    @Test func aCameraPhotoIsBroughtDownToWhatTheScreenNeeds() {
        let photo = PixelSize(width: 8000, height: 6000)
        let hd = PixelSize(width: 1920, height: 1080)
        #expect(StillScale.size(of: photo, for: hd) == PixelSize(width: 2560, height: 1920))
        // Portrait photo, portrait panel: the same rule.
        #expect(
            StillScale.size(of: PixelSize(width: 6000, height: 8000), for: PixelSize(width: 1080, height: 1920))
                == PixelSize(width: 1920, height: 2560))
        // 8000x6000 → halved twice is 2000x1500 (≥ 1920 on the shorter side? no: 1500 < 1920): once.
        #expect(StillScale.decoderSteps(for: photo, output: hd, maxSteps: 3) == 1)
        #expect(StillScale.decoderSteps(for: photo, output: PixelSize(width: 640, height: 360), maxSteps: 3) == 3)
        #expect(StillScale.decoderSteps(for: photo, output: PixelSize(width: 640, height: 360), maxSteps: 0) == 0)
    }

    @Test func aPictureNoBiggerThanNeededIsLeftAlone() {
        let screen = PixelSize(width: 1920, height: 1080)
        #expect(StillScale.size(of: PixelSize(width: 1920, height: 1080), for: screen) == nil)
        #expect(StillScale.size(of: PixelSize(width: 3000, height: 1920), for: screen) == nil)
        #expect(StillScale.decoderSteps(for: PixelSize(width: 3000, height: 1920), output: screen, maxSteps: 3) == 0)
    }

    @Test func sidesStayEvenAndKeepTheAspect() throws {
        let size = StillScale.size(of: PixelSize(width: 4001, height: 2999), for: PixelSize(width: 641, height: 100))
        let got = try #require(size)
        #expect(got.width % 2 == 0 && got.height % 2 == 0 && got.height >= 641)
        #expect(abs(Double(got.width) / Double(got.height) - 4001.0 / 2999.0) < 0.01)
    }
}
