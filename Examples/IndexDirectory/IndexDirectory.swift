// IndexDirectory: reads and checksums every file of a directory tree, showing the three stages
// of a gradual migration side by side:
//
//   Stage1LegacyFileReader.swift   callback code (unchanged legacy API)
//   Stage2PromisesAwaited.swift    that API wrapped in promises, awaited from new async code
//   Stage3AsyncAsPromise.swift     the async code handed back to promise-based code
//
// Usage: swift run IndexDirectory [--slow] [--timeout SECONDS] [DIRECTORY]
// DIRECTORY defaults to this package's Sources/. Ctrl-C cancels the Task, which cancels every
// in-flight promise and, through them, every legacy read; what was cancelled is printed.

import Dispatch
import Foundation
import TomorrowlandAsync

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
enum IndexDirectory {
    static func main() async {
        let options: Options
        let paths: [String]
        do {
            options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
            paths = try listFiles(under: options.root)
        } catch let failure as Failure {
            fail(failure)
        } catch {
            fail(Failure(status: 1, message: "\(error)"))
        }

        let progress = ProgressLine()
        let inFlight = InFlightReads()
        let indexer = Indexer(root: options.root, reader: LegacyFileReader(slow: options.slow),
                              timeout: options.timeout, progress: progress, inFlight: inFlight)
        let rootName = options.rootName

        // The async side owns the job; the promise side (stage 3) is awaited from it.
        let job = Task { await indexer.reportPromise(for: paths, rootName: rootName).resolvedResult }
        // With --slow, say once Ctrl-C is caught: a user (or a test) waits for this line.
        let ready = options.slow ? "reading \(paths.count) files slowly; press Ctrl-C to cancel" : nil
        let interrupt = onInterrupt(announcing: ready) { job.cancel() }
        let result = await job.value
        interrupt.cancel()
        progress.clear()

        switch result {
        case .value(let report):
            print(report)
            exit(0)
        case .error(let error):
            fail(Failure(status: 1, message: "\(error)"))
        case .cancelled:
            let cancelled = inFlight.cancelled.sorted()
            var message = "interrupted after reading \(inFlight.completed) of \(paths.count) files; "
            message += "cancelled \(cancelled.count) in-flight read\(cancelled.count == 1 ? "" : "s")"
            message += cancelled.map { "\n  " + $0 }.joined()
            fail(Failure(status: 130, message: message))
        }
    }

    /// Ctrl-C calls `handler` once (on the main queue); a second Ctrl-C exits at once.
    /// `announcement` is written to stderr once the signal source is installed, when a Ctrl-C
    /// starts being caught (before, it is ignored).
    static func onInterrupt(announcing announcement: String? = nil, _ handler: @escaping @Sendable () -> Void) -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)  // let the dispatch source see it instead of the default action
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        nonisolated(unsafe) var interrupted = false  // only touched on the main queue
        source.setEventHandler {
            if interrupted { exit(130) }
            interrupted = true
            FileHandle.standardError.write(Data("\ncancelling…\n".utf8))
            handler()
        }
        if let announcement {
            source.setRegistrationHandler { FileHandle.standardError.write(Data((announcement + "\n").utf8)) }
        }
        source.resume()
        return source
    }

    /// Prints the message (on stderr, unless the status is 0, as for `--help`) and exits.
    static func fail(_ failure: Failure) -> Never {
        if failure.status == 0 {
            print(failure.message)
        } else {
            FileHandle.standardError.write(Data("IndexDirectory: \(failure.message)\n".utf8))
        }
        exit(failure.status)
    }
}

/// A message for stderr and an exit status.
struct Failure: Error {
    var status: Int32
    var message: String

    static let usageLine = "usage: IndexDirectory [--slow] [--timeout SECONDS] [DIRECTORY]"

    static func usage(_ problem: String) -> Failure {
        Failure(status: 64, message: "\(problem)\n\(usageLine)")
    }
}

struct Options {
    var root: String
    var slow = false
    var timeout = 10.0

    /// The root as the user would recognise it in the report.
    var rootName: String { URL(fileURLWithPath: root).lastPathComponent }

    init(arguments: [String]) throws {
        var directory: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--slow":
                slow = true
            case "--timeout":
                guard let value = rest.popFirst(), let seconds = Double(value), seconds > 0 else {
                    throw Failure.usage("--timeout needs a number of seconds greater than 0")
                }
                timeout = seconds
            case "-h", "--help":
                throw Failure(status: 0, message: Failure.usageLine)
            case _ where argument.hasPrefix("-") && argument.count > 1:
                throw Failure.usage("unknown option \(argument)")
            default:
                guard directory == nil else { throw Failure.usage("too many arguments: expected at most one DIRECTORY") }
                directory = argument
            }
        }
        root = try directory ?? Options.defaultRoot()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw Failure(status: 66, message: "no such directory: \(root)")
        }
        guard isDirectory.boolValue else { throw Failure(status: 66, message: "not a directory: \(root)") }
    }

    /// This package's Sources/: next to the current directory, or found from this file's path.
    static func defaultRoot() throws -> String {
        let here = FileManager.default.currentDirectoryPath + "/Sources"
        if FileManager.default.fileExists(atPath: here + "/Tomorrowland") { return here }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let fromSource = package.appendingPathComponent("Sources").path
        if FileManager.default.fileExists(atPath: fromSource) { return fromSource }
        throw Failure.usage("cannot find this package's Sources/; pass a DIRECTORY")
    }
}

/// Every regular file (and symbolic link, which the reader follows) below `root`, relative to
/// it, sorted. Hidden files and directories are skipped.
func listFiles(under root: String) throws -> [String] {
    guard let enumerator = FileManager.default.enumerator(
        at: URL(fileURLWithPath: root), includingPropertiesForKeys: [.isDirectoryKey],
        options: [.skipsHiddenFiles]) else {
        throw Failure(status: 66, message: "cannot list \(root)")
    }
    let prefix = URL(fileURLWithPath: root).standardizedFileURL.path + "/"
    var paths: [String] = []
    for case let url as URL in enumerator {
        if (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true { continue }
        let path = url.standardizedFileURL.path
        paths.append(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path)
    }
    return paths.sorted()
}
