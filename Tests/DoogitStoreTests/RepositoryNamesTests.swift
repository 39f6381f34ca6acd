import DoogitStore
import DoogitSupport
import Testing

/// A tracked repository stays reachable by every name it had; a repository that has a name now
/// wins over one that had it before.
@Suite("Repositories: former names")
struct RepositoryNamesTests {
    @Test("a renamed repository is found by its old name, with or without the owner")
    func renamedIsFoundByOldName() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(7, "octo/alpha"))
        try store.saveRepository(repository(7, "octo/alpha2", addedAt: moment(9)))
        #expect(try store.findRepository(owner: "octo", name: "alpha").id == 7)
        #expect(try store.findRepository(owner: "OCTO", name: "ALPHA").id == 7)
        #expect(try store.findRepository(owner: nil, name: "alpha").id == 7)
        #expect(try store.findRepository(owner: "octo", name: "alpha2").id == 7)
        #expect(try store.formerNames(ofRepository: 7) == ["octo/alpha"])
    }

    @Test("a transfer keeps the old owner's name, and a chain of renames keeps every name")
    func chainOfNames() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(7, "octo/alpha"))
        try store.saveRepository(repository(7, "octo/beta"))
        try store.saveRepository(repository(7, "acme/gamma"))
        for name in ["octo/alpha", "octo/beta", "acme/gamma"] {
            let parts = name.split(separator: "/").map(String.init)
            #expect(try store.findRepository(owner: parts[0], name: parts[1]).id == 7, "\(name)")
        }
    }

    @Test("a new repository that takes an old name wins over the old record")
    func newOwnerOfANameWins() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(7, "octo/alpha"))
        try store.saveRepository(repository(7, "octo/alpha2"))
        try store.saveRepository(repository(8, "octo/alpha"))
        #expect(try store.findRepository(owner: "octo", name: "alpha").id == 8)
        #expect(try store.findRepository(owner: nil, name: "alpha").id == 8)
        #expect(try store.formerNames(ofRepository: 7).isEmpty)
    }

    @Test("a remembered name (one GitHub redirected) finds the repository; the current name needs none")
    func rememberedName() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(7, "octo/alpha2"))
        try store.rememberName("octo/alpha", forRepository: 7, at: moment(1))
        try store.rememberName("octo/alpha2", forRepository: 7, at: moment(1))
        #expect(try store.findRepository(owner: "octo", name: "alpha").id == 7)
        #expect(try store.formerNames(ofRepository: 7) == ["octo/alpha"])
    }

    @Test("two repositories that both had a bare name are ambiguous by it")
    func ambiguousFormerName() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(7, "octo/app"))
        try store.saveRepository(repository(7, "octo/app-one"))
        try store.saveRepository(repository(8, "acme/app"))
        try store.saveRepository(repository(8, "acme/app-two"))
        #expect(throws: StoreError.ambiguousRepository("app", candidates: [
            RepositoryMatch(id: 8, fullName: "acme/app-two", gone: false),
            RepositoryMatch(id: 7, fullName: "octo/app-one", gone: false),
        ])) { try store.findRepository(owner: nil, name: "app") }
        #expect(try store.findRepository(owner: "octo", name: "app").id == 7)
    }

    @Test("removing a repository forgets its names")
    func removalForgetsNames() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(7, "octo/alpha"))
        try store.saveRepository(repository(7, "octo/alpha2"))
        try store.removeRepositories(ids: [7], force: false, at: moment(3))
        #expect(throws: StoreError.unknownRepository("octo/alpha")) { try store.findRepository(owner: "octo", name: "alpha") }
        #expect(try store.count("SELECT count(*) FROM repository_names") == 0)
    }

    @Test("two live repositories with one full name are ambiguous, naming both ids; a gone one loses to a live one")
    func sameFullName() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/app", gone: true))
        try store.saveRepository(repository(2, "octo/app"))
        #expect(try store.findRepository(owner: "octo", name: "app").id == 2)
        #expect(try store.findRepository(owner: nil, name: "app").id == 2)
        try store.saveRepository(repository(1, "octo/app"))
        #expect(throws: StoreError.ambiguousRepository("octo/app", candidates: [
            RepositoryMatch(id: 1, fullName: "octo/app", gone: false), RepositoryMatch(id: 2, fullName: "octo/app", gone: false),
        ])) { try store.findRepository(owner: "octo", name: "app") }
    }
}
