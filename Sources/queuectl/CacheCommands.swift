// `queuectl cache …`: the network cache of http(s) items (cache.status, cache.prefetch, cache.evict,
// cache.revalidate, cache.usage). Each is a call and a few lines of output.

import ArgumentParser
import SystemSupport
import QueueClient
import QueueRPC
import QueuectlPresentation

struct Cache: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache", abstract: "Show or manage the cache of http(s) items.",
        subcommands: [CacheList.self, CachePrefetch.self, CacheEvict.self, CacheRevalidate.self, CacheUsage.self],
        defaultSubcommand: CacheList.self)
}

struct CacheList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls", abstract: "The cache state of http(s) items (all of them, or these ids).")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("Items to show (default: every http(s) item).", valueName: "id")) var ids: [Int64] = []

    func run() throws {
        let session = try Session(options)
        try session.show(try session.call(API.CacheStatus.self, .init(ids: ids.isEmpty ? nil : ids))) { result in
            guard !result.items.isEmpty else { return "no http(s) items" }
            return result.items.map { row in
                let cache = row.cache
                let size =
                    cache.length.map { "\(Self.megabytes(cache.bytes))/\(Self.megabytes($0)) MB" }
                    ?? "\(Self.megabytes(cache.bytes)) MB"
                let error = cache.error.map { "  (\($0))" } ?? ""
                return "#\(row.id)  \(QueueTable.cacheCell(cache))  \(cache.state)  \(size)  \(row.uri)\(error)"
            }.joined(separator: "\n")
        }
    }

    /// "evicted #3 #5", or `none` when no http(s) item was among the ids.
    static func acted(on ids: [Int64], _ verb: String, none: String) -> String {
        ids.isEmpty ? none : verb + " " + ids.map { "#\($0)" }.joined(separator: " ")
    }

    static func megabytes(_ bytes: Int64) -> String {
        (Double(bytes) / 1_048_576).fixed(1)
    }
}

struct CachePrefetch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch", abstract: "Download these http(s) items now, ahead of their play.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("Items to download.", valueName: "id")) var ids: [Int64]

    func run() throws {
        let session = try Session(options)
        try session.show(try session.call(API.CachePrefetch.self, .init(ids: ids))) { result in
            CacheList.acted(on: result.ids, "prefetching", none: "no http(s) items among them")
        }
    }
}

struct CacheEvict: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evict", abstract: "Drop these http(s) items' cached files.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("Items whose files to drop.", valueName: "id")) var ids: [Int64]

    func run() throws {
        let session = try Session(options)
        try session.show(try session.call(API.CacheEvict.self, .init(ids: ids))) { result in
            CacheList.acted(on: result.ids, "evicted", none: "no http(s) items among them")
        }
    }
}

struct CacheRevalidate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revalidate", abstract: "Ask the server now whether cached files changed.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("Items to check (default: every http(s) item).", valueName: "id")) var ids: [Int64] =
        []

    func run() throws {
        let session = try Session(options)
        try session.show(try session.call(API.CacheRevalidate.self, .init(ids: ids.isEmpty ? nil : ids))) { result in
            CacheList.acted(on: result.ids, "revalidating", none: "no http(s) items")
        }
    }
}

struct CacheUsage: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usage", abstract: "How much disk the cache takes, its cap and the free space.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        try session.show(try session.call(API.CacheUsage.self)) { usage in
            let cap = usage.cap.map { "\(CacheList.megabytes($0)) MB" } ?? "none"
            return """
                cached  \(CacheList.megabytes(usage.bytes)) MB (pinned by the queue: \(CacheList.megabytes(usage.pinned)) MB)
                cap     \(cap)
                free    \(CacheList.megabytes(usage.free)) MB
                """
        }
    }
}
