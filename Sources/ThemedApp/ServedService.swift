import HTTPServer
import Synchronization
import ThemeServer

/// The service that answers requests once the first index is served. Every request reads it, on
/// every loop: it is set once and read without a lock, and a request borrows it without counting
/// a reference (a shared reference count would move between the cores at every request).
final class ServedService: HeadResponder {
    private let service = Atomic<Unmanaged<ThemeService>?>(nil)

    deinit { service.load(ordering: .acquiring)?.release() }

    /// Starts answering with `service` (a second call changes nothing).
    func serve(_ service: ThemeService) {
        let retained = Unmanaged.passRetained(service)
        if !self.service.compareExchange(expected: nil, desired: retained, ordering: .acquiringAndReleasing).exchanged {
            retained.release()
        }
    }

    /// The service, once it serves.
    var current: ThemeService? { service.load(ordering: .acquiring)?.takeUnretainedValue() }

    /// The service's answer to a request with no kept answer; nil before it serves.
    func handle(_ request: Request) -> Response? {
        service.load(ordering: .acquiring)?._withUnsafeGuaranteedRef { $0.answerRouted(request) }
    }

    /// The service's kept answer to the request `head` begins, with the fields the request adds
    /// written to `fields`; nil before it serves or when none is kept.
    func answer(_ head: RequestHead, requestFields: inout FieldLines) -> PreparedResponse? {
        service.load(ordering: .acquiring)?._withUnsafeGuaranteedRef { $0.answer(head, requestFields: &requestFields) }
    }
}
