import DoogitSupport

/// `remote.jsonl`: what the machines that share the remote know of each other.
///
///     {"format":"doogit","version":"3.0"}
///     {"type":"remote","generation":12,"compacted":"…","horizonDays":90,"branch":"main","clock":{"horizonDays":"…"}}
///     {"type":"machine","id":"3f2a9c1b7d4e","name":"laptop","generation":12,"exchangedAt":"2026-…Z","forgotten":false,"clock":{"forgotten":"…"}}
///
/// Every commit an exchange makes counts one `generation` more. A machine records the
/// generation it last merged whole and when; a removal leaves the remote once every machine that
/// exchanged within the horizon has merged it (or once it is older than the horizon), and the
/// remote's `compacted` point grows past it, so that a machine back from longer away removes what
/// it still holds of it instead of bringing it back. `branch` names the branch the files are on, so
/// that a machine that joins finds them there even after the repository's default branch moved
/// (an older doogit's file names none: the branch it is on).
public struct RemoteMeta: Equatable, Sendable {
    public static let defaultHorizonDays: Int64 = 90
    public static let dayMilliseconds: Int64 = 86_400_000
    /// The horizons `remote set --horizon` takes, and the only ones read from the file: a value
    /// written there by hand outside them is a bad line, not a day count that overflows.
    public static let horizonDaysRange: ClosedRange<Int64> = 1...3650
    /// The generations read from the file: JSON's exact integers (2^53 - 1), far beyond any
    /// number of commits, so that counting one more never overflows.
    public static let generationRange: ClosedRange<Int64> = 0...9_007_199_254_740_991

    /// The generation after `generation`, which stays at the last one rather than overflow.
    public static func generation(after generation: Int64) -> Int64 {
        min(max(generation, generationRange.lowerBound), generationRange.upperBound - 1) + 1
    }

    /// The start of a horizon of `days` before `now`: removals made before it are past the
    /// horizon. `days` is brought within `horizonDaysRange`, so the arithmetic cannot overflow.
    public static func horizonStart(days: Int64, before now: Timestamp) -> Timestamp {
        let days = min(max(days, horizonDaysRange.lowerBound), horizonDaysRange.upperBound)
        let (start, overflow) = now.millisecondsSinceEpoch.subtractingReportingOverflow(days * dayMilliseconds)
        return Timestamp(millisecondsSinceEpoch: overflow ? Int64.min : start)
    }

    public var generation: Int64
    /// Every removal (and untracked repository) that left the remote was stamped up to here.
    public var compacted: HybridTimestamp
    public var horizonDays: Register<Int64>
    /// The branch every machine writes (nil: not recorded).
    public var branch: String?
    /// Whether every machine keeps the board (`board on`): written as a line of its own once
    /// a machine asked, so a remote without a board stays byte for byte as before.
    public var board = Register(false, at: .zero)
    public var machines: [String: MachineRecord]
    /// What a newer minor version adds, kept as it was.
    public var formatMinor: Int
    public var headerUnknown: UnknownFields
    public var unknownLines: Set<String>

    public init(generation: Int64 = 0, compacted: HybridTimestamp = .zero,
                horizonDays: Register<Int64> = Register(defaultHorizonDays, at: .zero), machines: [String: MachineRecord] = [:]) {
        self.generation = generation
        self.compacted = compacted
        self.horizonDays = horizonDays
        self.machines = machines
        formatMinor = 0
        headerUnknown = UnknownFields()
        unknownLines = []
    }

    /// The machines whose merges a removal waits for: not forgotten, and exchanged within the horizon.
    public func activeMachines(at now: Timestamp) -> [MachineRecord] {
        let since = Self.horizonStart(days: horizonDays.value, before: now).millisecondsSinceEpoch
        return machines.values.filter { !$0.forgotten.value && $0.exchangedAt.millisecondsSinceEpoch >= since }
    }

    /// The latest generation that every active machine has merged.
    public func mergedByAll(at now: Timestamp) -> Int64 {
        activeMachines(at: now).map(\.generation).min() ?? generation
    }

    /// Whether a removal made at `removedAt` is older than the horizon.
    public func isPastHorizon(_ removedAt: HybridTimestamp, at now: Timestamp) -> Bool {
        isPastHorizon(removedAt.timestamp, at: now)
    }

    public func isPastHorizon(_ time: Timestamp, at now: Timestamp) -> Bool {
        time.millisecondsSinceEpoch < Self.horizonStart(days: horizonDays.value, before: now).millisecondsSinceEpoch
    }
}

/// A machine that exchanges with the remote: its id (its stamps'), a name to know it by, the
/// generation of the remote it last merged whole, and when it last exchanged.
public struct MachineRecord: Equatable, Sendable {
    public var id: String
    public var name: String
    public var generation: Int64
    public var exchangedAt: Timestamp
    /// Set by `remote forget`: removals no longer wait for it (until it exchanges again).
    public var forgotten: Register<Bool>

    public init(id: String, name: String, generation: Int64, exchangedAt: Timestamp, forgotten: Register<Bool> = Register(false, at: .zero)) {
        self.id = id
        self.name = name
        self.generation = generation
        self.exchangedAt = exchangedAt
        self.forgotten = forgotten
    }
}

extension RemoteMeta {
    public func encode() -> [UInt8] {
        var out: [UInt8] = []
        var header = JSONStream(indented: false)
        header.beginObject()
        header.key("format"); header.string(TodoFile.formatName)
        header.key("version"); header.string("\(TodoFile.majorVersion).\(max(TodoFile.minorVersion, formatMinor))")
        for name in headerUnknown.names {
            guard let value = headerUnknown[name]?.value else { continue }
            header.key(named: name); header.value(value)
        }
        header.endObject()
        out += header.bytes + [0x0A]
        var remote = JSONStream(indented: false)
        remote.beginObject()
        remote.key("type"); remote.string("remote")
        remote.key("generation"); remote.int(generation)
        remote.key("compacted"); remote.string(compacted.text)
        remote.key("horizonDays"); remote.int(horizonDays.value)
        if let branch { remote.key("branch"); remote.string(branch) }
        remote.key("clock"); remote.beginObject(); remote.key("horizonDays"); remote.string(horizonDays.stamp.text); remote.endObject()
        remote.endObject()
        out += remote.bytes + [0x0A]
        if board.stamp != .zero {
            var line = JSONStream(indented: false)
            line.beginObject()
            line.key("type"); line.string("board")
            line.key("on"); line.bool(board.value)
            line.key("clock"); line.beginObject(); line.key("on"); line.string(board.stamp.text); line.endObject()
            line.endObject()
            out += line.bytes + [0x0A]
        }
        for id in machines.keys.sorted() {
            guard let machine = machines[id] else { continue }
            var json = JSONStream(indented: false)
            json.beginObject()
            json.key("type"); json.string("machine")
            json.key("id"); json.string(machine.id)
            json.key("name"); json.string(machine.name)
            json.key("generation"); json.int(machine.generation)
            json.key("exchangedAt"); json.string(machine.exchangedAt.rfc3339)
            json.key("forgotten"); json.bool(machine.forgotten.value)
            json.key("clock"); json.beginObject(); json.key("forgotten"); json.string(machine.forgotten.stamp.text); json.endObject()
            json.endObject()
            out += json.bytes + [0x0A]
        }
        for line in unknownLines.sorted() { out += Array(line.utf8) + [0x0A] }
        return out
    }

    /// Reads `remote.jsonl`; a value without its stamp (edited by hand) is taken at `handEdit`.
    public static func decode(_ bytes: [UInt8], handEdit: HybridTimestamp? = nil) throws(TodoFileError) -> RemoteMeta {
        var meta = RemoteMeta()
        var header: Replica?
        var lineNumber = 0
        for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = Array(raw.last == 0x0D ? raw.dropLast() : raw)
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard case .object(let members)? = try? JSONParser.parse(line) else {
                throw .badLine(line: lineNumber, reason: "not a JSON object")
            }
            guard header != nil else {
                var read = Replica()
                _ = try TodoFile.readHeader(members, into: &read, line: lineNumber)
                (meta.formatMinor, meta.headerUnknown, header) = (read.formatMinor, read.headerUnknown, read)
                continue
            }
            let json = JSONValue.object(members)
            do {
                func stamp(_ name: String) throws -> HybridTimestamp {
                    if case .string(let text)? = json["clock"]?[name], let stamp = HybridTimestamp(text: text) { return stamp }
                    guard let handEdit else { throw JSONError.missing(field: "clock.\(name)") }
                    return handEdit
                }
                switch json["type"] {
                case .string("remote")?:
                    meta.generation = try generation(json)
                    guard let compacted = HybridTimestamp(text: try json.string("compacted")) else {
                        throw JSONError.wrongType(field: "compacted", expected: "a stamp")
                    }
                    meta.compacted = compacted
                    let days = try json.int64("horizonDays")
                    guard horizonDaysRange.contains(days) else {
                        throw JSONError.wrongType(field: "horizonDays", expected: "a number of days from 1 to 3650")
                    }
                    meta.horizonDays = Register(days, at: try stamp("horizonDays"))
                    meta.branch = try json.optionalString("branch")
                case .string("board")?:
                    meta.board = Register(try json.bool("on"), at: try stamp("on"))
                case .string("machine")?:
                    let id = try json.string("id")
                    guard HybridTimestamp.isMachineID(id) else { throw JSONError.wrongType(field: "id", expected: "a machine id") }
                    guard let exchangedAt = Timestamp(rfc3339: try json.string("exchangedAt")) else {
                        throw JSONError.wrongType(field: "exchangedAt", expected: "a time")
                    }
                    meta.machines[id] = MachineRecord(
                        id: id, name: try json.optionalString("name") ?? "", generation: try generation(json),
                        exchangedAt: exchangedAt, forgotten: Register(try json.optionalBool("forgotten") ?? false, at: try stamp("forgotten")))
                case .string?:
                    var stream = JSONStream(indented: false)
                    stream.value(json)
                    meta.unknownLines.insert(String(decoding: stream.bytes, as: UTF8.self))
                default:
                    throw JSONError.missing(field: "type")
                }
            } catch let error as JSONError {
                throw .badLine(line: lineNumber, reason: TodoFile.describe(error))
            } catch {
                throw .badLine(line: lineNumber, reason: "\(error)")
            }
        }
        guard header != nil else { throw .badLine(line: 1, reason: "empty file: no header") }
        return meta
    }

    private static func generation(_ json: JSONValue) throws(JSONError) -> Int64 {
        let generation = try json.int64("generation")
        guard generationRange.contains(generation) else {
            throw .wrongType(field: "generation", expected: "a count of commits from 0 to 2^53 - 1")
        }
        return generation
    }
}
