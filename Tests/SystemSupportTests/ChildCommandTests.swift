// Commands run without a shell: their words arrive as written, their status and output come back, a timeout
// stops the command and what it started, a missing program says so, and a thread that blocks SIGTERM (as
// every daemon thread does) does not hand that block to the child.

import Glibc
import Testing

@testable import SystemSupport

@Suite(.serialized) struct ChildCommandTests {
    @Test func wordsArriveAsWrittenAndTheOutputComesBack() {
        let outcome = ChildCommand.run(["printf", "%s|", "a b", "$HOME", "*", "; rm"], timeout: 10)
        #expect(outcome == .exited(status: 0, output: "a b|$HOME|*|; rm|"))
        #expect(outcome.succeeded)
    }

    @Test func aFailureGivesItsStatusAndWhatItSaid() {
        let outcome = ChildCommand.run(["sh", "-c", "echo 'no TV on the bus' >&2; exit 3"], timeout: 10)
        #expect(outcome == .exited(status: 3, output: "no TV on the bus"))
        #expect(outcome.description == "exited with status 3: no TV on the bus")
        #expect(!outcome.succeeded)
    }

    @Test func aMissingProgramIsNotStarted() {
        let outcome = ChildCommand.run(["no-such-program-for-queued-tests"], timeout: 10)
        guard case .notStarted(let reason) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(reason.contains("No such file"))
    }

    @Test func aTimeoutStopsTheCommandAndWhatItStarted() throws {
        // The shell starts a sleep of its own and prints its pid, then waits: both must go at the timeout.
        let outcome = ChildCommand.run(["sh", "-c", "sleep 30 & echo $!; wait"], timeout: 0.5)
        guard case .timedOut(let seconds, let output) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(seconds == 0.5)
        let started = try #require(Int32(output))
        // Reparented once its shell is gone: gone, or a zombie for its new parent to reap, within 2 s.
        var gone = false
        for _ in 0..<200 where !gone {
            let stat = (try? String(contentsOfFile: "/proc/\(started)/stat", encoding: .utf8)) ?? ""
            gone = stat.isEmpty || stat.split(separator: ")").last?.trimmingSpaces().hasPrefix("Z") == true
            if !gone { usleep(10_000) }
        }
        #expect(gone, "the command's own child was stopped with it")
    }

    @Test func aBlockedSIGTERMInTheCallerIsNotInherited() {
        var term = sigset_t()
        sigemptyset(&term)
        sigaddset(&term, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &term, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let outcome = ChildCommand.run(["sh", "-c", "kill -TERM $$; sleep 5"], timeout: 10)
        #expect(outcome == .signalled(signal: SIGTERM, output: ""))
    }
}
