import Foundation
import Tomorrowland

/// The keychain, behind a callback API that predates promises.
public protocol CredentialVault: AnyObject, Sendable {
    func readToken(forBank bankID: String, completion: @escaping (String?, Swift.Error?) -> Void)
    func storeToken(_ token: String, forBank bankID: String, completion: @escaping (Swift.Error?) -> Void)
}

public enum VaultError: Error, Equatable {
    case userCancelled
    case missing
}

/// Access tokens for one bank, read from the vault once and then kept.
public final class BankSession: @unchecked Sendable {
    public let bankID: String
    private let vault: CredentialVault
    private let lock = NSLock()
    private var cachedToken: String?

    public init(bankID: String, vault: CredentialVault) {
        self.bankID = bankID
        self.vault = vault
    }

    /// The access token; a Face ID prompt the user dismisses cancels the promise.
    public func accessToken() -> StdPromise<String> {
        lock.lock()
        let cached = cachedToken
        lock.unlock()
        if let cached = cached {
            return StdPromise(fulfilled: cached)
        }
        let vault = self.vault, bankID = self.bankID
        return StdPromise<String>(on: .utility) { resolver in
            vault.readToken(forBank: bankID, completion: resolver.handleCallback(isCancelError: { error in
                (error as? VaultError) == .userCancelled
            }))
        }.then(on: .immediate) { [weak self] token in
            guard let self = self else { return }
            self.lock.lock()
            self.cachedToken = token
            self.lock.unlock()
        }
    }

    /// Replaces the stored token.
    public func store(token: String) -> StdPromise<Void> {
        let vault = self.vault, bankID = self.bankID
        return StdPromise(on: .utility) { resolver in
            vault.storeToken(token, forBank: bankID) { error in
                if let error = error {
                    resolver.reject(with: error)
                } else {
                    resolver.fulfill(with: ())
                }
            }
        }.then(on: .immediate) { [weak self] in
            self?.lock.lock()
            self?.cachedToken = token
            self?.lock.unlock()
        }
    }

    /// Forgets the cached token (after the bank answered 401).
    public func invalidate() {
        lock.lock()
        cachedToken = nil
        lock.unlock()
    }
}
