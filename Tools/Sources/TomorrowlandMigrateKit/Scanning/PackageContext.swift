// The Swift package the scanned paths belong to: what its manifest says, and which of its
// sources a command did not see.

import Foundation
import SwiftParser
import SwiftSyntax

/// The package around the paths a command was given, found by looking for `Package.swift`
/// upwards from the first path.
struct PackageContext {
    /// The folder that holds `Package.swift`.
    let root: String
    let manifest: String

    init(root: String, manifest: String) {
        self.root = root
        self.manifest = manifest
    }

    init?(roots: [String]) {
        guard let first = roots.first else { return nil }
        var directory = URL(fileURLWithPath: first).standardizedFileURL
        if !directory.hasDirectoryPath, !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory.deleteLastPathComponent()
        }
        for _ in 0..<20 {
            let manifest = directory.appendingPathComponent("Package.swift")
            if let text = try? String(contentsOf: manifest, encoding: .utf8) {
                self.root = directory.path
                self.manifest = text
                return
            }
            if directory.path == "/" { return nil }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    /// Whether the manifest names the TomorrowlandAsync product in its code: a string literal
    /// `"TomorrowlandAsync"` outside comments (a target left commented out, as a corpus's twin
    /// tests wait to be, does not count).
    var listsAsyncProduct: Bool {
        guard manifest.contains("\"TomorrowlandAsync\"") else { return false }
        return Parser.parse(source: manifest).tokens(viewMode: .sourceAccurate).contains { token in
            if case .stringSegment(let text) = token.tokenKind { return text == "TomorrowlandAsync" }
            return false
        }
    }

    /// The package's folders (relative to its root) that hold `.swift` files none of `scanned`
    /// is: the first path component, or the first two where the scanned paths cover part of
    /// the first. Hidden folders, `.build` and nested packages are left out.
    func unscannedFolders(scanned: Set<String>) -> [String] {
        let scannedRelative = Set(scanned.map { relative(URL(fileURLWithPath: $0).standardizedFileURL.path) })
        let partlyCovered = Set(scannedRelative.compactMap { $0.split(separator: "/").first.map(String.init) })
        var folders: [String] = []
        for file in swiftFiles(in: root) where !scannedRelative.contains(file) {
            let components = file.split(separator: "/").map(String.init)
            guard components.count > 1 else { continue } // a file next to Package.swift
            let depth = partlyCovered.contains(components[0]) && components.count > 2 ? 2 : 1
            let folder = components.prefix(depth).joined(separator: "/") + "/"
            if !folders.contains(folder) { folders.append(folder) }
        }
        return folders
    }

    /// The package's `.swift` files that are not among `scanned`, parsed (read only: for the
    /// twins an earlier run wrote there). Files that do not parse are left out.
    func otherFiles(of set: SourceSet) -> [ParsedFile] {
        let scannedRelative = Set((set.files.map(\.path) + set.uncompiled).map { relative(URL(fileURLWithPath: $0).standardizedFileURL.path) })
        let files = swiftFiles(in: root).filter { !scannedRelative.contains($0) }.compactMap { file -> ParsedFile? in
            let path = (root as NSString).appendingPathComponent(file)
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
            let parsed = ParsedFile(path: path, folder: root, text: text)
            return parsed.tree.hasError ? nil : parsed
        }
        // Typealiases of promise types from anywhere in the package.
        let aliases = PromiseType.aliases(in: files.map(\.tree)).merging(set.files.first?.promiseAliases ?? [:]) { $1 }
        return files.map { file in
            var file = file
            file.promiseAliases = aliases
            return file
        }
    }

    private func relative(_ path: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    /// Every `.swift` file below `folder`, relative to the package root, sorted.
    private func swiftFiles(in folder: String) -> [String] {
        let fileManager = FileManager.default
        guard let entries = try? fileManager.contentsOfDirectory(atPath: folder) else { return [] }
        var result: [String] = []
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let path = (folder as NSString).appendingPathComponent(entry)
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                if fileManager.fileExists(atPath: (path as NSString).appendingPathComponent("Package.swift")) { continue }
                result += swiftFiles(in: path)
            } else if entry.hasSuffix(".swift"), folder != root || entry != "Package.swift" {
                result.append(relative(path))
            }
        }
        return result
    }
}
