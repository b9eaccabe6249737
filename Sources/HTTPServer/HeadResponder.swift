/// The one seam for kept answers: what a service implements to answer a request from its checked
/// head alone, before a `Request` is made of it.
///
/// The server (`Connection`) asks its responder first for every request whose head is complete.
/// An answer is a `PreparedResponse` (status line, header lines and body serialised once, shared by
/// every request that gets it) and the fields this request adds to it (its id, the CORS lines for
/// its Origin), written to `requestFields`: lines the server hands over empty, their storage
/// reused from request to request. The server then copies the prepared head, those lines, its own
/// (Connection, Date) and the body into the connection's outbox: no String, no field list, no
/// `Response` is made. nil hands the request to the server's `Handler`, made into a `Request`.
///
/// Everything the fast path needs is behind this protocol and the types it names: `RequestHead`
/// (the target and fields as received, checked by the parser), `PreparedResponse`, `FieldLines`,
/// and `RequestHead.loop` for state a responder keeps per event loop (`PerLoop`). It runs on an
/// event loop: it must not block.
public protocol HeadResponder: Sendable {
    func answer(_ head: RequestHead, requestFields: inout FieldLines) -> PreparedResponse?
}
