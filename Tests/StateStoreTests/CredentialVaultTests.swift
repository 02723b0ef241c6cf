// The vault that keeps stream credentials out of the state files: what it seals, what it gives back, and
// what it does when its file is gone.

import Foundation
import Playback
import QueueModel
import TestSupport
import Testing

@testable import StateStore

struct CredentialVaultTests {
    @Test func aStreamWithCredentialsIsSealedAndResolvedOthersStayWhole() throws {
        let directory = try TemporaryDirectory(prefix: "queued-vault")
        let vault = CredentialVault(directory: directory.path)
        let camera = "rtsp://admin:hunter2@127.0.0.1:8554/cam"
        let sealed = vault.sealed(camera)
        #expect(sealed.hasPrefix("rtsp://***@127.0.0.1:8554/cam" + CredentialVault.marker), "\(sealed)")
        #expect(!sealed.contains("hunter2"))
        #expect(vault.sealed(camera) == sealed, "one token per URL")
        #expect(vault.resolved(sealed) == camera)
        let srt = "srt://127.0.0.1:9000?mode=caller&passphrase=topsecret1"
        #expect(vault.resolved(vault.sealed(srt)) == srt)
        #expect(!vault.sealed(srt).contains("topsecret1"))
        // A restored item holds its sealed URL: sealing it again (the next snapshot) keeps its token — also
        // when the secret is the query's last parameter, which the token follows.
        let sealedSRT = vault.sealed(srt)
        let reloaded = CredentialVault(directory: directory.path)
        #expect(reloaded.sealed(sealedSRT) == sealedSRT)
        #expect(reloaded.sealed(sealed) == sealed)
        #expect(reloaded.resolved(reloaded.sealed(sealedSRT)) == srt)
        // Files, plain streams, and plain http(s) files (the cache's key) are written as they are.
        for plain in ["/srv/a@b.mp4", "udp://127.0.0.1:5000", "https://127.0.0.1/v.mp4?token=abc"] {
            #expect(vault.sealed(plain) == plain)
            #expect(vault.resolved(plain) == plain)
        }
        // A new daemon reads the file back; without it, a sealed URL opens redacted (and fails as a wrong
        // password does) rather than naming a token to the server.
        #expect(CredentialVault(directory: directory.path).resolved(sealed) == camera)
        try FileManager.default.removeItem(atPath: directory.path + "/credentials")
        #expect(CredentialVault(directory: directory.path).resolved(sealed) == "rtsp://***@127.0.0.1:8554/cam")
    }

    @Test func aSweepKeepsWhatTheNewStateNamesAndForgetsARemovedCamera() throws {
        let directory = try TemporaryDirectory(prefix: "queued-vault-sweep")
        let vault = CredentialVault(directory: directory.path)
        let kept = "rtsp://admin:kept-pw@127.0.0.1:8554/door"
        let removed = "rtsp://admin:gone-pw@127.0.0.1:8554/yard"
        let restored = "srt://127.0.0.1:9000?mode=caller&passphrase=restored1"
        let sealedKept = vault.sealed(kept)
        let sealedRemoved = vault.sealed(removed)
        let sealedRestored = vault.sealed(restored)
        // A compaction: the snapshot names the door camera and a restored (already sealed) item; a line after
        // it adds a new camera. The yard camera was removed before.
        vault.beginSweep()
        #expect(vault.sealed(kept) == sealedKept)
        #expect(vault.sealed(sealedRestored) == sealedRestored)
        let added = "rtsp://viewer:new-pw@127.0.0.1:8554/gate"
        let sealedAdded = vault.sealed(added)
        #expect(vault.finishSweep(installed: true) == 1)
        let text = try String(contentsOfFile: directory.path + "/credentials", encoding: .utf8)
        #expect(!text.contains("gone-pw") && text.contains("kept-pw") && text.contains("new-pw") && text.contains("restored1"), "\(text)")
        var info = stat()
        #expect(stat(directory.path + "/credentials", &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/credentials.tmp"))
        let reread = CredentialVault(directory: directory.path)
        #expect(reread.resolved(sealedKept) == kept && reread.resolved(sealedAdded) == added)
        #expect(reread.resolved(sealedRestored) == restored)
        #expect(reread.resolved(sealedRemoved) == "rtsp://***@127.0.0.1:8554/yard")
        // Sealed again later, the yard camera gets a new token (the old one names nothing).
        #expect(vault.sealed(removed) != sealedRemoved)
        // A compaction that failed forgets nothing.
        vault.beginSweep()
        #expect(vault.finishSweep(installed: false) == 0)
        #expect(CredentialVault(directory: directory.path).resolved(sealedKept) == kept)
    }

    @Test func theJournalAndTheSnapshotHoldTheSealedURL() throws {
        let directory = try TemporaryDirectory(prefix: "queued-vault-files")
        let vault = CredentialVault(directory: directory.path)
        let item = MediaItem(uri: "rtsp://viewer:s3cret@127.0.0.1:8554/live")
        let line = String(decoding: StateEncoding.bytes { StateEncoding.write(item, to: &$0, vault: vault) }, as: UTF8.self)
        #expect(!line.contains("s3cret") && line.contains("rtsp://***@127.0.0.1:8554/live#queued-credentials="), "\(line)")
        let kept = try String(contentsOfFile: directory.path + "/credentials", encoding: .utf8)
        #expect(kept.contains(item.uri))
        var info = stat()
        #expect(stat(directory.path + "/credentials", &info) == 0 && info.st_mode & 0o777 == 0o600)
    }
}
