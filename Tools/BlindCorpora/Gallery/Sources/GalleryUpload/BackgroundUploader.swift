import Foundation
import GalleryCore
import Tomorrowland

/// Uploads new photos in the background, one at a time, in the order they were taken.
public final class BackgroundUploader {
    public private(set) var queued = 0
    public private(set) var completed: [String] = []
    private let uploads: UploadManager
    private let queue: OperationQueue
    private let callbackQueue = DispatchQueue(label: "gallery.background-uploads")

    public init(uploads: UploadManager) {
        self.uploads = uploads
        self.queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "gallery.background-uploader"
    }

    /// Queues the upload of one original, after a short pause that lets a burst of shots settle.
    public func enqueue(_ data: Data, for assetID: String, after pause: TimeInterval = 0) -> UploadPromise {
        queued += 1
        let uploads = self.uploads
        let operation = PromiseOperation<UploadReceipt, GalleryError>(on: .queue(callbackQueue)) { resolver in
            let upload = Promise<Void, GalleryError>(on: .utility, fulfilled: (), after: pause)
                .flatMap(on: .immediate) { uploads.upload(data, for: assetID) }
            resolver.onRequestCancel(on: .immediate) { _ in upload.requestCancel() }
            resolver.resolve(with: upload)
        }
        queue.addOperation(operation)
        return operation.promise
            .then(on: .queue(callbackQueue)) { [weak self] receipt in
                self?.completed.append(receipt.assetID)
            }
    }

    /// Pauses or resumes the queue (Low Power Mode).
    public var isSuspended: Bool {
        get { queue.isSuspended }
        set { queue.isSuspended = newValue }
    }

    /// Drops every upload that has not started (the user signed out).
    public func cancelAll() {
        queue.cancelAllOperations()
    }

    /// The uploads queued so far, once they are all done.
    public func drain() -> Guaranteed<Void> {
        let done = Guaranteed<Void>.makeWithResolver()
        queue.addBarrierBlock {
            done.1.fulfill(with: ())
        }
        return done.0
    }
}
