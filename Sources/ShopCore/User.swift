// User: customers and staff. A user never carries a password, only the store holds its hash.

/// What a user may do in the shop.
public enum UserRole: String, CaseIterable, Hashable, Sendable {
    case admin, moderator, user
}

/// Whether a user may place orders.
public enum UserStatus: String, CaseIterable, Hashable, Sendable {
    case active, disabled
}

/// A customer or staff member. The password hash is deliberately not part of this type.
public struct User: Hashable, Sendable, Identifiable {
    public var id: Int64
    public var username: String
    public var email: String
    public var firstName: String
    public var lastName: String
    public var phone: String?
    public var role: UserRole
    public var status: UserStatus
    /// ISO 8601 timestamp.
    public var createdAt: String

    public init(id: Int64, username: String, email: String, firstName: String, lastName: String,
                phone: String? = nil, role: UserRole = .user, status: UserStatus = .active, createdAt: String) {
        self.id = id
        self.username = username
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
        self.role = role
        self.status = status
        self.createdAt = createdAt
    }
}

/// Which users a listing shows.
public struct UserFilter: Hashable, Sendable {
    public var role: UserRole?
    public var status: UserStatus?
    public var search: String?

    public init(role: UserRole? = nil, status: UserStatus? = nil, search: String? = nil) {
        self.role = role
        self.status = status
        self.search = search
    }
}
