extension GitHubClient {
    /// The results a parallel request with a callback per answer gives, in the order asked
    /// (one that never came is a timeout).
    static func collect<T>(_ count: Int, _ run: ((Int, Result<T, GitHubError>) -> Bool) -> Void) -> [Result<T, GitHubError>] {
        var results = [Result<T, GitHubError>?](repeating: nil, count: count)
        run { index, result in
            results[index] = result
            return true
        }
        return results.map { $0 ?? .failure(.network(.timeout)) }
    }

    /// GETs many URLs at once; each result is the final answer (any status; redirects are not
    /// followed) or the error that ended it, in the order asked. See `getAll(_:accept:each:)`.
    func getAll(_ wanted: [(url: String, etag: String?)], accept: String? = nil) -> [Result<HTTPResponse, GitHubError>] {
        Self.collect(wanted.count) { each in getAll(wanted, accept: accept, each: each) }
    }

    /// GETs many URLs at once (in parallel where the transport can), each conditional on its
    /// ETag, in one sliding window over them all. `each` gets every request's final result (by
    /// its index) as soon as it is known, and says whether to start more requests: once it says
    /// no, the requests not yet sent are not, and get no result. Answers are retried and waited
    /// for by the same rules as single requests (`disposition`), as a group, within the deadline.
    ///
    /// The round goes no faster than GitHub's secondary rate limits allow (`RequestPacer`), and at
    /// the first answer that says a rate limit is met, no further transfers start: a limit that
    /// lifts within the wait allowed is waited out, otherwise every request not answered fails
    /// with it (`GitHubClient+Pacing.swift`).
    ///
    /// Every request gets the attempts a request alone gets (`RetryPolicy.maximumAttempts`)
    /// unless GitHub as a whole is judged down. When the answers of a round say GitHub is
    /// failing (5xx, no connection or timeouts: every first answer of the round, or the last
    /// few in a row), no further transfers are started and none is retried but one, which is
    /// tried as hard as a request alone (`sendWithRetries`). If it gets an answer, GitHub is
    /// not down: the window carries on, every other request with the attempts it has left. If
    /// its last attempt fails too, GitHub is down, and that failure stands for every request not
    /// answered. So a window of one request that meets two 502s still gets its answer, and a
    /// GitHub that is down, or goes down part-way, sees a handful of requests more (the first
    /// round's, and one request's attempts), not every request times the attempts. Nothing
    /// starts once the deadline has passed.
    func getAll(_ wanted: [(url: String, etag: String?)], accept: String? = nil,
                each: (Int, Result<HTTPResponse, GitHubError>) -> Bool) {
        var attempts = [Int](repeating: 0, count: wanted.count)
        var pending = Array(wanted.indices)
        var lastFailure: GitHubError?
        var wantsMore = true
        func deliver(_ index: Int, _ result: Result<HTTPResponse, GitHubError>) {
            if !each(index, result) { wantsMore = false }
        }
        func giveUp(_ indices: [Int], _ error: GitHubError) {
            for index in indices where wantsMore { deliver(index, .failure(error)) }
        }
        while !pending.isEmpty && wantsMore {
            if let limit = heldByLimit() {
                giveUp(pending, limit)
                break
            }
            // As many as the secondary rate limits leave room for; the rest wait for a later round.
            let round = Array(pending.prefix(pacedRoom(for: pending.lazy.map { RequestPacer.Request(.get, wanted[$0].url) })))
            guard let timeouts = attemptTimeouts() else {
                giveUp(pending, .network(.timeout))
                break
            }
            let requests = round.map { index in
                HTTPRequest(url: wanted[index].url, headers: headers(for: wanted[index].url, etag: wanted[index].etag, accept: accept),
                            timeouts: timeouts)
            }
            var health = BatchHealth()
            var retry: [Int] = []
            var wait = 0
            var sent = 0
            var limitMet = false
            let started = Monotonic.milliseconds()
            let outcomes = transport.sendAll(requests) { position, outcome in
                let index = round[position]
                sent += 1
                switch outcome {
                case .success(let response): log("GET \(requests[position].url) -> \(response.status)")
                case .failure(let error): log("GET \(requests[position].url) failed: \(error.summary)")
                }
                let healthy = health.record(outcome)
                // A rate limit met: nothing more starts (what is in flight finishes).
                if Self.isRateLimit(outcome) { limitMet = true }
                attempts[index] += 1
                switch disposition(of: outcome, attempt: attempts[index]) {
                case .retry(let milliseconds):
                    retry.append(index)
                    wait = max(wait, milliseconds)
                    lastFailure = Self.failure(of: outcome)
                case .failed(let error):
                    lastFailure = error
                    deliver(index, .failure(error))
                case .answered(let response):
                    deliver(index, .success(response))
                }
                return healthy && !limitMet && wantsMore && attemptTimeouts() != nil
            }
            pacer.record(zip(round, outcomes).compactMap { index, outcome in
                outcome == nil ? nil : RequestPacer.Request(.get, wanted[index].url)
            })
            requestCount += sent
            log("GET \(sent) of \(requests.count) in parallel (\(Monotonic.milliseconds() - started) ms)")
            guard wantsMore else { break }
            retry.sort()
            let unsent = zip(round, outcomes).compactMap { index, outcome in outcome == nil ? index : nil }
                + pending.dropFirst(round.count)
            if health.isFailing {
                for index in unsent { log("GET \(wanted[index].url) not sent: GitHub is failing") }
                // GitHub looks down: one request, with every attempt a request alone gets, settles
                // it before any other is sent again.
                if let confirming = retry.first, pause(wait) {
                    do throws(GitHubError) {
                        let response = try sendWithRetries(.get, url: wanted[confirming].url, body: nil,
                                                           etag: wanted[confirming].etag, accept: accept,
                                                           attemptsMade: attempts[confirming])
                        if Self.isTransientFailure(.success(response)) {
                            // Its last attempt failed too: GitHub is down.
                            lastFailure = Self.failure(of: .success(response))
                        } else {
                            // It is answering: carry on with the rest, each with the attempts it has left.
                            deliver(confirming, .success(response))
                            pending = Array(retry.dropFirst()) + unsent
                            continue
                        }
                    } catch {
                        lastFailure = error
                    }
                }
                giveUp(retry + unsent, lastFailure ?? .network(.timeout))
                break
            }
            if !retry.isEmpty && !pause(wait) {
                giveUp(retry, lastFailure ?? .network(.timeout))
                retry = []
            }
            pending = retry + unsent
        }
    }
}

extension GitHubClient {
    /// Answers of `getAll`, each read by `read`: a redirect (a moved repository) is followed, a
    /// non-success is the error about its resource, and a success (or a 304) is decoded. `each`
    /// gets each result as soon as it is known, as in `getAll(_:accept:each:)`.
    func conditionalAll<T>(_ wanted: [(url: String, etag: String?, resource: GitHubResource)],
                           read: (HTTPResponse) throws(GitHubError) -> T,
                           each: (Int, Result<T, GitHubError>) -> Bool) {
        func result(_ index: Int, _ response: HTTPResponse) -> Result<T, GitHubError> {
            Result { () throws(GitHubError) in
                if let error = error(for: response, from: wanted[index].url, about: wanted[index].resource) { throw error }
                return try read(response)
            }
        }
        // Redirects (moved repositories, rare) are followed after the window, whose transfers
        // would otherwise wait on them.
        var redirected: [(index: Int, response: HTTPResponse)] = []
        var wantsMore = true
        getAll(wanted.map { (url: $0.url, etag: $0.etag) }) { index, answer in
            switch answer {
            case .success(let response) where Self.redirectStatuses.contains(response.status):
                redirected.append((index, response))
            case .success(let response):
                wantsMore = each(index, result(index, response))
            case .failure(let error):
                wantsMore = each(index, .failure(error))
            }
            return wantsMore
        }
        for (index, response) in redirected where wantsMore {
            let item = wanted[index]
            do throws(GitHubError) {
                let target = try get(try redirectTarget(of: response, from: item.url), ifNoneMatch: item.etag, about: item.resource)
                wantsMore = each(index, result(index, target))
            } catch {
                wantsMore = each(index, .failure(error))
            }
        }
    }

    /// The same, every result at once, in the order asked.
    func conditionalAll<T>(_ wanted: [(url: String, etag: String?, resource: GitHubResource)],
                           read: (HTTPResponse) throws(GitHubError) -> T) -> [Result<T, GitHubError>]
    {
        Self.collect(wanted.count) { each in conditionalAll(wanted, read: read, each: each) }
    }
}

extension GitHubClient {
    /// Whether an outcome is GitHub's answer that a rate limit, primary or secondary, is met.
    static func isRateLimit(_ outcome: Result<HTTPResponse, TransportError>) -> Bool {
        guard case .success(let response) = outcome, response.status == 403 || response.status == 429 else { return false }
        switch error(for: response) {
        case .rateLimited?, .secondaryRateLimited?: return true
        default: return false
        }
    }
}

/// The answers of one round of parallel requests so far: GitHub looks down when there are
/// transient failures and no other answer, or when the last `streak` answers in a row were
/// transient failures (it went down part-way through). One request then settles it (`getAll`).
struct BatchHealth {
    static let streak = 4
    private var answers = 0
    private var failures = 0
    private var failuresInARow = 0

    /// Counts one outcome; whether more transfers should start.
    mutating func record(_ outcome: Result<HTTPResponse, TransportError>) -> Bool {
        if GitHubClient.isTransientFailure(outcome) {
            failures += 1
            failuresInARow += 1
        } else {
            answers += 1
            failuresInARow = 0
        }
        return !isFailing
    }

    var isFailing: Bool { (failures > 0 && answers == 0) || failuresInARow >= Self.streak }
}
