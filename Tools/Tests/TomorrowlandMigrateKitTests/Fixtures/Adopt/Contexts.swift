// Contexts of an app's own, declared the 1.x way: in `extension PromiseContext`, and in a type.
import Foundation
import Tomorrowland

let databaseQueue = DispatchQueue(label: "db")
let decodingQueue = DispatchQueue(label: "decode", attributes: .concurrent)
let exportOperations: OperationQueue = {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    return queue
}()

typealias Context = PromiseContext

extension PromiseContext {
    /// The database's serial queue.
    static let db = PromiseContext.queue(databaseQueue)
    /// Image decoding.
    public static var imageDecoding: PromiseContext { .queue(decodingQueue) }
    static let exports: PromiseContext = .operationQueue(exportOperations)
    static let analytics = PromiseContext(qos: .background)
    static let ui = PromiseContext.main
    static var sync: PromiseContext {
        return .immediate
    }
    static let uiIfReady: PromiseContext = .nowOr(.main)
    static let dbIfReady = PromiseContext.nowOr(.db)
    /// A stored `var` could be set to another context: its twin reads it.
    nonisolated(unsafe) static var current = PromiseContext.main
    static let warm = PromiseContext.userInitiated, cold = PromiseContext.utility
    static func serial(_ label: String, qos: DispatchQoS = .default) -> PromiseContext {
        .queue(DispatchQueue(label: label, qos: qos))
    }
    static let chosen: PromiseContext = {
        ProcessInfo.processInfo.processorCount > 1 ? .userInitiated : .main
    }()
    #if os(Linux)
    static let platform = PromiseContext.utility
    #else
    static let platform = PromiseContext.main
    #endif
    /// Not a context: left alone.
    static let name = "contexts"
}

extension Context {
    @available(macOS 10.15, *)
    static let logging = Context.background
}

/// Contexts kept in a type of their own: values (`Contexts.network`), which compile as they are.
enum Contexts {
    static let network: PromiseContext = .utility
    static let main = PromiseContext.main
}

struct Item: Sendable, Equatable {
    var id: Int
    var name: String
}

enum LoadError: Error { case missing }
