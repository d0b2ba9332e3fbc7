import Foundation
import Tomorrowland

/// The non-destructive edits of one asset, with undo and redo. Not thread-safe: the editor
/// screen owns it.
public final class EditHistory {
    public let assetID: String
    public private(set) var applied: [EditOperation] = []
    public private(set) var undone: [EditOperation] = []
    public private(set) var renderedVersion = 0
    public var onChange: ((Int) -> Void)?
    /// Where the preview renders; the editor passes `.render`.
    private let renderContext: PromiseContext
    private var previewToken = PromiseInvalidationToken()

    public init(assetID: String, renderContext: PromiseContext = .utility) {
        self.assetID = assetID
        self.renderContext = renderContext
    }

    /// Validates and applies an edit, then renders the preview; gives the new version.
    public func apply(_ operation: EditOperation) -> GalleryPromise<Int> {
        if case .crop(let width, let height) = operation, width <= 0 || height <= 0 {
            return Promise(rejected: .invalidEdit("crop to \(width)x\(height)"))
        }
        if case .rotate(let degrees) = operation, degrees % 90 != 0 {
            return Promise(rejected: .invalidEdit("rotate by \(degrees)"))
        }
        applied.append(operation)
        undone.removeAll()
        let version = applied.count
        return renderPreview(version: version)
    }

    /// Undoes the last edit; gives the version shown afterwards.
    public func undo() -> Guaranteed<Int> {
        guard let last = applied.popLast() else {
            return Promise(fulfilled: 0)
        }
        undone.append(last)
        let version = applied.count
        return renderPreview(version: version)
            .recover(on: .immediate) { _ in version }
    }

    /// Redoes the last undone edit.
    public func redo() -> GalleryPromise<Int> {
        guard let operation = undone.popLast() else {
            return Promise(rejected: .invalidEdit("nothing to redo"))
        }
        applied.append(operation)
        return renderPreview(version: applied.count)
    }

    /// The edits as a sidecar file, written on the render context.
    public func exportSidecar() -> GalleryPromise<Data> {
        let operations = applied
        let id = assetID
        return Promise<[EditOperation], GalleryError>(fulfilled: operations)
            .mapResult(on: renderContext) { result -> PromiseResult<Data, GalleryError> in
                guard case .value(let operations) = result else { return .error(.invalidEdit("no edits")) }
                guard !operations.isEmpty else { return .error(.invalidEdit("no edits to export for \(id)")) }
                let lines = operations.map { "\($0)" }.joined(separator: "\n")
                return .value(Data(lines.utf8))
            }
    }

    /// A new preview supersedes the one rendering: its callbacks are dropped.
    private func renderPreview(version: Int) -> GalleryPromise<Int> {
        previewToken.invalidate()
        let token = previewToken
        return Promise<Int, GalleryError>(on: renderContext) { resolver in
            resolver.fulfill(with: version)
        }
        .then(on: .main, token: token) { [weak self] version in
            self?.renderedVersion = version
            self?.onChange?(version)
        }
    }
}
