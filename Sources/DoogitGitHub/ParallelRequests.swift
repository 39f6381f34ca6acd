extension GitHubClient {
    /// GETs many URLs at once (in parallel where the transport can), each conditional on its
    /// ETag. Answers are retried and waited for by the same rules as single requests
    /// (`disposition`), as a group, within the deadline. Each result is the final answer (any
    /// status; redirects are not followed) or the error that ended it; in the order asked.
    ///
    /// When the answers of a round say GitHub is failing (5xx, no connection or timeouts, and not
    /// one answer besides), no further transfers are started and none is retried: one request
    /// confirms the failure, which then stands for every request not answered. So a GitHub that
    /// is down sees a handful of requests, not every request of the batch times the attempts.
    func getAll(_ wanted: [(url: String, etag: String?)], accept: String? = nil) -> [Result<HTTPResponse, GitHubError>] {
        var results = [Result<HTTPResponse, GitHubError>?](repeating: nil, count: wanted.count)
        var attempts = [Int](repeating: 0, count: wanted.count)
        var pending = Array(wanted.indices)
        var lastFailure: GitHubError?
        while !pending.isEmpty {
            guard let timeouts = attemptTimeouts() else { break }
            let requests = pending.map { index in
                HTTPRequest(url: wanted[index].url, headers: headers(for: wanted[index].url, etag: wanted[index].etag, accept: accept),
                            timeouts: timeouts)
            }
            var health = BatchHealth()
            let started = Monotonic.milliseconds()
            let outcomes = transport.sendAll(requests, keepStarting: { health.record($0) })
            let sent = outcomes.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
            requestCount += sent
            // Each request with its answer, as single requests are logged, then the batch's time.
            for (request, outcome) in zip(requests, outcomes) {
                switch outcome {
                case .success(let response)?: log("GET \(request.url) -> \(response.status)")
                case .failure(let error)?: log("GET \(request.url) failed: \(error.summary)")
                case nil: log("GET \(request.url) not sent: GitHub is failing")
                }
            }
            log("GET \(sent) of \(requests.count) in parallel (\(Monotonic.milliseconds() - started) ms)")
            var retry: [Int] = []
            var unsent: [Int] = []
            var wait = 0
            for (index, outcome) in zip(pending, outcomes) {
                guard let outcome else {
                    unsent.append(index)
                    continue
                }
                attempts[index] += 1
                switch disposition(of: outcome, attempt: attempts[index]) {
                case .retry(let milliseconds):
                    retry.append(index)
                    wait = max(wait, milliseconds)
                    lastFailure = Self.failure(of: outcome)
                case .failed(let error):
                    results[index] = .failure(error)
                    lastFailure = error
                case .answered(let response):
                    results[index] = .success(response)
                }
            }
            if health.isFailing {
                // GitHub looks down: one request confirms it before any other is sent again.
                if let confirming = retry.first, pause(wait), let timeouts = attemptTimeouts() {
                    attempts[confirming] += 1
                    let outcome = sendOnce(.get, url: wanted[confirming].url, body: nil, etag: wanted[confirming].etag,
                                           timeouts: timeouts, accept: accept)
                    switch disposition(of: outcome, attempt: attempts[confirming]) {
                    case .answered(let response) where Self.isTransientFailure(.success(response)):
                        // Its last attempt failed too: GitHub is still failing.
                        lastFailure = Self.failure(of: .success(response))
                    case .answered(let response):
                        // It is answering again: carry on with the rest.
                        results[confirming] = .success(response)
                        pending = Array(retry.dropFirst()) + unsent
                        continue
                    case .failed(let error):
                        lastFailure = error
                    case .retry:
                        lastFailure = Self.failure(of: outcome)
                    }
                }
                for index in retry + unsent { results[index] = .failure(lastFailure ?? .network(.timeout)) }
                break
            }
            if !retry.isEmpty && !pause(wait) {
                for index in retry { results[index] = .failure(lastFailure ?? .network(.timeout)) }
                retry = []
            }
            pending = retry + unsent
        }
        return results.map { $0 ?? .failure(.network(.timeout)) }
    }
}

/// The answers of one round of parallel requests so far: GitHub is failing when there are
/// transient failures and no other answer.
struct BatchHealth {
    private var answers = 0
    private var failures = 0

    /// Counts one outcome; whether more transfers should start.
    mutating func record(_ outcome: Result<HTTPResponse, TransportError>) -> Bool {
        if GitHubClient.isTransientFailure(outcome) { failures += 1 } else { answers += 1 }
        return !isFailing
    }

    var isFailing: Bool { failures > 0 && answers == 0 }
}
