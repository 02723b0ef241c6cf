// The fleet page's files, embedded in the program at build time (plain files in Sources/FleetConsole/Page).

import Hummingbird
import NIOCore
import WebControl

enum ConsoleAssets {
    static let files: [(path: String, type: String, bytes: [UInt8])] = [
        ("/", "text/html; charset=utf-8", PackageResources.fleet_html),
        ("/fleet.js", "text/javascript; charset=utf-8", PackageResources.fleet_js),
        ("/fleet.css", "text/css; charset=utf-8", PackageResources.fleet_css),
    ]

    static func add(to router: Router<WebContext>) {
        for file in files {
            let buffer = ByteBuffer(bytes: file.bytes)
            router.get(RouterPath(file.path)) { _, _ -> Response in
                Response(
                    status: .ok, headers: [.contentType: file.type, .cacheControl: "no-cache"],
                    body: .init(byteBuffer: buffer))
            }
        }
    }
}
