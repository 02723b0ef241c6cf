// What an engine decision asks its owner to do: the decisions (EngineState's mutating methods) only
// change state and record these; EngineCore carries them out when it releases the lock.

enum EngineAction: Equatable {
    /// Tell observers, in this order (after the lock is released).
    case emit(PlayerEvent)
    /// Drop what the audio output has not played yet, without waiting for it (`AudioSink.requestFlush`).
    case requestAudioFlush
    /// Let the decode thread out of a blocked audio `write`, dropping nothing (`AudioSink.cancelWrite`).
    case cancelAudioWrite
    /// Cork or uncork the audio output, without waiting for it.
    case setAudioPaused(Bool)
    /// Volume 0...1 and mute for the audio output.
    case setAudioVolume(Float, muted: Bool)
    /// Have the operator's command put the screen to sleep or wake it (queued for the command thread).
    case tellScreen(on: Bool)
}
