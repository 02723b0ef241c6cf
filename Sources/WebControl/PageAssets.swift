// The page's files, embedded in the program at build time (SwiftPM's embedInCode: they stay plain files in
// Sources/WebControl/Page, with no build step, and an installed binary needs nothing beside it).

import Hummingbird
import NIOCore

package enum PageAssets {
    static let files: [(path: String, type: String, bytes: [UInt8])] = [
        ("/", "text/html; charset=utf-8", PackageResources.index_html),
        ("/app.js", "text/javascript; charset=utf-8", PackageResources.app_js),
        ("/queue.js", "text/javascript; charset=utf-8", PackageResources.queue_js),
        ("/link.js", "text/javascript; charset=utf-8", PackageResources.link_js),
        ("/style.css", "text/css; charset=utf-8", PackageResources.style_css),
    ]

    static func add(to router: Router<WebContext>) { add(files, to: router) }

    /// Serves each file at its path, as it was embedded (another page's files too: the fleet page's).
    package static func add(_ files: [(path: String, type: String, bytes: [UInt8])], to router: Router<WebContext>) {
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
