import DoogitSupport
import Foundation

/// The GitHub response examples in `Tests/Fixtures/github`.
public enum Fixtures {
    public static let directory: String = {
        let here = URL(fileURLWithPath: #filePath)
        return here.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/github").path
    }()

    public static func text(_ name: String) -> String {
        (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
    }

    public static func json(_ name: String) -> JSONValue {
        (try? JSONParser.parse(text(name))) ?? .null
    }
}

extension JSONValue {
    /// A copy with the members named in `changes` replaced (or added).
    public func replacing(_ changes: [String: JSONValue]) -> JSONValue {
        guard case .object(var members) = self else { return self }
        for (key, value) in changes {
            if let index = members.firstIndex(where: { $0.key == key }) {
                members[index].value = value
            } else {
                members.append(JSONMember(key, value))
            }
        }
        return .object(members)
    }
}
