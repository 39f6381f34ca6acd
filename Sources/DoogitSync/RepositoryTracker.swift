import DoogitGitHub
import DoogitStore
import DoogitSupport

/// Brings repositories from GitHub into the store: `repo add`, and the record mapping that sync
/// shares. Everything is fetched before anything is written, so a failure part-way through a
/// list leaves the store as it was.
public struct RepositoryTracker {
    public let store: Store
    public let github: GitHubClient
    /// An owner of this many repositories asked for by name is read through its listing, as
    /// `sync` reads it.
    public var listingThreshold = ListingRead.threshold

    public init(store: Store, github: GitHubClient) {
        self.store = store
        self.github = github
    }

    /// A repository that `add` tracks.
    public struct Added: Equatable, Sendable {
        public var record: RepositoryRecord
        /// The OWNER/NAME asked for when GitHub answered with another one (it redirected a
        /// renamed or transferred repository): a former name worth remembering.
        public var requestedName: String?
    }

    /// One reference of `add` could not be fetched; nothing was added.
    public struct AddError: Error, Equatable, Sendable {
        /// The reference as the user gave it (OWNER/NAME or NAME).
        public var reference: String
        /// The OWNER/NAME a bare NAME stood for, when it was known.
        public var resolved: String?
        public var underlying: GitHubError

        public init(reference: String, resolved: String?, underlying: GitHubError) {
            self.reference = reference
            self.resolved = resolved
            self.underlying = underlying
        }

        /// Whether the failure is about this repository alone, rather than about GitHub, the
        /// network or the token (which every other repository would meet too).
        public var concernsTheRepository: Bool {
            switch underlying {
            case .notFound, .unavailable, .forbidden, .unexpectedResponse, .unexpectedStatus, .tooManyRedirects:
                return true
            default:
                return false
            }
        }
    }

    /// Several references of `add` could not be fetched, each for a reason of its own (not
    /// found, refused, unavailable); nothing was added.
    public struct AddFailures: Error, Equatable, Sendable {
        public var failures: [AddError]
        /// How many repositories were asked for.
        public var asked: Int

        public init(failures: [AddError], asked: Int) {
            self.failures = failures
            self.asked = asked
        }
    }

    /// A repository `add` is asked for: by a reference, or by GitHub's numeric id (`id:ID`).
    public enum Wanted: Equatable, Sendable {
        case reference(RepositoryReference)
        case id(Int64)
    }

    /// Fetches each repository and tracks it (refreshing ones already tracked). A bare name is
    /// the signed-in user's repository of that name.
    public func add(_ references: [RepositoryReference], at now: Timestamp) throws -> [Added] {
        try add(references.map(Wanted.reference), at: now)
    }

    /// All are fetched at once, in parallel. Nothing is added unless every one was found: a
    /// failure that concerns the whole command (the network, the token, the rate limit) is thrown
    /// as it is, and repositories GitHub cannot give are thrown together (`AddFailures`).
    public func add(_ wanted: [Wanted], at now: Timestamp) throws -> [Added] {
        var fetched: [Fetched] = []
        var failures: [AddError] = []
        let (results, listings) = try fetchAll(wanted)
        for result in results {
            switch result {
            case .success(let repository): fetched.append(repository)
            case .failure(let error) where !error.concernsTheRepository: throw error
            case .failure(let error): failures.append(error)
            }
        }
        if failures.count == 1, let failure = failures.first { throw failure }
        if !failures.isEmpty { throw AddFailures(failures: failures, asked: wanted.count) }
        var added: [Added] = []
        for (remote, etag, requested) in fetched {
            let existing = try store.repository(id: remote.id)
            let renamed = requested.map { $0.lowercased() != remote.fullName.lowercased() } ?? false
            added.append(Added(record: Self.record(for: remote, etag: etag, existing: existing, at: now),
                               requestedName: renamed ? requested : nil))
        }
        // The repositories and the names GitHub redirected from, together: a checkout that still
        // uses such a name finds the repository (see Store.findRepository).
        try store.transaction {
            try store.saveRepositories(added.map(\.record))
            try store.markTracked(ids: added.map(\.record.id), at: now)
            // The listings' pages as read, so that the next sync asks for them conditionally.
            for listing in listings {
                try store.saveCachedPages(listing.pages, listing: listing.key, replacingAll: listing.complete, at: now)
            }
            for repository in added {
                if let name = repository.requestedName { try store.rememberName(name, forRepository: repository.record.id, at: now) }
            }
        }
        return added
    }

    /// A repository as fetched, with its ETag and the OWNER/NAME that was asked for (none for an id).
    private typealias Fetched = (repository: GitHubRepository, etag: String?, requested: String?)

    /// A listing read for `add`: its key in the listing cache, and the pages read.
    private typealias ListingPages = (key: String, pages: [CachedPage], complete: Bool)

    /// Every repository asked for, in the order asked, with the listings read. A bare NAME needs
    /// the signed-in user's login first; failing to learn it fails the whole command. The
    /// repositories of an owner named `listingThreshold` times or more are looked for in its
    /// listing first (its pages at once, as `sync` reads it); the rest, and those the listing
    /// does not hold (private, renamed, gone), are asked for one by one, all in parallel.
    private func fetchAll(_ wanted: [Wanted]) throws(AddError) -> (results: [Result<Fetched, AddError>], listings: [ListingPages]) {
        var login: String?
        let bare = wanted.first { if case .reference(let reference) = $0 { reference.owner == nil } else { false } }
        if case .reference(let reference)? = bare {
            do throws(GitHubError) {
                login = try github.currentUser().login
            } catch {
                throw AddError(reference: reference.description, resolved: nil, underlying: error)
            }
        }
        // The OWNER/NAME asked for (none for an id), and how GitHub is asked.
        let asked: [(requested: String?, key: GitHubClient.RepositoryKey)] = wanted.map { item in
            switch item {
            case .reference(let reference):
                let owner = reference.owner ?? login ?? ""
                return ("\(owner)/\(reference.name)", .name(owner: owner, name: reference.name))
            case .id(let id):
                return (nil, .id(id))
            }
        }
        let (listed, listings) = try fromListings(asked.map(\.key), wanted)
        let rest = wanted.indices.filter { listed[$0] == nil }
        var answers: [Int: Result<(repository: GitHubRepository, etag: String?), GitHubError>] = [:]
        for (index, answer) in zip(rest, github.repositoriesWithETags(rest.map { asked[$0].key })) { answers[index] = answer }
        let results = wanted.indices.map { index in
            let requested = asked[index].requested
            let answer = listed[index].map { .success((repository: $0, etag: nil)) }
                ?? answers[index] ?? .failure(.unexpectedResponse("no answer"))
            return answer
                .map { (repository: $0.repository, etag: $0.etag, requested: requested) }
                .mapError { error in
                    switch wanted[index] {
                    case .id(let id): AddError(reference: "id:\(id)", resolved: nil, underlying: error)
                    case .reference(let reference):
                        AddError(reference: reference.description, resolved: reference.owner == nil ? requested : nil,
                                 underlying: error)
                    }
                }
        }
        return (results, listings)
    }

    /// The repositories asked for by name that their owners' listings hold, by index (a
    /// listing's representation has no ETag of the repository's own), and the listings read.
    /// A listing that cannot be read (an owner GitHub does not know, a refusal) holds nothing:
    /// its repositories are asked for by name; an answer that would fail every request (the
    /// network, the token, a rate limit) fails the command, named after the first of them.
    private func fromListings(_ keys: [GitHubClient.RepositoryKey], _ wanted: [Wanted]) throws(AddError)
        -> (listed: [Int: GitHubRepository], listings: [ListingPages])
    {
        var owners: [String: (owner: String, indices: [Int])] = [:]
        for (index, key) in keys.enumerated() {
            if case .name(let owner, _) = key { owners[owner.lowercased(), default: (owner, [])].indices.append(index) }
        }
        struct Ended: Error { let error: GitHubError }
        let context = ListingContext(store: store, github: github, beforeRound: {}, ends: { error in
            AddError(reference: "", resolved: nil, underlying: error).concernsTheRepository ? nil : Ended(error: error)
        })
        let read = owners.sorted { $0.key < $1.key }.compactMap { key, entry -> (ListingRead, [Int])? in
            guard entry.indices.count >= listingThreshold, let url = github.ownerRepositoriesURL(entry.owner) else { return nil }
            return (ListingRead(context, key: CachedPage.ownerListing(key), firstURL: url,
                                maximumPages: ListingRead.maximumPages(for: entry.indices.count)), entry.indices)
        }
        guard !read.isEmpty else { return ([:], []) }
        let outcomes: [ListingRead.Outcome]
        do {
            outcomes = try ListingRead.readAll(read.map(\.0), context, answers: [:])
        } catch {
            let first = read.flatMap(\.1).min() ?? 0
            let reference = if case .reference(let reference) = wanted[first] { reference.description } else { "" }
            throw AddError(reference: reference, resolved: nil, underlying: (error as? Ended)?.error ?? .unexpectedResponse("\(error)"))
        }
        var listed: [Int: GitHubRepository] = [:]
        var listings: [ListingPages] = []
        for ((listing, indices), outcome) in zip(read, outcomes) where !outcome.failed {
            listings.append((listing.key, outcome.pages, outcome.complete))
            var byName: [String: GitHubRepository] = [:]
            for repository in outcome.byID.values { byName[repository.fullName.lowercased()] = repository }
            for index in indices {
                guard case .name(let owner, let name) = keys[index] else { continue }
                listed[index] = byName["\(owner)/\(name)".lowercased()]
            }
        }
        return (listed, listings)
    }

    /// The stored form of `remote`, keeping what only the store knows (when it was first added).
    public static func record(for remote: GitHubRepository, etag: String?, existing: RepositoryRecord?,
                              at now: Timestamp) -> RepositoryRecord {
        RepositoryRecord(
            id: remote.id, owner: remote.owner, name: remote.name, fullName: remote.fullName,
            description: remote.description, url: remote.htmlURL, isPrivate: remote.isPrivate,
            archived: remote.archived ?? existing?.archived ?? false, gone: false, pushedAt: remote.pushedAt, remoteUpdatedAt: remote.updatedAt,
            etag: etag, addedAt: existing?.addedAt ?? now, syncedAt: now,
            defaultBranch: remote.defaultBranch ?? existing?.defaultBranch, settings: existing?.settings ?? RepositorySettings())
    }
}
