//! The thread a search runs on, as the UCI loop and the screens' search service both use it:
//! jobs run one at a time, in order, on a thread with the search's stack, and the control of
//! the search under way is kept here, so that a new search or a stop can end it at once.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};

use crossbeam_channel::{Receiver, Sender, unbounded};

use crate::engine::{Control, SEARCH_STACK_BYTES};

/// A thread that takes jobs of type `J` and the control of the search it runs.
pub(crate) struct SearchThread<J> {
    jobs: Option<Sender<J>>,
    current: Mutex<Option<Arc<Control>>>,
    handle: Option<JoinHandle<()>>,
}

impl<J: Send + 'static> SearchThread<J> {
    /// Starts the thread `name`, running `serve` over the jobs until every sender is gone.
    pub(crate) fn spawn(
        name: &str,
        serve: impl FnOnce(Receiver<J>) + Send + 'static,
    ) -> SearchThread<J> {
        let (jobs, rx) = unbounded();
        let handle = thread::Builder::new()
            .name(name.into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || serve(rx))
            // Without its search thread nothing can search: there is no way on.
            .expect("spawning the search thread");
        SearchThread {
            jobs: Some(jobs),
            current: Mutex::new(None),
            handle: Some(handle),
        }
    }

    /// Queues `job` behind the ones before it.
    pub(crate) fn post(&self, job: J) {
        if let Some(jobs) = &self.jobs {
            // The thread ends only when the senders are gone, so this cannot fail while we live.
            let _ = jobs.send(job);
        }
    }

    /// A fresh control for the next search, kept as the current one; the search under way, if
    /// any, is stopped (the latest request wins).
    pub(crate) fn begin(&self) -> Arc<Control> {
        let control = Arc::new(Control::default());
        if let Some(old) = self.lock().replace(control.clone()) {
            old.stop.store(true, Ordering::Release);
        }
        control
    }

    /// The control of the latest search, if any.
    pub(crate) fn current(&self) -> Option<Arc<Control>> {
        self.lock().clone()
    }

    /// Stops the search under way, if any; its result still arrives.
    pub(crate) fn stop(&self) {
        if let Some(control) = self.current() {
            control.stop.store(true, Ordering::Release);
        }
    }

    /// Stops the search, lets the jobs already queued finish and waits for the thread to end.
    pub(crate) fn finish(&mut self) {
        self.stop();
        self.jobs = None;
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

impl<J> SearchThread<J> {
    /// The current control; a panic while it was held cannot have left it half-written.
    fn lock(&self) -> MutexGuard<'_, Option<Arc<Control>>> {
        self.current.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<J> Drop for SearchThread<J> {
    fn drop(&mut self) {
        // The thread ends on its own once the channel closes (after the search now stopped).
        if let Some(control) = self.lock().as_ref() {
            control.stop.store(true, Ordering::Release);
        }
    }
}
