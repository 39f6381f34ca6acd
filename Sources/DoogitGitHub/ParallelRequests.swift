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

    /// GETs many URLs at once; each result is the final answer (any status, a redirect followed
    /// to its end) or the error that ended it, in the order asked. See `getAll(_:accept:each:)`.
    func getAll(_ wanted: [(url: String, etag: String?)], accept: String? = nil) -> [Result<HTTPResponse, GitHubError>] {
        Self.collect(wanted.count) { each in getAll(wanted, accept: accept, each: each) }
    }

    /// GETs many URLs at once (in parallel where the transport can), each conditional on its
    /// ETag, in one sliding window over them all. `each` gets every request's final result (by
    /// its index) as soon as it is known, and says whether to start more requests: once it says
    /// no, the requests not yet sent are not, and get no result. Answers are retried and waited
    /// for by the same rules as single requests (`disposition`), as a group, within the deadline.
    /// A redirect (GitHub's 301 for a repository renamed or transferred since) is followed as a
    /// request alone follows it, within the API's origin: its target is asked in the window's
    /// next round, with the same ETag, and its answer is the request's (`HTTPResponse.redirected`).
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
        getAll(wanted.map { (url: $0.url, etag: $0.etag, accept: accept) }, each: each)
    }

    /// The same, each request with the media type it accepts (nil: GitHub's JSON): requests of
    /// different kinds (a blob raw, a tree as JSON) in one window.
    func getAll(_ wanted: [(url: String, etag: String?, accept: String?)], each: (Int, Result<HTTPResponse, GitHubError>) -> Bool) {
        var asked = wanted.map { WindowedGet(url: $0.url, etag: $0.etag, accept: $0.accept) }
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
            let room = pacedRoom(for: pending.lazy.map { RequestPacer.Request(.get, asked[$0].url) })
            guard let timeouts = attemptTimeouts() else {
                giveUp(pending, .network(.timeout))
                break
            }
            var round = sendRound(Array(pending.prefix(room)), &asked, timeouts: timeouts,
                                  lastFailure: &lastFailure, wantsMore: { wantsMore }, deliver: deliver)
            guard wantsMore else { break }
            let unsent = round.unsent + pending.dropFirst(room)
            if round.health.isFailing {
                for index in unsent { log("GET \(asked[index].url) not sent: GitHub is failing") }
                // GitHub looks down: one request, with every attempt a request alone gets, settles
                // it before any other is sent again.
                if let confirming = round.retry.first, pause(round.wait) {
                    switch confirmAnswering(asked[confirming]) {
                    case .success(let response):
                        // It is answering: carry on with the rest, each with the attempts it has left.
                        settle(confirming, response, &asked[confirming], followed: &round.followed, deliver: deliver)
                        pending = Array(round.retry.dropFirst()) + round.followed + unsent
                        continue
                    case .failure(let error):
                        lastFailure = error
                    }
                }
                giveUp(round.retry + round.followed + unsent, lastFailure ?? .network(.timeout))
                break
            }
            if !round.retry.isEmpty && !pause(round.wait) {
                giveUp(round.retry, lastFailure ?? .network(.timeout))
                round.retry = []
            }
            pending = round.retry + round.followed + unsent
        }
    }

    /// One round of a window: its requests in one sliding window of the transport, each answer
    /// delivered, retried (`retry`, after `wait`) or followed to where it redirects (`followed`)
    /// by the rules of a request alone; the requests not sent (`unsent`) once an answer says
    /// that GitHub is failing or a rate limit is met, the caller wants no more, or the deadline
    /// has passed.
    private func sendRound(_ round: [Int], _ asked: inout [WindowedGet], timeouts: HTTPTimeouts,
                           lastFailure: inout GitHubError?, wantsMore: () -> Bool,
                           deliver: (Int, Result<HTTPResponse, GitHubError>) -> Void) -> WindowRound {
        let requests = round.map { index in
            HTTPRequest(url: asked[index].url, headers: headers(for: asked[index].url, etag: asked[index].etag, accept: asked[index].accept),
                        timeouts: timeouts)
        }
        var result = WindowRound()
        var sent = 0
        var limitMet = false
        let started = Monotonic.milliseconds()
        let outcomes = transport.sendAll(requests) { position, outcome in
            let index = round[position]
            sent += 1
            logAnswer(requests[position], outcome)
            let healthy = result.health.record(outcome)
            // A rate limit met: nothing more starts (what is in flight finishes).
            if Self.isRateLimit(outcome) { limitMet = true }
            asked[index].attempts += 1
            switch disposition(of: outcome, attempt: asked[index].attempts) {
            case .retry(let milliseconds):
                result.retry.append(index)
                result.wait = max(result.wait, milliseconds)
                lastFailure = Self.failure(of: outcome)
            case .failed(let error):
                lastFailure = error
                deliver(index, .failure(error))
            case .answered(let response):
                settle(index, response, &asked[index], followed: &result.followed, deliver: deliver)
            }
            return healthy && !limitMet && wantsMore() && attemptTimeouts() != nil
        }
        pacer.record(zip(requests, outcomes).compactMap { request, outcome in
            outcome == nil ? nil : RequestPacer.Request(.get, request.url)
        })
        requestCount += sent
        log("GET \(sent) of \(requests.count) in parallel (\(Monotonic.milliseconds() - started) ms)")
        result.retry.sort()
        result.unsent = zip(round, outcomes).compactMap { index, outcome in outcome == nil ? index : nil }
        return result
    }

    /// An answer is the request's, unless it is a redirect: then the request asks its target in
    /// the next round (`followed`), or fails as a request alone would.
    private func settle(_ index: Int, _ response: HTTPResponse, _ get: inout WindowedGet, followed: inout [Int],
                        deliver: (Int, Result<HTTPResponse, GitHubError>) -> Void) {
        guard Self.redirectStatuses.contains(response.status) else {
            var response = response
            response.redirected = get.redirects > 0
            return deliver(index, .success(response))
        }
        do throws(GitHubError) {
            try follow(response, &get)
            followed.append(index)
        } catch {
            deliver(index, .failure(error))
        }
    }

    /// The request a redirect points to, within the API's origin (`redirectTarget`), with the
    /// attempts of a request alone; at most `maximumRedirects` of them, as for a request alone.
    private func follow(_ response: HTTPResponse, _ get: inout WindowedGet) throws(GitHubError) {
        guard get.redirects < Self.maximumRedirects else { throw .tooManyRedirects }
        get.url = try redirectTarget(of: response, from: get.url)
        get.redirects += 1
        get.attempts = 0
    }

    /// The request that settles whether GitHub is down, with the attempts it has left: its answer
    /// (GitHub is answering), or the failure of its last attempt (GitHub is down).
    private func confirmAnswering(_ get: WindowedGet) -> Result<HTTPResponse, GitHubError> {
        do throws(GitHubError) {
            let response = try sendWithRetries(.get, url: get.url, body: nil, etag: get.etag, accept: get.accept,
                                               attemptsMade: get.attempts)
            // Its last attempt failed too: GitHub is down.
            if Self.isTransientFailure(.success(response)) { return .failure(Self.failure(of: .success(response))) }
            return .success(response)
        } catch {
            return .failure(error)
        }
    }

    private func logAnswer(_ request: HTTPRequest, _ outcome: Result<HTTPResponse, TransportError>) {
        switch outcome {
        case .success(let response): log("GET \(request.url) -> \(response.status)")
        case .failure(let error): log("GET \(request.url) failed: \(error.summary)")
        }
    }
}

/// What one round of a `getAll` window came to (`sendRound`).
struct WindowRound {
    var retry: [Int] = []
    var followed: [Int] = []
    /// The longest wait a retry asks for.
    var wait = 0
    var unsent: [Int] = []
    var health = BatchHealth()
}

/// One request of a `getAll` window as it goes: the URL it asks now (a redirect's target once
/// one was followed), with its ETag and media type, the attempts it had there and the redirects
/// it followed.
struct WindowedGet {
    var url: String
    let etag: String?
    let accept: String?
    var attempts = 0
    var redirects = 0
}

extension GitHubClient {
    /// Answers of `getAll`, each read by `read`: a non-success is the error about its resource,
    /// and a success (or a 304) is decoded. `each` gets each result as soon as it is known, as in
    /// `getAll(_:accept:each:)`.
    func conditionalAll<T>(_ wanted: [(url: String, etag: String?, resource: GitHubResource)],
                           read: (HTTPResponse) throws(GitHubError) -> T,
                           each: (Int, Result<T, GitHubError>) -> Bool) {
        getAll(wanted.map { (url: $0.url, etag: $0.etag) }) { index, answer in
            each(index, answer.flatMap { response in
                Result { () throws(GitHubError) in
                    if let error = error(for: response, from: wanted[index].url, about: wanted[index].resource) { throw error }
                    return try read(response)
                }
            })
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
