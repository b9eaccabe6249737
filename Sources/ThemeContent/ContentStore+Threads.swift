import Dispatch

extension ContentStore {
    /// Waits until the warming queued so far is done (for tools and tests).
    public func waitForWarming() {
        let done = DispatchSemaphore(value: 0)
        guard warmer.then({ done.signal() }) else { return }
        done.wait()
    }

    /// Ends the store's threads, the warming's first (it may wait on a decoder), then the
    /// decoders' and the transforms'. True when every thread ended within its pool's timeout.
    @discardableResult
    public func shutdown() -> Bool {
        let warming = warmer.shutdown()
        let decoding = workers.shutdown()
        return warming && decoding && transforms?.shutdown() != false
    }
}
