//! One worker's end of the rounds ([`Rounds`]): every worker sends its batches, addressed
//! by worker, into one timely input at the round's epoch, then steps the dataflow until
//! its probe has passed that epoch, so every batch of the round has arrived everywhere;
//! with the gathers to all and the verdicts every worker must share.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use timely::container::{ContainerBuilder, LengthPreservingContainerBuilder, PushInto};
use timely::dataflow::channels::pact::ExchangeCore;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};

use super::checkpoint;
use super::{Batch, DistError, Reader};
/// A batch in flight: the worker it goes to, and its bytes.
type Message = (u64, Vec<u8>);

/// A container builder that ships every element alone. Timely's exchange gathers 8 KiB
/// worth of elements per destination before shipping them (256 of our batches, each up
/// to megabytes, until the round ends); a batch is already large, so it goes at once.
struct OneEach<T> {
    ready: std::collections::VecDeque<Vec<T>>,
    out: Vec<T>,
}

impl<T> Default for OneEach<T> {
    fn default() -> Self {
        OneEach {
            ready: Default::default(),
            out: vec![],
        }
    }
}

impl<T> PushInto<T> for OneEach<T> {
    fn push_into(&mut self, item: T) {
        self.ready.push_back(vec![item]);
    }
}

impl<T: Clone + 'static> ContainerBuilder for OneEach<T> {
    type Container = Vec<T>;

    fn extract(&mut self) -> Option<&mut Vec<T>> {
        self.out = self.ready.pop_front()?;
        Some(&mut self.out)
    }

    fn finish(&mut self) -> Option<&mut Vec<T>> {
        self.extract()
    }
}

impl<T: Clone + 'static> LengthPreservingContainerBuilder for OneEach<T> {}

/// Batches received, with the round (epoch) they were sent in.
type Inbox = Rc<RefCell<Vec<Message>>>;

/// One worker's end of the rounds.
pub(super) struct Rounds<'w> {
    worker: &'w mut timely::worker::Worker,
    input: InputHandle<u64, timely::container::CapacityContainerBuilder<Vec<Message>>>,
    probe: ProbeHandle<u64>,
    inbox: Inbox,
    epoch: u64,
    pub(super) me: usize,
    pub(super) peers: usize,
    /// Bytes sent by this worker so far.
    pub(super) sent: u64,
}

impl<'w> Rounds<'w> {
    pub(super) fn new(worker: &'w mut timely::worker::Worker) -> Rounds<'w> {
        let inbox: Inbox = Rc::default();
        let sink = inbox.clone();
        let mut input = InputHandle::new();
        let probe = ProbeHandle::new();
        worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(&mut input)
                .unary::<timely::container::CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    ExchangeCore::<OneEach<Message>, _>::new_core(|x: &(u64, Vec<u8>)| x.0),
                    "Inbox",
                    move |_, _| {
                        move |input, _output| {
                            input.for_each(|cap, data| {
                                let t = cap.least().copied().unwrap_or(u64::MAX);
                                let mut inbox = sink.borrow_mut();
                                for (_, b) in data.drain(..) {
                                    inbox.push((t, b));
                                }
                            });
                        }
                    },
                )
                .probe_with(&probe);
        });
        let (me, peers) = (worker.index(), worker.peers());
        Rounds {
            worker,
            input,
            probe,
            inbox,
            epoch: 0,
            me,
            peers,
            sent: 0,
        }
    }

    /// Sends `b` to worker `w` now, within the current round, and empties it: a long
    /// round streams its batches instead of holding a whole layer's in memory.
    pub(super) fn send_now(&mut self, w: usize, b: &mut Batch) {
        if b.0.is_empty() {
            return;
        }
        let mut msg = Vec::with_capacity(b.0.len() + 4);
        msg.extend_from_slice(&(self.me as u32).to_le_bytes());
        msg.extend_from_slice(&b.0);
        b.0.clear();
        self.sent += msg.len() as u64;
        self.input.send((w as u64, msg));
        // Hand what was sent to timely now, so it travels while this worker goes on.
        self.input.flush();
    }

    /// The batches of the current round received so far, with their senders.
    pub(super) fn poll(&mut self) -> Vec<(usize, Vec<u8>)> {
        self.worker.step();
        self.take(self.epoch)
    }

    /// The batches of `round` in the inbox, with their senders.
    fn take(&mut self, round: u64) -> Vec<(usize, Vec<u8>)> {
        let mut inbox = self.inbox.borrow_mut();
        let mut got = vec![];
        inbox.retain_mut(|(t, b)| {
            if *t == round {
                let sender = u32::from_le_bytes(b[..4].try_into().unwrap_or_default()) as usize;
                got.push((sender, b.split_off(4)));
                false
            } else {
                true
            }
        });
        got
    }

    /// Ends a round: `out[w]` goes to worker `w` (each batch starts with the sender's
    /// index, added here); returns the batches received and not yet polled, with their
    /// senders.
    pub(super) fn exchange(&mut self, out: Vec<Batch>) -> Vec<(usize, Vec<u8>)> {
        if self.peers == 1 {
            // A worker alone: what it would send itself is what it receives, with no
            // round through the dataflow (thousands of layers would pay one each).
            return out
                .into_iter()
                .filter(|b| !b.0.is_empty())
                .map(|b| (0, b.0))
                .collect();
        }
        for (w, mut b) in out.into_iter().enumerate() {
            self.send_now(w, &mut b);
        }
        let round = self.epoch;
        self.epoch += 1;
        self.input.advance_to(self.epoch);
        // Spin first: a round of a small layer ends in microseconds, and a search of
        // thousands of layers would wait out a park in each. Then park, so a worker
        // waiting on a slower peer leaves the core to others.
        let mut spins = 0u32;
        while self.probe.less_than(self.input.time()) {
            if spins < 2000 {
                self.worker.step();
                spins += 1;
                if spins.is_multiple_of(64) {
                    std::thread::yield_now();
                }
            } else {
                self.worker.step_or_park(Some(Duration::from_millis(1)));
            }
        }
        self.take(round)
    }

    /// Every worker sends `mine` to all; returns what each sent, by sender.
    pub(super) fn all_gather(&mut self, mine: &Batch) -> Vec<Vec<u8>> {
        // An empty message would not be sent: mark each with one byte.
        let out = (0..self.peers)
            .map(|_| {
                let mut b = Batch(vec![1]);
                b.0.extend_from_slice(&mine.0);
                b
            })
            .collect();
        let mut by = vec![vec![]; self.peers];
        for (w, mut b) in self.exchange(out) {
            b.remove(0);
            by[w] = b;
        }
        by
    }

    /// What this worker read from checkpoint `dir`, once every worker has read its
    /// part: if any could not, every worker fails (one that stopped alone would leave
    /// the others waiting for it).
    pub(super) fn all_read<T>(
        &mut self,
        got: Result<T, DistError>,
        dir: &std::path::Path,
    ) -> Result<T, DistError> {
        self.all_ok(got, &format!("read its part of {}", dir.display()))
    }

    /// Checks, after a resume, that every worker read a part of the same run: the
    /// digests of what all workers must hold alike (the run's figures) are equal and,
    /// when `totals` are given, the workers' `parts` (states in each layer) add up to
    /// them, layer by layer. Every worker ends with the same verdict.
    pub(super) fn all_consistent(
        &mut self,
        alike: u64,
        parts: &[u64],
        totals: Option<&[u64]>,
        dir: &std::path::Path,
    ) -> Result<(), DistError> {
        let mut mine = Batch::default();
        mine.u64(alike);
        mine.u64(parts.len() as u64);
        for &p in parts {
            mine.u64(p);
        }
        let all = self.all_gather(&mine);
        let mut sums = vec![0u64; parts.len()];
        for (w, b) in all.iter().enumerate() {
            let mut r = Reader { b, at: 0 };
            let (a, n) = (r.u64(), r.u64());
            if a == alike && n == parts.len() as u64 {
                for s in &mut sums {
                    *s = s.saturating_add(r.u64());
                }
            }
            if a != alike || n != parts.len() as u64 || r.overran() {
                return Err(checkpoint::err(format!(
                    "the parts of {} that workers {} and {w} read disagree: the checkpoint \
                     is damaged or mixes runs",
                    dir.display(),
                    self.me
                )));
            }
        }
        if totals.is_some_and(|t| t != &sums[..]) {
            return Err(checkpoint::err(format!(
                "the parts of {} do not add up to the layer they say they hold: the \
                 checkpoint is damaged or mixes runs",
                dir.display()
            )));
        }
        Ok(())
    }

    /// `got` once every worker has its own: if any failed (a checkpoint it could not
    /// read or write), every worker fails, the others naming it (`worker W could not
    /// {what}`).
    pub(super) fn all_ok<T>(
        &mut self,
        got: Result<T, DistError>,
        what: &str,
    ) -> Result<T, DistError> {
        let mut mine = Batch::default();
        mine.u32(got.is_err() as u32);
        let failed = self
            .all_gather(&mine)
            .iter()
            .position(|b| Reader { b, at: 0 }.u32() == 1);
        match (got, failed) {
            (Err(e), _) => Err(e),
            (Ok(_), Some(w)) => Err(checkpoint::err(format!("worker {w} could not {what}"))),
            (Ok(v), None) => Ok(v),
        }
    }

    pub(super) fn empty(&self) -> Vec<Batch> {
        (0..self.peers).map(|_| Batch::default()).collect()
    }
}
