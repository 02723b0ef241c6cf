// The daemon's lock order, in one place: every lock in Sources/, who holds it, what may be taken under it,
// and what never may. This executable is where all the modules meet, so the table lives here; it has no
// code. A lock may be taken only under locks above it in the order; calling a closure that belongs to
// someone else (news, events, `isCancelled`) counts as taking whatever that closure takes.
//
// THE ORDER (outer first; "→" = may be taken while holding):
//
//   1 engine lock          EngineCore.condition (Playback)
//   2 engine delivery lock EngineCore.deliveryLock            taken before 1 is released, held while
//                                                             events are delivered (1 is no longer held)
//   3 reconnect lock       ReconnectingPulseSink.lock (AudioPulse)
//   4 sink locks           PulseAudio mainloop lock (PulseConnection.withLock, pa_threaded_mainloop_lock;
//                          libpulse holds it in its callbacks) | NullAudioSink.condition
//   5 state writer         StateWriter.condition (StateStore)
//   leaves (nothing is taken under them): NetworkItems.lock (NetworkItems.walkLock is taken only above it), NetworkCache.lock (but
//     CacheEntry.condition), CacheEntry.condition,
//     StreamInterrupt.lock (Media: a stream's deadline; FFmpeg's interrupt callback asks the engine (1) whether
//     the play was cancelled, and tells it waits, only after releasing it), Prefetcher.condition, PlayerEngine.decodeLock, DecodeLoop.leaveLock, ScreenshotMailbox.condition,
//     SDLVideoSink.quitLock, EventHub.lock, ChannelBox.lock (QueueServer), Supervision.lock, PlayedFlag.lock,
//     LogSink.lock (LogOutput: held around one write(2) of a log line; any lock above may log),
//     PlayLogStore.lock (PlayLog: the in-memory records only; the file work runs on the plays queue without it),
//     ScreenTeller.mailbox (Playback: the screen state wanted; `tell` under 1; the display thread runs the
//     command, logs and reports — which takes 1 — without it), StreamPump.condition (Media: a stream's packet
//     queue; decode, `stream.reader` and FFmpeg's interrupt polls; `stop()` waits there for the reader thread,
//     so it is never taken under 1; an adopted `isCancelled`, which takes 1, is called after release),
//     HWDecodeRegistry.state (Media: a Mutex; devices are made outside it), FFmpegLog.repeats (Media: which
//     FFmpeg lines pass; the line is logged after release), SDLVideoSink.sizeLock (the output's size),
//     CredentialVault.tables (StateStore: holds its own file I/O — append and rewrite with fsync — so never
//     under 1 or 5; a decode thread resolving a camera's URL may wait behind an fsync, never on a lock),
//     MemoryTrimmer.lock (queued: `observe` under 2; malloc_trim runs outside it),
//     ZoneInbox.lock (VideoSDL: zones' posts for the compositor; a zone's presenter, the daemon's zones under
//     DaemonZones.lock; the wake it queues runs later on its own queue and takes the main engine's lock 1
//     there, never under a lock), DuckControl.lock and DuckedAudioSink.lock (AudioMix: the music's duck; the
//     music sink's own calls (4) run after release), MadeLater.lock (the zones, the alert controller), Countdown.lock (QueueServer: a reply
//     waiting for several journals), ZoneMethodCache.lock (QueueServer: asks DaemonZones.lock for the zones'
//     engines while held, nothing else).
//   zones (DaemonZones, queued): applyLock (one layout change at a time: engines made and stopped, the
//     layout file written — held by the socket's event loop, the daypart scheduler and the thread applying a
//     layout at main's item end; never under any other lock, and it takes no engine lock but what starting
//     and stopping an engine take) → DaemonZones.lock (the maps; under it only ZoneInbox.lock) ; the
//     scheduler's condition (DaemonZones.scheduler) → DaemonZones.lock, to read the plan. Engines' event
//     delivery (2, any zone's) → DaemonZones.lock (zoneEvent, mainEvent); main's engine lock (1) →
//     DaemonZones.lock (queue.interrupt's `reserved`, a fullscreen interrupt noted before it can start).
//   plays queue (PlayRecording.queue, a serial queue used as a lock by `flush`'s `sync`): `sync` only from
//     the main thread at shutdown, outside every lock; on it PlayLogStore.lock, EventHub.lock and file I/O;
//     2 only enqueues (`async`).
//
// Edges that exist (each read in the code):
//   1 → 3 → 4  the engine's audio requests under its lock (requestFlush, cancelWrite, setPaused, setVolume,
//              playedFrames) go through the reconnect lock to the sink's own lock.
//   1 → 5      EngineCore.commitAndUnlock/recordPlaceNow hand changes to StateRecorder.record (queue only);
//              StateWriter.lastRecorded is read inside the engine's withConsistentState.
//   1 → 2      EngineCore.commitAndUnlock takes the delivery lock, then releases the engine lock.
//   1 → ScreenTeller.mailbox   carryOutAudioRequests hands the wanted screen state to the display thread.
//   2 → leaves the event observer (Daemon): EventHub.publish, the event log, Supervision.observe,
//              MemoryTrimmer.observe, PlayedFlag, NetworkItems.queueChanged and the plays queue (async
//              hops); never the engine lock.
//   3 → leaves goOfflineLocked calls onChange (EventHub, event log) under the reconnect lock.
//
// A lock that may drop the last reference to a stream's reader (Prefetcher.condition, the decode thread's
// fields) lets it go after release: a reader's deinit stops its pump and waits for its thread, which may be
// telling the engine (1) that it waits.
//
// Per lock: who holds it / may take under it / must never take under it:
//   engine lock (1): commands (any thread), the decode thread, the presenter. Under it: 2, 3, 4, 5 and
//     leaves, for calls that return at once. Never: a wait for a device or server (flush, write, drain),
//     file I/O, a cache entry (readers wait in the cache without it), the network.
//   delivery lock (2): the thread that released 1 with events. Under it: observers, i.e. leaves. Never: 1.
//   reconnect lock (3): any audio caller, the reconnect thread (`queued.pulse-reconnect`). Under it: 4, for
//     calls that return at once. Never: 1, 2, 5, a cache entry; never a blocking sink call.
//   PulseAudio mainloop lock (4): libpulse's mainloop thread in callbacks, and sink calls. Under it: only
//     libpulse and the sink's own fields (its waits release it). Never: 1, 2, 3 (libpulse callbacks never
//     call the engine or the reconnecting sink).
//   state writer (5): the engine (record, under 1), the writer thread, the socket (hold/releaseWakeup,
//     whenKept). Under it: leaves only; whenKept callbacks and `source?.recordPlaceNow()` run after it is
//     released. Never: 1 (the writer thread takes the engine lock only without 5).
//   cache entry (CacheEntry.condition, NetCache): readers (decode and prefetch threads), the HTTP client's
//     event loops, the entry's disk queue. Under it: nothing — HTTP requests and cancels, news, idleness
//     and the reader's `isCancelled`/`onWaiting` (which take 1 and 3) run after it is released; disk work
//     is only enqueued (`diskQueue.async`, which never waits) so that the disk sees it in decided order.
//     Never: 1, 2, 3, 4, the cache's lock, `diskQueue.sync`.
//   cache (NetworkCache.lock, NetCache): any thread. Under it: only CacheEntry.condition (a leaf), to see
//     that an entry it would close has no transfer; its observer and entries are read out and called after
//     it is released. Never: 1, NetworkItems.lock, `diskQueue.sync`.
//   entry disk queue (CacheEntry.diskQueue, a serial queue used as a lock by `retire`'s `sync`): `sync` only
//     from outside every disk queue, or from the same queue (run inline); eviction (`trimToLimits`) runs off
//     the disk queues so two of them never wait for each other.
//   NetworkItems.lock (queued): the cache's threads (pins, downloads ahead) and its `work` queue. Under it:
//     nothing (the engine is asked for the queue, and news published, after it is released).
//   NetworkItems.walkLock (queued): the cache's threads asking what to download next. Under it: only
//     NetworkItems.lock, to read the queue last looked at (the walk itself is pure).
//   NetworkItems.work (a serial queue used as a lock by `catchUp`'s `sync`): the cache's threads, outside
//     every lock, wait there for a look still due; `work` itself takes the engine lock (1) to read the queue
//     and calls the cache only for what returns at once (digests; downloads are started on another queue),
//     so it never waits for a cache thread.
//
// Two edges that bend the rules, kept on purpose (AudioPulse):
//   - ReconnectingPulseSink.adopt writes the silence gap (at most the null sink's 0.1 s) to the fresh
//     PulseAudioSink under the reconnect lock, so no sample of the decode thread can land before it; the
//     fresh stream's buffer is empty and larger than that, so the write returns without waiting for the
//     server. An engine command (setPaused/setVolume under 1) may queue behind it for that long.
//   - ReconnectingPulseSink.goOfflineLocked calls `onChange` (EventHub, the event log: leaves) and the dead
//     sink's playedFrames/writtenFrames (its mainloop lock, 4) under the reconnect lock; nothing they take
//     leads back to 3.
