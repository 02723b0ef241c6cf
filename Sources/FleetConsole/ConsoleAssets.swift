// The fleet page's files, embedded in the program at build time (plain files in Sources/FleetConsole/Page).

import Hummingbird
import WebControl

enum ConsoleAssets {
    static let files: [(path: String, type: String, bytes: [UInt8])] = [
        ("/", "text/html; charset=utf-8", PackageResources.fleet_html),
        ("/fleet.js", "text/javascript; charset=utf-8", PackageResources.fleet_js),
        ("/fleet.css", "text/css; charset=utf-8", PackageResources.fleet_css),
    ]

    static func add(to router: Router<WebContext>) { PageAssets.add(files, to: router) }
}
