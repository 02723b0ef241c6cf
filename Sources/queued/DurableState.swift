// The daemon's side of durable state: takes the state directory, restores what it held (logging what
// was damaged and dropped), puts the command line's files with it (appended, or replacing it), resumes
// the saved item, and starts the writer that keeps every later change. Runs on the main thread at start
// and at shutdown.

import FoundationEssentials
import Glibc
import SystemSupport
import Logging
import Playback
import QueueModel
import QueueServer
import StateStore

extension StateWriter: ChangeKeeper {}

struct DurableState {
    let directory: StateDirectory
    let restored: RestoredState
    /// Where stream credentials go instead of the state files (a restored item's sealed URL opens through it).
    let vault: CredentialVault

    /// Takes the directory's lock and reads it. A second daemon on the same directory fails here.
    init(options: QueuedCommand, logger: Logger) throws {
        try self.init(path: options.stateDir ?? StateDirectory.defaultPath(environment: ProcessInfo.processInfo.environment), logger: logger)
    }

    /// The state kept in `path` (the daemon's, or a zone's within it).
    init(path: String, logger: Logger) throws {
        do {
            directory = try StateDirectory(path: path)
        } catch {
            throw ValidationFailure("\(error)")
        }
        restored = StateFiles.restore(from: path)
        vault = CredentialVault(directory: path)
        for problem in restored.problems {
            logger.warning("state: \(problem) (damaged files are kept aside in \(path))")
        }
        for journal in restored.cutShort {
            logger.notice("state: \(journal): its last record was cut short by a crash or power cut and is dropped (it was never acknowledged)")
        }
        if let queue = restored.playQueue {
            logger.info(
                "state: restored \(queue.entries.count) items from \(path) (\(restored.replayedRecords) journal records)"
            )
        }
    }

    /// The restored queue, if any survived.
    var queue: PlayQueue? { restored.playQueue }

    /// Makes room for the command line's `items` (the caller queues them next: appended to the restored
    /// queue, or replacing it with --replace) and puts the player back where it was. Returns whether
    /// playback was resumed (otherwise the caller starts the new items, if any).
    func resume(with items: [MediaItem], engine: PlayerEngine, options: QueuedCommand, logger: Logger) -> Bool {
        let saved = engine.queue().count
        if !items.isEmpty && saved > 0 {
            if options.replace {
                logger.info("state: --replace: the \(saved) saved items are replaced by the command line's")
                engine.clear()
            } else {
                logger.info("state: the command line's \(items.count) items are appended to the \(saved) saved ones")
            }
        }
        guard var player = restored.player else { return false }
        if options.replace && !items.isEmpty {
            // The queue is replaced; the settings and the overlays stay (those tied to items went with them).
            player.current = nil
            player.state = .idle
            engine.restore(player, resumeAt: nil)
            return false
        }
        let position: Double? =
            switch options.resume {
            case .position: player.position
            case .item: 0
            case .none: nil
            }
        engine.restore(player, resumeAt: position)
        let status = engine.status()
        if status.state == .playing || status.state == .paused {
            let place = status.position.fixed(1)
            logger.info(
                "state: resuming item \(status.currentID.map { "\($0)" } ?? "?") at \(place) s, \(status.state.rawValue)"
            )
            return true
        }
        return false
    }

    /// The writer, already recording the engine's changes. Call right after the engine is made from the
    /// restored queue, before anything changes it (resuming, the command line's items, --loops): every change
    /// from the restored state on is then in the journal.
    func makeWriter(engine: PlayerEngine, policy: SyncPolicy) -> StateWriter {
        let writer = StateWriter(
            directory: directory.path, generation: restored.generation + 1, policy: policy, source: engine,
            vault: vault)
        engine.record(to: writer)
        return writer
    }

    /// Starts the writer's thread. When the directory was read whole, the writer goes on with its journal
    /// (the restored queue is what the engine began recording from: see `makeWriter`); otherwise — something
    /// damaged was kept aside, so the files no longer say what was restored — it first writes a snapshot,
    /// which may run while the engine plays: it takes the state at one instant and the changes after it go
    /// to the new journal.
    func start(_ writer: StateWriter) throws {
        do {
            if restored.problems.isEmpty {
                try writer.start(continuing: restored.generation)
            } else {
                try writer.start()
            }
        } catch {
            throw ValidationFailure("cannot write the state directory: \(error) (or run with --no-state)")
        }
    }
}
