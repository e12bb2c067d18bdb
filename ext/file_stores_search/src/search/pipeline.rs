//! The ordered pipeline behind a search: items come in sequence (path)
//! order, several threads search them at once, and the calling thread
//! takes the outcomes in that same order, with no barrier between groups
//! of items.
//!
//! Why: searching files in fixed batches and waiting for each batch to end
//! stalls the whole search whenever one thread of the batch is descheduled
//! (a busy machine), once per batch. Here nobody waits for a group:
//!
//! - Items sit in a queue in sequence order, each slot `Queued`, then
//!   `Running` while a thread searches it, then `Done` with its outcome (a
//!   reorder buffer). Threads claim the next queued item one at a time.
//! - The calling thread is the drainer: it takes the `Done` outcomes at the
//!   head, in order, and hands them on. It also searches, whenever no
//!   outcome is ready, so a search never waits for a helper to be scheduled
//!   and finishes even with no helper at all.
//! - Helpers are jobs on the process's pool ([`file_stores_store::pool`]), started by
//!   the drainer while there is work for them. A helper never holds a pool
//!   thread for long while another call uses the pool: it leaves as soon as
//!   nothing may be claimed (except while the listing is merely behind),
//!   and at the end of a turn of a few milliseconds when the pool is shared
//!   ([`file_stores_store::pool::shared`]); the drainer starts it again, through the
//!   pool's shared queue, behind the jobs other searches queued meanwhile.
//!   So a short search is not held up by a long one running beside it, and
//!   a search alone does not pay for leaving and starting again.
//! - Items come all at once ([`Pipeline::with_items`]), or from a producer
//!   (the folder walk) that the drainer itself asks for more, between two
//!   items it searches or hands on, keeping a queue that grows from a few
//!   dozen items to `capacity`: no thread of its own to wait for, so a
//!   search that stops in its first files never waits for one to be
//!   scheduled, and lists little beyond them.
//! - Look-ahead is bounded: items at most `ahead` places past the head may
//!   be claimed, and at most `capacity` items are queued, so a capped search
//!   does little wasted work and memory stays bounded whatever the tree.
//! - Halting (the consumer said stop, an error, a cancel, a panic) stops
//!   claims and producing at once; [`Pipeline::halt_flag`] lets a search
//!   under way stop reading early. Outcomes after a halt are never handed on.
//!
//! Output order is the sequence order, whatever the threads, so the output
//! is deterministic.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

/// How long a helper may hold a pool thread before it leaves, to be started
/// again behind the jobs other searches queued meanwhile.
const HELPER_TURN: Duration = Duration::from_millis(5);

/// How long the drainer sleeps before it looks at the cancel flag again,
/// should no thread wake it (a safety net: every change that matters to it
/// wakes it).
const DRAINER_NAP: Duration = Duration::from_millis(20);

/// Items asked of the producer at a time: few enough that the first file
/// is searched soon after a search starts, and that the drainer searches
/// or hands on outcomes between two asks.
const PRODUCE_CHUNK: usize = 64;
/// Items kept queued at first; the number grows by two for each outcome
/// handed on, up to the pipeline's capacity. A search that stops at its
/// cap within its first files lists little beyond them, and a long one
/// soon has the whole window queued.
const QUEUED_AT_FIRST: usize = 64;

/// The producer of an open pipeline, asked by the drainer: it adds up to
/// `room` items (at least one) to the vector and says whether more may
/// come, or fails the search.
pub(super) type Producer<'p, I, E> = dyn FnMut(&mut Vec<I>, usize) -> Result<bool, E> + 'p;

/// What [`Pipeline::drain`] works with: its helpers, where items come
/// from, how one is searched, where outcomes go, and how it stops.
pub(super) struct Drain<'d, 'p, I, E, Init, Work, Consume, Check, Broken> {
    /// At most this many helpers run at once.
    pub(super) helpers: usize,
    /// Starts one helper: each call must run [`Pipeline::help`] once, on
    /// another thread.
    pub(super) spawn: &'d dyn Fn(),
    /// The items of an open pipeline (made with [`Pipeline::new`]), asked
    /// for more whenever there is room; `None` for a pipeline made with
    /// its items.
    pub(super) produce: Option<&'d mut Producer<'p, I, E>>,
    /// Makes the drainer's own searcher state, when it first searches.
    pub(super) init: Init,
    /// Searches one item.
    pub(super) work: Work,
    /// Takes the outcomes in sequence order; returns false to stop.
    pub(super) consume: Consume,
    /// Asked between items: an error cancels.
    pub(super) check: Check,
    /// The error when a helper panicked.
    pub(super) broken: Broken,
}

enum Slot<I, O> {
    Queued(I),
    Running,
    Done(I, O),
}

struct State<I, O> {
    /// From the head (sequence number `base`): `Running` or `Done` slots
    /// up to `claimed`, `Queued` ones after.
    slots: VecDeque<Slot<I, O>>,
    base: u64,
    claimed: usize,
    /// No more items will be pushed.
    closed: bool,
    halted: bool,
    /// Helper jobs started and not yet returned, and how many may be.
    helpers: usize,
    max_helpers: usize,
    /// Helpers waiting for the producer.
    idle_helpers: usize,
    drainer_waits: bool,
    /// A thread panicked while it held an item.
    broken: bool,
}

/// What ended a drain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum End {
    /// Every item was handed on.
    Finished,
    /// The consumer said stop.
    Stopped,
}

/// See the module docs.
pub(super) struct Pipeline<I, O> {
    state: Mutex<State<I, O>>,
    /// The drainer waits here for the head outcome, a claimable item, or the end.
    drainer: Condvar,
    /// Helpers wait here for the producer.
    helpers: Condvar,
    halted: AtomicBool,
    ahead: usize,
    capacity: usize,
}

impl<I, O> Pipeline<I, O> {
    /// An open pipeline: items at most `ahead` places past the head may be
    /// searched, and at most `capacity` (at least `ahead`) are queued.
    pub(super) fn new(ahead: usize, capacity: usize) -> Self {
        let ahead = ahead.max(1);
        Pipeline {
            state: Mutex::new(State {
                slots: VecDeque::new(),
                base: 0,
                claimed: 0,
                closed: false,
                halted: false,
                helpers: 0,
                max_helpers: 0,
                idle_helpers: 0,
                drainer_waits: false,
                broken: false,
            }),
            drainer: Condvar::new(),
            helpers: Condvar::new(),
            halted: AtomicBool::new(false),
            ahead,
            capacity: capacity.max(ahead),
        }
    }

    /// A closed pipeline holding `items` (no producer): every item is queued
    /// at once, and still searched at most `ahead` places past the head.
    pub(super) fn with_items(items: impl IntoIterator<Item = I>, ahead: usize) -> Self {
        let pipeline = Pipeline::new(ahead, ahead);
        {
            let mut st = pipeline.state.lock();
            st.slots.extend(items.into_iter().map(Slot::Queued));
            st.closed = true;
        }
        pipeline
    }

    /// Whether the pipeline has stopped.
    #[cfg(test)]
    pub(super) fn halted(&self) -> bool {
        self.halted.load(Ordering::Acquire)
    }

    /// The flag behind [`Pipeline::halted`], for readers that check it.
    pub(super) fn halt_flag(&self) -> &AtomicBool {
        &self.halted
    }

    /// Stops claims and producing, and wakes everyone.
    pub(super) fn halt(&self) {
        let mut st = self.state.lock();
        self.halt_locked(&mut st);
    }

    fn halt_locked(&self, st: &mut State<I, O>) {
        st.halted = true;
        self.halted.store(true, Ordering::Release);
        self.drainer.notify_all();
        self.helpers.notify_all();
    }

    /// Queues `items` from the producer, emptying it, and closes the
    /// pipeline when no more will come.
    fn queue(&self, items: &mut Vec<I>, more: bool) {
        let mut st = self.state.lock();
        if st.halted || st.closed {
            items.clear();
            return;
        }
        st.slots.extend(items.drain(..).map(Slot::Queued));
        if !more {
            st.closed = true;
            self.helpers.notify_all();
            return;
        }
        let claimable = self.claimable(&st);
        if claimable > 0 && st.idle_helpers > 0 {
            if claimable >= st.idle_helpers {
                self.helpers.notify_all();
            } else {
                for _ in 0..claimable {
                    self.helpers.notify_one();
                }
            }
        }
    }

    /// Whether the drainer should ask the producer for more now, having
    /// handed on `handed` outcomes: there is room. Once past the start (see
    /// [`QUEUED_AT_FIRST`]) the producer keeps `capacity` items queued, as
    /// far ahead as a producer thread of its own would, so the helpers go
    /// on while a busy machine leaves the drainer unscheduled for a while.
    fn wants_more(&self, st: &State<I, O>, handed: usize) -> bool {
        let queued = self
            .capacity
            .min(QUEUED_AT_FIRST.saturating_add(handed.saturating_mul(2)));
        !st.closed && !st.halted && st.slots.len() < queued
    }

    /// Queued items that may be claimed now.
    fn claimable(&self, st: &State<I, O>) -> usize {
        if st.halted {
            return 0;
        }
        st.slots.len().min(self.ahead).saturating_sub(st.claimed)
    }

    fn claim(&self, st: &mut State<I, O>) -> Option<(u64, I)> {
        if self.claimable(st) == 0 {
            return None;
        }
        let at = st.claimed;
        let slot = std::mem::replace(&mut st.slots[at], Slot::Running);
        match slot {
            Slot::Queued(item) => {
                st.claimed += 1;
                Some((st.base + at as u64, item))
            }
            other => {
                // Slots past `claimed` are always queued; keep the state
                // as it was should that ever not hold.
                st.slots[at] = other;
                None
            }
        }
    }

    fn complete(&self, st: &mut State<I, O>, seq: u64, item: I, outcome: O) {
        let Some(at) = seq.checked_sub(st.base) else {
            return;
        };
        if let Some(slot) = st.slots.get_mut(at as usize) {
            *slot = Slot::Done(item, outcome);
            if at == 0 && st.drainer_waits {
                self.drainer.notify_one();
            }
        }
    }

    /// A helper's loop: claims, searches and completes items until nothing
    /// may be claimed (waiting while the producer is merely behind), or
    /// its turn ends. `init` makes the helper's searcher on its first item.
    pub(super) fn help<S>(&self, init: impl Fn() -> S, work: impl Fn(&mut S, &I) -> O) {
        let mut guard = Leaving {
            pipeline: self,
            item_held: false,
        };
        let mut searcher = None;
        let mut turn_ends = Instant::now() + HELPER_TURN;
        let mut st = self.state.lock();
        loop {
            if Instant::now() >= turn_ends {
                if file_stores_store::pool::shared() {
                    break;
                }
                // Alone in the pool: leaving would only cost a wake-up.
                turn_ends = Instant::now() + HELPER_TURN;
            }
            if let Some((seq, item)) = self.claim(&mut st) {
                guard.item_held = true;
                drop(st);
                let outcome = work(searcher.get_or_insert_with(&init), &item);
                st = self.state.lock();
                self.complete(&mut st, seq, item, outcome);
                guard.item_held = false;
                continue;
            }
            let behind = !st.closed && !st.halted && st.slots.len() < self.ahead;
            if !behind {
                break;
            }
            st.idle_helpers += 1;
            self.helpers.wait_until(&mut st, turn_ends);
            st.idle_helpers -= 1;
        }
        drop(st);
        drop(guard);
    }

    /// The drainer's loop, on the calling thread: hands the outcomes to
    /// `consume` in sequence order, searching items itself whenever none is
    /// ready, and starting helpers while there is work for them. Halts the
    /// pipeline on return, whatever ends it.
    pub(super) fn drain<S, E, Init, Work, Consume, Check, Broken>(
        &self,
        job: Drain<'_, '_, I, E, Init, Work, Consume, Check, Broken>,
    ) -> Result<End, E>
    where
        Init: Fn() -> S,
        Work: Fn(&mut S, &I) -> O,
        Consume: FnMut(I, O) -> Result<bool, E>,
        Check: Fn() -> Result<(), E>,
        Broken: FnOnce() -> E,
    {
        let Drain {
            helpers,
            spawn,
            mut produce,
            init,
            work,
            mut consume,
            check,
            broken,
        } = job;
        let _halt = HaltOnDrop(self);
        self.state.lock().max_helpers = helpers;
        let mut searcher = None;
        let mut ready = Vec::new();
        let mut produced = Vec::new();
        // Asked once between two items searched or outcomes handed on.
        let mut just_produced = false;
        let mut handed = 0usize;
        // The outcome of the item the drainer searched last, completed at
        // the next lock, which also takes the outcomes and the next claim.
        let mut searched = None;
        loop {
            check()?;
            let mut st = self.state.lock();
            if let Some((seq, item, outcome)) = searched.take() {
                self.complete(&mut st, seq, item, outcome);
            }
            if st.broken {
                return Err(broken());
            }
            self.take_ready(&mut st, &mut ready);
            if ready.is_empty() && !just_produced && self.wants_more(&st, handed) {
                if let Some(produce) = produce.as_deref_mut() {
                    let room = (self.capacity - st.slots.len()).min(PRODUCE_CHUNK);
                    drop(st);
                    let more = produce(&mut produced, room)?;
                    // A producer that adds nothing yet says "more" would
                    // be asked again and again: it is taken as done.
                    let more = more && !produced.is_empty();
                    self.queue(&mut produced, more);
                    just_produced = true;
                    continue;
                }
            }
            just_produced = false;
            let start = self.helpers_to_start(&mut st);
            if ready.is_empty() {
                if let Some((seq, item)) = self.claim(&mut st) {
                    drop(st);
                    self.start_helpers(start, spawn);
                    let outcome = work(searcher.get_or_insert_with(&init), &item);
                    searched = Some((seq, item, outcome));
                    continue;
                }
                if st.closed && st.slots.is_empty() {
                    return Ok(End::Finished);
                }
                // Nothing to take or to search (so no helper to start
                // either): wait for the head outcome, an item, or the end.
                st.drainer_waits = true;
                self.drainer.wait_for(&mut st, DRAINER_NAP);
                st.drainer_waits = false;
                continue;
            }
            drop(st);
            self.start_helpers(start, spawn);
            for (item, outcome) in ready.drain(..) {
                check()?;
                if !consume(item, outcome)? {
                    return Ok(End::Stopped);
                }
                handed += 1;
            }
        }
    }

    /// Moves the outcomes ready at the head into `ready`.
    fn take_ready(&self, st: &mut State<I, O>, ready: &mut Vec<(I, O)>) {
        while matches!(st.slots.front(), Some(Slot::Done(..))) {
            if let Some(Slot::Done(item, outcome)) = st.slots.pop_front() {
                ready.push((item, outcome));
                st.base += 1;
                st.claimed -= 1;
            }
        }
    }

    /// How many helpers to start now: one per claimable item beyond the
    /// one the drainer takes, up to `max_helpers` running.
    fn helpers_to_start(&self, st: &mut State<I, O>) -> usize {
        let wanted = self.claimable(st).saturating_sub(1);
        let start = wanted
            .saturating_sub(st.idle_helpers)
            .min(st.max_helpers.saturating_sub(st.helpers));
        st.helpers += start;
        start
    }

    fn start_helpers(&self, count: usize, spawn: &dyn Fn()) {
        for _ in 0..count {
            spawn();
        }
    }
}

/// Marks a helper gone; if it panicked holding an item, that item will
/// never be done, so the pipeline is marked broken and halted.
struct Leaving<'p, I, O> {
    pipeline: &'p Pipeline<I, O>,
    item_held: bool,
}

impl<I, O> Drop for Leaving<'_, I, O> {
    fn drop(&mut self) {
        let mut st = self.pipeline.state.lock();
        st.helpers = st.helpers.saturating_sub(1);
        if self.item_held {
            st.broken = true;
            self.pipeline.halt_locked(&mut st);
        } else if st.drainer_waits {
            self.pipeline.drainer.notify_one();
        }
    }
}

/// Halts the pipeline when the drainer returns, or unwinds.
struct HaltOnDrop<'p, I, O>(&'p Pipeline<I, O>);

impl<I, O> Drop for HaltOnDrop<'_, I, O> {
    fn drop(&mut self) {
        self.0.halt();
    }
}

#[cfg(test)]
mod tests;
