import DoogitSupport
import Foundation

/// Labels as GitHub keeps them: a repository has labels (name, color, description, default),
/// their names unique without case; an issue's labels are the repository's. A name given on an
/// issue (create, update, add, set) is the existing label's when one differs only in case, and
/// a new one (grey, no description) otherwise. The endpoints: list and create a repository's
/// labels; list, add (`POST`; an empty list removes all), set (`PUT`) and remove (`DELETE`, one
/// by its exact name: another is 404 "Label does not exist", or all) an issue's. Every change
/// moves the issue's `updated_at`, and so its listing's ETag. A test can have another user
/// relabel an issue right after doogit's next read of it.
extension FakeActivity {
    public struct Label: Equatable, Sendable {
        public var id: Int64
        public var name: String
        /// Six hex digits, without `#`.
        public var color: String
        public var description: String?
        /// One of the labels GitHub gives a new repository.
        public var isDefault: Bool
    }

    /// Labels another user adds and removes on an issue after the next read of it or of its
    /// repository's issue listing.
    struct PendingRelabel {
        var repository: Int64
        var number: Int64
        var adding: [String]
        var removing: [String]
    }

    /// The color GitHub gives a label made by naming it on an issue.
    static let newLabelColor = "ededed"

    // MARK: As tests change them

    /// Adds a label to the repository, as its settings page does; one of that name in any case
    /// is left as it is, and returned.
    @discardableResult
    public func addLabel(repository: Int64, name: String, color: String = "f29513", description: String? = nil,
                         isDefault: Bool = false) -> Label {
        locked {
            unlockedAddLabel(repository: repository, name: name, color: color, description: description, isDefault: isDefault)
        }
    }

    /// The repository's labels, in the order they were made.
    public func labels(repository: Int64) -> [Label] { locked { repositoryLabels[repository] ?? [] } }

    /// Changes of issues' labels through the labels endpoints (`POST`, `PUT`, `DELETE`): the
    /// issue numbers, in order.
    public func labelWrites(repository: Int64, method: String) -> [Int64] {
        locked { labelWrites.filter { $0.repository == repository && $0.method == method }.map(\.number) }
    }

    /// Right after doogit's next read of the issue (`GET .../issues/N`, its labels) or of the
    /// repository's issue listing, another user adds `adding` to its labels and removes
    /// `removing` (in any case): someone else's change between a read and a write.
    public func relabelAfterNextRead(repository: Int64, number: Int64, adding: [String] = [], removing: [String] = []) {
        locked {
            pendingRelabels.append(PendingRelabel(repository: repository, number: number, adding: adding, removing: removing))
        }
    }

    /// Carries out the relabels waiting for a read of the issue `number` (nil: the listing,
    /// which shows every issue). Under the lock, after the answer was made.
    func relabelAfterRead(repository: Int64, number: Int64?) {
        let due = pendingRelabels.filter { $0.repository == repository && (number == nil || $0.number == number) }
        guard !due.isEmpty else { return }
        pendingRelabels.removeAll { $0.repository == repository && (number == nil || $0.number == number) }
        for relabel in due {
            let removing = Set(relabel.removing.map { $0.lowercased() })
            unlockedUpdateIssue(repository: relabel.repository, number: relabel.number) { issue in
                issue.labels = issue.labels.filter { !removing.contains($0.lowercased()) } + relabel.adding
            }
        }
    }

    // MARK: The repository's labels

    private func unlockedAddLabel(repository: Int64, name: String, color: String, description: String?,
                                  isDefault: Bool) -> Label {
        if let existing = label(named: name, repository: repository) { return existing }
        lastLabelID += 1
        let label = Label(id: lastLabelID, name: name, color: color, description: description, isDefault: isDefault)
        repositoryLabels[repository, default: []].append(label)
        return label
    }

    /// The repository's label of that name in any case.
    private func label(named name: String, repository: Int64) -> Label? {
        let wanted = name.lowercased()
        return repositoryLabels[repository]?.first { $0.name.lowercased() == wanted }
    }

    /// The names as the issue gets them: each the repository's label of that name in any case
    /// (made when there is none), once each, in the order given.
    func resolvedLabels(_ names: [String], repository: Int64) -> [String] {
        var resolved: [String] = []
        for name in names {
            let label = unlockedAddLabel(repository: repository, name: name, color: Self.newLabelColor, description: nil,
                                         isDefault: false)
            if !resolved.contains(label.name) { resolved.append(label.name) }
        }
        return resolved
    }

    // MARK: Answers

    private static let labelTemplate: JSONValue = {
        guard case .array(let issues) = Fixtures.json("issues-list.json"), let first = issues.first,
              case .array(let labels)? = first["labels"], let label = labels.first else { return .null }
        return label
    }()

    /// A label as GitHub shows it (the shape of the label objects in the spec's issue examples).
    static func labelJSON(_ label: Label, fullName: String, apiURL: String) -> JSONValue {
        labelTemplate.replacing([
            "id": .int(label.id),
            "node_id": .string(Base64.encode(Array("05:Label\(label.id)".utf8))),
            "url": .string("\(apiURL)/repos/\(fullName)/labels/\(pathSegment(label.name))"),
            "name": .string(label.name),
            "description": .optional(label.description),
            "color": .string(label.color),
            "default": .bool(label.isDefault),
        ])
    }

    func labelsJSON(_ names: [String], repository: Int64, fullName: String, apiURL: String) -> [JSONValue] {
        names.compactMap { name in
            label(named: name, repository: repository).map { Self.labelJSON($0, fullName: fullName, apiURL: apiURL) }
        }
    }

    private static func pathSegment(_ name: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    }

    /// The names in an issue's `labels` (create, update): names, or objects with a name. Nil
    /// when it is neither (GitHub answers 422).
    static func labelNames(in value: JSONValue) -> [String]? {
        guard case .array(let items) = value else { return nil }
        var names: [String] = []
        for item in items {
            switch item {
            case .string(let name): names.append(name)
            case .object: guard case .string(let name)? = item["name"] else { return nil }; names.append(name)
            default: return nil
            }
        }
        return names
    }

    /// The names a body of "add labels" or "set labels" gives: `{"labels": [...]}` (GitHub's
    /// recommended form), the list itself, or a single name.
    private static func labelNames(inBody body: [UInt8]) -> [String]? {
        guard let json = try? JSONParser.parse(body) else { return nil }
        switch json {
        case .string(let name): return [name]
        case .array: return labelNames(in: json)
        case .object: return json["labels"].flatMap(labelNames(in:))
        default: return nil
        }
    }

    /// `/repos/{o}/{r}/labels` and `/repos/{o}/{r}/issues/{n}/labels[/{name}]`, under the lock;
    /// nil for a method these routes do not have.
    func labelAnswer(_ request: ReceivedRequest, route: [String], repository: Int64, fullName: String, apiURL: String)
        -> ServerResponse? {
        if route.count == 1 {
            switch request.method {
            case "GET":
                return page(repositoryLabels[repository] ?? [], request, fullName: fullName, apiURL: apiURL)
            case "POST":
                return createLabel(request, repository: repository, fullName: fullName, apiURL: apiURL)
            default:
                return nil
            }
        }
        guard let number = Int64(route[1]), let issue = issues[repository]?[number] else { return Self.notFound }
        let current = issue.labels.compactMap { label(named: $0, repository: repository) }
        switch (request.method, route.count) {
        case ("GET", 3):
            let response = page(current, request, fullName: fullName, apiURL: apiURL)
            relabelAfterRead(repository: repository, number: number)
            return response
        case ("POST", 3), ("PUT", 3):
            guard let names = Self.labelNames(inBody: request.body) else { return .json(422, Fixtures.text("error-422.json")) }
            // Adding nothing removes every label, as GitHub documents.
            let wanted = request.method == "PUT" || names.isEmpty ? names : issue.labels + names
            relabel(repository: repository, number: number, to: wanted, method: request.method)
            return labelsAnswer(repository: repository, number: number, fullName: fullName, apiURL: apiURL)
        case ("DELETE", 3):
            relabel(repository: repository, number: number, to: [], method: "DELETE")
            return ServerResponse(status: 204)
        case ("DELETE", 4):
            // By its exact name: GitHub does not find a label named in another case here.
            let name = route[3].removingPercentEncoding ?? route[3]
            guard issue.labels.contains(name) else {
                return .json(404, #"{"message":"Label does not exist","documentation_url":"https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue","status":"404"}"#)
            }
            relabel(repository: repository, number: number, to: issue.labels.filter { $0 != name }, method: "DELETE")
            return labelsAnswer(repository: repository, number: number, fullName: fullName, apiURL: apiURL)
        default:
            return nil
        }
    }

    /// Gives the issue these labels (the repository's, made when new); a change moves its
    /// `updated_at`.
    private func relabel(repository: Int64, number: Int64, to names: [String], method: String) {
        let before = issues[repository]?[number]?.labels
        guard resolvedLabels(names, repository: repository) != before else { return }
        unlockedUpdateIssue(repository: repository, number: number) { $0.labels = names }
        labelWrites.append((repository, method, number))
    }

    private func labelsAnswer(repository: Int64, number: Int64, fullName: String, apiURL: String) -> ServerResponse {
        let names = issues[repository]?[number]?.labels ?? []
        return .json(200, JSONWriter.write(.array(labelsJSON(names, repository: repository, fullName: fullName, apiURL: apiURL))))
    }

    /// One page of labels (`per_page`, `page`), with GitHub's Link header and an ETag.
    private func page(_ labels: [Label], _ request: ReceivedRequest, fullName: String, apiURL: String) -> ServerResponse {
        let perPage = min(100, max(1, Int(request.query["per_page"] ?? "30") ?? 30))
        let page = max(1, Int(request.query["page"] ?? "1") ?? 1)
        let pages = max(1, (labels.count + perPage - 1) / perPage)
        let slice = labels.dropFirst((page - 1) * perPage).prefix(perPage)
        let body = JSONWriter.write(.array(slice.map { Self.labelJSON($0, fullName: fullName, apiURL: apiURL) }))
        var links: [String] = []
        let base = "\(apiURL)\(request.path)?per_page=\(perPage)"
        if page < pages { links.append("<\(base)&page=\(page + 1)>; rel=\"next\"") }
        if page < pages { links.append("<\(base)&page=\(pages)>; rel=\"last\"") }
        return tagged(body, request, links: links)
    }

    /// `POST /repos/{o}/{r}/labels`: a name not taken in any case (422 `already_exists`
    /// otherwise), a color of six hex digits (grey when left out, as GitHub does).
    private func createLabel(_ request: ReceivedRequest, repository: Int64, fullName: String, apiURL: String) -> ServerResponse {
        guard let body = try? JSONParser.parse(request.body), case .string(let name)? = body["name"],
              !name.trimmingSpaces.isEmpty else { return .json(422, Fixtures.text("error-422.json")) }
        var color = Self.newLabelColor
        if let given = body["color"] {
            guard case .string(let text) = given, text.count == 6, text.allSatisfy(\.isHexDigit) else {
                return .json(422, Fixtures.text("error-422.json"))
            }
            color = text.lowercased()
        }
        guard label(named: name, repository: repository) == nil else {
            return .json(422, #"{"message":"Validation Failed","errors":[{"resource":"Label","code":"already_exists","field":"name"}],"documentation_url":"https://docs.github.com/rest/issues/labels#create-a-label","status":"422"}"#)
        }
        let description: String?
        if case .string(let text)? = body["description"] { description = text } else { description = nil }
        let label = unlockedAddLabel(repository: repository, name: name, color: color, description: description, isDefault: false)
        let json = Self.labelJSON(label, fullName: fullName, apiURL: apiURL)
        return .json(201, JSONWriter.write(json),
                     headers: [("Location", "\(apiURL)/repos/\(fullName)/labels/\(Self.pathSegment(name))")])
    }
}
