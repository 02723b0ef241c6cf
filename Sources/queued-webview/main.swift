// queued-webview: renders web pages off-screen for queued, which spawns one per daemon and talks to it over
// its standard input and output (one JSON object per line); frames go through files the daemon maps.
// Its own process so that the web engine's libraries are optional (a box without them plays everything
// else) and a fault in the engine's host code never takes the daemon down. Exits when its input closes.
//
//   queued-webview [--memory MIB] [--hang-after SECONDS]

import CWebView
import Glibc

var memoryMiB: UInt32 = 512
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--memory": memoryMiB = arguments.next().flatMap { UInt32($0) } ?? memoryMiB
    case "--hang-after": PageHost.hangAfter = arguments.next().flatMap { Double($0) } ?? PageHost.hangAfter
    default:
        _ = "queued-webview: unknown argument \(argument)\n".withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
}

signal(SIGPIPE, SIG_IGN)
// The daemon's pipes move to descriptors of our own, closed on exec: WebKit's processes, which start with
// ours, never write into the protocol nor keep its pipes open. They get /dev/null and our standard error.
let commands = fcntl(0, F_DUPFD_CLOEXEC, 3)
EventWriter.output = fcntl(1, F_DUPFD_CLOEXEC, 3)
let nothing = open("/dev/null", O_RDONLY)
dup2(nothing, 0)
close(nothing)
dup2(2, 1)
let status = qd_web_init(memoryMiB)
guard status == 0 else {
    EventWriter.send([("ev", "unavailable"), ("reason", .string("the web engine could not start (\(status))"))])
    exit(1)
}
EventWriter.send([("ev", "ready")])
PageHost.watchEverySecond()
qd_web_run(commands, { _, line in
    guard let line else { return }
    PageHost.handle(String(cString: line))
}, nil)
for view in PageHost.views.values { view.close() }
exit(0)
