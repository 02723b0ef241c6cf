// Installing on a screen box: contrib/install.sh installs queued and queuectl linked with the Swift runtime
// inside under a prefix; the installed queued runs with an empty environment and links nothing from the
// toolchain, the installed queuectl talks to it, and --uninstall takes back what it put (an edited config
// file stays). contrib/deb/build.sh packages the same binaries: its Depends are runtime packages only, and
// its files unpacked under a temporary root run. A release build takes ~13 min here, so the tests install
// the debug build contrib/test.sh made with --static-swift-stdlib (`--configuration debug`, .build/static-debug):
// the same scripts, the same checks.

import Foundation
import Glibc
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct InstallTests {
    static let script = BuiltProduct.packageRoot + "/contrib/install.sh"

    /// The toolchain's root folder (…/usr above the `swift` driver), where its runtime libraries live.
    static func toolchainRoot() throws -> String {
        let swift = try ChildProcess.check("/bin/sh", ["-c", "readlink -f \"$(command -v swift)\""])
        return URL(fileURLWithPath: swift.trimmingCharacters(in: .whitespacesAndNewlines))
            .deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// What `ldd` says a binary needs that Debian does not provide: toolchain paths, libswift*, missing ones.
    static func toolchainLibraries(_ binary: String) throws -> [String] {
        let root = try toolchainRoot()
        return try ChildProcess.check("/usr/bin/ldd", [binary]).split(separator: "\n").map(String.init).filter {
            $0.contains(root) || $0.contains("libswift") || $0.contains("libFoundation") || $0.contains("not found")
        }
    }

    @Test func anInstalledQueuedRunsWithoutTheToolchainAndUninstalls() throws {
        let scratch = try TemporaryDirectory(prefix: "queued-install")
        let prefix = scratch.path + "/root"
        let install = try ChildProcess.run(
            "/bin/bash", [Self.script, "--prefix", prefix, "--no-build", "--configuration", "debug"], timeout: 300)
        try #require(install.status == 0, "install.sh failed:\n\(install.stderr.suffix(3000))")

        let installed = [
            "bin/queued", "bin/queuectl", "share/man/man1/queued.1.gz", "share/man/man1/queuectl.1.gz",
            "share/bash-completion/completions/queuectl", "share/zsh/vendor-completions/_queued",
            "share/fish/vendor_completions.d/queuectl.fish", "lib/systemd/user/queued.service",
            "lib/systemd/system/queued-signage.service", "etc/queued/queued.conf",
            "bin/queued-mqtt", "share/man/man1/queued-mqtt.1.gz", "lib/systemd/system/queued-mqtt.service",
            "etc/queued/queued-mqtt.conf", "share/bash-completion/completions/queued-mqtt",
            "bin/queued-web", "share/man/man1/queued-web.1.gz", "lib/systemd/system/queued-web.service",
            "etc/queued/queued-web.conf", "share/fish/vendor_completions.d/queued-web.fish",
        ]
        for path in installed {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + path), "\(path) installed")
        }
        let unit = try String(contentsOfFile: prefix + "/lib/systemd/system/queued-signage.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=\(prefix)/bin/queued "), "the unit starts the installed queued")

        let bridgeUnit = try String(contentsOfFile: prefix + "/lib/systemd/system/queued-mqtt.service", encoding: .utf8)
        #expect(
            bridgeUnit.contains("ExecStart=\(prefix)/bin/queued-mqtt --config \(prefix)/etc/queued/queued-mqtt.conf"),
            "the bridge's unit starts the installed bridge with the installed config")
        let webUnit = try String(contentsOfFile: prefix + "/lib/systemd/system/queued-web.service", encoding: .utf8)
        #expect(webUnit.contains("ExecStart=\(prefix)/bin/queued-web --config \(prefix)/etc/queued/queued-web.conf"))
        for product in ["queued", "queuectl", "queued-mqtt", "queued-web"] {
            let needs = try Self.toolchainLibraries(prefix + "/bin/" + product)
            #expect(needs.isEmpty, "\(product) needs \(needs)")
        }
        // An empty environment: no LD_LIBRARY_PATH, no PATH to the toolchain.
        let version = try ChildProcess.run("/usr/bin/env", ["-i", prefix + "/bin/queued", "--version"])
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdout.hasPrefix("queued \(QueuedVersion.number)\nlibavformat "), "\(version.stdout)")

        // The installed queuectl drives the installed queued.
        let socket = scratch.path + "/queued.sock"
        let daemon = try ChildProcess(
            "/usr/bin/env",
            [
                "-i", "HOME=\(scratch.path)", prefix + "/bin/queued", "--audio", "null", "--video", "none",
                "--no-state", "--no-config", "--socket", socket,
            ],
            stdoutPath: scratch.path + "/stdout", stderrPath: scratch.path + "/stderr")
        defer { _ = daemon.terminate() }
        let queuectl = prefix + "/bin/queuectl"
        let up = try waitUntil(timeout: 20, pollInterval: 0.05) {
            (try? ChildProcess.run(queuectl, ["--socket", socket, "status"]))?.status == 0
        }
        try #require(
            up,
            "the installed queued did not answer: \((try? String(contentsOfFile: scratch.path + "/stderr", encoding: .utf8)) ?? "")"
        )
        let still = try Fixtures.still(hue: .green, format: .png)
        #expect(try ChildProcess.run(queuectl, ["--socket", socket, "add", still]).status == 0)
        let listed = try ChildProcess.run(queuectl, ["--socket", socket, "--json", "ls"])
        #expect(listed.status == 0 && listed.stdout.contains(still), "\(listed)")
        #expect(daemon.terminate() == 0, "queued stops cleanly on SIGTERM")

        // Uninstall: everything it put goes, except a config file edited since.
        let config = prefix + "/etc/queued/queued.conf"
        try "volume=50\n".write(toFile: config, atomically: true, encoding: .utf8)
        let uninstall = try ChildProcess.run("/bin/bash", [Self.script, "--uninstall", "--prefix", prefix])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        for path in installed where path != "etc/queued/queued.conf" {
            #expect(!FileManager.default.fileExists(atPath: prefix + "/" + path), "\(path) removed")
        }
        #expect(FileManager.default.fileExists(atPath: config), "the edited config is kept")
    }

    @Test func theDebianPackageDependsOnRuntimePackagesAndItsFilesRun() throws {
        let scratch = try TemporaryDirectory(prefix: "queued-deb")
        let build = try ChildProcess.run(
            "/bin/bash",
            [
                BuiltProduct.packageRoot + "/contrib/deb/build.sh", "--no-build", "--configuration", "debug",
                "--output",
                scratch.path,
            ], timeout: 300)
        try #require(build.status == 0, "deb/build.sh failed:\n\(build.stderr.suffix(3000))")
        let package = build.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(package.hasSuffix(".deb") && FileManager.default.fileExists(atPath: package), "\(package)")

        let info = try ChildProcess.check("/usr/bin/dpkg-deb", ["--field", package, "Depends"])
        let depends = info.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let names = depends.map { String($0.prefix { $0 != " " }) }
        for library in [
            "libavformat", "libavcodec", "libsdl2", "libsdl2-ttf", "libfontconfig", "libpulse0", "libc6", "fonts-dejavu-core",
            "libmosquitto1", "libsqlite3",
        ] {
            #expect(names.contains { $0.hasPrefix(library) }, "Depends: names \(library): \(info)")
        }
        #expect(!names.contains { $0.hasSuffix("-dev") }, "no -dev package in Depends: \(info)")
        #expect(!names.contains { $0.contains("swift") }, "nothing from the toolchain: \(info)")
        let contents = try ChildProcess.check("/usr/bin/dpkg-deb", ["--contents", package])
        for path in [
            "./usr/bin/queued", "./usr/bin/queuectl", "./usr/share/man/man1/queued.1.gz",
            "./usr/lib/systemd/user/queued.service", "./usr/lib/systemd/system/queued-signage.service",
            "./etc/queued/queued.conf", "./usr/bin/queued-mqtt", "./usr/lib/systemd/system/queued-mqtt.service",
            "./etc/queued/queued-mqtt.conf", "./usr/bin/queued-web", "./usr/lib/systemd/system/queued-web.service",
            "./etc/queued/queued-web.conf", "./usr/bin/queued-fleet", "./usr/lib/systemd/system/queued-fleet.service",
            "./etc/queued/queued-fleet.conf", "./usr/share/man/man1/queued-fleet.1.gz",
        ] {
            #expect(contents.contains(path + "\n") || contents.contains(path + " "), "\(path) in the package")
        }
        let control = scratch.path + "/DEBIAN"
        try ChildProcess.check("/usr/bin/dpkg-deb", ["--control", package, control])
        let conffiles = try String(contentsOfFile: control + "/conffiles", encoding: .utf8)
        #expect(
            conffiles == "/etc/queued/queued.conf\n/etc/queued/queued-mqtt.conf\n/etc/queued/queued-web.conf\n/etc/queued/queued-fleet.conf\n",
            "edited configs survive upgrades: \(conffiles)")

        // Unpacked under a temporary root, its queued runs with an empty environment.
        let root = scratch.path + "/root"
        try ChildProcess.check("/usr/bin/dpkg-deb", ["-x", package, root])
        let version = try ChildProcess.run("/usr/bin/env", ["-i", root + "/usr/bin/queued", "--version"])
        #expect(version.status == 0 && version.stdout.contains("SDL 2."), "\(version)")
        let queuectl = try ChildProcess.run("/usr/bin/env", ["-i", root + "/usr/bin/queuectl", "--version"])
        #expect(queuectl.status == 0 && queuectl.stdout.contains(QueuedVersion.number), "\(queuectl)")
        let bridge = try ChildProcess.run("/usr/bin/env", ["-i", root + "/usr/bin/queued-mqtt", "--help"])
        #expect(bridge.status == 0 && bridge.stdout.contains("--broker"), "\(bridge)")
        let web = try ChildProcess.run("/usr/bin/env", ["-i", root + "/usr/bin/queued-web", "--help"])
        #expect(web.status == 0 && web.stdout.contains("--listen"), "\(web)")
        let fleet = try ChildProcess.run("/usr/bin/env", ["-i", root + "/usr/bin/queued-fleet", "--help"])
        #expect(fleet.status == 0 && fleet.stdout.contains("--broker"), "\(fleet)")
    }
}
