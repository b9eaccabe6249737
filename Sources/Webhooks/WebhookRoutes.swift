import Foundation
import HTTPServer
import JSON
import ThemeServer

/// `GET /webhooks/deliveries`: the messages not delivered after every try (the dead letters),
/// and how many are still waiting (with a cluster store, the store's lists, the same on every
/// replica; 503 when it does not answer). For the operator only (`OperatorCheck`, as `PUT /active`):
/// the list names the subscribers' URLs.
public struct WebhookRoutes: RouteCollection {
    let dispatcher: WebhookDispatcher
    let operators: OperatorCheck

    public init(dispatcher: WebhookDispatcher, operators: OperatorCheck) {
        (self.dispatcher, self.operators) = (dispatcher, operators)
    }

    public var routes: [Route] {
        [.get("/webhooks/deliveries", label: "webhooks", crossOrigin: false) { context in
            guard operators.allows(context.request) else { throw operators.refusal(of: context.request, changing: "webhook deliveries") }
            let (waiting, failures): (Int, [WebhookFailure])
            do {
                (waiting, failures) = (try dispatcher.waiting(), try dispatcher.failures())
            } catch {
                return APIError(status: .serviceUnavailable, code: "cluster_unavailable", message: "the webhook outbox did not answer: \(error)").response
            }
            let formatter = ISO8601DateFormatter()
            return try JSONResponse.make(encoding: Deliveries(pending: waiting, failed: failures.map { failure in
                Deliveries.Failed(id: failure.id, type: failure.type, url: failure.url, attempts: failure.attempts, error: failure.error,
                                  at: formatter.string(from: failure.at))
            }), cacheControl: "no-store")
        }]
    }

    /// `GET /webhooks/deliveries`: messages not yet posted to every subscriber, and those given up on.
    struct Deliveries: Encodable {
        struct Failed: Encodable {
            var id: String
            var type: String
            var url: String
            var attempts: Int
            var error: String
            var at: String
        }

        var pending: Int
        var failed: [Failed]
    }
}
