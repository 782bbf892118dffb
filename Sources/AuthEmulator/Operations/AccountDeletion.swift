import Foundation

extension AuthEmulator {
    /// `accounts:delete`: a user deletes their own account with an ID token (`MISSING_ID_TOKEN` and the ID token
    /// errors); an administrator deletes by `localId` (`MISSING_LOCAL_ID`, `USER_NOT_FOUND`). Sessions go with it.
    public func delete(_ request: AuthWire.DeleteRequest, context: AuthCallContext = .inProcess)
        async throws(AuthServiceError) -> AuthWire.KindResponse
    {
        let uid: String
        if context.privileged, request.idToken == nil {
            guard let localId = request.localId, !localId.isEmpty else { throw .badRequest(.missingLocalID) }
            uid = localId
        } else {
            uid = try await account(presenting: request.idToken).0.uid
        }
        guard try await storeCall({ try await self.store.deleteUser(uid: uid) }) else { throw .badRequest(.userNotFound) }
        return AuthWire.KindResponse(kind: "identitytoolkit#DeleteAccountResponse")
    }

    /// `accounts:batchDelete` (the Admin SDK's `delete_users`): 1–1000 uids (`LOCAL_ID_LIST_EXCEEDS_LIMIT`);
    /// unknown uids count as deleted; without `force`, enabled accounts are kept and reported `NOT_DISABLED`.
    public func batchDelete(_ request: AuthWire.BatchDeleteRequest) async throws(AuthServiceError)
        -> AuthWire.BatchDeleteResponse
    {
        let uids = request.localIds ?? []
        guard (1...1000).contains(uids.count) else { throw .badRequest(.localIDListExceedsLimit) }
        var errors: [AuthWire.BatchDeleteError] = []
        for (index, uid) in uids.enumerated() {
            guard let user = try await storeCall({ try await self.store.user(uid: uid) }) else { continue }
            if !user.disabled, request.force != true {
                errors.append(
                    AuthWire.BatchDeleteError(
                        index: index, localId: uid, message: "NOT_DISABLED : Disable the account before batch deletion."))
                continue
            }
            _ = try await storeCall { try await self.store.deleteUser(uid: uid) }
        }
        return AuthWire.BatchDeleteResponse(errors: errors.isEmpty ? nil : errors)
    }
}
